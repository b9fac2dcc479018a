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


def json_safe(obj):
    """A copy of `obj` that strict JSON can hold: NaN and infinities as None (null), numpy scalars and arrays
    as Python numbers and lists, tuples as lists; dict keys as given.  Every JSON the tool writes goes through it
    (a statistic of an empty category is NaN, and JSON has no NaN)."""
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return json_safe(obj.tolist())
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def time_left(done: int, total: int, since: float, done_at_start: int, now: float) -> str:
    """"about 2 min left": the time the rest takes at the rate since the bar appeared ("" for the first 3 s,
    or before any progress: no estimate from too little)."""
    elapsed, gained = now - since, done - done_at_start
    if elapsed < 3 or gained <= 0 or done >= total:
        return ""
    left = (total - done) * elapsed / gained
    if left < 60:
        return f"about {max(5, round(left / 5) * 5):.0f} s left"
    if left < 3600:
        return f"about {round(left / 60):.0f} min left"
    return f"about {left / 3600:.1f} h left"
