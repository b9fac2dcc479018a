"""The German pack's context rules (annotation/german.py) through its real analyser, HanTa: which *es* has no
referent (Duden, Die Grammatik, §§ 1277-1283) and which capitalised words make one name; each sentence worked
out by hand, with the spans a German grammar gives."""
import pytest

IT, HE = "es (it)", "er (he)"
NAME = "Name (NE)"


def spans_of(text: str, category: str) -> list[tuple[str, str]]:
    """(text, class) of every span of one category the German pack marks in text, through HanTa."""
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.lang import load_pack
    from blonde_core.metric.features import spans

    pack = load_pack("de")
    rec = load_analyser(pack).records([text])[0]
    return [(s["text"], s["feature"]) for s in spans(rec, text, pack) if s["category"] == category]


@pytest.mark.pipeline
@pytest.mark.parametrize("text, want", [
    # the correlate of a zu-infinitive (subject and object) and of a dass clause: no referent
    ("Es freut mich, dich zu sehen.", []),
    ("Sie mochte es nicht, früh aufzustehen.", []),
    ("War es Zufall, dass er kam?", [("er", HE)]),
    # the placeholder before a plural verb: the verb agrees with "fünfhundert", not with es
    ("Es sind tatsächlich fünfhundert.", []),
    # es geht with an adverb before the adjective; existential es ... gibt at a subordinate clause's end
    ("Mir geht es sehr gut.", []),
    ("Wenn es dafür ein besseres Verständnis gibt, hilft das.", []),
    # referential es stays: the book; and "um ... zu" is an adverbial clause, so es is the object of las
    ("Das Buch lag auf dem Tisch, und es war schwer.", [("es", IT)]),
    ("Er las es, um ehrlich zu sein, nicht.", [("Er", HE), ("es", IT)]),
])
def test_expletive_es_is_not_counted(text, want):
    assert spans_of(text, "pronoun") == want


@pytest.mark.pipeline
@pytest.mark.parametrize("text, want", [
    # capitalised foreign words (FM) are one name, with short lower-case foreign words inside
    ("Die Band The Now spielte gestern.", [("The Now", NAME)]),
    ("Sie sangen „I Made a Case“ mit Howard Jones.", [("I Made a Case", NAME), ("Howard Jones", NAME)]),
    # HanTa tags "sodass" NE here: a lower-case word is no name in German
    ("Wir hatten Zeit, sodass Mitglieder kamen.", []),
    ("Angela Merkel besuchte Paris.", [("Angela Merkel", NAME), ("Paris", NAME)]),
])
def test_names(text, want):
    assert spans_of(text, "entity") == want


@pytest.mark.pipeline
def test_the_rules_read_hantas_tags():
    """The rules rest on what HanTa says of these words: were its tags to change, the tests above would prove
    nothing (sodass NE, The/Now FM, es after „ mis-tagged but still an es)."""
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.lang import load_pack

    an = load_analyser(load_pack("de"))
    rec = an.records(["Wir hatten Zeit, sodass Mitglieder kamen."])[0]
    assert rec["t"][rec["w"].index("sodass")] == "NE"
    rec = an.records(["Die Band The Now spielte gestern."])[0]
    assert rec["t"][2:4] == ["FM", "FM"]
    rec = an.records(["Er sagte: „Es sind tatsächlich fünfhundert.“"])[0]
    assert rec["m"][rec["w"].index("Es")] == "Expl=Yes"
