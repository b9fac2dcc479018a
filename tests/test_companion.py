"""Otem/Utem, the early BlonD variants and RC on hand-worked cases (counts first, then the score)."""
import math

import pytest

from blonde_core.metric.settings import ScoreConfig
from blonde_core.analysis.companion import companion_scores
from blonde_core.io.corpus import Corpus
from fake_annotation import fake_metric


def scores(refs, sys, **kw):
    c = Corpus(["d"], {f"r{i}": [r] for i, r in enumerate(refs)}, {"sys": [sys]})
    res = fake_metric(ScoreConfig(lowercase=False)).evaluate(c)
    return companion_scores(res, **kw)["sys"]


def test_otem_counts_over_matched_ngrams():
    # unigrams: cand a:2 b:1 d:2, ref a:1 b:1 c:1 -> over a: 2-1 = 1, d: 2-1 = 1 (not in ref, >1) -> 2 of 5
    # c = 5 >= r = 3 -> LP = exp(1 - 3/5)
    s = scores([["a b c"]], ["a a b d d"], otem_n=1)
    assert s["Otem"] == pytest.approx(100 * math.exp(0.4) * 2 / 5)
    # the paper's example: "peace" twice where every reference has it once -> one over-match
    s = scores([["clear view on peace"], ["peace process"]], ["clear view on peace peace"], otem_n=1)
    assert s["Otem"] == pytest.approx(100 * math.exp(1 - 4 / 5) * 1 / 5)  # closest reference has 4 tokens


def test_otem_takes_the_minimum_over_references():
    # ref1 "a": over(a) = 1; ref2 "a a": over(a) = 0 -> min 0 -> Otem 0
    assert scores([["a"], ["a a"]], ["a a"], otem_n=1)["Otem"] == 0.0
    assert scores([["a"]], ["a a"], otem_n=1)["Otem"] > 0


def test_utem_counts_under_matched_ngrams():
    # ref a:1 b:1 c:2, cand a b -> under c: 2 of 4; c = 2 <= r = 4 -> LP = exp(1 - 2/4)
    assert scores([["a b c c"]], ["a b"], utem_n=1)["Utem"] == pytest.approx(100 * math.exp(0.5) * 0.5)
    # with a second reference "a b c": under c = min(2, 1) = 1, reference count max(2, 1) = 2 -> 1 of 4;
    # closest reference length to c = 2 is 3
    assert scores([["a b c c"], ["a b c"]], ["a b"], utem_n=1)["Utem"] == pytest.approx(
        100 * math.exp(1 - 2 / 3) * 0.25)


def test_utem_geometric_mean_over_orders():
    # ref "a b c", cand "a b": unigram under 1/3, bigram under ("b c") 1/2; LP exp(1 - 2/3)
    assert scores([["a b c"]], ["a b"], utem_n=2)["Utem"] == pytest.approx(
        100 * math.exp(1 - 2 / 3) * math.sqrt(1 / 3 * 1 / 2))


def test_early_blond_recall_with_tuned_weights():
    # tense: ref VBD 1 + VBZ 1, sys VBD 1 -> (0.2) / (0.2 + 0.15); pronouns he/he -> 1; no entity
    s = scores([["he ran and runs"]], ["he ran"])
    assert s["dBlonD-recall"] == pytest.approx(100 * math.sqrt(0.2 / 0.35))


def test_early_blond_length_penalty_for_long_candidates():
    # every recall is 1; c = 6 >= r = 5 -> LP = exp(1 - 6/5)
    s = scores([["he ran and he ran"]], ["he ran and he ran and"])
    assert s["BlonD-recall"] == pytest.approx(100 * math.exp(1 - 6 / 5))
    assert s["dBlonD-recall"] == pytest.approx(100.0)


def test_early_blond_best_reference_per_category():
    # tense best from r1 (ran), pronoun best from r2 (she)
    assert scores([["he ran"], ["she runs"]], ["she ran"])["dBlonD-recall"] == pytest.approx(100.0)


def test_blond_dist_alpha_norm():
    # pronouns: |0.45*(1-0)|^2 + |0.45*(0-1)|^2 over |0.45*1|^2 -> sqrt(2); tense identical -> 0
    s = scores([["he ran"]], ["she ran"])
    assert s["dBlonD-dist"] == pytest.approx(100 * (math.sqrt(2) + 0) / 2)
    s1 = scores([["he ran"]], ["she ran"], alpha=1.0)
    assert s1["dBlonD-dist"] == pytest.approx(100 * (2.0 + 0) / 2)


def test_rc_counts_repeated_content_words():
    # fake tags: the/cat -> NN, ran/runs -> verbs; 6 content words, "the" and "cat" repeat
    c = Corpus(["d"], {"r": [["the cat ran", "the cat runs"]]}, {"sys": [["the cat ran", "the cat runs"]]})
    res = fake_metric(ScoreConfig(lowercase=False)).evaluate(c)
    assert companion_scores(res, metrics=("RC",))["sys"]["RC"] == pytest.approx(100 * 2 / 6)


def test_per_document_values_and_unknown_metric(capsys):
    c = Corpus(["d1", "d2"], {"r": [["a b c"], ["a b"]]}, {"sys": [["a b c c"], ["a"]]})
    res = fake_metric(ScoreConfig(lowercase=False)).evaluate(c)
    out = companion_scores(res, metrics=("Otem", "Utem"), per_doc=True, otem_n=1, utem_n=1)["sys"]
    assert set(out["documents"]) == {"d1", "d2"}
    assert out["documents"]["d2"]["Utem"] == pytest.approx(100 * math.exp(1 - 1 / 2) * 1 / 2)
    from blonde_core.errors import InputError

    with pytest.raises(InputError, match="WordNet"):
        companion_scores(res, metrics=("LC",))


def test_the_blond_papers_worked_counts():
    """Section 3.1: REF has VBD 2, VBZ 1, 'he', one entity; MT has VBZ 3, 'she', the same entity.
    The fake annotator reproduces those counts (ran -> VBD, runs -> VBZ, Ann -> PERSON)."""
    s = scores([["he ran and ran and runs Ann"]], ["she runs and runs and runs Ann"])
    # recall: tense 0.15 * min(1, 3) / (0.2 * 2 + 0.15 * 1); pronouns 0 -> the geometric mean is 0
    assert s["dBlonD-recall"] == 0.0
    # distance (alpha 2): tense |(.4, 0) - (0, .45)|... per feature: VBD .2*2 = .4, VBZ .15*|1-3| = .3
    tense = math.sqrt(0.4 ** 2 + 0.3 ** 2) / math.sqrt(0.4 ** 2 + 0.15 ** 2)
    pron = math.sqrt(0.45 ** 2 + 0.45 ** 2) / 0.45
    assert s["dBlonD-dist"] == pytest.approx(100 * (0.0 + tense + pron) / 3)
