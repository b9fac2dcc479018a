"""Benchmark: the Sandbox's response time for a ten-sentence document once the
pipeline is loaded (target: under a second).  Each round edits one word, so
the new sentence must really be annotated (the cache is bypassed).

    .venv/bin/python bench/bench_sandbox.py
"""
from __future__ import annotations

import time

from blonde_core.metric.settings import ScoreConfig
from blonde_core.io.corpus import Corpus
from blonde_core.metric.blonde import BlonDe
from sacrebleu.metrics import BLEU

REF = [f"In {1990 + i}, Anna Weber opened the shop when the market was quiet, but she kept it open."
       for i in range(10)]


def main():
    metric = BlonDe(ScoreConfig(), cache=False, n_process=1)
    t0 = time.perf_counter()
    metric.annotator.annotate(["warm-up sentence so that spaCy is loaded."])
    load = time.perf_counter() - t0
    times = []
    for k in range(10):
        cand = list(REF)
        cand[k % 10] = cand[k % 10].replace("she", "he") + f" Round {k}."
        t = time.perf_counter()
        c = Corpus(["sandbox"], {"reference": [REF]}, {"A": [cand]})
        res = metric.evaluate(c)
        res.scores("A")
        BLEU().corpus_score(cand, [REF])
        times.append(time.perf_counter() - t)
    times.sort()
    print(f"pipeline load {load:.2f} s; per edit (10 sentences, 1 new): median {times[5] * 1000:.0f} ms, "
          f"worst {times[-1] * 1000:.0f} ms (target < 1000 ms)")


if __name__ == "__main__":
    main()
