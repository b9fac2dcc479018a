"""Statistics over units (documents, blocks of N segments, or segments), computed
from per-unit sufficient statistics: resampling never re-scores text.

* paired tests between systems: t-test, Wilcoxon signed-rank, paired bootstrap
  resampling and paired approximate randomization (sacrebleu's algorithms,
  vectorised over the sufficient statistics; the registry's seed by default);
* all pairs with Holm and Benjamini-Hochberg corrections and effect sizes;
* bootstrap confidence intervals of every system's corpus score;
* the leaderboard's intervals and significance clusters (leaderboard.py), for the
  Overview and `score --ci` alike;
* correlation with human judgments (Pearson, Spearman, Kendall tau-b with
  confidence intervals) and the Williams test for dependent correlations;
* Cohen's kappa (unweighted, linear, quadratic);
* meta-evaluation as the WMT metrics task does it (meta.py: groupings, pairwise
  accuracy, SPA, PERM-BOTH) and one significance policy (policy.py: test, unit
  chosen from the data, correction) shared by every view.

Two identical systems are "no difference" with p = 1.0 for every test.
"""
from __future__ import annotations

from .agreement import cohen_kappa, judgments_summary, rater_agreement
from .correlation import compare_pair, correlate, correlations, metric_names, metric_table, oriented_tables, williams_test
from .intervals import bootstrap_cis, percentile_ci, resample_weights
from .leaderboard import board, standard_intervals
from .leaderboard import tops as leaderboard_tops
from . import meta, policy
from blonde_core.metric.registry import points_factor
from .paired import PairInput, bh, compare, holm, measure, paired_test, significance_clusters
from .units import DEFAULT_SEED, TESTS, align, metric_fn, parse_unit, unit_groups, unit_stats

__all__ = ["align", "bh", "board", "bootstrap_cis", "cohen_kappa", "judgments_summary", "rater_agreement", "compare", "compare_pair", "correlate",
           "correlations", "DEFAULT_SEED", "holm", "leaderboard_tops", "measure", "meta", "metric_fn", "metric_names",
           "metric_table", "oriented_tables", "paired_test", "PairInput", "parse_unit", "percentile_ci",
           "points_factor", "policy", "resample_weights", "significance_clusters", "standard_intervals", "TESTS",
           "unit_groups", "unit_stats", "williams_test"]
