"""What a leaderboard shows beside each score, computed in one place for the Overview page
and for `score --ci N`, so that the two agree:

* 95% percentile bootstrap intervals of BlonDe, BlonD-d and BlonD+ over the significance
  policy's unit (policy.py: documents, or blocks of segments when there are few documents);
* 95% intervals of sacrebleu's metrics over resampled documents (seed and resamples alike);
* significance clusters under the one policy: systems ranked by BlonDe F1, a new cluster
  at the first system significantly worse than the best of the current one.
"""
from __future__ import annotations

import numpy as np

from blonde_core.numbers import nan_to_none
from . import policy
from .intervals import bootstrap_cis, percentile_ci, resample_weights
from .paired import compare, significance_clusters
from .units import DEFAULT_SEED


def tops(result) -> list[str]:
    """The BlonDe family the leaderboard shows with intervals."""
    return ["BlonDe", "BlonD-d"] + (["BlonD+"] if result.plus else [])


def board(result, n: int = policy.RESAMPLES, seed: int = DEFAULT_SEED, tested: dict | None = None,
          cis: dict | None = None) -> dict:
    """Intervals and clusters of the BlonDe family over the policy's unit.

    tested, cis: compare(result, "BlonDe", policy.TEST, unit, n, seed) and
    bootstrap_cis(result, tops(result), n, seed, unit) when the caller has them already
    (the dashboard caches both); they are computed here otherwise."""
    choice = policy.corpus_unit(result.corpus, result.config.granularity)
    unit = choice["unit"]
    if tested is None:
        tested = compare(result, metric="BlonDe", test=policy.TEST, unit=unit, n=n, seed=seed, system_cis=False)
    if cis is None:
        cis = bootstrap_cis(result, tops(result), n=n, seed=seed, unit=unit)
    best_first = sorted(result.names, key=lambda s: -1e9 if cis["BlonDe"][s]["score"] is None
                        else -cis["BlonDe"][s]["score"])
    clusters = significance_clusters(best_first, tested["pairs"], policy.ALPHA, policy.CORRECTION)
    return {"signature": f"{result.signature}|ci:bootstrap|n:{n}|unit:{unit}|seed:{seed}",
            "unit": unit, "n_units": tested["n_units"], "unit_reason": choice["reason"], "note": choice["note"],
            "warning": tested["warning"], "resamples": n, "seed": seed, "level": 0.95,
            "intervals": cis, "clusters": clusters,
            "cluster_rule": policy.describe(policy.TEST, unit, tested["n_units"]),
            **({"absent_warning": tested["absent_warning"]} if tested.get("absent_warning") else {})}


def standard_intervals(standard, metrics, names, n: int = policy.RESAMPLES, seed: int = DEFAULT_SEED,
                       level: float = 0.95) -> dict:
    """{metric: {system: {"score", "ci"}}} for sacrebleu's metrics (a StandardResult):
    percentile intervals over the same resampled documents for every system."""
    out, weights = {}, {}
    for m in metrics:
        out[m] = {}
        for name in names:
            n_docs = len(standard.doc_stats[m][name])
            w = weights.get(n_docs)
            if w is None:
                w = weights[n_docs] = resample_weights(n_docs, n, seed)
            out[m][name] = {"score": nan_to_none(standard.score(m, name)),
                            "ci": percentile_ci(np.asarray(standard.bootstrap(m, name, w), float), level)}
    return out
