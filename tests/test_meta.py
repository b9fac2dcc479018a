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
