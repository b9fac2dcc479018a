"""Sufficient statistics: per-unit (sentence or document) match counts as numpy arrays.

For one system against its references the result is an array of shape
(n_units, n_columns, 3) holding, for every feature column of the layout
(see `features.Layout`), the unweighted counts

    [..., 0] matched   sum over items of min(system count, reference count)
    [..., 1] system    total count in the system
    [..., 2] reference total count in the reference(s)

Weights are applied only when scoring, so changing weights never re-counts.
The score of any set of units is the column sum plus a formula
(`scoring.score`); bootstrap and significance tests resample these rows.

Multi-reference aggregation:
  max  the reference count of every feature, entity text or n-gram is the
       element-wise maximum over the references (the `blonde` package);
  sum  every reference is matched on its own and the counts are summed
       (micro-average over references).
"""
from __future__ import annotations

import numpy as np

from .features import FeatureTable

MATCHED, SYS, REF = 0, 1, 2


def _aggregate(units: np.ndarray, items: np.ndarray, counts: np.ndarray, n_items: int):
    """Sum counts of duplicate (unit, item) pairs -> (sorted unique composite keys, counts)."""
    if len(items) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    comp = units.astype(np.int64) * max(n_items, 1) + items
    keys, inv = np.unique(comp, return_inverse=True)
    return keys, np.bincount(inv.reshape(-1), weights=counts, minlength=len(keys)).astype(np.int64)


def _elementwise_max(parts):
    """Union of several (keys, counts) with the max count per key."""
    parts = [p for p in parts if len(p[0])]
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if len(parts) == 1:
        return parts[0]
    keys = np.concatenate([p[0] for p in parts])
    counts = np.concatenate([p[1] for p in parts])
    order = np.lexsort((-counts, keys))
    keys, counts = keys[order], counts[order]
    first = np.ones(len(keys), dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    return keys[first], counts[first]


def ref_groups(ref_kcs, aggregation: str = "max") -> list:
    """The references' (keys, counts) as matching takes them: their element-wise max (one group) or each on
    its own (sum).  The same for every system, so evaluate makes them once per column."""
    return [_elementwise_max(ref_kcs)] if aggregation == "max" else list(ref_kcs)


def match_keyed(sys_kc, ref_kcs, n_units: int, n_items: int, aggregation: str = "max",
                groups: list | None = None) -> np.ndarray:
    """Per-unit [matched, sys, ref] for one keyed column.

    sys_kc and each of ref_kcs are (composite keys, counts) from `_aggregate`; groups: ref_groups(ref_kcs,
    aggregation) when the caller has them already (then ref_kcs is only counted).
    """
    out = np.zeros((n_units, 3), dtype=np.float64)
    m = max(n_items, 1)
    sk, sc = sys_kc
    if len(sk):
        out[:, SYS] = np.bincount(sk // m, weights=sc, minlength=n_units)
    if groups is None:
        groups = ref_groups(ref_kcs, aggregation)
    if aggregation != "max":
        out[:, SYS] *= len(ref_kcs)
    for rk, rc in groups:
        if len(rk):
            out[:, REF] += np.bincount(rk // m, weights=rc, minlength=n_units)
        if len(rk) and len(sk):
            _, si, ri = np.intersect1d(sk, rk, assume_unique=True, return_indices=True)
            if len(si):
                out[:, MATCHED] += np.bincount(sk[si] // m, weights=np.minimum(sc[si], rc[ri]),
                                               minlength=n_units)
    return out


def match_dense(sys_counts: np.ndarray, ref_counts: list, aggregation: str = "max") -> np.ndarray:
    """Per-unit [matched, sys, ref] for dense columns; arrays (n_units, n_cols)."""
    if aggregation == "max":
        ref = np.maximum.reduce(ref_counts) if len(ref_counts) > 1 else ref_counts[0]
        return np.stack([np.minimum(sys_counts, ref), sys_counts, ref], axis=-1).astype(np.float64)
    matched = sum(np.minimum(sys_counts, r) for r in ref_counts)
    return np.stack([matched, sys_counts * len(ref_counts), sum(ref_counts)], axis=-1).astype(np.float64)


def unit_dense(table: FeatureTable, rows: np.ndarray, units: np.ndarray, n_units: int) -> np.ndarray:
    d = table.dense[rows]
    if len(units) == n_units and np.array_equal(units, np.arange(n_units)):
        return d
    out = np.zeros((n_units, d.shape[1]), dtype=np.int64)
    np.add.at(out, units, d)
    return out


def system_stats(table: FeatureTable, sys_rows: np.ndarray, sys_units: np.ndarray,
                 ref_rows: list, ref_units: list, n_units: int, aggregation: str = "max",
                 entity_override=None, plus=None, refs: dict | None = None) -> np.ndarray:
    """The (n_units, n_columns, 3) statistics of one system.

    sys_rows / ref_rows[k]: FeatureTable rows of each segment; sys_units /
    ref_units[k]: the unit each segment belongs to (its own index at sentence
    granularity, its document at document granularity).
    entity_override: optional per-unit keyed entity items (see `refined_entities`)
    replacing the automatic entities; plus: optional per-unit BlonD+ items.
    refs: a dict kept across the systems of one evaluation (same references, same units): the references'
    side of every column is made once and read from it after.
    """
    lay = table.layout
    refs = {} if refs is None else refs
    out = np.zeros((n_units, lay.n, 3), dtype=np.float64)
    if "dense" not in refs:
        refs["dense"] = [unit_dense(table, r, u, n_units) for r, u in zip(ref_rows, ref_units)]
    out[:, lay.dense_cols, :] = match_dense(unit_dense(table, sys_rows, sys_units, n_units), refs["dense"],
                                            aggregation)
    n_ent = lay.cat_slices["entity"].stop - lay.cat_slices["entity"].start
    for j, col in enumerate(lay.keyed_cols):
        if entity_override is not None and j < n_ent:
            continue
        csr = table.keyed[j]
        pos, items, counts = csr.gather(sys_rows)
        skc = _aggregate(sys_units[pos], items, counts, csr.n_items)
        if j not in refs:
            rkcs = []
            for r, u in zip(ref_rows, ref_units):
                rpos, ritems, rcounts = csr.gather(r)
                rkcs.append(_aggregate(u[rpos], ritems, rcounts, csr.n_items))
            refs[j] = (rkcs, ref_groups(rkcs, aggregation))
        rkcs, groups = refs[j]
        out[:, col, :] = match_keyed(skc, rkcs, n_units, csr.n_items, aggregation, groups)
    if entity_override is not None:
        for j, (skc, rkcs, n_items) in enumerate(entity_override):
            out[:, lay.keyed_cols[j], :] = match_keyed(skc, rkcs, n_units, n_items, aggregation)
    if plus is not None:
        for j, (skc, rkcs, n_items) in enumerate(plus):
            out[:, lay.cat_slices["plus"].start + j, :] = match_keyed(skc, rkcs, n_units, n_items, aggregation)
    return out


def literal_items(per_unit_sys: list, per_unit_refs: list, n_units: int):
    """Turn per-unit {phrase: count} dicts into keyed (composite, counts) arrays.

    per_unit_sys: list over units of dict phrase->count; per_unit_refs: list over
    references of such lists.  Returns (sys_kc, [ref_kc...], n_items).
    """
    vocab: dict[str, int] = {}

    def conv(per_unit):
        u, it, c = [], [], []
        for unit, d in enumerate(per_unit):
            for phrase, cnt in d.items():
                if cnt:
                    u.append(unit)
                    it.append(vocab.setdefault(phrase, len(vocab)))
                    c.append(cnt)
        return np.array(u, np.int64), np.array(it, np.int64), np.array(c, np.int64)

    sys_raw = conv(per_unit_sys)
    ref_raw = [conv(p) for p in per_unit_refs]
    n_items = max(len(vocab), 1)
    return (_aggregate(*sys_raw, n_items), [_aggregate(*r, n_items) for r in ref_raw], n_items)
