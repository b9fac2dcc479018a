"""Benchmark: the HTML report against `score --per-doc` on WMT22 zh-en (12 systems and refB against refA,
1,875 segments, the blocks of ten as documents), both warm (every sentence and sacrebleu statistic cached).

    score   python -m blonde_core score -r refA -s ... --docids ... --per-doc --format json
    report  python -m blonde_core report  (same inputs and settings) -o report.html
            (leaderboard with 1000 bootstrap resamples and clusters, BLEU and chrF with intervals, category
            heatmap, significance matrix, the three documents where the top two differ most)
Target: report <= 1.5 x score --per-doc, warm.  Both are run alternately, --repeat times each; the
best of each is compared (2 shared cores: compare the ratio, measured in one run).

    .venv/bin/python bench/bench_report.py [--repeat N] [--human]   (--human: both with the real DA rows,
                                                                     so the report has its correlation)
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_score import ROOT, SHARED, measure  # noqa: E402

WMT = SHARED / "data" / "wmt22-zhen"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--human", action="store_true", help="give both the WMT22 DA segment scores (--human)")
    a = ap.parse_args()
    py = sys.executable
    systems = sorted(str(p) for p in (WMT / "systems").glob("*.txt")) + [str(WMT / "refs" / "refB.txt")]
    inputs = ["-r", str(WMT / "refs" / "refA.txt"), "-s", *systems, "--docids", str(WMT / "docids.blk10.txt")]
    human = ["--human", str(WMT / "human" / "ad-seg-scores-zh-en.csv")] if a.human else []
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, BLONDE_CACHE_DIR=str(Path(d) / "cache"))
        out = str(Path(d) / "report.html")
        score_cmd = [py, "-m", "blonde_core", "score", *inputs, "--per-doc", "--format", "json"]
        report_cmd = [py, "-m", "blonde_core", "report", *inputs, *human, "-o", out]
        # warm both caches: annotations (score) and sacrebleu's per-segment statistics (report)
        measure(score_cmd, env)
        measure(report_cmd, env)
        score_runs, report_runs = [], []
        for _ in range(a.repeat):
            score_runs.append(measure(score_cmd, env))
            report_runs.append(measure(report_cmd, env))
        size = Path(out).stat().st_size
    s = min(r["wall"] for r in score_runs)
    r = min(r["wall"] for r in report_runs)
    print(f"WMT22 zh-en, 13 texts against refA, 1,875 segments, 188 blocks of ten; {os.cpu_count()} cores; warm; "
          f"best of {a.repeat}" + ("; with DA judgments" if a.human else ""))
    print(f"{'run':<22}{'wall s':>9}{'peak MB':>10}")
    print(f"{'score --per-doc':<22}{s:>9.2f}{max(x['peak_mb'] for x in score_runs):>10.0f}")
    print(f"{'report':<22}{r:>9.2f}{max(x['peak_mb'] for x in report_runs):>10.0f}")
    print(f"report / score = {r / s:.2f} (target <= 1.5); report file {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
