"""One significance policy: the test, unit and correction that make the Overview's
clusters are the Significance page's and the CLI's defaults, and every view says
which they are and over how many units.

The unit is chosen from the data: documents when there are at least MIN_UNITS of
them; otherwise blocks of consecutive segments (never across a document boundary)
as large as still gives at least MIN_UNITS units; with fewer than MIN_UNITS segments
in all, segments.  Fewer than MIN_UNITS units of any kind carries a warning.
"""
from __future__ import annotations

import math

MIN_UNITS = 30
TEST = "bootstrap"        # paired bootstrap resampling over units (Koehn 2004), as WMT reports
CORRECTION = "p_bh"       # Benjamini-Hochberg over all pairs
ALPHA = 0.05
RESAMPLES = 1000
CI_METHOD = "bca-conditional"  # the BlonDe family's interval on the leaderboard (intervals.py; docs/statistics.md)
TEST_NAMES = {"ttest": "paired t-test", "wilcoxon": "Wilcoxon signed-rank", "bootstrap": "paired bootstrap",
              "ar": "approximate randomization"}
CORRECTION_NAMES = {"p": "no correction", "p_holm": "Holm", "p_bh": "Benjamini-Hochberg"}


def _blocks(lengths: list[int], size: int) -> int:
    return sum(math.ceil(n / size) for n in lengths if n)


def auto_unit(doc_lengths: list[int], granularity: str = "sentence") -> dict:
    """{"unit", "n_units", "reason", "warning", "note"} for documents of these segment counts
    (warning: the chosen unit still gives fewer than MIN_UNITS; note: why not documents)."""
    n_docs = len(doc_lengths)
    if n_docs >= MIN_UNITS:
        return {"unit": "doc", "n_units": n_docs, "reason": f"{n_docs} documents (at least {MIN_UNITS})",
                "warning": None, "note": None}
    if granularity == "document":
        return {"unit": "doc", "n_units": n_docs, "reason": "document-level matching: documents are the only unit",
                "warning": few_units(n_docs, "documents"), "note": None}
    total = sum(doc_lengths)
    if total < MIN_UNITS:
        return {"unit": "segment", "n_units": total, "reason": f"only {total} segments in all",
                "warning": few_units(total, "segments"), "note": None}
    size = max(s for s in range(1, max(doc_lengths) + 1) if _blocks(doc_lengths, s) >= MIN_UNITS)
    unit = "segment" if size == 1 else f"block:{size}"
    n = _blocks(doc_lengths, size)
    what = "segments" if size == 1 else f"blocks of {size} consecutive segments"
    return {"unit": unit, "n_units": n,
            "reason": f"only {n_docs} document{'s' if n_docs != 1 else ''} (fewer than {MIN_UNITS}), so {what}: "
                      f"{n} units", "warning": None,
            "note": f"Only {n_docs} document{'s' if n_docs != 1 else ''}: too few units for a test over documents "
                    f"(fewer than {MIN_UNITS}). Significance and intervals use {what} instead ({n} units, never "
                    "across a document boundary); documents stay selectable on the Significance page."}


def corpus_unit(corpus, granularity: str = "sentence") -> dict:
    """auto_unit for a corpus's documents (their segment counts in its first reference)."""
    return auto_unit(corpus.doc_lengths(next(iter(corpus.references))), granularity)


def few_units(n: int, what: str = "units") -> str | None:
    if n >= MIN_UNITS:
        return None
    return (f"only {n} {what}: fewer than {MIN_UNITS} units cannot carry a reliable significance test "
            "(p-values and intervals rest on very few observations)")


def describe(test: str, unit: str, n_units: int, correction: str = CORRECTION) -> str:
    return (f"{TEST_NAMES.get(test, test)} over {n_units} units ({unit}), {CORRECTION_NAMES.get(correction, correction)}"
            f"-corrected, p < {ALPHA}")
