"""Measure which 95% interval of a system's BlonDe score is calibrated, by repeated subsampling (issue 60).

The full test set's score of a system is taken as the truth.  Many random subsets of its units (the
significance policy's unit of the full set: blocks of 19 segments on TED zh-en, documents on WMT22 zh-en),
half and a quarter of them, drawn without replacement, are each bootstrapped (the leaderboard's resampling
code on sufficient statistics), and every candidate interval (stats/intervals.py METHODS) is computed from
the same resamples:

* percentile: over all resamples (the leaderboard's interval before issue 60);
* conditional: over the resamples that keep every discourse category with spans on both sides;
* bca: bias-corrected and accelerated, the acceleration from the exact jackknife on sufficient statistics;
* bca-conditional: BCa, and the conditional interval where categories vanish in 5% of the resamples or more;
* and, for comparison, the conditional interval that also leaves out resamples where a category has spans
  but no match (F1 0, floored too), and BCa over the conditional interval's resamples.

Printed per data set, subset size and method: coverage of the full-set score, the share of misses below
(the interval lies above the truth) and above, the median width in points, the median ratio of the lower
arm (score - low) to the upper arm (high - score), and the coverage a calibrated 95% interval reaches here:
a subset drawn without replacement varies less than an independent sample of its size (the finite
population correction (N - k) / (N - 1)), so a calibrated interval covers the full-set score with
probability 2 Phi(1.96 / sqrt((N - k) / (N - 1))) - 1, not 95%.  Also: the share of subsets whose own score
already has a category without spans or without a match (collapsed: no interval can hold the truth there;
the leaderboard's own score is not in that state on TED or WMT22), and the coverage over the other subsets.

A second table: on the full test set, the share of systems x seeds x resample counts (the Overview's 200, 500,
1000, 2000; five seeds) whose interval is lopsided (the arm below the score over 3 times the arm above,
stats/leaderboard.py lopsided): how often a reader meets an interval like 48.76 [18.2, 50.8].

    BLONDE_SHARED_DIR=/work/shared .venv/bin/python bench/bench_intervals.py [--subsets 200] [--resamples 500]
        [--systems 5] [--data ted,wmt22] [--per-system]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from scipy.special import ndtr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))

from blonde_core.analysis.stats import metric_fn, policy, unit_stats  # noqa: E402
from blonde_core.analysis.stats.intervals import (METHODS, _resampled, absent_in_resamples,  # noqa: E402
                                                  bootstrap_cis, interval, jackknife, resample_weights)
from blonde_core.analysis.stats.leaderboard import lopsided  # noqa: E402
from blonde_core.metric.registry import DEFAULT_SEED  # noqa: E402
from blonde_core.metric.scoring import category_counts  # noqa: E402
from blonde_core.metric.settings import DISCOURSE  # noqa: E402
from blonde_core.study import ScoreConfig, Study  # noqa: E402

DATA = {"ted": ("TED zh-en", SHARED / "data" / "ted-zhen", "refs/ref.txt", "docids.txt"),
        "wmt22": ("WMT22 zh-en", SHARED / "data" / "wmt22-zhen", "refs/refA.txt", "docids.blk10.txt")}


NONZERO = "conditional, no zero category"
BCA_KEPT = "bca over the conditional's resamples"
CANDIDATES = METHODS + (NONZERO, BCA_KEPT)


def floored(res, summed: np.ndarray) -> np.ndarray:
    """(B,) bool: summed statistics (B, F, 3) in which a discourse category has no span on one side or no
    match: the geometric mean floors it at 1e-5 and the score collapses."""
    counts = category_counts(summed, res.config, res.layout, res.plus, weighted=True)
    return np.logical_or.reduce([(counts[c][0] == 0) | (counts[c][1] == 0) | (counts[c][2] == 0)
                                 for c in DISCOURSE if c in counts])


def load(key: str):
    _, folder, ref, docids = DATA[key]
    study = Study.from_files([folder / ref], sorted((folder / "systems").glob("*.txt")), docids=folder / docids)
    cfg = ScoreConfig()
    return study.result(cfg), study.significance_unit(cfg)["unit"]


def spread(names: list[str], scores: dict, k: int) -> list[str]:
    """k systems spread over the ranking (the best, the worst and evenly between)."""
    ranked = sorted(names, key=lambda s: -scores[s])
    if k >= len(ranked):
        return ranked
    return [ranked[round(i * (len(ranked) - 1) / (k - 1))] for i in range(k)] if k > 1 else ranked[:1]


def measure(res, unit: str, systems: list[str], fraction: float, subsets: int, resamples: int, seed: int) -> dict:
    """{system: {method: (subsets, 2) intervals}, "truth": {system: score}, "theta": {system: (subsets,)},
    "collapsed": {system: (subsets,) bool}} for random subsets of round(fraction * N) units."""
    fn = metric_fn(res, "BlonDe")
    stats = {s: unit_stats(res, s, unit)[1] for s in systems}
    n_units = len(next(iter(stats.values())))
    k = max(2, round(fraction * n_units))
    rng = np.random.default_rng(seed)
    picks = [np.sort(rng.choice(n_units, size=k, replace=False)) for _ in range(subsets)]
    out = {"n": n_units, "k": k, "truth": {}, "theta": {}, "collapsed": {}, "iv": {}}
    for s in systems:
        st = stats[s]
        out["truth"][s] = float(fn(st.sum(0)))
        iv = {m: np.full((subsets, 2), np.nan) for m in CANDIDATES}
        theta, collapsed = np.empty(subsets), np.zeros(subsets, bool)
        for i, idx in enumerate(picks):
            sub = st[idx]
            w = resample_weights(k, resamples, seed + 1 + i)  # the same resamples for every system and method
            rs = _resampled(sub, w)
            samples = fn(rs)
            absent = absent_in_resamples(res, rs)
            keep = ~np.logical_or.reduce(list(absent.values()))
            theta[i] = fn(sub.sum(0))
            collapsed[i] = bool(floored(res, sub.sum(0)[None])[0])
            jack = jackknife(fn, sub)
            for m in METHODS:
                lo, hi = interval(m, samples, theta[i], keep=keep, jack=jack)
                iv[m][i] = [np.nan if lo is None else lo, np.nan if hi is None else hi]
            lo, hi = interval("conditional", samples, theta[i], keep=~floored(res, rs))
            iv[NONZERO][i] = [np.nan if lo is None else lo, np.nan if hi is None else hi]
            lo, hi = interval("bca", samples[keep] if keep.any() else samples, theta[i], jack=jack)
            iv[BCA_KEPT][i] = [np.nan if lo is None else lo, np.nan if hi is None else hi]
        out["iv"][s], out["theta"][s], out["collapsed"][s] = iv, theta, collapsed
    return out


def summarise(m: dict, systems: list[str], method: str) -> dict:
    """Coverage, misses below / above, median width (points) and median lower/upper arm ratio, pooled."""
    cover, below, above, width, ratio, whole = [], [], [], [], [], []
    for s in systems:
        whole.append(~m["collapsed"][s])
        iv, t, th = m["iv"][s][method], m["truth"][s], m["theta"][s]
        lo, hi = iv[:, 0], iv[:, 1]
        cover.append((lo <= t) & (t <= hi))
        below.append(t < lo)
        above.append(t > hi)
        width.append(100 * (hi - lo))
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio.append((th - lo) / (hi - th))
    cat = np.concatenate
    r, ok = cat(ratio), cat(whole)
    return {"coverage": 100 * cat(cover).mean(), "coverage_whole": 100 * cat(cover)[ok].mean() if ok.any() else np.nan,
            "below": 100 * cat(below).mean(), "above": 100 * cat(above).mean(),
            "width": float(np.nanmedian(cat(width))), "ratio": float(np.nanmedian(r[np.isfinite(r)]))}


def stability(res, unit: str, seeds: int = 5) -> dict:
    """{method: % of systems x seeds x resample counts whose BlonDe interval on the full set is lopsided}."""
    out = {}
    for meth in METHODS:
        flags = [lopsided(e) for n in (200, 500, 1000, 2000) for seed in range(DEFAULT_SEED, DEFAULT_SEED + seeds)
                 for e in bootstrap_cis(res, ["BlonDe"], n=n, seed=seed, unit=unit, method=meth)["BlonDe"].values()]
        out[meth] = 100 * float(np.mean(flags))
    return out


def target(n: int, k: int, level: float = 0.95) -> float:
    """The coverage of a calibrated interval for the full-set score from a subset of k of n units."""
    fpc = (n - k) / (n - 1)
    return 100 * (2 * ndtr(1.959964 / np.sqrt(fpc)) - 1) if fpc > 0 else 100.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--subsets", type=int, default=200)
    ap.add_argument("--resamples", type=int, default=500)
    ap.add_argument("--systems", type=int, default=5, help="systems per data set, spread over the ranking")
    ap.add_argument("--data", default="ted,wmt22")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--per-system", action="store_true", help="also a table per system")
    a = ap.parse_args()
    print(f"{a.subsets} subsets x {a.resamples} resamples, {a.systems} systems per data set, seed {a.seed}")
    print()
    print("| data | unit | subset | method | coverage % | coverage, subsets not collapsed % | calibrated % | "
          "miss below % | miss above % | median width | lower/upper arm | subsets collapsed % |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    per, loaded = [], {}
    for key in a.data.split(","):
        t0 = time.time()
        res, unit = loaded[key] = load(key)
        fn = metric_fn(res, "BlonDe")
        scores = {s: float(fn(unit_stats(res, s, unit)[1].sum(0))) for s in res.names}
        systems = spread(list(res.names), scores, a.systems)
        for frac, label in ((0.5, "half"), (0.25, "quarter")):
            m = measure(res, unit, systems, frac, a.subsets, a.resamples, a.seed)
            coll = 100 * np.concatenate([m["collapsed"][s] for s in systems]).mean()
            for meth in CANDIDATES:
                r = summarise(m, systems, meth)
                print(f"| {DATA[key][0]} | {unit} | {label} ({m['k']} of {m['n']}) | {meth} | {r['coverage']:.1f} | "
                      f"{r['coverage_whole']:.1f} | "
                      f"{target(m['n'], m['k']):.1f} | {r['below']:.1f} | {r['above']:.1f} | {r['width']:.2f} | "
                      f"{r['ratio']:.2f} | {coll:.1f} |")
                if a.per_system:
                    per += [(DATA[key][0], label, meth, s, summarise(m, [s], meth)) for s in systems]
        print(f"<!-- {DATA[key][0]}: {time.time() - t0:.0f} s; systems {', '.join(systems)} -->")
    if per:
        print()
        print("| data | subset | method | system | coverage % | miss below % | miss above % | median width |")
        print("|---|---|---|---|---|---|---|---|")
        for d, label, meth, s, r in per:
            print(f"| {d} | {label} | {meth} | {s} | {r['coverage']:.1f} | {r['below']:.1f} | {r['above']:.1f} | "
                  f"{r['width']:.2f} |")
    print()
    print("| data | method | lopsided on the full set (systems x 5 seeds x 200/500/1000/2000 resamples) |")
    print("|---|---|---|")
    for key, (res, unit) in loaded.items():
        for meth, share in stability(res, unit).items():
            print(f"| {DATA[key][0]} | {meth} | {share:.1f}% |")
    print(f"\nThe leaderboard: {policy.CI_METHOD} (policy.CI_METHOD), {policy.RESAMPLES} resamples by default.")


if __name__ == "__main__":
    main()
