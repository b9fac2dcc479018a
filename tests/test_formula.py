"""The formula on hand-made count vectors, including the spec's worked example."""
import math

import numpy as np
import pytest

from blonde_core.metric.settings import ScoreConfig
from blonde_core.metric.features import make_layout
from blonde_core.lang.base import load_pack
from blonde_core.metric.scoring import aggregate, f1, score, smooth_ngrams

LAYOUT = make_layout(load_pack("en"))


def stats(**cats):
    """cats: category -> list of (feature index, matched, sys, ref)."""
    S = np.zeros((LAYOUT.n, 3))
    for cat, entries in cats.items():
        sl = LAYOUT.cat_slices[cat]
        for f, m, s, r in entries:
            S[sl.start + f] = (m, s, r)
    return S


# Figure 3 of the paper: sim(sys, ref) = (1, 2, 4, 0) for E, V, P, M,
# sim(sys, sys) = (1, 7, 6, 0), sim(ref, ref) = (2, 7, 5, 2).
WORKED = stats(entity=[(0, 1, 1, 2)], tense=[(0, 2, 7, 7)], pronoun=[(0, 4, 6, 5)], dm=[(0, 0, 0, 2)])
DISCOURSE_ONLY = ("tense", "pronoun", "entity", "dm")


def test_worked_example_with_package_floor():
    cfg = ScoreConfig(preset="paper", categories=DISCOURSE_ONLY, zero="floor")
    res = score(WORKED, cfg, LAYOUT)
    c = res["categories"]
    assert c["entity"]["P"] == 1 and c["tense"]["P"] == pytest.approx(2 / 7)
    assert c["pronoun"]["P"] == pytest.approx(2 / 3) and math.isnan(c["dm"]["P"])
    assert c["entity"]["R"] == 0.5 and c["pronoun"]["R"] == pytest.approx(0.8) and c["dm"]["R"] == 0
    d = res["BlonD-d"]
    assert d["P"] == pytest.approx(0.57537, abs=5e-6)
    assert d["R"] == pytest.approx(0.03270, abs=5e-6)
    assert d["F1"] == pytest.approx(0.06188, abs=5e-6)


def test_worked_example_with_paper_delta():
    cfg = ScoreConfig(preset="paper", categories=DISCOURSE_ONLY)  # paper preset: zero = delta
    d = score(WORKED, cfg, LAYOUT)["BlonD-d"]
    assert d["R"] == pytest.approx(0.04889, abs=5e-6)
    assert d["F1"] == pytest.approx(0.09013, abs=5e-6)
    assert d["P"] == pytest.approx(0.57537, abs=5e-6)


def test_package_weights_ignore_neuter_pronouns_and_non_person_entities():
    S = stats(pronoun=[(2, 3, 3, 3), (3, 1, 2, 2)], entity=[(1, 2, 2, 2)], tense=[(0, 1, 2, 2)])
    res = score(S, ScoreConfig(categories=DISCOURSE_ONLY), LAYOUT)
    assert math.isnan(res["categories"]["pronoun"]["R"])  # 0/0 under weights (0.5, 0.5, 0, 0)
    assert math.isnan(res["categories"]["entity"]["R"])  # NON-PERSON weight 0
    # only tense is present: BlonD-d = tense
    assert res["BlonD-d"]["R"] == pytest.approx(0.5)
    uni = score(S, ScoreConfig(preset="paper", categories=DISCOURSE_ONLY), LAYOUT)
    assert uni["categories"]["pronoun"]["R"] == pytest.approx(4 / 5)
    assert uni["categories"]["entity"]["P"] == 1


def test_tense_weights_scale_features():
    # VBD: matched 1 of 4 (ref), VBZ: 3 of 3; package weights are uniform 1/7 -> 4/7
    S = stats(tense=[(0, 1, 1, 4), (3, 3, 3, 3)])
    cfg = ScoreConfig(categories=("tense",))
    assert score(S, cfg, LAYOUT)["categories"]["tense"]["R"] == pytest.approx(4 / 7)
    w = dict(tense=(3, 0, 0, 1, 0, 0, 0))
    cfg2 = ScoreConfig(categories=("tense",), weights=w)
    # (3*1 + 1*3) / (3*4 + 1*3)
    assert score(S, cfg2, LAYOUT)["categories"]["tense"]["R"] == pytest.approx(6 / 15)


def test_exp_smoothing_counts_zero_orders_and_stops_at_empty_order():
    correct = np.array([3.0, 0.0, 0.0, 0.0])
    total = np.array([10.0, 8.0, 6.0, 0.0])
    v = smooth_ngrams(correct, total, "exp", None)
    assert v.tolist() == pytest.approx([0.3, 1 / (2 * 8), 1 / (4 * 6), 0.0])
    total2 = np.array([10.0, 0.0, 6.0, 5.0])  # stop at the first empty order
    assert smooth_ngrams(correct, total2, "exp", None).tolist() == [0.3, 0.0, 0.0, 0.0]


def test_floor_none_and_addk_smoothing():
    correct = np.array([3.0, 0.0, 2.0, 0.0])
    total = np.array([10.0, 8.0, 6.0, 4.0])
    assert smooth_ngrams(correct, total, "floor", 0.1).tolist() == pytest.approx([0.3, 0.1 / 8, 2 / 6, 0.1 / 4])
    assert smooth_ngrams(correct, total, "none", None).tolist() == pytest.approx([0.3, 0.0, 2 / 6, 0.0])
    assert smooth_ngrams(correct, total, "add-k", 1.0).tolist() == pytest.approx([0.3, 1 / 9, 3 / 7, 1 / 5])


def test_ngram_smoothing_uses_weighted_totals_like_the_package():
    # order 1: 4 of 8 unigrams match; order 2: 0 of 6 -> 1 / (2 * 0.25 * 6) with weight 0.25
    S = stats(ngram=[(0, 4, 8, 8), (1, 0, 6, 6), (2, 0, 4, 4), (3, 0, 2, 2)])
    c = score(S, ScoreConfig(categories=("ngram",)), LAYOUT)["categories"]
    assert c["1"]["R"] == 0.5
    assert c["2"]["R"] == pytest.approx(1 / (2 * 0.25 * 6))
    assert c["3"]["R"] == pytest.approx(1 / (4 * 0.25 * 4))
    assert c["4"]["R"] == pytest.approx(1 / (8 * 0.25 * 2))
    uni = score(S, ScoreConfig(preset="paper", categories=("ngram",)), LAYOUT)["categories"]
    assert uni["2"]["R"] == pytest.approx(1 / (2 * 6))


def test_f1_follows_the_package_on_nan_and_is_zero_when_nothing_matched():
    assert math.isnan(f1(float("nan"), 0.5))
    assert f1(0.5, float("nan")) == 0.5
    # spans on both sides, none matched: R = P = 0, F1 0 (the package's 0/0 gives NaN; issue 48)
    assert f1(0.0, 0.0) == 0.0
    assert f1(0.5, 0.25) == pytest.approx(2 * 0.5 * 0.25 / 0.75)


def test_geometric_mean_floors_and_skips_nan():
    v = aggregate(np.array([0.5, np.nan, 0.0]), "geometric")
    assert v == pytest.approx(math.exp((math.log(0.5) + math.log(1e-5)) / 2))
    assert aggregate(np.array([0.5, np.nan, 0.0]), "arithmetic") == pytest.approx(0.25)
    assert math.isnan(aggregate(np.array([np.nan, np.nan]), "geometric"))


def test_vectorised_over_leading_axes_equals_one_by_one():
    rng = np.random.default_rng(0)
    many = rng.integers(0, 6, size=(5, LAYOUT.n, 3)).astype(float)
    many[..., 0] = np.minimum(many[..., 0], np.minimum(many[..., 1], many[..., 2]))
    cfg = ScoreConfig()
    together = score(many, cfg, LAYOUT)
    for i in range(5):
        one = score(many[i], cfg, LAYOUT)
        for key in ("BlonDe", "BlonD-d"):
            for m in ("R", "P", "F1"):
                np.testing.assert_allclose(together[key][m][i], one[key][m])


def test_result_with_config_rescores_without_recounting():
    from blonde_core.io.corpus import Corpus
    from fake_annotation import fake_metric

    c = Corpus(["d"], {"r": [["he ran", "Ann runs"]]}, {"s": [["she ran", "Ann ran"]]})
    base = fake_metric(ScoreConfig(lowercase=False)).evaluate(c)
    paper = ScoreConfig(lowercase=False, preset="paper")
    view = base.with_config(paper)
    direct = fake_metric(paper).evaluate(c)
    assert view.scores("s") == direct.scores("s") and view.signature == direct.signature
    assert view.stats is base.stats
    with pytest.raises(ValueError):
        base.with_config(ScoreConfig(lowercase=True))


def test_span_counts_and_the_skip_absent_setting():
    """Counts travel with every category score; --skip-absent leaves a category with no span on
    one side out of the mean (here dm: 2 reference spans, none in the system)."""
    cfg = ScoreConfig(preset="paper", categories=DISCOURSE_ONLY, zero="floor")
    c = score(WORKED, cfg, LAYOUT)["categories"]
    assert (c["entity"]["matched"], c["entity"]["system"], c["entity"]["reference"]) == (1, 1, 2)
    assert (c["dm"]["matched"], c["dm"]["system"], c["dm"]["reference"]) == (0, 0, 2)
    skip = score(WORKED, cfg.with_(absent="skip"), LAYOUT)
    # R over entity, tense, pronoun only: (1/2 * 2/7 * 4/5) ** (1/3); P unchanged (dm's P was NaN already)
    assert skip["BlonD-d"]["R"] == pytest.approx((0.5 * 2 / 7 * 0.8) ** (1 / 3))
    assert skip["BlonD-d"]["P"] == pytest.approx(0.57537, abs=5e-6)
    assert skip["categories"]["dm"]["R"] == 0  # the category's own score is still shown as it is
    # the same as leaving dm out of the categories for this unit
    no_dm = score(WORKED, ScoreConfig(preset="paper", categories=("tense", "pronoun", "entity"), zero="floor"), LAYOUT)
    assert skip["BlonD-d"]["F1"] == pytest.approx(no_dm["BlonD-d"]["F1"])
    sig = cfg.with_(absent="skip").signature(1, "p")
    assert "|absent:skip|" in sig and "absent" not in cfg.signature(1, "p")
    assert cfg.with_(absent="skip").cli_args()[-1] == "--skip-absent"
