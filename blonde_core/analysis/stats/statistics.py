"""The meta-evaluation statistics, declared once (issue 61 point 2): what each one is (its level, its grouping,
what it needs), how it is computed (a hook on one metric's cells) and how it is shown (label, digits, direction,
help, the views that list it).  `correlate` computes every statistic of the level from this table, and its
JSON, the command line's text, the Human correlation page's table and the report's correlation section show
them by looping over it: adding a statistic is one entry here (and its function, here or in meta.py).  The
statistics of the WMT metrics task's ranking (task.py) are declared here too (TASK_STATISTICS: label, column,
range).

A statistic's ``compute`` takes a ``Cells`` (correlation.py: one metric's values beside the humans', at the
level asked for, with what the resampling and SPA need) and returns its fields of the metric's record: its
value under ``key``, its interval, whatever goes with it (``fields`` lists them all); an interval says how it
was made in ``cells.methods``.  The record lists the fields in ``RECORD_ORDER`` (the order correlate's JSON
has always had; a field not named there follows in the table's order)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import meta

SYSTEM, ITEMS = ("system",), ("document", "segment")  # the levels: one value per system, or per rated cell
FISHER = {"pearson_ci": "Fisher z", "spearman_ci": "Fisher z (variance 1.06/(n-3))",
          "kendall_ci": "Fisher z (variance 0.437/(n-4))"}


@dataclass(frozen=True)
class Beside:
    """A column shown beside a statistic's value (pairwise accuracy's chance level, acc_eq's epsilon): its
    header, width and text in the command line's table, and its columns on the page (header -> value)."""
    header: str
    width: int
    text: Callable[[dict], str]
    page: Callable[[dict], dict]


@dataclass(frozen=True)
class Statistic:
    """One meta-evaluation statistic at one kind of level.  What it is: ``key`` (its value's field in a metric's
    record), ``levels``, ``grouping`` and ``needs`` (said in the docs and help); how it is computed: ``compute``
    (Cells -> its fields), ``option`` (computed only when asked for: correlate(spa=True), --spa, the page's
    switch); how it is shown: ``label`` (prose and the report's header), ``short`` (the column of the command
    line's text and of the page's table; its interval's columns on the page are short_low and short_high),
    ``interval`` (the field of the interval shown beside it), ``digits`` on the command line (one fewer in the
    report, the page and every interval), ``signed`` (a correlation shows its sign), ``higher_is_better``,
    ``width`` (its text column), ``help``, ``views`` (cli, page, report), ``flag`` (the command line's text lists
    it only with this flag), ``beside`` (further columns), ``note`` (a line under the command line's table, from
    the whole output)."""
    key: str
    levels: tuple
    label: str
    short: str
    grouping: str
    needs: tuple
    compute: Callable
    fields: tuple
    help: str
    interval: str | None = None
    digits: int = 4
    signed: bool = True
    higher_is_better: bool = True
    width: int = 8
    views: tuple = ("cli", "page")
    option: str | None = None
    flag: str | None = None
    beside: tuple = ()
    note: Callable[[dict], str] | None = None

    @property
    def id(self) -> str:
        return f"{self.key}@{self.levels[0]}"

    def text(self, value) -> str:
        """The value as the command line prints it ("-" without one)."""
        return "-" if value is None else format(value, f"{'+' if self.signed else ''}.{self.digits}f")

    def interval_text(self, ci) -> str:
        return "-" if not ci or ci[0] is None else \
            "[{}, {}]".format(*(format(x, f"{'+' if self.signed else ''}.{self.digits - 1}f") for x in ci))

    @property
    def interval_width(self) -> int:
        return 18 if self.signed else 16

    def describe(self) -> str:
        """Its help with its direction, grouping and needs (the page's column help)."""
        return (f"{self.help[0].upper()}{self.help[1:]}; {'higher' if self.higher_is_better else 'lower'} is better. "
                f"Grouping: {self.grouping}. Needs: {'; '.join(self.needs)}.")


# -- how each is computed --------------------------------------------------------------------------------

def _fisher(method: str):
    """System level: the correlation over the systems, with Fisher z's interval, or the bootstrap's over resampled
    documents for a metric re-scored from its sufficient statistics (the BlonDe family)."""
    ci = f"{method}_ci"

    def compute(c) -> dict:
        r = c.fisher()
        out = {method: r[method], f"{method}_p": r[f"{method}_p"], ci: r[ci]}
        boot = c.system_bootstrap()
        if boot is not None:
            out[ci] = boot[ci]
        c.methods[ci] = FISHER[ci] if boot is None else c.bootstrap_method
        return out
    return compute


def _grouped(method: str):
    """Document and segment level: the correlation with the chosen grouping (meta.grouped_correlation); p and
    Fisher's interval of the ungrouped cells, none when grouped; Pearson's interval over resampled documents."""
    ci = f"{method}_ci"

    def compute(c) -> dict:
        g = meta.grouped_correlation(c.human_items, c.metric_items, c.grouping, method)
        r = c.fisher()
        grouped = c.grouping != "none"
        out = {method: None if math.isnan(g["value"]) else g["value"],
               f"{method}_p": None if grouped else r[f"{method}_p"], ci: r[ci], "groups": g["groups"],
               "groups_used": g["groups_used"], "groups_left_out": g["groups_left_out"]}
        if method == "pearson" and c.weights is not None:
            out[ci] = meta.bootstrap_grouped(c.human_items, c.metric_items, c.grouping, c.weights, c.confidence)
            c.methods[ci] = c.bootstrap_method
        elif method != "pearson" and grouped:
            out[ci] = [None, None]
        else:
            c.methods[ci] = FISHER[ci]
        return out
    return compute


def _accuracy(c) -> dict:
    out = meta.pairwise_accuracy(c.human, c.metric)
    rated = c.rated()
    out["accuracy_chance"] = meta.chance_accuracy(c.human[rated], seed=c.seed, level=c.confidence)
    boot = c.system_bootstrap()
    if boot is not None:
        out["accuracy_ci"], out["resamples"] = boot["accuracy_ci"], boot["resamples"]
        c.methods["accuracy_ci"] = c.bootstrap_method
    return out


def _acc_eq(c) -> dict:
    human, metric = (c.human, c.metric) if c.level == "system" else (c.human_items, c.metric_items)
    eq = meta.tie_calibrated_accuracy(human, metric, c.grouping)
    out = {"acc_eq": eq["acc_eq"], "acc_eq_epsilon": eq["epsilon"]}
    if eq.get("note"):
        out["acc_eq_note"] = eq["note"]
    return out


def _spa(c) -> dict:
    if c.spa is None or c.metric_items is None:
        return {}
    sp = meta.soft_pairwise_accuracy(c.human_items, c.metric_items, signs=c.spa["signs"], cache=c.spa["cache"],
                                     weights=c.spa["weights"], level=c.confidence)
    if c.spa["weights"] is not None:
        c.methods["spa_ci"] = f"percentile over {len(c.spa['weights'])} of the document resamples, the permutation " \
                              "signs kept"
    return {"spa": sp["spa"], "spa_ci": sp.get("spa_ci", [None, None])}


def _spa_segments(c) -> dict:
    s = c.segments
    if s is None:
        return {}
    if s["metric"] is None:
        return {"spa_segments": None}
    if np.isnan(s["metric"][~np.isnan(s["human"])]).any():  # the gold's cells, or no value
        return {"spa_segments": None,
                "spa_segments_note": "no value on some rated segment: left out, as mt-metrics-eval does"}
    return {"spa_segments": meta.soft_pairwise_accuracy(s["human"], s["metric"], k=s["permutations"], seed=s["seed"],
                                                        cache=s["cache"])["spa"]}


def _pdp(c) -> dict:
    r = meta.pairwise_difference_pearson(c.human_items, c.metric_items)
    out = {"pdp": r["pdp"], "pdp_pairs": r["pairs"], "pdp_items": r["items"]}
    if c.weights is not None:
        out["pdp_ci"] = meta.bootstrap_pdp(c.human_items, c.metric_items, c.weights, c.confidence) \
            if r["pdp"] is not None else [None, None]
        c.methods["pdp_ci"] = c.bootstrap_method
    return out


def _chance_text(v: dict) -> str:
    ch = v["accuracy_chance"]
    lo, hi = ch["range"]
    return ("-" if ch["mean"] is None else f"{ch['mean']:.3f}") + " " + \
        ("-" if lo is None else f"[{lo:.3f}, {hi:.3f}]")


def _chance_page(v: dict) -> dict:
    ch = v.get("accuracy_chance") or {}
    lo, hi = ch.get("range") or [None, None]
    return {"chance accuracy": ch.get("mean"), "chance 95% range": "-" if lo is None else f"{lo:.3f} - {hi:.3f}"}


EPSILON = Beside("epsilon", 8, lambda v: "-" if v.get("acc_eq_epsilon") is None else f"{v['acc_eq_epsilon']:.4g}",
                 lambda v: {"acc_eq epsilon": v.get("acc_eq_epsilon")})


def _spa_note(out: dict) -> str:
    s = out["spa"]
    seg = out.get("spa_segments")
    return f"SPA: over documents (seed {s['seed']}, {s['permutations']} permutations)" + \
        (f"; SPA seg: over segments as WMT24 (seed {seg['seed']})" if seg else
         "; over segments: needs sentence-level matching")


# -- the table -------------------------------------------------------------------------------------------

_ACC_EQ_HELP = ("tie-calibrated pairwise accuracy (Deutsch et al. 2023, the WMT23/24 statistic): metric differences up "
                "to epsilon count as ties, epsilon chosen to maximise it")
_GROUPED = "the chosen grouping: none (every rated cell), sys (per system, then the mean) or item (per document or " \
           "segment across systems, then the mean)"

TABLE = (
    Statistic("pearson", SYSTEM, "Pearson", "pearson", "none (one value per system)",
              ("3 systems with a human score and a value (else none)",), _fisher("pearson"),
              ("pearson", "pearson_p", "pearson_ci"),
              "Pearson's r of the metric's and the humans' system scores; interval over resampled documents for the "
              "BlonDe family (re-scored from the resampled documents), Fisher z for the others",
              interval="pearson_ci", views=("cli", "page", "report")),
    Statistic("spearman", SYSTEM, "Spearman", "spearman", "none (one value per system)",
              ("3 systems with a human score and a value (else none)",), _fisher("spearman"),
              ("spearman", "spearman_p", "spearman_ci"), "Spearman's rho: Pearson of the system scores' ranks",
              width=9, views=("cli", "page", "report")),
    Statistic("kendall", SYSTEM, "Kendall", "kendall", "none (one value per system)",
              ("3 systems with a human score and a value (else none)", "ties: tau-b"), _fisher("kendall"),
              ("kendall", "kendall_p", "kendall_ci"),
              "Kendall's tau-b of the system scores (ties on either side as the b variant counts them)",
              interval="kendall_ci", views=("cli", "page", "report")),
    Statistic("accuracy", SYSTEM, "pairwise accuracy", "accuracy", "none (every pair of systems)",
              ("2 systems with a human score and a value",), _accuracy,
              ("accuracy", "agree", "pairs", "accuracy_chance", "accuracy_ci", "resamples"),
              "the share of system pairs ordered as the humans order them (a tie on both sides agrees). Chance: "
              "what a random metric gets on the same pairs (a pair the humans tie is never agreed with, an untied "
              "one half the time) and the range of 95% of 1,000 random metrics - an accuracy inside that range says "
              "no more than chance", interval="accuracy_ci", signed=False, views=("cli", "page", "report"),
              flag="accuracy",
              beside=(Beside("chance", 23, _chance_text, _chance_page),)),
    Statistic("acc_eq", SYSTEM, "acc_eq", "acc_eq", "none (every pair of systems)",
              ("2 systems with a human score and a value", "ties: epsilon"), _acc_eq,
              ("acc_eq", "acc_eq_epsilon", "acc_eq_note"), _ACC_EQ_HELP, signed=False, width=7, flag="accuracy",
              beside=(EPSILON,)),
    Statistic("spa", SYSTEM, "SPA over documents", "SPA", "none (systems compared over documents)",
              ("--spa", "per-document scores of the metric"), _spa, ("spa", "spa_ci"),
              "soft pairwise accuracy (WMT24) from per-document scores (humans: the mean of a document's rated "
              "segments): one-sided paired permutation p-values for every pair of systems, humans' and metric's, "
              "1 - their mean absolute difference (1000 permutations, the run's seed); its interval over resampled "
              "documents, the permutation signs kept",
              interval="spa_ci", signed=False, width=7, option="spa", flag="spa", note=_spa_note),
    Statistic("spa_segments", SYSTEM, "SPA over segments (WMT24)", "SPA seg", "none (systems compared over segments)",
              ("--spa", "sentence-level matching", "segment scores of the metric"), _spa_segments,
              ("spa_segments", "spa_segments_note"),
              "SPA as WMT24 defines it, from per-segment scores (seed 4; the segments judged for every system, or "
              "every pair of systems over the segments rated for both)",
              signed=False, option="spa", flag="spa"),
    Statistic("pearson", ITEMS, "Pearson", "pearson", _GROUPED, ("2 rated cells in a group (else it is left out)",),
              _grouped("pearson"), ("pearson", "pearson_p", "pearson_ci", "groups", "groups_used", "groups_left_out"),
              f"Pearson's r over the rated cells with {_GROUPED}; interval over resampled documents",
              interval="pearson_ci"),
    Statistic("spearman", ITEMS, "Spearman", "spearman", _GROUPED, ("2 rated cells in a group (else it is left out)",),
              _grouped("spearman"), ("spearman", "spearman_p", "spearman_ci", "groups", "groups_used",
                                     "groups_left_out"), "Spearman's rho with the chosen grouping", width=9),
    Statistic("kendall", ITEMS, "Kendall", "kendall", _GROUPED,
              ("2 rated cells in a group (else it is left out)", "ties: tau-b"), _grouped("kendall"),
              ("kendall", "kendall_p", "kendall_ci", "groups", "groups_used", "groups_left_out"),
              "Kendall's tau-b with the chosen grouping"),
    Statistic("acc_eq", ITEMS, "acc_eq", "acc_eq", _GROUPED,
              (f"at most {meta.ACC_EQ_MAX_CELLS} cells in a group", "ties: epsilon"), _acc_eq,
              ("acc_eq", "acc_eq_epsilon", "acc_eq_note"), _ACC_EQ_HELP + ", in each group of the chosen grouping",
              signed=False, views=("page",), beside=(EPSILON,)),
    Statistic("pdp", ITEMS, "PDP", "PDP", "item (whatever the grouping)", ("2 systems rated on an item",), _pdp,
              ("pdp", "pdp_pairs", "pdp_items", "pdp_ci"),
              "pairwise difference Pearson (mt-metrics-eval 2025): within each document (segment) the differences "
              "between every two systems, human and metric, pooled into one Pearson, whatever the grouping; its "
              "interval over resampled documents", interval="pdp_ci",
              note=lambda out: "PDP: pairwise difference Pearson (within each item the differences between every two "
                               "systems, pooled; mt-metrics-eval 2025)"),
)
STATISTICS = {s.id: s for s in TABLE}


@dataclass(frozen=True)
class TaskStatistic:
    """A statistic of the WMT metrics task's ranking (task.py computes it per language pair, with its permutation
    test): its name in the task's output, level and grouping, the range its averages map onto [0, 1], its label
    (the output's and the page's) and its column in the command line's tables."""
    name: str
    level: str
    grouping: str
    range: tuple
    label: str
    short: str


TASK_STATISTICS = {t.name: t for t in (
    TaskStatistic("spa", "system", "over segments", (0.0, 1.0), "SPA (system, over segments)", "SPA sys"),
    # WMT25's name for the same statistic: mt-metrics-eval's stats.PairwiseConfidenceError returns 1 - PCE,
    # pce.compute_one_minus_pce over pce.compute_pairwise_p_values - the soft pairwise accuracy above
    TaskStatistic("pce", "system", "over segments", (0.0, 1.0),
                  "1 - PCE (system, pairwise confidence error over segments)", "1-PCE sys"),
    TaskStatistic("acc_eq", "segment", "item", (0.0, 1.0), "acc_eq (segment, item grouping)", "acc_eq seg"),
    TaskStatistic("pearson_sys", "system", "none", (-1.0, 1.0), "Pearson (system)", "Pearson sys"),
    TaskStatistic("pearson_seg", "segment", "none", (-1.0, 1.0), "Pearson (segment, no grouping)", "Pearson seg"),
    TaskStatistic("accuracy", "system", "all pairs of all language pairs", (0.0, 1.0),
                  "pairwise accuracy (system, all pairs)", "accuracy sys"),
)}

# The fields of a metric's record in correlate's JSON, in the order it has always had (the golden outputs hold it
# byte for byte); n first, then the statistics' fields; a field not named here follows in the table's order.
RECORD_ORDER = {
    "system": ("n", "pearson", "pearson_p", "pearson_ci", "spearman", "spearman_p", "spearman_ci", "kendall",
               "kendall_p", "kendall_ci", "accuracy", "agree", "pairs", "accuracy_chance", "acc_eq", "acc_eq_epsilon",
               "accuracy_ci", "resamples", "spa", "spa_ci", "spa_segments", "spa_segments_note"),
    "items": ("n", "pearson", "pearson_p", "pearson_ci", "spearman", "spearman_p", "spearman_ci", "kendall",
              "kendall_p", "kendall_ci", "groups", "groups_used", "groups_left_out", "acc_eq", "acc_eq_epsilon",
              "acc_eq_note", "pdp", "pdp_pairs", "pdp_items", "pdp_ci"),
}


def at(level: str, options=()) -> list[Statistic]:
    """The statistics computed at this level, in the table's order (those asked for by an option only with it)."""
    return [s for s in STATISTICS.values() if level in s.levels and (s.option is None or s.option in options)]


def shown(view: str, level: str, records: dict | None = None, flags=()) -> list[Statistic]:
    """The statistics a view (cli, page, report) lists at this level: with ``records`` (correlate's metrics),
    only those computed; with ``flags``, only those whose flag is among them (the command line's text)."""
    return [s for s in STATISTICS.values() if view in s.views and level in s.levels
            and (records is None or any(s.key in v for v in records.values()))
            and (s.flag is None or s.flag in flags or view != "cli")]


OPTIONS = {"spa": "Soft pairwise accuracy"}  # what asks for statistics computed on request: its switch's label


def options(level: str) -> dict[str, tuple[str, list[Statistic]]]:
    """The options that ask for statistics at this level (spa): its label and the statistics it adds."""
    out: dict = {}
    for s in STATISTICS.values():
        if s.option and level in s.levels:
            out.setdefault(s.option, (OPTIONS.get(s.option, s.option), []))[1].append(s)
    return out


def record(level: str, fields: dict) -> dict:
    """A metric's record with its fields in RECORD_ORDER (the rest after them, as computed)."""
    order = RECORD_ORDER["system" if level == "system" else "items"]
    out = {k: fields[k] for k in order if k in fields}
    out.update((k, v) for k, v in fields.items() if k not in out)
    return out


__all__ = ["Beside", "FISHER", "OPTIONS", "RECORD_ORDER", "STATISTICS", "Statistic", "TABLE", "TASK_STATISTICS",
           "TaskStatistic", "at", "options", "record", "shown"]
