"""A metric's error spans per segment (xCOMET's `metadata.error_spans`, a WMT25 metrics-task submission's spans),
read to be scored against the human error spans (analysis/overlap.py metric_spans_vs_human, character-level F1 as
WMT25 scores spans).  JSON Lines, one segment a line:

    {"system": "GPT-4", "doc_id": "DOC", "seg_id": "3", "error_spans": [{"start": 13, "end": 21,
     "severity": "minor", "text": "my food", "confidence": 0.41}], "mt": "..."}

- the segment: "system" and either "doc_id" with "seg_id" (the segment's id as loaded: 1, 2, ... within its
  document unless the texts carry their own), or "doc_id" written as WMT25 writes a paragraph ("DOC_#_K", K from
  0), or "line" (the segment's 0-based position in the test set, the order COMET scores a file in);
- "error_spans": xCOMET's list, character offsets into the segment (start, end), severity minor, major or critical
  ("text" and "confidence" kept, not needed); an empty list: the metric found no error there;
- "mt" (optional): the text the offsets point into; a segment whose "mt" is not the loaded text is not scored
  (counted), as the human spans of another text are not;
- "metric" (optional): the metric's name (default: the file's stem).

A segment of the test set that has no line is left out of the score (counted), never read as "no error".  Every
problem names the file and line.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from blonde_core.errors import InputError
from .corpus import Corpus
from .jsonsafe import loads
from .readers import decode_bytes, file_stem, read_bytes

SEVERITIES = ("minor", "major", "critical")
WMT25_SEP = "_#_"


@dataclass
class MetricSpans:
    metric: str
    file: str
    spans: dict = field(default_factory=dict)  # (system, doc, seg_id) -> [{"start", "end", "severity", ...}]
    texts: dict = field(default_factory=dict)  # (system, doc, seg_id) -> the "mt" given, where given


def read_span_file(path, corpus: Corpus) -> MetricSpans:
    """A span file (module doc) checked against the loaded texts -> MetricSpans."""
    name = str(path)
    places = corpus.segment_places()
    index = {(d, seg): k for k, (d, seg, _, _) in enumerate(places)}
    by_pos = {(d, k): seg for d, seg, _, k in places}
    loaded = [*corpus.references, *corpus.systems]
    out = MetricSpans(file_stem(path), name)
    seen: dict = {}
    metric = None
    for k, line in enumerate(decode_bytes(read_bytes(path), name).split("\n"), 1):
        if not line.strip():
            continue
        row = loads(line, name, k)
        if not isinstance(row, dict):
            raise InputError("is not a JSON object", file=name, line=k, code=InputError.Codes.MALFORMED)
        m = row.get("metric")
        if m is not None:
            if metric is not None and m != metric:
                raise InputError(f"names metric {m!r} where earlier lines name {metric!r}: one metric a file",
                                 file=name, line=k, code=InputError.Codes.NAMES)
            metric = str(m)
        s = row.get("system")
        if s not in loaded:
            raise InputError(f"system {s!r} is not a loaded text (loaded: {', '.join(loaded)})", file=name, line=k,
                             code=InputError.Codes.NAMES)
        if "line" in row:
            pos = row["line"]
            if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos < len(places):
                raise InputError(f"line {pos!r} is not a segment of the test set (0-{len(places) - 1})", file=name,
                                 line=k, code=InputError.Codes.COUNTS)
            d, seg = places[pos][0], places[pos][1]
        else:
            d, seg = row.get("doc_id"), row.get("seg_id")
            if seg is None and isinstance(d, str) and WMT25_SEP in d:
                d, _, para = d.rpartition(WMT25_SEP)
                seg = by_pos.get((d, int(para))) if para.isdigit() else None
            if (d, str(seg)) not in index:
                raise InputError(f"names no segment of the loaded texts (doc_id {row.get('doc_id')!r}, seg_id "
                                 f"{row.get('seg_id')!r}; give doc_id and seg_id as loaded, or line)", file=name,
                                 line=k, code=InputError.Codes.COUNTS)
            seg = str(seg)
        key = (s, d, seg)
        if key in seen:
            raise InputError(f"segment {seg} of document {d!r} of {s!r} appears again (first on line {seen[key]}); "
                             "one line each", file=name, line=k, code=InputError.Codes.MALFORMED)
        seen[key] = k
        spans = row.get("error_spans")
        if not isinstance(spans, list):
            raise InputError("has no \"error_spans\" list (xCOMET's error spans of the segment; [] for none)",
                             file=name, line=k, code=InputError.Codes.MALFORMED)
        got = []
        for e in spans:
            a, b = (e.get("start"), e.get("end")) if isinstance(e, dict) else (None, None)
            sev = str(e.get("severity", "")).lower() if isinstance(e, dict) else ""
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in (a, b)) or not 0 <= a <= b:
                raise InputError(f"an error span without character offsets (start <= end) ({e!r})", file=name,
                                 line=k, code=InputError.Codes.MALFORMED)
            if sev not in SEVERITIES:
                raise InputError(f"an error span of severity {e.get('severity')!r} (minor, major or critical)",
                                 file=name, line=k, code=InputError.Codes.MALFORMED)
            got.append({"start": a, "end": b, "severity": sev, **({"text": e["text"]} if "text" in e else {}),
                        **({"confidence": e["confidence"]} if "confidence" in e else {})})
        out.spans[key] = got
        if isinstance(row.get("mt"), str):
            out.texts[key] = row["mt"]
    if not out.spans:
        raise InputError("holds no segment's error spans", file=name, code=InputError.Codes.EMPTY)
    if metric:
        out.metric = metric
    return out


__all__ = ["MetricSpans", "read_span_file"]
