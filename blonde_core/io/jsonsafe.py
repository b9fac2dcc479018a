"""The one JSON parser of the readers, for files users bring (issue 63 point 4).

Every reader that parses JSON - JSON Lines texts and `--input` rows, COMET's JSON scores, a WMT folder's .jsonl
members, the `error_spans` cells of Appraise's ESA exports, the `metadata` column of MQM releases - calls
`loads`, so hostile JSON is refused one way everywhere: an `InputError` naming the file and the line (the
command line exits 2), never an internal error (exit 3).  Refused:

- an integer of more than MAX_DIGITS digits (Python converts at most 4,300 and raises ValueError beyond);
- nesting deeper than MAX_DEPTH levels: json's parser recurses, and ~50,000 levels raise RecursionError; a scan
  that does not recurse counts the levels before parsing, and only when the text has enough brackets to matter;
- a string holding a lone surrogate (`\\ud800` alone: no character, and no UTF-8 for it) or NUL (`\\u0000`):
  refused through JSON as the text readers refuse NUL in a file;
- NaN and Infinity: as the caller says (`constant`), read as floats by default, as json reads them.

The checks cost nothing on ordinary data: the depth scan runs only on text with more than MAX_DEPTH brackets,
the string walk only on text with a `\\u0000` or `\\ud8..`-`\\udf..` escape.
"""
from __future__ import annotations

import json
import re

from blonde_core.errors import InputError

MAX_DEPTH = 200  # levels of nested arrays and objects; no file these readers know nests more than a handful
MAX_DIGITS = 1_000  # digits of an integer; no score, id or count has nearly as many
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_STRING_RE = re.compile(_STRING, re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKETS = re.compile(_STRING + r"|[\[\]{}]", re.S)
_LONG_INT = re.compile(_STRING + r"|-?\d{%d,}" % (MAX_DIGITS + 1), re.S)
# an escape \uXXXX preceded by an even number of backslashes (not itself escaped)
_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u(?P<hex>[0-9a-fA-F]{4})")
_SUSPECT = re.compile(r"\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})")
_BAD_CHAR = re.compile("[\x00\ud800-\udfff]")
_RAISE = object()


def _line(text: str, pos: int, first: int) -> int:
    return first + text.count("\n", 0, pos)


def _depth_at(text: str) -> int | None:
    """The offset where nesting first passes MAX_DEPTH (strings skipped), or None; no recursion.  The brackets
    outside strings are counted at C speed first (a few ms for a COMET file of 8 MB); their offsets are looked
    for only when they nest too deeply."""
    import numpy as np

    brackets = _NOT_BRACKET.sub("", _STRING_RE.sub("", text)).encode("ascii")
    b = np.frombuffer(brackets, np.uint8)
    if not len(b) or int(np.cumsum(np.where((b == 91) | (b == 123), 1, -1)).max()) <= MAX_DEPTH:
        return None
    depth = 0
    for m in _BRACKETS.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return m.start()
        elif c in "]}":
            depth -= 1
    return None


def _strings(obj):
    """Every string of a parsed value, keys included, without recursion."""
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            yield x
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)


def _high(m) -> bool:
    return 0xD800 <= int(m.group("hex"), 16) <= 0xDBFF


def _low(m) -> bool:
    return 0xDC00 <= int(m.group("hex"), 16) <= 0xDFFF


def _bad_escape(text: str, nul: bool) -> int:
    """The offset of the first escape that makes a NUL (nul) or a lone surrogate, else 0."""
    escapes = list(_ESCAPE.finditer(text))
    for k, m in enumerate(escapes):
        v = int(m.group("hex"), 16)
        if nul and v == 0:
            return m.start()
        if not nul and 0xD800 <= v <= 0xDFFF:
            nxt = escapes[k + 1] if k + 1 < len(escapes) else None
            prv = escapes[k - 1] if k else None
            if v <= 0xDBFF and nxt is not None and nxt.start() == m.end() and _low(nxt):
                continue  # the high half of a pair
            if v >= 0xDC00 and prv is not None and prv.end() == m.start() and _high(prv):
                continue  # the low half of a pair
            return m.start()
    return 0


def loads(text: str, file: str, line: int = 1, *, what: str = "", constant=None, invalid=_RAISE):
    """`text` parsed as JSON, or an InputError naming `file` and the line: `line` is the file's line where
    `text` starts (JSON Lines: the line itself; a whole file: 1).  `what` names the value in messages
    ("error_spans"); `constant(name)` is called for NaN, Infinity and -Infinity (json's parse_constant);
    `invalid`, when given, is returned for text that is not JSON at all (a column that may hold other text),
    while hostile JSON is still refused."""
    subject = f"{what} " if what else ""

    def refuse(problem: str, pos: int):
        raise InputError(f"{subject}{problem}", file=file, line=_line(text, pos, line),
                         code=InputError.Codes.MALFORMED)

    if text.count("[") + text.count("{") > MAX_DEPTH:
        at = _depth_at(text)
        if at is not None:
            refuse(f"nests JSON arrays and objects more than {MAX_DEPTH} levels deep", at)

    def integer(digits: str):
        if len(digits.lstrip("-")) > MAX_DIGITS:
            m = next((m for m in _LONG_INT.finditer(text) if m.group()[:1] != '"'), None)
            refuse(f"holds an integer of {len(digits.lstrip('-')):,} digits; at most {MAX_DIGITS:,} are read",
                   m.start() if m else 0)
        return int(digits)

    try:
        obj = json.loads(text, parse_int=integer, **({"parse_constant": constant} if constant else {}))
    except json.JSONDecodeError as exc:
        if invalid is not _RAISE:
            return invalid
        raise InputError(f"{subject}is not valid JSON ({exc.msg} at column {exc.colno})", file=file,
                         line=line + exc.lineno - 1, code=InputError.Codes.MALFORMED) from None
    except RecursionError:  # a deep value the scan missed (a bracket inside a broken string): refused all the same
        refuse(f"nests JSON arrays and objects too deeply (more than {MAX_DEPTH} levels are refused)", 0)
    if _SUSPECT.search(text):
        for s in _strings(obj):
            bad = _BAD_CHAR.search(s)
            if bad:
                if bad.group() == "\x00":
                    refuse("holds a NUL character (\\u0000) in a string; no text holds one (text files with NUL "
                           "are refused too)", _bad_escape(text, True))
                refuse(f"holds a lone surrogate (\\u{ord(bad.group()):04x}) in a string: half of a character "
                       "pair, no character by itself", _bad_escape(text, False))
    return obj


__all__ = ["MAX_DEPTH", "MAX_DIGITS", "loads"]
