"""Meta-evaluation (blonde_core.stats.meta) on vectors small enough to work by hand."""
import itertools
import math

import numpy as np
import pytest
from scipy import stats as sps

from blonde_core.analysis.stats import meta

NAN = float("nan")
H = np.array([[1, 2, 3], [2, 4, NAN]])
M = np.array([[1, 3, 2], [1, 2, 3]])


def test_grouping_none_flattens_the_rated_cells():
    # cells (h, m): (1,1) (2,3) (3,2) (2,1) (4,2); means 2.4 and 1.8
    # centred products sum to 1.4, squares to 5.2 and 2.8
    out = meta.grouped_correlation(H, M, "none")
    assert out["value"] == pytest.approx(1.4 / math.sqrt(5.2 * 2.8))
    assert out["cells"] == 5 and out["groups_used"] == 1


def test_grouping_sys_averages_per_system():
    # system 1: h (1,2,3) vs m (1,3,2): r = 1/2; system 2: two rated cells, r = 1
    out = meta.grouped_correlation(H, M, "sys")
    assert out["value"] == pytest.approx(0.75)
    assert out["groups_used"] == 2 and out["groups_left_out"] == 0


def test_grouping_item_leaves_out_constant_and_short_groups():
    # item 1: metric constant (1, 1) -> NaN; item 2: h (2,4) vs m (3,2) -> -1; item 3: one rated cell
    out = meta.grouped_correlation(H, M, "item")
    assert out["value"] == pytest.approx(-1.0)
    assert out["groups_used"] == 1 and out["groups_left_out"] == 2


def test_kendall_and_spearman_groupings():
    # system 1: h (1,2,3), m (1,3,2): concordant pairs (1,2) (1,3), discordant (2,3): tau = 1/3
    out = meta.grouped_correlation(H[:1], M[:1], "sys", "kendall")
    assert out["value"] == pytest.approx(1 / 3)
    # ranks equal the values: Spearman = Pearson = 1/2
    assert meta.grouped_correlation(H[:1], M[:1], "sys", "spearman")["value"] == pytest.approx(0.5)


def test_pairwise_accuracy_counts_ties_on_one_side_as_disagreement():
    h = [3, 1, 2, 2]
    m = [0.9, 0.1, 0.5, 0.4]
    # six pairs; only (2, 3) disagrees: humans tie, the metric does not
    out = meta.pairwise_accuracy(h, m)
    assert (out["agree"], out["pairs"]) == (5, 6)
    assert out["accuracy"] == pytest.approx(5 / 6)
    # a tie on both sides agrees
    assert meta.pairwise_accuracy([1, 1], [2, 2])["accuracy"] == 1.0


ALL_SIGNS = np.array(list(itertools.product([1.0, -1.0], repeat=3)))  # every permutation of 3 items


def test_pairwise_p_values_by_enumeration():
    # d = (2, 0, 1), observed 3; null = 2 s1 + s3 >= 3 only for s1 = s3 = +1: 2 of 8
    p = meta.pairwise_p_values([[3, 1, 2], [1, 1, 1]], ALL_SIGNS)
    assert p[0, 1] == pytest.approx(0.25)
    assert np.isnan(p[1, 0]) and np.isnan(p[0, 0])
    # an item rated for only one system drops out of that pair: d = (2, -, 1) gives the same
    p2 = meta.pairwise_p_values([[3, NAN, 2], [1, 1, 1]], ALL_SIGNS)
    assert p2[0, 1] == pytest.approx(0.25)


def test_soft_pairwise_accuracy_by_enumeration():
    human = [[3, 1, 2], [1, 1, 1]]   # p_human = 0.25 (above)
    metric = [[2, 1, 1], [1, 1, 1]]  # d = (1, 0, 0): null = s1 >= 1 in 4 of 8 -> p = 0.5
    out = meta.soft_pairwise_accuracy(human, metric, signs=ALL_SIGNS)
    assert out["spa"] == pytest.approx(1 - 0.25)
    assert meta.soft_pairwise_accuracy(human, human, signs=ALL_SIGNS)["spa"] == 1.0


def test_spa_interval_over_resampled_items():
    human = [[3, 1, 2], [1, 1, 1]]
    metric = [[2, 1, 1], [1, 1, 1]]
    ones = meta.soft_pairwise_accuracy(human, metric, signs=ALL_SIGNS, weights=np.ones((4, 3)))
    assert ones["spa_ci"] == [pytest.approx(0.75), pytest.approx(0.75)]
    # item 1 twice, item 2 once, item 3 never: human d = (4, 0, 0), metric d = (2, 0, 0);
    # p = 1/2 on both sides, SPA 1
    one = meta.soft_pairwise_accuracy(human, metric, signs=ALL_SIGNS, weights=np.array([[2.0, 1.0, 0.0]]))
    assert one["spa_ci"] == [pytest.approx(1.0), pytest.approx(1.0)]


def test_soft_pairwise_accuracy_seeded():
    human = [[3, 1, 2], [1, 1, 1]]
    metric = [[2, 1, 1], [1, 1, 1]]
    a = meta.soft_pairwise_accuracy(human, metric, k=4000, seed=7)
    assert a == meta.soft_pairwise_accuracy(human, metric, k=4000, seed=7)  # same seed, same signs
    assert a["spa"] == pytest.approx(0.75, abs=0.03)  # the enumerated value, within sampling error
    signs = meta.permutation_signs(5, 1000, 4)
    assert signs.shape == (1000, 5) and set(np.unique(signs)) == {-1.0, 1.0}
    assert abs(signs.mean()) < 0.05


def test_perm_both_by_enumeration():
    h = [1, 2, 3]
    wrong, right = [3, 2, 1], [1, 2, 3]
    every = np.array(list(itertools.product([0, 1], repeat=3)))
    # metric 2 (right) minus metric 1 (wrong): observed 1 - (-1) = 2. A resample keeps cells 1 and 3
    # together (m2 = +-z, r = +-1) or splits them (m2 = (c, 0, c), r = 0); the difference reaches 2
    # only when both are kept: 2 of the 8 patterns.
    out = meta.perm_both(h, wrong, right, keep=every)
    assert out["delta"] == pytest.approx(2.0) and out["p"] == pytest.approx(0.25)
    # the other way round no resample can do worse than -2: p = 1
    assert meta.perm_both(h, right, wrong, keep=every)["p"] == 1.0
    # grouping sys, two systems alike: both rows must keep cells 1 and 3: 4 of 64
    every6 = np.array(list(itertools.product([0, 1], repeat=6)))
    out = meta.perm_both([h, h], [wrong, wrong], [right, right], grouping="sys", keep=every6)
    assert out["p"] == pytest.approx(4 / 64)
    # Kendall takes the per-resample path; same enumeration, same answer
    assert meta.perm_both(h, wrong, right, method="kendall", keep=every)["p"] == pytest.approx(0.25)


def test_vectorised_rows_equal_scipy():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(50, 9))
    y = x + rng.normal(size=(50, 9))
    y[:, :2] = 0.0  # ties on one side
    tau, acc = meta._kendall_rows(x, y)
    r = meta._pearson_rows(x, y)
    for i in range(50):
        assert tau[i] == pytest.approx(sps.kendalltau(x[i], y[i], variant="b").statistic)
        assert r[i] == pytest.approx(sps.pearsonr(x[i], y[i]).statistic)
        assert acc[i] == pytest.approx(meta.pairwise_accuracy(x[i], y[i])["accuracy"])


def test_bootstrap_of_unit_weights_is_the_point_value():
    rng = np.random.default_rng(1)
    h = rng.normal(size=(4, 6))
    m = h + rng.normal(size=(4, 6))
    h[1, 2] = NAN
    ones = np.ones((3, 6))
    for g in meta.GROUPINGS:
        lo, hi = meta.bootstrap_grouped(h, m, g, ones)
        v = meta.grouped_correlation(h, m, g)["value"]
        assert lo == pytest.approx(v) and hi == pytest.approx(v)
    ci = meta.bootstrap_system_level(np.tile([1.0, 2, 3], (5, 1)), np.tile([2.0, 4, 6], (5, 1)))
    assert ci["pearson_ci"] == [pytest.approx(1.0)] * 2 and ci["accuracy_ci"] == [1.0, 1.0]


def test_scored_against_swaps_roles_and_drops_plus():
    from blonde_core.io.corpus import Corpus
    from blonde_core.errors import InputError
    from blonde_core.study import Study

    c = Corpus(["d"], {"ref": [["a ."]], "refB": [["b ."]]}, {"S": [["c ."]]}, files={"ref": "r.txt"})
    s = Study(c, "t", annotation=["x"])
    b = s.scored_against("refB")
    assert list(b.corpus.references) == ["refB"] and set(b.corpus.systems) == {"ref", "S"}
    assert b.annotation is None and b.key != s.key and b.corpus.files == {"ref": "r.txt"}
    a = s.scored_against("ref")
    assert list(a.corpus.references) == ["ref"] and a.annotation == ["x"]  # the first reference keeps BlonD+
    one = Study(Corpus(["d"], {"ref": [["a ."]]}, {"S": [["c ."]]}), "t")
    assert one.scored_against("ref") is one
    with pytest.raises(InputError, match="no loaded text is named 'X'"):
        s.scored_against("X")


def _exact_p(x, signs):
    """One-sided permutation p by exact counting: null >= observed exactly when the differences of the
    items whose sign is flipped sum to at most 0, summed with math.fsum (correctly rounded, so its sign is
    the exact sum's)."""
    x = np.asarray(x, dtype=float)
    out = np.full((len(x), len(x)), np.nan)
    flipped = np.asarray(signs) < 0
    for i, j in zip(*np.triu_indices(len(x), 1)):
        d = x[i] - x[j]
        out[i, j] = sum(math.fsum(d[f]) <= 0 for f in flipped) / len(flipped)
    return out


def test_permutation_p_values_equal_exact_float64_counting():
    """The reproduction of issue #36 (numpy's default_rng(11), 12 systems x 188 items, seed 4, 1000
    permutations) and 20 more random matrices: every p-value is the exact count (single precision with a
    1e-5 tolerance, as before, moved 41 of these 1,320 p-values, e.g. 0.482 for 0.481)."""
    iu = np.triu_indices(12, 1)
    signs = meta.permutation_signs(188, 1000, 4)
    x = np.random.default_rng(11).random(size=(12, 188))
    assert np.array_equal(meta.pairwise_p_values(x, signs)[iu], _exact_p(x, signs)[iu])
    assert meta.pairwise_p_values(x, signs)[1, 4] == 0.481
    few = meta.permutation_signs(188, 200, 4)
    for seed in range(12, 32):
        x = np.random.default_rng(seed).normal(size=(12, 188))
        assert np.array_equal(meta.pairwise_p_values(x, few)[iu], _exact_p(x, few)[iu]), seed


def test_exact_ties_of_one_decimal_scores_still_count():
    """DA-like scores with one decimal: a permutation whose null delta equals the observed one in decimal
    arithmetic counts (float rounding must not drop it), checked against integer counting in tenths."""
    rng = np.random.default_rng(5)
    tenths = rng.integers(0, 8, size=(6, 40))  # few distinct values: many permutations tie exactly
    x = tenths / 10.0
    signs = meta.permutation_signs(40, 500, 4)
    p = meta.pairwise_p_values(x, signs)
    ties = 0
    for i, j in zip(*np.triu_indices(6, 1)):
        d = tenths[i] - tenths[j]
        flipped_sums = [int(d[s < 0].sum()) for s in signs]
        ties += sum(v == 0 for v in flipped_sums)
        assert p[i, j] == sum(v <= 0 for v in flipped_sums) / len(signs), (i, j)
    # identical systems: every permutation ties, p = 1
    assert meta.pairwise_p_values(np.vstack([x[0], x[0]]), signs)[0, 1] == 1.0
    assert ties > 100  # the data does exercise ties


def test_spearman_rows_equal_scipy_with_ties_and_missing_values():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 4, size=(30, 7)).astype(float)  # ties in every row
    y = rng.normal(size=(30, 7))
    y[:, 2] = y[:, 3]  # and in the other
    x[5, 1] = np.nan
    got = meta._spearman_rows(x, y)
    for r in range(30):
        if r == 5:
            assert np.isnan(got[r])
        elif np.ptp(x[r]) == 0:
            assert np.isnan(got[r])
        else:
            assert got[r] == pytest.approx(sps.spearmanr(x[r], y[r]).statistic, abs=1e-12)
    b = meta.bootstrap_system_level(x[[0, 1, 2]], y[[0, 1, 2]])
    assert b["spearman_ci"][0] <= b["spearman_ci"][1]


def test_tie_calibrated_accuracy_worked_examples():
    """acc_eq as mt-metrics-eval defines it (acc23 with the tie threshold optimised), by hand."""
    # ties in the humans: pairs (0,1) human tie (metric differs by 1), (0,2) and (1,2) concordant (by 2 and 1).
    # epsilon 0: 2 of 3; epsilon 1: (0,1) becomes a tie on both sides (+1), (1,2) stops counting (-1): 2 of 3;
    # epsilon 2: 1 of 3. The first of equal maxima: epsilon 0.
    assert meta.tie_calibrated_accuracy([1, 1, 2], [1, 2, 3]) == {"acc_eq": pytest.approx(2 / 3), "epsilon": 0.0,
                                                                  "groups": 1, "pairs": 3}
    # a human tie the metric nearly reproduces: epsilon 0.5 turns it into a shared tie, every pair then counts
    out = meta.tie_calibrated_accuracy([1, 2, 3, 3], [0, 4, 8, 8.5])
    assert out["acc_eq"] == 1.0 and out["epsilon"] == 0.5
    # ties in the metric: (0,1) tied by the metric only never counts; epsilon 0 is best
    out = meta.tie_calibrated_accuracy([1, 2, 3], [5, 5, 9])
    assert out["acc_eq"] == pytest.approx(2 / 3) and out["epsilon"] == 0.0
    # grouping item: per column across systems, then the mean (a column of one rated cell is left out)
    h = np.array([[1, 3, 1.0], [2, 3, NAN], [3, 1, 2]])
    m = np.array([[1, 5, 0.0], [2, 5, 7], [3, 9, 1]])
    out = meta.tie_calibrated_accuracy(h, m, "item")
    # column 0: 3 concordant of 3 -> 1; column 1: (0,1) tied on both sides, (0,2) and (1,2) discordant -> 1/3;
    # column 2: system 1 unrated, (0,2) concordant -> 1. Any epsilon > 0 only loses concordant pairs.
    # Mean (1 + 1/3 + 1) / 3 (mt-metrics-eval's tau_optimization gives the same, checked outside the suite).
    assert out["groups"] == 3 and out["pairs"] == 7
    assert out["acc_eq"] == pytest.approx((1 + 1 / 3 + 1) / 3) and out["epsilon"] == 0.0


def test_chance_accuracy_is_what_a_random_metric_gets():
    no_ties = meta.chance_accuracy([1, 2, 3, 4, 5], trials=2000, seed=1)
    assert no_ties["mean"] == 0.5 and no_ties["range"][0] < 0.5 < no_ties["range"][1]
    tied = meta.chance_accuracy([1, 1, 2], trials=2000, seed=1)  # one of three pairs tied: never agreed with
    assert tied["mean"] == pytest.approx(1 / 3) and tied["range"][1] <= 2 / 3
    assert meta.chance_accuracy([1, 2, 3, 4, 5], trials=2000, seed=1) == no_ties  # seeded
