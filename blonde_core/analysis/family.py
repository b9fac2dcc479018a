"""A metric family's machinery: the `Family` object its hooks hang on (analysis/families.py registers them), the
scoring function lifted to arrays of summed statistics, a family's scores oriented for `correlate`.  A family's own
module imports `Family` from here, so the registration in families.py makes no circle."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from blonde_core.errors import InputError
from blonde_core.metric import registry


def scalar_fn(fn, name):
    """Lift a function of one summed statistics vector to arrays of them (leading axes)."""
    def lifted(S):
        S = np.asarray(S, dtype=float)
        if S.ndim == 1:
            return np.asarray(fn(S), dtype=float)
        flat = S.reshape(-1, S.shape[-1])
        return np.array([fn(x) for x in flat], dtype=float).reshape(S.shape[:-1])
    lifted.name = name
    return lifted


def _nan(x):
    return float("nan") if x is None else x


@dataclass(frozen=True)
class Family:
    """One family.  kinds: the registry families (`MetricSpec.family`) it holds; words: what help texts call it;
    help: how a help text lists its metrics, with {kind} for the names of each registry family (default: the names,
    each lower-is-better one marked); head: its columns open the leaderboard (before the human and omitted
    columns); score: `score --metrics` asks for it; tested: `compare --metric` tests it; owns(metric, inputs): the
    metrics it holds that the registry does not know (those computed elsewhere: the inputs say which), asked before
    the registry; the hooks: see the module's docstring (None: the family's scores give it, or it has none)."""
    name: str
    kinds: tuple
    words: str
    help: str = ""
    head: bool = False
    score: bool = True
    tested: bool = True
    owns: Callable | None = None
    columns: Callable | None = None
    unit_data: Callable | None = None
    values: Callable | None = None
    scores: Callable | None = None
    segment_stats: Callable | None = None
    score_stats: Callable | None = None

    @property
    def metrics(self) -> tuple:
        return registry.names(*self.kinds)

    def chosen(self, asked) -> list:
        """The metrics asked for: the names given, or (True, a pair, ...) every metric of the family."""
        return list(asked) if isinstance(asked, (tuple, list)) else list(self.metrics)

    def board_columns(self, b) -> None:
        """Its leaderboard columns (b: leaderboard.py's builder), none when nothing of it was asked."""
        asked = b.asked.get(self.name)
        if not asked:
            return
        if self.columns is not None:
            self.columns(b)
            return
        # a family's own scores: one column per metric, its direction as an arrow, why it is empty when it is
        vals, pack = self.scores(b.study, b.cfg, asked), b.cfg.pack
        for m in self.chosen(asked):
            spec = registry.SPECS[m]
            b.add(dict(key=f"{m} {'↑' if spec.higher_is_better else '↓'}", kind=self.name, metric=m,
                       higher_is_better=spec.higher_is_better, points=spec.points, unavailable=spec.unavailable(pack)),
                  {s: vals.get(s, {}).get(m) for s in b.names})

    def unit_data_of(self, result, metric: str, unit: str, names: list, inputs: dict):
        """({system: (unit ids, statistics)}, the function scoring them, lower_is_better) for a paired test."""
        if self.unit_data is not None:
            return self.unit_data(result, metric, unit, names, inputs)
        from .stats.units import unit_groups  # (the stats package imports this module: its paired tests)

        spec = registry.SPECS[metric]
        if not spec.tested_over(unit):
            raise InputError(spec.units_sentence(), code=InputError.Codes.SETTING)
        ids, groups = unit_groups(result, unit)
        per = {}
        for nm in names:
            st = np.zeros((len(ids),) + np.shape(self.segment_stats(result, nm))[1:])
            np.add.at(st, groups, self.segment_stats(result, nm))
            per[nm] = (ids, st)
        return per, scalar_fn(lambda v: self.score_stats(metric, v), metric), not spec.higher_is_better

    def values_of(self, level: str, names: list, inputs: dict) -> dict:
        """{oriented name: {system: value}} (system level) or {system: {doc: value}} (document level)."""
        given = inputs.get(self.name)
        if not given:
            return {}
        if self.values is not None:
            return self.values(level, names, given)
        return _oriented(level, names, given)

    def help_text(self, units: bool = False) -> str:
        """Its metrics for a help text: "BLEU, chrF, TER (lower is better), ..."; units: say "(document units)"
        when a paired test resamples them over documents only."""
        if self.help:
            return self.help.format(**{k: ", ".join(registry.names(k)) for k in self.kinds})
        specs = [registry.SPECS[m] for m in self.metrics]
        return ", ".join(s.name + ("" if s.higher_is_better else " (lower is better)") for s in specs) + (
            " (document units)" if units and specs and all(s.units == ("doc",) for s in specs) else "")


def _oriented(level: str, names: list, scores: dict) -> dict:
    """A family's scores ({system: {metric: v, "documents": {doc: {metric: v}}}}) oriented higher-is-better."""
    out = {}
    for m in next(iter(scores.values()), {}):
        if m == "documents":
            continue
        sign, key = registry.SPECS[m].oriented()
        out[key] = {s: (sign * _nan(v[m]) if level == "system" else
                        {d: sign * _nan(dv[m]) for d, dv in v["documents"].items()})
                    for s, v in scores.items() if s in names}
    return out
