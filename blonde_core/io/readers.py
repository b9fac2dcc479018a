"""Readers: files researchers bring -> `Corpus`.  Every problem is an `InputError`
naming the file, the line and what was expected.  Nothing is modified or written."""
from __future__ import annotations

import codecs
import contextlib
import contextvars
import math
import os
import re
from pathlib import Path

from .corpus import Corpus, lone_cr_note
from blonde_core.errors import InputError


_LIMITS: contextvars.ContextVar = contextvars.ContextVar("blonde_reading_limits", default=None)


@contextlib.contextmanager
def reading_limits(max_line_chars: int | None = None, max_segments: int | None = None, max_bytes: int | None = None):
    """While reading inside this block, every file is refused as soon as it is seen to pass a server's limits
    per upload - its bytes (max_bytes), its lines (a file of more lines than max_segments cannot fit), before
    it is split or parsed - instead of after the whole upload is read and split (a 1,000,000-line file took
    the server 50 s and 2 GB before).  Per thread and task (a contextvar): one session's limits never touch
    another's."""
    token = _LIMITS.set({"line": max_line_chars, "segments": max_segments, "bytes": max_bytes})
    try:
        yield
    finally:
        _LIMITS.reset(token)


def reading_limit(kind: str) -> int | None:
    """The limit of this kind ("line", "segments", "bytes") in force, or None."""
    lim = _LIMITS.get()
    return lim.get(kind) if lim else None


def _check_size(data: bytes, name: str) -> None:
    cap, segs = reading_limit("bytes"), reading_limit("segments")
    if cap and len(data) > cap:
        raise InputError(f"has {len(data):,} bytes; this server reads at most {cap:,} per file", file=name,
                         code=InputError.Codes.TOO_MUCH)
    if segs and not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # UTF-8: the byte is a newline
        lines = data.count(b"\n")
        # a plain text holds at most half the upload's segments (a reference and a system at least), with a blank
        # line between one-segment documents at most as many lines; a structured file at most all (plus a header)
        if lines > segs + 1:
            raise InputError(f"has {lines:,} lines or more; this server takes at most {segs:,} segments per upload",
                             file=name, code=InputError.Codes.TOO_MUCH)


def decode_bytes(data: bytes, name: str) -> str:
    """UTF-8 (with or without BOM) or UTF-16 with BOM; anything else is an error."""
    _check_size(data, name)
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # before UTF-16: its BOM starts the same
        raise InputError("is UTF-32 text; save it as UTF-8 (or UTF-16 with a byte-order mark)", file=name,
                         code=InputError.Codes.UNREADABLE)
    if data.startswith(codecs.BOM_UTF8):
        data, enc = data[3:], "utf-8"
    elif data.startswith(codecs.BOM_UTF16_LE) or data.startswith(codecs.BOM_UTF16_BE):
        enc = "utf-16"
    else:
        enc = "utf-8"
        head = data[:4096]
        if b"\x00" in head and len(head) >= 4:
            # ASCII-heavy UTF-16 without a byte-order mark: NULs in every other byte
            odd, even = head[1::2].count(0), head[0::2].count(0)
            half = len(head) // 2
            if max(odd, even) >= 0.6 * half and min(odd, even) <= 0.1 * half:
                order = "little" if odd > even else "big"
                raise InputError(f"looks like UTF-16 ({order}-endian) without a byte-order mark; save it as UTF-8, "
                                 "or as UTF-16 with a byte-order mark", file=name, code=InputError.Codes.UNREADABLE)
    try:
        text = data.decode(enc)
    except UnicodeDecodeError as exc:
        before = data[:exc.start]  # the line of the bad byte (UTF-16: counted in its own code units)
        line = (before.decode(enc, "replace").count("\n") if enc == "utf-16" else before.count(b"\n")) + 1
        raise InputError(f"not valid {enc.upper()} text: byte 0x{data[exc.start]:02x} at byte offset {exc.start} "
                         "(expected UTF-8, or UTF-16 with a byte-order mark; a file saved as Latin-1 or Windows-1252 "
                         "needs saving again as UTF-8)", file=name, line=line, code=InputError.Codes.UNREADABLE) from None
    if "\x00" in text:
        at = text.index(chr(0))
        raise InputError(f"looks like a binary file (NUL character at offset {at})", file=name,
                         line=text.count("\n", 0, at) + 1, code=InputError.Codes.UNREADABLE)
    if enc == "utf-16" and text.startswith("\ufeff"):
        text = text[1:]
    return text


class Lines(list):
    """A file's lines, and the lines (1-based, as an editor counts them by LF) that a carriage return alone split
    in two (`lone_cr`): in a file whose lines end in LF or CRLF a lone CR is a stray character (pasted from a
    spreadsheet cell), yet it ends a line as Python's text mode reads it - said wherever a line count then
    differs, instead of blaming the count alone."""
    lone_cr: tuple | list = ()


def split_lines(text: str) -> Lines:
    """Lines as Python's text mode reads them (LF, CRLF or CR), without terminators."""
    text = text.replace("\r\n", "\n")
    crs = []
    if "\r" in text and "\n" in text:  # a file of LF lines with CRs alone inside some (a file of CR lines: none)
        crs = [i for i, x in enumerate(text.split("\n"), 1) if "\r" in x.rstrip("\r")]
    lines = Lines(text.replace("\r", "\n").split("\n"))
    if lines and lines[-1] == "":
        lines.pop()
    lines.lone_cr = crs
    return lines


MAX_SCORE = 1e12  # no score or judgment is this large; sums and squares of larger ones overflow to infinity


def score_number(x: str, file: str, line: int | None, what: str = "score", missing=()) -> float:
    """A score read from a file: a finite number of magnitude below MAX_SCORE (NaN for a `missing` marker);
    anything else an InputError naming the file, line and value."""
    x = x.strip()
    if x in missing:
        return float("nan")
    try:
        v = float(x)
    except (ValueError, OverflowError):
        raise InputError(f"{what} '{x[:40]}' is not a number" + (" (or None for a missing score)" if missing else ""),
                         file=file, line=line, code=InputError.Codes.MALFORMED) from None
    if not math.isfinite(v) or abs(v) >= MAX_SCORE:
        raise InputError(f"{what} '{x[:40]}' is not a finite number below {MAX_SCORE:g} in magnitude (larger ones "
                         "overflow when summed)", file=file, line=line, code=InputError.Codes.MALFORMED)
    return v


class NamedBytes:
    """An uploaded file: its name and its bytes (never written to disk).
    Every reader accepts one wherever it accepts a path."""

    def __init__(self, name: str, data: bytes):
        self.name, self.data = name, bytes(data)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"NamedBytes({self.name!r}, {len(self.data)} bytes)"


def file_stem(path) -> str:
    """A file's name without its last extension.  An upload's name is kept whole
    (it may contain '/', '<' or any other character); a path on disk loses its folders."""
    name = path.name if isinstance(path, NamedBytes) else Path(str(path)).name
    i = name.rfind(".")
    return name[:i] if i > 0 else name


def read_bytes(path) -> bytes:
    if isinstance(path, NamedBytes):
        return path.data
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", file=str(path), code=InputError.Codes.UNREADABLE)
    if p.is_dir():
        raise InputError("is a directory, expected a file", file=str(path), code=InputError.Codes.UNREADABLE)
    try:
        return p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", file=str(path), code=InputError.Codes.UNREADABLE) from None


DOCIDS_SUFFIXES = (".docids.txt", ".txt.docids", ".docids", ".doc_ids.txt", ".doc_ids", ".docid")


def docids_owner(name: str) -> str | None:
    """The system a document-id file belongs to by its name - GPT-4.docids, GPT-4.docids.txt, GPT-4.txt.docids,
    GPT-4.doc_ids(.txt) or GPT-4.docid all belong to GPT-4 (the output GPT-4.txt) - or None when the name follows
    none of these conventions."""
    base = Path(str(name)).name if not isinstance(name, NamedBytes) else name.name
    low = base.lower()
    for suffix in DOCIDS_SUFFIXES:
        if low.endswith(suffix) and len(base) > len(suffix):
            return base[:-len(suffix)]
    return None


def read_lines(path: str | os.PathLike, allow_empty: bool = False) -> list[str]:
    lines = split_lines(decode_bytes(read_bytes(path), str(path)))
    if not lines and not allow_empty:
        raise InputError("is empty, expected one segment per line", file=str(path), code=InputError.Codes.EMPTY)
    return lines


def group_by_docids(lines: list[str], doc_ids: list[str], name: str, docids_name: str):
    if len(lines) != len(doc_ids):
        raise InputError(f"has {len(lines)} lines but the document-id file {docids_name} has "
                         f"{len(doc_ids)}; they must have one line per segment"
                         f"{lone_cr_note(getattr(lines, 'lone_cr', None))}", file=name, code=InputError.Codes.COUNTS)
    docs, order = [], []
    for line, d in zip(lines, doc_ids):
        if not order or order[-1] != d:
            order.append(d)
            docs.append([])
        docs[-1].append(line)
    return order, docs


def read_docids(path) -> list[str]:
    ids = read_lines(path)
    for i, d in enumerate(ids, 1):
        if not d.strip():
            raise InputError("empty document id; expected one id per line", file=str(path), line=i, code=InputError.Codes.MALFORMED)
    ids = [d.strip() for d in ids]
    seen, prev = set(), None
    for i, d in enumerate(ids, 1):
        if d != prev and d in seen:
            raise InputError(f"document '{d}' appears again after other documents; "
                             "a document's segments must be consecutive", file=str(path), line=i, code=InputError.Codes.MALFORMED)
        seen.add(d)
        prev = d
    return ids


def split_blank_lines(lines: list[str]) -> list[list[str]]:
    docs, cur = [], []
    for line in lines:
        if line.strip() == "":
            if cur:
                docs.append(cur)
                cur = []
        else:
            cur.append(line)
    if cur:
        docs.append(cur)
    return docs


def plain_corpus(references: list, systems: list, docids=None, source=None,
                 boundaries: str | None = None, system_docids: list | None = None) -> Corpus:
    """Plain-text files, one segment per line.

    Documents come from a doc-ids file, else from blank lines when
    boundaries == "blank-lines", else the whole file is one document.
    A file's name (stem) is its system or reference name.  system_docids: one document-id
    file per system (in the order of systems), so that a system whose sentences do not line
    up with the reference's brings its own documents; they are matched to the reference's by id
    (a document the system lacks is empty, and named in `missing_documents`; one the reference
    lacks is refused).
    """
    if not references:
        raise InputError("at least one reference file is needed (-r)", code=InputError.Codes.OPTIONS,
                         page="upload at least one reference")
    names: dict[str, tuple[str, str]] = {}  # name -> (role, file)

    def name_of(path, role):
        stem = file_stem(path)
        if stem in names:
            other_role, other = names[stem]
            raise InputError(f"{other_role} {other} and {role} {path} are both named '{stem}'; a name is a "
                             "system's identity: rename one", file=str(path), code=InputError.Codes.NAMES)
        names[stem] = (role, str(path))
        return stem

    if docids is not None:
        ids = read_docids(docids)
        mode = "docids"
    else:
        ids = None
        mode = boundaries or "single"

    crs: dict = {}  # file -> the lines a lone carriage return split (Lines.lone_cr)

    def read(path):
        lines = read_lines(path)
        if lines.lone_cr:
            crs[str(path)] = lines.lone_cr
        if mode == "docids":
            return group_by_docids(lines, ids, str(path), str(docids))
        if mode == "blank-lines":
            docs = split_blank_lines(lines)
            return [f"doc{i + 1}" for i in range(len(docs))], docs
        return ["doc1"], [lines]

    own = {}
    if system_docids:
        if docids is None:
            raise InputError("document-id files per system need the reference's own (--docids)",
                             code=InputError.Codes.OPTIONS, page="upload the reference's document ids too")
        if len(system_docids) != len(systems or []):
            raise InputError(f"{len(system_docids)} document-id file(s) for {len(systems or [])} system(s): give one "
                             "per system, in the same order ('-' for a system that lines up with the reference "
                             "and takes --docids)", code=InputError.Codes.OPTIONS,
                             page=f"{len(system_docids)} document-id file(s) for {len(systems or [])} system(s)")
        # system index -> its document-id file; None (or "-" on the command line): the reference's document ids
        own = {k: f for k, f in enumerate(system_docids) if f is not None and str(f) != "-"}
    refs, syss, files = {}, {}, {}
    missing: dict = {}
    own_files: dict = {}  # system -> its document-id file
    doc_order = None
    for role, paths, group in (("reference", references, refs), ("system", systems or [], syss)):
        for k, p in enumerate(paths):
            n = name_of(p, role)
            if role == "system" and k in own:  # this system's own documents, put in the reference's order by id
                dfile = own[k]
                sys_order, sys_docs = group_by_docids(read_lines(p), read_docids(dfile), str(p), str(dfile))
                by_id = dict(zip(sys_order, sys_docs))
                known = set(doc_order)
                extra = [d for d in sys_order if d not in known]
                if extra:
                    raise InputError(f"has document '{extra[0]}', which the reference has not (its documents: "
                                     f"{', '.join(doc_order[:3])}{', ...' if len(doc_order) > 3 else ''})",
                                     file=str(dfile), code=InputError.Codes.COUNTS)
                gone = [d for d in doc_order if d not in by_id]
                if gone:
                    missing[n] = gone
                group[n] = [by_id.get(d, []) for d in doc_order]
                files[n] = str(p)
                own_files[n] = str(dfile)
                continue
            try:
                order, docs = read(p)
            except InputError as exc:
                if role != "system" or exc.code != InputError.Codes.COUNTS:
                    raise
                raise InputError(
                    f"{exc.problem}. If this system joined or split sentences (an LLM's output often does), give it "
                    "its own document ids (--system-docids FILE, one id per line of this file) or blank lines between "
                    "its documents (--blank-line-docs), and add --resegment: it is then cut into the reference's "
                    "segments", file=str(p), code=InputError.Codes.COUNTS,
                    page=f"{exc.problem}. If this system joined or split sentences (an LLM's output often does), "
                         f"upload its own document ids named after it ({n}.docids or {n}.docids.txt, one id per line "
                         "of this file) under 'Systems' own document-id files', or use blank lines between its "
                         "documents, and tick 'Re-segment systems whose sentences do not line up with the "
                         "reference': it is then cut into the reference's segments") from None
            if doc_order is None:
                doc_order = order
            elif mode == "blank-lines" and len(order) != len(doc_order):
                raise InputError(f"has {len(order)} documents (blank-line separated) but "
                                 f"{references[0]} has {len(doc_order)}{lone_cr_note(crs.get(str(p)))}", file=str(p),
                                 code=InputError.Codes.COUNTS)
            group[n] = docs
            files[n] = str(p)
    src = None
    if source is not None:
        _, src = read(source)
    return Corpus(doc_ids=list(doc_order), references=refs, systems=syss, source=src,
                  boundaries=mode, files=files, docids_file=None if docids is None else str(docids),
                  system_docids=own_files, missing_documents=missing,
                  lone_cr={n: crs[f] for n, f in files.items() if f in crs})


def attach_source(corpus: Corpus, path) -> None:
    """Give a plain corpus its source text: one line per reference segment, split into the
    reference's documents; with blank-line boundaries the source may mark its documents with
    blank lines too, and then each of its documents must have the reference's segment count."""
    lines = read_lines(path)
    ref = next(iter(corpus.references.values()))
    sizes = [len(d) for d in ref]
    if len(lines) == sum(sizes):
        it = iter(lines)
        corpus.source = [[next(it) for _ in range(n)] for n in sizes]
        return
    if corpus.boundaries == "blank-lines":
        docs = split_blank_lines(lines)
        if [len(d) for d in docs] == sizes:
            corpus.source = docs
            return
        if len(docs) != len(sizes):
            raise InputError(f"has {len(docs)} documents (blank-line separated) but the reference has "
                             f"{len(sizes)}", file=str(path), code=InputError.Codes.COUNTS)
        k = next(i for i, (a, b) in enumerate(zip(docs, sizes)) if len(a) != b)
        raise InputError(f"document {k + 1} has {len(docs[k])} segments but the reference's has {sizes[k]}",
                         file=str(path), code=InputError.Codes.COUNTS)
    raise InputError(f"has {len(lines)} lines but the reference has {sum(sizes)} segments"
                     f"{lone_cr_note(lines.lone_cr)}", file=str(path), code=InputError.Codes.COUNTS)


# --- structured files: tables, JSON Lines, WMT XML ------------------------------

TEXT_ALIASES = ("text", "hyp", "hypothesis", "target", "translation", "output", "mt")
DOC_ALIASES = ("doc_id", "doc", "document", "docid", "document_id")
SEG_ALIASES = ("seg_id", "seg", "segment", "segid", "segment_id", "line")
SYS_ALIASES = ("system", "sys", "model", "system_name")
SRC_ALIASES = ("source", "src")


def _is_ref_column(name: str) -> bool:
    """ref, reference, ref_B, reference-2, refB ... (but not 'refinement')."""
    if name.lower() in ("ref", "reference"):
        return True
    return bool(re.match(r"^(ref|reference)[_-]", name, re.IGNORECASE) or re.match(r"^ref[A-Z0-9]", name))


def _pick(header_low: list[str], aliases) -> int | None:
    for a in aliases:
        if a in header_low:
            return header_low.index(a)
    return None


def _records_to_corpus(records, path: str, reference_systems, stem: str) -> Corpus:
    """records: list of (row number, dict with keys system, doc, seg, text, refs{}, src)."""
    docs_order: list[str] = []
    seg_order: dict[str, list] = {}
    seg_seen: dict[str, set] = {}  # the same, for membership in constant time
    texts: dict[str, dict] = {}  # system -> {(doc, seg): text}
    refs: dict[str, dict] = {}
    src: dict = {}
    first_row: dict = {}
    for row, r in records:
        doc, seg = r["doc"], r["seg"]
        if doc not in seg_order:
            docs_order.append(doc)
            seg_order[doc] = []
            seg_seen[doc] = set()
        if seg not in seg_seen[doc]:
            seg_seen[doc].add(seg)
            seg_order[doc].append(seg)
        if r.get("text") is not None:
            sysname = r.get("system") or stem
            store = texts.setdefault(sysname, {})
            if (doc, seg) in store:
                raise InputError(f"segment '{seg}' of document '{doc}' appears twice for system '{sysname}' "
                                 f"(first on row {first_row[(sysname, doc, seg)]})", file=path, line=row, code=InputError.Codes.NAMES)
            store[(doc, seg)] = r["text"]
            first_row[(sysname, doc, seg)] = row
        for rname, rtext in r.get("refs", {}).items():
            refs.setdefault(rname, {}).setdefault((doc, seg), rtext)
        if r.get("src") is not None:
            src.setdefault((doc, seg), r["src"])
    if not docs_order:
        raise InputError("has no segments", file=path, code=InputError.Codes.EMPTY)
    # segment order: numeric seg ids sort numerically, others keep file order
    for d, segs in seg_order.items():
        if all(str(s).strip().lstrip("-").isdigit() for s in segs):
            segs.sort(key=lambda s: int(s))
    for name in reference_systems:
        if name not in texts:
            raise InputError(f"reference system '{name}' is not in the file (systems: {', '.join(texts) or 'none'})",
                             file=path, code=InputError.Codes.NAMES)
        refs[name] = texts.pop(name)

    def seg_key(s):
        return (0, int(s), "") if str(s).strip().lstrip("-").isdigit() else (1, 0, str(s))

    def docs_of(name, store, role):
        """A text's own segments per document, in segment order.  Systems may split or
        merge segments (document-level matching scores them); sentence-level matching
        checks the counts later (Corpus.check) and says which document differs."""
        mine: dict = {}
        for (d, sg) in store:
            mine.setdefault(d, []).append(sg)
        out = []
        for d in docs_order:
            if d not in mine:
                raise InputError(f"{role} '{name}' has no segment of document '{d}'", file=path, code=InputError.Codes.COUNTS)
            segs = mine[d]
            if all(str(x).strip().lstrip("-").isdigit() for x in segs):
                segs = sorted(segs, key=seg_key)
            else:  # file order
                mine_set = set(segs)
                segs = [x for x in seg_order[d] if x in mine_set]
            out.append([store[(d, sg)] for sg in segs])
        return out

    if refs:
        first = next(iter(refs.values()))
        ref_segs = {d: [sg for sg in seg_order[d] if (d, sg) in first] for d in docs_order}
    else:
        ref_segs = seg_order
    gaps = _check_segment_ids(refs, texts, ref_segs, first_row, path) \
        if refs and any(r.get("ids_given") for _, r in records) else {}
    refs_docs = {n: docs_of(n, st, "reference") for n, st in refs.items()}
    sys_docs = {n: docs_of(n, st, "system") for n, st in texts.items()}
    source = [[src.get((d, sg), "") for sg in ref_segs[d]] for d in docs_order] if src else None
    return Corpus(doc_ids=docs_order, references=refs_docs, systems=sys_docs, source=source,
                  seg_ids=[list(map(str, ref_segs[d])) for d in docs_order], boundaries="structured",
                  files={n: path for n in list(refs_docs) + list(sys_docs)}, segment_gaps=gaps)


def _check_segment_ids(refs: dict, texts: dict, ref_segs: dict, first_row: dict, path: str) -> dict:
    """Rows that carry segment ids are paired with the first reference's by id, never by position.  A text
    whose document has as many segments as the reference's but other ids (1, 2, 3, 5 against 1-4) would be
    paired by position: refused, naming the row of the first id the reference lacks.  A text with another
    number of segments in a document is its own cut (merged or split sentences: document-level matching and
    re-segmentation score it); its missing and extra ids are returned, {text: {document: (missing, extra)}},
    for sentence-level matching to name (Corpus.check)."""
    ref_name = next(iter(refs))
    gaps: dict = {}
    for role, group in (("reference", refs), ("system", texts)):
        for name, store in group.items():
            if name == ref_name:
                continue
            own: dict = {}
            for (d, sg) in store:
                own.setdefault(d, []).append(sg)
            for d, have in own.items():
                want = ref_segs.get(d, [])
                want_set, have_set = set(want), set(have)
                if want_set == have_set or not want:
                    continue
                extra = [x for x in have if x not in want_set]
                lack = [x for x in want if x not in have_set]
                if len(have) != len(want):
                    gaps.setdefault(name, {})[d] = (lack, extra)
                    continue
                shown = ", ".join(map(str, want[:6])) + (", ..." if len(want) > 6 else "")
                raise InputError(f"{role} '{name}' has segment '{extra[0]}' of document '{d}', which reference "
                                 f"'{ref_name}' has not (its segments: {shown}), and lacks its segment '{lack[0]}'"
                                 + (f" ({len(extra)} ids differ)" if len(extra) > 1 else "")
                                 + f": segments are paired by id, never by position; give '{name}' the reference's "
                                 "segment ids", file=path, line=first_row.get((name, d, extra[0])),
                                 code=InputError.Codes.COUNTS)
    return gaps


def _table_records(header: list[str], rows, path: str):
    low = [h.strip().lower() for h in header]
    ci_doc = _pick(low, DOC_ALIASES)
    if ci_doc is None:
        raise InputError(f"has no document column (one of {', '.join(DOC_ALIASES)}); found {', '.join(header)}",
                         file=path, line=1, code=InputError.Codes.MALFORMED)
    ci_text = _pick(low, TEXT_ALIASES)
    ci_seg = _pick(low, SEG_ALIASES)
    ci_sys = _pick(low, SYS_ALIASES)
    ci_src = _pick(low, SRC_ALIASES)
    ref_cols = [i for i, h in enumerate(header) if _is_ref_column(h.strip())]
    if ci_text is None and not ref_cols:
        raise InputError(f"has no text column (one of {', '.join(TEXT_ALIASES)}) and no reference column; "
                         f"found {', '.join(header)}", file=path, line=1, code=InputError.Codes.MALFORMED)
    counters: dict = {}
    for row, fields in rows:
        if len(fields) != len(header):
            raise InputError(f"has {len(fields)} fields, expected {len(header)} as in the header", file=path,
                             line=row, code=InputError.Codes.MALFORMED)
        doc = str(fields[ci_doc]).strip()
        if not doc:
            raise InputError("empty document id", file=path, line=row, code=InputError.Codes.MALFORMED)
        sysname = str(fields[ci_sys]).strip() if ci_sys is not None else None
        if ci_sys is not None and not sysname:
            raise InputError("empty system name", file=path, line=row, code=InputError.Codes.MALFORMED)
        if ci_seg is not None:
            seg = str(fields[ci_seg]).strip()
            if not seg:
                raise InputError("empty segment id", file=path, line=row, code=InputError.Codes.MALFORMED)
        else:  # file order within (system, document)
            k = (sysname, doc)
            counters[k] = counters.get(k, 0) + 1
            seg = str(counters[k])
        rec = {"doc": doc, "seg": seg, "system": sysname, "ids_given": ci_seg is not None,
               "text": None if ci_text is None else _cell(fields[ci_text]),
               "refs": {header[i].strip(): _cell(fields[i]) for i in ref_cols},
               "src": None if ci_src is None else _cell(fields[ci_src])}
        yield row, rec


def _cell(v) -> str:
    if v is None:
        return ""
    if not isinstance(v, str):
        return str(v)
    return v


def read_table(path, reference_systems=()) -> Corpus:
    """TSV or CSV with doc_id / seg_id / text columns (aliases accepted),
    optionally a system column and ref / source columns."""
    import csv

    name = str(path)
    text = decode_bytes(read_bytes(path), name)
    lines = split_lines(text)
    if not lines:
        raise InputError("is empty", file=name, code=InputError.Codes.EMPTY)
    delim = "\t" if ("\t" in lines[0] or name.lower().endswith(".tsv")) else ","
    if delim == "\t":
        header = lines[0].split("\t")
        rows = [(i, line.split("\t")) for i, line in enumerate(lines[1:], start=2) if line.strip()]
    else:
        try:
            parsed = list(csv.reader(lines, strict=True))
        except csv.Error as exc:
            raise InputError(f"is not valid CSV ({exc})", file=name, code=InputError.Codes.MALFORMED) from None
        header = parsed[0]
        rows = [(i, r) for i, r in enumerate(parsed[1:], start=2) if any(c.strip() for c in r)]
    return _records_to_corpus(list(_table_records(header, rows, name)), name, list(reference_systems),
                              file_stem(path))


def read_jsonl(path, reference_systems=()) -> Corpus:
    from .jsonsafe import loads

    name = str(path)
    lines = split_lines(decode_bytes(read_bytes(path), name))
    objs = []
    keys: list[str] = []
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        o = loads(line, name, i)
        if not isinstance(o, dict):
            raise InputError("expected a JSON object per line", file=name, line=i, code=InputError.Codes.MALFORMED)
        for k in o:
            if k not in keys:
                keys.append(k)
        objs.append((i, o))
    if not objs:
        raise InputError("is empty", file=name, code=InputError.Codes.EMPTY)
    rows = []
    for i, o in objs:
        vals = []
        for k in keys:
            v = o.get(k, "")
            if isinstance(v, (dict, list)):
                raise InputError(f"field '{k}' holds a {type(v).__name__}, expected text", file=name, line=i, code=InputError.Codes.MALFORMED)
            vals.append("" if v is None else v)
        rows.append((i, vals))
    return _records_to_corpus(list(_table_records(keys, rows, name)), name, list(reference_systems),
                              file_stem(path))


class _Found(Exception):
    pass


def _xml_line(text: str, root, elem) -> int | None:
    """The line of a <seg> element of `text` (ElementTree keeps none): its place among the tree's <seg>
    elements, found again by a flat expat parse that counts their start tags; only when a message needs it."""
    import xml.parsers.expat

    k = next((i for i, e in enumerate(root.iter("seg")) if e is elem), None)
    if k is None:
        return None
    p = xml.parsers.expat.ParserCreate()
    seen = [0]

    def start(tag, _attrs):
        if tag == "seg":
            if seen[0] == k:
                raise _Found(p.CurrentLineNumber)
            seen[0] += 1

    p.StartElementHandler = start
    try:
        p.Parse(text.encode("utf-8"), True)
    except _Found as found:
        return found.args[0]
    except xml.parsers.expat.ExpatError:
        return None
    return None


def read_wmt_xml(path, reference_systems=()) -> Corpus:
    """WMT XML test sets: <dataset><collection><doc id> with <src>, <ref translator>,
    <hyp system> blocks of <p><seg id>.  References are named after their
    translator attribute (ref, or ref-A, ref-B when there are several)."""
    import xml.etree.ElementTree as ET

    name = str(path)
    text = decode_bytes(read_bytes(path), name)
    try:
        root = ET.fromstring(text.encode("utf-8"))
    except ET.ParseError as exc:
        line = exc.position[0] if hasattr(exc, "position") else None
        raise InputError(f"is not well-formed XML ({exc})", file=name, line=line, code=InputError.Codes.MALFORMED) from None
    docs = root.findall(".//doc")
    if not docs:
        raise InputError("has no <doc> elements (expected <dataset><collection><doc id=...>)", file=name, code=InputError.Codes.MALFORMED)

    def segs(block):
        return [("".join(s.itertext())) for s in block.iter("seg")]

    def paired(block, role: str, who: str, did: str, want: list | None, base: str) -> list:
        """The block's segments in the order of `want` (the source's, else the first reference's segment ids):
        paired by id, never by position.  As many segments with other ids (1, 2, 3, 5 against 1-4, or one id
        twice) are refused, naming the line of the first; the same ids in another order are put in the
        reference's.  Another number of segments is left to the count checks."""
        elems = list(block.iter("seg"))
        ids = [e.get("id") for e in elems]
        texts = ["".join(e.itertext()) for e in elems]
        if want is None or None in ids or ids == want or len(ids) != len(want):
            return texts
        known, met = set(want), set()
        for k, x in enumerate(ids):
            if x not in known or x in met:
                what = "twice" if x in met else f"where the {base} has not (its ids: {', '.join(want[:6])}" + \
                    (", ...)" if len(want) > 6 else ")")
                raise InputError(f"{role} '{who}' has segment id '{x}' in document '{did}' {what}: segments are "
                                 "paired by id, never by position", file=name, line=_xml_line(text, root, elems[k]),
                                 code=InputError.Codes.COUNTS)
            met.add(x)
        at = {x: k for k, x in enumerate(ids)}  # the same ids in another order
        return [texts[at[x]] for x in want]

    doc_ids, src_docs = [], []
    ref_docs: dict[str, list] = {}
    hyp_docs: dict[str, list] = {}
    all_refs, all_hyps = set(), set()
    for d in docs:
        all_refs |= {r.get("translator") or "ref" for r in d.findall("ref")}
        all_hyps |= {h.get("system") or "hyp" for h in d.findall("hyp")}
    for n, d in enumerate(docs):
        did = d.get("id") or f"doc{n + 1}"
        if did in doc_ids:
            raise InputError(f"document id '{did}' appears twice", file=name, code=InputError.Codes.NAMES)
        doc_ids.append(did)
        src = d.find("src")
        src_segs = segs(src) if src is not None else None
        src_docs.append(src_segs or [])
        n_segs = len(src_segs) if src_segs is not None else None
        # the ids every block is paired by: the source's, else the first reference's (when all its segs have one)
        first = src if src is not None else d.find("ref")
        want = None if first is None else [e.get("id") for e in first.iter("seg")]
        want = None if want is None or None in want or len(set(want)) != len(want) else want
        base = "source" if src is not None else "first reference"
        seen_r = {}
        for r in d.findall("ref"):
            seen_r[r.get("translator") or "ref"] = paired(r, "reference", r.get("translator") or "ref", did, want, base)
        seen_h = {}
        for h in d.findall("hyp"):
            seen_h[h.get("system") or "hyp"] = paired(h, "system", h.get("system") or "hyp", did, want, base)
        for role, seen, everyone, store in (("reference", seen_r, all_refs, ref_docs),
                                            ("system", seen_h, all_hyps, hyp_docs)):
            for who in sorted(everyone):
                if who not in seen:
                    raise InputError(f"{role} '{who}' has no translation of document '{did}'", file=name, code=InputError.Codes.COUNTS)
                s = seen[who]
                if n_segs is not None and len(s) != n_segs:
                    raise InputError(f"{role} '{who}' has {len(s)} segments in document '{did}' but the source "
                                     f"has {n_segs}", file=name, code=InputError.Codes.COUNTS)
                store.setdefault(who, []).append(s)
    refs = {(f"ref-{k}" if len(ref_docs) > 1 or k != "ref" else "ref"): v for k, v in ref_docs.items()}
    for r in reference_systems:
        if r not in hyp_docs:
            raise InputError(f"reference system '{r}' is not in the file", file=name, code=InputError.Codes.NAMES)
        refs[r] = hyp_docs.pop(r)
    if not refs:
        raise InputError("has no <ref> block; say which systems are references", file=name, code=InputError.Codes.NAMES)
    has_src = any(src_docs)
    return Corpus(doc_ids=doc_ids, references=refs, systems=hyp_docs, source=src_docs if has_src else None,
                  boundaries="structured", files={n: name for n in list(refs) + list(hyp_docs)})
