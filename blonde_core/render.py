"""Span highlighting as HTML, in the manner of spaCy's displaCy span renderer:
spans are data (start, end, category, feature, status), the renderer turns
text plus spans into HTML.  Every piece of text, label and attribute is
escaped; overlapping spans stay legible as stacked underlines.
"""
from __future__ import annotations

from html import escape

from blonde_core.metric.settings import CATEGORY_WORDS

# Okabe-Ito colours (told apart with every common colour-vision deficiency), and for each
# category a cue that is not colour: its own underline style and a small letter after the span.
COLORS = {"entity": "#E69F00", "tense": "#0072B2", "pronoun": "#CC79A7", "dm": "#009E73"}
LABELS = {c: CATEGORY_WORDS[c]["name"] for c in COLORS}  # the words of metric/settings.py's one table
SHORT = {c: CATEGORY_WORDS[c]["short"] for c in COLORS}
GLYPHS = {"entity": "E", "tense": "T", "pronoun": "P", "dm": "M"}
LINES = {"entity": "solid", "tense": "dotted", "pronoun": "double", "dm": "dashed"}
NOTES = {"pronoun": "each class counts with its weight; a class of weight 0 (English neuter and epicene in the "
                   "package preset) is shown faint"}
STATUS_HELP = {"matched": "matched", "missed": "missed by the system", "extra": "not in the reference",
               "neutral": ""}

CSS = """
<style>
.bl-doc{font-size:1.02rem;line-height:2.2;}
.bl-seg{padding:1px 0;border-radius:3px;text-decoration-line:underline;text-decoration-thickness:2px;
 text-underline-offset:4px;text-decoration-skip-ink:none;}
.bl-miss{background-image:repeating-linear-gradient(135deg,rgba(0,0,0,.10) 0 3px,transparent 3px 7px);}
.bl-g::after{font-size:.62em;font-weight:700;vertical-align:super;margin-left:1px;}
""" + "".join(f".bl-g-{c}::after{{content:'{g}' attr(data-n);color:{COLORS[c]};}}\n"
             f".bl-g-{c}.bl-g0::after{{content:'{g}0';color:#777;}}\n" for c, g in GLYPHS.items()) + """\
.bl-nc{background:none!important;text-decoration-color:#999!important;text-decoration-style:dotted!important;
 text-decoration-thickness:1px!important;color:#555;}
.bl-fv{opacity:.8;}
.bl-plus{background:none;border:2px solid #555;border-radius:4px;padding:0 2px;color:inherit;}

.bl-legend{font-size:.8rem;line-height:1.5;margin-bottom:.3rem;}
.bl-legend span{display:inline-block;margin-right:14px;}
.bl-chip{display:inline-block;min-width:14px;height:14px;border-radius:3px;vertical-align:middle;margin-right:4px;}
.bl-mqm{text-decoration:underline wavy #333;text-decoration-thickness:1.5px;text-underline-offset:3px;}
.bl-mqm-tag{font-size:.7rem;font-weight:600;color:#333;margin-left:1px;}
.bl-mqm-line{font-size:.85rem;border-left:3px double #666;padding-left:6px;margin:2px 0 4px 0;}
.bl-counts{font-size:.75rem;opacity:.85;}
</style>
"""


def _rgba(hex_color: str, alpha: float) -> str:
    h = hex_color.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"


def render_text(text: str, spans: list[dict], categories=None, marks=None) -> str:
    """HTML for one sentence.  spans: dicts with start, end, category, feature,
    optional status (matched / missed / extra), describe (the feature in words) and text;
    marks: [(start, end, title)] drawn boxed around whatever they cover (a BlonD+ checkpoint)."""
    cats = set(categories) if categories is not None else set(COLORS)
    use = [s for s in spans if s["category"] in cats and 0 <= s["start"] < s["end"] <= len(text)]
    marks = [m for m in marks or () if 0 <= m[0] < m[1] <= len(text)]
    if not use and not marks:
        return escape(text)
    cuts = sorted({0, len(text)} | {s["start"] for s in use} | {s["end"] for s in use}
                  | {m[0] for m in marks} | {m[1] for m in marks})
    out = []
    for a, b in zip(cuts, cuts[1:]):
        piece = text[a:b]
        mark = next((m for m in marks if m[0] <= a and b <= m[1]), None)
        if mark is not None:
            out.append(f'<mark class="bl-plus" title="{escape(mark[2], quote=True)}">')
        out.append(_piece(a, b, piece, use))
        if mark is not None:
            out.append("</mark>")
    return "".join(out)


def _piece(a: int, b: int, piece: str, use: list[dict]) -> str:
    """One stretch of a sentence between two cuts: plain, or a span drawn for the spans that cover it
    (the longest outside, the others as stacked lines), then the letters of the spans that end there."""
    cover = sorted((s for s in use if s["start"] <= a and b <= s["end"]), key=lambda s: s["end"] - s["start"],
                   reverse=True)
    if not cover:
        return escape(piece) + _letters(use, b)
    outer = cover[0]
    status = outer.get("status", "neutral")
    if outer.get("counted") is False:  # weight 0 in these settings: shown, not counted, never a mismatch
        status = "uncounted"
    alpha = {"matched": .45, "neutral": .45, "uncounted": .10}.get(status, .14)
    shadows = [f"inset 0 -{(depth + 1) * 3}px 0 {_rgba(COLORS[s['category']], .8)}"
               for depth, s in enumerate(cover[1:])]
    line = COLORS[outer["category"]] if status in ("matched", "neutral") else _rgba(COLORS[outer["category"]], .5)
    style = (f"background:{_rgba(COLORS[outer['category']], alpha)};text-decoration-style:"
             f"{LINES[outer['category']]};text-decoration-color:{line};"
             + (f"box-shadow:{','.join(shadows)};" if shadows else ""))
    if status in ("missed", "extra"):
        style += f"outline:1px dashed {COLORS[outer['category']]};"
    title = "; ".join(
        f"{LABELS[s['category']]}: {s['feature']}" + (f" = {s['describe']}" if s.get("describe") else "")
        + (f" #{s['ident']}" if s.get("ident") else "") + (
            " (found in the text as written; lowercased, spaCy does not find it: not counted)" if s.get("lost") else
            " (weight 0 in these settings: not counted)" if s.get("counted") is False else
            f" ({STATUS_HELP[s.get('status', 'neutral')]})" if STATUS_HELP.get(s.get('status', 'neutral')) else "")
        for s in cover)
    klass = "bl-seg" + (" bl-miss" if status in ("missed", "extra") else " bl-nc" if status == "uncounted" else "")
    return (f'<span class="{klass}" style="{escape(style, quote=True)}" title="{escape(title, quote=True)}">'
            f"{escape(piece)}</span>" + _letters(use, b))


def _letters(use: list[dict], b: int) -> str:
    """A letter after each span ending at b: the category without colour (E2: the document's entity 2;
    P0: a span of weight 0, not counted)."""
    out = []
    for s in use:
        if s["end"] == b:
            nc = s.get("counted") is False
            n = "" if nc or not s.get("ident") else f' data-n="{int(s["ident"])}"'
            what = LABELS[s["category"]] + (" (weight 0: not counted)" if nc else
                                            f" #{int(s['ident'])}, the same number wherever it recurs"
                                            if s.get("ident") else "")
            out.append(f'<span class="bl-g bl-g-{s["category"]}{" bl-g0" if nc else ""}"{n} '
                       f'title="{escape(what, quote=True)}"></span>')
    return "".join(out)


def render_errors(text: str, errors: list[dict]) -> str:
    """HTML for one sentence with human (MQM) error spans: a wavy underline and, after each
    error, a bracketed severity letter - a cue of their own, not colour, and unlike BlonDe's
    highlighting; the tooltip gives severity, category and rater."""
    use = [e for e in errors if 0 <= e["start"] < e["end"] <= len(text)]
    if not use:
        return escape(text)
    cuts = sorted({0, len(text)} | {e["start"] for e in use} | {e["end"] for e in use})
    out = []
    for a, b in zip(cuts, cuts[1:]):
        cover = [e for e in use if e["start"] <= a and b <= e["end"]]
        piece = escape(text[a:b])
        if cover:
            title = "; ".join(f"ESA {e['severity']} error · {e['rater']}" if e["category"] == "ESA error" else
                              f"MQM {e['severity']} · {e['category']} · {e['rater']}" for e in cover)
            piece = f'<span class="bl-mqm" title="{escape(title, quote=True)}">{piece}</span>'
        out.append(piece)
        for e in use:
            if e["end"] == b:
                sev = e["severity"][:3].capitalize() if e["severity"] else "?"
                out.append(f'<sup class="bl-mqm-tag" title="{escape(e["category"] + " · " + e["rater"], quote=True)}">'
                           f"[{escape(sev)}]</sup>")
    return "".join(out)


def legend(categories=None, compact: bool = False) -> str:
    """The key to the highlighting; compact: one line (chips, the letters, the three looks), the underline
    styles and notes left to the hover text, so a page's text starts higher."""
    cats = [c for c in COLORS if categories is None or c in categories]
    if compact:
        chips = "".join(
            f'<span title="{escape(LINES[c])} underline, letter {GLYPHS[c]}'
            f'{"; " + escape(NOTES[c]) if c in NOTES else ""}"><i class="bl-chip" '
            f'style="background:{_rgba(COLORS[c], .45)}"></i><span class="bl-seg" style="text-decoration-style:'
            f'{LINES[c]};text-decoration-color:{COLORS[c]}">{escape(LABELS[c])}</span>'
            f'<span class="bl-g bl-g-{c}"></span></span>' for c in cats)
        chips += ('<span><i class="bl-chip" style="background:rgba(0,0,0,.25)"></i>filled: matched</span>'
                  '<span><i class="bl-chip bl-miss" style="outline:1px dashed #555"></i>hatched: missed or '
                  'extra</span><span title="a feature of weight 0 in these settings, e.g. neuter \'it\'">'
                  '<span class="bl-seg bl-nc" style="text-decoration-line:underline">grey dotted</span>'
                  '<span class="bl-g bl-g-pronoun bl-g0"></span> weight 0</span>'
                  '<span title="each entity of the document its own number, the same in the reference and every '
                  'system">E1, E2: one entity each</span>')
        return f'<div class="bl-legend">{chips}</div>'
    chips = "".join(
        f'<span><i class="bl-chip" style="background:{_rgba(COLORS[c], .45)}"></i>'
        f'<span class="bl-seg" style="text-decoration-style:{LINES[c]};text-decoration-color:{COLORS[c]}">'
        f'{escape(LABELS[c])}</span><span class="bl-g bl-g-{c}"></span> '
        f'<span style="font-size:.8em;opacity:.8">({LINES[c]} underline, letter {GLYPHS[c]}'
        f'{"; " + escape(NOTES[c]) if c in NOTES else ""})</span>'
        f'</span>' for c in cats)
    chips += ('<span><i class="bl-chip bl-miss" style="outline:1px dashed #555"></i>'
              'hatched, dashed outline, paler: missed (reference) or not in the reference (system); '
              'filled: matched</span>'
              '<span><span class="bl-seg bl-nc" style="text-decoration-line:underline">grey, dotted underline, '
              'no fill</span><span class="bl-g bl-g-pronoun bl-g0"></span>, letter with 0: shown but not counted (a '
              'feature with weight 0, e.g. neuter "it")</span>'
              '<span>E1, E2, ...: each entity of the document its own number, the same in the reference and every '
              'system (as the paper colours Qiao and husband)</span>')
    return f'<div class="bl-legend">{chips}</div>'


def spans_text(block: dict, thin: int | None = None) -> str:
    """A category's span counts as every view writes them next to its score: matched/system/reference, and
    ° when the reference has fewer than `thin` spans (default: the thin-evidence threshold)."""
    if thin is None:
        from blonde_core.metric.scoring import THIN as thin
    if "spans" in block:
        m, sy, r = (float(block["spans"][k] or 0) for k in ("matched", "system", "reference"))
    else:
        m, sy, r = (float(block[k]) for k in ("matched", "system", "reference"))
    return f"{m:g}/{sy:g}/{r:g}" + (" °" if r < thin else "")


def shown_f1(block: dict) -> float:
    """A category's F1 as every view shows it: the package reports NaN when nothing matched (R = P = 0),
    shown as 0; NaN only where the category is absent."""
    r, p, f = block.get("R"), block.get("P"), block.get("F1")
    if r == 0 and p == 0:
        return 0.0
    return float("nan") if f is None else float(f)


def category_label(c: str) -> str:
    """A category's name in full: the discourse labels above, "1-gram".."4-gram", BlonD+ names as they are."""
    return LABELS.get(c) or (f"{c}-gram" if c.isdigit() else c)


def counts_line(counts: dict, categories, features: dict | None = None) -> str:
    """A sentence's span counts per category, each with its letter and full short name, and (features:
    {category: {feature: count}}) the count vector by feature, as the paper's Figure 3 gives it."""
    def vec(c):
        f = (features or {}).get(c)
        if not f:
            return ""
        return f' <span class="bl-fv">[{escape(", ".join(f"{k} {v}" for k, v in f.items()))}]</span>'
    return '<div class="bl-counts">' + " · ".join(
        f'<span style="color:{COLORS[c]}">{GLYPHS[c]} {escape(SHORT[c])} {counts.get(c, 0)}{vec(c)}</span>'
        for c in categories) + "</div>"
