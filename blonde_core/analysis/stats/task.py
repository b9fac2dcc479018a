"""The WMT metrics task's official ranking of metrics (mt-metrics-eval's tasks.py: WMT23, WMT24, WMT25), on
plain arrays: one ``PairTables`` per language pair (systems x segments human and metric matrices, oriented
higher-is-better; and, for WMT23, the system-level values), one ``run_task`` for the whole ranking.

The statistics of each task
* ``wmt24`` and ``wmt25``: per language pair, system-level soft pairwise accuracy from segment scores (SPA,
  ``pce``: seed 4, 1000 permutations) and segment-level tie-calibrated accuracy acc_eq with item grouping
  (``KendallWithTiesOpt``, variant acc23); every task weighted alike.
* ``wmt23``: system-level pairwise accuracy over all pairs of all language pairs (weight: the number of
  pairs), and per language pair system-level Pearson, segment-level Pearson (no grouping) and segment-level
  acc_eq (item grouping), weight 1 each.

SPA compares systems on the segments judged for every system (the task's rule; with sparse judgments such as
WMT22's DA, where no segment is, every pair of systems over the segments rated for both); acc_eq and the
segment Pearson take every rated cell, left out item by item as mt-metrics-eval filters missing gold scores.
The cells evaluated are the gold's alone: a metric without a value on a rated cell (BlonD-d on a paragraph
without a discourse span) is left out of the ranking with the reason (``left_out``), never shrinking the
other metrics' set, as mt-metrics-eval refuses a metric with missing scores. The counts are reported.

Ranking, as mt-metrics-eval ranks (data.CompareMetrics*, AssignRanks, TaskSetResults.AverageCorrMatrix)
* per task: metrics sorted by value (name breaking ties); for every two metrics a permutation test that the
  better one is better: PERM-BOTH for SPA, Pearson and accuracy (the two metrics' z-scored values swapped
  cell by cell, the statistic recomputed for both hybrids), and for acc_eq the swap of the two metrics' pair
  comparisons (PairwisePermutationSigDiff; each metric keeps its own epsilon); up to ``k`` draws in blocks of
  100, stopping early when the p-value of a block boundary is below 0.02 or above 0.5 (the Task defaults);
  a new cluster starts at the first metric significantly below (p <= 0.05) a metric of the current
  cluster's range;
* averages: each task's values mapped onto [0, 1] from its range ([0, 1] for accuracies, [-1, 1] for
  Pearson), weighted; the clusters of an average from the same draws, each task's null differences summed
  with its weight (a task stopped early repeats its draws).

The draws are seeded (``seed``): the same command gives the same clusters.  mt-metrics-eval draws from
numpy's unseeded global generator, so its clusters can move at the margins from run to run; the values
(SPA, acc_eq, Pearson, accuracy) are deterministic in both and equal.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from blonde_core.errors import InputError
from blonde_core.metric.registry import DEFAULT_SEED
from . import meta
from .statistics import TASK_STATISTICS

TASKS = ("wmt23", "wmt24", "wmt25")
BLOCK, EARLY_MIN, EARLY_MAX, P_VALUE = 100, 0.02, 0.50, 0.05  # mt-metrics-eval's Task defaults
SPA_SEED = 4  # pce.py's default


@dataclass
class PairTables:
    """One language pair's inputs, oriented higher-is-better, NaN where not rated."""
    lp: str
    systems: list
    human_seg: np.ndarray  # (systems, segments)
    metric_seg: dict  # metric -> (systems, segments)
    human_sys: np.ndarray | None = None  # (systems,) for WMT23's system-level statistics
    metric_sys: dict = field(default_factory=dict)  # metric -> (systems,)
    notes: list = field(default_factory=list)


@dataclass
class _Stat:
    """One task: a statistic on one pair (or across pairs), its values and its null differences."""
    name: str  # "spa" ("pce" in wmt25), "acc_eq", "pearson_sys", "pearson_seg", "accuracy"
    lp: str  # a pair, or "all" for WMT23's global accuracy
    weight: float
    lo: float  # the statistic's range, for the averages
    hi: float
    values: dict
    null: object  # fn(a, b, rng, k) -> (null differences a - b (draws,), p)
    order: list = field(default_factory=list)
    ranks: dict = field(default_factory=dict)
    p: dict = field(default_factory=dict)  # (a, b), a above b -> p
    draws: dict = field(default_factory=dict)  # (a, b) -> null differences of a - b


LABELS = {n: t.label for n, t in TASK_STATISTICS.items()}  # the output's label of each statistic


def _zscore(x: np.ndarray) -> np.ndarray:
    sd = x.std()
    return (x - x.mean()) / sd if sd > 0 else x - x.mean()


def _early_stop(step, k: int, rng, on_hit: bool = False) -> tuple[np.ndarray, float]:
    """Draws in blocks of BLOCK: step(rng, n) -> (null differences (n,), observed); stop early as the Task does:
    at a block boundary when the p-value so far is below EARLY_MIN or above EARLY_MAX. on_hit: the check is made
    only when the boundary's own draw counted, as mt-metrics-eval's PairwisePermutationSigDiff (acc_eq) places it
    inside its `if c2 - c1 >= delta` - so a pair that never counts (p = 0) runs all k draws there too."""
    out, hits = [], 0
    done = 0
    observed = None
    while done < k:
        n = min(BLOCK, k - done)
        d, observed = step(rng, n)
        out.append(d)
        counted = d >= observed - 1e-12
        hits += int(counted.sum())
        done += n
        if done % BLOCK == 0 and (not on_hit or bool(counted[-1])):
            p = hits / done
            if p < EARLY_MIN or p > EARLY_MAX:
                break
    return np.concatenate(out), hits / done


# -- the statistics, each with its PERM-BOTH -------------------------------------------------------------

def _spa_stat(lp: str, H: np.ndarray, M: dict, permutations: int, spa_seed: int) -> _Stat:
    """SPA over segments.  H and M: complete (every cell rated: per-system signed sums, fast) or not (each pair
    of systems over the segments rated for both, the exact path of meta.soft_pairwise_accuracy)."""
    signs = meta.permutation_signs(H.shape[1], permutations, spa_seed)
    rated = ~np.isnan(H)
    complete = bool(rated.all())
    if complete:
        ph = meta.spa_p_values_complete(H, signs)
    else:
        ph = meta._pair_p(meta._pair_differences(H, rated), signs)[0]

    def spa(x):  # x: (S, I) or (B, S, I) -> SPA or (B,)
        if complete:
            pm = meta.spa_p_values_complete(x, signs)
        else:
            x3 = x[None] if x.ndim == 2 else x
            pm = np.stack([meta._pair_p(meta._pair_differences(np.where(rated, y, np.nan), rated), signs)[0]
                           for y in x3])
            pm = pm[0] if x.ndim == 2 else pm
        return 1.0 - np.abs(ph[None] - pm).mean(-1) if pm.ndim == 2 else 1.0 - float(np.abs(ph - pm).mean())

    values = {m: float(meta.soft_pairwise_accuracy(H, v, k=permutations, seed=spa_seed, signs=signs)["spa"])
              for m, v in M.items()}
    z = {m: _zscore_rated(v, rated) for m, v in M.items()}

    def null(a, b, rng, k):
        za, zb = z[a], z[b]
        delta = spa(za) - spa(zb)

        def step(r, n):
            res = []
            for c in range(0, n, 8):  # 8 draws (16 hybrids) a matrix product: bounded memory
                w = r.integers(0, 2, size=(min(8, n - c),) + za.shape).astype(bool)
                ha, hb = np.where(w, za, zb), np.where(w, zb, za)
                res.append(spa(np.concatenate([ha, hb])).reshape(2, -1))
            vals = np.concatenate(res, axis=1)
            return vals[0] - vals[1], delta
        return _early_stop(step, k, rng)
    return _Stat("spa", lp, 1.0, *TASK_STATISTICS["spa"].range, values, null)


def _zscore_rated(x: np.ndarray, rated: np.ndarray) -> np.ndarray:
    """z-scores over the rated cells (mt-metrics-eval z-scores the gold-filtered vector), others left as they are."""
    out = np.array(x, dtype=float)
    out[rated] = _zscore(out[rated])
    return out


def _acc_eq_stat(lp: str, H: np.ndarray, M: dict) -> _Stat:
    """acc_eq with item grouping: within each segment, every pair of systems both rated agrees (concordant, or
    tied on both sides with the metric's differences up to its epsilon counted as ties) or not; the mean over
    the segment's pairs, then over the segments with a pair (mt-metrics-eval filters the unrated cells item by
    item)."""
    i, j = np.triu_indices(H.shape[0], 1)
    rated = ~np.isnan(H)
    both = (rated[i] & rated[j]).T  # (items, pairs)
    per_item = both.sum(1)
    groups = int((per_item > 0).sum())
    wt = np.where(both, 1.0 / np.maximum(per_item, 1)[:, None] / max(groups, 1), 0.0)
    dh = np.nan_to_num((H[i] - H[j]).T)
    values, agree = {}, {}
    for m, v in M.items():
        eq = meta.tie_calibrated_accuracy(H, v, "item")
        eps = eq["epsilon"] or 0.0
        dm = np.nan_to_num((v[i] - v[j]).T)
        mt = np.abs(dm) <= eps
        ht = dh == 0
        a = (ht & mt) | (~ht & ~mt & (np.sign(dh) == np.sign(dm)))
        agree[m] = np.where(both, a, False) * wt
        values[m] = float(agree[m].sum())
        if eq["acc_eq"] is not None and abs(eq["acc_eq"] - values[m]) > 1e-9:
            raise AssertionError(f"acc_eq of {m}: {eq['acc_eq']} != {values[m]}")

    def null(a, b, rng, k):
        v = (agree[a] - agree[b]).reshape(-1)
        v = v[v != 0]  # pairs both metrics judge alike: a swap changes nothing
        delta = float(v.sum())

        def step(r, n):
            s = r.integers(0, 2, size=(n, len(v))) * 2.0 - 1.0
            return s @ v, delta
        return _early_stop(step, k, rng, on_hit=True)
    return _Stat("acc_eq", lp, 1.0, *TASK_STATISTICS["acc_eq"].range, values, null)


def _pearson_stat(name: str, lp: str, h: np.ndarray, M: dict) -> _Stat:
    """Pearson over the flattened rated cells (system level: one cell a system)."""
    ok = ~np.isnan(h.reshape(-1))
    h = h.reshape(-1)[ok]
    flat = {m: v.reshape(-1)[ok] for m, v in M.items()}
    values = {m: meta._corr(v, h, "pearson") for m, v in flat.items()}
    z = {m: _zscore(v) for m, v in flat.items()}

    def null(a, b, rng, k):
        delta = meta._pearson_rows(z[a], h) - meta._pearson_rows(z[b], h)

        def step(r, n):
            w = r.integers(0, 2, size=(n, len(h))).astype(bool)
            ha, hb = np.where(w, z[a], z[b]), np.where(w, z[b], z[a])
            hh = np.broadcast_to(h, ha.shape)
            return meta._pearson_rows(ha, hh) - meta._pearson_rows(hb, hh), float(delta)
        return _early_stop(step, k, rng)
    return _Stat(name, lp, 1.0, *TASK_STATISTICS[name].range, values, null)


def _accuracy_stat(tables: list[PairTables], metrics: list) -> _Stat:
    """WMT23's global accuracy: system pairs of every language pair pooled."""
    hs = [t.human_sys for t in tables]

    def acc(parts):  # parts: per pair, (B, S) metric values
        agree, total = 0.0, 0
        for h, m in zip(hs, parts):
            i, j = np.triu_indices(len(h), 1)
            agree = agree + (np.sign(h[i] - h[j]) == np.sign(m[..., i] - m[..., j])).sum(-1)
            total += len(i)
        return agree / total

    values = {m: float(acc([t.metric_sys[m] for t in tables])) for m in metrics}
    z = {m: [_zscore(t.metric_sys[m]) for t in tables] for m in metrics}

    def null(a, b, rng, k):
        delta = float(acc(z[a]) - acc(z[b]))

        def step(r, n):
            ws = [r.integers(0, 2, size=(n, len(h))).astype(bool) for h in hs]
            ha = [np.where(w, x, y) for w, x, y in zip(ws, z[a], z[b])]
            hb = [np.where(w, y, x) for w, x, y in zip(ws, z[a], z[b])]
            return acc(ha) - acc(hb), delta
        return _early_stop(step, k, rng)
    return _Stat("accuracy", "all", float(len(tables)), *TASK_STATISTICS["accuracy"].range, values, null)


# -- ranking ---------------------------------------------------------------------------------------------

def assign_ranks(order: list, p: dict, pval: float = P_VALUE) -> dict:
    """mt-metrics-eval's AssignRanks: down the sorted list, a new rank starts at a metric significantly below
    any metric from the current rank's start up to it."""
    ranks, rank, start = {}, 1, 0
    for i, m in enumerate(order):
        if any(p.get((order[x], m), 1.0) <= pval for x in range(start, i)):
            rank += 1
            start = i
        ranks[m] = rank
    return ranks


def _rank_task(st: _Stat, k: int, seed: int) -> None:
    st.order = sorted(st.values, key=lambda m: (-_num(st.values[m]), m))
    for x, a in enumerate(st.order):
        for b in st.order[x + 1:]:
            if k <= 0:
                st.p[(a, b)] = 0.0
                continue
            # one generator per (task, pair of metrics): the same draws whatever else is compared
            rng = np.random.default_rng([seed, _h(st.name), _h(st.lp), _h(a), _h(b)])
            d, p = st.null(a, b, rng, k)
            st.p[(a, b)], st.draws[(a, b)] = p, d
    st.ranks = assign_ranks(st.order, st.p)


def _num(v) -> float:
    return -math.inf if v is None or (isinstance(v, float) and math.isnan(v)) else v


def _h(s: str) -> int:
    import zlib

    return zlib.crc32(s.encode("utf-8"))


def average(stats: list[_Stat], metrics: list, k: int) -> dict:
    """TaskSetResults.AverageCorrMatrix over these tasks (their weights normalised): {"values", "order", "ranks",
    "p"}."""
    total = sum(s.weight for s in stats)
    wts = [s.weight / total for s in stats]
    avg = {m: sum(w * (_num(s.values[m]) - s.lo) / (s.hi - s.lo) for s, w in zip(stats, wts)) for m in metrics}
    order = sorted(metrics, key=lambda m: -avg[m])
    p: dict = {}
    for x, a in enumerate(order):
        for b in order[x + 1:]:
            if k <= 0:
                p[(a, b)] = 0.0
                continue
            parts = []
            for s, w in zip(stats, wts):
                d = s.draws.get((a, b))
                if d is None:
                    d = -s.draws[(b, a)]
                parts.append(w * d / (s.hi - s.lo))
            most = max(len(d) for d in parts)
            null = sum(np.tile(d, -(-most // len(d)))[:most] for d in parts)
            p[(a, b)] = float(np.mean(null >= avg[a] - avg[b]))
    return {"values": avg, "order": order, "ranks": assign_ranks(order, p), "p": p}


def run_task(tables: list[PairTables], task: str = "wmt24", k: int = 1000, permutations: int = 1000,
             spa_seed: int = SPA_SEED, seed: int = DEFAULT_SEED) -> dict:
    """The task's statistics per language pair, their averages and clusters (module docstring)."""
    if task not in TASKS:
        raise InputError(f"unknown task '{task}' (choose {', '.join(TASKS)})", code=InputError.Codes.SETTING)
    if not tables:
        raise InputError("no language pair to rank metrics on", code=InputError.Codes.TOO_LITTLE)
    if k < 0 or permutations < 1:
        raise InputError("the task needs at least 1 permutation and a non-negative number of draws",
                         code=InputError.Codes.SETTING)
    metrics = [m for m in tables[0].metric_seg if all(m in t.metric_seg for t in tables)]
    if task == "wmt23":
        metrics = [m for m in metrics if all(m in t.metric_sys for t in tables)]
    # The evaluation set is the gold's: every cell the humans rated. A metric without a value on a rated cell is
    # left out of the ranking, as mt-metrics-eval refuses a metric with missing scores (data.py, EvalSet's
    # AddMetric); every other metric is evaluated on every rated cell, whichever metrics stand beside it.
    left_out: dict = {}
    for t in tables:
        rated = ~np.isnan(t.human_seg)
        for m in metrics:
            n = int((rated & np.isnan(t.metric_seg[m])).sum())
            if n:
                left_out.setdefault(m, {})[t.lp] = {"unscored": n, "rated": int(rated.sum())}
    metrics = [m for m in metrics if m not in left_out]
    if not metrics:
        raise InputError("no metric has a value on every rated segment of every language pair"
                         + (f" (left out: {', '.join(left_out)})" if left_out else ""), code=InputError.Codes.TOO_LITTLE)
    stats: list[_Stat] = []
    pairs_out: dict = {}
    for t in tables:
        M0 = {m: t.metric_seg[m] for m in metrics}
        Hr = t.human_seg  # the gold alone defines the cells evaluated
        ok = ~np.isnan(Hr).any(0)
        if Hr.shape[0] < 3 or (~np.isnan(Hr)).sum() < 4:
            raise InputError(f"{t.lp}: {Hr.shape[0]} systems with {(~np.isnan(Hr)).sum()} rated segments; the task "
                             "needs at least 3 systems and 4 rated segments", code=InputError.Codes.TOO_LITTLE)
        # SPA: the segments judged for every system (the task's rule) when there are any, else every pair of
        # systems over the segments rated for both
        spa_cols = ok if ok.sum() >= 2 else np.ones_like(ok)
        mine = []
        if task == "wmt23":
            mine.append(_pearson_stat("pearson_sys", t.lp, t.human_sys, {m: t.metric_sys[m] for m in metrics}))
            mine.append(_pearson_stat("pearson_seg", t.lp, Hr, M0))
        else:
            mine.append(_spa_stat(t.lp, Hr[:, spa_cols], {m: v[:, spa_cols] for m, v in M0.items()}, permutations,
                                  spa_seed))
            if task == "wmt25":  # one statistic, WMT25's name for it
                mine[-1].name = "pce"
        mine.append(_acc_eq_stat(t.lp, Hr, M0))
        stats += mine
        rated_cells = int((~np.isnan(Hr)).sum())
        pairs_out[t.lp] = {"systems": list(t.systems), "segments_rated": int((~np.isnan(Hr).all(0)).sum()),
                           "segments_every_system": int(ok.sum()),
                           # per metric: the rated cells it is evaluated on (all of them: the gold's set)
                           "cells_rated": rated_cells, "cells_per_metric": {m: rated_cells for m in metrics},
                           "spa_segments": "judged for every system" if ok.sum() >= 2 else
                           "per pair of systems, the segments rated for both",
                           "segments": int(t.human_seg.shape[1]), "notes": list(t.notes), "stats": mine}
    if task == "wmt23":
        stats.insert(0, _accuracy_stat(tables, metrics))
    for st in stats:
        _rank_task(st, k, seed)

    def table(sts):
        return [{"statistic": s.name, "label": LABELS[s.name], "lp": s.lp, "weight": s.weight,
                 "values": {m: s.values[m] for m in s.order}, "ranks": s.ranks,
                 "p": [{"a": a, "b": b, "p": v, "draws": int(len(s.draws.get((a, b), ())))}
                       for (a, b), v in s.p.items()]} for s in sts]

    def avg_out(sts):
        r = average(sts, metrics, k)
        return {"values": {m: r["values"][m] for m in r["order"]}, "ranks": r["ranks"],
                "p": [{"a": a, "b": b, "p": v} for (a, b), v in r["p"].items()]}

    out = {"task": task, "metrics": metrics,
           "left_out": {m: {lp: {**v, "why": f"no value on {v['unscored']} of {v['rated']} rated cells"}
                            for lp, v in per.items()} for m, per in left_out.items()},
           "settings": {"draws": k, "block": BLOCK, "early_stop": [EARLY_MIN, EARLY_MAX], "p_value": P_VALUE,
                        "spa_permutations": permutations, "spa_seed": spa_seed, "seed": seed},
           "pairs": {}}
    for lp, v in pairs_out.items():
        sts = v.pop("stats")
        out["pairs"][lp] = {**v, "statistics": table(sts), "average": avg_out(sts)}
    if task == "wmt23":
        out["global"] = table(stats[:1])[0]
    out["overall"] = avg_out(stats)
    out["weights"] = {f"{s.name}@{s.lp}": s.weight / sum(x.weight for x in stats) for s in stats}
    return out


__all__ = ["PairTables", "TASKS", "assign_ranks", "average", "run_task"]
