"""Bootstrap resampling over units and percentile confidence intervals."""
from __future__ import annotations

import numpy as np

from blonde_core.numbers import nan_to_none
from .units import DEFAULT_SEED, metric_fn, unit_stats


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


_f = nan_to_none


def bootstrap_cis(result, metrics: list[str], n: int = 1000, seed: int = DEFAULT_SEED, unit: str = "doc",
                  level: float = 0.95, names: list[str] | None = None) -> dict:
    """{metric: {system: {"score", "ci"}}}: percentile intervals over the same
    resampled units for every system and metric."""
    names = list(names or result.names)
    ids, _ = unit_stats(result, names[0], unit)
    w = resample_weights(len(ids), n, seed)
    out = {m: {} for m in metrics}
    fns = {m: metric_fn(result, m) for m in metrics}
    for nm in names:
        _, st = unit_stats(result, nm, unit)
        rs = _resampled(st, w)
        for m, fn in fns.items():
            out[m][nm] = {"score": _f(fn(st.sum(0))), "ci": percentile_ci(fn(rs), level)}
    return out
