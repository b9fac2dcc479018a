"""The Ukrainian pack's names (issue 59) through its real analyser, pymorphy3 with the VESUM dictionary, and the
rules over it (annotation/slavic.py): sentences written for the test, the names a reader finds in them written
out by hand, one sentence or two per rule.  The Ukrainian dictionary marks no places or organisations: a name
that is not a person's is "other" (lang/uk/README.md)."""
import pytest

from test_lang_ru import entity_spans

HAND = [
    # a capitalised word the dictionary does not know, inside a sentence, guessed an animate noun: a person
    ("Потім прийшов Кордарін і сів поруч.", [("Кордарін", "person")]),
    # an unknown word's guessed adverb reading is no function word (it used to hide the name)
    ("За ним залишився Ортвік.", [("Ортвік", "person")]),
    # opening a sentence: a word the dictionary lacks, guessed a noun, is a name too
    ("Ортвік кивнув і вийшов.", [("Ортвік", "person")]),
    # a dash inside a sentence opens none: the Latin names after it are inside the sentence
    ("Ми збили два кораблі – Erebus і Terror.", [("Erebus", "other"), ("Terror", "other")]),
    # ... but after ! and the closing quote a new sentence starts: Він is a pronoun anyway, Тримайся a verb
    ("«Тримайся!» – Він обернувся.", []),
    # a capitalised word in quotes right after a noun is a name; quoted speech after a colon is not
    ("Рота «Світанок» вирушила о п'ятій.", [("Світанок", "other")]),
    ("Він прошепотів: «Тиша». І пішов.", []),
    # a capitalised adjective inside a sentence opens a name that runs to its noun
    ("Вчора Шотландська національна партія оголосила вибори.", [("Шотландська національна партія", "other")]),
    # neighbouring names are one; a person's label wins (a first name the dictionary lacks, a surname it knows)
    ("Сьогодні виступає Кейтлін Морроу.", [("Кейтлін Морроу", "person")]),
    # expressive spellings are no names: a letter three times, a hyphenated repetition
    ("Він крикнув Ураааа і побіг. Ха-ха-ха, сказав він. Пссс, тихо.", []),
    # Latin words between Latin names join them
    ("Він грав у Call of Duty всю ніч.", [("Call of Duty", "other")]),
    # the dictionary's person names; Києві is Київ's locative (not a person), Microsoft an unknown name
    ("Тарас Шевченко жив у Києві, а Ольга працює в Microsoft.",
     [("Тарас Шевченко", "person"), ("Києві", "other"), ("Ольга", "person"), ("Microsoft", "other")]),
]


@pytest.mark.parametrize("text,want", HAND, ids=[f"uk-{i}" for i in range(len(HAND))])
def test_hand_worked_names(text, want):
    assert entity_spans(text, "uk") == want


def test_sentence_starts():
    """Where a sentence starts, word by word: quotes and dashes are transparent, . ! ? … : open one."""
    from blonde_core.annotation.slavic import _WORD, sentence_starts

    words = _WORD.findall("«Так!» – Він пішов до «Світанку» – тоді: Ні.")
    got = [w for w, s in zip(words, sentence_starts(words)) if s and w[:1].isalpha()]
    assert got == ["Так", "Він", "Ні"]
