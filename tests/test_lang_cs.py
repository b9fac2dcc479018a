"""The Czech pack's entity rules (pack.json entity: exclude_morph, relabel_from_morph, whole_words; read by
metric/features.py entities) through its real analyser, cs_core_news_sm: each sentence worked out by hand."""
import pytest

PERSON, PLACE = "person", "place"


def analysed(text: str):
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.lang import load_pack

    pack = load_pack("cs")
    return pack, load_analyser(pack).records([text])[0]


def entities_of(text: str) -> list[tuple[str, str]]:
    from blonde_core.metric.features import spans

    pack, rec = analysed(text)
    return [(s["text"], s["feature"]) for s in spans(rec, text, pack) if s["category"] == "entity"]


@pytest.mark.pipeline
@pytest.mark.parametrize("text, raw, want", [
    # the tokenizer splits at the hyphen and the recogniser stops there ("Muhammadem El-"): the name runs on
    ("Spojil se s Muhammadem El-Rufaim v Kaduně.", ("Muhammadem El-", "PERSON"),
     [("Muhammadem El-Rufaim", PERSON), ("Kaduně", PLACE)]),
    # a possessive adjective (Poss=Yes) is no name: "Petrovo auto" was an organisation
    ("Viděl jsem Petrovo auto a Petra Nováka v Praze.", ("Petrovo auto", "ORG"),
     [("Petra Nováka", PERSON), ("Praze", PLACE)]),
    # the morphologizer's given names (NameType=Giv) make a person of the recogniser's WORK_OF_ART
    ("Vicenta Sisoa potkal v parku.", ("Vicenta Sisoa", "WORK_OF_ART"), [("Vicenta Sisoa", PERSON)]),
])
def test_entity_rules(text, raw, want):
    pack, rec = analysed(text)
    assert raw in [(text[s:e], label) for s, e, label in rec["e"]]  # what the recogniser says, before the rules
    assert entities_of(text) == want
