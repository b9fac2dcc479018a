"""Statistics over units (documents, blocks of N segments, or segments), computed
from per-unit sufficient statistics: resampling never re-scores text.

* paired tests between systems: t-test, Wilcoxon signed-rank, paired bootstrap
  resampling and paired approximate randomization (sacrebleu's algorithms,
  vectorised over the sufficient statistics; seed 12345 by default);
* all pairs with Holm and Benjamini-Hochberg corrections and effect sizes;
* bootstrap confidence intervals of every system's corpus score;
* correlation with human judgments (Pearson, Spearman, Kendall tau-b with
  confidence intervals) and the Williams test for dependent correlations;
* Cohen's kappa (unweighted, linear, quadratic).

Two identical systems are "no difference" with p = 1.0 for every test.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from .errors import InputError
from .scoring import score

DEFAULT_SEED = 12345
TESTS = ("ttest", "wilcoxon", "bootstrap", "ar")


# --- units -----------------------------------------------------------------

def parse_unit(unit: str) -> tuple[str, int]:
    if unit in ("doc", "document"):
        return "doc", 0
    if unit in ("segment", "seg", "sentence"):
        return "segment", 0
    if unit.startswith("block:"):
        try:
            n = int(unit.split(":", 1)[1])
        except ValueError:
            n = 0
        if n < 1:
            raise InputError(f"unit '{unit}': block size must be a whole number >= 1 (e.g. block:5)")
        return "block", n
    raise InputError(f"unknown unit '{unit}' (choose doc, block:N or segment)")


def unit_groups(result, unit: str) -> tuple[list[str], np.ndarray]:
    """(unit ids, group index of every scoring unit of the result)."""
    kind, n = parse_unit(unit)
    doc_ids = result.corpus.doc_ids
    ud = result.unit_doc
    if kind == "doc":
        return list(doc_ids), ud.copy()
    if result.config.granularity == "document":
        raise InputError(f"unit '{unit}' needs sentence granularity (scores were matched per document)")
    # position of every segment inside its document
    starts = np.searchsorted(ud, np.arange(len(doc_ids)))
    pos = np.arange(len(ud)) - starts[ud]
    if kind == "segment":
        ids = [f"{doc_ids[d]}#{p + 1}" for d, p in zip(ud, pos)]
        return ids, np.arange(len(ud))
    block = pos // n
    keys = list(dict.fromkeys(zip(ud.tolist(), block.tolist())))
    index = {k: i for i, k in enumerate(keys)}
    ids = [f"{doc_ids[d]}#block{b + 1}" for d, b in keys]
    return ids, np.array([index[k] for k in zip(ud.tolist(), block.tolist())], dtype=np.int64)


def unit_stats(result, name: str, unit: str = "doc") -> tuple[list[str], np.ndarray]:
    ids, groups = unit_groups(result, unit)
    st = result.stats[name]
    out = np.zeros((len(ids),) + st.shape[1:])
    np.add.at(out, groups, st)
    return ids, out


# --- metrics ---------------------------------------------------------------

def metric_fn(result, metric: str):
    """A function stats (..., F, 3) -> values (...) for 'BlonDe', 'BlonD-d',
    'BlonD+', or a category ('tense', 'entity', '2', ...), F1 unless suffixed .R / .P."""
    base, _, part = metric.rpartition(".")
    if part not in ("R", "P", "F1"):
        base, part = metric, "F1"
    cfg, lay, plus = result.config, result.layout, result.plus
    tops = ("BlonDe", "BlonD-d") + (("BlonD+",) if plus else ())
    probe = score(np.zeros((lay.n, 3)), cfg, lay, plus)
    if base not in tops and base not in probe["categories"]:
        raise InputError(f"unknown metric '{metric}' (choose from {', '.join(tops + tuple(probe['categories']))}, "
                         "optionally with .R or .P)")

    def fn(S):
        res = score(S, cfg, lay, plus)
        block = res[base] if base in tops else res["categories"][base]
        v = np.asarray(block[part], dtype=float)
        if part == "F1":
            # The package's F1 is NaN when R = P = 0 (0/0); for per-unit statistics
            # that unit scored zero, it is not missing.
            v = np.where((np.asarray(block["R"]) == 0) & (np.asarray(block["P"]) == 0), 0.0, v)
        return v

    fn.name = f"{base}.{part}" if part != "F1" else base
    return fn


# --- helpers ---------------------------------------------------------------

def align(ids_a: list[str], ids_b: list[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Index arrays pairing units by id (never by position), in the order of ids_a."""
    ib = {u: i for i, u in enumerate(ids_b)}
    common = [u for u in ids_a if u in ib]
    ia = {u: i for i, u in enumerate(ids_a)}
    return (np.array([ia[u] for u in common], dtype=np.int64),
            np.array([ib[u] for u in common], dtype=np.int64), common)


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


def resample_weights(n_units: int, n: int, seed: int) -> np.ndarray:
    """(n, n_units) bootstrap multiplicities (the indices sacrebleu would draw)."""
    rng = np.random.default_rng(seed)
    idx = rng.choice(n_units, size=(n, n_units), replace=True)
    w = np.zeros((n, n_units))
    np.add.at(w, (np.repeat(np.arange(n), n_units), idx.reshape(-1)), 1)
    return w


def _resampled(stats: np.ndarray, w: np.ndarray) -> np.ndarray:
    flat = stats.reshape(len(stats), -1)
    return (w @ flat).reshape((len(w),) + stats.shape[1:])


def percentile_ci(samples: np.ndarray, level: float = 0.95) -> list:
    s = samples[~np.isnan(samples)]
    if len(s) == 0:
        return [None, None]
    a = (1 - level) / 2
    return [float(np.quantile(s, a)), float(np.quantile(s, 1 - a))]


def _f(x):
    x = float(x)
    return None if math.isnan(x) else x


# --- paired tests ----------------------------------------------------------

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
        raise InputError(f"unknown test '{test}' (choose from {', '.join(TESTS)})")
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
        return out
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
        absd = np.abs(diffs)
        out["p"] = _p_from_samples(absd - np.nanmean(absd), real)
        out["ci"] = percentile_ci(diffs, level)
        out["ci_of"] = "corpus_diff"
        out["n_resamples"] = len(w)
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


def _scalar_fn(fn, name):
    """Lift a function of one summed statistics vector to arrays of them (leading axes)."""
    def lifted(S):
        S = np.asarray(S, dtype=float)
        if S.ndim == 1:
            return np.asarray(fn(S), dtype=float)
        flat = S.reshape(-1, S.shape[-1])
        return np.array([fn(x) for x in flat], dtype=float).reshape(S.shape[:-1])
    lifted.name = name
    return lifted


def measure(result, metric: str, unit: str = "doc", names=None, standard=None, companion_kw=None):
    """Per-unit statistics of every system and the function that scores them.

    metric: a BlonDe metric (see metric_fn), a companion metric (Otem, Utem,
    BlonD-recall, dBlonD-recall, BlonD-dist, dBlonD-dist, RC) or a standard one
    (BLEU, chrF, TER; document units only; `standard` is a StandardResult).
    Returns ({name: (unit ids, stats)}, fn, lower_is_better)."""
    from .companion import COMPANIONS, LOWER_IS_BETTER, CompanionStats, scores_from

    names = list(names or result.names)
    if metric in COMPANIONS:
        kw = dict(companion_kw or {})
        alpha = kw.pop("alpha", 2.0)
        ids, groups = unit_groups(result, unit)
        per = {}
        shapes = None
        for nm in names:
            cs = CompanionStats(result, nm, alpha)
            parts = [cs.ou.reshape(len(cs.ou), -1), cs.length, cs.early.reshape(len(cs.early), -1), cs.rc]
            shapes = [p.shape[1] for p in parts]
            flat = np.concatenate(parts, axis=1)
            st = np.zeros((len(ids), flat.shape[1]))
            np.add.at(st, groups, flat)
            per[nm] = (ids, st)
        K = len(result.corpus.references)
        cut = np.cumsum(shapes)[:-1]

        def one(v):
            ou, length, early, rc = np.split(v, cut)
            cs_like = _Summed(ou.reshape(1, 4, 4), length.reshape(1, 2), early.reshape(1, K, 7, 4),
                              rc.reshape(1, 2), alpha)
            return scores_from(cs_like, None, **kw)[metric]

        return per, _scalar_fn(one, metric), LOWER_IS_BETTER[metric]
    if metric in ("BLEU", "chrF", "TER"):
        from .standard import HIGHER_IS_BETTER

        if standard is None:
            raise InputError(f"{metric} needs the standard-metric statistics")
        if parse_unit(unit)[0] != "doc":
            raise InputError(f"{metric} is tested over documents only (unit doc)")
        per = {nm: (list(result.corpus.doc_ids), standard.doc_stats[metric][nm]) for nm in names}
        return per, _scalar_fn(lambda v: standard.score_stats(metric, v), metric), not HIGHER_IS_BETTER[metric]
    fn = metric_fn(result, metric)
    return {nm: unit_stats(result, nm, unit) for nm in names}, fn, False


class _Summed:
    def __init__(self, ou, length, early, rc, alpha):
        self.ou, self.length, self.early, self.rc, self.alpha = ou, length, early, rc, alpha


def compare(result, names: list[str] | None = None, metric: str = "BlonDe", test: str = "ttest",
            unit: str = "doc", n: int | None = None, seed: int = DEFAULT_SEED, level: float = 0.95,
            standard=None, companion_kw=None, system_cis: bool = True) -> dict:
    """All pairs of systems, corrected p-values, and every system's bootstrap CI
    (system_cis=False skips the intervals when only the tests are wanted)."""
    names = list(names or result.names)
    per, fn, lower = measure(result, metric, unit, names, standard, companion_kw)
    ids0 = per[names[0]][0]
    n_boot = n if (n and test == "bootstrap") else 1000
    w = resample_weights(len(ids0), n_boot, seed)
    systems, resampled, unit_scores, corpus = {}, {}, {}, {}
    need_resamples = system_cis or test == "bootstrap"
    for nm in names:
        ids, st = per[nm]
        unit_scores[nm] = fn(st)
        corpus[nm] = float(fn(st.sum(0)))
        if need_resamples:
            resampled[nm] = fn(_resampled(st, w))
        systems[nm] = {"score": _f(corpus[nm]),
                       "ci": percentile_ci(resampled[nm], level) if system_cis else [None, None]}
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
    ps = np.array([np.nan if q["p"] is None else q["p"] for q in pairs])
    valid = ~np.isnan(ps)
    h, b = np.full(len(ps), np.nan), np.full(len(ps), np.nan)
    if valid.any():
        h[valid] = holm(ps[valid])
        b[valid] = bh(ps[valid])
    for q, hv, bv in zip(pairs, h, b):
        q["p_holm"], q["p_bh"] = _f(hv), _f(bv)
    return {"metric": fn.name, "test": test, "unit": unit, "seed": seed, "n_units": len(ids0),
            "direction": "lower is better" if lower else "higher is better", "pairs": pairs, "systems": systems}


# --- correlation -------------------------------------------------------------

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


def cohen_kappa(a, b, weights: str | None = None) -> float:
    """Cohen's kappa between two raters; weights None, 'linear' or 'quadratic'."""
    a = list(a)
    b = list(b)
    if len(a) != len(b) or not a:
        raise InputError("kappa needs two equally long, non-empty rating lists")
    cats = sorted(set(a) | set(b))
    idx = {c: i for i, c in enumerate(cats)}
    k = len(cats)
    obs = np.zeros((k, k))
    for x, y in zip(a, b):
        obs[idx[x], idx[y]] += 1
    obs /= obs.sum()
    exp = np.outer(obs.sum(1), obs.sum(0))
    i, j = np.indices((k, k))
    if weights is None:
        w = (i != j).astype(float)
    elif weights == "linear":
        w = np.abs(i - j) / max(k - 1, 1)
    elif weights == "quadratic":
        w = ((i - j) / max(k - 1, 1)) ** 2
    else:
        raise InputError("kappa weights must be none, linear or quadratic")
    denom = (w * exp).sum()
    if denom == 0:
        return 1.0
    return float(1 - (w * obs).sum() / denom)


# --- metric vs human -----------------------------------------------------------

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


def bootstrap_cis(result, metrics: list[str], n: int = 1000, seed: int = DEFAULT_SEED, unit: str = "doc",
                  level: float = 0.95, names: list[str] | None = None) -> dict:
    """{metric: {system: {"score", "ci"}}}: percentile intervals over the same
    resampled units for every system and metric."""
    names = list(names or result.names)
    ids, _ = unit_stats(result, names[0], unit)
    w = resample_weights(len(ids), n, seed)
    out = {m: {} for m in metrics}
    fns = {m: metric_fn(result, m) for m in metrics}
    for nm in names:
        _, st = unit_stats(result, nm, unit)
        rs = _resampled(st, w)
        for m, fn in fns.items():
            out[m][nm] = {"score": _f(fn(st.sum(0))), "ci": percentile_ci(fn(rs), level)}
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


def oriented_tables(level: str, names: list[str], standard=None, companion: dict | None = None,
                    apt: dict | None = None) -> dict:
    """Further metrics for `correlate`, oriented so that higher is better: lower-is-better
    metrics are negated and named with a minus ("-TER", "-Otem").

    standard: a StandardResult; companion: companion_scores(..., per_doc=True) output;
    apt: corpus_apt output.  Returns {name: {system: value}} (system level) or
    {name: {system: {doc: value}}} (document level)."""
    from .companion import LOWER_IS_BETTER

    def nan(x):
        return float("nan") if x is None else x

    out = {}
    if standard is not None:
        from .standard import HIGHER_IS_BETTER

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
