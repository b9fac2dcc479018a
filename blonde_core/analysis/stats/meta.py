"""Meta-evaluation as the WMT metrics task does it (../shared/spec/meta-evaluation.md),
on plain arrays: every function takes a human matrix and a metric matrix of shape
(systems, items), NaN where no human rated the cell (missing, never zero).

* ``grouped_correlation``: Pearson / Spearman / Kendall tau-b with grouping
  ``none`` (all cells flattened), ``sys`` (per system across items, then the
  plain mean) or ``item`` (per item across systems, then the plain mean); a group
  shorter than 2 or with a constant vector gives NaN and is left out of the mean
  (counted in ``groups_left_out``).
* ``pairwise_accuracy``: share of unordered system pairs ordered alike by metric
  and humans (sign of the differences; a tie on both sides agrees).
* ``pairwise_p_values`` / ``soft_pairwise_accuracy`` (SPA): one-sided paired
  permutation p-values that system i beats system j, the random item signs drawn
  once per permutation and shared by all pairs (drawn as Google's pce.py draws
  them: ``rint(default_rng(seed).random((k, items), float32))``, so the same seed
  gives the same signs); SPA = 1 - mean |p_human - p_metric|.
* ``perm_both``: PERM-BOTH (Deutsch et al. 2021), the p-value that metric 2
  correlates better than metric 1, swapping the two metrics' standardised scores
  cell by cell.
* ``bootstrap_system_level``: percentile intervals of system-level Pearson,
  Kendall and pairwise accuracy over resampled items, vectorised.

All values equal Google's mt-metrics-eval definitions (stats.py, pce.py) on
complete data; with missing cells every pair or group uses the cells rated.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps

from blonde_core.errors import InputError
from blonde_core.metric.registry import DEFAULT_SEED

GROUPINGS = ("none", "sys", "item")
METHODS = ("pearson", "spearman", "kendall")


def _corr(x: np.ndarray, y: np.ndarray, method: str) -> float:
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return float("nan")
    if method == "pearson":
        return float(sps.pearsonr(x, y).statistic)
    if method == "spearman":
        return float(sps.spearmanr(x, y).statistic)
    if method == "kendall":
        return float(sps.kendalltau(x, y, variant="b").statistic)
    raise InputError(f"unknown correlation '{method}' (choose {', '.join(METHODS)})", code=InputError.Codes.SETTING)


def _groups(human: np.ndarray, metric: np.ndarray, grouping: str):
    """Rows to correlate, each filtered to the cells where both values exist."""
    h, m = np.asarray(human, dtype=float), np.asarray(metric, dtype=float)
    if h.shape != m.shape:
        raise InputError(f"human {h.shape} and metric {m.shape} matrices differ in shape", code=InputError.Codes.COUNTS)
    if grouping == "none":
        rows = [(h.reshape(-1), m.reshape(-1))]
    elif grouping == "sys":
        rows = list(zip(h, m))
    elif grouping == "item":
        rows = list(zip(h.T, m.T))
    else:
        raise InputError(f"unknown grouping '{grouping}' (choose {', '.join(GROUPINGS)})", code=InputError.Codes.SETTING)
    out = []
    for x, y in rows:
        ok = ~(np.isnan(x) | np.isnan(y))
        out.append((x[ok], y[ok]))
    return out


def grouped_correlation(human, metric, grouping: str = "none", method: str = "pearson") -> dict:
    """{"value", "groups", "groups_used", "groups_left_out", "cells"}; value NaN when no group counts."""
    vals, cells = [], 0
    groups = _groups(human, metric, grouping)
    for x, y in groups:
        cells += len(x)
        vals.append(_corr(y, x, method) if len(x) else float("nan"))
    used = [v for v in vals if not math.isnan(v)]
    return {"value": float(np.mean(used)) if used else float("nan"), "groups": len(groups),
            "groups_used": len(used), "groups_left_out": len(groups) - len(used), "cells": cells}


def pairwise_accuracy(human, metric) -> dict:
    """System level: vectors of one score per system (human oriented higher-is-better)."""
    h, m = np.asarray(human, dtype=float), np.asarray(metric, dtype=float)
    ok = ~(np.isnan(h) | np.isnan(m))
    h, m = h[ok], m[ok]
    i, j = np.triu_indices(len(h), 1)
    agree = np.sign(h[i] - h[j]) == np.sign(m[i] - m[j])
    return {"accuracy": float(agree.mean()) if len(i) else float("nan"), "agree": int(agree.sum()),
            "pairs": int(len(i))}


def chance_accuracy(human, trials: int = 1000, seed: int = DEFAULT_SEED, level: float = 0.95) -> dict:
    """The pairwise accuracy a random metric gets on the same pairs: its expectation (a pair tied by
    the humans is never agreed with, an untied one half the time) and the central `level` range over
    `trials` random metrics (continuous scores, seeded)."""
    h = np.asarray(human, dtype=float)
    h = h[~np.isnan(h)]
    i, j = np.triu_indices(len(h), 1)
    if not len(i):
        return {"mean": None, "range": [None, None], "trials": trials}
    dh = np.sign(h[i] - h[j])
    m = np.random.default_rng(seed).random(size=(trials, len(h)))
    acc = (np.sign(m[:, i] - m[:, j]) == dh).mean(1)
    a = (1 - level) / 2
    return {"mean": float((dh != 0).mean() / 2), "range": [float(np.quantile(acc, a)), float(np.quantile(acc, 1 - a))],
            "trials": trials}


ACC_EQ_MAX_CELLS = 6000  # cells of one group: 18 million pairs, about a gigabyte of intermediate arrays


def tie_calibrated_accuracy(human, metric, grouping: str = "none") -> dict:
    """acc_eq (Deutsch et al. 2023; mt-metrics-eval's KendallWithTiesOpt, variant acc23, all pairs): in each
    group (grouping as for the correlations), the share of pairs that are concordant or tied on both sides;
    metric differences up to a threshold epsilon count as ties, and epsilon is the one that maximises the
    mean over groups (0: no new ties; the first of equal maxima).  Groups with fewer than two cells are left
    out.  {"acc_eq", "epsilon", "groups", "pairs"}."""
    groups = [(x, y) for x, y in _groups(human, metric, grouping) if len(x) >= 2]
    if not groups:
        return {"acc_eq": None, "epsilon": None, "groups": 0, "pairs": 0}
    largest = max(len(x) for x, _ in groups)
    if largest > ACC_EQ_MAX_CELLS:  # every pair of a group is held at once: n^2 / 2 of them
        return {"acc_eq": None, "epsilon": None, "groups": len(groups), "pairs": None,
                "note": f"a group of {largest} cells is too large for acc_eq's all-pairs search (at most "
                        f"{ACC_EQ_MAX_CELLS}); group by item or system"}
    base, diffs, deltas, pairs = 0.0, [], [], 0
    for h, m in groups:
        i, j = np.triu_indices(len(h), 1)
        dh, dm = h[i] - h[j], m[i] - m[j]
        ht, mt = dh == 0, dm == 0
        con = ~ht & ~mt & (np.sign(dh) == np.sign(dm))
        n = len(i) * len(groups)
        base += (con.sum() + (ht & mt).sum()) / n
        # what turning a pair into a metric tie does: a human tie becomes a tie on both sides (+1),
        # a concordant pair stops counting (-1), anything else stays out
        deltas.append(np.where(ht & ~mt, 1.0, np.where(con, -1.0, 0.0)) / n)
        diffs.append(np.abs(dm))
        pairs += len(i)
    d = np.concatenate(diffs)
    order = np.argsort(d, kind="stable")
    d, cum = d[order], base + np.cumsum(np.concatenate(deltas)[order])
    last = np.r_[d[1:] != d[:-1], True]  # the value at a threshold counts every pair up to it
    thresholds, values = np.r_[0.0, d[last]], np.r_[base, cum[last]]
    best = int(np.nonzero(values >= values.max() - 1e-12)[0][0])
    return {"acc_eq": float(values[best]), "epsilon": float(thresholds[best]), "groups": len(groups), "pairs": pairs}


SPA_TOLERANCE = 1e-9  # relative to a pair's scale: far above float64 rounding, far below a real difference


def permutation_signs(n_items: int, k: int, seed: int) -> np.ndarray:
    """(k, n_items) signs in {-1, +1}, drawn as Google's pce.py draws them."""
    rng = np.random.default_rng(seed)
    return np.rint(rng.random(size=(k, n_items), dtype=np.float32)).astype(np.float64) * 2.0 - 1.0


def _pair_differences(x: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """(pairs, items): x_i - x_j over the items rated for both, 0 elsewhere (pairs i < j)."""
    i, j = np.triu_indices(len(x), 1)
    both = ok[i] & ok[j]
    return np.where(both, np.nan_to_num(x[i]) - np.nan_to_num(x[j]), 0.0)


def _pair_p(d: np.ndarray, signs: np.ndarray, weights: np.ndarray | None = None, chunk: int = 32) -> np.ndarray:
    """One-sided permutation p per pair from differences d (pairs, items): the share of sign
    permutations whose null delta is at least the observed one; with ``weights`` (B, items)
    of resampled item multiplicities, (B, pairs) for every resample at once.
    The null sums are float64 matrix products, compared with a tolerance of 1e-9 of the
    pair's scale (the sum of its absolute differences): exact ties (the all-plus
    permutation, one-decimal DA scores) count whatever the rounding, while a permutation
    that falls short by more than float64 rounding does not - the count equals exact
    counting of the float64 differences (tests/test_meta.py; single precision with a
    1e-5 tolerance, as before, moved 41 of 1,320 p-values on random 12 x 188 matrices)."""
    w = np.ones((1, d.shape[1])) if weights is None else np.asarray(weights, dtype=float)
    s64 = np.asarray(signs, dtype=np.float64)
    out = np.empty((len(w), len(d)))
    for c in range(0, len(w), chunk):
        dw = d[None] * w[c:c + chunk, None, :]  # (b, pairs, items)
        flat = dw.reshape(-1, d.shape[1])
        null = s64 @ flat.T  # (k, b * pairs)
        observed = flat.sum(1)
        tol = SPA_TOLERANCE * np.abs(flat).sum(1)
        out[c:c + chunk] = (null >= observed - tol).mean(0).reshape(-1, len(d))
    return out


def pairwise_p_values(scores, signs: np.ndarray, rated=None) -> np.ndarray:
    """(S, S) matrix, upper triangle: one-sided p that system i is better than j
    (share of permutations whose null delta >= the observed delta), over the items
    rated for both (``rated``: boolean (S, I), default: not NaN)."""
    x = np.asarray(scores, dtype=float)
    ok = ~np.isnan(x) if rated is None else np.asarray(rated, dtype=bool) & ~np.isnan(x)
    p = np.full((len(x), len(x)), np.nan)
    p[np.triu_indices(len(x), 1)] = _pair_p(_pair_differences(x, ok), signs)[0]
    return p


def soft_pairwise_accuracy(human, metric, k: int = 1000, seed: int = 4, signs: np.ndarray | None = None,
                           cache: dict | None = None, weights: np.ndarray | None = None,
                           level: float = 0.95) -> dict:
    """SPA over per-item scores (systems x items); only cells with a human score take part
    (for both sides), and the same signs serve the human and the metric p-values
    (``signs``: (k, items) of +-1, drawn with the seed when not given).  ``weights``
    (B, items): resampled item multiplicities for a percentile interval ("spa_ci"), the
    signs kept fixed."""
    from .intervals import percentile_ci

    h, m = np.asarray(human, dtype=float), np.asarray(metric, dtype=float)
    rated = ~np.isnan(h) & ~np.isnan(m)
    signs = permutation_signs(h.shape[1], k, seed) if signs is None else np.asarray(signs, dtype=float)
    k = len(signs)
    dh, dm = _pair_differences(h, rated), _pair_differences(m, rated)
    # the human p-values depend on the rated cells only: shared by every metric with the same ones
    key = (rated.tobytes(), id(signs), None if weights is None else id(weights))
    if cache is not None and key in cache:
        ph, ph_b = cache[key]
    else:
        ph = _pair_p(dh, signs)[0]
        ph_b = _pair_p(dh, signs, weights) if weights is not None else None
        if cache is not None:
            cache[key] = (ph, ph_b)
    pm = _pair_p(dm, signs)[0]
    out = {"spa": float(1.0 - np.abs(ph - pm).mean()) if len(ph) else float("nan"), "pairs": int(len(ph)),
           "permutations": k, "seed": seed, "items": int(h.shape[1]), "cells": int(rated.sum())}
    if weights is not None and len(ph):
        pm_b = _pair_p(dm, signs, weights)
        out["spa_ci"] = percentile_ci(1.0 - np.abs(ph_b - pm_b).mean(1), level)
    return out


# -- vectorised correlations over many resamples (rows) ---------------------------------

def _pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    xc = x - x.mean(axis=-1, keepdims=True)
    yc = y - y.mean(axis=-1, keepdims=True)
    den = np.sqrt((xc * xc).sum(-1) * (yc * yc).sum(-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (xc * yc).sum(-1) / np.where(den > 0, den, 1), np.nan)


def _kendall_rows(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(tau-b, pairwise accuracy) per row."""
    i, j = np.triu_indices(x.shape[-1], 1)
    dx, dy = np.sign(x[..., i] - x[..., j]), np.sign(y[..., i] - y[..., j])
    n0 = len(i)
    tx, ty = (dx == 0).sum(-1), (dy == 0).sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        den = np.sqrt((n0 - tx) * (n0 - ty).astype(float))
        tau = np.where(den > 0, (dx * dy).sum(-1) / np.where(den > 0, den, 1), np.nan)
    if n0 == 0:  # fewer than two items: no pair, no accuracy (NaN, said as '-'), without numpy's warning
        return tau, np.full(tau.shape, np.nan)
    return tau, (dx == dy).mean(-1)


def _spearman_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman's rho per row: Pearson of the rows' average ranks (ties share their mean rank, as
    scipy.stats.spearmanr); a row with a missing value gives NaN."""
    from scipy.stats import rankdata

    bad = np.isnan(x).any(-1) | np.isnan(y).any(-1)
    rx = rankdata(np.nan_to_num(x), axis=-1)
    ry = rankdata(np.nan_to_num(y), axis=-1)
    return np.where(bad, np.nan, _pearson_rows(rx, ry))


def bootstrap_system_level(human_samples: np.ndarray, metric_samples: np.ndarray, level: float = 0.95) -> dict:
    """Percentile intervals from (B, S) resampled system-level human and metric scores: Pearson,
    Spearman, Kendall tau-b and pairwise accuracy, each over the same resamples."""
    from .intervals import percentile_ci

    tau, acc = _kendall_rows(human_samples, metric_samples)
    return {"pearson_ci": percentile_ci(_pearson_rows(human_samples, metric_samples), level),
            "spearman_ci": percentile_ci(_spearman_rows(human_samples, metric_samples), level),
            "kendall_ci": percentile_ci(tau, level), "accuracy_ci": percentile_ci(acc, level),
            "resamples": int(len(human_samples))}


def bootstrap_grouped(human, metric, grouping: str, weights: np.ndarray, level: float = 0.95) -> list:
    """Percentile interval of a grouped Pearson correlation over resampled items:
    ``weights`` (B, items) multiplicities; a cell drawn twice counts twice."""
    from .intervals import percentile_ci

    h, m = np.asarray(human, dtype=float), np.asarray(metric, dtype=float)
    ok = ~(np.isnan(h) | np.isnan(m))
    hz, mz = np.where(ok, h, 0.0), np.where(ok, m, 0.0)
    w = weights[:, None, :] * ok[None]  # (B, S, I)

    def wcorr(wt, hv, mv, axis):
        n = wt.sum(axis)
        with np.errstate(invalid="ignore", divide="ignore"):
            hc = hv - np.expand_dims((wt * hv).sum(axis) / n, axis)
            mc = mv - np.expand_dims((wt * mv).sum(axis) / n, axis)
            cov = (wt * hc * mc).sum(axis)
            den = np.sqrt((wt * hc * hc).sum(axis) * (wt * mc * mc).sum(axis))
            return np.where(den > 1e-12, cov / np.where(den > 0, den, 1), np.nan)

    with np.errstate(invalid="ignore", divide="ignore"):
        if grouping == "none":
            r = wcorr(w.reshape(len(w), -1), hz.reshape(-1), mz.reshape(-1), -1)
        elif grouping == "sys":
            per = wcorr(w, hz, mz, -1)  # per system across items, then the plain mean of those defined
            k = (~np.isnan(per)).sum(-1)  # (np.nanmean would warn, from any thread, on a resample with none)
            r = np.where(k > 0, np.nansum(per, -1) / np.maximum(k, 1), np.nan)
        elif grouping == "item":
            rows = wcorr(np.broadcast_to(ok, w.shape).astype(float), hz, mz, -2)[0]  # (I,) across systems
            good = ~np.isnan(rows)
            r = (np.where(good, rows, 0.0) * weights).sum(-1) / (good * weights).sum(-1)
        else:
            raise InputError(f"unknown grouping '{grouping}' (choose {', '.join(GROUPINGS)})", code=InputError.Codes.SETTING)
    return percentile_ci(np.asarray(r, dtype=float), level)


def perm_both(human, metric1, metric2, grouping: str = "none", method: str = "pearson", k: int = 1000,
              seed: int = DEFAULT_SEED, keep: np.ndarray | None = None) -> dict:
    """PERM-BOTH: p-value that metric2 correlates better than metric1.

    Cells without a human score (or without either metric's value) are dropped; each
    metric's remaining scores are standardised (z-scores over all of them); each
    resample keeps or swaps the two metrics' scores cell by cell (``keep``: (k, cells)
    of 0/1, 0 swaps; drawn with the seed when not given) and recomputes both grouped
    correlations; p = share of resamples whose difference (2 - 1) is at least the
    observed one."""
    h = np.asarray(human, dtype=float)
    a, b = np.asarray(metric1, dtype=float), np.asarray(metric2, dtype=float)
    ok = ~(np.isnan(h) | np.isnan(a) | np.isnan(b))
    za, zb = np.full(a.shape, np.nan), np.full(b.shape, np.nan)
    za[ok], zb[ok] = sps.zscore(a[ok]), sps.zscore(b[ok])
    hh = np.where(ok, h, np.nan)
    observed = (grouped_correlation(hh, zb, grouping, method)["value"]
                - grouped_correlation(hh, za, grouping, method)["value"])
    n_cells = int(ok.sum())
    if keep is None:
        keep = np.random.default_rng(seed).integers(0, 2, size=(k, n_cells))
    keep = np.asarray(keep, dtype=bool)
    # the cells in order, and each group's positions among them
    pos = np.full(h.shape, -1)
    pos[ok] = np.arange(n_cells)
    if grouping == "none":
        groups = [np.arange(n_cells)]
    elif grouping in ("sys", "item"):
        lines = pos if grouping == "sys" else pos.T
        groups = [ln[ln >= 0] for ln in lines]
    else:
        raise InputError(f"unknown grouping '{grouping}' (choose {', '.join(GROUPINGS)})", code=InputError.Codes.SETTING)
    hv, av, bv = h[ok], za[ok], zb[ok]
    m1 = np.where(keep, av, bv)  # (k, cells)
    m2 = np.where(keep, bv, av)

    def value(m):
        per = []
        for g in groups:
            if len(g) < 2 or np.all(hv[g] == hv[g][0]):
                continue
            if method == "pearson":
                per.append(_pearson_rows(np.broadcast_to(hv[g], m[:, g].shape), m[:, g]))
            else:
                per.append(np.array([_corr(row, hv[g], method) for row in m[:, g]]))
        if not per:
            return np.full(len(m), np.nan)
        with np.errstate(invalid="ignore"):
            return np.nanmean(np.vstack(per), axis=0)

    diffs = value(m2) - value(m1)
    count = int(np.sum(diffs >= observed - 1e-12))
    return {"p": count / len(keep), "delta": float(observed), "resamples": int(len(keep)), "cells": n_cells,
            "grouping": grouping, "method": method}


# -- PDP: Pairwise Difference Pearson (mt-metrics-eval 2025, Correlation.Pearson(pdp=True)) ---------------

def _pdp_sums(human, metric) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per item (column of the systems x items matrices): the sums over its system pairs i < j, both cells
    rated, of dh * dm, dh^2 and dm^2, and the number of such pairs.  Every R x R difference of mt-metrics-eval's
    definition is here once: (j, i) is (i, j) negated and the diagonal is zero, so the pooled differences have
    mean exactly 0 and their Pearson is sum(dh dm) / sqrt(sum dh^2 sum dm^2), each sum twice the one over i < j."""
    h, m = np.asarray(human, dtype=float), np.asarray(metric, dtype=float)
    ok = ~(np.isnan(h) | np.isnan(m))
    i, j = np.triu_indices(h.shape[0], 1)
    both = ok[i] & ok[j]  # (pairs, items)
    dh = np.where(both, np.nan_to_num(h[i]) - np.nan_to_num(h[j]), 0.0)
    dm = np.where(both, np.nan_to_num(m[i]) - np.nan_to_num(m[j]), 0.0)
    return (dh * dm).sum(0), (dh * dh).sum(0), (dm * dm).sum(0), both.sum(0)


def pairwise_difference_pearson(human, metric) -> dict:
    """PDP (mt-metrics-eval's ``Pearson(average_by='item', pdp=True)``): within each item, the differences
    between every two systems, human and metric; pooled over the items, one Pearson.  Cells without a human
    (or metric) score are left out with their pairs.  {"pdp", "pairs", "items"}; pdp None when no pair varies."""
    xy, xx, yy, n = _pdp_sums(human, metric)
    den = math.sqrt(xx.sum() * yy.sum())
    return {"pdp": float(xy.sum() / den) if den > 0 else None, "pairs": int(n.sum()), "items": int((n > 0).sum())}


def bootstrap_pdp(human, metric, weights: np.ndarray, level: float = 0.95) -> list:
    """Percentile interval of PDP over resampled items (``weights`` (B, items) multiplicities): the per-item
    sums are sufficient, so every resample is three weighted sums."""
    from .intervals import percentile_ci

    xy, xx, yy, _ = _pdp_sums(human, metric)
    w = np.asarray(weights, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        vals = (w @ xy) / np.sqrt((w @ xx) * (w @ yy))
    return percentile_ci(vals, level)


def pdp_reference(human, metric) -> float:
    """PDP spelled as mt-metrics-eval spells it (every R x R difference per item, gold None dropped, one
    scipy Pearson): slow, for tests and checks only."""
    h, m = np.asarray(human, dtype=float).T, np.asarray(metric, dtype=float).T  # (items, systems)
    dh = (h[:, None, :] - h[:, :, None]).reshape(-1)
    dm = (m[:, None, :] - m[:, :, None]).reshape(-1)
    ok = ~np.isnan(dh)
    return float(sps.pearsonr(dh[ok], dm[ok]).statistic)


# -- the fast SPA of complete matrices (every system rated on every item) ---------------------------------

def spa_p_values_complete(scores: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """Pairwise one-sided permutation p-values (pairs i < j, in triu order) of (S, I) scores rated everywhere,
    from per-system signed sums (as pce.py computes them, in float64, with the tolerance of ``_pair_p``):
    ``scores`` may be (B, S, I) for B matrices at once -> (B, pairs)."""
    x = np.asarray(scores, dtype=float)
    x3 = x[None] if x.ndim == 2 else x
    b, s, n = x3.shape
    i, j = np.triu_indices(s, 1)
    partial = np.asarray(signs, dtype=float) @ x3.reshape(-1, n).T  # (k, B * S)
    partial = partial.reshape(len(signs), b, s)
    null = partial[:, :, i] - partial[:, :, j]  # (k, B, pairs)
    sums = x3.sum(-1)
    observed = sums[:, i] - sums[:, j]
    tol = SPA_TOLERANCE * np.abs(x3[:, i] - x3[:, j]).sum(-1)
    out = (null >= (observed - tol)[None]).mean(0)
    return out[0] if x.ndim == 2 else out
