"""BlonDe Studio's scoring core: exact, fast BlonDe / BlonD-d / BlonD+.

No Streamlit here.  Start with `metric.BlonDe`; the formula is in
`scoring.py`, the counts in `sufficient.py` and `features.py`.
"""
__version__ = "0.1.0"

from .errors import InputError  # noqa: E402,F401
