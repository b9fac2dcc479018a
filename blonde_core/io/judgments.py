"""Human judgments as the core holds them, whichever file they came from (MQM, a
table, WMT DA / ESA): per-segment, per-document and per-system scores, raters,
MQM error spans and rows.  The readers (human.py, da.py) make them."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from blonde_core.errors import InputError


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
    kind: str = ""  # what the file was understood as (for the Data page)
    mapping: dict = field(default_factory=dict)  # DA tables: name in the file -> loaded name (None: unmatched)
    coverage: dict = field(default_factory=dict)  # DA tables: system -> {segments_rated, segments}
    table: object = field(default=None, repr=False, compare=False)  # DA tables: the rows as read, to re-map

    def oriented(self, value: float) -> float:
        """Higher is better."""
        return value if self.higher_is_better else -value

    SLICES = ("system", "doc", "rater", "category", "severity")

    def mqm_slices(self, by: list[str]) -> list[dict]:
        """MQM sliced as Marot does: for every combination of the `by` fields (system, doc, rater,
        category, severity), the number of error annotations, their summed penalty, the rated
        (system, segment, rater) units in the slice's system/doc/rater scope, and MQM = penalty per
        rated unit (with one rater per segment, a system's slice is its MQM score; a category's is the
        part of it that category carries)."""
        bad = [b for b in by if b not in self.SLICES]
        if bad or not by:
            raise InputError(f"slice by one or more of {', '.join(self.SLICES)}, not '{', '.join(bad) or '-'}'", code=InputError.Codes.SETTING)
        if not self.errors:
            raise InputError("slicing needs MQM rows (categories, severities, raters)", code=InputError.Codes.JUDGMENTS)
        idx = {k: i for i, k in enumerate(("system", "doc", "seg", "rater", "category", "severity"))}
        scope = [b for b in by if b in ("system", "doc", "rater")]
        rated = defaultdict(set)  # scope key -> rated (system, doc, seg, rater)
        groups: dict = defaultdict(lambda: [0, 0.0])
        for row in self.errors:
            rated[tuple(row[idx[b]] for b in scope)].add((row[0], row[1], row[2], row[3]))
            if row[4].lower() in ("no-error", "found") or row[5].lower() == "hotw-test":
                continue  # nothing found, or a quality-control probe: rated, no error
            g = groups[tuple(row[idx[b]] for b in by)]
            g[0] += 1
            g[1] += row[6]
        if set(by) <= {"system", "doc", "rater"}:  # slices without errors are slices too (MQM 0)
            for key in rated:
                groups[key]  # noqa: B018 - creates the empty slice
        out = []
        for key, (n, pen) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
            k = dict(zip(by, key))
            units = len(rated[tuple(k[b] for b in scope)])
            out.append({**k, "errors": n, "penalty": pen, "rated": units, "MQM": pen / units if units else None})
        return out

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
