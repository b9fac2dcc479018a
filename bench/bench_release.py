"""Benchmark: a WMT release as one study against its pairs one at a time (issue 65).

    .venv/bin/python bench/bench_release.py [--lp en-cs en-ja ...] [--ci 1000]

For the chosen pairs of WMT24 as released (default: every pair of the folder):
  single  `score --wmt-dir DIR --lp P --ci N --format json` per pair, each with an empty cache: wall time and
          peak memory of the command's whole process tree, as RSS (a page shared between the parent and its
          forked workers counted in each: the issue's measure) and as PSS (each page counted once);
  release `score --wmt-dir DIR --lp P1 --lp P2 ... --ci N --format json` once, with an empty cache;
  warm    in one process, Study.release over the same pairs twice with one engine (what a warm server's Release
          page computes after any session has shown those pairs): the second call's time.
Memory is sampled every 0.5 s (bench_score.measure). Targets (issue 65): release <= the sum of the singles, its
peak RSS <= 1.5 x the largest single's, warm <= 2 s. The machine is shared: compare ratios measured in one run."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_score import ROOT, SHARED, measure  # noqa: E402  (wall time, peak RSS and PSS of a command's tree)

WMT24 = SHARED / "data" / "wmt24"


def timed(argv: list[str], cache: str) -> dict:
    """`python -m blonde_core ARGV` with an empty cache: bench_score.measure's wall, peak_mb, peak_pss_mb, code
    (a failure's last stderr printed, the benchmark goes on)."""
    r = measure([sys.executable, "-m", "blonde_core", *argv], dict(os.environ, BLONDE_CACHE_DIR=cache), check=False,
                every=0.5, pss=True)
    if r["code"]:
        print(r["err"].decode(errors="replace")[-600:], file=sys.stderr)
    return r


WARM = r"""
import sys, time
from blonde_core.study import Engine, ScoreConfig, Study
src, lps, n = sys.argv[1], sys.argv[3:], int(sys.argv[2])
engine = Engine()
def cfg_of(st):
    g = st.guess_language()["language"]
    return ScoreConfig(lang=g, lowercase=Study.pack_lowercase(g))
studies = {}
Study.release(src, lps, cfg_of, n, engine=engine, studies=studies)
t0 = time.perf_counter()
Study.release(src, lps, cfg_of, n, engine=engine, studies=studies)
print(f"{time.perf_counter() - t0:.3f}")
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lp", nargs="+", help="pairs (default: every pair of WMT24)")
    ap.add_argument("--ci", type=int, default=1000)
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from blonde_core.study import Study

    lps = a.lp or Study.wmt_pairs(WMT24)
    rows = []

    def said(name: str, r: dict) -> str:
        return (f"{name}: {r['wall']:7.1f} s, peak RSS {r['peak_mb']:6.0f} MB, PSS {r['peak_pss_mb']:6.0f} MB, "
                f"exit {r['code']}")
    for lp in lps:
        with tempfile.TemporaryDirectory() as cache:
            r = timed(["score", "--wmt-dir", str(WMT24), "--lp", lp, "--ci", str(a.ci), "--format", "json"], cache)
        rows.append(r)
        print(said(f"single {lp}", r), flush=True)
    with tempfile.TemporaryDirectory() as cache:
        several = [x for lp in lps for x in ("--lp", lp)]
        rel = timed(["score", "--wmt-dir", str(WMT24), *several, "--ci", str(a.ci), "--format", "json"], cache)
        print(said(f"release ({len(lps)} pairs)", rel), flush=True)
        env = dict(os.environ, BLONDE_CACHE_DIR=cache)
        warm = subprocess.run([sys.executable, "-c", WARM, str(WMT24), str(a.ci), *lps], cwd=ROOT, env=env,
                              capture_output=True, text=True)
    total = sum(r["wall"] for r in rows)
    top, top_pss = max(r["peak_mb"] for r in rows), max(r["peak_pss_mb"] for r in rows)
    print(f"sum of singles {total:.1f} s; release / sum = {rel['wall'] / total:.2f} (target <= 1.00)")
    print(f"largest single peak RSS {top:.0f} MB; release peak RSS / largest = {rel['peak_mb'] / top:.2f} "
          "(target <= 1.50)")
    print(f"largest single peak PSS {top_pss:.0f} MB; release peak PSS / largest = {rel['peak_pss_mb'] / top_pss:.2f}")
    print(f"warm Release table: {warm.stdout.strip() or warm.stderr[-400:]} s (target <= 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
