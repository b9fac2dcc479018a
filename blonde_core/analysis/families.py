"""Metric families, each registered once with its hooks: what the views ask of a metric, said by its family.

A `Family` (analysis/family.py) holds the registry families its metrics belong to (metric/registry.py's
`MetricSpec.family`), the words help texts call it by, and its hooks - each delegating to the module that computes
the family:

- `columns(board)`: its leaderboard columns (leaderboard.py hands a builder: the Study, the settings, the systems,
  what was asked of each family, `add`), in the order and orientation the registry gives;
- `unit_data(result, metric, unit, names, inputs)`: what a paired test resamples - per unit of every system the
  additive statistics and the function that scores them (analysis/stats/paired.py `measure`);
- `values(level, names, inputs)`: the values `correlate` correlates with the humans, oriented higher-is-better
  ("-TER"), per system or per document (analysis/stats/correlation.py `oriented_tables`);
- `scores(study, cfg, asked)`: its scores for a Study and settings, {system: {metric: value, "documents": {doc:
  {metric: value}}}} - what a new family gives; `columns` and `values` then follow from it, and with
  `segment_stats(result, system)` (additive statistics per scoring unit) and `score_stats(metric, summed)` so does
  `unit_data`.

`FAMILIES` lists them in registration order (`register` adds one); the leaderboard, the paired tests, `correlate`
and the help texts of the command line and the pages (`metrics_help`) loop over it and name no metric.  Adding a
metric of an existing family is its `MetricSpec` plus its computation; adding a family is its module (its
computation and hooks), its specs and one entry here.  Metrics computed elsewhere (files of scores, a WMT folder's
metric-scores/) are a family too, whose metrics are the ones the Study loaded (`owns`: asked before the registry, so
a file's "chrF" is the file's, not sacrebleu's).
"""
from __future__ import annotations

import numpy as np

from blonde_core.errors import InputError
from blonde_core.metric import registry
from .family import Family, _nan, scalar_fn


# -- the BlonDe family: metric/scoring.py (the leaderboard's ranking, intervals and clusters: Study.board) -----------
def _blonde_columns(b) -> None:
    ci, scores, names = b.board["intervals"], b.scores, b.names
    for t in b.res.leaderboard_tops():
        b.add(dict(key=f"{t} F1", kind="top", metric=t, points=100, interval=True),
              {s: ci[t][s]["score"] for s in names}, {s: tuple(ci[t][s]["ci"]) for s in names})
        if t == "BlonDe":
            for part in ("R", "P"):
                b.add(dict(key=f"BlonDe {part}", kind="part", metric=f"BlonDe.{part}", points=100),
                      {s: scores[s]["BlonDe"][part] for s in names})
    for c in b.res.discourse_categories():
        b.add(dict(key=f"{b.short[c]} F1", kind="category", metric=c, points=100),
              {s: b.shown_f1(scores[s]["categories"][c]) for s in names})
        b.add(dict(key=f"{b.short[c]} spans matched/sys/ref", kind="spans", metric=c, digits=0),
              {s: b.spans_text(scores[s]["categories"][c]) for s in names})


def _blonde_units(result, metric, unit, names, inputs):
    from .stats.units import metric_fn, unit_stats

    fn = metric_fn(result, metric)
    return {nm: unit_stats(result, nm, unit) for nm in names}, fn, False


# -- metrics computed elsewhere: io/metric_scores.py's ExternalMetric, loaded by the Study (Study.external) --------
def elsewhere_name(metric: str, shown) -> str:
    """A metric computed elsewhere as a table names it: its own name, or "chrF (computed elsewhere)" when a metric
    of that name is also shown (sacrebleu's chrF beside a file's), so that neither's values replace the other's."""
    return f"{metric} (computed elsewhere)" if metric in shown else metric


def _external_owns(metric: str, inputs: dict) -> bool:
    return metric in (inputs.get("external") or {})


def _external_columns(b) -> None:
    """One column per metric computed elsewhere, with its intervals and clusters; one named as a sacrebleu metric
    the same leaderboard shows (a file's "chrF" beside sacrebleu's chrF) is keyed "chrF (computed elsewhere)", so
    that neither column's values replace the other's."""
    b.lb.external = b.study.external_board(b.cfg, n=b.n, seed=b.seed)
    shown = set(b.asked.get("standard") or ())
    for m, e in b.lb.external.items():
        iv, key = e["intervals"], elsewhere_name(m, shown)
        b.add(dict(key=key, kind="external", metric=m, higher_is_better=e["direction"].startswith("higher"),
                   digits=b.shown_digits(v["score"] for v in iv.values()), interval=True, clusters=True),
              {s: iv[s]["score"] if s in iv else None for s in b.names},
              {s: tuple(v["ci"]) for s, v in iv.items()})  # the systems the metric scored
        b.lb.clusters[key] = dict(e["clusters"])


def external_fn(name: str):
    """Scores of [sum, count] statistics (an external metric's rated segments): their mean."""
    def fn(S):
        S = np.asarray(S, dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(S[..., 1] > 0, S[..., 0] / np.maximum(S[..., 1], 1e-300), np.nan)
    fn.name = name
    return fn


def _external_units(result, metric, unit, names, inputs):
    """An external metric's (io.metric_scores.ExternalMetric) per-unit [sum, count] statistics of every
    system over the same units as BlonDe's (segment scores), or over documents (document scores)."""
    from .stats.units import parse_unit, unit_groups

    ext = inputs["external"][metric]
    kind = parse_unit(unit)[0]
    if ext.seg and result.config.granularity == "sentence":
        ids, groups = unit_groups(result, unit)
    elif kind == "doc":
        ids, groups = list(result.corpus.doc_ids), None
    else:
        raise InputError(f"{ext.name} has document scores only: it is tested over documents (unit doc)",
                         code=InputError.Codes.SETTING)
    per = {}
    for nm in names:
        st = ext.unit_stats(nm, groups, len(ids), kind)
        if st is None:
            raise InputError(f"{ext.name} has no {'segment' if ext.seg else 'document'} scores for '{nm}' "
                             f"(it has: {', '.join(ext.systems)})", code=InputError.Codes.NAMES)
        per[nm] = (ids, st)
    return per, external_fn(ext.name), not ext.higher_is_better


def _external_values(level, names, given) -> dict:
    """Oriented as `oriented_tables` gives the others: higher is better (a lower-is-better one negated and named
    with a minus), per system or per document (NaN: missing).  given: (the Study's metrics, its document ids, the
    names of the other metrics shown beside them)."""
    external, doc_ids, shown = given
    out = {}
    for m in external.values():
        sign, key = m.oriented
        key = elsewhere_name(key, shown)
        if level == "system":
            out[key] = {s: sign * m.score(s) for s in names if s in m.systems}
        elif level == "document":
            per = {}
            for s in names:
                v = m.doc_scores(s) if s in m.systems else None
                if v is not None:
                    per[s] = {d: sign * float(x) for d, x in zip(doc_ids, v)}
            if per:
                out[key] = per
    return out


# -- sacrebleu's metrics, over segments and over whole documents: analysis/standard.py -----------------------------
def _standard_columns(b) -> None:
    metrics = tuple(b.asked["standard"])
    iv = b.study.standard_intervals(b.cfg.granularity, metrics, b.n, b.seed)
    for m in metrics:
        spec = registry.SPECS[m]
        b.add(dict(key=m, kind="standard", metric=m, higher_is_better=spec.higher_is_better, points=spec.points,
                   interval=True), {s: iv[m][s]["score"] for s in b.names}, {s: tuple(iv[m][s]["ci"]) for s in b.names})


def _standard_units(result, metric, unit, names, inputs):
    standard, spec = inputs.get("standard"), registry.SPECS[metric]
    if standard is None:
        raise InputError(f"{metric} needs the standard-metric statistics", code=InputError.Codes.OPTIONS)
    if not spec.tested_over(unit):
        raise InputError(spec.units_sentence(), code=InputError.Codes.SETTING)
    per = {nm: (list(result.corpus.doc_ids), standard.doc_stats[metric][nm]) for nm in names}
    return per, scalar_fn(lambda v: standard.score_stats(metric, v), metric), not spec.higher_is_better


def _standard_values(level, names, standard) -> dict:
    out = {}
    for m in standard.metrics:
        sign, key = registry.SPECS[m].oriented()
        out[key] = {s: (sign * standard.score(m, s) if level == "system" else
                        {d: sign * v for d, v in standard.doc_scores(m, s).items()}) for s in names}
    return out


# -- the seed papers' companion metrics: analysis/companion.py ------------------------------------------------------
class _Summed:
    def __init__(self, ou, length, early, rc, alpha):
        self.ou, self.length, self.early, self.rc, self.alpha = ou, length, early, rc, alpha


def _companion_units(result, metric, unit, names, inputs):
    from .companion import CompanionStats, scores_from
    from .stats.units import unit_groups

    kw = dict(inputs.get("companion_kw") or {})
    alpha = kw.pop("alpha", 2.0)
    ids, groups = unit_groups(result, unit)
    per = {}
    shapes = None
    for nm in names:
        cs = CompanionStats(result, nm, alpha)
        parts = [cs.ou.reshape(len(cs.ou), -1), cs.length, cs.early.reshape(len(cs.early), -1), cs.rc]
        shapes = [p.shape[1] for p in parts]
        flat = np.concatenate(parts, axis=1)
        st = np.zeros((len(ids), flat.shape[1]))
        np.add.at(st, groups, flat)
        per[nm] = (ids, st)
    K = len(result.corpus.references)
    cut = np.cumsum(shapes)[:-1]

    def one(v):
        ou, length, early, rc = np.split(v, cut)
        cs_like = _Summed(ou.reshape(1, 4, 4), length.reshape(1, 2), early.reshape(1, K, 7, 4), rc.reshape(1, 2), alpha)
        return scores_from(cs_like, None, **kw)[metric]

    return per, scalar_fn(one, metric), not registry.SPECS[metric].higher_is_better


# -- APT: analysis/apt.py (a language pair's pronouns, aligned with eflomal; not tested in pairs) -------------------
def _apt_values(level, names, apt) -> dict:
    return {"APT": {s: (_nan(v["APT"]) if level == "system" else {d: _nan(x) for d, x in v["documents"].items()})
                    for s, v in apt.items() if s in names}}


FAMILIES: list = [  # registration order: the help texts', correlate's and (after the head) the leaderboard's
    Family("blonde", ("blonde", "category"), "BlonDe",
           "{blonde} or a category ({category}), F1 unless suffixed .R or .P", head=True, score=False,
           columns=_blonde_columns, unit_data=_blonde_units),
    Family("external", ("external",), "metrics computed elsewhere",
           "a metric loaded from score files (--metric-scores) or a WMT folder's metric-scores/, by its name",
           score=False, owns=_external_owns, columns=_external_columns, unit_data=_external_units,
           values=_external_values),
    Family("standard", ("sacrebleu", "document"), "sacrebleu", columns=_standard_columns, unit_data=_standard_units,
           values=_standard_values),
    Family("companion", ("companion",), "the seed papers' companion metrics", unit_data=_companion_units,
           scores=lambda study, cfg, asked: study.companions(cfg)),
    Family("apt", ("apt",), "APT", score=False, tested=False, values=_apt_values,
           scores=lambda study, cfg, pair: study.apt(pair)),
]


def register(fam: Family) -> Family:
    """Add a family after the others (its metrics' MetricSpecs are in metric/registry.py's SPECS)."""
    FAMILIES.append(fam)
    return fam


def metrics_help(use: str) -> str:
    """The metric names a help text lists, from the families: "score" - what `score --metrics` (and the pages'
    extra metrics) take; "compare" - what `compare --metric` tests."""
    if use == "score":
        return "; ".join(f"{f.help_text()} ({f.words})" for f in FAMILIES if f.score)
    return "; or ".join(f.help_text(units=True) for f in FAMILIES if f.tested)


def family(metric: str, inputs: dict | None = None) -> Family | None:
    """The family of a metric: one that owns it among the inputs (a metric computed elsewhere, `inputs["external"]`),
    else a registered metric's (also "BlonD-d.R", "-TER"); None for one neither knows."""
    owner = next((f for f in FAMILIES if f.owns is not None and inputs and f.owns(metric, inputs)), None)
    if owner is not None:
        return owner
    spec = registry.spec(metric)
    return next((f for f in FAMILIES if spec is not None and spec.family in f.kinds), None)


def by_family(metrics) -> dict:
    """{family name: [the metrics of it, in the order given]} for the registered metrics among these."""
    out: dict = {}
    for m in metrics:
        f = family(m)
        if f is not None:
            out.setdefault(f.name, []).append(m)
    return out
