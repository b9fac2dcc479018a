"""Correlation with human judgments (Pearson, Spearman, Kendall with intervals), the
Williams test for dependent correlations, metric tables at system and document level."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scipy import stats as sps

from blonde_core.errors import InputError
from blonde_core.metric.scoring import score
from . import meta, statistics
from .units import DEFAULT_SEED, metric_fn


def _fisher_ci(r: float, n: int, se_scale: float, offset: int, level: float) -> list:
    if n - offset <= 0 or r is None or math.isnan(r) or abs(r) >= 1:
        return [None, None] if (r is None or math.isnan(r)) else [r, r]
    z = math.atanh(r)
    se = math.sqrt(se_scale / (n - offset))
    q = sps.norm.ppf(0.5 + level / 2)
    return [math.tanh(z - q * se), math.tanh(z + q * se)]


def correlations(x, y, level: float = 0.95) -> dict:
    """Pearson, Spearman and Kendall tau-b with Fisher-z confidence intervals
    (Spearman: Fieller et al. variance 1.06/(n-3); Kendall: 0.437/(n-4))."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = ~(np.isnan(x) | np.isnan(y))
    x, y = x[ok], y[ok]
    n = len(x)
    out = {"n": n}
    if n < 3 or np.all(x == x[0]) or np.all(y == y[0]):
        for k in ("pearson", "spearman", "kendall"):
            out[k], out[k + "_p"], out[k + "_ci"] = None, None, [None, None]
        return out
    pr = sps.pearsonr(x, y)
    ci = pr.confidence_interval(confidence_level=level) if n > 3 else None
    out["pearson"], out["pearson_p"] = float(pr.statistic), float(pr.pvalue)
    out["pearson_ci"] = [float(ci.low), float(ci.high)] if ci is not None else [None, None]
    sr = sps.spearmanr(x, y)
    out["spearman"], out["spearman_p"] = float(sr.statistic), float(sr.pvalue)
    out["spearman_ci"] = _fisher_ci(float(sr.statistic), n, 1.06, 3, level)
    kt = sps.kendalltau(x, y, variant="b")
    out["kendall"], out["kendall_p"] = float(kt.statistic), float(kt.pvalue)
    out["kendall_ci"] = _fisher_ci(float(kt.statistic), n, 0.437, 4, level)
    return out


def williams_test(r12: float, r13: float, r23: float, n: int) -> tuple[float, float]:
    """Williams' test for two dependent correlations sharing variable 1 (e.g. the
    human score): is r12 larger than r13, given r23?  The formula of R's
    psych::r.test, df = n - 3.  Returns (t, one-sided p)."""
    if n <= 3:
        raise InputError("the Williams test needs n > 3", code=InputError.Codes.TOO_LITTLE)
    diff = r12 - r13
    det = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    rbar = (r12 + r13) / 2
    cube = (1 - r23) ** 3
    denom = 2 * ((n - 1) / (n - 3)) * det + rbar ** 2 * cube
    if denom <= 0 or 1 + r23 < 0:  # degenerate (e.g. the two metrics are perfectly correlated)
        return float("nan"), float("nan")
    t = diff * math.sqrt((n - 1) * (1 + r23) / denom)
    p = float(sps.t.sf(abs(t), n - 3))
    return float(t), p


def metric_names(result) -> list[str]:
    if getattr(result, "no_pack", False):  # analysis/textsonly.py: no BlonDe statistic to correlate
        return []
    probe = score(np.zeros((result.layout.n, 3)), result.config, result.layout, result.plus)
    tops = ["BlonDe", "BlonD-d"] + (["BlonD+"] if result.plus else [])
    return tops + list(probe["categories"])


def used_systems(result, human, exclude=()) -> list[str]:
    """The scored systems that humans judged, minus `exclude` (each must be a scored system)."""
    unknown = [x for x in exclude if x not in result.names]
    if unknown:
        raise InputError(f"cannot exclude '{unknown[0]}': no scored system has that name "
                         f"(systems: {', '.join(result.names)})", code=InputError.Codes.NAMES)
    return [s for s in result.names if s in human.system_scores and s not in exclude]


def metric_table(result, human, level: str = "system", metrics: list[str] | None = None,
                 extra: dict | None = None, exclude=(), extra_segments: dict | None = None):
    """Aligned metric and human values: (keys, {metric: values}, human values).

    level "system": one value per system (corpus score vs mean human score);
    "document": one value per (system, document), pooled over systems.
    extra: further metrics {name: {system: value}} or {name: {system: {doc: value}}}.
    """
    if level == "segment":  # the BlonDe family only: the others have no per-segment values here
        return _segment_tables(result, human, metrics, list(exclude or ()), extra_segments)[:3]
    if level not in ("system", "document"):
        raise InputError("level must be system, document or segment", code=InputError.Codes.SETTING)
    metrics = metrics or metric_names(result)
    fns = {m: metric_fn(result, m) for m in metrics}
    systems = used_systems(result, human, exclude)
    if not systems:
        raise InputError(f"no system of the human judgments ({', '.join(sorted(human.system_scores))}) is among "
                         f"the scored systems ({', '.join(result.names)})", code=InputError.Codes.JUDGMENTS)
    keys, hum = [], []
    vals = {m: [] for m in metrics}
    extra = extra or {}
    for m in extra:
        vals[m] = []
    doc_ids = result.corpus.doc_ids
    for s in systems:
        if level == "system":
            keys.append(s)
            hum.append(human.oriented(human.system_scores[s]))
            tot = result.total(s)
            for m, fn in fns.items():
                vals[m].append(float(fn(tot)))
            for m, table in extra.items():
                vals[m].append(float(table.get(s, np.nan)))
        else:
            ds = result.doc_stats(s)
            per = {m: fn(ds) for m, fn in fns.items()}
            for i, d in enumerate(doc_ids):
                if d not in human.doc_scores.get(s, {}):
                    continue
                keys.append(f"{s}/{d}")
                hum.append(human.oriented(human.doc_scores[s][d]))
                for m in fns:
                    vals[m].append(float(per[m][i]))
                for m, table in extra.items():
                    vals[m].append(float(table.get(s, {}).get(d, np.nan)))
    return keys, {m: np.array(v) for m, v in vals.items()}, np.array(hum)


SPA_RESAMPLES = 200  # document resamples for SPA's interval (each needs its own permutation test)


def _human_docs(human, systems: list[str], doc_ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(oriented per-document human scores, rated segments per document), systems x documents;
    NaN (and 0 segments) where nobody rated the document."""
    mean = np.full((len(systems), len(doc_ids)), np.nan)
    count = np.zeros((len(systems), len(doc_ids)))
    col = {d: j for j, d in enumerate(doc_ids)}
    per_seg = {}
    for key in human.segments:
        per_seg[(key[0], key[1])] = per_seg.get((key[0], key[1]), 0) + 1
    for i, s in enumerate(systems):
        for d, v in human.doc_scores.get(s, {}).items():
            if d in col and v is not None and not (isinstance(v, float) and math.isnan(v)):
                mean[i, col[d]] = human.oriented(v)
                count[i, col[d]] = per_seg.get((s, d), 1)
    return mean, count


def _tables(result, human, level, metrics, extra, exclude, extra_docs):
    """What correlate and compare_pair work on: the level's aligned values (metric_table),
    the systems used, and systems x documents matrices of human scores (with rated segment
    counts) and of every metric."""
    keys, vals, hum = metric_table(result, human, level, metrics, extra, exclude)
    systems = used_systems(result, human, exclude)
    doc_ids = list(result.corpus.doc_ids)
    hdoc, hcount = _human_docs(human, systems, doc_ids)
    fns = {m: metric_fn(result, m) for m in (metrics or metric_names(result))}
    docs = {m: np.array([fn(result.doc_stats(s)) for s in systems], dtype=float) for m, fn in fns.items()}
    for m, table in (extra_docs or (extra if level == "document" else {}) or {}).items():
        docs[m] = np.array([[float(np.nan if table.get(s, {}).get(d) is None else table[s][d])
                             for d in doc_ids] for s in systems])
    return keys, vals, hum, systems, hdoc, hcount, docs, fns


def _segment_tables(result, human, metrics, exclude, extra_segments=None):
    """Segment level: systems x segments matrices of oriented human scores and of every BlonDe-family
    metric (each segment scored on its own), with the document of every segment (for resampling whole
    documents).  A document's judgments are paired with its segments by id (the loaded segment ids, or
    positions 1, 2, ... without them: WMT DA tables, judgments tables) or, when their ids are others
    (an MQM file's test-set line numbers), by position when the counts agree; a document paired neither
    way is left out (its cells count as unrated)."""
    from .units import unit_stats

    if result.config.granularity != "sentence":
        raise InputError("segment level needs sentence-level matching (scores matched per document have no "
                         "segments)", code=InputError.Codes.SENTENCE_COUNTS)
    corpus = result.corpus
    systems = used_systems(result, human, exclude)
    if not systems:
        raise InputError(f"no system of the human judgments ({', '.join(sorted(human.system_scores))}) is among "
                         f"the scored systems ({', '.join(result.names)})", code=InputError.Codes.JUDGMENTS)
    ref0 = next(iter(corpus.references.values()))
    seg_ids = [list(corpus.seg_ids[di]) if corpus.seg_ids else [str(k + 1) for k in range(len(d))]
               for di, d in enumerate(ref0)]
    item_doc = np.repeat(np.arange(len(ref0)), [len(d) for d in ref0])
    rated: dict = {}
    for (s, d, seg), v in human.segments.items():
        if v is not None and not (isinstance(v, float) and math.isnan(v)):
            rated.setdefault((s, d), {})[seg] = v
    H = np.full((len(systems), len(item_doc)), np.nan)
    for i, s in enumerate(systems):
        col = 0
        for d, ids in zip(corpus.doc_ids, seg_ids):
            got = rated.get((s, d), {})
            if got and set(got) <= set(ids):
                for k, x in enumerate(ids):
                    if x in got:
                        H[i, col + k] = human.oriented(got[x])
            elif len(got) == len(ids):
                for k, x in enumerate(sorted(got, key=lambda x: (0, int(x), "") if x.isdigit() else (1, 0, x))):
                    H[i, col + k] = human.oriented(got[x])
            col += len(ids)
    names = metrics or metric_names(result)
    fns = {m: metric_fn(result, m) for m in names}
    M = {m: np.array([fn(unit_stats(result, s, "segment")[1]) for s in systems], dtype=float)
         for m, fn in fns.items()}
    for m, per in (extra_segments or {}).items():  # metrics computed elsewhere, segment by segment (oriented)
        M[m] = np.array([per[s] if s in per else np.full(len(item_doc), np.nan) for s in systems], dtype=float)
    ok = ~np.isnan(H)
    keys = [f"{systems[i]}/{corpus.doc_ids[item_doc[j]]}#{j}" for i, j in zip(*np.nonzero(ok))]
    vals = {m: v[ok] for m, v in M.items()}
    return keys, vals, H[ok], systems, H, ok.astype(float), M, fns, item_doc


@dataclass
class Cells:
    """One metric beside the humans at one level: what a statistic of the table (statistics.py) computes from.
    ``human`` and ``metric``: the level's aligned values (one per system, or one per rated cell); ``human_items``
    and ``metric_items``: systems x items matrices (documents, or segments at segment level; NaN where not rated);
    ``weights``: resampled item multiplicities (B, items) for intervals at document and segment level;
    ``bootstrap``: () -> resampled (B, S) human and metric system scores, for a metric re-scored from its
    sufficient statistics (None otherwise); ``spa``, ``segments``: SPA's settings and its segment matrices (None
    when not asked for).  ``methods``: each interval's method, written as the statistics make them."""
    level: str
    grouping: str
    confidence: float
    seed: int
    human: np.ndarray
    metric: np.ndarray
    human_items: np.ndarray
    metric_items: np.ndarray | None
    weights: np.ndarray | None
    bootstrap_method: str
    bootstrap: Callable | None = None
    spa: dict | None = None
    segments: dict | None = None
    methods: dict = field(default_factory=dict)
    _memo: dict = field(default_factory=dict)

    def _once(self, key: str, fn):
        if key not in self._memo:
            self._memo[key] = fn()
        return self._memo[key]

    def rated(self) -> np.ndarray:
        """The level's values with both a human score and the metric's."""
        return ~(np.isnan(self.human) | np.isnan(self.metric))

    def n(self) -> int:
        """The cells taking part: systems, or the rated (system, item) cells with the metric's value."""
        if self.level == "system":
            return int(self.rated().sum())
        return int((~(np.isnan(self.human_items) | np.isnan(self.metric_items))).sum())

    def fisher(self) -> dict:
        """Pearson, Spearman and Kendall of the level's values with Fisher-z intervals (correlations)."""
        return self._once("fisher", lambda: correlations(self.metric, self.human, self.confidence))

    def system_bootstrap(self) -> dict | None:
        """The percentile intervals of meta.bootstrap_system_level, or None without resampled system scores."""
        if self.bootstrap is None:
            return None
        return self._once("bootstrap", lambda: meta.bootstrap_system_level(*self.bootstrap(), self.confidence))


def compare_pair(result, human, pair, level: str = "system", metrics=None, extra=None, grouping: str = "none",
                 exclude=(), permutations: int = 1000, seed: int = DEFAULT_SEED, extra_docs=None) -> dict:
    """Two metrics head to head (Williams, PERM-BOTH) without the rest of correlate's work."""
    if level == "segment":
        raise InputError("two metrics are compared at system and document level (segment level: not yet)",
                         code=InputError.Codes.SETTING)
    if level == "system" and grouping != "none":
        raise InputError("grouping applies to document level only (system level has one value per system)", code=InputError.Codes.SETTING)
    _, vals, hum, _, hdoc, _, docs, _ = _tables(result, human, level, metrics, extra, list(exclude or ()),
                                                 extra_docs)
    return compare_metrics(vals, hum, hdoc, docs, level, grouping, pair, permutations, seed)


def correlate(result, human, level: str = "system", metrics: list[str] | None = None, extra: dict | None = None,
              confidence: float = 0.95, grouping: str = "none", exclude=(), spa: bool = False,
              permutations: int = 1000, seed: int = DEFAULT_SEED, bootstrap: int = 1000,
              compare: tuple[str, str] | None = None, extra_docs: dict | None = None,
              extra_segments: dict | None = None, spa_seed: int = 4) -> dict:
    """Meta-evaluation of every metric against the human scores, as the WMT metrics task
    does it (../shared/spec/meta-evaluation.md).

    level "system": Pearson, Spearman, Kendall tau-b, pairwise accuracy over the systems,
    with percentile intervals over resampled documents for the BlonDe family (system
    scores re-made from the resampled documents' sufficient statistics, human scores from
    their rated segments) and Fisher-z intervals for the others; ``spa``: soft pairwise
    accuracy from per-document scores (``permutations``, ``seed``) and, as WMT24 defines it, from per-segment
    scores (``spa_seed``, default pce.py's 4; at sentence-level matching, for every metric with segment scores).
    level "document": one value per (system, document) with ``grouping`` none / sys / item,
    intervals over resampled documents; and PDP (pairwise difference Pearson, mt-metrics-eval 2025: within each
    item the differences between every two systems, pooled) with its interval, whatever the grouping.
    Only cells with a human score take part; the output says how many.
    ``extra`` (and ``extra_docs``, their per-document values, for SPA; ``extra_segments``, per-segment
    values {name: {system: (n_segments,)}} for segment level) must already be
    oriented higher-is-better (e.g. "-TER").  ``compare``: two metric names, compared with
    the Williams test and PERM-BOTH at the chosen level and grouping."""
    from .intervals import resample_weights

    if level == "system" and grouping != "none":
        raise InputError("grouping applies to document and segment level only (system level has one value per "
                         "system)", code=InputError.Codes.SETTING)
    exclude = list(exclude or ())
    item_doc = None
    if level == "segment":  # the BlonDe family segment by segment; documents resampled whole
        keys, vals, hum, systems, hdoc, hcount, docs, fns, item_doc = _segment_tables(result, human, metrics, exclude,
                                                                                       extra_segments)
    else:
        keys, vals, hum, systems, hdoc, hcount, docs, fns = _tables(result, human, level, metrics, extra, exclude,
                                                                     extra_docs)
    doc_ids = list(result.corpus.doc_ids)
    # the settings of this meta-evaluation after the scores' own (the CLI and the page print this one string)
    sig = (f"{result.signature}|level:{level}|grouping:{grouping}|boot:{bootstrap}|seed:{seed}"
           + (f"|spa:{permutations}" if spa else "") + (f"|exclude:{','.join(exclude)}" if exclude else "")
           + f"|ref:{','.join(result.corpus.references)}")
    out = {"signature": sig, "level": level, "grouping": grouping, "human": human.name,
           "human_direction": "higher is better" if human.higher_is_better else
           "lower is better (negated before correlating)", "n": len(keys), "systems": systems,
           "excluded": exclude, "n_systems": len(systems), "documents": len(doc_ids),
           "cells_rated": int((~np.isnan(hdoc)).sum()), "cells": int(hdoc.size),
           "metrics": {}, "williams": [], "matrix": {}}
    w = resample_weights(len(doc_ids), bootstrap, seed) if bootstrap else None
    if level == "system" and w is not None:
        hw = w[:, None, :] * hcount[None]  # (B, S, D) rated segments drawn
        with np.errstate(invalid="ignore", divide="ignore"):
            hsys = (hw * np.nan_to_num(hdoc)[None]).sum(-1) / hw.sum(-1)
    seg_h = seg_m = None
    if level == "system" and spa and result.config.granularity == "sentence":
        _, _, _, _, seg_h, _, seg_m, _, _ = _segment_tables(result, human, [m for m in vals if m in fns], exclude,
                                                            extra_segments)
    if seg_h is not None:
        # SPA over segments draws its permutations over the segments judged for every system, as mt-metrics-eval's
        # PairwiseConfidenceError (its gold-None filter, then one row per system); with sparse judgments (none
        # judged for every system) every segment, each pair of systems over those rated for both
        seg_cols = ~np.isnan(seg_h).any(0)
        if seg_cols.sum() < 2:
            seg_cols = np.ones(seg_h.shape[1], dtype=bool)
        out["spa_segments_count"] = int(seg_cols.sum())
    resampled = None
    spa_cache: dict = {}
    seg_cache: dict = {}
    spa_signs = meta.permutation_signs(len(doc_ids), permutations, seed) if spa else None
    spa_w = w[:SPA_RESAMPLES] if (spa and w is not None) else None
    wi = None if w is None or level == "system" else w if item_doc is None else w[:, item_doc]
    table = statistics.at(level, ("spa",) if spa else ())

    def system_bootstrap(m):
        """Every system's statistics over the resampled documents (once for all metrics), m re-scored from them."""
        nonlocal resampled
        if resampled is None:
            resampled = [np.einsum("bd,d...->b...", w, result.doc_stats(s)) for s in systems]
        return hsys, np.stack([fns[m](r_s) for r_s in resampled], -1)

    for m, v in vals.items():
        cells = Cells(level, grouping, confidence, seed, hum, v, hdoc, docs.get(m), wi,
                      f"bootstrap over documents ({bootstrap} resamples)",
                      (lambda m=m: system_bootstrap(m)) if level == "system" and w is not None and m in fns else None,
                      {"signs": spa_signs, "cache": spa_cache, "weights": spa_w} if spa else None,
                      None if seg_m is None else {"human": seg_h[:, seg_cols], "cache": seg_cache, "seed": spa_seed,
                                                  "permutations": permutations,
                                                  "metric": seg_m[m][:, seg_cols] if m in seg_m else None})
        fields = {"n": cells.n()}
        for st in table:
            fields.update(st.compute(cells))
        r = statistics.record(level, fields)
        # every interval says how it was made; ci_method: the one method of them all, or each in turn
        methods = cells.methods
        r["ci_methods"] = methods
        kinds = sorted(set(methods.values()))
        r["ci_method"] = kinds[0] if len(kinds) == 1 else "; ".join(
            f"{', '.join(k[:-3] for k, v in methods.items() if v == kind)}: {kind}" for kind in kinds)
        out["metrics"][m] = r
    if level == "system" and spa:
        out["spa"] = {"permutations": permutations, "seed": seed,
                      "interval": f"percentile over {0 if spa_w is None else len(spa_w)} of the document resamples, "
                                  "the permutation signs kept",
                      "items": "documents (per-document scores; humans: mean over a document's rated segments)"}
        if seg_m is not None:
            out["spa_segments"] = {"permutations": permutations, "seed": spa_seed,
                                   "items": "segments (WMT24: each segment's own score, the humans' segment scores; "
                                            "every pair of systems over the segments rated for both)",
                                   "metrics": sorted(seg_m)}
    names = list(vals)
    for a in names:
        out["matrix"][a] = {}
        for b in names:
            ok = ~(np.isnan(vals[a]) | np.isnan(vals[b]))
            if ok.sum() >= 3 and np.ptp(vals[a][ok]) > 0 and np.ptp(vals[b][ok]) > 0:
                out["matrix"][a][b] = float(np.corrcoef(vals[a][ok], vals[b][ok])[0, 1])
            else:
                out["matrix"][a][b] = None
    if compare:
        out["compare"] = compare_metrics(vals, hum, hdoc, docs, level, grouping, compare, permutations, seed)
    return out


def compare_metrics(vals: dict, hum, hdoc, docs: dict, level: str, grouping: str, pair, k: int,
                    seed: int) -> dict:
    """Williams (Pearson, ungrouped) and PERM-BOTH (Pearson, the chosen grouping) for two metrics."""
    a, b = pair
    for m in (a, b):
        if m not in vals:
            raise InputError(f"unknown metric '{m}' to compare (choose from {', '.join(vals)})", code=InputError.Codes.SETTING)
    res = {"a": a, "b": b, "level": level, "grouping": grouping}
    ra, rb = correlations(vals[a], hum)["pearson"], correlations(vals[b], hum)["pearson"]
    rab = correlations(vals[a], vals[b])["pearson"]
    ok = ~(np.isnan(vals[a]) | np.isnan(vals[b]) | np.isnan(hum))
    n = int(ok.sum())
    if None not in (ra, rb, rab) and n > 3 and grouping == "none":
        t, p = williams_test(rb, ra, rab, n)
        # p: as mt-metrics-eval's WilliamsSigDiff returns it (t.sf(|t|), the direction read off the sign of t);
        # p_b_better: the same test read one-sided in the named direction (1 - p when b correlates less)
        res["williams"] = {"t": None if math.isnan(t) else t, "p": None if math.isnan(p) else p,
                           "p_b_better": None if math.isnan(p) else (p if rb >= ra else 1 - p), "n": n}
    else:
        res["williams"] = None
    if level == "system":
        pb = meta.perm_both(hum, vals[a], vals[b], "none", "pearson", k, seed)
    else:
        if a not in docs or b not in docs:
            raise InputError(f"no per-document values of '{a}' or '{b}' to compare", code=InputError.Codes.TOO_LITTLE)
        pb = meta.perm_both(hdoc, docs[a], docs[b], grouping, "pearson", k, seed)
    res["perm_both"] = {"p_b_better": pb["p"], "delta_b_minus_a": pb["delta"], "resamples": pb["resamples"],
                        "cells": pb["cells"]}
    return res


def oriented_tables(level: str, names: list[str], standard=None, companion: dict | None = None,
                    apt: dict | None = None, **more) -> dict:
    """Further metrics for `correlate`, oriented so that higher is better: lower-is-better
    metrics are negated and named with a minus ("-TER", "-Otem").

    standard: a StandardResult; companion: companion_scores(..., per_doc=True) output;
    apt: corpus_apt output; more: a further family's scores by its name (analysis/families.py).  Each family's
    `values` hook gives its metrics, in registration order.  Returns {name: {system: value}} (system level) or
    {name: {system: {doc: value}}} (document level)."""
    from blonde_core.analysis.families import FAMILIES

    given = {"standard": standard, "companion": companion, "apt": apt, **more}
    out = {}
    for fam in FAMILIES:
        out.update(fam.values_of(level, names, given))
    return out
