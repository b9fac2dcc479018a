"""Digests of texts for cache keys: fast and unambiguous.

A run's keys are made of every text it reads (the study's key, the feature table's key).  Serialising ~28,000
sentences to JSON to hash them took 0.02-0.03 s of a warm WMT22 command; here the texts are joined as they
are (C speed) and their lengths are hashed with them, so no two different lists give the same bytes."""
from __future__ import annotations

import hashlib
from array import array


def _update(h, texts: list) -> None:
    """Hash a flat list of strings: its length, every string's length, then the strings joined."""
    h.update(b"L%d\x00" % len(texts))
    h.update(array("q", map(len, texts)).tobytes())
    h.update("\x00".join(texts).encode("utf-8", "surrogatepass"))


def texts_digest(part) -> bytes:
    """sha256 of a list of strings, of documents (lists of strings), of {name: documents} (names in sorted
    order), or of None.  The shape is part of the digest: ["a b"] and [["a", "b"]] differ."""
    h = hashlib.sha256(b"texts1\x00")
    if part is None:
        h.update(b"N")
    elif isinstance(part, dict):
        h.update(b"D%d\x00" % len(part))
        for name in sorted(part):
            h.update(b"K")
            _update(h, [name])
            _docs(h, part[name])
    elif part and not isinstance(part[0], str):
        _docs(h, part)
    else:
        h.update(b"S")
        _update(h, list(part))
    return h.digest()


def _docs(h, docs) -> None:
    h.update(b"d%d\x00" % len(docs))
    h.update(array("q", map(len, docs)).tobytes())
    _update(h, [s for d in docs for s in d])


def resegmented_digest(resegmented: dict) -> bytes | None:
    """sha256 of a corpus's re-segmentation record ({system: {document index: {"original": [segments],
    "omitted": [indices], "added": [indices]}}}) without JSON: names, indices and gaps as integer arrays, the
    systems' own segments as texts_digest's documents.  None when a document's entry has other keys (the caller
    then hashes it the generic way)."""
    names = sorted(resegmented)
    docs = [(di, v) for n in names for di, v in sorted(resegmented[n].items())]
    if any(not isinstance(di, int) or v.keys() != {"original", "omitted", "added"} for di, v in docs):
        return None
    h = hashlib.sha256(b"reseg1\x00")
    _update(h, names)
    h.update(array("q", [len(resegmented[n]) for n in names]).tobytes())
    h.update(array("q", [di for di, _ in docs]).tobytes())
    for part in ("omitted", "added"):
        h.update(array("q", [len(v[part]) for _, v in docs]).tobytes())
        h.update(array("q", [i for _, v in docs for i in v[part]]).tobytes())
    _docs(h, [v["original"] for _, v in docs])
    return h.digest()
