"""The spans the tool marks, line by line, and how well they agree with hand-labelled gold spans.

`line_spans` turns annotation records into the rows the `spans` command writes (character offsets in the
input line as given, whatever stripping or lowercasing the annotation saw); `match` scores tool spans
against a pack's gold (lang/gold.py, lang/GOLD.md) per category and class; `tagging_table` adds them up.
What a pack measured is kept in `lang/<name>/tagging.json`; `tagging_block` reads it back for one score's
settings and says which categories are marked (`is_weak`) wherever their numbers are shown, with the figures
(`marked_figures`: the one sentence every place prints).
"""
from __future__ import annotations

from blonde_core.annotation.pipeline import prepare
from blonde_core.metric.features import spans as record_spans

DISCOURSE = ("tense", "pronoun", "entity", "dm")
# a (language, category) is marked where its number is shown below these (lang/GOLD.md)
MIN_PRECISION, MIN_RECALL, MIN_GOLD = 0.90, 0.80, 30


def _back_map(stripped: str, lowered: str):
    """Index in `lowered` -> index in `stripped`, when lowercasing changed the length (e.g. 'İ')."""
    if len(stripped) == len(lowered):
        return None
    m = []
    for i, ch in enumerate(stripped):
        m.extend([i] * len(ch.lower()))
    m.append(len(stripped))
    return m


def line_spans(lines, records: dict, pack, lowercase: bool, categories=DISCOURSE, fold: bool = False) -> list[dict]:
    """Every span of the given categories in each line: {line, start, end, text, category, class}, offsets
    into the line as given (0-based, end exclusive), sorted by line and position. records: prepared text ->
    annotation record (annotation.Annotator.annotate)."""
    out = []
    for n, raw in enumerate(lines):
        t = prepare(raw, lowercase)
        if not t:
            continue
        rec = records[t]
        lead = len(raw) - len(raw.lstrip())
        stripped = raw.strip()
        back = _back_map(stripped, t) if lowercase else None
        for s in record_spans(rec, t, pack, fold):
            if s["category"] not in categories:
                continue
            a, b = (s["start"], s["end"]) if back is None else (back[s["start"]], back[s["end"]])
            out.append({"line": n, "start": lead + a, "end": lead + b, "text": stripped[a:b],
                        "category": s["category"], "class": str(s["feature"])})
    return out


def _overlap(g, s: dict) -> int:
    """Characters a gold span (GoldSpan) and a tool span (dict) share (<= 0: none)."""
    return min(g.end, s["end"]) - max(g.start, s["start"])


def match(gold: list, tool: list) -> list[tuple]:
    """One paragraph's (gold span, tool span) pairs of one category: each used once, pairs that overlap by at
    least one character, the largest overlaps first (ties: the same class first, then by position)."""
    cands = []
    for i, g in enumerate(gold):
        for j, s in enumerate(tool):
            ov = _overlap(g, s)
            if ov > 0:
                cands.append((-ov, g.label != s["class"], g.start, s["start"], i, j))
    cands.sort()
    used_g, used_t, pairs = set(), set(), []
    for *_, i, j in cands:
        if i in used_g or j in used_t:
            continue
        used_g.add(i)
        used_t.add(j)
        pairs.append((gold[i], tool[j]))
    return pairs


def _new(per_class: bool = False) -> dict:
    row = {"gold": 0, "tool": 0, "matched": 0, "same_class": 0, "exact": 0, "traps": 0, "trap_hits": 0}
    if per_class:  # a class's precision counts the tool spans *of that class* that matched
        row["tool_matched"] = 0
    return row


def tagging_table(items: list[dict], tool_spans: list[list[dict]], pack) -> dict:
    """Precision, recall and class accuracy per category and per class of the gold, for the gold paragraphs
    `items` (lang.gold.load_gold) and the tool's spans of each (line_spans of one line, `line` ignored).

    {"paragraphs": n, "categories": {cat: {gold, tool, matched, same_class, exact, traps, trap_hits,
    precision, recall, f1, class_accuracy, classes: {class: {gold, tool, matched, same_class, ...}}}},
    "confusions": {cat: {"gold class -> tool class": n}}, "misses": [...], "extras": [...]}"""
    cats = {c: _new() for c in DISCOURSE}
    classes = {c: {str(f): _new(True) for f in pack.feature_names(c)} for c in DISCOURSE}
    confusions: dict = {c: {} for c in DISCOURSE}
    misses, extras = [], []
    for it, tool in zip(items, tool_spans):
        for c in DISCOURSE:
            g = [s for s in it["spans"] if s.category == c]
            t = [s for s in tool if s["category"] == c]
            pairs = match(g, t)
            row = cats[c]
            row["gold"] += len(g)
            row["tool"] += len(t)
            row["matched"] += len(pairs)
            for s in g:
                classes[c].setdefault(s.label, _new(True))["gold"] += 1
            for s in t:
                classes[c].setdefault(s["class"], _new(True))["tool"] += 1
            for gs, ts in pairs:
                same = gs.label == ts["class"]
                row["same_class"] += same
                row["exact"] += (gs.start, gs.end) == (ts["start"], ts["end"])
                classes[c][gs.label]["matched"] += 1
                classes[c][gs.label]["same_class"] += same
                classes[c][ts["class"]]["tool_matched"] += 1
                if not same:
                    k = f"{gs.label} -> {ts['class']}"
                    confusions[c][k] = confusions[c].get(k, 0) + 1
            hit_g = {id(gs) for gs, _ in pairs}
            hit_t = {id(ts) for _, ts in pairs}
            misses.extend({"id": it.get("id"), "category": c, "class": s.label, "text": s.text}
                          for s in g if id(s) not in hit_g)
            extras.extend({"id": it.get("id"), "category": c, "class": s["class"], "text": s["text"]}
                          for s in t if id(s) not in hit_t)
            traps = [s for s in it["traps"] if s.category == c]
            row["traps"] += len(traps)
            row["trap_hits"] += sum(1 for tr in traps
                                    if any(_overlap(tr, s) > 0 for s in t))
    for c in DISCOURSE:
        for row in [cats[c], *classes[c].values()]:
            _rates(row)
        cats[c]["classes"] = {k: v for k, v in classes[c].items() if v["gold"] or v["tool"]}
    return {"paragraphs": len(items), "categories": cats, "confusions": confusions, "misses": misses,
            "extras": extras}


def _rates(row: dict) -> None:
    """precision over the tool's spans of the row (for a class: tool spans of that class that matched any
    gold span), recall over the gold's, F1, and class accuracy of the matched gold spans."""
    tool_matched = row.pop("tool_matched", row["matched"])
    p = tool_matched / row["tool"] if row["tool"] else None
    r = row["matched"] / row["gold"] if row["gold"] else None
    row["precision"] = p
    row["recall"] = r
    row["f1"] = (2 * p * r / (p + r) if p is not None and r is not None and p + r else
                 (0.0 if p is not None and r is not None else None))
    row["class_accuracy"] = row["same_class"] / row["matched"] if row["matched"] else None


def is_weak(cell: dict | None) -> bool:
    """Below the bar of lang/GOLD.md: precision < 0.90, recall < 0.80, or fewer than 30 gold spans (or never
    measured)."""
    if not cell:
        return True
    p, r, g = cell.get("precision"), cell.get("recall"), cell.get("gold", 0)
    return g < MIN_GOLD or p is None or r is None or p < MIN_PRECISION or r < MIN_RECALL


def figures(cell: dict | None) -> str:
    """One cell's measured accuracy: 'P 0.72 R 0.68 on 41 gold spans' ('not measured against gold spans')."""
    if not cell:
        return "not measured against gold spans"
    p, r, g = cell.get("precision"), cell.get("recall"), cell.get("gold", 0)
    f = lambda x: "-" if x is None else f"{x:.2f}"  # noqa: E731
    return f"P {f(p)} R {f(r)} on {g} gold span{'s' if g != 1 else ''}"


def describe(cell: dict | None) -> str:
    """One cell's measured accuracy in words: 'tagging P 0.72 R 0.68 on 41 gold spans'."""
    return "tagging " + figures(cell)


def marked_figures(block: dict) -> str:
    """'entity P 0.87 R 0.59 on 44 gold spans; dm ...': the marked categories of a tagging block with their
    figures, the sentence every place that marks a number prints."""
    return "; ".join(f"{c} {v['figures']}" for c, v in (block or {}).get("categories", {}).items() if v["marked"])


def _empty_categories(lang: str) -> dict:
    """{category: reason} the pack declares empty (pack.json's <category>.empty), {} without a pack."""
    from blonde_core.lang import has_pack, load_pack

    return load_pack(lang).empty if lang and has_pack(lang) else {}


def tagging_block(measured: dict, lang: str, categories, lowercase: bool) -> dict:
    """What a score's JSON says of its tagging (`tagging`): per discourse category scored, the pack's measured
    precision, recall and class accuracy against its gold under the same lowercasing, how many gold spans they
    rest on, whether the category is marked and the sentence said where it is; the date and command of the
    measurement."""
    measured = measured or {}
    case = "lc" if lowercase else "as-written"
    cells = measured.get("by_case", {}).get(case, {})
    out = {"language": lang, "case": case, "measured": measured.get("measured"), "command": measured.get("command"),
           "gold_paragraphs": measured.get("gold_paragraphs"),
           "bar": {"precision": MIN_PRECISION, "recall": MIN_RECALL, "gold_spans": MIN_GOLD},
           "table": "docs/languages.md#tagging-accuracy", "categories": {}}
    empty = _empty_categories(lang)
    for c in DISCOURSE:
        if c not in categories or c in empty:  # nothing to tag in this language (Hindi pronouns): not marked
            continue
        cell = cells.get(c) or None
        out["categories"][c] = {"precision": (cell or {}).get("precision"), "recall": (cell or {}).get("recall"),
                                "class_accuracy": (cell or {}).get("class_accuracy"),
                                "gold_spans": (cell or {}).get("gold", 0), "marked": is_weak(cell),
                                "note": describe(cell), "figures": figures(cell)}
    return out
