"""Language as data: a toy language package (tests/toy_lang: pack.json and a stand-in
pipeline, nothing else) scores end to end through every category, with tenses read
from morphology; English's pack gives what English always gave."""
import pytest

from blonde_core.errors import InputError
from blonde_core.io.readers import plain_corpus
from blonde_core.metric.settings import ScoreConfig
from blonde_core.study import Engine, Study
from toy_lang import FOLDER, ToyBackend

REF = ["Ola/PER kam/past mak ze sun/present .", "Ze for dat zo ga/part vin/future ."]
SYS = ["Ola/PER kam/present mak zo sun/present .", "ze dak zo vin/future ."]


@pytest.fixture
def toy(tmp_path):
    (tmp_path / "ref.txt").write_text("\n".join(REF) + "\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("\n".join(SYS) + "\n", encoding="utf-8")
    engine = Engine(cache_mode="off", pool=ToyBackend, n_process=1)
    study = Study(plain_corpus([str(tmp_path / "ref.txt")], [str(tmp_path / "sys.txt")]), "toy", engine=engine)
    cfg = ScoreConfig(lang=FOLDER, lowercase=False)
    return study, engine, cfg


def test_a_toy_language_scores_through_every_category(toy):
    study, engine, cfg = toy
    res = study.result(cfg)
    assert [c for c in res.layout.columns if c[0] in ("tense", "pronoun", "entity", "dm")] == [
        ("tense", "past"), ("tense", "present"), ("tense", "future"), ("pronoun", "ze"), ("pronoun", "zo"),
        ("entity", "NAME"), ("dm", "contrast"), ("dm", "cause")]
    cats = res.scores("sys")["categories"]
    # worked by hand, sentence by sentence:
    # tense (from morphology; the participle ga/part is not finite, so not counted): reference past 1, present 1,
    #   future 1; system present 2, future 1; matched present 1 (sentence 1), future 1 (sentence 2)
    # pronoun: reference ze 2 (ze, Ze), zo 1; system ze 1, zo 2; matched ze 1, zo 1 (sentence 2 only)
    # entity: Ola in both; dm: mak (contrast) in both, "for dat" / "dak" (cause)
    assert cats["tense"]["spans"] == {"reference": 3, "system": 3, "matched": 2}
    assert cats["pronoun"]["spans"] == {"reference": 3, "system": 3, "matched": 2}
    assert cats["entity"]["spans"] == {"reference": 1, "system": 1, "matched": 1}
    assert cats["dm"]["spans"] == {"reference": 2, "system": 2, "matched": 2}
    assert cats["tense"]["P"] == pytest.approx(2 / 3) and cats["tense"]["R"] == pytest.approx(2 / 3)
    assert cats["pronoun"]["P"] == pytest.approx(2 / 3) and cats["pronoun"]["R"] == pytest.approx(2 / 3)
    assert cats["entity"]["F1"] == 1.0 and cats["dm"]["F1"] == 1.0
    # unigrams (case kept): 6 + 7 reference, 6 + 5 system; matched Ola kam mak sun . and zo vin .
    assert cats["1"]["spans"] == {"reference": 13, "system": 11, "matched": 8}
    # the preset's weights are the pack's: pronoun .5/.5 given, the others 1/n
    assert cfg.resolved_weights["tense"] == (1 / 3,) * 3 and cfg.resolved_weights["pronoun"] == (0.5, 0.5)
    assert "lang:" + FOLDER in res.signature and "toy_core_test_sm" in res.signature


def test_the_toy_languages_spans_threads_and_timeline(toy):
    from blonde_core.analysis.diagnostics import feature_breakdown
    from blonde_core.analysis.threads import pronoun_threads, tense_timeline
    from blonde_core.metric.features import spans
    from toy_lang import toy_record

    study, engine, cfg = toy
    res = study.result(cfg)
    sp = spans(toy_record(REF[0]), REF[0], res.table.pack)
    assert [(s["category"], s["feature"], s["text"]) for s in sp] == [
        ("entity", "NAME", "Ola"), ("tense", "past", "kam"), ("dm", "contrast", "mak"), ("pronoun", "ze", "ze"),
        ("tense", "present", "sun")]
    rows = {(r["category"], r["feature"]): r for r in feature_breakdown(res, "sys")}
    assert rows[("tense", "past")]["reference"] == 1 and rows[("tense", "past")]["matched"] == 0
    assert rows[("tense", "present")]["system"] == 2
    tl = tense_timeline(res, 0, ["sys"], "ref")
    # sentence 1 of the reference: one past, one present; a tie goes to the earlier group (past)
    assert [s["dominant"] for s in tl["ref"]] == ["past", "modal/future"]
    assert [s["dominant"] for s in tl["sys"]] == ["present", "modal/future"]
    pt = pronoun_threads(res, 0, ["sys"], "ref")
    # sentence 1: ze against zo; sentence 2: ze and zo on both sides
    assert [r["mismatch"]["sys"] for r in pt] == [True, False]


def test_a_language_without_the_early_weights_says_so(toy):
    from blonde_core.analysis.companion import companion_scores

    study, engine, cfg = toy
    res = study.result(cfg)
    with pytest.raises(InputError, match="early"):
        companion_scores(res, metrics=["BlonD-recall"])
    with pytest.raises(InputError, match="needs 2 weights"):
        ScoreConfig(lang=FOLDER, weights={"pronoun": (1.0, 1.0, 0.0, 0.0)})


def test_a_broken_pack_is_one_clear_message(tmp_path):
    from blonde_core.lang import load_pack

    (tmp_path / "pack.json").write_text('{"name": "x", "spacy_pipelines": []}', encoding="utf-8")
    with pytest.raises(InputError, match="pack.json.*missing or malformed field 'tense'"):
        load_pack(str(tmp_path))
    with pytest.raises(InputError, match="no such language pack"):
        load_pack(str(tmp_path / "nowhere"))


def test_english_pack_gives_the_package_weights():
    from blonde_core.lang import load_pack

    en = load_pack("en")
    assert en.preset_weights("blonde-0.1.4") == {
        "tense": (1 / 7,) * 7, "pronoun": (0.5, 0.5, 0.0, 0.0), "entity": (1.0, 0.0), "dm": (0.2,) * 5,
        "ngram": (0.25,) * 4}
    assert en.preset_weights("paper")["tense"] == (1.0,) * 7
    assert en.tense_tokens({"w": ["he", "ran", "home"], "t": ["PRP", "VBD", "NN"]}) == [(1, 0)]
