"""Correlation with human judgments (Pearson, Spearman, Kendall with intervals), the
Williams test for dependent correlations, metric tables at system and document level."""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps

from ..errors import InputError
from ..scoring import score
from .units import metric_fn


def _fisher_ci(r: float, n: int, se_scale: float, offset: int, level: float) -> list:
    if n - offset <= 0 or r is None or math.isnan(r) or abs(r) >= 1:
        return [None, None] if (r is None or math.isnan(r)) else [r, r]
    z = math.atanh(r)
    se = math.sqrt(se_scale / (n - offset))
    q = sps.norm.ppf(0.5 + level / 2)
    return [math.tanh(z - q * se), math.tanh(z + q * se)]


def correlations(x, y, level: float = 0.95) -> dict:
    """Pearson, Spearman and Kendall tau-b with Fisher-z confidence intervals
    (Spearman: Fieller et al. variance 1.06/(n-3); Kendall: 0.437/(n-4))."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = ~(np.isnan(x) | np.isnan(y))
    x, y = x[ok], y[ok]
    n = len(x)
    out = {"n": n}
    if n < 3 or np.all(x == x[0]) or np.all(y == y[0]):
        for k in ("pearson", "spearman", "kendall"):
            out[k], out[k + "_p"], out[k + "_ci"] = None, None, [None, None]
        return out
    pr = sps.pearsonr(x, y)
    ci = pr.confidence_interval(confidence_level=level) if n > 3 else None
    out["pearson"], out["pearson_p"] = float(pr.statistic), float(pr.pvalue)
    out["pearson_ci"] = [float(ci.low), float(ci.high)] if ci is not None else [None, None]
    sr = sps.spearmanr(x, y)
    out["spearman"], out["spearman_p"] = float(sr.statistic), float(sr.pvalue)
    out["spearman_ci"] = _fisher_ci(float(sr.statistic), n, 1.06, 3, level)
    kt = sps.kendalltau(x, y, variant="b")
    out["kendall"], out["kendall_p"] = float(kt.statistic), float(kt.pvalue)
    out["kendall_ci"] = _fisher_ci(float(kt.statistic), n, 0.437, 4, level)
    return out


def williams_test(r12: float, r13: float, r23: float, n: int) -> tuple[float, float]:
    """Williams' test for two dependent correlations sharing variable 1 (e.g. the
    human score): is r12 larger than r13, given r23?  The formula of R's
    psych::r.test, df = n - 3.  Returns (t, one-sided p)."""
    if n <= 3:
        raise InputError("the Williams test needs n > 3")
    diff = r12 - r13
    det = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    rbar = (r12 + r13) / 2
    cube = (1 - r23) ** 3
    denom = 2 * ((n - 1) / (n - 3)) * det + rbar ** 2 * cube
    if denom <= 0 or 1 + r23 < 0:  # degenerate (e.g. the two metrics are perfectly correlated)
        return float("nan"), float("nan")
    t = diff * math.sqrt((n - 1) * (1 + r23) / denom)
    p = float(sps.t.sf(abs(t), n - 3))
    return float(t), p


def metric_names(result) -> list[str]:
    probe = score(np.zeros((result.layout.n, 3)), result.config, result.layout, result.plus)
    tops = ["BlonDe", "BlonD-d"] + (["BlonD+"] if result.plus else [])
    return tops + list(probe["categories"])


def metric_table(result, human, level: str = "system", metrics: list[str] | None = None,
                 extra: dict | None = None):
    """Aligned metric and human values: (keys, {metric: values}, human values).

    level "system": one value per system (corpus score vs mean human score);
    "document": one value per (system, document), pooled over systems.
    extra: further metrics {name: {system: value}} or {name: {system: {doc: value}}}.
    """
    if level not in ("system", "document"):
        raise InputError("level must be system or document")
    metrics = metrics or metric_names(result)
    fns = {m: metric_fn(result, m) for m in metrics}
    systems = [s for s in result.names if s in human.system_scores]
    if not systems:
        raise InputError(f"no system of the human judgments ({', '.join(sorted(human.system_scores))}) is among "
                         f"the scored systems ({', '.join(result.names)})")
    keys, hum = [], []
    vals = {m: [] for m in metrics}
    extra = extra or {}
    for m in extra:
        vals[m] = []
    doc_ids = result.corpus.doc_ids
    for s in systems:
        if level == "system":
            keys.append(s)
            hum.append(human.oriented(human.system_scores[s]))
            tot = result.total(s)
            for m, fn in fns.items():
                vals[m].append(float(fn(tot)))
            for m, table in extra.items():
                vals[m].append(float(table.get(s, np.nan)))
        else:
            ds = result.doc_stats(s)
            per = {m: fn(ds) for m, fn in fns.items()}
            for i, d in enumerate(doc_ids):
                if d not in human.doc_scores.get(s, {}):
                    continue
                keys.append(f"{s}/{d}")
                hum.append(human.oriented(human.doc_scores[s][d]))
                for m in fns:
                    vals[m].append(float(per[m][i]))
                for m, table in extra.items():
                    vals[m].append(float(table.get(s, {}).get(d, np.nan)))
    return keys, {m: np.array(v) for m, v in vals.items()}, np.array(hum)


def correlate(result, human, level: str = "system", metrics: list[str] | None = None, extra: dict | None = None,
              confidence: float = 0.95) -> dict:
    """Correlation of every metric with the human scores.  `extra` metrics must
    already be oriented so that higher is better (e.g. "-TER")."""
    keys, vals, hum = metric_table(result, human, level, metrics, extra)
    out = {"signature": result.signature, "level": level, "human": human.name,
           "human_direction": "higher is better" if human.higher_is_better else
           "lower is better (negated before correlating)", "n": len(keys), "metrics": {}, "williams": [],
           "matrix": {}}
    for m, v in vals.items():
        out["metrics"][m] = correlations(v, hum, confidence)
    names = list(vals)
    for a in names:
        out["matrix"][a] = {}
        for b in names:
            ok = ~(np.isnan(vals[a]) | np.isnan(vals[b]))
            if ok.sum() >= 3 and np.ptp(vals[a][ok]) > 0 and np.ptp(vals[b][ok]) > 0:
                out["matrix"][a][b] = float(np.corrcoef(vals[a][ok], vals[b][ok])[0, 1])
            else:
                out["matrix"][a][b] = None
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            r12, r13 = out["metrics"][a]["pearson"], out["metrics"][b]["pearson"]
            r23 = out["matrix"][a][b]
            ok = ~(np.isnan(vals[a]) | np.isnan(vals[b]) | np.isnan(hum))
            n = int(ok.sum())
            if None in (r12, r13, r23) or n <= 3:
                continue
            first, second, ra, rb = (a, b, r12, r13) if r12 >= r13 else (b, a, r13, r12)
            t, p = williams_test(ra, rb, r23, n)
            if math.isnan(t):
                continue
            out["williams"].append({"a": first, "b": second, "r_a": ra, "r_b": rb, "r_ab": r23, "t": t, "p": p,
                                    "n": n})
    return out


def oriented_tables(level: str, names: list[str], standard=None, companion: dict | None = None,
                    apt: dict | None = None) -> dict:
    """Further metrics for `correlate`, oriented so that higher is better: lower-is-better
    metrics are negated and named with a minus ("-TER", "-Otem").

    standard: a StandardResult; companion: companion_scores(..., per_doc=True) output;
    apt: corpus_apt output.  Returns {name: {system: value}} (system level) or
    {name: {system: {doc: value}}} (document level)."""
    from ..companion import LOWER_IS_BETTER

    def nan(x):
        return float("nan") if x is None else x

    out = {}
    if standard is not None:
        from ..standard import HIGHER_IS_BETTER

        for m in standard.metrics:
            sign, key = (1.0, m) if HIGHER_IS_BETTER[m] else (-1.0, f"-{m}")
            out[key] = {s: (sign * standard.score(m, s) if level == "system" else
                            {d: sign * v for d, v in standard.doc_scores(m, s).items()}) for s in names}
    for m in (next(iter(companion.values()), {}) if companion else {}):
        if m == "documents":
            continue
        sign, key = (-1.0, f"-{m}") if LOWER_IS_BETTER[m] else (1.0, m)
        out[key] = {s: (sign * nan(v[m]) if level == "system" else
                        {d: sign * nan(dv[m]) for d, dv in v["documents"].items()})
                    for s, v in companion.items() if s in names}
    if apt:
        out["APT"] = {s: (nan(v["APT"]) if level == "system" else {d: nan(x) for d, x in v["documents"].items()})
                      for s, v in apt.items() if s in names}
    return out
