"""Hand-labelled gold spans of a language pack: reading them and checking them.

Each pack may keep `lang/<name>/gold.jsonl`: one paragraph of real text a line, labelled by a person (or a
reader model) against `lang/GOLD.md` and the pack's README, never by running the tagger. A line:

    {"id": "...", "file": "wmt24/references/en-cs.refA.txt", "line": 412, "domain": "literary",
     "pick": "pronoun", "marked": "Včera [[přišel|tense|minulý čas]] [[Petr|entity|person]] ..."}

`marked` is the line's text with inline marks:

    [[TEXT|CATEGORY|CLASS]]   a span the pack should count (CLASS is the pack's feature name)
    {{TEXT|CATEGORY|WHY}}     a tempting non-span: text the tagger may mark in CATEGORY, and must not

Marks may nest (a pronoun inside a compound tense span). Removing the marks gives the line's text exactly;
`file` and `line` (0-based) say where it was read, relative to the shared data folder. `parse` turns a marked
string into (text, spans, non-spans) with character offsets; `check_file` validates a whole gold file against
its pack and, when the data folder is there, against the source line. Nothing here imports spaCy.

    python -m blonde_core.lang.gold check LANG [--data ../shared/data]
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .base import PACK_DIR, load_pack

CATEGORIES = ("tense", "pronoun", "entity", "dm")
_TOKEN = re.compile(r"\[\[|\]\]|\{\{|\}\}")


@dataclass(frozen=True)
class GoldSpan:
    start: int
    end: int
    category: str
    label: str  # the pack's class for a span; the reason for a non-span
    text: str


class GoldError(ValueError):
    pass


def parse(marked: str) -> tuple[str, list[GoldSpan], list[GoldSpan]]:
    """(plain text, spans, non-spans) of one marked string; GoldError names the problem."""
    out: list[str] = []
    pos = 0  # length of the plain text so far
    stack: list[tuple[str, int, int]] = []  # (opener, plain offset, index into out)
    spans, traps = [], []
    last = 0
    for m in _TOKEN.finditer(marked):
        piece = marked[last:m.start()]
        out.append(piece)
        pos += len(piece)
        last = m.end()
        tok = m.group()
        if tok in ("[[", "{{"):
            stack.append((tok, pos, len(out)))
            continue
        want = "[[" if tok == "]]" else "{{"
        if not stack or stack[-1][0] != want:
            raise GoldError(f"'{tok}' at character {m.start()} closes nothing opened with '{want}'")
        _, start, k = stack.pop()
        inner = "".join(out[k:])
        parts = inner.rsplit("|", 2)
        if len(parts) != 3 or not parts[0]:
            raise GoldError(f"mark ending at character {m.start()} is not TEXT|CATEGORY|LABEL: {inner!r}")
        text, cat, label = parts
        cat, label = cat.strip(), label.strip()
        if cat not in CATEGORIES:
            raise GoldError(f"unknown category {cat!r} in {inner!r} (one of {', '.join(CATEGORIES)})")
        # drop the "|CATEGORY|LABEL" tail from the plain text
        tail = len(inner) - len(text)
        joined = inner[:len(text)]
        del out[k:]
        out.append(joined)
        pos -= tail
        (spans if want == "[[" else traps).append(GoldSpan(start, start + len(text), cat, label, text))
    if stack:
        raise GoldError(f"'{stack[-1][0]}' opened and never closed")
    out.append(marked[last:])
    plain = "".join(out)
    for s in spans + traps:
        if plain[s.start:s.end] != s.text:  # pragma: no cover - the arithmetic above keeps them equal
            raise GoldError(f"internal offset error at {s}")
    spans.sort(key=lambda s: (s.start, -s.end))
    traps.sort(key=lambda s: (s.start, -s.end))
    return plain, spans, traps


def gold_path(lang: str) -> Path:
    return PACK_DIR / lang / "gold.jsonl"


def load_gold(lang: str, path: str | Path | None = None) -> list[dict]:
    """Every gold paragraph of a pack, parsed: dicts with id, file, line, domain, text, spans, traps."""
    p = Path(path) if path else gold_path(lang)
    items = []
    with open(p, encoding="utf-8") as fh:
        for n, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
                text, spans, traps = parse(row["marked"])
            except (ValueError, KeyError) as e:
                raise GoldError(f"{p}:{n}: {e}") from None
            items.append({**{k: v for k, v in row.items() if k != "marked"}, "text": text,
                          "spans": spans, "traps": traps, "_line": n})
    return items


def check_file(lang: str, data_dir: str | Path | None = None, path: str | Path | None = None) -> list[str]:
    """Problems of a gold file: unparsable marks, classes the pack does not have, text that is not the
    source line, a span with spaces at its edge, a repeated paragraph. Empty when it is sound."""
    pack = load_pack(lang)
    classes = {c: set(pack.feature_names(c)) for c in CATEGORIES}
    problems = []
    try:
        items = load_gold(lang, path)
    except (OSError, GoldError) as e:
        return [str(e)]
    seen = set()
    cache: dict = {}
    for it in items:
        where = f"gold.jsonl:{it['_line']} ({it.get('id')})"
        key = (it.get("file"), it.get("line"))
        if key in seen:
            problems.append(f"{where}: paragraph {key} labelled twice")
        seen.add(key)
        for s in it["spans"]:
            if s.label not in classes[s.category]:
                problems.append(f"{where}: {s.category} class {s.label!r} of {s.text!r} is not one of the "
                                f"pack's: {sorted(classes[s.category])}")
        for s in it["spans"] + it["traps"]:
            if s.text != s.text.strip():
                problems.append(f"{where}: span {s.text!r} has spaces at its edge")
        if data_dir and it.get("file") is not None:
            f = Path(data_dir) / it["file"]
            if f not in cache:
                try:
                    cache[f] = f.read_text(encoding="utf-8").split("\n")
                except OSError as e:
                    problems.append(f"{where}: cannot read {f}: {e}")
                    cache[f] = None
            lines = cache[f]
            if lines is not None:
                ln = it.get("line")
                if not isinstance(ln, int) or not 0 <= ln < len(lines):
                    problems.append(f"{where}: line {ln} is not in {it['file']}")
                elif lines[ln].rstrip("\r") != it["text"]:
                    problems.append(f"{where}: text differs from {it['file']} line {ln}")
    return problems


def summary(items: list[dict]) -> dict:
    """Counts per category: paragraphs, spans, non-spans."""
    out = {"paragraphs": len(items)}
    for c in CATEGORIES:
        out[c] = sum(1 for it in items for s in it["spans"] if s.category == c)
        out[c + " non-spans"] = sum(1 for it in items for s in it["traps"] if s.category == c)
    return out


def _main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m blonde_core.lang.gold", description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["check"])
    ap.add_argument("lang")
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[3] / "shared" / "data"),
                    help="the shared data folder the gold lines were read from")
    ap.add_argument("--file", default=None, help="a gold file other than lang/LANG/gold.jsonl")
    a = ap.parse_args(argv)
    data = a.data if Path(a.data).is_dir() else None
    problems = check_file(a.lang, data, a.file)
    for p in problems:
        print(p)
    if not problems:
        items = load_gold(a.lang, a.file)
        print(json.dumps(summary(items), ensure_ascii=False))
        if data is None:
            print(f"note: {a.data} not found; the texts were not compared with their source lines")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(_main())
