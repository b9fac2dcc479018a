"""What a leaderboard shows beside each score, computed in one place for the Overview page
and for `score --ci N`, so that the two agree:

* 95% bootstrap intervals of BlonDe, BlonD-d and BlonD+ over the significance policy's unit
  (policy.py: documents, or blocks of segments when there are few documents), policy.CI_METHOD: BCa, and
  where a discourse category vanishes in resamples the percentile over the resamples that keep every
  category (chosen by subsampling, docs/statistics.md); such a row is marked (MARK) and one line
  (`mark_line`) says what happened and which interval is shown;
* 95% intervals of sacrebleu's metrics over resampled documents (seed and resamples alike);
* significance clusters under the one policy: systems ranked by BlonDe F1, a new cluster
  at the first system significantly worse than the best of the current one.
"""
from __future__ import annotations

import numpy as np

from blonde_core.numbers import nan_to_none
from . import policy
from .intervals import bootstrap_cis, percentile_ci, resample_weights

MARK = "‡"  # a row whose BlonDe-family interval rests on resamples where categories vanish
METHOD_NAMES = {"percentile": "percentile", "conditional": "percentile over the resamples that keep every category",
                "bca": "BCa (bias-corrected and accelerated)",
                "bca-conditional": "BCa (bias-corrected and accelerated); where categories vanish in resamples, "
                                   "percentile over the resamples that keep every category"}
from .paired import compare, significance_clusters
from .units import DEFAULT_SEED


def tops(result) -> list[str]:
    """The BlonDe family the leaderboard shows with intervals."""
    return ["BlonDe", "BlonD-d"] + (["BlonD+"] if result.plus else [])


def board(result, n: int = policy.RESAMPLES, seed: int = DEFAULT_SEED, tested: dict | None = None,
          cis: dict | None = None, method: str = policy.CI_METHOD) -> dict:
    """Intervals and clusters of the BlonDe family over the policy's unit.

    tested, cis: compare(result, "BlonDe", policy.TEST, unit, n, seed) and
    bootstrap_cis(result, tops(result), n, seed, unit, method=method) when the caller has them already
    (the dashboard caches both); they are computed here otherwise.  "marked": the systems (best first) whose
    intervals rest on resamples where a discourse category vanishes, "mark_line" the one line that says so."""
    choice = policy.corpus_unit(result.corpus, result.config.granularity)
    unit = choice["unit"]
    if tested is None:
        tested = compare(result, metric="BlonDe", test=policy.TEST, unit=unit, n=n, seed=seed, system_cis=False)
    if cis is None:
        cis = bootstrap_cis(result, tops(result), n=n, seed=seed, unit=unit, method=method)
    best_first = sorted(result.names, key=lambda s: -1e9 if cis["BlonDe"][s]["score"] is None
                        else -cis["BlonDe"][s]["score"])
    clusters = significance_clusters(best_first, tested["pairs"], policy.ALPHA, policy.CORRECTION)
    marked = [s for s in best_first if cis["BlonDe"][s].get("absent")]
    return {"signature": f"{result.signature}|ci:bootstrap|n:{n}|unit:{unit}|seed:{seed}|method:{method}",
            "unit": unit, "n_units": tested["n_units"], "unit_reason": choice["reason"], "note": choice["note"],
            "warning": tested["warning"], "resamples": n, "seed": seed, "level": 0.95,
            "ci_method": method, "ci_method_name": METHOD_NAMES[method],
            "intervals": cis, "clusters": clusters,
            "cluster_rule": policy.describe(policy.TEST, unit, tested["n_units"]),
            **({"absent_warning": tested["absent_warning"]} if tested.get("absent_warning") else {}),
            **({"mark": MARK, "marked": marked, "mark_line": mark_line(cis, marked, method),
                "alternatives": {k: {m: {s: per[s][k] for s in marked} for m, per in cis.items()}
                                 for k in ("percentile", "conditional", "bca")}} if marked else {})}


def mark_line(cis: dict, marked: list[str], method: str) -> str:
    """The one line under a leaderboard whose rows carry MARK: which category vanishes in how many resamples,
    what that does to the percentile interval (the first marked system's, in points), and which is shown."""
    shares = {}
    for s in marked:
        for c, v in cis["BlonDe"][s]["absent"].items():
            shares[c] = max(shares.get(c, 0.0), v)
    first = cis["BlonDe"][marked[0]]

    def pts(iv):
        return "-" if iv[0] is None else f"[{100 * iv[0]:.1f}, {100 * iv[1]:.1f}]"

    what = " and ".join(f"{c} has no span on one side in up to {100 * v:.0f}%" for c, v in shares.items())
    shown = {"percentile": "the percentile over all resamples", "bca": "BCa",
             "conditional": "the percentile over the resamples that keep every category",
             "bca-conditional": "the percentile over the resamples that keep every category"}[method]
    still = [s for s in marked if lopsided(cis["BlonDe"][s])]
    others = "; other rows: BCa" if method == "bca-conditional" and len(marked) < len(cis["BlonDe"]) else ""
    return (f"{MARK} {what} of resamples ({len(marked)} of {len(cis['BlonDe'])} systems): there BlonDe's geometric "
            f"mean floors it at 1e-5 and collapses, so the percentile interval over all resamples is lopsided "
            f"({marked[0]} {100 * first['score']:.2f} {pts(first['percentile'])}). Shown for these rows: {shown} "
            f"({marked[0]} {pts(first['ci'])}{others})"
            + (f"; still long below the score: {', '.join(still)}." if still and method != "percentile" else "."))


def lopsided(entry: dict, ratio: float = 3.0) -> bool:
    """An interval whose arm below the score is over `ratio` times the arm above it."""
    lo, hi, v = entry["ci"][0], entry["ci"][1], entry["score"]
    return lo is not None and v is not None and (v - lo) > ratio * max(hi - v, 1e-12)


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
