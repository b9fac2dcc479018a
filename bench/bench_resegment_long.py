"""Benchmark (issue 63 point 8): re-segmenting ONE long document, its cost as the document grows.

The review measured re-segmentation of one document growing quadratically (250 segments 0.6 s / 41 MB; 1,000:
9.3 s / 279 MB; 2,000: 42.5 s / 991 MB; 4,000 failed under a 3 GB cap with "is mweralign installed?").  Here a
reference document of N segments (WMT22 zh-en's refA, its lines in order, cycled past its 1,875) and a system
that joined every third sentence to the next (Online-A's lines as tests/test_resegment.py joins them) are
re-segmented the way `score --resegment` does it (io/resegment.resegment: mweralign in a child process).
Each size runs in a fresh process; printed: N, seconds, the peak memory of the aligner's child process (the
largest child's maximum resident set), and how many segments the cut gave (must be N).

    .venv/bin/python bench/bench_resegment_long.py                  # 250 1000 2000 4000
    .venv/bin/python bench/bench_resegment_long.py --sizes 250 1000
Target (issue 63): 4,000 segments in at most 20 s and 500 MB.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))
WMT = SHARED / "data" / "wmt22-zhen"

ONE = r"""
import json, resource, sys, time
sys.path[:0] = [%(root)r, %(tests)r]
from blonde_core.io.resegment import resegment
from test_resegment import join_every_third
n = %(n)d
ref = [x for x in open(%(ref)r, encoding="utf-8").read().splitlines()]
hyp = [x for x in open(%(hyp)r, encoding="utf-8").read().splitlines()]
ref = [(ref * (n // len(ref) + 1))[:n]][0]
hyp = join_every_third([(hyp * (n // len(hyp) + 1))[:n]][0])
t0 = time.perf_counter()
try:
    cut = resegment([(ref, hyp)], "en")
    got = len(cut[0])
    said = ""
except Exception as exc:  # what the caller would show (io/corpus.py turns it into an InputError)
    got, said = 0, str(exc)
secs = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"n": n, "secs": secs, "peak": peak, "segments": got, "said": said}))
"""


def run(n: int) -> dict:
    code = ONE % {"root": str(ROOT), "tests": str(ROOT / "tests"), "n": n, "ref": str(WMT / "refs" / "refA.txt"),
                  "hyp": str(WMT / "systems" / "Online-A.txt")}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    if p.returncode:
        return {"n": n, "secs": float("nan"), "peak": float("nan"), "segments": 0, "said": p.stderr.strip()[-200:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[250, 1000, 2000, 4000])
    args = ap.parse_args()
    print("segments  seconds  child peak MB  cut")
    bad = 0
    for n in args.sizes:
        r = run(n)
        ok = r["segments"] == n
        bad += not ok
        print(f"{n:>8}  {r['secs']:>7.1f}  {r['peak']:>13.0f}  {r['segments']}{'' if ok else '  <- ' + r['said']}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
