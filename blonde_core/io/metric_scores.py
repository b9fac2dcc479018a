"""Scores of metrics computed elsewhere (COMET, MetricX, BLEURT, xCOMET, a WMT
metrics-task submission): read, checked against the loaded texts, held per system at
the levels the files give.

Three ways in, one value out (`ExternalMetric`):

* the WMT / mt-metrics-eval layout's score files ``NAME.LEVEL.score`` (LEVEL one of
  sys, domain, doc, seg): a line ``SYSTEM SCORE`` per system (sys), per system and
  document in document order (doc), per system and segment in test-set order (seg),
  or ``DOMAIN SYSTEM SCORE`` (domain); ``None`` is a missing score;
* a table (TSV or CSV): a ``system`` column, optionally ``doc`` and / or ``seg``
  (a segment id: the 1-based line of the test set, or within its document when a
  ``doc`` column is there), and one numeric column per metric; no doc and no seg
  column: system-level scores;
* COMET's JSON output (``comet-score --to_json``: {file: [{src, mt, ref, COMET}]},
  or ``comet-compare``'s {"translations": [{name, scores}]}): segment scores.

Missing stays missing (NaN), never zero.  A file naming a system that is not loaded,
or giving another number of segments or documents than the loaded test set has, is
refused with a message naming both.  Every metric is taken as higher-is-better (the
mt-metrics-eval convention: MetricX and MQM-like scores are stored negated) unless
the caller says otherwise.

Segment scores aggregate as their mean (COMET's system score): a document's and a
resampled unit's score is sum / count of its rated segments, so intervals and tests
resample the same units as BlonDe's without re-reading anything.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import re
from dataclasses import dataclass, field

import numpy as np

from blonde_core.errors import InputError
from .corpus import Corpus
from .jsonsafe import loads
from .readers import decode_bytes, file_stem, read_bytes, score_number, split_lines

LEVELS = ("sys", "domain", "doc", "seg")
SCORE_FILE = re.compile(r"^(?P<name>.+)\.(?P<level>sys|domain|doc|seg)\.score$")
LEVEL_WORDS = {"seg": "segment", "doc": "document", "sys": "system", "domain": "domain"}


@dataclass
class ExternalMetric:
    """One metric's scores over a corpus: per segment (test-set order), per document
    (doc_ids order) and per system as the files gave them (NaN: missing)."""
    name: str
    n_segments: int
    doc_of: np.ndarray  # segment -> document index
    seg: dict = field(default_factory=dict)  # system -> (n_segments,)
    doc: dict = field(default_factory=dict)  # system -> (n_docs,)
    sys: dict = field(default_factory=dict)  # system -> float
    higher_is_better: bool = True
    files: list = field(default_factory=list)

    @property
    def n_docs(self) -> int:
        return int(self.doc_of.max()) + 1 if len(self.doc_of) else 0

    @property
    def level(self) -> str:
        """The finest level given: seg, doc or sys."""
        return "seg" if self.seg else "doc" if self.doc else "sys"

    @property
    def direction(self) -> str:
        return "higher is better" if self.higher_is_better else "lower is better"

    @property
    def oriented(self) -> tuple[float, str]:
        """(sign, name) that make it higher-is-better where metrics are compared with humans: a
        lower-is-better metric is negated and named with a minus, as "-TER"."""
        return (1.0, self.name) if self.higher_is_better else (-1.0, f"-{self.name}")

    @property
    def systems(self) -> list[str]:
        return list(dict.fromkeys([*self.seg, *self.doc, *self.sys]))

    def resamplable(self) -> bool:
        """Per-segment or per-document scores: intervals and tests are possible."""
        return bool(self.seg or self.doc)

    def score(self, system: str) -> float:
        """The system's score: as the file gave it, else the mean of its rated segments (COMET's
        system score), else of its documents; NaN without any."""
        if system in self.sys:
            return float(self.sys[system])
        st = self.unit_stats(system)
        if st is None:
            return float("nan")
        tot = st.sum(0)
        return float(tot[0] / tot[1]) if tot[1] else float("nan")

    def doc_scores(self, system: str) -> np.ndarray | None:
        """Per document: as given, else the mean of its rated segments (NaN: none rated)."""
        if system in self.doc:
            return self.doc[system]
        st = self.unit_stats(system)
        if st is None:
            return None
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(st[:, 1] > 0, st[:, 0] / np.maximum(st[:, 1], 1), np.nan)

    def unit_stats(self, system: str, groups: np.ndarray | None = None, n_units: int | None = None,
                   unit: str = "doc") -> np.ndarray | None:
        """(n_units, 2): [sum, count] of the rated values in each unit; groups maps segments to units
        (default: documents).  From segment scores when given; from document scores for document
        units only (a document then counts once)."""
        if system in self.seg:
            v = self.seg[system]
            g = self.doc_of if groups is None else groups
            n = self.n_docs if n_units is None else n_units
            ok = ~np.isnan(v)
            out = np.zeros((n, 2))
            np.add.at(out[:, 0], g[ok], v[ok])
            np.add.at(out[:, 1], g[ok], 1.0)
            return out
        if system in self.doc and (groups is None or unit == "doc"):
            v = self.doc[system]
            ok = ~np.isnan(v)
            return np.stack([np.where(ok, v, 0.0), ok.astype(float)], 1)
        return None

    def subset(self, keep: list[int]) -> "ExternalMetric | None":
        """The scores of the documents at these indices (a domain): segment and document scores kept,
        system scores then their mean (a system score a file gave covers the whole test set, so it is not
        kept); None when the metric has system scores only."""
        if not self.resamplable():
            return None
        keep = np.asarray(list(keep), dtype=int)
        new_index = np.full(self.n_docs, -1)
        new_index[keep] = np.arange(len(keep))
        mask = new_index[self.doc_of] >= 0
        return ExternalMetric(self.name, int(mask.sum()), new_index[self.doc_of[mask]],
                              seg={s: v[mask] for s, v in self.seg.items()},
                              doc={s: v[keep] for s, v in self.doc.items()}, sys={},
                              higher_is_better=self.higher_is_better, files=list(self.files))

    def fingerprint(self) -> str:
        h = hashlib.sha256(repr((self.name, self.higher_is_better, self.files)).encode())
        for part in (self.seg, self.doc):
            for s in sorted(part):
                h.update(s.encode() + b"\x00" + np.ascontiguousarray(part[s], dtype=float).tobytes())
        h.update(json.dumps({s: (None if math.isnan(v) else v) for s, v in sorted(self.sys.items())}).encode())
        return h.hexdigest()[:24]

    def describe(self) -> dict:
        """What was understood (the Data page, `score`'s JSON)."""
        levels = [lv for lv, part in (("seg", self.seg), ("doc", self.doc), ("sys", self.sys)) if part]
        return {"metric": self.name, "levels": levels, "systems": len(self.systems),
                "direction": self.direction,
                "files": list(self.files),
                "missing": {s: int(np.isnan(v).sum()) for s, v in self.seg.items() if np.isnan(v).any()}}


def _names_check(found: list[str], loaded: list[str], path: str) -> None:
    unknown = [s for s in found if s not in loaded]
    if unknown:
        raise InputError(f"names system '{unknown[0]}', which is not loaded (file: {', '.join(found)}; loaded: "
                         f"{', '.join(loaded)})", file=path, code=InputError.Codes.NAMES)


def _layout(corpus: Corpus) -> tuple[int, np.ndarray]:
    ref0 = next(iter(corpus.references.values()))
    lengths = [len(d) for d in ref0]
    return sum(lengths), np.repeat(np.arange(len(lengths)), lengths)


def _float(x: str, path: str, line: int) -> float:
    return score_number(x, path, line, "score", ("None", "", "NA", "nan", "NaN", "null"))


def parse_score_name(path) -> tuple[str, str]:
    """(NAME, LEVEL) of a WMT-layout score file NAME.LEVEL.score."""
    base = str(path).replace("\\", "/").rsplit("/", 1)[-1]
    m = SCORE_FILE.match(base)
    if not m:
        raise InputError("is not named NAME.LEVEL.score (LEVEL: sys, domain, doc or seg)", file=str(path),
                         code=InputError.Codes.MALFORMED)
    return m.group("name"), m.group("level")


def read_score_lines(path, level: str, corpus: Corpus, domains: list[str] | None = None, check=None) -> dict:
    """A WMT-layout score file: {system: values} in the level's order (seg: test-set lines, doc:
    documents, sys: one value), each checked against the corpus (NaN: None in the file); check(value, file,
    line), when given, sees every value as read (a human score's scale: io/judgments.py check_scale)."""
    name = str(path)
    lines = split_lines(decode_bytes(read_bytes(path), name))
    per: dict = {}
    where: dict = {}
    for k, line in enumerate(lines, 1):
        if not line.strip():
            continue
        parts = line.split()
        if level == "domain":
            if len(parts) != 3:
                raise InputError(f"expected 'DOMAIN SYSTEM SCORE', found {len(parts)} fields", file=name, line=k,
                                 code=InputError.Codes.MALFORMED)
            dom, s, v = parts
            if domains is not None and dom not in domains:
                raise InputError(f"names domain '{dom}', not among the documents' domains ({', '.join(domains)})",
                                 file=name, line=k, code=InputError.Codes.NAMES)
            if dom in per.get(s, {}):
                raise InputError(f"system '{s}', domain '{dom}' appears again; one row each, never merged",
                                 file=name, line=k, code=InputError.Codes.MALFORMED)
            per.setdefault(s, {})[dom] = _float(v, name, k)
            if check is not None:
                check(per[s][dom], name, k)
            continue
        if len(parts) != 2:
            raise InputError(f"expected 'SYSTEM SCORE', found {len(parts)} fields", file=name, line=k,
                             code=InputError.Codes.MALFORMED)
        per.setdefault(parts[0], []).append(_float(parts[1], name, k))
        where.setdefault(parts[0], k)
        if check is not None:
            check(per[parts[0]][-1], name, k)
    if not per:
        raise InputError("has no scores", file=name, code=InputError.Codes.EMPTY)
    n_seg, doc_of = _layout(corpus)
    skip = corpus.line_offset
    if level == "seg" and skip and all(len(v) == n_seg + skip for v in per.values()):
        per = {s: v[skip:] for s, v in per.items()}  # the lines left out of the texts (a WMT canary) too
    want = {"seg": n_seg, "doc": len(corpus.doc_ids), "sys": 1}.get(level)
    if want is not None:
        for s, vals in per.items():
            if len(vals) != want:
                what = {"seg": "segments", "doc": "documents", "sys": "scores"}[level]
                raise InputError(f"has {len(vals)} {LEVEL_WORDS[level]}-level scores for '{s}' but the loaded test "
                                 f"set has {want} {what}", file=name, line=where[s], code=InputError.Codes.COUNTS)
    return per


def _loaded(corpus: Corpus) -> list[str]:
    return [*corpus.references, *corpus.systems]


def metric_from_score_files(name: str, files: dict, corpus: Corpus, higher_is_better: bool = True) -> ExternalMetric:
    """One metric from its WMT-layout files {level: path} (seg / doc / sys; domain is read and checked, not
    used: the documents' own scores carry more)."""
    n_seg, doc_of = _layout(corpus)
    m = ExternalMetric(name, n_seg, doc_of, higher_is_better=higher_is_better)
    loaded = _loaded(corpus)
    for level, path in files.items():
        per = read_score_lines(path, level, corpus)
        _names_check(list(per), loaded, str(path))
        m.files.append(str(path))
        if level == "seg":
            m.seg = {s: np.asarray(v, float) for s, v in per.items()}
        elif level == "doc":
            m.doc = {s: np.asarray(v, float) for s, v in per.items()}
        elif level == "sys":
            m.sys = {s: float(v[0]) for s, v in per.items()}
    return m


def read_score_file(path, corpus: Corpus, higher_is_better: bool = True) -> ExternalMetric:
    name, level = parse_score_name(path)
    return metric_from_score_files(name, {level: path}, corpus, higher_is_better)


def _segment_index(corpus: Corpus) -> dict:
    """document id -> (position of its first segment, {segment id: position}, its segment count)."""
    pos, out = 0, {}
    ref0 = next(iter(corpus.references.values()))
    for di, (d, doc) in enumerate(zip(corpus.doc_ids, ref0)):
        ids = list(corpus.seg_ids[di]) if corpus.seg_ids else [str(k + 1) for k in range(len(doc))]
        out[d] = (pos, {str(x): pos + k for k, x in enumerate(ids)}, len(doc))
        pos += len(doc)
    return out


def read_metric_table(path, corpus: Corpus, lower_is_better=()) -> dict:
    """A TSV / CSV of metric scores: system, [doc], [seg], one column per metric -> {name: ExternalMetric}."""
    from .readers import DOC_ALIASES, SEG_ALIASES, SYS_ALIASES

    name = str(path)
    text = decode_bytes(read_bytes(path), name)
    lines = split_lines(text)
    if not any(x.strip() for x in lines):  # nothing, or blank lines only
        raise InputError("is empty", file=name, code=InputError.Codes.EMPTY)
    sep = "\t" if "\t" in lines[0] else ","
    rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=sep))
    header = [h.strip() for h in rows[0]]
    low = [h.lower() for h in header]

    def pick(aliases):
        return next((low.index(a) for a in aliases if a in low), None)

    si, di, gi = pick(SYS_ALIASES), pick(DOC_ALIASES), pick(SEG_ALIASES + ("sid",))
    if si is None:
        raise InputError(f"has no system column (one of {', '.join(SYS_ALIASES)}) in its header", file=name, line=1,
                         code=InputError.Codes.MALFORMED)
    cols = [i for i in range(len(header)) if i not in (si, di, gi) and header[i]]
    if not cols:
        raise InputError("has no metric column besides system / doc / seg", file=name, line=1,
                         code=InputError.Codes.MALFORMED)
    n_seg, doc_of = _layout(corpus)
    index = _segment_index(corpus)
    doc_pos = {d: i for i, d in enumerate(corpus.doc_ids)}
    level = "seg" if gi is not None else "doc" if di is not None else "sys"
    size = {"seg": n_seg, "doc": len(doc_pos), "sys": 1}[level]
    loaded = _loaded(corpus)
    vals: dict = {c: {} for c in cols}
    found: list = []
    seen: dict = {}  # (system, position) -> the line that gave it
    for k, row in enumerate(rows[1:], 2):
        if not any(x.strip() for x in row):
            continue
        if len(row) != len(header):
            raise InputError(f"has {len(row)} fields, the header has {len(header)}", file=name, line=k,
                             code=InputError.Codes.MALFORMED)
        s = row[si].strip()
        if s not in found:
            found.append(s)
        if s not in loaded:
            _names_check(found, loaded, name)
        if level == "seg":
            seg = row[gi].strip()
            if di is not None:
                d = row[di].strip()
                if d not in index:
                    raise InputError(f"document '{d}' is not among the loaded documents", file=name, line=k,
                                     code=InputError.Codes.NAMES)
                at = index[d][1].get(seg)
                if at is None:
                    raise InputError(f"segment '{seg}' is not a segment of document '{d}' (it has {index[d][2]})",
                                     file=name, line=k, code=InputError.Codes.COUNTS)
            else:
                if not seg.isdigit() or not 1 <= int(seg) <= n_seg:
                    raise InputError(f"segment '{seg}' is not a line of the loaded test set (1-{n_seg})", file=name,
                                     line=k, code=InputError.Codes.COUNTS)
                at = int(seg) - 1
        elif level == "doc":
            d = row[di].strip()
            if d not in doc_pos:
                raise InputError(f"document '{d}' is not among the loaded documents", file=name, line=k,
                                 code=InputError.Codes.NAMES)
            at = doc_pos[d]
        else:
            at = 0
        first = seen.setdefault((s, at), k)
        if first != k:
            if level == "seg":
                where = f"segment '{row[gi].strip()}'" + (f" of document '{row[di].strip()}'" if di is not None else "")
            else:
                where = f"document '{row[di].strip()}'" if level == "doc" else "the system level"
            raise InputError(f"system '{s}', {where} appears again (first on line {first}); one row each, never "
                             "merged", file=name, line=k, code=InputError.Codes.MALFORMED)
        for c in cols:
            arr = vals[c].setdefault(s, np.full(size, np.nan))
            arr[at] = _float(row[c].strip(), name, k)
    out = {}
    for c in cols:
        m = ExternalMetric(header[c], n_seg, doc_of, higher_is_better=header[c] not in lower_is_better, files=[name])
        if level == "seg":
            m.seg = vals[c]
        elif level == "doc":
            m.doc = vals[c]
        else:
            m.sys = {s: float(v[0]) for s, v in vals[c].items()}
        out[m.name] = m
    return out


def read_comet_json(path, corpus: Corpus, lower_is_better=()) -> dict:
    """COMET's JSON: `comet-score --to_json` ({system file: [{src, mt, ref, COMET, ...}]}) or
    `comet-compare --to_json` ({"translations": [{name, scores}]}); systems named by their file stem."""
    name = str(path)
    def constant(c):
        raise InputError(f"holds {c}, which is no score (JSON has no such number)", file=name,
                         code=InputError.Codes.MALFORMED)

    def number(v, where: str) -> float:
        if v is None:
            return float("nan")
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise InputError(f"{where}: {json.dumps(v)[:40]} is not a number (a score or null)", file=name,
                             code=InputError.Codes.MALFORMED)
        return score_number(repr(v), name, None, where)

    data = loads(decode_bytes(read_bytes(path), name), name, constant=constant)
    n_seg, doc_of = _layout(corpus)
    per: dict = {}  # metric -> system -> values
    if isinstance(data, dict) and isinstance(data.get("translations"), list):
        for t in data["translations"]:
            if not isinstance(t, dict) or "scores" not in t:
                raise InputError("a 'translations' entry without 'scores'", file=name, code=InputError.Codes.MALFORMED)
            if not isinstance(t["scores"], list):
                raise InputError("a 'translations' entry whose 'scores' is not a list", file=name,
                                 code=InputError.Codes.MALFORMED)
            stem = file_stem(str(t.get("name", "")))
            if stem in per.get("COMET", {}):
                raise InputError(f"'translations' holds '{stem}' twice; one entry each, never merged", file=name,
                                 code=InputError.Codes.MALFORMED)
            per.setdefault("COMET", {})[stem] = [number(v, f"score {i + 1} of '{stem}'")
                                                 for i, v in enumerate(t["scores"])]
    elif isinstance(data, dict) and data and all(isinstance(v, list) for v in data.values()):
        stems: dict = {}
        for f, segs in data.items():
            s = file_stem(f)
            if stems.setdefault(s, f) != f:
                raise InputError(f"'{stems[s]}' and '{f}' are both system '{s}'; one file each, never merged",
                                 file=name, code=InputError.Codes.MALFORMED)
            for i, seg in enumerate(segs):
                if not isinstance(seg, dict):
                    raise InputError(f"segment {i + 1} of '{f}' is not an object", file=name,
                                     code=InputError.Codes.MALFORMED)
                for k, v in seg.items():
                    if k in ("src", "mt", "ref", "errors", "mcd_scores") or isinstance(v, (str, list, dict, bool)):
                        continue  # texts and details beside the scores
                    per.setdefault(k, {}).setdefault(s, [float("nan")] * len(segs))[i] = \
                        number(v, f"'{k}' of segment {i + 1} of '{f}'")
    else:
        raise InputError("is not COMET's JSON output ({file: [{src, mt, ref, COMET}]} or {\"translations\": "
                         "[...]})", file=name, code=InputError.Codes.MALFORMED)
    if not per:
        raise InputError("has no numeric score per segment", file=name, code=InputError.Codes.EMPTY)
    out = {}
    for metric, systems in per.items():
        _names_check(list(systems), _loaded(corpus), name)
        for s, vals in systems.items():
            if len(vals) != n_seg:
                raise InputError(f"has {len(vals)} segment scores for '{s}' but the loaded test set has {n_seg} "
                                 "segments", file=name, code=InputError.Codes.COUNTS)
        out[metric] = ExternalMetric(metric, n_seg, doc_of, seg={s: np.asarray(v, float) for s, v in systems.items()},
                                     higher_is_better=metric not in lower_is_better, files=[name])
    return out


def merge(*groups: dict) -> dict:
    """Metrics from several files; the same name twice is an error naming both files."""
    out: dict = {}
    for g in groups:
        for k, m in g.items():
            if k in out:
                raise InputError(f"metric '{k}' is given twice ({out[k].files[0]} and {m.files[0]}); rename a column "
                                 "or leave one file out", file=m.files[0], code=InputError.Codes.NAMES)
            out[k] = m
    return out
