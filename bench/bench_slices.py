"""Benchmark: the analyst's new views, each against what the page already did before it.

    MQM (TED's release, 9,915 rows, 15 systems, 529 segments):
      read      read_mqm (what loading the judgments costs)
      slice     slices by system and category under changed weights, with a filter
      signif    every pair of systems compared on a slice (105 pairs, 10,000 randomization trials)
    Buckets (WMT22 zh-en, two systems against refA, 1,875 segments, warm: annotations cached):
      contrast  Analysis.contrast(A, B)      (the Contrast page's tables, from the statistics)
      buckets   Analysis.buckets(A, B)       (length / score / frequency buckets, n-grams, spans, sentences)

Targets: a slice well under the read (the page recomputes it on every change); significance under a second;
buckets within a few times the contrast (it tokenizes the two systems' text once).  Each is run --repeat
times and the best is printed (2 shared cores: compare ratios measured in one run).

    .venv/bin/python bench/bench_slices.py [--repeat N] [--skip-wmt]
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def best(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-wmt", action="store_true", help="MQM only (no WMT22 annotation)")
    a = ap.parse_args()
    from blonde_core.analysis.mqm import MqmWeights, significance, slices
    from blonde_core.io.human import read_mqm

    mqm = SHARED / "data" / "ted-zhen" / "raw" / "mqm_ted_zhen.tsv"
    t_read, m = best(lambda: read_mqm(mqm), a.repeat)
    hs = m.scores
    w = MqmWeights.parse("Major=10; Accuracy/*:Minor=2")
    t_slice, rows = best(lambda: slices(hs, ["system", "category"], w, {"severity": ["Major", "Minor"]}), a.repeat)
    t_sig, sig = best(lambda: significance(hs, w, {"category": ["Accuracy/Mistranslation"]}), a.repeat)
    print(f"MQM TED ({len(hs.errors)} rows): read {t_read * 1000:.0f} ms; slice by system x category "
          f"({len(rows)} slices) {t_slice * 1000:.0f} ms = {t_slice / t_read:.2f} x read; significance "
          f"({len(sig['pairs'])} pairs, 10,000 trials) {t_sig * 1000:.0f} ms")
    if a.skip_wmt:
        return
    from blonde_core.io.readers import plain_corpus
    from blonde_core.study import ScoreConfig, Study

    wmt = SHARED / "data" / "wmt22-zhen"
    pair = ["Online-W", "HuaweiTSC"]
    study = Study(plain_corpus([wmt / "refs" / "refA.txt"], [wmt / "systems" / f"{n}.txt" for n in pair],
                               docids=wmt / "docids.blk10.txt"), "bench")
    t0 = time.perf_counter()
    res = study.analysis(ScoreConfig())
    print(f"WMT22 zh-en, {pair[0]} vs {pair[1]}: annotated and scored in {time.perf_counter() - t0:.1f} s "
          "(cold or warm: the disk cache decides)")
    t_con, _ = best(lambda: res.contrast(*pair), a.repeat)
    t_bk, bk = best(lambda: res.buckets(*pair), a.repeat)
    print(f"contrast {t_con * 1000:.0f} ms; buckets {t_bk * 1000:.0f} ms = {t_bk / t_con:.1f} x contrast "
          f"({len(bk['sentences'])} sentences, {bk['ngrams_differing']} n-grams differ)")


if __name__ == "__main__":
    main()
