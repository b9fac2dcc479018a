"""Properties of the metric over random corpora (hypothesis), with a
deterministic fake annotator so that many corpora can be explored."""
import math
import os

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import package_oracle as oracle
from blonde_core.metric.settings import ScoreConfig
from blonde_core.io.corpus import Corpus
from fake_annotation import VOCAB, FakeDoc, fake_metric

sentence = st.lists(st.sampled_from(VOCAB), min_size=0, max_size=9).map(" ".join)
SETTINGS = settings(max_examples=int(os.environ.get("BLONDE_PROPERTY_EXAMPLES", 60)), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def corpora(draw, n_refs=1, one_sentence_docs=False):
    n_docs = draw(st.integers(1, 3))
    shape = [1 if one_sentence_docs else draw(st.integers(1, 4)) for _ in range(n_docs)]

    def docs():
        return [[draw(sentence) for _ in range(n)] for n in shape]

    refs = {f"ref{k}": docs() for k in range(n_refs)}
    return Corpus(doc_ids=[f"d{i}" for i in range(n_docs)], references=refs, systems={"sys": docs()})


def close(a, b, tol=1e-9):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol


@SETTINGS
@given(corpora(n_refs=2))
def test_fast_path_equals_counter_oracle(c):
    """The numpy sufficient statistics reproduce the package's Counter algorithm."""
    res = fake_metric().evaluate(c).scores("sys")
    sys_counts = [oracle.sentence_counts(FakeDoc(s.strip())) for d in c.systems["sys"] for s in d]
    refs = [[oracle.sentence_counts(FakeDoc(s.strip())) for d in docs for s in d] for docs in c.references.values()]
    maxed = [oracle.max_refs(list(per)) for per in zip(*refs)]
    want = oracle.score(sys_counts, maxed)
    for key in ("BlonDe", "BlonD-d"):
        for m in ("R", "P", "F1"):
            w = want[key][m]
            assert close(res[key][m], None if math.isnan(w) else w), (key, m, res[key][m], w)
    for cat, v in want["categories"].items():
        for m in ("R", "P", "F1"):
            w = None if math.isnan(v[m]) else v[m]
            assert close(res["categories"][cat][m], w), (cat, m)


@SETTINGS
@given(corpora())
def test_identical_system_scores_one_in_every_present_category(c):
    c.systems["sys"] = [list(d) for d in c.references["ref0"]]
    res = fake_metric().evaluate(c)
    S = res.total("sys")
    scores = res.scores("sys")
    lay = res.layout
    w = res.config.resolved_weights
    for cat in ("tense", "pronoun", "entity", "dm"):
        sl = lay.cat_slices[cat]
        present = (S[sl, 2] * np.array(w[cat])).sum() > 0
        if present:
            assert scores["categories"][cat]["F1"] == 1.0, cat
        else:
            assert scores["categories"][cat]["F1"] is None, cat
    for n in range(4):
        if S[lay.cat_slices["ngram"].start + n, 2] > 0 and all(
                S[lay.cat_slices["ngram"].start + k, 2] > 0 for k in range(n)):
            assert scores["categories"][str(n + 1)]["F1"] == 1.0


@SETTINGS
@given(corpora(n_refs=2), st.sampled_from(["blonde-0.1.4", "paper"]))
def test_second_reference_never_lowers_max_aggregated_precision(c, preset):
    """Under max aggregation a second reference can only add matches: precision
    (per discourse category and BlonD-d.P; BlonDe.P too with uniform weights)
    never drops.  Recall may drop (the reference total grows too), and with the
    package's n-gram weights 0.25 BlonDe.P may drop: see the two tests below."""
    cfg = ScoreConfig(preset=preset, lowercase=False)
    one = Corpus(c.doc_ids, {"ref0": c.references["ref0"]}, c.systems)
    a = fake_metric(cfg).evaluate(one).scores("sys")
    b = fake_metric(cfg).evaluate(c).scores("sys")
    for key in ("BlonD-d",) + (("BlonDe",) if preset == "paper" else ()):
        if a[key]["P"] is not None:
            assert b[key]["P"] >= a[key]["P"] - 1e-12, key
    for cat, v in a["categories"].items():
        if v["P"] is not None and (cat in ("tense", "pronoun", "entity", "dm") or preset == "paper"):
            assert b["categories"][cat]["P"] >= v["P"] - 1e-12, cat


def test_package_exp_smoothing_uses_weighted_totals_and_can_exceed_one():
    """A quirk of blonde 0.1.4 that the preset reproduces: n-gram totals are
    weighted (0.25), so a zero-match order gets 1 / (2 * 0.25 * total), which is
    2.0 for one unmatched unigram - and adding a reference that matches it
    lowers the precision to 1.0."""
    c = Corpus(["d"], {"r0": [["the"]]}, {"sys": [["Paris"]]})
    a = fake_metric().evaluate(c).scores("sys")
    assert a["categories"]["1"]["P"] == 2.0
    c.references["r1"] = [["Paris"]]
    b = fake_metric().evaluate(c).scores("sys")
    assert b["categories"]["1"]["P"] == 1.0
    assert b["BlonDe"]["P"] < a["BlonDe"]["P"]


def test_second_reference_can_lower_recall():
    c = Corpus(["d"], {"r1": [["he ran"]]}, {"sys": [["he ran"]]})
    a = fake_metric().evaluate(c).scores("sys")
    c.references["r2"] = [["he he ran ran"]]
    b = fake_metric().evaluate(c).scores("sys")
    assert a["categories"]["pronoun"]["R"] == 1.0
    assert b["categories"]["pronoun"]["R"] == 0.5
    assert b["categories"]["pronoun"]["P"] == 1.0


@SETTINGS
@given(corpora(n_refs=2), st.randoms(use_true_random=False))
def test_document_order_does_not_change_corpus_scores(c, rnd):
    order = list(range(len(c.doc_ids)))
    rnd.shuffle(order)
    shuffled = Corpus([c.doc_ids[i] for i in order],
                      {k: [v[i] for i in order] for k, v in c.references.items()},
                      {k: [v[i] for i in order] for k, v in c.systems.items()})
    a = fake_metric().evaluate(c)
    b = fake_metric().evaluate(shuffled)
    sa, sb = a.scores("sys"), b.scores("sys")
    for key in ("BlonDe", "BlonD-d"):
        for m in ("R", "P", "F1"):
            assert close(sa[key][m], sb[key][m], 1e-12)
    da, db = a.doc_scores("sys"), b.doc_scores("sys")
    assert da == db


@SETTINGS
@given(corpora(n_refs=2, one_sentence_docs=True))
def test_sentence_and_document_granularity_agree_for_one_sentence_documents(c):
    a = fake_metric(ScoreConfig(lowercase=False)).evaluate(c)
    b = fake_metric(ScoreConfig(lowercase=False, granularity="document")).evaluate(c)
    np.testing.assert_array_equal(a.stats["sys"], b.stats["sys"])
    assert a.scores("sys") == b.scores("sys")


@SETTINGS
@given(corpora(n_refs=1))
def test_document_granularity_counts_per_document(c):
    """At document granularity a document's counts are summed before matching,
    so matches can only grow compared with sentence-by-sentence matching."""
    a = fake_metric(ScoreConfig(lowercase=False)).evaluate(c)
    b = fake_metric(ScoreConfig(lowercase=False, granularity="document")).evaluate(c)
    sa, sb = a.doc_stats("sys"), b.stats["sys"]
    np.testing.assert_array_equal(sa[..., 1:], sb[..., 1:])  # totals are the same
    assert (sb[..., 0] >= sa[..., 0]).all()


def test_sum_aggregation_is_micro_average_over_references():
    c = Corpus(["d"], {"r1": [["he ran"]], "r2": [["she ran"]]}, {"sys": [["he ran"]]})
    res = fake_metric(ScoreConfig(lowercase=False, aggregation="sum")).evaluate(c).scores("sys")
    # pronouns: ref1 matched 1 of 1 (masculine), ref2 0 of 1 (feminine); system 1 pronoun seen twice
    assert res["categories"]["pronoun"]["R"] == 0.5
    assert res["categories"]["pronoun"]["P"] == 0.5


def test_the_fake_annotator_needs_no_spacy_pipeline(monkeypatch):
    """The property tests run without spaCy: their annotator is a backend of its own, so a machine without
    the pipeline (or spaCy) runs them, and they never load it."""
    import sys

    import blonde_core.annotation.backends as backends
    import blonde_core.annotation.pipeline as pipeline

    def missing(pack):
        raise AssertionError("the pipeline was looked up")

    monkeypatch.setattr(pipeline, "find_pipeline", missing)
    monkeypatch.setattr(backends, "pipeline_id", missing)
    c = Corpus(["d"], {"ref": [["Ann ran home .", "she can go"]]}, {"sys": [["Bob ran home .", "he can go"]]},
               boundaries="single")
    res = fake_metric().evaluate(c)
    assert res.scores("sys")["categories"]["pronoun"]["spans"] == {"reference": 1, "system": 1, "matched": 0}
    assert "fake-0/none" in res.signature
    # spaCy never imported: asked of a fresh interpreter (in this one an earlier test may have imported it, and a
    # check here could never fail)
    import subprocess
    from pathlib import Path

    here = Path(__file__).resolve().parent
    code = ("import sys; sys.path[:0] = [%r, %r]\n"
            "from fake_annotation import fake_metric\n"
            "from blonde_core.io.corpus import Corpus\n"
            "c = Corpus(['d'], {'ref': [['Ann ran home .', 'she can go']]}, {'sys': [['Bob ran home .', 'he can go']]},"
            " boundaries='single')\n"
            "fake_metric().evaluate(c)\n"
            "print('spacy' in sys.modules)" % (str(here), str(here.parent)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False", "the fake annotator imported spaCy"


@st.composite
def two_system_corpora(draw):
    """Corpora of 4-12 one-sentence documents with two systems: short fake sentences make thin and absent
    categories common."""
    n = draw(st.integers(4, 12))
    ref = [[draw(sentence)] for _ in range(n)]
    return Corpus(doc_ids=[f"d{i}" for i in range(n)], references={"ref": ref},
                  systems={"A": [[draw(sentence)] for _ in range(n)], "B": [[draw(sentence)] for _ in range(n)]})


@SETTINGS
@given(two_system_corpora(), st.sampled_from(["BlonDe", "BlonD-d", "1", "pronoun"]), st.integers(0, 10 ** 6))
def test_the_bootstrap_interval_excludes_0_exactly_when_p_is_below_alpha(c, metric, seed):
    """One resampling distribution, one answer: for every pair, the 95% interval excludes 0 exactly when the
    two-sided p-value is below 0.05, whatever the corpus (thin and absent categories included)."""
    from blonde_core.analysis.stats import compare

    res = fake_metric().evaluate(c)
    out = compare(res, metric=metric, test="bootstrap", unit="segment", n=199, seed=seed)
    for q in out["pairs"]:
        lo, hi = q["ci"]
        if q["p"] is None:
            continue
        excludes = lo is not None and (lo > 0 or hi < 0)
        assert excludes == (q["p"] < 0.05), (q["p"], q["ci"])


@SETTINGS
@given(st.lists(st.sampled_from([-2.0, -1.0, -1e-9, 0.0, 0.0, 1e-9, 0.5, 1.0, 3.0]), min_size=1, max_size=300),
       st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_percentile_test_agrees_with_its_interval_on_any_differences(diffs, level):
    from blonde_core.analysis.stats.paired import percentile_test

    p, (lo, hi) = percentile_test(np.array(diffs), level)
    alpha = round(1 - level, 10)  # 0.05, not 1 - 0.95 = 0.050000000000000044
    assert 0 < p <= 1
    if lo is None:
        assert p >= alpha  # too few resamples for the level: unbounded, never significant
    else:
        assert lo <= hi and ((lo > 0 or hi < 0) == (p < alpha)), (p, lo, hi)


_json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 20, 10 ** 20), st.floats(allow_nan=True, allow_infinity=True),
                       st.text(max_size=6), st.floats(width=32).map(np.float32), st.integers(-99, 99).map(np.int64))
_json_tree = st.recursive(_json_leaf, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.lists(kids, max_size=3).map(tuple),
    st.dictionaries(st.one_of(st.text(max_size=5), st.integers(-9, 9), st.booleans()), kids, max_size=4)), max_leaves=30)


@SETTINGS
@given(_json_tree)
def test_json_text_is_json_dumps_of_json_safe_byte_for_byte(tree):
    """The commands' JSON writer (one walk, for speed) writes exactly what the json module writes of json_safe's
    copy: strict JSON, null for NaN and infinities, non-ASCII kept, two-space indent."""
    import json

    from blonde_core.numbers import json_safe, json_text

    want = json.dumps(json_safe(tree), indent=2, ensure_ascii=False, allow_nan=False)
    assert json_text(tree) == want
    assert json_text(np.array([[1.5, np.nan], [2, 3]])) == json.dumps([[1.5, None], [2.0, 3.0]], indent=2)


_texts = st.lists(st.text(alphabet="ab \x00é", max_size=3), max_size=4)
_docs = st.lists(_texts, min_size=1, max_size=3)
_texts_shapes = st.one_of(st.none(), _texts, _docs,
                          st.dictionaries(st.text(alphabet="xy\x00", max_size=2), _docs, max_size=3))


@SETTINGS
@given(_texts_shapes, _texts_shapes)
def test_texts_digest_tells_apart_every_two_different_texts(a, b):
    """The cache keys' digest of texts (joined with their lengths, not JSON) is equal exactly when the texts,
    their documents and their names are: a NUL inside a text or a name, an empty text, a sentence moved to the
    next document all change it; the order names were added in does not."""
    from blonde_core.digest import texts_digest

    def same(x, y):
        if isinstance(x, dict) and isinstance(y, dict):
            return x == y
        if x is None or y is None:
            return x is y
        if isinstance(x, dict) or isinstance(y, dict):
            return False
        flat = lambda z: not z or isinstance(z[0], str)  # noqa: E731 - [] reads as a flat list
        return flat(x) == flat(y) and x == y if x or y else True

    assert (texts_digest(a) == texts_digest(b)) == same(a, b)
    if isinstance(a, dict):
        assert texts_digest(dict(reversed(list(a.items())))) == texts_digest(a)


def test_texts_digest_on_the_cases_a_plain_join_would_confuse():
    from blonde_core.digest import texts_digest

    pairs = [(["a\x00", "b"], ["a", "\x00b"]), (["ab"], ["a", "b"]), ([["a"], ["b"]], [["a", "b"]]),
             ([["a", "b"]], [["a"], ["b"]]), ({"x": [["a"]]}, {"x\x00": [["a"]]}), ([], [""]), ([[]], []),
             ({"a": [["b"]], "c": [["d"]]}, {"a": [["b"], ["c"]]})]
    for a, b in pairs:
        assert texts_digest(a) != texts_digest(b), (a, b)
    # the scheme itself is pinned: a change to it re-keys every cache, which must be a decision, not an accident
    assert texts_digest([["a", "b"], ["c"]]).hex() == "f4173e7bede82b39c607d2d2f2c4e782050aa7e83a6ca47e0bf5516e4b03a567"


_gap = st.lists(st.integers(0, 3), max_size=2)
_reseg_doc = st.fixed_dictionaries({"original": _texts, "omitted": _gap, "added": _gap})
_reseg = st.dictionaries(st.text(alphabet="xy\x00", max_size=2),
                         st.dictionaries(st.integers(0, 3), _reseg_doc, max_size=3), max_size=3)


@SETTINGS
@given(_reseg, _reseg)
def test_resegmented_digest_tells_apart_every_two_different_records(a, b):
    """The study key's digest of what re-segmentation did (integer arrays and texts, no JSON) is equal exactly
    when the records are; the order systems and documents were added in does not change it."""
    import copy

    from blonde_core.digest import resegmented_digest

    assert (resegmented_digest(a) == resegmented_digest(b)) == (a == b)
    flipped = {n: dict(reversed(list(docs.items()))) for n, docs in reversed(list(a.items()))}
    assert resegmented_digest(flipped) == resegmented_digest(copy.deepcopy(a)) == resegmented_digest(a)


def test_resegmented_digest_changes_with_each_part_of_a_record():
    """A system's name, a document index, a segment of the system's own text, a segment moved to the next
    document, or a gap moved from omitted to added: each gives another digest."""
    from blonde_core.digest import resegmented_digest

    def rec(name="S", di=1, original=("a b", "c"), omitted=(0,), added=()):
        return {name: {di: {"original": list(original), "omitted": list(omitted), "added": list(added)}}}

    base = resegmented_digest(rec())
    variants = [rec(name="T"), rec(di=2), rec(original=("a b", "d")), rec(original=("a", "b c")),
                rec(original=("a b c",)), rec(omitted=(), added=(0,)), rec(omitted=(1,)), rec(omitted=(0, 1)),
                {"S": {1: rec()["S"][1], 2: rec()["S"][1]}}, {**rec(), **rec(name="T")}]
    digests = [resegmented_digest(v) for v in variants]
    assert base not in digests and len(set(digests)) == len(digests)


def test_resegmented_digest_leaves_an_unknown_shape_to_the_generic_hash():
    from blonde_core.digest import resegmented_digest

    doc = {"original": ["a"], "omitted": [0], "added": []}
    assert resegmented_digest({"S": {0: doc}}) is not None
    assert resegmented_digest({"S": {0: {**doc, "note": "x"}}}) is None
    assert resegmented_digest({"S": {"0": doc}}) is None


@SETTINGS
@given(st.text(alphabet="ab 中文\u3000\t\n\xa0\u2028x", max_size=12))
def test_resegment_token_counts_are_words_and_non_space_characters(text):
    """gaps() counts words (white-space split) and, for Chinese and Japanese, characters that are not white
    space, as str.isspace defines it."""
    from blonde_core.io.resegment import _tokens

    assert _tokens(text, "zh") == _tokens(text, "ja") == sum(1 for c in text if not c.isspace())
    assert _tokens(text, "en") == len(text.split())


@SETTINGS
@given(st.text(alphabet="abcЖжΩω日本語ひらがなカタカﾀ한국 1.,!\u0301", max_size=40))
def test_script_counts_count_each_letter_once_in_first_seen_order(text):
    """The language guess's script counts (each distinct character looked up once) are the letter-by-letter
    counts, scripts in the order they first appear (identify() reports shares in that order on ties)."""
    from collections import Counter

    from blonde_core.lang.detect import _script, _script_counts

    want = Counter(s for s in map(_script, text) if s)
    got = _script_counts(text)
    assert got == want and list(got) == list(want)
