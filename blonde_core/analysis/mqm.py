"""MQM sliced as Marot slices it: by system, document, rater, category, severity and any
metadata field of the file, under severity weights the user may change, per rated segment or
per 100 source characters, with the systems compared again on the slice.

The rows are `HumanScores.errors` (io/judgments.py): one per error annotation (No-error rows say
a rater saw the segment).  Fields split in two:

* scope fields - system, doc, rater (and domain, when the documents have domains) - say which rated
  segments a slice covers;
* error fields - category, severity and the file's metadata fields - say which errors count.

A slice's score is the mean, over its rated segments, of the mean over the segment's raters (in
the slice's scope) of the summed weights of the slice's errors.  So the categories of a system
add up to the system's score, and with no filter and the default weights a system's slice is its
MQM score as the `human` command reports it."""
from __future__ import annotations

import fnmatch
import math
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from blonde_core.errors import InputError
from blonde_core.metric.registry import DEFAULT_SEED

SCOPE = ("system", "doc", "rater")
FIELDS = ("system", "doc", "rater", "category", "severity")
_ROW = {k: i for i, k in enumerate(("system", "doc", "seg", "rater", "category", "severity"))}
# randomization trials: with Holm over the 105 pairs of 15 systems, 1000 trials could never reach
# p < 0.05 (the smallest p is 1/1001, times 105); 10,000 can
TRIALS = 10000
PER = {"segment": "per rated segment", "100 characters": "per 100 source characters"}


@dataclass(frozen=True)
class Rule:
    category: str  # a pattern (fnmatch, case-insensitive): "*", "Non-translation*"
    severity: str
    weight: float

    def matches(self, category: str, severity: str) -> bool:
        return fnmatch.fnmatch(category.lower(), self.category.lower()) and \
            fnmatch.fnmatch(severity.lower(), self.severity.lower())

    def spec(self) -> str:
        w = f"{self.weight:g}"
        return f"{self.severity}={w}" if self.category == "*" else f"{self.category}:{self.severity}={w}"


# Google's MQM weights (io/judgments.mqm_weight): the first rule that matches gives the weight,
# an error no rule matches weighs 0 (Neutral, No-error)
DEFAULT_RULES = (
    Rule("Source issue", "*", 0.0), Rule("Found", "*", 0.0), Rule("*", "HOTW-test", 0.0),
    Rule("Non-translation*", "*", 25.0), Rule("*", "Major", 5.0), Rule("Fluency/Punctuation", "Minor", 0.1),
    Rule("*", "Minor", 1.0),
)


MAX_WEIGHT = 1e6  # a heavier weight only overflows the sums (1e308 made every score infinite)


@dataclass(frozen=True)
class MqmWeights:
    """Ordered rules (category pattern, severity pattern, weight); the first match wins."""
    rules: tuple = DEFAULT_RULES
    _seen: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    @classmethod
    def parse(cls, text: str | None) -> "MqmWeights":
        """`SEVERITY=W` or `CATEGORY:SEVERITY=W`, separated by ';' (patterns may use * and ?).  A rule
        whose patterns are a default rule's changes that rule's weight in place; any other rule goes
        first, ahead of the defaults.  Empty: the defaults."""
        rules = list(DEFAULT_RULES)
        new = []
        for item in (text or "").split(";"):
            item = item.strip()
            if not item:
                continue
            lhs, eq, w = item.rpartition("=")
            cat, colon, sev = lhs.rpartition(":")
            try:
                weight = float(w)
            except ValueError:
                weight = math.nan
            if not eq or not sev.strip() or not math.isfinite(weight) or not 0 <= weight <= MAX_WEIGHT:
                raise InputError(f"MQM weight '{item}' is not SEVERITY=W or CATEGORY:SEVERITY=W with a weight from 0 "
                                 f"to {MAX_WEIGHT:g} (e.g. 'Major=10; Fluency/Punctuation:Minor=0.5')",
                                 code=InputError.Codes.SETTING)
            rule = Rule(cat.strip() if colon else "*", sev.strip(), weight)
            same = [i for i, r in enumerate(rules) if (r.category.lower(), r.severity.lower()) ==
                    (rule.category.lower(), rule.severity.lower())]
            if same:
                rules[same[0]] = rule
            else:
                new.append(rule)
        return cls(tuple(new + rules))

    @classmethod
    def of(cls, weights) -> "MqmWeights":
        """Weights as given: an MqmWeights, the text `parse` reads, or None (Google's)."""
        return weights if isinstance(weights, cls) else cls.parse(weights)

    def weight(self, category: str, severity: str) -> float:
        key = (category, severity)
        w = self._seen.get(key)
        if w is None:  # a file has a few dozen (category, severity) pairs: each matched against the rules once
            w = self._seen[key] = next((r.weight for r in self.rules if r.matches(category, severity)), 0.0)
        return w

    def changes(self) -> str:
        """The rules that differ from the defaults, as `parse` reads them ('' for the defaults)."""
        return "; ".join(r.spec() for r in self.rules if r not in DEFAULT_RULES)


def fields(human) -> list[str]:
    """The fields a slice can be cut by: the five of every MQM file, the documents' domain (a WMT folder's)
    and the file's metadata fields."""
    own = ["domain"] if human.domains else []  # a file's own "domain" field gives way to the documents'
    return list(FIELDS) + own + [m for m in human.meta_fields if m not in own]


def _scope(human) -> tuple:
    return SCOPE + (("domain",) if human.domains else ())


def _value(human, i: int, row: tuple, f: str) -> str:
    if f in _ROW:
        return row[_ROW[f]]
    if f == "domain" and human.domains:
        return str(human.domains.get(row[1], ""))
    return str(human.error_meta[i].get(f, "")) if human.error_meta else ""


def _checked(human, by, where) -> None:
    known = fields(human)
    bad = [b for b in list(by) + list(where or {}) if b not in known]
    if bad:
        raise InputError(f"slice by one or more of {', '.join(known)}, not '{', '.join(bad)}'",
                         code=InputError.Codes.SETTING)
    if not human.errors:
        raise InputError("slicing needs MQM rows (categories, severities, raters)", code=InputError.Codes.JUDGMENTS)


def _where(where: dict | None) -> dict:
    """{field: set of allowed values}, fields with no value chosen left out."""
    return {f: set(v) for f, v in (where or {}).items() if v}


def _is_error(row) -> bool:
    """An annotation that found something (not No-error, not a quality-control probe)."""
    return row[4].lower() not in ("no-error", "found") and row[5].lower() not in ("no-error", "hotw-test")


def _rated(human, scope: list[str], where: dict) -> dict:
    """scope key -> {(system, doc, seg): set of raters} for the rows in the where-filter's scope."""
    rated: dict = defaultdict(lambda: defaultdict(set))
    for i, row in enumerate(human.errors):
        if all(_value(human, i, row, f) in where[f] for f in _scope(human) if f in where):
            rated[tuple(_value(human, i, row, b) for b in scope)][(row[0], row[1], row[2])].add(row[3])
    return rated


def _counted(human, i: int, row, where: dict) -> bool:
    return _is_error(row) and all(_value(human, i, row, f) in allowed for f, allowed in where.items())


def slices(human, by: list[str], weights: MqmWeights | None = None, where: dict | None = None) -> list[dict]:
    """For every combination of the `by` fields' values: errors (annotations counted), penalty (their
    summed weights), rated (segments in the slice's scope), chars (their source characters), MQM (mean
    over rated segments of the raters' mean penalty) and MQM per 100 source characters; lower is
    better.  where: {field: allowed values}, the filter applied before slicing."""
    weights = weights or MqmWeights()
    where = _where(where)
    if not by:
        raise InputError(f"slice by one or more of {', '.join(fields(human))}", code=InputError.Codes.SETTING)
    _checked(human, by, where)
    scope = [b for b in by if b in _scope(human)]
    rated = _rated(human, scope, where)
    groups: dict = defaultdict(lambda: [0, 0.0, 0.0])  # errors, summed weights, summed rater-mean weights
    for i, row in enumerate(human.errors):
        if not _counted(human, i, row, where):
            continue
        sk = tuple(_value(human, i, row, b) for b in scope)
        raters = rated.get(sk, {}).get((row[0], row[1], row[2]))
        if not raters:
            continue
        w = weights.weight(row[4], row[5])
        g = groups[tuple(_value(human, i, row, b) for b in by)]
        g[0] += 1
        g[1] += w
        g[2] += w / len(raters)
    if set(by) <= set(_scope(human)):  # a scope without errors is a slice too (MQM 0)
        for key in rated:
            groups[key]  # noqa: B018 - creates the empty slice
    chars = human.seg_chars
    out = []
    for key, (n, pen, mean_pen) in groups.items():
        k = dict(zip(by, key))
        segs = rated.get(tuple(k[b] for b in scope), {})
        n_chars = sum(chars.get((d, s), 0) for _, d, s in segs)
        out.append({**k, "errors": n, "penalty": pen, "rated": len(segs), "chars": n_chars,
                    "MQM": mean_pen / len(segs) if segs else None,
                    "MQM per 100 chars": 100 * mean_pen / n_chars if n_chars else None})
    own = _own_score(human)
    if own and set(by) <= set(_scope(human)):  # ESA: the raters' own score of the slice's rated segments beside
        for r in out:
            segs = rated.get(tuple(r[b] for b in scope), {})
            per = [[human.rater_scores[k][x] for x in raters if x in human.rater_scores.get(k, {})]
                   for k, raters in segs.items()]
            per = [sum(v) / len(v) for v in per if v]
            r[own] = sum(per) / len(per) if per else None
    out.sort(key=lambda r: (-(r["MQM"] or 0), [str(r[b]) for b in by]))
    return out


def _own_score(human) -> str | None:
    """The name of the judgments' own per-segment score when it is not an MQM penalty (ESA's 0-100 rating,
    higher is better): slices by scope show it beside the error spans' MQM-weighted penalty; None for MQM."""
    return human.name if human.rater_scores and human.name.upper() != "MQM" and human.higher_is_better else None


def segment_scores(human, weights: MqmWeights | None = None, where: dict | None = None) -> dict:
    """{system: {(doc, seg): score}}: each rated segment's raters' mean penalty of the errors the
    filter keeps (the slice's score per segment)."""
    weights = weights or MqmWeights()
    where = _where(where)
    _checked(human, [], where)
    rated = _rated(human, [], where).get((), {})
    out: dict = defaultdict(dict)
    for (s, d, g) in rated:
        out[s][(d, g)] = 0.0
    for i, row in enumerate(human.errors):
        raters = rated.get((row[0], row[1], row[2]))
        if raters and _counted(human, i, row, where):
            out[row[0]][(row[1], row[2])] += weights.weight(row[4], row[5]) / len(raters)
    return dict(out)


def _signs(m: int, n: int, seed: int) -> np.ndarray:
    """(n, m) random signs, one byte each (10,000 trials over 1,300 segments: 13 MB, used a thousand rows
    at a time): a -1 swaps that segment's two scores in that trial."""
    rng = np.random.default_rng(seed)
    return np.where(rng.random((n, m), dtype=np.float32) < 0.5, -1, 1).astype(np.int8)


def significance(human, weights: MqmWeights | None = None, where: dict | None = None, per: str = "segment",
                 n: int = TRIALS, seed: int = DEFAULT_SEED) -> dict:
    """Every pair of systems compared on the slice over the segments both have: the difference of
    their scores (per rated segment, or per 100 source characters) and a two-sided paired
    randomization test (each segment's two scores swapped at random, n times, as Marot's
    significance test does), with Holm's correction over the pairs.  Also each system's score
    on the slice, equal to `slices(by=["system"])`'s."""
    from .stats.paired import holm

    if per not in PER:
        raise InputError(f"per must be one of {', '.join(PER)}, not '{per}'", code=InputError.Codes.SETTING)
    seg = segment_scores(human, weights, where)
    systems = sorted(seg)
    chars = human.seg_chars

    def score(vals, keys):
        if per == "segment":
            return float(np.mean(vals)) if len(vals) else None
        c = sum(chars.get(k, 0) for k in keys)
        return 100 * float(np.sum(vals)) / c if c else None

    scores = {s: score(list(seg[s].values()), list(seg[s])) for s in systems}
    pairs, signs_of = [], {}
    for i, a in enumerate(systems):
        for b in systems[i + 1:]:
            keys = sorted(set(seg[a]) & set(seg[b]))
            if len(keys) < 2:
                continue
            x = np.array([seg[a][k] for k in keys])
            y = np.array([seg[b][k] for k in keys])
            d = x - y
            # a sum of segment differences -> a difference of scores: / segments, or x 100 / characters
            unit = 1 / len(keys) if per == "segment" else 100 / max(1, sum(chars.get(k, 0) for k in keys))
            observed = d.sum() * unit
            signs = signs_of.get(len(keys))
            if signs is None:
                signs = signs_of[len(keys)] = _signs(len(keys), n, seed)
            null = np.concatenate([signs[c:c + 1000].astype(float) @ d for c in range(0, n, 1000)]) * unit
            tol = 1e-9 * np.abs(d).sum() * unit
            p = (int(np.sum(np.abs(null) >= abs(observed) - tol)) + 1) / (n + 1)
            pairs.append({"a": a, "b": b, "segments": len(keys), "MQM a": score(x, keys), "MQM b": score(y, keys),
                          "difference": float(observed), "p": p})
    for r, q in zip(pairs, holm([r["p"] for r in pairs])):
        r["p (Holm)"] = float(q)
    return {"systems": scores, "segments": {s: len(seg[s]) for s in systems}, "pairs": pairs,
            "per": per, "unit": PER[per], "test": f"paired randomization over segments, {n} trials, seed {seed}, two-sided; "
                                "Holm over the pairs"}
