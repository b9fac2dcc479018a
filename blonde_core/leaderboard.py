"""The leaderboard, assembled once: rows (systems, ranked by BlonDe F1) and column specs.

Every view of a leaderboard renders this table and computes nothing of its own: the Overview
(`records`: its full table and downloads), the HTML report, and `score --ci` (`json_block`,
then the text and CSV of cli/output.py).  A column says what it holds (`kind`), its metric
(a name of metric/registry.py, or a metric computed elsewhere), direction, points factor,
decimals, whether it has an interval and clusters of its own, and why it is empty when it is
(`unavailable`).  Values are kept on the core's scale; `shown` multiplies by the points factor.

Adding a metric column: a registry entry plus its computation; the table asks every metric family for its
columns (analysis/families.py: the BlonDe family's first, then after the human, omitted and computed-elsewhere
columns the others in registration order), so nothing here changes, for a new family either.
Reached through Study.leaderboard.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from blonde_core.analysis.families import FAMILIES
from blonde_core.render import SHORT, shown_f1, spans_text
from blonde_core.report import shown_digits

# a further metric family's columns are of its name (analysis/families.py)
KINDS = ("top", "part", "category", "spans", "human", "omitted", "external", "standard", "companion", "apt")


@dataclass(frozen=True)
class Column:
    """One column.  key: its name in `records` (the Overview's full table and downloads); kind: one of
    KINDS; metric: the registry's (or the file's) metric name; points: what `shown` multiplies by; digits:
    decimals as shown (0: a count); interval: has a 95% interval; clusters: has clusters of its own (a metric
    computed elsewhere); unavailable: why it has no value (None: it has)."""
    key: str
    kind: str
    metric: str
    higher_is_better: bool = True
    points: int = 1
    digits: int = 2
    interval: bool = False
    clusters: bool = False
    unavailable: str | None = None

    @property
    def direction(self) -> str:
        return "higher is better" if self.higher_is_better else "lower is better"


@dataclass
class Leaderboard:
    """board: the BlonDe family's intervals and clusters with their unit, rule and signature (Study.board);
    systems: best first by BlonDe F1; values / intervals / clusters: {column key: {system: ...}} on the core's
    scale (intervals as [lo, hi]; clusters: BlonDe's under "BlonDe", a metric computed elsewhere's own);
    external: Study.external_board's entries; human: Study.human_column."""
    board: dict
    columns: list = field(default_factory=list)
    systems: list = field(default_factory=list)
    values: dict = field(default_factory=dict)
    intervals: dict = field(default_factory=dict)
    clusters: dict = field(default_factory=dict)
    external: dict = field(default_factory=dict)
    human: dict | None = None
    standard: tuple = ()
    resegmented: dict = field(default_factory=dict)

    def column(self, key: str) -> Column:
        return next(c for c in self.columns if c.key == key)

    def of(self, *kinds: str) -> list:
        """The columns of these kinds, in the order given, each kind in table order."""
        return [c for k in kinds for c in self.columns if c.kind == k]

    def shown(self, key: str, system: str):
        """A value as the pages show it (points for the BlonDe family), None when there is none."""
        v = self.values[key].get(system)
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return None
        col = self.column(key)
        return v if isinstance(v, str) else col.points * v

    def mark(self, system: str) -> str:
        """The board's mark (‡) when this system's BlonDe-family intervals rest on resamples where a discourse
        category vanishes (the board's `mark_line` says what happened and which interval is shown), else ""."""
        return self.board["mark"] if system in self.board.get("marked", ()) else ""

    def records(self) -> list[dict]:
        """The full table as the Overview holds it (a row per system in BlonDe's order): every column's value
        as shown, its interval as "<name> CI low/high", a metric computed elsewhere's cluster as
        "<name> cluster"; NaN where there is no value (the page's and the downloads' "-"); when any row is
        marked, "CI mark" holds the mark (‡) or ""."""
        nan = float("nan")
        rows = []
        for s in self.systems:
            row = {"system": s}
            if self.board.get("marked"):
                row["CI mark"] = self.mark(s)
            for c in self.columns:
                v = self.shown(c.key, s)
                row[c.key] = (nan if v is None else v) if c.kind not in ("spans",) else v
                if c.interval:
                    lo, hi = self.intervals[c.key].get(s, (None, None))
                    name = c.key[:-3] if c.key.endswith(" F1") else c.key
                    row[f"{name} CI low"] = nan if lo is None else c.points * lo
                    row[f"{name} CI high"] = nan if hi is None else c.points * hi
                if c.clusters:
                    row[f"{c.key} cluster"] = self.clusters[c.key].get(s, nan)
            rows.append(row)
        return rows

    def json_block(self) -> dict:
        """`score --ci`'s JSON `leaderboard`: the board's fields, then every interval (the BlonDe family,
        sacrebleu's metrics, metrics computed elsewhere) on its own scale, the scales in words, and the metrics
        computed elsewhere's units and clusters."""
        b = {k: v for k, v in self.board.items() if k != "intervals"}
        b["intervals"] = {(c.key if c.kind == "external" else c.metric): {s: list(v) for s, v in
                                                                          self.intervals[c.key].items()}
                          for c in self.of("top", "standard", "external")}
        b["scale"] = "BlonDe, BlonD-d, BlonD+: 0-1 as the scores above; BLEU, chrF, TER: their own 0-100 scales"
        if self.external:
            b["external"] = {m: {k: e.get(k) for k in ("level", "direction", "unit", "n_units", "clusters",
                                                       "cluster_rule")} for m, e in self.external.items()}
            b["scale"] += "; metrics computed elsewhere: their own scales"
        return b


class _Builder:
    """What a family's `columns` hook is handed (analysis/families.py): the Study, the settings, the systems, the
    scored Result and BlonDe's board, what was asked of each family, `add`, and the views' helpers."""
    short, shown_f1, spans_text = SHORT, staticmethod(shown_f1), staticmethod(spans_text)
    shown_digits = staticmethod(shown_digits)

    def __init__(self, study, cfg, n, seed, asked, lb, res, names):
        self.study, self.cfg, self.n, self.seed, self.asked, self.lb = study, cfg, n, seed, asked, lb
        self.res, self.names, self.board = res, names, lb.board
        self.scores = {s: res.scores(s) for s in names}

    def add(self, col: dict, values: dict, intervals: dict | None = None):
        col = Column(**col)
        self.lb.columns.append(col)
        self.lb.values[col.key] = values
        if intervals is not None:
            self.lb.intervals[col.key] = intervals


def build(study, cfg, n: int, seed: int, asked: dict) -> Leaderboard:
    """The leaderboard of a Study under cfg: the families whose columns open it (the BlonDe family's intervals and
    clusters from Study.board, F1 per discourse category with its spans), the human column, the segments
    re-segmented systems left out, the metrics computed elsewhere (Study.external_board), then every other family
    in registration order (analysis/families.py).  asked: {family name: what is asked of it} - sacrebleu's
    metrics ("standard": in the order asked, with intervals over documents), the companion metrics ("companion":
    True), APT ("apt": the language pair), a further family's metric names."""
    res = study.analysis(cfg)
    b = study.board(cfg, n=n, seed=seed)
    ci, clusters = b["intervals"], b["clusters"]
    names = list(res.names)
    lb = Leaderboard(board=b, standard=tuple(asked.get("standard") or ()))
    lb.systems = sorted(names, key=lambda s: -1e9 if ci["BlonDe"][s]["score"] is None else -ci["BlonDe"][s]["score"])
    lb.clusters["BlonDe"] = dict(clusters)
    builder = _Builder(study, cfg, n, seed, {"blonde": True, "external": bool(study.external), **asked}, lb, res,
                       names)
    add = builder.add

    for fam in FAMILIES:
        if fam.head:
            fam.board_columns(builder)
    hum = study.human_column(names)
    if hum:
        lb.human = hum
        up = hum["direction"].startswith("higher")
        add(dict(key=f"human ({hum['name']})", kind="human", metric=hum["name"], higher_is_better=up, digits=3),
            {s: hum["systems"][s]["score"] for s in names})
        add(dict(key="human rated segments", kind="human", metric="segments", digits=0),
            {s: hum["systems"][s]["segments"] for s in names})
        add(dict(key="human rank", kind="human", metric="rank", digits=0),
            {s: hum["systems"][s].get("rank") for s in names})
    moved = study.resegmentation()
    if moved:
        lb.resegmented = moved
        add(dict(key="omitted", kind="omitted", metric="omitted", digits=0),
            {s: sum(len(v["omitted"]) for v in moved.get(s, {}).values()) for s in names})
    for fam in FAMILIES:
        if not fam.head:
            fam.board_columns(builder)
    return lb
