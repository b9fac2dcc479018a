"""Benchmark: all pairs of the 14 TED zh-en systems (13 MT + refB against ref)
with 1000 paired bootstrap resamples at document level, annotations cached.
Target: at most 2 s for the whole command.  Also times the t-test, the
approximate randomization test (10000 trials) and document-level correlation
with MQM.

    .venv/bin/python bench/bench_stats.py [--repeat N]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))
TED = SHARED / "data" / "ted-zhen"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3, help="runs per command; the best is reported")
    a = ap.parse_args()
    systems = sorted(str(p) for p in (TED / "systems").glob("*.txt"))
    corpus = ["-r", str(TED / "refs" / "ref.txt"), "-s", *systems, str(TED / "refs" / "refB.txt"),
              "--docids", str(TED / "docids.txt")]
    py = [sys.executable, "-m", "blonde_core"]
    runs = {
        "compare bootstrap n=1000 (target <= 2 s)": py + ["compare", *corpus, "--test", "bootstrap", "--n", "1000",
                                                          "--format", "json"],
        "compare ttest": py + ["compare", *corpus, "--test", "ttest", "--format", "json"],
        "compare ar n=10000": py + ["compare", *corpus, "--test", "ar", "--format", "json"],
        "correlate document-level MQM": py + ["correlate", *corpus, "--human",
                                              str(TED / "raw" / "mqm_ted_zhen.tsv"), "--level", "document",
                                              "--format", "json"],
    }
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, BLONDE_CACHE_DIR=cache)
        subprocess.run(py + ["score", *corpus], env=env, cwd=ROOT, check=True, capture_output=True)  # fill cache
        print(f"{len(systems) + 1} systems, {len(systems) * (len(systems) + 1) // 2} pairs, 5 documents; "
              f"cached annotations; best of {a.repeat}")
        for name, cmd in runs.items():
            best = float("inf")
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                subprocess.run(cmd, env=env, cwd=ROOT, check=True, capture_output=True)
                best = min(best, time.perf_counter() - t0)
            print(f"{name:<42} {best:6.2f} s")


if __name__ == "__main__":
    main()
