"""Human judgments as the core holds them, whichever file they came from (MQM, a
table, WMT DA / ESA): per-segment, per-document and per-system scores, raters,
MQM error spans and rows.  The readers (human.py, da.py) make them."""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from blonde_core.errors import InputError

# The scales of the human scores the readers know, by the score's name (a table's column, a WMT layout's
# human-scores NAME, ESA's overall): (lowest, highest, what it is).  Z-scores (z, z.scr, wmt-z) are
# unbounded; a name not here (a table's own column) is taken as it is.  MQM's sign follows its direction
# (mqm_scale): penalties >= 0 read lower-is-better, negated penalties <= 0 (mt-metrics-eval's layout, the
# TED release's mqm_seg_scores.tsv) read higher-is-better.
SCALES = {"esa": (0.0, 100.0, "ESA, 0-100"), "raw.scr": (0.0, 100.0, "WMT's raw direct assessment, 0-100"),
          "raw": (0.0, 100.0, "WMT's raw direct assessment, 0-100"),
          "wmt-raw": (0.0, 100.0, "WMT's raw direct assessment, 0-100")}


def scale_of(name: str, higher_is_better: bool = True) -> tuple | None:
    """(lowest, highest, what) of a human score by its name, or None when unbounded or unknown."""
    low = name.strip().lower()
    if low in SCALES:
        return SCALES[low]
    if low.startswith("esa-"):  # esa-human1, esa-human2: WMT24's two ESA annotations in mt-metrics-eval
        return SCALES["esa"]
    if low == "mqm" or low.startswith("mqm-"):
        return ((-math.inf, 0.0, "MQM negated, higher is better (<= 0)") if higher_is_better else
                (0.0, math.inf, "MQM penalties, lower is better (>= 0)"))
    return None


MQM_DIRECTION = ("MQM penalties (>= 0) are lower-is-better{0}, negated ones (<= 0) higher-is-better: one sign for "
                 "the whole file, read in its direction")


def check_scale(v: float, scale: tuple | None, file: str, line: int | None, what: str = "score",
                direction: bool = False) -> float:
    """v, or an InputError naming the file, line and value when it lies outside the scale (NaN: missing).
    direction: the reader takes its direction from the user (a judgments table), so an MQM value of the
    wrong sign says how to give it."""
    if scale is None or math.isnan(v) or scale[0] <= v <= scale[1]:
        return v
    msg = f"{what} {v:g} is outside the scale of {scale[2]}; refused, not read as a judgment"
    page = None
    if direction and scale[2].startswith("MQM"):
        page = msg + " (" + MQM_DIRECTION.format(": tick *In the judgments table, lower scores are better*") + ")"
        msg += " (" + MQM_DIRECTION.format(" (--lower-is-better)") + ")"
    raise InputError(msg, file=file, line=line, code=InputError.Codes.JUDGMENTS, page=page)


def once(seen: dict, key, line: int, file: str, what: str, hint: str = "") -> None:
    """The one duplicate rule of the readers of judgments: a judgment (a system's score of a segment, or of a
    document, by a rater where the file names raters) is given once; a second row of it is refused naming
    both lines, never averaged or merged.  `seen` maps each key to the line that gave it."""
    first = seen.setdefault(key, line)
    if first != line:
        raise InputError(f"{what} appears again (first on line {first}); one row each, never merged or averaged"
                         + hint, file=file, line=line, code=InputError.Codes.MALFORMED)



def mqm_weight(category: str, severity: str) -> float:
    """Major 5, Minor 1 (Fluency/Punctuation 0.1), Non-translation 25; No-error, Neutral,
    Source issue (an error of the source) and quality-control probes (Found / HOTW-test) 0."""
    cat = category.strip()
    sev = severity.strip().lower()
    if cat.lower() in ("source issue", "found") or sev == "hotw-test":
        return 0.0
    if cat.lower().startswith("non-translation"):
        return 25.0
    if sev == "major":
        return 5.0
    if sev == "minor":
        return 0.1 if cat == "Fluency/Punctuation" else 1.0
    return 0.0


def aggregate_segments(hs: "HumanScores", values: dict, keep=None) -> None:
    """Fill hs from segment judgments {(system, doc, seg_id): [scores]}: each segment's score the mean of its
    scores, each document's and system's the mean of its segments' (only those whose (doc, seg_id) is in
    `keep`, when given), with the segments counted."""
    per_doc: dict = defaultdict(lambda: defaultdict(list))
    for (s, d, seg), vs in values.items():
        hs.segments[(s, d, seg)] = sum(vs) / len(vs)
        if keep is None or (d, seg) in keep:
            per_doc[s][d].append(hs.segments[(s, d, seg)])
    for s, docs in per_doc.items():
        hs.doc_scores[s] = {d: sum(v) / len(v) for d, v in docs.items()}
        allv = [x for v in docs.values() for x in v]
        hs.system_scores[s] = sum(allv) / len(allv)
        hs.n_segments[s] = len(allv)


@dataclass
class HumanScores:
    name: str  # "MQM" or the table's score column
    higher_is_better: bool
    segments: dict = field(default_factory=dict)  # (system, doc, seg_id) -> score
    doc_scores: dict = field(default_factory=dict)  # system -> {doc: score}
    system_scores: dict = field(default_factory=dict)  # system -> score
    n_segments: dict = field(default_factory=dict)  # system -> count
    rater_scores: dict = field(default_factory=dict)  # (system, doc, seg_id) -> {rater: score}
    # MQM: (system, doc, seg_id) -> [{side, start, end, text, category, severity, rater}], character
    # offsets into the text without <v> markers (side "target", or "source" for omissions)
    error_spans: dict = field(default_factory=dict)
    targets: dict = field(default_factory=dict)  # MQM: (system, doc, seg_id) -> target text without markers
    # MQM: one row per error annotation: (system, doc, seg_id, rater, category, severity, weight);
    # No-error rows are kept with weight 0 (they say a rater saw the segment)
    errors: list = field(default_factory=list)
    error_meta: list = field(default_factory=list)  # MQM: per row of `errors`, its metadata fields ({} if none)
    meta_fields: list = field(default_factory=list)  # MQM: the metadata fields the file has, in order
    seg_chars: dict = field(default_factory=dict)  # MQM: (doc, seg_id) -> characters of the source segment
    kind: str = ""  # what the file was understood as (for the Data page)
    mapping: dict = field(default_factory=dict)  # DA tables: name in the file -> loaded name (None: unmatched)
    coverage: dict = field(default_factory=dict)  # DA tables: system -> {segments_rated, segments}
    table: object = field(default=None, repr=False, compare=False)  # DA tables: the rows as read, to re-map
    details: dict = field(default_factory=dict)  # ESA: language pair, segments compared, rows dropped, files
    # ESA: the (doc, seg_id) systems are compared on (those judged for every system; None: all)
    compared: object = field(default=None, repr=False, compare=False)
    domains: dict = field(default_factory=dict)  # document id -> domain (a WMT folder's), for slicing

    def oriented(self, value: float) -> float:
        """Higher is better."""
        return value if self.higher_is_better else -value

    def rater_bands(self) -> dict:
        """For every pair of raters (a, b), their penalties on the segments both rated, binned
        as 0 / <=1 / <=5 / >5: ([a's bands], [b's bands]) (analysis/stats/agreement.py)."""
        def band(v):
            return 0 if v == 0 else 1 if v <= 1 else 2 if v <= 5 else 3

        pairs: dict = defaultdict(lambda: ([], []))
        for raters in self.rater_scores.values():
            names = sorted(raters)
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    pairs[(a, b)][0].append(band(raters[a]))
                    pairs[(a, b)][1].append(band(raters[b]))
        return dict(sorted(pairs.items()))

    def subset(self, docs: set, n_segments: int) -> "HumanScores":
        """The same judgments restricted to these documents (a domain of the test set, n_segments segments):
        every segment's score, rater, span and error row of them kept as read; each system's score the mean
        of its kept segments (of the segments every system was judged on, for ESA), or of its documents'
        scores when the file rated documents only.  A system score a file gave (the WMT layout's sys level)
        covers the whole test set, so it is not kept."""
        out = HumanScores(self.name, self.higher_is_better, kind=self.kind, meta_fields=list(self.meta_fields),
                          mapping=dict(self.mapping), table=None, details=dict(self.details),
                          domains={d: v for d, v in self.domains.items() if d in docs},
                          compared=None if self.compared is None else {k for k in self.compared if k[0] in docs})
        out.segments = {k: v for k, v in self.segments.items() if k[1] in docs}
        out.rater_scores = {k: v for k, v in self.rater_scores.items() if k[1] in docs}
        out.error_spans = {k: v for k, v in self.error_spans.items() if k[1] in docs}
        out.targets = {k: v for k, v in self.targets.items() if k[1] in docs}
        kept = [i for i, row in enumerate(self.errors) if row[1] in docs]
        out.errors = [self.errors[i] for i in kept]
        out.error_meta = [self.error_meta[i] for i in kept] if self.error_meta else []
        out.seg_chars = {k: v for k, v in self.seg_chars.items() if k[0] in docs}
        # systems from their kept segments, as every reader aggregates them; documents as the file gave them
        aggregate_segments(out, {k: [v] for k, v in out.segments.items()}, out.compared)
        out.doc_scores = {s: kept for s, d in self.doc_scores.items()
                          if (kept := {doc: v for doc, v in d.items() if doc in docs})}
        rated = {k[0] for k in self.segments}
        for s in self.system_scores:
            if s not in out.system_scores and s in out.doc_scores and s not in rated:  # a file of documents only
                dv = list(out.doc_scores[s].values())
                out.system_scores[s], out.n_segments[s] = sum(dv) / len(dv), 0
        order = list(self.system_scores)  # the systems in the order the file gave them
        out.system_scores = {s: out.system_scores[s] for s in order if s in out.system_scores}
        out.n_segments = {s: out.n_segments[s] for s in order if s in out.n_segments}
        out.coverage = {s: {**c, "segments_rated": sum(1 for k in out.segments if k[0] == s), "segments": n_segments,
                            **({"segments_compared": out.n_segments.get(s, 0)} if "segments_compared" in c else {})}
                        for s, c in self.coverage.items()}
        if self.compared is not None:
            out.details["segments_common"] = len(out.compared)
        return out

    def to_dict(self) -> dict:
        out = {
            "name": self.name, "higher_is_better": self.higher_is_better,
            "systems": {s: {self.name: v, "segments": self.n_segments.get(s)} for s, v in self.system_scores.items()},
            "documents": {s: dict(d) for s, d in self.doc_scores.items()},
        }
        if self.mapping:
            out["mapping"] = dict(self.mapping)
            out["coverage"] = dict(self.coverage)
        return out
