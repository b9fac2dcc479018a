"""Tables: number formats for st.dataframe, the short HTML summary table, and a table's downloads (CSV, JSON,
LaTeX)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from blonde_core.study import frame_csv, latex_table
from studio.text import esc


def system_column(**kw):
    """The system column of a table: wide enough for whole names (WMT's "JDExploreAcademy"), pinned so it stays
    in view when the table scrolls sideways."""
    return st.column_config.TextColumn(**{"width": "medium", "pinned": True, **kw})


def _decimals(df: pd.DataFrame, precision: int) -> tuple[pd.DataFrame, dict]:
    """(a copy with number-like object columns made numeric, {column: decimals}): whole-number columns 0,
    the others `precision` (a column named F1 or A - B always has decimals)."""
    df = df.copy()
    out = {}
    for c in df.columns:
        if df[c].dtype == object and df[c].map(lambda v: v is None or isinstance(v, (int, float))).all() \
                and df[c].notna().any():
            df[c] = pd.to_numeric(df[c])
        if df[c].dtype.kind in "fi":
            vals = df[c].dropna()
            counts = df[c].dtype.kind == "i" or (bool((vals == vals.round()).all()) and "F1" not in c
                                                 and "A - B" not in c)
            out[c] = 0 if counts else precision
    return df, out


def number_columns(df: pd.DataFrame, precision: int = 2) -> tuple[pd.DataFrame, dict]:
    """styled()'s rules as the grid's own column formats, for st.dataframe(..., column_config=...,
    placeholder="-"). No pandas Styler, which computed a style for every cell on every run (the Categories
    page's two largest tables: 15 ms)."""
    df, dec = _decimals(df, precision)
    return df, {c: st.column_config.NumberColumn(format=f"%.{k}f") for c, k in dec.items()}


def styled(df: pd.DataFrame, precision: int = 2):
    """A table for st.dataframe: None/NaN shown as "-", whole-number columns without decimals,
    the others with `precision` decimals (sorting still uses the numbers)."""
    df, dec = _decimals(df, precision)
    return df.style.format({c: f"{{:.{k}f}}" for c, k in dec.items()}, na_rep="-")


SUMMARY_CSS = ("<style>.bl-sum{border-collapse:collapse;font-size:.88rem;margin:.1rem 0 .5rem 0;}"
               ".bl-sum th,.bl-sum td{border:1px solid rgba(49,51,63,.18);padding:2px 10px;text-align:left;}"
               ".bl-sum th{background:rgba(49,51,63,.05);position:sticky;top:0;}"
               ".bl-sum td.bl-num{text-align:right;font-variant-numeric:tabular-nums;}"
               ".bl-sum-box{overflow:auto;}</style>")


def summary_table(df: pd.DataFrame, max_height: int | None = None) -> str:
    """A short summary table as plain HTML for st.html: every header and cell escaped,
    numbers right-aligned; taller than max_height px it scrolls. For what a page states
    (what was understood of an upload), not for data to sort: st.dataframe's grid costs
    a browser tab ~0.4 s of CPU the first time it is drawn, and the Data page drew two of
    them right after Analyse - with eight people analysing at once on the server's machine
    that was CPU taken from the annotation they were all waiting for."""
    head = "".join(f"<th>{esc(c)}</th>" for c in df.columns)
    num = [' class="bl-num"' if df[c].dtype.kind in "iuf" else "" for c in df.columns]
    body = "".join("<tr>" + "".join(f"<td{n}>{esc(v)}</td>" for v, n in zip(row, num)) + "</tr>"
                   for row in df.itertuples(index=False, name=None))
    style = f' style="max-height:{int(max_height)}px"' if max_height else ""
    return (f'<div class="bl-sum-box"{style}><table class="bl-sum"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def to_latex(df: pd.DataFrame, caption: str = "") -> str:
    """A table as booktabs LaTeX, ASCII only (the core's report.latex_table: arrows as math, accents dropped)."""
    return latex_table(df.to_dict("records"), [str(c) for c in df.columns], caption=caption,
                             label="tab:" + "-".join(str(c) for c in df.columns[:1]))


def downloads(df: pd.DataFrame, name: str, latex: bool = False, key: str = "") -> None:
    """A table's CSV, JSON (and LaTeX) buttons.  Each file is made when its button is clicked (Streamlit calls
    the function then; a click does not rerun the page), not on every run of the page: three tables' files
    were a fifth of the Categories page's time."""
    cols = st.columns(3 if latex else 2)
    cols[0].download_button("CSV", lambda: frame_csv(df), f"{name}.csv", "text/csv", key=f"csv_{key}{name}",
                            icon=":material/download:", on_click="ignore")
    cols[1].download_button("JSON", lambda: df.to_json(orient="records", force_ascii=False, indent=1).encode(),
                            f"{name}.json", "application/json", key=f"json_{key}{name}", icon=":material/download:",
                            on_click="ignore")
    if latex:
        cols[2].download_button("LaTeX", lambda: to_latex(df).encode(), f"{name}.tex", "text/x-tex",
                                key=f"tex_{key}{name}", icon=":material/download:", on_click="ignore")
