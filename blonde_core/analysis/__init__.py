"""The analysis part: everything computed from a `Result`'s sufficient statistics.

Contract: nothing here re-annotates or re-scores text.  stats/ (paired tests,
intervals, the leaderboard, correlation and WMT meta-evaluation), diagnostics.py
(per-feature and per-entity breakdowns), contrast.py (two systems), buckets.py (two
systems by length, score and word-frequency bucket, n-grams one matches and the other
not: words and n-grams from sacrebleu's 13a tokenizer, the scores from the statistics),
mqm.py (MQM judgments sliced, weighted and compared; no Result needed), threads.py
(entity and pronoun threads, tense timeline), overlap.py (BlonDe's spans against
MQM error spans), companion.py (Otem/Utem, early BlonD, RC), standard.py
(sacrebleu's BLEU/chrF/TER), apt.py (pronoun translation accuracy).
"""
