"""The Hindi pack (issue 64) through its real analyser (hindiPOS's lexicon, annotation/hindi.py's verb-group rules):
hand-worked sentences per category with the counts a Hindi grammar gives, written out by hand; the pronoun
category declared empty with its reason (Hindi's third-person pronouns carry no gender) and left out of the
score, never a made-up number; the language guess; and `score` on the WMT24 en-hi files with lang:hi in its
signature."""
import json
from collections import Counter

import pytest

from conftest import SHARED

WMT24 = SHARED / "data" / "wmt24"
PAST, PRES, FUT, PROG, MOOD = ("भूतकाल (past)", "वर्तमान काल (present)", "भविष्यत् काल (future)", "सातत्य (progressive)",
                               "संभावनार्थ/आज्ञार्थ (subjunctive/imperative)")


def spans_of(text: str) -> list[dict]:
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.lang import load_pack
    from blonde_core.metric.features import spans

    pack = load_pack("hi")
    return spans(load_analyser(pack).records([text])[0], text, pack)


def counted(text: str, category: str) -> Counter:
    return Counter((s["text"], s["feature"]) for s in spans_of(text) if s["category"] == category)


@pytest.mark.pipeline
@pytest.mark.parametrize("text, expected", [
    # गया था: one past group, counted once on its last word; करता है: a habitual present; करेगा: future
    ("वह कल घर गया था और आज काम करता है। कल वह फिर आएगा।", {("था", PAST): 1, ("है", PRES): 1, ("आएगा", FUT): 1}),
    # कर रहा है: progressive whatever the tense of its auxiliary; रही थी: past progressive is progressive too
    ("राम खाना बना रहा है और सीता पढ़ रही थी।", {("है", PROG): 1, ("थी", PROG): 1}),
    # a perfective verb alone is past (किया); दीजिए, बैठो are imperatives; चाहिए modal; पढ़ने (infinitive) not
    # counted; लो (take!) is missed: the lexicon's most probable tag for it is NN, so it is no verb here
    ("उसने काम किया। कृपया ध्यान दीजिए। हमें जाना चाहिए। पढ़ने के लिए किताब लो। यहाँ बैठो।",
     {("किया", PAST): 1, ("दीजिए", MOOD): 1, ("चाहिए", MOOD): 1, ("बैठो", MOOD): 1}),
    # a participle used as an adjective (की हुई) is no finite verb; मांगा (asked) is past, not a -गा future
    ("उसने पानी मांगा। यह इस्तेमाल की हुई मिट्टी है।", {("मांगा", PAST): 1, ("है", PRES): 1}),
])
def test_tense_by_verb_group(text, expected):
    assert dict(counted(text, "tense")) == expected


@pytest.mark.pipeline
def test_pronouns_are_an_empty_category_with_its_reason():
    """वह is he, she and it: nothing is counted, and the pack says why (its notes carry the reason)."""
    from blonde_core.lang import load_pack

    pack = load_pack("hi")
    assert pack.pronoun_classes == () and pack.n_features["pronoun"] == 0
    assert "carry no gender" in pack.empty["pronoun"]
    assert any("carry no gender" in n for n in pack.notes)
    assert pack.preset_weights("blonde-0.1.4")["pronoun"] == ()
    assert counted("वह आई। वह आया। उसने उसे देखा।", "pronoun") == Counter()


@pytest.mark.unit
def test_an_empty_category_needs_its_reason(tmp_path):
    from blonde_core.errors import InputError
    from blonde_core.lang import load_pack

    data = json.loads((load_pack("hi").source and open(load_pack("hi").source, encoding="utf-8").read()))
    del data["pronoun"]["empty"]
    f = tmp_path / "pack.json"
    f.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(InputError, match="pronoun: a category with no features needs its reason"):
        load_pack(str(f))


@pytest.mark.pipeline
def test_entities_from_the_lexicon_and_unknown_words():
    # भारत, दिल्ली: NNP in the lexicon; थसालीन: a transliterated name the lexicon lacks; जनवरी is a date; श्रीमती a
    # title (the name after it counts); YouTube in Latin script
    got = [s["text"] for s in spans_of("श्रीमती एडू 13 जनवरी को भारत की राजधानी दिल्ली गईं। थसालीन ने YouTube देखा।")
           if s["category"] == "entity"]
    assert "जनवरी" not in got and "श्रीमती" not in " ".join(got)
    assert {"भारत", "दिल्ली", "थसालीन", "YouTube"} <= set(got)


@pytest.mark.pipeline
def test_what_the_lexicon_calls_a_name_and_is_none():
    # the lexicon's NNP is its noisiest tag: लाल ("red") it also lists as an adjective, तेज़ी ("speed") is तेजी with a
    # nukta, which it knows and never as a name; गाढ़ापन ("thickness", गाढ़ा + the suffix -पन) it lacks, yet its stem
    # is a known word; MEPओं carries Hindi's plural ending: none of them a name. शॉ the lexicon knows as a common
    # noun, but after the honorific मिस्टर it is a name; भारत stays one.
    text = "मिस्टर शॉ ने लाल झंडा तेज़ी से उठाया। सॉस का गाढ़ापन कम था। MEPओं ने भारत की बात की।"
    got = [s["text"] for s in spans_of(text) if s["category"] == "entity"]
    assert sorted(got) == ["भारत", "शॉ"]


@pytest.mark.pipeline
def test_connectives_with_their_senses():
    # तो after a comma or a clause-final verb is "then" (cause: अगर ... तो); the particle तो (मैं तो) is none;
    # फिर से is "again", फिर alone "then"; फिर भी (still) is one comparison marker, not फिर as well
    text = "अगर बारिश होगी, तो हम नहीं जाएँगे। मैं तो तैयार हूँ, लेकिन वह फिर से सो गया। फिर भी हम गए क्योंकि देर हो गई थी। फिर हम लौटे।"
    got = counted(text, "dm")
    assert got == Counter({("अगर", "cause"): 1, ("तो", "cause"): 1, ("लेकिन", "comparison"): 1,
                           ("फिर भी", "comparison"): 1, ("क्योंकि", "cause"): 1, ("फिर", "asynchronous"): 1})


@pytest.mark.unit
def test_the_language_guess_tells_hindi_from_marathi_and_nepali():
    from blonde_core.lang.detect import identify, identify_texts

    refs = (WMT24 / "references" / "en-hi.refA.txt").read_text(encoding="utf-8").splitlines()[1:200]
    assert identify_texts(refs)["language"] == "hi"
    assert identify("मी आज सकाळी शाळेत गेलो होतो आणि तिथे माझ्या मित्रांना भेटलो.")["language"] == "mr"
    assert identify("म आज बिहान विद्यालय गएँ र त्यहाँ मेरा साथीहरूलाई भेटेँ।")["language"] == "ne"


@pytest.mark.pipeline
def test_score_wmt24_en_hi_gives_blonde_with_lang_hi(tmp_path, capsys):
    """The done-when of issue 64 on a subset of the released files: three systems, the first 40 segments."""
    from blonde_core.cli import main

    d = tmp_path / "wmt"
    for sub in ("references", "documents", "sources"):
        (d / sub).mkdir(parents=True)
    (d / "system-outputs" / "en-hi").mkdir(parents=True)
    cut = lambda p: "\n".join(p.read_text(encoding="utf-8").split("\n")[:41]) + "\n"  # noqa: E731
    (d / "references" / "en-hi.refA.txt").write_text(cut(WMT24 / "references" / "en-hi.refA.txt"), encoding="utf-8")
    (d / "documents" / "en-hi.docs").write_text(cut(WMT24 / "documents" / "en-hi.docs"), encoding="utf-8")
    (d / "sources" / "en-hi.txt").write_text(cut(WMT24 / "sources" / "en-hi.txt"), encoding="utf-8")
    for name in ("GPT-4", "ONLINE-B", "Aya23"):
        (d / "system-outputs" / "en-hi" / f"{name}.txt").write_text(
            cut(WMT24 / "system-outputs" / "en-hi" / f"{name}.txt"), encoding="utf-8")
    assert main(["score", "--wmt-dir", str(d), "--lp", "en-hi", "--format", "json", "--no-cache"]) == 0
    out = json.loads(capsys.readouterr().out)
    from blonde_core.annotation.adapters import adapter_of
    from blonde_core.lang import load_pack

    assert "|lang:hi|" in out["signature"]
    assert f"analyser:hindiPOS-0.0.6/hindipos-adapter-{adapter_of(load_pack('hi')).version}" in out["signature"]
    gpt = out["systems"]["GPT-4"]
    assert 0 < gpt["BlonDe"]["F1"] <= 1
    assert gpt["categories"]["pronoun"]["spans"]["reference"] == 0
