"""The metric part: the BlonDe formula and nothing else.

Contract: `BlonDe(ScoreConfig).evaluate(corpus)` (blonde.py) gives a `Result`:
per-unit sufficient statistics `(units, features, [matched, system, reference])`
for every system, and the scores computed from them.  settings.py declares the
settings, presets and signature; features.py turns annotation records into
feature counts with the language pack; sufficient.py matches systems against
references; scoring.py is the formula (weighted P/R per category, n-gram
smoothing, floored geometric mean, F1); plus.py reads BlonD+ checkpoints.
"""
