"""Human judgments: Google's MQM TSV and plain judgment tables.

MQM (the WMT MQM release): segment penalty = mean over the raters of the
segment of the summed error weights (Major 5, Minor 1, Minor
Fluency/Punctuation 0.1, any Non-translation 25, Neutral / No-error 0).
System and document MQM = mean segment penalty (lower is better, as the
release reports it).  For correlations the score is oriented so that higher
is better (penalties are negated).
"""
from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field

from .corpus import Corpus
from blonde_core.errors import InputError
from .jsonsafe import loads
from .judgments import HumanScores, check_scale, mqm_weight, once, scale_of
from .readers import decode_bytes, read_bytes, score_number, split_lines

MQM_COLUMNS = ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity"]
# WMT22-24 releases: docSegId counts within the document, globalSegId is the test-set line;
# often a trailing metadata (JSON) column and a comment cell in the header
MQM_COLUMNS_2022 = ["system", "doc", "docsegid", "globalsegid", "rater", "source", "target", "category", "severity"]
_V = re.compile(r"</?v>")


@dataclass
class MqmFile:
    scores: HumanScores
    corpus_docs: dict  # system -> list of docs (segment texts, markers removed)
    source_docs: list
    doc_ids: list
    seg_ids: list  # per document, segment ids
    incomplete: dict = field(default_factory=dict)  # system -> segments without a rating (no text, no score)


def _rows(path, expected: list[str] | None = None):
    text = decode_bytes(read_bytes(path), str(path))
    lines = split_lines(text)
    if not lines:
        raise InputError("is empty", file=str(path), code=InputError.Codes.EMPTY)
    return lines


def marked_spans(text: str) -> tuple[str, list[tuple[int, int]]]:
    """(text without <v>...</v> markers, [(start, end)] of the marked stretches in it)."""
    out, spans, pos, opened = [], [], 0, None
    length = 0
    for m in _V.finditer(text):
        piece = text[pos:m.start()]
        out.append(piece)
        length += len(piece)
        if m.group(0) == "<v>":
            opened = length
        elif opened is not None:
            spans.append((opened, length))
            opened = None
        pos = m.end()
    out.append(text[pos:])
    return "".join(out), spans


def _mqm_header(first_line: str) -> tuple[list[str], str | None]:
    """(lower-case column names without comment cells, layout) of an MQM header line;
    layout "2020" (doc_id, seg_id), "2022" (docSegId, globalSegId) or None."""
    header = [h.strip().lower() for h in first_line.split("\t")]
    while header and (header[-1] == "" or header[-1].startswith("#")):
        header.pop()
    if all(c in header for c in MQM_COLUMNS):
        return header, "2020"
    if all(c in header for c in MQM_COLUMNS_2022):
        return header, "2022"
    return header, None


def _metadata(fields: list[str], extra: list, names: list[str], file: str, line: int) -> dict:
    """One row's metadata: its further columns by name and, for a JSON object in a `metadata`
    column, its fields holding a string, number or truth value (nested ones are left out; a cell
    that is not JSON is kept as text, hostile JSON refused as everywhere: io/jsonsafe.py).
    New field names are added to `names` in the order met."""
    out = {}
    for i, h in extra:
        v = fields[i].strip() if i < len(fields) else ""
        if h == "metadata" and v.startswith("{"):
            obj = loads(v, file, line, what="the metadata", invalid=None)
            if isinstance(obj, dict):
                for k, x in obj.items():
                    if isinstance(x, (str, int, float, bool)) and k not in FIELDS_OF_ROW:
                        out[k] = str(x)
                continue
        out[h] = v
    for k in out:
        if k not in names:
            names.append(k)
    return out


FIELDS_OF_ROW = ("system", "doc", "rater", "category", "severity", "seg")


def read_mqm(path) -> MqmFile:
    """Google's MQM TSV, the 2020-21 layout (doc_id, seg_id) or the WMT22-24 one (docSegId,
    globalSegId, metadata): one row per error (or No-error) per rater; segment penalty =
    mean over its raters of the summed weights.  Only rated segments have a score."""
    lines = _rows(path)
    header, layout = _mqm_header(lines[0])
    if layout is None:
        missing = [c for c in MQM_COLUMNS if c not in header]
        raise InputError(f"line 1 is not an MQM header: missing column(s) {', '.join(missing)} "
                         f"(expected {' '.join(MQM_COLUMNS)}, or the WMT22-24 layout with docSegId and "
                         "globalSegId, tab-separated)", file=str(path), line=1, code=InputError.Codes.MALFORMED)
    seg_col = "seg_id" if layout == "2020" else "globalsegid"
    col = {c: header.index(c) for c in ("system", "doc", "rater", "source", "target", "category", "severity")}
    col["seg_id"] = header.index(seg_col)
    # metadata: any further column, and the scalar fields of a JSON `metadata` column (WMT22-24)
    known = set(MQM_COLUMNS) | set(MQM_COLUMNS_2022)
    extra = [(i, h) for i, h in enumerate(header) if h and h not in known]
    meta_fields: list[str] = []
    error_meta: list[dict] = []
    per_rater = defaultdict(lambda: defaultdict(float))
    targets, sources, doc_of = {}, {}, {}
    marks: dict = {}
    errors: list = []
    doc_order: list[str] = []
    segs_of_doc: dict[str, list] = {}
    for i, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        f = line.split("\t")
        if len(f) < len(header):
            raise InputError(f"has {len(f)} tab-separated fields, expected {len(header)}", file=str(path), line=i, code=InputError.Codes.MALFORMED)
        system, doc, seg, rater = f[col["system"]], f[col["doc"]], f[col["seg_id"]], f[col["rater"]]
        if not system or not seg:
            raise InputError(f"empty system or {seg_col}", file=str(path), line=i, code=InputError.Codes.MALFORMED)
        try:
            seg_num = int(seg)
        except ValueError:
            raise InputError(f"{seg_col} '{seg}' is not a whole number", file=str(path), line=i, code=InputError.Codes.MALFORMED) from None
        known = doc_of.get(seg_num)
        if known is None:
            doc_of[seg_num] = doc
            if doc not in segs_of_doc:
                doc_order.append(doc)
                segs_of_doc[doc] = []
            segs_of_doc[doc].append(seg_num)
        elif known != doc:
            raise InputError(f"segment {seg} is in document '{doc}' here but '{known}' before",
                             file=str(path), line=i, code=InputError.Codes.COUNTS)
        cat, sev = f[col["category"]], f[col["severity"]]
        weight = mqm_weight(cat, sev)
        per_rater[(system, seg_num)][rater] += weight
        errors.append((system, doc, str(seg_num), rater, cat.strip(), sev.strip(), weight))
        if extra:
            error_meta.append(_metadata(f, extra, meta_fields, str(path), i))
        target, t_spans = marked_spans(f[col["target"]])
        source, s_spans = marked_spans(f[col["source"]])
        targets.setdefault((system, seg_num), target)
        sources.setdefault(seg_num, source)
        if cat.strip().lower() not in ("no-error", "found") and sev.strip().lower() not in ("no-error", "hotw-test"):
            for side, txt, spans in (("target", target, t_spans), ("source", source, s_spans)):
                for a, b in spans:
                    marks.setdefault((system, doc, str(seg_num)), []).append(
                        {"side": side, "start": a, "end": b, "text": txt[a:b], "category": cat.strip(),
                         "severity": sev.strip(), "rater": rater})
    if not per_rater:
        raise InputError("has a header but no rows", file=str(path), code=InputError.Codes.EMPTY)
    systems = sorted({s for s, _ in per_rater})
    segs_by_doc = {d: sorted(v) for d, v in segs_of_doc.items()}
    layout_name = "2020-21 (doc_id, seg_id)" if layout == "2020" else "WMT22-24 (docSegId, globalSegId)"
    hs = HumanScores("MQM", higher_is_better=False, error_spans=marks, errors=errors,
                     kind=f"Google MQM TSV, {layout_name} layout",
                     error_meta=error_meta if meta_fields else [], meta_fields=meta_fields,
                     seg_chars={(doc_of[g], str(g)): len(t) for g, t in sources.items()})
    docs_text, incomplete = {}, {}
    for s in systems:
        texts_all, missing = [], 0
        hs.doc_scores[s] = {}
        vals_all = []
        for d in doc_order:
            vals, texts = [], []
            for seg in segs_by_doc[d]:
                raters = per_rater.get((s, seg))
                if raters is None:  # not rated for this system: no score (not zero), and no text
                    missing += 1
                    continue
                v = sum(raters.values()) / len(raters)
                hs.segments[(s, d, str(seg))] = v
                hs.rater_scores[(s, d, str(seg))] = dict(raters)
                hs.targets[(s, d, str(seg))] = targets[(s, seg)]
                vals.append(v)
                texts.append(targets[(s, seg)])
            if vals:
                hs.doc_scores[s][d] = sum(vals) / len(vals)
            vals_all += vals
            texts_all.append(texts)
        hs.system_scores[s] = sum(vals_all) / len(vals_all)
        hs.n_segments[s] = len(vals_all)
        if missing:
            incomplete[s] = missing
        else:
            docs_text[s] = texts_all
    src = [[sources[seg] for seg in segs_by_doc[d]] for d in doc_order]
    return MqmFile(hs, docs_text, src, doc_order, [[str(x) for x in segs_by_doc[d]] for d in doc_order], incomplete)


def mqm_corpus(m: MqmFile, reference_systems: list[str], path: str = "MQM file") -> Corpus:
    """The texts of an MQM file as a corpus: systems rated on only some segments carry no
    text for the rest, so they are left out of the corpus (said in m.incomplete) and
    cannot be a reference."""
    gaps = m.incomplete
    bad_refs = [r for r in reference_systems if r in gaps]
    if bad_refs:
        raise InputError(f"reference system '{bad_refs[0]}' is rated on only some segments ({gaps[bad_refs[0]]} "
                         "missing): its text is incomplete", file=path, code=InputError.Codes.JUDGMENTS)
    if not m.corpus_docs:
        raise InputError("no system is rated on every segment, so the file carries no complete text; load the texts "
                         "as files and this file as human judgments", file=path, code=InputError.Codes.JUDGMENTS)
    unknown = [r for r in reference_systems if r not in m.corpus_docs]
    if unknown:
        raise InputError(f"reference system '{unknown[0]}' is not in the file (systems: "
                         f"{', '.join(m.corpus_docs)})", file=path, code=InputError.Codes.NAMES)
    if not reference_systems:
        raise InputError("say which systems are human references (--reference-systems NAME ...)", file=path, code=InputError.Codes.NAMES,
                         page="say which systems of the file are human references (the box *Systems of the file that "
                              "are human references*)")
    refs = {r: m.corpus_docs[r] for r in reference_systems}
    syss = {s: d for s, d in m.corpus_docs.items() if s not in refs}
    return Corpus(doc_ids=list(m.doc_ids), references=refs, systems=syss, source=m.source_docs,
                  seg_ids=m.seg_ids, boundaries="structured", files={s: path for s in m.corpus_docs})


ALIASES = {"system": ("system", "sys", "model"), "doc_id": ("doc_id", "doc", "document", "docid"),
           "seg_id": ("seg_id", "seg", "segment", "segid", "segment_id")}


def read_judgments(path, score_column: str | None = None, higher_is_better: bool = True) -> HumanScores:
    """A table (TSV, CSV) with system, doc_id, optional seg_id and a numeric score column."""
    lines = _rows(path)
    delim = "\t" if "\t" in lines[0] else ","
    try:
        rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delim))
    except csv.Error as exc:
        raise InputError(f"is not a valid table ({exc})", file=str(path), code=InputError.Codes.MALFORMED) from None
    if not rows or not any(h.strip() for h in rows[0]):
        raise InputError("should start with a header (system, doc_id, optional seg_id, a score column)",
                         file=str(path), line=1, code=InputError.Codes.MALFORMED)
    header = [h.strip() for h in rows[0]]
    low = [h.lower() for h in header]

    def find(key, required=True):
        for a in ALIASES[key]:
            if a in low:
                return low.index(a)
        if required:
            raise InputError(f"the header has no '{key}' column (found: {', '.join(header)}; a judgments table "
                             "needs system, doc_id, optional seg_id and a score column)", file=str(path), line=1, code=InputError.Codes.MALFORMED)
        return None

    ci_sys, ci_doc, ci_seg = find("system"), find("doc_id"), find("seg_id", required=False)
    used = {ci_sys, ci_doc, ci_seg}
    if score_column is not None:
        if score_column.lower() not in low:
            raise InputError(f"no score column '{score_column}' (found: {', '.join(header)})", file=str(path), line=1, code=InputError.Codes.MALFORMED)
        ci_score = low.index(score_column.lower())
    else:
        rest = [i for i in range(len(header)) if i not in used]
        if len(rest) != 1:
            what = f"cannot tell the score column among {', '.join(header[i] for i in rest) or 'none'}"
            raise InputError(f"{what}; name it (--score-column)", file=str(path), line=1, code=InputError.Codes.MALFORMED,
                             page=f"{what}; leave one score column besides system, doc_id and seg_id in the table")
        ci_score = rest[0]
    name = header[ci_score]
    hs = HumanScores(name, higher_is_better, kind=f"judgments table (score column {name})")
    seg_vals = defaultdict(list)
    doc_vals = defaultdict(lambda: defaultdict(list))
    seen: dict = {}  # (system, doc, seg) -> the line that gave it
    scale = scale_of(name, higher_is_better)
    for i, r in enumerate(rows[1:], start=2):
        if not any(x.strip() for x in r):
            continue
        if len(r) != len(header):
            raise InputError(f"has {len(r)} fields, expected {len(header)}", file=str(path), line=i, code=InputError.Codes.MALFORMED)
        v = check_scale(score_number(r[ci_score], str(path), i, f"score in column '{name}'"), scale, str(path), i,
                        f"score in column '{name}'", direction=True)
        s, d = r[ci_sys].strip(), r[ci_doc].strip()
        key = (s, d, r[ci_seg].strip() if ci_seg is not None else None)
        once(seen, key, i, str(path), f"system '{s}', document '{d}'" + (f", segment '{key[2]}'" if ci_seg is not None
                                                                        else ""),
             "" if ci_seg is not None else " (segment scores: add a seg_id column)")
        if ci_seg is not None:
            seg_vals[(s, d, r[ci_seg].strip())].append(v)
        doc_vals[s][d].append(v)
    for key, vs in seg_vals.items():
        hs.segments[key] = sum(vs) / len(vs)
    for s, docs in doc_vals.items():
        hs.doc_scores[s] = {d: sum(v) / len(v) for d, v in docs.items()}
        allv = [x for v in docs.values() for x in v]
        hs.system_scores[s] = sum(allv) / len(allv)
        hs.n_segments[s] = len(allv)
    if not hs.system_scores:
        raise InputError("has a header but no rows", file=str(path), code=InputError.Codes.EMPTY)
    return hs


def is_mqm(path) -> bool:
    """Does the file start with an MQM release's header (2020-21 or WMT22-24 layout)?"""
    text = decode_bytes(read_bytes(path), str(path))
    first = text.split("\n", 1)[0].rstrip("\r")
    return _mqm_header(first)[1] is not None
