"""Where BlonDe's mismatches and human MQM error spans meet.

For every system and discourse category:

* BlonDe's unmatched system spans (a span in the system output with no counterpart
  in the reference, "extra"): how many overlap, character for character, a human
  error span of the same segment, and the MQM categories of those error spans;
* BlonDe's missed reference spans (in the reference, not in the system): how many
  lie in segments where a human marked any error in the system output, and the MQM
  categories marked there (a missed span has no position in the system text);

and the converse: the human error spans in segments where BlonDe saw no discourse
mismatch at all.  And, character by character as WMT25 scores error spans (spanf1.char_f1, severity set
aside: a BlonDe mismatch has none, so every span counts as one kind), BlonDe's unmatched system spans taken
as predicted error spans against the human's (`span_f1` per system and overall; neutral, no-error and
undecided human spans and spans without a position left out).  Segments are paired by position within their document (the MQM
file's segment ids in order); a segment whose MQM text differs from the loaded
system text is not compared (counted in ``segments_text_differs``).
"""
from __future__ import annotations

from collections import Counter

from blonde_core.metric.settings import DISCOURSE
from .diagnostics import sentence_view
from .spanf1 import char_f1

NOT_ERRORS = ("neutral", "no-error", "undecided")  # human spans that mark no error (MQM Neutral) or no decision
SEVERITIES = ("minor", "major", "critical", "undecided")  # what WMT25's span scoring knows (undecided: left out)


def _as_spans(spans, shift: int = 0) -> list[dict]:
    """Spans for char_f1 with their severity set aside (every one of one kind), shifted onto the loaded text."""
    return [{"start": e["start"] - shift, "end": e["end"] - shift, "severity": "major"} for e in spans
            if e.get("start") is not None and str(e.get("severity", "")).lower() not in NOT_ERRORS]


def target_spans(human, key) -> list[dict]:
    """The human error spans on a segment's target; where the judgments hold two annotations of one item with one
    of them the gold (WMT25's human1 and human2: details["gold_rater"]), the gold's alone - the second annotation is
    for the raters' agreement (spanf1.annotator_agreement), not a second truth."""
    gold = (human.details or {}).get("gold_rater")
    return [e for e in human.error_spans.get(key, []) if e["side"] == "target"
            and (gold is None or e.get("rater", gold) == gold)]


def _mqm_segments(human, doc_id: str) -> list[str]:
    """The document's segment ids in the judgments, in order (numeric ids numerically)."""
    ids = {k[2] for k in human.segments if k[1] == doc_id}
    return sorted(ids, key=lambda x: (0, int(x), "") if x.isdigit() else (1, 0, x))


def _offset(human, key, text: str) -> int | None:
    """Where the loaded (stripped) text of a segment starts in the judgments' target text
    of that segment: 0 when the judgments carry no target text; None when the two texts
    differ (beyond case and surrounding space), so the segment's error spans cannot be
    placed on it.  One rule for the Documents page and the overlap table."""
    mqm = human.targets.get(key)
    if mqm is None:
        return 0
    a, b = mqm.strip(), text.strip()
    if len(a) != len(b) or a.lower() != b.lower():
        return None
    return len(mqm) - len(mqm.lstrip())


def document_errors(result, human, doc_index: int, system: str) -> list | None:
    """Per segment of the document, the system's human error spans on its target (offsets
    into the loaded, stripped text); None when the document's segments cannot be paired
    with the judgments' (another count) or the system was not judged."""
    doc_id = result.corpus.doc_ids[doc_index]
    if system not in human.system_scores:
        return None
    seg_ids = _mqm_segments(human, doc_id)
    docs = result.corpus.systems.get(system) or result.corpus.references.get(system)
    if docs is None or len(seg_ids) != len(docs[doc_index]):
        return None
    out = []
    for seg, raw in zip(seg_ids, docs[doc_index]):
        key = (system, doc_id, seg)
        lead = _offset(human, key, raw)
        if lead is None:
            out.append([])
            continue
        shown = raw.strip()
        # an ESA span whose position was not recorded ("missing" in Appraise's export, start None): an error of
        # the whole segment, marked as such (never a crash: WMT24 en-zh wave 2 has 80 of them)
        out.append([dict(e, start=e["start"] - lead, end=e["end"] - lead) if e["start"] is not None else
                    dict(e, start=0, end=len(shown), text=shown, whole_segment=True)
                    for e in target_spans(human, key)])
    return out


def error_overlap(result, human, systems: list[str] | None = None, reference: str | None = None,
                  doc_ids: list[str] | None = None) -> dict:
    systems = [s for s in (systems or result.names) if s in human.system_scores]
    out = {"reference": reference or next(iter(result.corpus.references)), "systems": {},
           "segments_compared": 0, "segments_text_differs": 0, "segments_without_rating": 0}
    seg_ids_of = {d: _mqm_segments(human, d) for d in result.corpus.doc_ids}
    every = []
    for s in systems:
        cats = {c: {"unmatched": 0, "overlapped": 0, "mqm_categories": Counter(),
                    "missed": 0, "missed_in_flagged_segments": 0, "mqm_categories_there": Counter()}
                for c in DISCOURSE if c in result.config.categories}
        human_total = human_alone = 0
        alone_categories: Counter = Counter()
        span_segments = []  # (length, human spans, BlonDe's unmatched system spans) of every compared segment
        for di, doc_id in enumerate(result.corpus.doc_ids):
            if doc_ids is not None and doc_id not in doc_ids:
                continue
            seg_ids = seg_ids_of[doc_id]
            view = sentence_view(result, di, [s], reference)
            rows, ref_rows = view["rows"][s], view["rows"][view["reference"]]
            if len(seg_ids) != len(rows):
                out["segments_without_rating"] += len(rows)
                continue
            for k, (row, rrow) in enumerate(zip(rows, ref_rows)):
                key = (s, doc_id, seg_ids[k])
                if key not in human.segments:
                    out["segments_without_rating"] += 1
                    continue
                errs = target_spans(human, key)
                offset = _offset(human, key, row["text"])
                if offset is None:
                    out["segments_text_differs"] += 1
                    continue
                out["segments_compared"] += 1
                flagged = Counter(e["category"] for e in errs)
                extra = [sp for sp in row["spans"]
                         if sp["category"] in cats and sp["counted"] and sp.get("status") == "extra"]
                missed = [sp for sp in rrow["spans"]
                          if sp["category"] in cats and sp["counted"] and sp.get("status") == "missed"]
                mismatch = bool(extra or missed)
                span_segments.append((len(row["text"]), _as_spans(errs, offset), _as_spans(extra)))
                for sp in extra:
                    c = cats[sp["category"]]
                    c["unmatched"] += 1
                    hit = [e for e in errs if e["start"] is not None  # a span without a position overlaps nothing
                           and e["start"] - offset < sp["end"] and sp["start"] < e["end"] - offset]
                    if hit:
                        c["overlapped"] += 1
                        c["mqm_categories"].update(e["category"] for e in hit)
                for sp in missed:
                    c = cats[sp["category"]]
                    c["missed"] += 1
                    if errs:
                        c["missed_in_flagged_segments"] += 1
                        c["mqm_categories_there"].update(flagged)
                human_total += len(errs)
                if not mismatch:
                    human_alone += len(errs)
                    alone_categories.update(flagged)
        for v in cats.values():
            v["share_overlapped"] = v["overlapped"] / v["unmatched"] if v["unmatched"] else None
            v["share_missed_in_flagged_segments"] = (v["missed_in_flagged_segments"] / v["missed"]
                                                     if v["missed"] else None)
            v["mqm_categories"] = dict(v["mqm_categories"].most_common())
            v["mqm_categories_there"] = dict(v["mqm_categories_there"].most_common())
        out["systems"][s] = {"categories": cats, "human_error_spans": human_total,
                             "human_error_spans_where_blonde_saw_no_discourse_mismatch": human_alone,
                             "their_mqm_categories": dict(alone_categories.most_common()),
                             "span_f1": char_f1(span_segments)}
        every.extend(span_segments)
    out["span_f1"] = char_f1(every)
    out["span_f1_rule"] = ("BlonDe's unmatched system spans as predicted error spans against the human's, character "
                           "by character as WMT25 scores error spans (severity set aside)")
    return out


def metric_spans_vs_human(corpus, human, predicted) -> dict:
    """A metric's error spans (io/spans.py MetricSpans: xCOMET's, a WMT25 submission's) scored against the human
    error spans, character by character as WMT25 scores them (spanf1.char_f1: severity counts, half credit for the
    wrong one), per system and overall, over the segments the humans judged that the metric's file gives.  A
    judged segment the file lacks, or whose text differs from the judged one, is left out and counted; with two
    annotations of an item, the gold's spans (target_spans)."""
    texts = {**corpus.references, **corpus.systems}
    places = corpus.segment_places()
    per: dict = {}
    counts = {"segments_compared": 0, "segments_not_in_file": 0, "segments_text_differs": 0}
    for d, seg, di, k in places:
        for s in texts:
            key = (s, d, seg)
            if key not in human.segments:
                continue
            if key not in predicted.spans:
                counts["segments_not_in_file"] += 1
                continue
            text = texts[s][di][k]
            lead = _offset(human, key, text)
            mt = predicted.texts.get(key)
            if lead is None or (mt is not None and mt.strip() != text.strip()):
                counts["segments_text_differs"] += 1
                continue
            shift = 0 if mt is None else len(mt) - len(mt.lstrip())
            gold = [dict(e, start=e["start"] - lead, end=e["end"] - lead) for e in target_spans(human, key)
                    if e.get("start") is not None and str(e.get("severity", "")).lower() in SEVERITIES]
            pred = [dict(e, start=e["start"] - shift, end=e["end"] - shift) for e in predicted.spans[key]]
            per.setdefault(s, []).append((len(text), gold, pred))
            counts["segments_compared"] += 1
    return {"metric": predicted.metric, "file": predicted.file, **counts,
            "systems": {s: char_f1(v) for s, v in per.items()},
            "span_f1": char_f1([x for v in per.values() for x in v]),
            "rule": "character-level precision, recall and F1 against the human error spans as WMT25's metrics task "
                    "scores error spans (half credit for a wrong severity; spans without a position and 'undecided' "
                    "left out)" + (f"; gold: {human.details['gold_rater']}" if human.details.get("gold_rater")
                                   else "")}
