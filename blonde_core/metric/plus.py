"""BlonD+ annotation files and human-refined named entities (the package's formats).

Annotation file: one line per reference segment, tab-separated fields; a field
whose first character is a digit is an error code (1 = ambiguity, 3 =
ellipsis, others ignored); after "1," or "3," come ";"-separated entries
"ref phrase, system phrase <pos/start,end>" and the reference phrase is the
checkpoint.  Checkpoints are literal text (never patterns), counted
case-insensitively as whole words.

Refined NER file: one line per segment,
"PERSON: (Name: count; ...)<TAB>NONPERSON: (Name: count; ...)".
"""
from __future__ import annotations

import re

from blonde_core.errors import InputError

CODES = {"1": 0, "3": 1}  # error code -> index in PLUS_CATEGORIES (ambiguity, ellipsis)


def parse_annotation_line(line: str) -> tuple[list[str], list[str]]:
    out: tuple[list[str], list[str]] = ([], [])
    for field in line.split("\t"):
        if not field or not field[0].isdigit() or field[0] not in CODES:
            continue
        target = out[CODES[field[0]]]
        for entry in field[2:].split(";"):
            pair = entry.split("<pos/")[0]
            if len(pair) < 2:
                continue
            cp = pair.split(",")[0].strip()
            if cp and cp not in target:
                target.append(cp)
    return out


def parse_annotation(lines: list[str]) -> list[tuple[list[str], list[str]]]:
    return [parse_annotation_line(line) for line in lines]


_PAT_CACHE: dict[str, re.Pattern] = {}


def _pattern(phrase: str) -> re.Pattern:
    """A checkpoint as the score finds it: the literal phrase as whole words, any case."""
    pat = _PAT_CACHE.get(phrase)
    if pat is None:
        pat = _PAT_CACHE[phrase] = re.compile(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", re.IGNORECASE)
    return pat


def count_phrase(phrase: str, text: str) -> int:
    return len(_pattern(phrase).findall(text))


def checkpoint_marks(line: str, text: str) -> list[tuple[int, int, str]]:
    """Where the checkpoints of one annotation line occur in a text, as the score finds them (whole words,
    any case): [(start, end, what)] for highlighting."""
    out = []
    for kind, cps in zip(("ambiguity", "ellipsis"), parse_annotation_line(line)):
        for cp in cps:
            for m in _pattern(cp).finditer(text):
                out.append((m.start(), m.end(), f"BlonD+ {kind} checkpoint '{cp}' (counted where it occurs)"))
    return sorted(out)


def normalise_ner_name(name: str) -> str:
    return name.strip(" ").lower().split("'s")[0].split("\u2019s")[0].split("'")[0].strip()


def parse_ner_line(line: str, file: str, lineno: int) -> list[dict]:
    """[{name: count} for PERSON, {name: count} for NON-PERSON]."""
    groups: list[dict] = [{}, {}]
    if not line.strip():
        return groups
    fields = line.split("\t")
    if len(fields) > 2:
        raise InputError("expected 'PERSON: (...)<TAB>NONPERSON: (...)', found more than two fields",
                         file=file, line=lineno, code=InputError.Codes.MALFORMED)
    for i, field in enumerate(fields):
        if "(" not in field:
            raise InputError(f"expected '(' in field {i + 1} ('PERSON: (Name: count; ...)')", file=file,
                             line=lineno, code=InputError.Codes.MALFORMED)
        body = field.split("(", 1)[1].rsplit(")", 1)[0]
        for entity in body.split(";"):
            if not entity.strip():
                continue
            if ":" not in entity:
                raise InputError(f"entity '{entity.strip()}' has no ': count'", file=file, line=lineno, code=InputError.Codes.MALFORMED)
            name, cnt = entity.rsplit(":", 1)
            try:
                n = int(cnt.strip())
            except ValueError:
                raise InputError(f"entity '{name.strip()}' has count '{cnt.strip()}', expected a whole number",
                                 file=file, line=lineno, code=InputError.Codes.MALFORMED) from None
            key = normalise_ner_name(name)
            if key:
                groups[i][key] = groups[i].get(key, 0) + n
    return groups
