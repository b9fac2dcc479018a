"""Readers: files researchers bring -> `Corpus`.  Every problem is an `InputError`
naming the file, the line and what was expected.  Nothing is modified or written."""
from __future__ import annotations

import codecs
import os
from pathlib import Path

from .corpus import Corpus
from .errors import InputError


def decode_bytes(data: bytes, name: str) -> str:
    """UTF-8 (with or without BOM) or UTF-16 with BOM; anything else is an error."""
    if data.startswith(codecs.BOM_UTF8):
        data, enc = data[3:], "utf-8"
    elif data.startswith(codecs.BOM_UTF16_LE) or data.startswith(codecs.BOM_UTF16_BE):
        enc = "utf-16"
    else:
        enc = "utf-8"
    try:
        text = data.decode(enc)
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid {enc.upper()} text: bad byte at offset {exc.start} "
                         f"(expected UTF-8, or UTF-16 with a byte-order mark)", file=name) from None
    if "\x00" in text:
        raise InputError(f"looks like a binary file (NUL character at offset {text.index(chr(0))})",
                         file=name)
    if enc == "utf-16" and text.startswith("\ufeff"):
        text = text[1:]
    return text


def split_lines(text: str) -> list[str]:
    """Lines as Python's text mode reads them (LF, CRLF or CR), without terminators."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_bytes(path: str | os.PathLike) -> bytes:
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", file=str(path))
    if p.is_dir():
        raise InputError("is a directory, expected a file", file=str(path))
    try:
        return p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror})", file=str(path)) from None


def read_lines(path: str | os.PathLike, allow_empty: bool = False) -> list[str]:
    lines = split_lines(decode_bytes(read_bytes(path), str(path)))
    if not lines and not allow_empty:
        raise InputError("is empty, expected one segment per line", file=str(path))
    return lines


def group_by_docids(lines: list[str], doc_ids: list[str], name: str, docids_name: str):
    if len(lines) != len(doc_ids):
        raise InputError(f"has {len(lines)} lines but the document-id file {docids_name} has "
                         f"{len(doc_ids)}; they must have one line per segment", file=name)
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
            raise InputError("empty document id; expected one id per line", file=str(path), line=i)
    ids = [d.strip() for d in ids]
    seen, prev = set(), None
    for i, d in enumerate(ids, 1):
        if d != prev and d in seen:
            raise InputError(f"document '{d}' appears again after other documents; "
                             "a document's segments must be consecutive", file=str(path), line=i)
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
                 boundaries: str | None = None) -> Corpus:
    """Plain-text files, one segment per line.

    Documents come from a doc-ids file, else from blank lines when
    boundaries == "blank-lines", else the whole file is one document.
    A file's name (stem) is its system or reference name.
    """
    if not references:
        raise InputError("at least one reference file is needed (-r)")
    names: dict[str, str] = {}

    def name_of(path, role):
        stem = Path(path).stem
        key = (role, stem)
        if key in names:
            raise InputError(f"two {role} files are both named '{stem}' ({names[key]} and {path}); "
                             "rename one", file=str(path))
        names[key] = str(path)
        return stem

    if docids is not None:
        ids = read_docids(docids)
        mode = "docids"
    else:
        ids = None
        mode = boundaries or "single"

    def read(path):
        lines = read_lines(path)
        if mode == "docids":
            return group_by_docids(lines, ids, str(path), str(docids))
        if mode == "blank-lines":
            docs = split_blank_lines(lines)
            return [f"doc{i + 1}" for i in range(len(docs))], docs
        return ["doc1"], [lines]

    refs, syss, files = {}, {}, {}
    doc_order = None
    for role, paths, group in (("reference", references, refs), ("system", systems or [], syss)):
        for p in paths:
            n = name_of(p, role)
            order, docs = read(p)
            if doc_order is None:
                doc_order = order
            elif mode == "blank-lines" and len(order) != len(doc_order):
                raise InputError(f"has {len(order)} documents (blank-line separated) but "
                                 f"{references[0]} has {len(doc_order)}", file=str(p))
            group[n] = docs
            files[n] = str(p)
    src = None
    if source is not None:
        _, src = read(source)
    return Corpus(doc_ids=list(doc_order), references=refs, systems=syss, source=src,
                  boundaries=mode, files=files)
