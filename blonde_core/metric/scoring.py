"""The BlonDe formula on summed sufficient statistics (vectorised over leading axes).

Input: an array S of shape (..., n_columns, 3) of [matched, system, reference]
counts summed over the units being scored (see `sufficient.py`).  Output:
recall, precision and F1 for every category and for BlonDe, BlonD-d and
BlonD+, each an array of shape (...).  Exactly as the `blonde` 0.1.4 package:

* per category: weighted matched / weighted reference (recall) and / weighted
  system (precision); 0/0 is NaN (the category is absent);
* n-gram orders 1..4 are categories of their own, smoothed in order: stop at
  the first order with total 0 (it and later orders are 0.0), a zero-match
  order gets 1/(2^k * total) ("exp"), 0.1/total ("floor"), add-k for n>1, or 0;
* BlonDe.R/P: geometric mean over the categories present, every value floored
  at 1e-5 before its log, NaNs left out; BlonD-d over the four discourse
  categories only; BlonD+ adds the human-annotated categories;
* F1 = 2RP/(R+P); when R or P is NaN the package returns R.
"""
from __future__ import annotations

import numpy as np

from .settings import DISCOURSE, LOG_FLOOR, PAPER_DELTA, ScoreConfig
from .features import NGRAM_ORDERS, PLUS_CATEGORIES, Layout

NGRAM_KEYS = tuple(str(n) for n in NGRAM_ORDERS)


def f1(r, p):
    r = np.asarray(r, dtype=float)
    p = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        both = 2 * r * p / (r + p)
    # P = R = 0 (spans on both sides, none matched) is an F1 of 0, not a missing one
    both = np.where((r + p) == 0, 0.0, both)
    return np.where(np.isnan(r) | np.isnan(p), r, both)


def _div(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b != 0, a / np.where(b != 0, b, 1), np.nan)


def smooth_ngrams(correct, total, method: str, value):
    """Package smoothing over orders (last axis) of weighted correct/total."""
    correct = np.asarray(correct, dtype=float)
    total = np.asarray(total, dtype=float)
    out = np.zeros(np.broadcast_shapes(correct.shape, total.shape))
    alive = np.ones(out.shape[:-1], dtype=bool)
    k = np.zeros(out.shape[:-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        for n in range(out.shape[-1]):
            c, t = correct[..., n], total[..., n]
            if method == "add-k" and n > 0:
                c, t = c + value, t + value
            alive &= t != 0
            zero = c == 0
            if method == "exp":
                k = k + (alive & zero)
                v = np.where(zero, 1.0 / (np.exp2(k) * t), c / t)
            elif method == "floor":
                v = np.where(zero, value / t, c / t)
            else:  # none, add-k
                v = np.where(zero, 0.0, c / t)
            out[..., n] = np.where(alive, v, 0.0)
    return out


def aggregate(values, method: str):
    """Geometric (floored logs, NaN left out) or arithmetic (nanmean) over the last axis."""
    v = np.asarray(values, dtype=float)
    present = ~np.isnan(v)
    cnt = present.sum(-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if method == "geometric":
            logs = np.log(np.maximum(np.where(present, v, 1.0), LOG_FLOOR))
            return np.where(cnt > 0, np.exp(np.where(present, logs, 0.0).sum(-1) / np.maximum(cnt, 1)), np.nan)
        return np.where(cnt > 0, np.where(present, v, 0.0).sum(-1) / np.maximum(cnt, 1), np.nan)


def category_values(S, config: ScoreConfig, layout: Layout, plus: bool = False) -> dict:
    """{category: (R, P)} for every category in play."""
    S = np.asarray(S, dtype=float)
    w = config.resolved_weights
    out = {}
    zero = config.resolved_zero
    for cat in DISCOURSE:
        if cat not in config.categories:
            continue
        sl = layout.cat_slices[cat]
        wt = np.asarray(w[cat])
        num = (S[..., sl, 0] * wt).sum(-1)
        ds = (S[..., sl, 1] * wt).sum(-1)
        dr = (S[..., sl, 2] * wt).sum(-1)
        r, p = _div(num, dr), _div(num, ds)
        if zero == "delta":
            r = np.where((num == 0) & (dr != 0), _div(PAPER_DELTA, dr), r)
            p = np.where((num == 0) & (ds != 0), _div(PAPER_DELTA, ds), p)
        out[cat] = (r, p)
    if "ngram" in config.categories:
        sl = layout.cat_slices["ngram"]
        wt = np.asarray(w["ngram"])
        num = S[..., sl, 0] * wt
        ds = S[..., sl, 1] * wt
        dr = S[..., sl, 2] * wt
        sv = config.resolved_smooth_value
        rs = smooth_ngrams(num, dr, config.smooth, sv)
        ps = smooth_ngrams(num, ds, config.smooth, sv)
        for i, key in enumerate(NGRAM_KEYS):
            out[key] = (rs[..., i], ps[..., i])
    if plus:
        sl = layout.cat_slices["plus"]
        for i, name in enumerate(PLUS_CATEGORIES):
            col = sl.start + i
            wt = config.plus_weights[i]
            num, ds, dr = S[..., col, 0] * wt, S[..., col, 1] * wt, S[..., col, 2] * wt
            out[name] = (_div(num, dr), _div(num, ds))
    return out


THIN = 5  # a category score resting on fewer reference spans than this is thin evidence


def category_counts(S, config: ScoreConfig, layout: Layout, plus: bool = False, weighted: bool = False) -> dict:
    """{category: (matched, system, reference)} span counts, summed over the category's
    features that carry weight (weighted=True: multiplied by their weights, as scored)."""
    S = np.asarray(S, dtype=float)
    w = config.resolved_weights
    out = {}

    def total(cols, wt):
        wt = np.asarray(wt, dtype=float)
        use = wt if weighted else (wt > 0).astype(float)
        return tuple((S[..., cols, k] * use).sum(-1) for k in (0, 1, 2))

    for cat in DISCOURSE:
        if cat in config.categories:
            sl = layout.cat_slices[cat]
            out[cat] = total(sl, w[cat])
    if "ngram" in config.categories:
        sl = layout.cat_slices["ngram"]
        for i, key in enumerate(NGRAM_KEYS):
            out[key] = total([sl.start + i], [w["ngram"][i]])
    if plus:
        sl = layout.cat_slices["plus"]
        for i, name in enumerate(PLUS_CATEGORIES):
            out[name] = total([sl.start + i], [config.plus_weights[i]])
    return out


def score(S, config: ScoreConfig, layout: Layout, plus: bool = False, counts: bool = True) -> dict:
    """All scores from summed statistics S (..., n_columns, 3).

    Returns {"BlonDe": {"R","P","F1"}, "BlonD-d": {...}, ["BlonD+": {...}],
    "categories": {name: {"R","P","F1","matched","system","reference"}}} with arrays of shape
    S.shape[:-2]; the counts are spans (n-grams for "1".."4") of the features that carry weight
    (left out with counts=False).
    """
    vals = category_values(S, config, layout, plus)
    cats = {k: {"R": r, "P": p, "F1": f1(r, p)} for k, (r, p) in vals.items()}
    if counts:  # off for resampling, where only the scores are wanted
        for k, (m, sy, r) in category_counts(S, config, layout, plus).items():
            cats[k].update(matched=m, system=sy, reference=r)
    if config.absent == "skip":
        # explicit, non-default: a discourse category with no span on one side leaves the mean
        wc = category_counts(S, config, layout, plus, weighted=True)
        for k in vals:
            if k in DISCOURSE or k in PLUS_CATEGORIES:
                gone = (wc[k][1] == 0) | (wc[k][2] == 0)
                vals[k] = tuple(np.where(gone, np.nan, v) for v in vals[k])

    def agg(keys):
        if not keys:
            nan = np.full(np.shape(S)[:-2], np.nan)
            return {"R": nan, "P": nan, "F1": nan}
        R = aggregate(np.stack([vals[k][0] for k in keys], -1), config.average)
        P = aggregate(np.stack([vals[k][1] for k in keys], -1), config.average)
        return {"R": R, "P": P, "F1": f1(R, P)}

    base = [k for k in vals if k not in PLUS_CATEGORIES]
    res = {"BlonDe": agg(base), "BlonD-d": agg([k for k in base if k in DISCOURSE]), "categories": cats}
    if plus:
        res["BlonD+"] = agg(list(vals))
    return res
