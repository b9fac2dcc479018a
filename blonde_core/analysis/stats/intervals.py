"""Bootstrap resampling over units and confidence intervals from the resamples.

Three intervals of a corpus score over the same resamples (bench/bench_intervals.py measures which is
calibrated; docs/statistics.md gives the table):

* percentile: the 2.5th and 97.5th percentiles of all resampled scores;
* conditional: the same percentiles over the resamples that keep every discourse category with a span on
  both sides (a geometric mean of the BlonDe family floors a category without spans at 1e-5 and collapses;
  those resamples are left out);
* BCa: the bias-corrected and accelerated percentile interval (Efron 1987), its acceleration from the
  jackknife, exact on sufficient statistics (leave a unit out: the total minus that unit's statistics);
* bca-conditional: BCa, and the conditional interval where categories vanish in at least ABSENT_WARN of the
  resamples (there BCa's lower end falls among the collapsed resamples or not as the resample count and
  seed decide; the leaderboard's choice, policy.CI_METHOD).
"""
from __future__ import annotations

import numpy as np
from scipy.special import ndtr, ndtri

from blonde_core.numbers import nan_to_none
from .units import DEFAULT_SEED, metric_fn, unit_stats

METHODS = ("percentile", "conditional", "bca", "bca-conditional")
ABSENT_WARN = 0.05  # a category absent on one side in this share of resamples or more: say so


def resample_weights(n_units: int, n: int, seed: int) -> np.ndarray:
    """(n, n_units) bootstrap multiplicities (the indices sacrebleu would draw)."""
    rng = np.random.default_rng(seed)
    idx = rng.choice(n_units, size=(n, n_units), replace=True)
    w = np.zeros((n, n_units))
    np.add.at(w, (np.repeat(np.arange(n), n_units), idx.reshape(-1)), 1)
    return w


def _resampled(stats: np.ndarray, w: np.ndarray) -> np.ndarray:
    flat = stats.reshape(len(stats), -1)
    return (w @ flat).reshape((len(w),) + stats.shape[1:])


def percentile_ci(samples: np.ndarray, level: float = 0.95) -> list:
    s = samples[~np.isnan(samples)]
    if len(s) == 0:
        return [None, None]
    a = (1 - level) / 2
    return [float(np.quantile(s, a)), float(np.quantile(s, 1 - a))]


def jackknife(fn, stats: np.ndarray) -> np.ndarray:
    """(units,) the score with each unit left out, from sufficient statistics (units, ...): exact."""
    return fn(stats.sum(0)[None] - stats)


def bca_ci(samples: np.ndarray, theta: float, jack: np.ndarray, level: float = 0.95) -> list:
    """The BCa interval (Efron 1987; scipy.stats.bootstrap(method='BCa') step for step): the bias correction
    z0 from the share of resamples below the score (ties counted half), the acceleration from the jackknife
    values, the percentiles they move to.  NaN resamples and jackknife values are left out."""
    s = np.asarray(samples, dtype=float)
    s = s[~np.isnan(s)]
    j = np.asarray(jack, dtype=float)
    j = j[~np.isnan(j)]
    if len(s) == 0 or theta is None or np.isnan(theta):
        return [None, None]
    z0 = ndtri(((s < theta).sum() + (s <= theta).sum()) / (2 * len(s)))
    u = (len(j) - 1) * (j.mean() - j) if len(j) > 1 else np.zeros(1)
    den = (u ** 2).sum() / max(len(j), 1) ** 2  # no jackknife value (all NaN): no acceleration, no 0/0
    a = (u ** 3).sum() / len(j) ** 3 / 6 / den ** 1.5 if den > 0 else 0.0
    za = ndtri((1 - level) / 2)
    if not np.isfinite(z0):  # every resample on one side: no correction can be estimated, the percentiles stand
        return percentile_ci(s, level)
    qs = [ndtr(z0 + (z0 + z) / (1 - a * (z0 + z))) for z in (za, -za)]
    return [float(np.quantile(s, q)) for q in qs]


def absent_in_resamples(result, resampled_stats: np.ndarray) -> dict:
    """{discourse category: (B,) bool}: in which resamples (a system's summed statistics per resample,
    (B, F, 3)) the category has no weighted span in the system or in the reference."""
    from blonde_core.metric.scoring import category_counts
    from blonde_core.metric.settings import DISCOURSE

    counts = category_counts(resampled_stats, result.config, result.layout, result.plus, weighted=True)
    return {c: (counts[c][1] == 0) | (counts[c][2] == 0) for c in DISCOURSE if c in counts}


def collapses(result) -> bool:
    """Whether a category without spans floors the BlonDe family (geometric mean, absent categories kept)."""
    return result.config.average == "geometric" and result.config.absent == "keep"


def interval(method: str, samples: np.ndarray, theta: float, level: float = 0.95, keep: np.ndarray | None = None,
             jack: np.ndarray | None = None) -> list:
    """One interval of `method` (METHODS) from the resampled scores; keep: the resamples the conditional
    interval keeps (every category present; None or none kept: all); jack: the jackknife values BCa needs."""
    if method == "percentile":
        return percentile_ci(samples, level)
    if method == "conditional":  # no resample kept (the score itself lacks a category): all of them
        return percentile_ci(samples if keep is None or not keep.any() else samples[keep], level)
    if method == "bca":
        return bca_ci(samples, theta, jack, level)
    if method == "bca-conditional":
        vanish = keep is not None and (~keep).mean() >= ABSENT_WARN
        return interval("conditional" if vanish else "bca", samples, theta, level, keep, jack)
    raise ValueError(f"unknown interval method '{method}' (choose from {', '.join(METHODS)})")


_f = nan_to_none


def bootstrap_cis(result, metrics: list[str], n: int = 1000, seed: int = DEFAULT_SEED, unit: str = "doc",
                  level: float = 0.95, names: list[str] | None = None, method: str = "percentile") -> dict:
    """{metric: {system: {"score", "ci", ...}}}: intervals of `method` (METHODS) over the same resampled units
    for every system and metric.  Where absent categories collapse the BlonDe family's geometric mean, every
    entry also has "absent" ({category: share of resamples without a span on one side} for the categories
    absent in at least ABSENT_WARN of them: the percentile interval's lower end then falls among collapsed
    resamples, and a leaderboard marks the row), and the "percentile", "conditional" and "bca" intervals beside
    it."""
    if method not in METHODS:
        raise ValueError(f"unknown interval method '{method}' (choose from {', '.join(METHODS)})")
    names = list(names or result.names)
    ids, _ = unit_stats(result, names[0], unit)
    w = resample_weights(len(ids), n, seed)
    out = {m: {} for m in metrics}
    fns = {m: metric_fn(result, m) for m in metrics}
    watch = collapses(result)
    for nm in names:
        _, st = unit_stats(result, nm, unit)
        rs = _resampled(st, w)
        absent = absent_in_resamples(result, rs) if watch else {}
        keep = ~np.logical_or.reduce(list(absent.values())) if absent else None
        for m, fn in fns.items():
            theta, samples = fn(st.sum(0)), fn(rs)
            jack = jackknife(fn, st) if method.startswith("bca") else None
            e = {"score": _f(theta), "ci": interval(method, samples, theta, level, keep, jack)}
            if watch:
                e["absent"] = {c: float(a.mean()) for c, a in absent.items() if a.mean() >= ABSENT_WARN}
                if e["absent"]:
                    e["percentile"] = percentile_ci(samples, level)
                    e["conditional"] = interval("conditional", samples, theta, level, keep)
                    e["bca"] = bca_ci(samples, theta, jack if jack is not None else jackknife(fn, st), level)
            out[m][nm] = e
    return out
