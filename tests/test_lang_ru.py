"""The Russian pack's names (issue 59) through its real analyser, pymorphy3 with slovnet's recogniser
(annotation/slavic.py): sentences written for the test, with the names a reader finds in them written out by
hand - the recogniser's names and classes, the capital letters the dictionary explains (a sentence-initial
imperative or adjective, function words in capitals, an abbreviation of common words), and the names outside
the recogniser's spans that the dictionary and the rules keep."""
from collections import Counter

import pytest


def entity_spans(text: str, lang: str = "ru") -> list[tuple[str, str]]:
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.lang import load_pack
    from blonde_core.metric.features import spans

    pack = load_pack(lang)
    return [(s["text"], s["feature"]) for s in spans(load_analyser(pack).records([text])[0], text, pack)
            if s["category"] == "entity"]


HAND = [
    # the recogniser: a foreign name the dictionary lacks, one person span, and a place
    ("Вчера Дэниел Кахнеман выступил в Принстоне.", [("Дэниел Кахнеман", "person"), ("Принстоне", "place")]),
    # a capital letter explained by the sentence start: an imperative, an adjective (the recogniser tags both)
    ("Подключите кабель к роутеру. Холодная вода полезна.", []),
    # ... unless a finite verb follows, whose subject the word is (милован is also a short participle)
    ("Милован взглянул на часы.", [("Милован", "person")]),
    # an abbreviation of common words (средства массовой информации) is no organisation; function words in capitals
    ("Об этом сообщили СМИ.", []),
    ("ДА. ОЧЕНЬ ХОРОШО. КОНЕЧНО.", []),
    # outside the recogniser's spans, the rules: Latin words between Latin names join them
    ("Он играл в Call of Duty всю ночь.", [("Call of Duty", "other")]),
    # a word the dictionary does not know, capitalised inside a sentence, guessed an animate noun: a person
    ("Потом пришёл Ортвик и сел рядом.", [("Ортвик", "person")]),
    # lowercased text is not given to the recogniser: the dictionary's names alone
    ("лев толстой жил в москве.", [("лев толстой", "person"), ("москве", "place")]),
]


@pytest.mark.parametrize("text,want", HAND, ids=[f"ru-{i}" for i in range(len(HAND))])
def test_hand_worked_names(text, want):
    assert entity_spans(text) == want


def test_the_pack_runs_slovnet_and_names_it_in_the_pipeline_id():
    """The recogniser's packages and versions are part of the pipeline id (so of every cache key and
    signature); the model files are read from inside the installed natasha package, nothing downloads."""
    from blonde_core.annotation import pipeline
    from blonde_core.annotation.adapters import adapter_of
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.annotation.slavic import SlovnetAnalyser
    from blonde_core.lang import load_pack

    pack = load_pack("ru")
    assert pack.analyser == "pymorphy3+slovnet"
    assert isinstance(load_analyser(pack), SlovnetAnalyser)
    pid = pipeline.pipeline_id(pack)
    assert pid.startswith(f"pymorphy3-{pipeline.dist_version('pymorphy3')}+")
    for name in ("slovnet", "navec", "razdel", "natasha"):
        assert f"+{name}-{pipeline.dist_version(name)}" in pid
    assert pid.endswith(f"/pymorphy3+slovnet-adapter-{adapter_of(pack).version}")


def test_lowercased_text_gets_the_dictionary_alone():
    """A text without capitals: the same names as pymorphy3 with the rules alone (the recogniser is not run),
    and an empty line is no trouble for the recogniser's batch."""
    from blonde_core.annotation.slavic import Pymorphy3Analyser, SlovnetAnalyser

    texts = ["вчера пётр иванов приехал в санкт-петербург.", "", "Вчера Пётр Иванов приехал."]
    both = SlovnetAnalyser("ru").records(texts)
    alone = Pymorphy3Analyser("ru").records(texts)
    assert both[0]["e"] == alone[0]["e"] and both[0]["e"]
    assert both[1]["e"] == [] and both[2]["e"]


def test_classes_on_real_news():
    """The recogniser's classes on a paragraph of real Russian written for the test: a person, a city, an
    organisation each once."""
    text = "Министр финансов Антон Силуанов заявил в Москве, что Центральный банк сохранит ставку."
    got = Counter(f for _, f in entity_spans(text))
    assert got == {"person": 1, "place": 1, "organisation": 1}
