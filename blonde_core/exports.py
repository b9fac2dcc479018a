"""Exports safe to open: CSV cells a spreadsheet would run as a formula are neutralised as OWASP
recommends (https://owasp.org/www-community/attacks/CSV_Injection): a text cell that starts with
=, +, -, @, a tab or a carriage return gets a leading single quote, so the spreadsheet shows it as text;
numbers stay numbers (also when written as text, "-0.5"). Every CSV the tool writes (the command line,
every page's download) goes through `csv_text` or `frame_csv`; LaTeX through report.latex_text."""
from __future__ import annotations

import csv
import io
import math

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _is_number(s: str) -> bool:
    try:
        return math.isfinite(float(s))
    except ValueError:
        return False


def csv_cell(v):
    """The value as a spreadsheet may safely read it: a formula-like text cell prefixed with a quote."""
    if isinstance(v, str) and v.startswith(FORMULA_START) and not _is_number(v.strip()):
        return "'" + v
    return v


def csv_text(rows, header=None) -> str:
    """CSV (\\n line ends) of rows of cells, every cell through csv_cell."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if header is not None:
        w.writerow([csv_cell(str(h)) for h in header])
    for row in rows:
        w.writerow([csv_cell(x) for x in row])
    return buf.getvalue()


def frame_csv(df) -> bytes:
    """A pandas DataFrame as UTF-8 CSV bytes, its column names and text cells through csv_cell."""
    out = df.copy()
    out.columns = [csv_cell(str(c)) for c in out.columns]
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    for c in out.columns:
        if not (is_numeric_dtype(out[c]) or is_bool_dtype(out[c])):  # text (object or string dtype): each cell
            out[c] = out[c].map(csv_cell)
    return out.to_csv(index=False).encode("utf-8")
