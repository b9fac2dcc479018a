"""The Japanese pack's names through its real analyser (MeCab with IPAdic, UniDic from unidic-lite consulted on
katakana nouns): sentences written here, each name or non-name worked out by hand - a loanword IPAdic lacks is
no name when UniDic knows it as a common word, a katakana word neither dictionary knows is one, a person,
place or organisation suffix gives its kind, and a nationality, language or religion is none."""
from collections import Counter

import pytest


def entities(text: str) -> list[tuple[str, str]]:
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.lang import load_pack
    from blonde_core.metric.features import spans

    pack = load_pack("ja")
    return [(s["text"], s["feature"]) for s in spans(load_analyser(pack).records([text])[0], text, pack)
            if s["category"] == "entity"]


HAND = [
    # ブラウザ, ウェブページ, タブレット: loanwords IPAdic lacks (or knows) and UniDic knows as common nouns
    ("彼はブラウザを閉じて、ウェブページを保存した。", []),
    ("タブレットを買った。", []),
    # ザルコフ (made up here): in neither dictionary, so a name of unknown kind
    ("ザルコフは笑った。", [("ザルコフ", "other")]),
    # ニコラス: unknown to IPAdic, a given name in UniDic (名詞-固有名詞-人名): a person
    ("ニコラスは言った。", [("ニコラス", "person")]),
    # パール ("pearl") is a common word in both dictionaries; さん after it makes it a person's name (the span
    # leaves the honorific out); alone it is the word
    ("パールさんが笑った。", [("パール", "person")]),
    ("パールは高い。", []),
    # 社 after a katakana word IPAdic lacks: an organisation, the span taking 社 in
    ("グーグル社の製品を買った。", [("グーグル社", "organisation")]),
    # the suffixes 人 and 語 make a country a nationality and a language; 〜教 is a religion: no entities;
    # the country alone is a place
    ("ロシア人の歌手がロシア語で歌った。", []),
    ("イスラム教の国に行った。", []),
    ("ロシアに行った。", [("ロシア", "place")]),
    # ・ joins the parts of a foreign name; a person suffix after it gives the whole its kind
    ("ザルコフ・ブリンク氏が来た。", [("ザルコフ・ブリンク", "person")]),
]


@pytest.mark.parametrize("text,want", HAND)
def test_names_by_hand(text, want):
    assert entities(text) == want


def test_unidic_verdicts_on_katakana_words():
    """What UniDic says of a katakana word on its own (annotation/japanese.py): a common loanword, a compound of
    loanwords, an adverb, a given name, a word it does not know, and a cut into native words no loanword has
    (アク "lye" + イロ "colour": a name UniDic forces its words on)."""
    from blonde_core.annotation.japanese import UniDicLexicon, katakana_word

    uni = UniDicLexicon()
    got = {w: uni.verdict(w) for w in ("ブラウザ", "ウェブページ", "ピカピカ", "ケヴィン", "ザルコフ", "アクイロ")}
    assert got == {"ブラウザ": "普通", "ウェブページ": "普通", "ピカピカ": "普通", "ケヴィン": "人名", "ザルコフ": "未知",
                   "アクイロ": "未知"}
    assert [katakana_word(w) for w in ("ブラウザ", "ー", "ーム", "ア", "ブラウザ2", "ひらがな")] == [
        True, False, False, False, False, False]


def test_the_pipeline_id_names_unidic():
    """UniDic's version is part of the records' key: another UniDic re-annotates."""
    from blonde_core.annotation.pipeline import dist_version, pipeline_id
    from blonde_core.lang import load_pack

    pid = pipeline_id(load_pack("ja"))
    assert f"unidic-lite-{dist_version('unidic-lite')}" in pid and pid.startswith("mecab-python3-")


def test_names_counted_in_a_document():
    """The entity category's counts over a short text (a loanword repeated is never a name)."""
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.lang import load_pack
    from blonde_core.metric.features import spans

    pack = load_pack("ja")
    text = ["ザルコフはブラウザを開いた。", "ブラウザが止まったので、ザルコフ氏は笑った。"]
    recs = load_analyser(pack).records(text)
    got = Counter(s["text"] for r, t in zip(recs, text) for s in spans(r, t, pack) if s["category"] == "entity")
    assert got == {"ザルコフ": 2}
