"""Benchmark: one session's first Overview while another session's large upload is being
annotated, on the dashboard server's shared worker processes (issue 38).

Session B loads TED zh-en (13 systems + refB against ref) and asks for what the Overview
shows first: the BlonDe leaderboard (Study.result and board), then BLEU and chrF. It does
so alone, then while session A annotates a large upload in the background: WMT22 zh-en's
13 texts and, with --copies N, N more copies of them with a suffix per copy so that no
sentence repeats (each copy ~3.9 MB and ~22,800 distinct sentences; the default 12 copies
make a 50 MB upload, which keeps A busy for well over B's run). Both use the server's engine settings (pool "server":
the same worker processes for both; annotations in memory, an engine per run, so every run is cold).
Target: B with A running <= 2 x B alone.

With --hostile, session A instead uploads hostile files again and again while B runs (issue 49): a
WMT-folder zip of ~124 KB whose system file inflates to 60 MB, and a 1,000,000-line JSON Lines file,
each read under the server's limits (500,000 segments) as the Data page reads them, and refused.

    .venv/bin/python bench/bench_fairness.py [--copies N] [--hostile]
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))

from blonde_core.io.readers import NamedBytes, plain_corpus  # noqa: E402
from blonde_core.study import Engine, ScoreConfig, Study  # noqa: E402
from blonde_core.study import reading_limits

TED = SHARED / "data" / "ted-zhen"
WMT = SHARED / "data" / "wmt22-zhen"


def ted_study(engine: Engine) -> Study:
    systems = sorted((TED / "systems").glob("*.txt")) + [TED / "refs" / "refB.txt"]
    return Study(plain_corpus([TED / "refs" / "ref.txt"], systems, docids=TED / "docids.txt"), "ted", engine=engine)


def big_study(engine: Engine, copies: int) -> tuple[Study, int]:
    files = [WMT / "refs" / "refA.txt"] + sorted((WMT / "systems").glob("*.txt")) + [WMT / "refs" / "refB.txt"]
    texts = {f.stem: f.read_text(encoding="utf-8") for f in files}
    size = 0
    refs, syss = [], []
    for c in range(copies + 1):
        for name, text in texts.items():
            body = text if c == 0 else "".join(f"{line} ({c})\n" for line in text.splitlines())
            size += len(body.encode())
            (refs if name == "refA" and c == 0 else syss).append(NamedBytes(f"{name}-{c}.txt", body.encode()))
    return Study(plain_corpus(refs, syss), "upload", engine=engine), size


def overview(study: Study) -> tuple[float, float]:
    """Seconds to the BlonDe leaderboard, and to BLEU and chrF after it."""
    cfg = ScoreConfig()
    t0 = time.perf_counter()
    study.board(cfg, n=200)
    t1 = time.perf_counter()
    for m in ("BLEU", "chrF"):
        study.standard(cfg.granularity, m)
    return t1 - t0, time.perf_counter() - t1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--copies", type=int, default=12)
    ap.add_argument("--head-start", type=float, default=10.0,
                    help="seconds A annotates before B starts (the workers serve the run that has sent fewer "
                         "texts first, so B's share grows with A's head start; 3 s is the hardest case measured)")
    ap.add_argument("--hostile", action="store_true", help="A uploads hostile files (a zip bomb, 1,000,000 lines) "
                                                           "again and again instead of a large upload")
    a = ap.parse_args()

    def engine() -> Engine:
        # each its own memo (at most 200,000 sentences, as the server's): every run cold
        return Engine(cache_mode="memory", pool="server", n_process=2, memo_sentences=200_000)

    warm = Study(plain_corpus([NamedBytes("r.txt", b"Warm up.\n")], [NamedBytes("s.txt", b"Warm it up.\n")]),
                 "w", engine=engine())
    warm.result(ScoreConfig())  # the worker processes started and loaded: not part of any figure
    alone = overview(ted_study(engine()))

    if a.hostile:
        return hostile(alone)
    big, size = big_study(engine(), a.copies)
    stop = threading.Event()
    a_done = []

    def upload() -> None:
        t0 = time.perf_counter()
        try:
            big.prefetch(ScoreConfig(), lambda: not stop.is_set()).join()
        finally:
            a_done.append(time.perf_counter() - t0)

    th = threading.Thread(target=upload, daemon=True)
    th.start()
    time.sleep(a.head_start)  # A's upload is running when B loads its data
    shared = overview(ted_study(engine()))
    a_running = not a_done
    stop.set()
    th.join(120)
    print(f"session B: TED zh-en Overview (14 texts, cold); session A: {size / 2 ** 20:.1f} MB upload "
          f"({big.n_distinct(ScoreConfig()):,} distinct sentences) started {a.head_start:g} s before B; "
          f"{os.cpu_count()} cores, 2 worker processes")
    print(f"{'':<24}{'BlonDe board s':>15}{'BLEU+chrF s':>13}{'total s':>9}")
    for name, (x, y) in (("B alone", alone), ("B while A annotates", shared)):
        print(f"{name:<24}{x:>15.2f}{y:>13.2f}{x + y:>9.2f}")
    ratio = sum(shared) / sum(alone)
    print(f"B with A / B alone = {ratio:.2f} (target <= 2); A was still annotating when B finished: "
          f"{'yes' if a_running else 'NO (use more --copies)'}")


def hostile(alone: tuple[float, float]) -> None:
    """B's Overview while A's hostile uploads are read and refused in a loop."""
    from bench_hostile import bomb_zip, million_lines
    from blonde_core.study import InputError

    bomb = NamedBytes("bomb.zip", bomb_zip())
    lines = NamedBytes("big.jsonl", million_lines())
    stop, refused = threading.Event(), []

    def attack() -> None:
        while not stop.is_set():
            for read in (lambda: Study.from_wmt(bomb), lambda: Study.from_structured(lines)):
                try:
                    with reading_limits(10_000, 500_000):
                        read()
                except InputError:
                    refused.append(1)

    th = threading.Thread(target=attack, daemon=True)
    th.start()
    engine = Engine(cache_mode="memory", pool="server", n_process=2, memo_sentences=200_000)
    shared = overview(ted_study(engine))
    stop.set()
    th.join(60)
    print(f"session B: TED zh-en Overview (14 texts, cold); session A: hostile uploads read and refused in a loop "
          f"({len(refused)} refusals during B's run: a 124 KB zip of 60 MB, a 1,000,000-line JSON Lines file)")
    print(f"{'':<24}{'BlonDe board s':>15}{'BLEU+chrF s':>13}{'total s':>9}")
    for name, (x, y) in (("B alone", alone), ("B during A's attack", shared)):
        print(f"{name:<24}{x:>15.2f}{y:>13.2f}{x + y:>9.2f}")
    print(f"B during attack / B alone = {sum(shared) / sum(alone):.2f} (target <= 2)")


if __name__ == "__main__":
    main()
