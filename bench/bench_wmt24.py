"""Benchmark: WMT24 as released (issue 44).

Prints, measured in one run on this machine:
  read     reading each of the eight pairs' folders (texts, documents, metadata, the canary left out, the
           folder's ESA exports bound to the pair) and both ESA files on their own;
  guess    the target language of each pair's reference (script, then py3langid);
  cli      `score --wmt-dir ... --lp LP --metrics chrF,BLEU` for one pair, empty cache (the baseline);
  first    what a first Overview of that pair computes in the server's code path (Study.from_wmt, the
           language guess, chrF and BLEU with their 95% intervals over documents, the human column),
           empty cache, in one process; target: at most 1.2 x cli.

    .venv/bin/python bench/bench_wmt24.py [--lp en-zh]
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
WMT24 = SHARED / "data" / "wmt24"
PAIRS = ("en-cs", "en-de", "en-es", "en-hi", "en-ja", "en-ru", "en-uk", "en-zh")

FIRST = r"""
import sys, time
t0 = time.perf_counter()
from blonde_core.engine import Engine
from blonde_core.study import Study
from blonde_core.metric.settings import ScoreConfig
s = Study.from_wmt(sys.argv[1], lp=sys.argv[2], engine=Engine(cache_mode="disk", cache_dir=sys.argv[3], pool="fork"))
cfg = ScoreConfig(lang=s.guess_language()["language"])
s.no_pack(cfg)
s.standard_intervals(cfg.granularity, ("chrF", "BLEU"), 1000)
s.human_column(list(s.corpus.systems))
print(time.perf_counter() - t0)
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lp", default="en-zh")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from blonde_core.io.esa import read_esa
    from blonde_core.lang import guess_language
    from blonde_core.study import Study

    total = 0.0
    for lp in PAIRS:
        t = time.perf_counter()
        s = Study.from_wmt(WMT24, lp=lp)
        dt = time.perf_counter() - t
        total += dt
        t = time.perf_counter()
        g = guess_language(x for d in next(iter(s.corpus.references.values())) for x in d)
        print(f"read  {lp}: {dt:6.2f} s ({len(s.corpus.systems)} systems, {s.corpus.n_segments} segments, human: "
              f"{s.human.name if s.human else 'none'}); guess {g['language']} in {time.perf_counter() - t:.3f} s")
    t = time.perf_counter()
    esa = read_esa(sorted((WMT24 / "human").glob("*.csv")))
    print(f"read  all eight pairs {total:.2f} s; both ESA files {time.perf_counter() - t:.2f} s ({len(esa.rows):,} "
          "judgments kept)")
    py = sys.executable
    with tempfile.TemporaryDirectory() as c1, tempfile.TemporaryDirectory() as c2:
        t = time.perf_counter()
        subprocess.run([py, "-m", "blonde_core", "score", "--wmt-dir", str(WMT24), "--lp", a.lp, "--metrics",
                        "chrF,BLEU", "--cache-dir", c1], cwd=ROOT, check=True, capture_output=True)
        cli = time.perf_counter() - t
        t = time.perf_counter()
        subprocess.run([py, "-c", FIRST, str(WMT24), a.lp, c2], cwd=ROOT, check=True, capture_output=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
        first = time.perf_counter() - t
    print(f"cli   score --metrics chrF,BLEU ({a.lp}, cold): {cli:.2f} s")
    print(f"first Overview's computation ({a.lp}, cold): {first:.2f} s = {first / cli:.2f} x cli (target <= 1.2)")


if __name__ == "__main__":
    main()
