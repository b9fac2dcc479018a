"""Paired tests between systems (t-test, Wilcoxon, paired bootstrap, approximate randomization),
all pairs with Holm / Benjamini-Hochberg corrections, significance clusters."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from blonde_core.errors import InputError
from blonde_core.metric import registry
from ..families import FAMILIES, family, scalar_fn
from .intervals import (_f, _resampled, ABSENT_WARN, absent_in_resamples, interval, jackknife, percentile_ci,
                        resample_weights)
from .intervals import collapses as intervals_collapse
from .policy import CI_METHOD
from .units import align, DEFAULT_SEED, metric_fn, parse_unit, TESTS, unit_groups, unit_stats


def holm(p) -> np.ndarray:
    p = np.asarray(p, dtype=float)
    m = len(p)
    if m == 0:
        return p
    order = np.argsort(p, kind="stable")
    adj = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(adj, 1.0)
    return out


def bh(p) -> np.ndarray:
    p = np.asarray(p, dtype=float)
    if len(p) == 0:
        return p
    return sps.false_discovery_control(p, method="bh")


def _p_from_samples(samples: np.ndarray, real: float) -> float:
    """sacrebleu / multeval: (count(samples > real) + 1) / (n + 1)."""
    return (int(np.sum(samples > real)) + 1) / (len(samples) + 1)


BOOTSTRAP_METHOD = "percentile"  # named in the significance signature


def percentile_test(diffs: np.ndarray, level: float = 0.95) -> tuple[float | None, list]:
    """The paired bootstrap's two-sided p-value and interval from the same resampled differences
    (Davison and Hinkley 1997, Bootstrap Methods and their Application: the percentile interval's
    ((B+1) alpha/2)-th order statistics, sec. 5.2, and the bootstrap p-value with the add-one
    correction, sec. 4.4):

        p = 2 min(#(d* <= 0) + 1, #(d* >= 0) + 1) / (B + 1), at most 1
        interval = [d*(j), d*(B+1-j)] (ascending, 1-based), j = ceil((B+1) alpha/2 - 1)

    so the interval excludes 0 exactly when p < alpha = 1 - level (both say: fewer than
    (B+1) alpha/2 - 1 resamples fall on the other side of 0).  Resamples whose difference is
    undefined (NaN) are left out; with too few resamples for the level the interval is unbounded
    ([None, None]) and p is at least alpha."""
    d = np.sort(np.asarray(diffs, dtype=float)[~np.isnan(diffs)])
    B = len(d)
    if B == 0:
        return None, [None, None]
    p = min(1.0, 2 * (min(int((d <= 0).sum()), int((d >= 0).sum())) + 1) / (B + 1))
    from fractions import Fraction

    alpha = 1 - Fraction(str(level))  # exact: 0.95 -> 1/20, so the boundary case p == alpha is not significant
    j = math.ceil(alpha * (B + 1) / 2 - 1)
    if j < 1:
        return p, [None, None]
    return p, [float(d[j - 1]), float(d[B - j])]


@dataclass
class PairInput:
    name_a: str
    name_b: str
    stats_a: np.ndarray  # (units, F, 3), aligned
    stats_b: np.ndarray
    ids: list


def paired_test(p: PairInput, fn, test: str = "ttest", n: int | None = None, seed: int = DEFAULT_SEED,
                weights: np.ndarray | None = None, level: float = 0.95, precomputed: dict | None = None) -> dict:
    """One paired comparison of A against B over aligned units.

    precomputed: optional {"units": (ua, ub), "resampled": (sa, sb), "corpus": (a, b)},
    the per-unit scores, the scores of the `weights` resamples and the corpus
    scores, when the caller has them."""
    if test not in TESTS:
        raise InputError(f"unknown test '{test}' (choose from {', '.join(TESTS)})", code=InputError.Codes.SETTING)
    A, B = p.stats_a, p.stats_b
    pre = precomputed or {}
    ua, ub = pre["units"] if "units" in pre else (fn(A), fn(B))  # per-unit scores
    ok = ~(np.isnan(ua) | np.isnan(ub))
    n_nan = int((~ok).sum())
    d = ua[ok] - ub[ok]
    corpus_a, corpus_b = pre["corpus"] if "corpus" in pre else (float(fn(A.sum(0))), float(fn(B.sum(0))))
    out = {"a": p.name_a, "b": p.name_b, "metric": fn.name, "test": test,
           "score_a": _f(corpus_a), "score_b": _f(corpus_b), "corpus_diff": _f(corpus_a - corpus_b),
           "mean_diff": _f(d.mean()) if len(d) else None, "ci": [None, None], "t": None, "p": None,
           "n_units": int(ok.sum()), "n_nan_units": n_nan}
    identical = np.array_equal(A, B)
    if len(d) >= 2:
        se = d.std(ddof=1) / math.sqrt(len(d))
        tq = sps.t.ppf(0.5 + level / 2, len(d) - 1)
        out["ci"] = [_f(d.mean() - tq * se), _f(d.mean() + tq * se)]
    if identical:
        out["p"] = 1.0
        if test == "ttest":
            out["t"] = 0.0
        out["ci"] = [0.0, 0.0]
        out["ci_method"] = "identical systems"
        return out
    if test in ("wilcoxon", "ar"):  # a p-value only: a t interval beside it could contradict it
        out["ci"] = [None, None]
        out["ci_method"] = "none: this test gives a p-value only"
    else:
        out["ci_method"] = "t interval of the mean unit difference (the t-test's own)"
    if test == "ttest":
        if len(d) >= 2:
            if np.all(d == 0):
                out["t"], out["p"] = 0.0, 1.0
            else:
                r = sps.ttest_rel(ua[ok], ub[ok])
                out["t"], out["p"] = _f(r.statistic), _f(r.pvalue)
        return out
    if test == "wilcoxon":
        if len(d) >= 1:
            if np.all(d == 0):
                out["p"] = 1.0
            else:
                r = sps.wilcoxon(ua[ok], ub[ok])
                out["p"] = _f(r.pvalue)
                out["statistic"] = _f(r.statistic)
        return out
    real = abs(corpus_a - corpus_b)
    if test == "bootstrap":
        w = weights if weights is not None else resample_weights(len(A), n or 1000, seed)
        if "resampled" in pre and weights is not None:
            sa, sb = pre["resampled"]
        else:
            sa, sb = fn(_resampled(A, w)), fn(_resampled(B, w))
        diffs = sa - sb
        out["p"], out["ci"] = percentile_test(diffs, level)
        out["ci_of"] = "corpus_diff"
        out["ci_method"] = "bootstrap percentile, the p-value's own resamples"
        out["n_resamples"] = int((~np.isnan(diffs)).sum())
        return out
    # approximate randomization
    trials = n or 10000
    rng = np.random.default_rng(seed)
    sel = rng.integers(2, size=(trials, len(A))).astype(float)
    fa, fb = A.reshape(len(A), -1), B.reshape(len(B), -1)
    shape = (trials,) + A.shape[1:]
    sh_a = (sel @ fa + (1 - sel) @ fb).reshape(shape)
    sh_b = ((1 - sel) @ fa + sel @ fb).reshape(shape)
    out["p"] = _p_from_samples(np.abs(fn(sh_a) - fn(sh_b)), real)
    out["n_trials"] = trials
    return out


def measure(result, metric: str, unit: str = "doc", names=None, standard=None, companion_kw=None, external=None):
    """Per-unit statistics of every system and the function that scores them.

    metric: a registered metric (its family's `unit_data` hook says what is resampled: analysis/families.py - a
    BlonDe metric (see metric_fn), a companion metric, sacrebleu's over documents only with `standard` a
    StandardResult) or one computed elsewhere (`external`).  Returns ({name: (unit ids, stats)}, fn,
    lower_is_better)."""
    names = list(names or result.names)
    inputs = {"standard": standard, "companion_kw": companion_kw, "external": external}
    fam = family(metric, inputs)
    if fam is None or not fam.tested:  # metric_fn names what it takes
        fam = FAMILIES[0]
    return fam.unit_data_of(result, metric, unit, names, inputs)


def compare(result, names: list[str] | None = None, metric: str = "BlonDe", test: str = "ttest",
            unit: str = "doc", n: int | None = None, seed: int = DEFAULT_SEED, level: float = 0.95,
            standard=None, companion_kw=None, system_cis: bool = True, external=None) -> dict:
    """All pairs of systems, corrected p-values, and every system's bootstrap CI (the BlonDe family's the
    leaderboard's, policy.CI_METHOD; system_cis=False skips the intervals when only the tests are wanted); external: metrics computed
    elsewhere ({name: io.metric_scores.ExternalMetric}) that `metric` may name."""
    from .policy import corpus_unit, few_units

    names = list(names or result.names)
    asked = unit
    reason = None
    if unit == "auto":
        choice = corpus_unit(result.corpus, result.config.granularity)
        unit, reason = choice["unit"], choice["reason"]
        spec = registry.spec(metric)
        if spec is not None and metric not in (external or {}) and not spec.tested_over(unit):
            unit, reason = "doc", f"{metric} is tested over documents only"
        ext = (external or {}).get(metric)
        if ext is not None and unit != "doc" and not (ext.seg and result.config.granularity == "sentence"):
            unit, reason = "doc", f"{metric} has document scores only: tested over documents"
    per, fn, lower = measure(result, metric, unit, names, standard, companion_kw, external)
    ids0 = per[names[0]][0]
    n_boot = n if (n and test == "bootstrap") else 1000
    w = resample_weights(len(ids0), n_boot, seed)
    systems, resampled, unit_scores, corpus = {}, {}, {}, {}
    need_resamples = system_cis or test == "bootstrap"
    collapsing = (fn.name in registry.names("blonde") and result.config.average == "geometric"
                  and result.config.absent == "keep" and test == "bootstrap")
    absent = {}
    tops = registry.names("blonde")
    for nm in names:
        ids, st = per[nm]
        unit_scores[nm] = fn(st)
        corpus[nm] = float(fn(st.sum(0)))
        if need_resamples:
            rs = _resampled(st, w)  # each resample's summed statistics: scored, and (collapsing) checked for absence
            resampled[nm] = fn(rs)
            if collapsing:
                absent[nm] = absent_in_resamples(result, rs)
        systems[nm] = {"score": _f(corpus[nm]), "ci": [None, None]}
        if system_cis and fn.name in tops:  # the BlonDe family's interval is the leaderboard's (policy.CI_METHOD)
            gone = absent_in_resamples(result, rs) if intervals_collapse(result) else {}
            keep = ~np.logical_or.reduce(list(gone.values())) if gone else None
            systems[nm]["ci"] = interval(CI_METHOD, resampled[nm], corpus[nm], level, keep, jackknife(fn, st))
        elif system_cis:
            systems[nm]["ci"] = percentile_ci(resampled[nm], level)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            ia, ib, common = align(per[a][0], per[b][0])
            pin = PairInput(a, b, per[a][1][ia], per[b][1][ib], common)
            same_units = list(per[a][0]) == list(per[b][0]) == list(ids0)
            pre = None
            if same_units:
                pre = {"units": (unit_scores[a], unit_scores[b]), "corpus": (corpus[a], corpus[b])}
                if need_resamples:
                    pre["resampled"] = (resampled[a], resampled[b])
            pairs.append(paired_test(pin, fn, test, n, seed, w if (same_units and test == "bootstrap") else None,
                                     level, pre))
    if collapsing:
        for q in pairs:
            if q["a"] in absent and q["b"] in absent and len(per[q["a"]][0]) == len(ids0):
                q["absent"] = {c: float((absent[q["a"]][c] | absent[q["b"]][c]).mean())
                               for c in absent[q["a"]] if (absent[q["a"]][c] | absent[q["b"]][c]).any()}
    if len(ids0) < 2:  # one unit: every resample is that unit, so a bootstrap "p" would only echo the sign
        for q in pairs:
            q["p"], q["ci"] = None, [None, None]
    ps = np.array([np.nan if q["p"] is None else q["p"] for q in pairs])
    valid = ~np.isnan(ps)
    h, b = np.full(len(ps), np.nan), np.full(len(ps), np.nan)
    if valid.any():
        h[valid] = holm(ps[valid])
        b[valid] = bh(ps[valid])
    for q, hv, bv in zip(pairs, h, b):
        q["p_holm"], q["p_bh"] = _f(hv), _f(bv)
    sig = (f"{result.signature}|test:{test}" + (f"-{BOOTSTRAP_METHOD}" if test == "bootstrap" else "")
           + f"|unit:{unit}|metric:{fn.name}|seed:{seed}"
           + (f"|n:{n or (1000 if test == 'bootstrap' else 10000)}" if test in ("bootstrap", "ar") else ""))
    warning = few_units(len(ids0)) if len(ids0) >= 2 else (
        f"only {len(ids0)} unit ({unit}): no test is possible - a test needs at least two units (document ids, or "
        "blocks of segments where the metric allows them)")
    out = {"signature": sig, "metric": fn.name, "test": test, "unit": unit, "unit_asked": asked, "unit_reason": reason,
           "seed": seed, "n_units": len(ids0), "warning": warning,
           "direction": "lower is better" if lower else "higher is better", "pairs": pairs, "systems": systems}
    if system_cis:
        out["systems_ci_method"] = CI_METHOD if fn.name in tops else "percentile"
    if collapsing:
        worst = {}
        for q in pairs:
            for c, share in q.get("absent", {}).items():
                worst[c] = max(worst.get(c, 0.0), share)
        out["absent"] = worst
        heavy = {c: s for c, s in worst.items() if s >= ABSENT_WARN}
        if heavy:
            out["absent_warning"] = (
                "; ".join(f"{c} has no span on one side in up to {100 * s:.0f}% of resamples" for c, s in heavy.items())
                + f": there the geometric mean floors that category at 1e-5 and {fn.name} collapses, so the resampled "
                  "differences mix two regimes and a test says little")
            skip = compare(result.with_config(result.config.with_(absent="skip")), names, metric, test, asked, n, seed,
                           level, standard, companion_kw, system_cis=False, external=external)
            out["absent_left_out"] = {"signature": skip["signature"], "pairs": [
                {k: q[k] for k in ("a", "b", "corpus_diff", "ci", "p", "p_holm", "p_bh")} for q in skip["pairs"]]}
    return out


def significance_clusters(ranked: list[str], pairs: list[dict], alpha: float = 0.05, key: str = "p_bh") -> dict:
    """Group systems (best first) into clusters: a system starts a new cluster
    when it is significantly different from the best system of the current one."""
    p = {}
    for q in pairs:
        p[(q["a"], q["b"])] = p[(q["b"], q["a"])] = q.get(key, q["p"])
    clusters, head, k = {}, None, 0
    for s in ranked:
        if head is None or (p.get((head, s)) is not None and p[(head, s)] < alpha):
            k += 1
            head = s
        clusters[s] = k
    return clusters
