"""The one NaN-to-None helper: JSON and tables say "no value" as None (null)."""
from __future__ import annotations

import math

import numpy as np


def nan_to_none(x):
    """None for None and NaN; numpy scalars (and 0-d arrays) as Python numbers; anything else unchanged."""
    if x is None:
        return None
    if isinstance(x, (np.generic, np.ndarray)) and np.ndim(x) == 0:
        x = x.item()
    if isinstance(x, float) and math.isnan(x):
        return None
    return x
