"""Where systems go wrong, sentence by sentence, from the sufficient statistics: a worked example
through the real spaCy pipeline, and agreement with the highlighted spans on real TED text."""
import pytest

from blonde_core.io.corpus import Corpus
from blonde_core.io.readers import plain_corpus
from blonde_core.study import ScoreConfig, Study


@pytest.fixture(scope="module")
def small():
    ref = ["He went home.", "She likes tea."]
    a = ["He went home.", "He likes tea."]  # sentence 2: he for she
    b = ["She goes home.", "She likes tea."]  # sentence 1: she for he, goes for went
    return Study(Corpus(["d"], {"ref": [ref]}, {"A": [a], "B": [b]}, boundaries="single"), "t").analysis(ScoreConfig())


def test_sentence_errors_by_hand(small):
    # (missed, extra) per sentence: a wrong pronoun is one missed and one extra span
    assert small.sentence_errors(0, "A")["pronoun"] == [(0, 0), (1, 1)]
    assert small.sentence_errors(0, "B")["pronoun"] == [(1, 1), (0, 0)]
    assert small.sentence_errors(0, "A")["tense"] == [(0, 0), (0, 0)]
    assert small.sentence_errors(0, "B")["tense"] == [(1, 1), (0, 0)]
    assert small.mismatching_sentences(0, ["A"], ["pronoun"]) == [1]
    assert small.mismatching_sentences(0, ["B"], ["tense"]) == [0]
    assert small.mismatching_sentences(0, ["A", "B"], ["pronoun"]) == [0, 1]
    assert small.mismatching_sentences(0, ["A"], ["tense", "entity", "dm"]) == []


def test_contrast_by_hand(small):
    out = small.contrast("A", "B")
    assert out["summary"]["pronoun"] == {"A fewer errors": 1, "B fewer errors": 1, "same": 0}
    assert out["summary"]["tense"] == {"A fewer errors": 1, "B fewer errors": 0, "same": 1}
    tense = [r for r in out["sentences"] if r["category"] == "tense"]
    assert tense == [{"document": "d", "sentence": 1, "category": "tense", "missed A": 0, "extra A": 0,
                      "missed B": 1, "extra B": 1, "errors A - B": -2}]
    # documents: pronoun F1 is 1/2 for both (1 of 2 matched each way), tense 1 against 1/2
    docs = {r["category"]: r for r in out["documents"]}
    assert docs["pronoun"]["A - B"] == pytest.approx(0.0) and docs["pronoun"]["F1 A"] == pytest.approx(50.0)
    assert docs["tense"]["F1 A"] == pytest.approx(100.0) and docs["tense"]["F1 B"] == pytest.approx(50.0)
    assert out["documents"][0]["category"] == "tense"  # ranked by |A - B|
    rows = {r["category"]: r for r in small.document_contrast(0, "A", "B")}
    assert (rows["tense"]["matched A"], rows["tense"]["matched B"], rows["tense"]["reference spans"]) == (2, 1, 2)
    assert rows["entity"]["F1 A"] is None  # no entity on either side


def test_counts_agree_with_highlighted_spans_on_ted(ted, ted_systems):
    """The filter and the contrast count what the score counts; the Documents page marks spans one by one.
    On real text both must say the same thing for every sentence and category (weight-0 spans aside)."""
    res = Study(plain_corpus([ted / "refs" / "ref.txt"], ted_systems, docids=ted / "docids.txt"),
                "ted").analysis(ScoreConfig())
    checked = 0
    for di in (1, 3):  # talk.5 and talk.7
        for name in ("SMU", "Online-W", "Borderline"):
            view = res.sentence_view(di, [name], "ref")
            errs = res.sentence_errors(di, name)
            for i, (row, rrow) in enumerate(zip(view["rows"][name], view["rows"]["ref"])):
                for c, per in errs.items():
                    extra = sum(s["category"] == c and s["counted"] and s["status"] == "extra" for s in row["spans"])
                    missed = sum(s["category"] == c and s["counted"] and s["status"] == "missed"
                                 for s in rrow["spans"])
                    assert (missed, extra) == per[i], (res.corpus.doc_ids[di], name, i + 1, c)
                    checked += 1
    assert checked == (31 + 70) * 3 * 4


def test_buckets_by_hand(small):
    """Two sentences of 3 and 3 words (13a: 'He went home .' is 4 tokens): one length bucket holding both,
    whose BlonDe is the corpus BlonDe; word accuracy and n-grams counted by hand."""
    bk = small.buckets("A", "B")
    length = [r for r in bk["length"] if r["sentences"]]
    assert len(length) == 1 and length[0]["sentences"] == 2
    assert length[0]["BlonDe A"] == pytest.approx(100 * small.scores("A")["BlonDe"]["F1"])
    assert length[0]["BlonDe B"] == pytest.approx(100 * small.scores("B")["BlonDe"]["F1"])
    # reference words: he went home . she likes tea . ('.' twice, the rest once); A misses 'she' and says 'he'
    # twice: frequency-1 words: reference 6, A has 5 of them matched ('she' missed) and 'he' once more
    f1 = next(r for r in bk["frequency"] if r["frequency"] == "1")
    assert f1["reference words"] == 6 and f1["words A"] == 6
    assert f1["F A"] == pytest.approx(100 * 5 / 6)
    two = next(r for r in bk["frequency"] if r["frequency"] == "2")
    assert two["reference words"] == 2 and two["F A"] == pytest.approx(100.0)
    # B: 'goes' is not in the reference; 'went' and 'he' are missed
    zero = next(r for r in bk["frequency"] if r["frequency"].startswith("0"))
    assert zero["words B"] == 1 and zero["F B"] is None
    grams = {r["n-gram"]: r for r in bk["ngrams_a_better"]}
    assert grams["went home"]["matched A"] == 1 and grams["went home"]["matched B"] == 0
    assert {r["n-gram"] for r in bk["ngrams_b_better"]} >= {"she likes", "she likes tea"}
    # he and she traded, 'went' kept by A only: per feature, from the sufficient statistics
    assert {(r["category"], r["feature"]): r["matched A - B"] for r in bk["spans"]} == {
        ("pronoun", "feminine"): -1, ("pronoun", "masculine"): 1, ("tense", "VBD"): 1}
    assert [(r["document"], r["sentence"]) for r in bk["sentences"]] == [("d", 1), ("d", 2)]
    assert bk["sentences"][0]["BlonDe A"] == pytest.approx(
        100 * Study(Corpus(["d"], {"ref": [["He went home."]]}, {"A": [["He went home."]]}, boundaries="single"),
                    "t").analysis(ScoreConfig()).scores("A")["BlonDe"]["F1"])


def test_buckets_on_ted_add_up(ted, ted_systems):
    """On real TED text the length buckets hold every sentence; all of them together score the corpus."""
    res = Study(plain_corpus([ted / "refs" / "ref.txt"], ted_systems, docids=ted / "docids.txt"),
                "ted").analysis(ScoreConfig())
    bk = res.buckets("SMU", "Online-W")
    assert sum(r["sentences"] for r in bk["length"]) == len(bk["sentences"]) == 529
    assert sum(r["sentences A"] for r in bk["score"]) == 529
    assert sum(r["sentences"] for r in bk["score_difference"]) == 529
    assert bk["ngrams_a_better"] and bk["ngrams_b_better"] and bk["spans"]
    assert all(r["matched A"] > r["matched B"] for r in bk["ngrams_a_better"])
