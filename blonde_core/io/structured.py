"""One structured file -> corpus (and human scores when it carries them).

Dispatch by content: WMT XML, Google's MQM TSV, JSON Lines, or a TSV/CSV
table.  It sits above both `readers` and `human` (which reads MQM with the
readers' helpers), so neither imports the other in a cycle.
"""
from __future__ import annotations

from .corpus import Corpus
from .human import is_mqm, mqm_corpus, read_mqm
from .readers import NamedBytes, decode_bytes, read_bytes, read_jsonl, read_table, read_wmt_xml


def read_structured(path, reference_systems=()) -> Corpus:
    """Dispatch by content: WMT XML, MQM TSV, JSON Lines, or a TSV/CSV table."""
    return read_structured_with_human(path, reference_systems)[0]


def read_structured_with_human(path, reference_systems=()):
    """(corpus, human scores or None): an MQM file carries both; the file is read once."""
    name = str(path)
    mem = NamedBytes(name, read_bytes(path))
    head = decode_bytes(mem.data, name).lstrip()[:200].lower()
    if head.startswith("<?xml") or head.startswith("<dataset") or name.lower().endswith(".xml"):
        return read_wmt_xml(mem, reference_systems), None
    if is_mqm(mem):
        m = read_mqm(mem)
        return mqm_corpus(m, list(reference_systems), name), m.scores
    if name.lower().endswith((".jsonl", ".ndjson")) or head.startswith("{"):
        return read_jsonl(mem, reference_systems), None
    return read_table(mem, reference_systems), None
