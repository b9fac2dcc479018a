"""The Korean pack (issue 64) through its real analyser, Kiwi: hand-worked sentences per category with the
counts a grammar of Korean gives written out by hand (tense on the endings -었-, -겠-, -(으)ㄹ 것이다 and the
final ending; the written pronouns 그/그녀/그들 and never the determiner 그; names without capitals;
connectives and the list words that are none), the language guess, the command line on text written here,
and - where the WMT25 mirror is on this machine - the gold paragraphs read against their source and real
en-ko outputs scored with lang:ko in the signature."""
import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest

MIRROR = Path("/work/.mirror/wmt-conference+wmt25-general-mt/repo")


def spans_of(text: str) -> list[dict]:
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.lang import load_pack
    from blonde_core.metric.features import spans

    pack = load_pack("ko")
    return spans(load_analyser(pack).records([text])[0], text, pack)


def counts(text: str, category: str) -> dict:
    return dict(Counter(s["feature"] for s in spans_of(text) if s["category"] == category))


def texts(text: str, category: str) -> list[str]:
    return [s["text"] for s in spans_of(text) if s["category"] == category]


PAST, NONPAST, FUT, PROSP = "과거 (past -었-)", "현재 (non-past)", "겠 (future/conjecture)", "-ㄹ 것이다 (prospective)"

HAND = [
    # 만났다 = 만나 + 았 + 다: past; 떠나겠습니다: -겠-; 간다: non-past final ending; 가고 (a clause that goes on) none
    ("그는 어제 친구를 만났다. 내일은 떠나겠습니다. 지금은 학교에 가고 집에 간다.", "tense",
     {PAST: 1, FUT: 1, NONPAST: 1}),
    # the past in a connective clause (먹었고) and an adnominal (뛰었던) counts; 갈 것이다 is one prospective, its
    # copula's final ending not counted again as non-past
    ("우리는 밥을 먹었고, 그녀는 한때 뛰었던 학교에 갈 것이다.", "tense", {PAST: 2, PROSP: 1}),
    # 할 겁니다 and 될 거야 are the same construction contracted; 할 수 있다 is non-past (있다), not prospective
    ("그 일을 할 겁니다. 다 잘 될 거야. 너는 할 수 있다.", "tense", {PROSP: 2, NONPAST: 1}),
    # 있고요. closes a sentence with a connective ending + 요: non-past; 했는데, inside the sentence: past
    ("시간은 있고요. 어제 전화했는데, 받지 않았다.", "tense", {NONPAST: 1, PAST: 2}),
    # pronouns: 그는 (he), 그녀를 (she), 그들의 (they); 그 남자 is the determiner, 그게 = 그것이 (that thing)
    ("그는 그 남자를 보았다. 그녀를 만났다. 그게 그들의 집이었다.", "pronoun",
     {"그 (he)": 1, "그녀 (she)": 1, "그들 (they)": 1}),
    # names are written without capitals: Kiwi's proper nouns; a name of two words is one (템바 바부마)
    ("카일은 뉴햄프셔로 이사했고, 템바 바부마는 주장이 되었다.", "entity", {"name": 3}),
    # connectives: 하지만 (comparison), 그래서 (cause), 그리고 opening a clause (conjunction), 바로 그때 (synchronous)
    ("비가 왔다. 하지만 경기는 계속되었다. 그래서 우리는 기뻤다. 그리고 바로 그때, 해가 떴다.", "dm",
     {"comparison": 1, "cause": 1, "conjunction": 1, "synchronous": 1}),
    # 그리고 between the noun phrases of a list, 먼저 inside a question ("who first") and 그때 closing a
    # sentence ("back then") link no clauses
    ("빠른 정답, 풍부한 지식, 그리고 멋진 결말. 누가 먼저 말할래? 좋았지, 그때.", "dm", {}),
    # 하지만 is the conjunctive adverb (Kiwi: MAJ) only where it opens a clause; after 있긴 / 좋기는 it is the verb 하-
    # with the ending -지만 ("there are, but"), inside the predicate (Kiwi: 하/VX + 지만/EC): no marker
    ("문제점이 있긴 하지만, 좋은 제품이다. 비싸기는 하지만 산다. 하지만 나는 안 샀다.", "dm", {"comparison": 1}),
]


@pytest.mark.pipeline
@pytest.mark.parametrize("text,category,expected", HAND, ids=[f"{c}-{i}" for i, (_, c, _) in enumerate(HAND)])
def test_hand_worked(text, category, expected):
    assert counts(text, category) == expected


@pytest.mark.pipeline
def test_spans_are_the_words_a_reader_marks():
    """The tense span is the predicate word as written; the pronoun span its word with the particle; a name's span
    its own characters (카일 in 카일은); a model's name Kiwi cuts into letters and digits is one (N64, 8BitDo); a
    hashtag is no name."""
    assert texts("그녀가 웃으며 말했다.", "tense") == ["말했다"]
    assert texts("그녀가 웃으며 말했다.", "pronoun") == ["그녀가"]
    assert texts("카일은 웃었다.", "entity") == ["카일"]
    assert texts("8BitDo는 N64 컨트롤러를 팔았다.", "entity") == ["8BitDo", "N64"]
    assert "#유니버시티챌린지" not in texts("#유니버시티챌린지 경기는 최고였다.", "entity")


@pytest.mark.pipeline
def test_pipeline_id_names_kiwi_and_its_model():
    from blonde_core.annotation.pipeline import pipeline_id
    from blonde_core.lang import load_pack

    pid = pipeline_id(load_pack("ko"))
    assert pid.startswith("kiwipiepy-0.24.1+kiwipiepy-model-0.24.0/kiwi-adapter-")


@pytest.mark.unit
def test_korean_is_guessed_by_its_script():
    from blonde_core.lang import guess_language

    g = guess_language(["카일은 거울 속의 자신을 살펴보았다. 그는 웃었다."])
    assert (g["language"], g["pack"]) == ("ko", "ko")


def _score_json(tmp_path, ref_lines, sys_lines, *extra) -> dict:
    from blonde_core.cli import main

    ref, hyp, out = tmp_path / "ref.txt", tmp_path / "sysA.txt", tmp_path / "out.json"
    ref.write_text("\n".join(ref_lines) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(sys_lines) + "\n", encoding="utf-8")
    assert main(["score", "-r", str(ref), "-s", str(hyp), "--no-cache", "--format", "json", "-o", str(out),
                 *extra]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.pipeline
def test_score_text_written_here_signs_lang_ko(tmp_path):
    """Korean written here scores with lang:ko guessed from the text; the reference against itself is 1.0, a
    system that says 그녀 where the reference says 그 loses in the pronoun category."""
    ref = ["카일은 어제 서울에서 니콜을 만났다. 그는 웃으며 인사했다.", "하지만 그녀는 내일 떠날 것이다."]
    got = _score_json(tmp_path, ref, ref)
    assert "lang:ko" in got["signature"]
    assert got["systems"]["sysA"]["BlonDe"]["F1"] == pytest.approx(1.0)
    swapped = ["카일은 어제 서울에서 니콜을 만났다. 그녀는 웃으며 인사했다.", "하지만 그녀는 내일 떠날 것이다."]
    cats = _score_json(tmp_path, ref, swapped)["systems"]["sysA"]["categories"]
    assert cats["pronoun"]["F1"] < 1.0
    assert cats["tense"]["F1"] == pytest.approx(1.0) and cats["entity"]["F1"] == pytest.approx(1.0)


def _mirror_lines(system: str) -> list[tuple[str, int, str]]:
    raw = subprocess.run(["git", "-C", str(MIRROR), "show", f"HEAD:data/systems/{system}.jsonl"],
                         capture_output=True, text=True, check=True).stdout
    out = []
    for line in raw.splitlines():
        row = json.loads(line)
        if row["doc_id"].startswith("en-ko"):
            out += [(row["doc_id"], k, p) for k, p in enumerate(row["hypothesis"].split("\n"))]
    return out


needs_mirror = pytest.mark.skipif(not (MIRROR / "HEAD").is_file(),
                                  reason="the WMT25 mirror (fetch github:wmt-conference/wmt25-general-mt) is not here")


@pytest.mark.pipeline
@needs_mirror
def test_gold_paragraphs_are_algharb_lines_as_released():
    """Each gold paragraph, marks removed, is the en-ko paragraph of Algharb's WMT25 output it names (the
    flattened line number, the document and the paragraph in it)."""
    from blonde_core.lang.gold import load_gold

    lines = _mirror_lines("Algharb")
    items = load_gold("ko")
    assert len(items) >= 60
    for it in items:
        doc, k, text = lines[it["line"]]
        assert (doc, k) == (it["doc_id"], it["paragraph"])
        assert text == it["text"], it["id"]


@pytest.mark.pipeline
@needs_mirror
def test_real_en_ko_outputs_score_with_lang_ko(tmp_path):
    """Twenty speech-domain paragraphs of WMT25 en-ko: Laniqo's output scored against Algharb's (no human
    reference is released; the strong system stands in), the language guessed from the text."""
    ref = [p for d, _, p in _mirror_lines("Algharb") if "_#_speech_#_" in d][:20]
    hyp = [p for d, _, p in _mirror_lines("Laniqo") if "_#_speech_#_" in d][:20]
    got = _score_json(tmp_path, ref, hyp)
    assert "lang:ko" in got["signature"] and "kiwi-adapter" in got["signature"]
    assert 0 < got["systems"]["sysA"]["BlonDe"]["F1"] < 1
    assert got["systems"]["sysA"]["categories"]["tense"]["spans"]["reference"] > 50
