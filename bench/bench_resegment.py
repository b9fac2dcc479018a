"""Benchmark (issue 47): re-segmenting WMT22 zh-en's 12 system outputs against a warm `score` of the same files.

Each system has every third sentence joined to the next inside each document (the reference's 10-sentence
blocks of docids.blk10.txt as documents, written as blank-line documents), so every document of every
system is re-segmented. Measured in one run:
  warm     `score -r refA -s <the 12 original outputs> --blank-line-docs --format json`, cache filled
  reseg    the same study's re-segmentation (mweralign in its child processes), alone, cold
  again    the same files read and re-segmented again: every document's cut from the disk cache
Target: re-segmentation <= 0.3 x warm.

    .venv/bin/python bench/bench_resegment.py
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))
WMT = SHARED / "data" / "wmt22-zhen"


def blank_line_docs(lines: list[str], ids: list[str]) -> list[list[str]]:
    """Lines grouped by document id; an empty line (Online-W has one) becomes "..." so that it does not end a
    blank-line document."""
    out: dict = {}
    for d, s in zip(ids, lines):
        out.setdefault(d, []).append(s if s.strip() else "...")
    return list(out.values())


def main() -> int:
    from blonde_core.study import Study
    from test_resegment import join_every_third  # the test's own way of merging sentences

    ids = (WMT / "docids.blk10.txt").read_text(encoding="utf-8").splitlines()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)

        def write(name, docs):
            (tmp / name).write_text("\n\n".join("\n".join(d) for d in docs) + "\n", encoding="utf-8")
            return str(tmp / name)

        ref = write("refA.txt", blank_line_docs((WMT / "refs" / "refA.txt").read_text(encoding="utf-8").splitlines(), ids))
        originals, cut = [], []
        for p in sorted((WMT / "systems").glob("*.txt")):
            docs = blank_line_docs(p.read_text(encoding="utf-8").splitlines(), ids)
            originals.append(write(p.name, docs))
            cut.append(write(f"joined-{p.name}", [join_every_third(d) for d in docs]))
        cmd = [sys.executable, "-m", "blonde_core", "score", "-r", ref, "-s", *originals, "--blank-line-docs",
               "--format", "json"]
        env = dict(os.environ, BLONDE_CACHE_DIR=str(tmp / "cache"))
        subprocess.run(cmd, env=env, cwd=ROOT, check=True, capture_output=True)  # fills the cache
        t0 = time.perf_counter()
        subprocess.run(cmd, env=env, cwd=ROOT, check=True, capture_output=True)
        warm = time.perf_counter() - t0
        from blonde_core.study import Engine

        study = Study.from_files([ref], cut, blank_line_docs=True,
                                 engine=Engine(cache_mode="disk", cache_dir=str(tmp / "cache")))
        t0 = time.perf_counter()
        moved = study.resegmented().resegmentation()
        reseg = time.perf_counter() - t0
        t0 = time.perf_counter()
        again = Study.from_files([ref], cut, blank_line_docs=True,
                                 engine=Engine(cache_mode="disk", cache_dir=str(tmp / "cache"))).resegmented()
        reseg_warm = time.perf_counter() - t0
        assert again.resegmentation() == moved
    n_docs = sum(len(v) for v in moved.values())
    print(f"WMT22 zh-en, {len(cut)} systems with every third sentence joined: {n_docs} documents re-segmented")
    print(f"warm score of the originals {warm:.2f} s; re-segmentation {reseg:.2f} s, ratio {reseg / warm:.3f}; "
          f"again, from the disk cache (reading the files included) {reseg_warm:.2f} s, ratio "
          f"{reseg_warm / warm:.3f} (target <= 0.3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
