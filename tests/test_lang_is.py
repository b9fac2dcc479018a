"""The Icelandic pack (issue 64) through its real analyser (BÍN via islenska, annotation/icelandic.py's rules of
context): hand-worked sentences per category with the counts an Icelandic grammar gives, written out by hand; the
language guess against Faroese and Norwegian; and `score` on WMT24 en-is with lang:is in its signature (the data
is fetched, not shared: tests/wmt24_is.py says where it looks, and the test skips saying so when it is absent)."""
import json
from collections import Counter

import pytest

from wmt24_is import WHERE, reference_lines, wmt_folder

PAST, PRES, PERF, PLUP, FUT, SUBJ, IMP = (
    "þátíð (past)", "nútíð (present)", "núliðin tíð (perfect)", "þáliðin tíð (past perfect)", "framtíð (future)",
    "viðtengingarháttur (subjunctive)", "boðháttur (imperative)")
HE, SHE, IT, THEY_M, THEY_F, THEY_N = ("hann (he)", "hún (she)", "það (it)", "þeir (they, masc.)",
                                       "þær (they, fem.)", "þau (they, neut.)")


def spans_of(text: str, category: str) -> list[tuple[str, str]]:
    """(text, class) of every span of one category the Icelandic pack marks in text, through its real analyser."""
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.lang import load_pack
    from blonde_core.metric.features import spans

    pack = load_pack("is")
    rec = load_analyser(pack).records([text])[0]
    return [(s["text"], s["feature"]) for s in spans(rec, text, pack) if s["category"] == category]


def counted(text: str, category: str) -> Counter:
    return Counter(spans_of(text, category))


@pytest.mark.pipeline
@pytest.mark.parametrize("text, expected", [
    # sagði: indicative past; væri: past subjunctive (reported); farin: a participle, not counted
    ("Hann sagði að hún væri farin.", {("sagði", PAST): 1, ("væri", SUBJ): 1}),
    # hef + supine séð three words on: one perfect on the auxiliary; munum + infinitive koma: one future
    ("Ég hef aldrei séð hann. Við munum koma á morgun.", {("hef", PERF): 1, ("munum", FUT): 1}),
    # hafði + supine: past perfect; þeir gerðu: past (gerðu is also the imperative "do!", which opens the clause
    # in the last sentence)
    ("Hún hafði gleymt því. Þeir gerðu það. Gerðu það strax!",
     {("hafði", PLUP): 1, ("gerðu", PAST): 1, ("Gerðu", IMP): 1}),
    # vilja after the plural subject þau: present; fara after it: an infinitive, not counted; er: present of vera,
    # not the old relative particle
    ("Þau vilja fara heim. Þetta er gott.", {("vilja", PRES): 1, ("er", PRES): 1}),
    # jarðar after the preposition til is the genitive of jörð, not the verb jarða; féll: past
    ("Til jarðar féll hann.", {("féll", PAST): 1}),
    # sé after ég is "I see" (sjá), elsewhere vera's subjunctive; sinni is the noun "time", not sinna's subjunctive
    ("Ég sé að þetta sé rétt í þetta sinn.", {("sé", PRES): 1, ("sé", SUBJ): 1}),
])
def test_tense_from_the_verbs_inflection(text, expected):
    assert dict(counted(text, "tense")) == expected


@pytest.mark.pipeline
def test_gendered_pronouns_in_their_case_forms():
    """hann/hans/honum, hún/hana/henni/hennar counted in every case; það with a referent counted; expletive það
    (a plural verb, extraposition) and the relative head það sem not counted."""
    got = counted("Hann sá hana og gaf henni bókina hans. Húsið er stórt og það er gamalt. Það eru margir hérna. "
                  "Það er mikilvægt að lesa. Þeir og þær og þau komu. Ég skil ekki það sem hún sagði.", "pronoun")
    assert dict(got) == {("Hann", HE): 1, ("hana", SHE): 1, ("henni", SHE): 1, ("hans", HE): 1, ("það", IT): 1,
                         ("Þeir", THEY_M): 1, ("þær", THEY_F): 1, ("þau", THEY_N): 1, ("hún", SHE): 1}
    # sá after hann is the verb "saw", not the demonstrative
    assert counted("Hann sá hana.", "tense") == Counter({("sá", PAST): 1})


@pytest.mark.pipeline
def test_entities_by_capital_letter_and_bins_domains():
    text = "Í gær fór Jón Sigurðsson til Reykjavíkur og hitti fólk frá Google á íslenskum fundi."
    got = set(spans_of(text, "entity"))
    # a given name and a patronymic side by side: one person; a town: a place; a name BÍN does not know: other;
    # the sentence's first word and the lower-case adjective íslenskum are no names
    assert got == {("Jón Sigurðsson", "person"), ("Reykjavíkur", "place"), ("Google", "other")}
    # a sentence-initial word BÍN knows as a common word is no name (Skrímslið, the monster)
    assert spans_of("Skrímslið þagnaði.", "entity") == []


@pytest.mark.pipeline
def test_connectives_with_their_senses():
    got = counted("Hann kom en hún fór. Hún er stærri en hann. Ég fór heim af því að ég var þreyttur. "
                  "Þegar hann kom, fórum við. Það er nú þegar búið. Hann sá þá ekki.", "dm")
    # en "but" counted, en "than" after a comparative not; af því að once (the longest); Þegar "when";
    # nú þegar "already" and þá "them" after a verb are no connectives
    assert dict(got) == {("en", "comparison"): 1, ("af því að", "cause"): 1, ("Þegar", "asynchronous"): 1}
    # þá opening a clause is "then"; því opening one is "because"
    assert dict(counted("Ef það rignir, þá förum við heim, því við erum blaut.", "dm")) == {
        ("Ef", "cause"): 1, ("þá", "asynchronous"): 1, ("því", "cause"): 1}


@pytest.mark.unit
def test_the_language_guess_tells_icelandic_from_faroese_and_norwegian():
    from blonde_core.lang.detect import identify

    assert identify("Hann sagði að hún hefði farið til Reykjavíkur í gær og kæmi aftur á morgun.")["language"] == "is"
    assert identify("Eg eri úr Føroyum og tosi føroyskt. Hetta er ein bók, sum eg havi lisið.")["language"] == "fo"
    assert identify("Jeg kommer fra Norge og snakker norsk. Dette er en bok som jeg har lest.")["language"] == "no"


@pytest.mark.pipeline
def test_the_wmt24_reference_is_recognised_as_icelandic():
    from blonde_core.lang.detect import identify_texts

    ref = reference_lines()
    if ref is None:
        pytest.skip(WHERE)
    assert identify_texts(ref[1:200])["language"] == "is"


@pytest.mark.pipeline
def test_score_wmt24_en_is_gives_blonde_with_lang_is(tmp_path, capsys):
    """The done-when of issue 64 on a subset of the released files: three systems, the first 40 segments."""
    from blonde_core.annotation.adapters import adapter_of
    from blonde_core.cli import main
    from blonde_core.lang import load_pack

    d = wmt_folder(tmp_path / "wmt24", lines=41)
    if d is None:
        pytest.skip(WHERE)
    assert main(["score", "--wmt-dir", str(d), "--lp", "en-is", "--format", "json", "--no-cache"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "|lang:is|" in out["signature"]
    adapter = f"islenska-adapter-{adapter_of(load_pack('is')).version}"
    assert f"analyser:islenska-2.1.0+islenska-data-5.0.0/{adapter}" in out["signature"]
    for name in ("GPT-4", "ONLINE-B", "Aya23"):
        assert 0 < out["systems"][name]["BlonDe"]["F1"] <= 1
    assert out["systems"]["GPT-4"]["categories"]["pronoun"]["spans"]["reference"] > 0
