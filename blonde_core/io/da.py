"""WMT direct-assessment (DA) and ESA segment-score tables.

WMT's release (e.g. ``ad-seg-scores-zh-en.csv``) is a whitespace-separated table
``SYS SID RAW.SCR Z.SCR N``: SYS is a system name with a ``.K`` suffix
(``JDExploreAcademy.6``), ``HUMAN-B`` the second human reference; SID the 1-based
line number of the segment in the test set; only some segments of each system are
rated.  Tab- and comma-separated tables with a score column named ``RAW.SCR``,
``Z.SCR``, ``score`` or ``esa`` are read alike.

A DA table names no documents, so it is bound to a loaded corpus: SID -> (document,
segment) by line number, and its system names -> the loaded names by a mapping that is
shown and can be corrected (``--map SYS=NAME``).  Missing is not zero: documents and
systems are scored over the segments that were rated, and the result says how many.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from .corpus import Corpus
from blonde_core.errors import InputError
from .judgments import HumanScores, aggregate_segments, check_scale, once, scale_of
from .readers import decode_bytes, read_bytes, score_number, split_lines

SCORE_COLUMNS = ("raw.scr", "z.scr", "score", "esa", "raw", "z")
SYSTEM_COLUMNS = ("sys", "system")
SID_COLUMNS = ("sid", "seg_id", "segid", "segment")
_SUFFIX = re.compile(r"\.\d+$")


@dataclass
class DaTable:
    name: str  # the score column
    path: str
    rows: list  # (system as written, sid (1-based int), score, file line)
    columns: list


def _fields(line: str, sep: str | None) -> list[str]:
    return [x.strip() for x in (line.split(sep) if sep else line.split())]


def _separator(header: str) -> str | None:
    if "\t" in header:
        return "\t"
    if "," in header:
        return ","
    return None  # runs of spaces


def is_da(path) -> bool:
    """A header with a system column and a SID column (WMT DA / ESA segment scores)."""
    text = decode_bytes(read_bytes(path), str(path))
    first = text.split("\n", 1)[0].rstrip("\r")
    low = [h.lower() for h in _fields(first, _separator(first)) if h]
    return any(c in low for c in SYSTEM_COLUMNS) and "sid" in low


def read_da(path, score_column: str | None = None) -> DaTable:
    name = str(path)
    lines = split_lines(decode_bytes(read_bytes(path), name))
    if not lines:
        raise InputError("is empty", file=name, code=InputError.Codes.EMPTY)
    sep = _separator(lines[0])
    header = [h for h in _fields(lines[0], sep) if h or sep]
    low = [h.lower() for h in header]

    def col(options, what):
        for o in options:
            if o in low:
                return low.index(o)
        raise InputError(f"the header has no {what} column (found: {', '.join(header)})", file=name, line=1, code=InputError.Codes.MALFORMED)

    ci_sys, ci_sid = col(SYSTEM_COLUMNS, "system (SYS)"), col(SID_COLUMNS, "segment id (SID)")
    if score_column:
        if score_column.lower() not in low:
            raise InputError(f"no score column '{score_column}' (found: {', '.join(header)})", file=name, line=1, code=InputError.Codes.MALFORMED)
        ci_score = low.index(score_column.lower())
    else:
        ci_score = col(SCORE_COLUMNS, "score (RAW.SCR, Z.SCR, score, esa)")
    rows = []
    seen: dict = {}  # (system as written, sid) -> the line that gave it
    scale = scale_of(header[ci_score])
    for i, line in enumerate(lines[1:], start=2):
        f = _fields(line, sep)
        if not any(f):
            continue
        if sep is None:
            f = [x for x in f if x]
        if len(f) <= max(ci_sys, ci_sid, ci_score):
            raise InputError(f"has {len(f)} fields, expected {len(header)}", file=name, line=i, code=InputError.Codes.MALFORMED)
        try:
            sid = int(f[ci_sid])
        except ValueError:
            raise InputError(f"segment id '{f[ci_sid]}' is not a line number", file=name, line=i, code=InputError.Codes.MALFORMED) from None
        what = f"score in column '{header[ci_score]}'"
        v = check_scale(score_number(f[ci_score], name, i, what), scale, name, i, what)
        once(seen, (f[ci_sys], sid), i, name, f"system '{f[ci_sys]}', segment id {sid}",
             " (a release gives one row per system and segment, its ratings averaged into it: N)")
        rows.append((f[ci_sys], sid, v, i))
    if not rows:
        raise InputError("has a header but no rows", file=name, code=InputError.Codes.EMPTY)
    return DaTable(header[ci_score], name, rows, header)


def guess_mapping(da_names, loaded: list[str], given: dict | None = None) -> dict:
    """{name in the DA file: loaded name or None}: the given pairs first, then the same name,
    the name without its ``.K`` suffix, case-insensitively, and ``HUMAN-X`` -> ``refX``."""
    given = dict(given or {})
    low = {n.lower(): n for n in loaded}
    out = {}
    for raw in sorted(set(da_names)):
        if raw in given:
            out[raw] = given[raw] if given[raw] in loaded else None
            continue
        base = _SUFFIX.sub("", raw)
        cand = [raw, base, low.get(raw.lower()), low.get(base.lower())]
        m = re.fullmatch(r"human-?(\w+)", base, re.I)
        if m:
            cand += [low.get(f"ref{m.group(1).lower()}"), low.get(f"ref-{m.group(1).lower()}")]
        out[raw] = next((c for c in cand if c in loaded), None)
    return out


def check_mapping(names: dict, file: str) -> None:
    """Two names of a judgments file mapped to one loaded text would merge two systems' judgments: refused."""
    seen: dict = {}
    for raw, name in sorted(names.items()):
        if name is not None and name in seen:
            raise InputError(f"'{seen[name]}' and '{raw}' are both mapped to the loaded text '{name}'; map one of "
                             "them to another text or leave it out", file=file, code=InputError.Codes.NAMES)
        seen.setdefault(name, raw)


def bind(table: DaTable, corpus: Corpus, mapping: dict | None = None, higher_is_better: bool = True):
    """HumanScores over the corpus: SID -> (document, segment id) by line number; names by
    guess_mapping (given pairs win).  ``.mapping`` and ``.coverage`` say what was done."""

    loaded = list(corpus.references) + list(corpus.systems)
    names = guess_mapping([r[0] for r in table.rows], loaded, mapping)
    check_mapping(names, table.path)
    where = corpus.segment_places()  # line number (1-based) - 1 -> (doc id, segment id, ...)
    hs = HumanScores(table.name, higher_is_better, kind=f"WMT DA / ESA segment scores (column {table.name})")
    vals = defaultdict(list)
    for raw, sid, v, line in table.rows:
        name = names.get(raw)
        if name is None:
            continue
        if not 1 <= sid <= len(where):
            raise InputError(f"segment id {sid} is outside the loaded test set (1-{len(where)} lines)",
                             file=table.path, line=line, code=InputError.Codes.COUNTS)
        d, seg = where[sid - 1][:2]
        vals[(name, d, seg)].append(v)
    if not vals:
        what = f"no system of the file matches a loaded text (file: {', '.join(sorted(names))}; loaded: {', '.join(loaded)})"
        raise InputError(f"{what}; map them with --map FILE_NAME=LOADED_NAME", file=table.path, code=InputError.Codes.NAMES,
                         page=f"{what}; name the uploaded system files after the file's systems (NAME.txt) and analyse again")
    aggregate_segments(hs, vals)
    hs.mapping = names
    hs.table = table
    hs.coverage = {s: {"segments_rated": hs.n_segments.get(s, 0), "segments": len(where)} for s in loaded
                   if s in hs.n_segments}
    return hs
