"""Meta-evaluation at WMT size: `correlate --spa` on WMT22 zh-en (12 systems + refB,
1,875 segments in 188 blocks of 10, direct-assessment judgments).

    .venv/bin/python bench/bench_correlate.py [--permutations 1000]

The DA file (`SYS SID RAW.SCR Z.SCR N`, space-separated, `.K` suffixes, HUMAN-B for
refB) is read as it is (blonde_core/da.py: SIDs bound to the loaded lines, names mapped).
Documents are the blocks of `docids.blk10.txt`, not the news documents.  Prints the CLI's time cold (annotation
cache empty) and warm, and the time of the meta-evaluation alone, in the process.
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
WMT = SHARED / "data" / "wmt22-zhen"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--permutations", type=int, default=1000)
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-corr-"))
    human = WMT / "human" / "ad-seg-scores-zh-en.csv"
    systems = sorted((WMT / "systems").glob("*.txt")) + [WMT / "refs" / "refB.txt"]
    args = [sys.executable, "-m", "blonde_core", "correlate", "-r", str(WMT / "refs" / "refA.txt"),
            "-s", *map(str, systems), "--docids", str(WMT / "docids.blk10.txt"), "--human", str(human),
            "--spa", "--accuracy", "--permutations", str(a.permutations), "--metrics", "BlonDe,BlonD-d",
            "--format", "json", "--cache-dir", str(tmp / "cache")]
    print(f"== correlate --spa on WMT22 zh-en: {len(systems)} systems x 1,875 segments, "
          f"{a.permutations} permutations")
    for label in ("cold (empty annotation cache)", "warm"):
        t = time.perf_counter()
        p = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
        if p.returncode:
            sys.exit(p.stderr)
        print(f"CLI {label}: {time.perf_counter() - t:.1f} s")
    import json

    out = json.loads(p.stdout)
    print(f"{out['n_systems']} systems, {out['cells_rated']} of {out['cells']} (system, block) cells rated; "
          f"BlonDe: Pearson {out['metrics']['BlonDe']['pearson']:+.3f}, accuracy "
          f"{out['metrics']['BlonDe']['accuracy']:.3f}, SPA {out['metrics']['BlonDe']['spa']:.3f}")
    # the meta-evaluation alone, in the process, on the cached annotations
    sys.path.insert(0, str(ROOT))
    from blonde_core.analysis.stats import correlate
    from blonde_core.study import Engine, ScoreConfig, Study

    study = Study.from_files([WMT / "refs" / "refA.txt"], systems, docids=WMT / "docids.blk10.txt", human=human,
                             origin="bench", engine=Engine(cache_mode="disk", cache_dir=tmp / "cache"))
    res = study.result(ScoreConfig())
    t = time.perf_counter()
    correlate(res, study.human, "system", spa=True, permutations=a.permutations)
    print(f"meta-evaluation alone (BlonDe, BlonD-d and every category; correlations, bootstrap intervals, "
          f"accuracy, SPA): {time.perf_counter() - t:.2f} s")


if __name__ == "__main__":
    main()
