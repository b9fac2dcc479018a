"""Text for the page's three renderers: `esc` for HTML (st.html), `md_escape` for Markdown shown literally
(messages, captions, headers: escaped, never rendered), `label`/`unlabel` for plotly's labels, and the small
wording helpers the pages share.  No Streamlit here."""
from __future__ import annotations

import html


def esc(s) -> str:
    """For HTML (st.html, span rendering)."""
    return html.escape(str(s), quote=True)


_MD_SPECIAL = set("\\`*_[]<>#~$:|&")


def md_escape(s) -> str:
    """Text shown literally inside Markdown (messages, captions, headers): the characters
    that make links, emphasis, code, HTML, math, emoji codes, colour directives and
    tables are backslash-escaped (and a leading list marker), so a file named
    [x](y).txt or **b**.txt shows as written, never as a link or bold."""
    import re

    out = "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in str(s)).replace("\n", " ")
    return re.sub(r"^(\s*)([-+]|\d+(?=\.))", lambda m: m.group(1) + "\\" + m.group(2)
                  if m.group(2) in "-+" else m.group(1) + m.group(2) + "\\", out, count=1)


def label(s) -> str:
    """Text for plotly labels and hover text (plotly renders some HTML tags)."""
    return html.escape(str(s), quote=False)


def unlabel(s) -> str:
    """The name behind a plotly label (what a chart selection reports)."""
    return html.unescape(str(s))


def pct(x) -> float:
    return float("nan") if x is None else 100.0 * x


def first_clause(text: str) -> str:
    """A warning's gist for its one line: up to its first colon or parenthesis ("only 10 units")."""
    return text.split(":")[0].split(" (")[0].strip()
