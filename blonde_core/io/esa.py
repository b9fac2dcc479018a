"""ESA (Error Span Annotation) judgments as Appraise exports them (WMT24 on): CSV without a
header, one judgment a row, in these columns (as the task's own scripts name them):

    user_id, system_id, segment_id, segment_type, source_lang, target_lang, overall, doc_id,
    unk, error_spans, start_time, end_time

What is kept, as the WMT24 task kept it (shared/data/wmt24/README.md):
- rows of the raters' tutorial (segment_id >= 1,000,000) and quality-control rows
  (segment_type BAD, deliberately damaged translations) are dropped;
- a rater who judged the same segment of the same system twice: the later judgment
  (end_time) wins; a row exported twice as it was (WMT24's waves carry 159) is one judgment;
  two different judgments with the same end_time are refused, naming both lines (the readers'
  one duplicate rule, io/judgments.py once, with these two cases of Appraise's); all counted;
- `overall` outside 0-100 is refused, naming the file, line and value;
- several raters of one segment: the mean of their scores (`rater_scores` keeps each);
- `refA`, the human reference judged as a system, is matched to the loaded text of that
  name (a reference or a system) like every other system name (io/da.py guess_mapping);
- by default systems are compared only on the segments judged for every system (the
  task's choice); the judgments say how many segments remain.

`segment_id` is the 0-based line of the released text files (the canary is line 0), so
it is bound to the loaded corpus through its `line_offset`.  `error_spans` are character
offsets into the system's segment, severity minor or major, no category: kept as human
error spans like MQM's (Documents, the overlap table, the Human judgments page).
"""
from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass

from blonde_core.errors import InputError
from .corpus import Corpus
from .jsonsafe import loads
from .judgments import HumanScores, aggregate_segments, check_scale, scale_of
from .readers import decode_bytes, read_bytes, score_number

COLUMNS = ("user_id", "system_id", "segment_id", "segment_type", "source_lang", "target_lang", "overall", "doc_id",
           "unk", "error_spans", "start_time", "end_time")
TUTORIAL_FROM = 1_000_000
# Appraise's three-letter codes (ISO 639-2/3) -> the two-letter codes of language pairs
LANG3 = {"eng": "en", "ces": "cs", "zho": "zh", "jpn": "ja", "hin": "hi", "deu": "de", "spa": "es", "rus": "ru",
         "ukr": "uk", "isl": "is", "kor": "ko", "fra": "fr", "ara": "ar", "ita": "it", "por": "pt", "pol": "pl",
         "nld": "nl", "tur": "tr", "ben": "bn", "mar": "mr", "est": "et", "lit": "lt", "lav": "lv", "fin": "fi",
         "ron": "ro", "hrv": "hr", "srp": "sr", "slk": "sk", "slv": "sl", "swe": "sv", "dan": "da", "nob": "nb",
         "hun": "hu", "bul": "bg", "ell": "el", "heb": "he", "vie": "vi", "tha": "th", "ind": "id", "kaz": "kk"}
SCALE = scale_of("esa")  # overall: 0-100 (a value outside is refused, naming the file, line and value)
WEIGHTS = {"minor": 1.0, "major": 5.0}  # for slicing by severity (the ESA score itself is the rater's 0-100)


@dataclass
class EsaRow:
    rater: str
    system: str
    segment: int  # 0-based line of the released files
    pair: str  # "en-zh"
    score: float
    doc: str  # Appraise's document id (checked against the loaded texts' documents)
    spans: list  # [{"start", "end", "severity"}]; start/end None: no position ("missing")
    end_time: float
    where: tuple  # (file, line): for messages
    fields: tuple = ()  # the row as written (an exact repeat of a row is the same judgment)


@dataclass
class EsaJudgments:
    rows: list  # EsaRow, after the task's rules
    files: list
    dropped: dict  # why -> count
    pairs: dict  # "en-zh" -> rows

    def describe(self) -> str:
        d = ", ".join(f"{v:,} {k}" for k, v in self.dropped.items() if v)
        return (f"ESA (Appraise export): {len(self.rows):,} judgments of "
                f"{', '.join(f'{p} ({n:,})' for p, n in sorted(self.pairs.items()))}" + (f"; dropped: {d}" if d else ""))


def is_esa(path) -> bool:
    """Does the file look like Appraise's ESA export (12 columns, TGT/BAD type, three-letter language codes)?"""
    text = decode_bytes(read_bytes(path), str(path))
    try:
        first = next(csv.reader(io.StringIO(text.split("\n", 1)[0])), [])
    except csv.Error:  # a carriage return alone in the first line: not Appraise's export (its reader says why)
        return False
    return (len(first) == len(COLUMNS) and len(first[4]) == 3 and len(first[5]) == 3
            and first[3] in ("TGT", "BAD", "REF", "CHK") and first[2].isdigit())


def _spans(raw: str, name: str, line: int) -> list:
    if not raw.strip():
        return []
    items = loads(raw, name, line, what="error_spans")
    if not isinstance(items, list):
        raise InputError("error_spans is not a list", file=name, line=line, code=InputError.Codes.MALFORMED)
    out = []
    for it in items:
        if not isinstance(it, dict):
            raise InputError("an error span is not an object", file=name, line=line, code=InputError.Codes.MALFORMED)
        sev = str(it.get("severity") or "").lower()
        a, b = it.get("start_i"), it.get("end_i")
        pos = isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and 0 <= a <= b
        out.append({"start": a if pos else None, "end": b if pos else None,
                    "severity": sev.capitalize() if sev in WEIGHTS else (sev or "unknown")})
    return out


def read_esa(paths) -> EsaJudgments:
    """One or several ESA export files -> EsaJudgments under the task's rules (module doc)."""
    kept: dict = {}  # (rater, system, segment, pair) -> EsaRow (the later judgment)
    dropped = {"tutorial rows": 0, "quality-control (BAD) rows": 0, "earlier judgments of the same rater": 0}
    files = []
    for path in paths:
        name = str(path)
        files.append(name)
        text = decode_bytes(read_bytes(path), name)
        for k, f in enumerate(csv.reader(io.StringIO(text)), 1):
            if not f or not any(x.strip() for x in f):
                continue
            if len(f) != len(COLUMNS):
                raise InputError(f"has {len(f)} fields; Appraise's ESA export has {len(COLUMNS)} ({', '.join(COLUMNS)})",
                                 file=name, line=k, code=InputError.Codes.MALFORMED)
            try:
                seg = int(f[2])
            except ValueError:
                raise InputError(f"segment_id '{f[2]}' is not a line number", file=name, line=k,
                                 code=InputError.Codes.MALFORMED) from None
            if seg >= TUTORIAL_FROM:
                dropped["tutorial rows"] += 1
                continue
            if f[3] != "TGT":
                dropped["quality-control (BAD) rows"] += 1
                continue
            src, tgt = LANG3.get(f[4], f[4]), LANG3.get(f[5], f[5])
            score = check_scale(score_number(f[6], name, k, "overall score"), SCALE, name, k, "overall score")
            row = EsaRow(f[0], f[1], seg, f"{src}-{tgt}", score, f[7], _spans(f[9], name, k),
                         score_number(f[11] or "0", name, k, "end_time"), (name, k), tuple(f))
            key = (row.rater, row.system, row.segment, row.pair)
            old = kept.get(key)
            if old is not None:  # the one duplicate rule (judgments.once), with Appraise's two cases
                if old.fields == row.fields:  # the same judgment exported twice (WMT24's waves carry 159)
                    dropped["rows repeated as they were"] = dropped.get("rows repeated as they were", 0) + 1
                    continue
                if old.end_time == row.end_time:  # two judgments, neither later: which one counts cannot be told
                    first = f"line {old.where[1]}" + ("" if old.where[0] == name else f" of {old.where[0]}")
                    raise InputError(f"rater '{row.rater}''s judgment of system '{row.system}', segment_id {seg} "
                                     f"appears again (first on {first}) with the same end_time and another judgment; "
                                     "one row each, never merged or averaged (a later end_time would replace it)",
                                     file=name, line=k, code=InputError.Codes.MALFORMED)
                dropped["earlier judgments of the same rater"] += 1
                if row.end_time < old.end_time:
                    continue
            kept[key] = row
    rows = list(kept.values())
    if not rows:
        raise InputError("holds no ESA judgment (after dropping tutorial and quality-control rows)",
                         file=", ".join(files), code=InputError.Codes.EMPTY)
    pairs: dict = defaultdict(int)
    for r in rows:
        pairs[r.pair] += 1
    return EsaJudgments(rows, files, dropped, dict(pairs))


def bind_esa(esa: EsaJudgments, corpus: Corpus, pair: str | None = None, mapping: dict | None = None,
             common: bool = True) -> HumanScores:
    """HumanScores over the loaded corpus for one language pair (given, or the only one the files have):
    segment scores (the raters' mean), documents and systems as the mean of their rated segments (with
    common=True, of the segments judged for every matched system), raters' scores, error spans."""
    from .da import check_mapping, guess_mapping

    files = ", ".join(esa.files)
    if pair is None:
        if len(esa.pairs) != 1:
            raise InputError(f"holds ESA judgments of {len(esa.pairs)} language pairs ({', '.join(sorted(esa.pairs))}); "
                             "name the one of the loaded texts (--lp, or load a WMT folder)", file=files,
                             code=InputError.Codes.JUDGMENTS,
                             page=f"holds ESA judgments of {len(esa.pairs)} language pairs; upload the source too, "
                                  "so that the pair can be told from the texts, or load a WMT folder")
        pair = next(iter(esa.pairs))
    if pair not in esa.pairs:
        raise InputError(f"holds no ESA judgment of {pair} (it has {', '.join(sorted(esa.pairs))})", file=files,
                         code=InputError.Codes.JUDGMENTS)
    rows = [r for r in esa.rows if r.pair == pair]
    loaded = list(corpus.references) + list(corpus.systems)
    names = guess_mapping({r.system for r in rows}, loaded, mapping)
    check_mapping(names, files)
    where = corpus.segment_places()  # corpus line (0-based, after the lines left out) -> its place
    texts = {**corpus.references, **corpus.systems}
    raters: dict = defaultdict(dict)
    spans: dict = defaultdict(list)
    targets: dict = {}
    for r in rows:
        name = names.get(r.system)
        if name is None:
            continue
        line = r.segment - corpus.line_offset
        if not 0 <= line < len(where):
            raise InputError(f"segment_id {r.segment} is outside the loaded test set (0-{len(where) + corpus.line_offset - 1}"
                             " as lines of the released files)", file=r.where[0], line=r.where[1],
                             code=InputError.Codes.COUNTS)
        d, seg, di, k = where[line]
        if corpus.boundaries == "docids" and r.doc.split("#", 1)[0] != d:  # "#incomplete", "#bad": Appraise's marks
            raise InputError(f"segment_id {r.segment} is in document '{r.doc}' here but in '{d}' in the loaded texts: "
                             "the judgments and the texts do not line up (a line such as WMT's canary left in one "
                             "and out of the other?)", file=r.where[0], line=r.where[1], code=InputError.Codes.COUNTS)
        raters[(name, d, seg)][r.rater] = r.score
        text = texts[name][di][k]
        for sp in r.spans:
            a, b = sp["start"], sp["end"]
            ok = a is not None and b <= len(text)
            spans[(name, d, seg)].append({"side": "target", "start": a if ok else None, "end": b if ok else None,
                                          "text": text[a:b] if ok else "", "category": "ESA error",
                                          "severity": sp["severity"], "rater": r.rater})
        if r.spans:
            targets[(name, d, seg)] = text  # what the spans' offsets point into
    if not raters:
        what = (f"no system of the ESA judgments matches a loaded text (judged: {', '.join(sorted(names))}; loaded: "
                f"{', '.join(loaded)})")
        raise InputError(f"{what}; map them with --map FILE_NAME=LOADED_NAME", file=files, code=InputError.Codes.NAMES,
                         page=f"{what}; name the uploaded system files after the judged systems (NAME.txt)")
    judged: dict = defaultdict(set)
    for (s, d, seg) in raters:
        judged[s].add((d, seg))
    segs = set.intersection(*judged.values()) if common else None
    if segs is not None and not segs and len(judged) > 1:  # every system judged on other segments: no number at all
        what = (f"no segment is judged for all {len(judged)} systems ({', '.join(sorted(judged))}: each was judged on "
                f"other segments, {', '.join(str(len(judged[x])) for x in sorted(judged))} of them), so comparing "
                "them on the segments judged for every one of them, WMT24's way, leaves none and gives no human "
                "score")
        raise InputError(f"{what}; --esa-every-judged scores each system over every segment judged for it", file=files,
                         code=InputError.Codes.JUDGMENTS,
                         page=f"{what}; tick 'ESA: each system over every segment judged for it' to score each "
                              "system over its own judged segments")
    hs = HumanScores("esa", True, kind=esa.describe() + (
        f"; systems compared on the {len(segs):,} segments judged for all {len(judged)} of them" if common else
        "; every judged segment used"))
    aggregate_segments(hs, {key: list(by.values()) for key, by in raters.items()}, segs)
    hs.rater_scores = {key: dict(by) for key, by in raters.items()}
    hs.error_spans = dict(spans)
    hs.targets = targets
    if corpus.source is not None:  # MQM per 100 source characters works for ESA's spans too
        hs.seg_chars = {(d, seg): len(corpus.source[di][k]) for d, seg, di, k in where}
    marked = set()
    for key, sp in hs.error_spans.items():
        for e in sp:
            hs.errors.append((key[0], key[1], key[2], e["rater"], "ESA error", e["severity"],
                              WEIGHTS.get(e["severity"].lower(), 0.0)))
            hs.error_meta.append({})
            marked.add((key, e["rater"]))
    for key, by in raters.items():  # a judgment without a span: a No-error row, as MQM files have (the rater saw it)
        for rater in by:
            if (key, rater) not in marked:
                hs.errors.append((key[0], key[1], key[2], rater, "No-error", "no-error", 0.0))
                hs.error_meta.append({})
    hs.mapping = names
    hs.coverage = {s: {"segments_rated": len(judged[s]), "segments": len(where),
                       "segments_compared": hs.n_segments.get(s, 0)} for s in judged}
    hs.compared = segs
    hs.details = {"pair": pair, "common": common, "segments_common": len(segs) if segs is not None else None,
                  "systems_judged": len(judged), "dropped": dict(esa.dropped), "files": list(esa.files)}
    return hs


__all__ = ["COLUMNS", "EsaJudgments", "LANG3", "bind_esa", "is_esa", "read_esa"]
