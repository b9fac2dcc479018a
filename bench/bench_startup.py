"""Benchmark: what a command costs before and around its work (issue: the core as parts).

Prints
  import   `import blonde_core.study` in a fresh process (median of N), and which heavy libraries it loads
           (target <= 0.15 s, none of numpy, scipy, pandas, plotly, spacy, sacrebleu, streamlit);
  warm     the whole process of `score --per-doc` on TED zh-en (13 systems and refB against ref) with every
           sentence cached (median of N), against `python -c "import numpy"` run between them (target: at
           most 2 x, issue 45);
  wmt warm the whole process of `score --per-doc`, and of `score`, on WMT22 zh-en (12 systems and refB
           against refA) with its cache filled by the cold run below, against `python -c "import numpy"` (issue 45: warm as TED);
  correlate  cold `correlate --human` on WMT22 zh-en (12 systems and refB against refA, the real DA
           segment scores, its default metrics) against cold `score --per-doc` on the same files, each
           with an empty cache, in the same run (target: at most 1.5 x).

    .venv/bin/python bench/bench_startup.py [--repeat N] [--skip-wmt]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))
TED = SHARED / "data" / "ted-zhen"
WMT = SHARED / "data" / "wmt22-zhen"
HEAVY = ("numpy", "scipy", "pandas", "plotly", "spacy", "sacrebleu", "streamlit")

IMPORT = r"""
import sys, time
t = time.perf_counter()
import blonde_core.study
dt = time.perf_counter() - t
heavy = sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[1:]))
print(dt, ",".join(heavy))
"""


def timed(cmd: list[str], cache: Path) -> float:
    env = dict(os.environ, BLONDE_CACHE_DIR=str(cache))
    # as an installed Python runs: compiled modules are kept (a shell with PYTHONDONTWRITEBYTECODE=1 would
    # compile ~40 modules on every run, 0.05 s that no user pays)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    t = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr}")
    return dt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--skip-wmt", action="store_true")
    a = ap.parse_args()
    py = sys.executable
    runs = []
    for _ in range(a.repeat):
        out = subprocess.run([py, "-c", IMPORT, *HEAVY], cwd=ROOT, capture_output=True, text=True, check=True)
        dt, heavy = out.stdout.split()[0], (out.stdout.split() + [""])[1]
        runs.append(float(dt))
    print(f"import blonde_core.study: median {statistics.median(runs):.3f} s (min {min(runs):.3f}, max "
          f"{max(runs):.3f}; target <= 0.15 s); heavy libraries loaded: {heavy or 'none'}")

    tmp = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    ted = [py, "-m", "blonde_core", "score", "-r", str(TED / "refs" / "ref.txt"), "-s",
           *map(str, sorted((TED / "systems").glob("*.txt"))), str(TED / "refs" / "refB.txt"),
           "--docids", str(TED / "docids.txt"), "--per-doc", "--format", "json", "-o", str(tmp / "ted.json")]
    cold = timed(ted, tmp / "ted-cache")
    warm, numpy = [], []
    for _ in range(a.repeat):  # interleaved, so that both see the same load on a shared machine
        warm.append(timed(ted, tmp / "ted-cache"))
        numpy.append(timed([py, "-c", "import numpy"], tmp / "ted-cache"))
    w, n = statistics.median(warm), statistics.median(numpy)
    print(f"TED score --per-doc, whole process: cold {cold:.2f} s; warm median {w:.3f} s "
          f"(min {min(warm):.3f}, max {max(warm):.3f}); `python -c 'import numpy'` median {n:.3f} s: "
          f"warm = {w / n:.2f} x import numpy (target <= 2 x)")

    if a.skip_wmt:
        return
    files = ["-r", str(WMT / "refs" / "refA.txt"), "-s", *map(str, sorted((WMT / "systems").glob("*.txt"))),
             str(WMT / "refs" / "refB.txt"), "--docids", str(WMT / "docids.blk10.txt")]
    score = timed([py, "-m", "blonde_core", "score", *files, "--per-doc", "--format", "json", "-o",
                   str(tmp / "wmt.json")], tmp / "wmt-score")
    corr = timed([py, "-m", "blonde_core", "correlate", *files, "--human",
                  str(WMT / "human" / "ad-seg-scores-zh-en.csv"), "--format", "json", "-o", str(tmp / "corr.json")],
                 tmp / "wmt-correlate")
    print(f"WMT22 zh-en, cold (empty caches): score --per-doc {score:.1f} s, correlate --human {corr:.1f} s = "
          f"{corr / score:.2f} x (target <= 1.5 x)")
    wmt = [py, "-m", "blonde_core", "score", *files, "--per-doc", "--format", "json", "-o", str(tmp / "wmt.json")]
    plain = [py, "-m", "blonde_core", "score", *files, "--format", "json", "-o", str(tmp / "wmt-plain.json")]
    warm, bare, numpy = [], [], []
    for _ in range(a.repeat):  # the cache the cold score filled
        warm.append(timed(wmt, tmp / "wmt-score"))
        bare.append(timed(plain, tmp / "wmt-score"))
        numpy.append(timed([py, "-c", "import numpy"], tmp / "wmt-score"))
    n = statistics.median(numpy)
    for what, times in (("score --per-doc (6.9 MB of JSON)", warm), ("score", bare)):
        w = statistics.median(times)
        print(f"WMT22 zh-en {what}, whole process: warm median {w:.3f} s (min {min(times):.3f}, max "
              f"{max(times):.3f}); `python -c 'import numpy'` median {n:.3f} s: warm = {w / n:.2f} x import numpy "
              "(issue 45: warm as TED)")


if __name__ == "__main__":
    main()
