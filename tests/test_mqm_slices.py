"""MQM sliced as Marot slices it (blonde_core/analysis/mqm.py): weights as rules, slices that add up,
the per-100-characters score, metadata fields, significance on the slice; on TED's real MQM release
and on a small file worked out by hand."""
import json

import pytest

from blonde_core.analysis.mqm import MqmWeights, segment_scores, significance, slices
from blonde_core.cli import main
from blonde_core.errors import InputError
from blonde_core.io.human import read_mqm
from blonde_core.io.judgments import mqm_weight


@pytest.fixture(scope="module")
def ted_mqm(ted):
    return read_mqm(ted / "raw" / "mqm_ted_zhen.tsv").scores


def test_default_rules_are_googles_weights(ted_mqm):
    w = MqmWeights()
    pairs = {(r[4], r[5]) for r in ted_mqm.errors} | {("Non-translation!", "Major"), ("Fluency/Punctuation", "Major"),
                                                     ("Source issue", "Major"), ("Other", "HOTW-test")}
    assert all(w.weight(c, s) == mqm_weight(c, s) for c, s in pairs)
    assert w.changes() == ""


def test_weights_parse_in_place_and_ahead():
    w = MqmWeights.parse("Major=10; Accuracy/*:Minor=2")
    assert w.changes() == "Accuracy/*:Minor=2; Major=10"
    assert w.weight("Style/Awkward", "Major") == 10 and w.weight("Non-translation!", "Major") == 25  # in place
    assert w.weight("Accuracy/Omission", "Minor") == 2 and w.weight("Fluency/Grammar", "Minor") == 1
    assert MqmWeights.parse(w.changes()) == w
    for bad in ("Major", "Major=x", "Major=-1", "=3"):
        with pytest.raises(InputError, match="MQM weight"):
            MqmWeights.parse(bad)


def test_slices_add_up_and_equal_the_system_scores(ted_mqm):
    by_sys = {r["system"]: r for r in slices(ted_mqm, ["system"])}
    assert {s: r["MQM"] for s, r in by_sys.items()} == {s: pytest.approx(v) for s, v in ted_mqm.system_scores.items()}
    # the categories of a system add up to its score (each segment's raters' mean, summed over categories)
    parts = slices(ted_mqm, ["system", "category"])
    for s in ("SMU", "ref"):
        assert sum(r["MQM"] for r in parts if r["system"] == s) == pytest.approx(by_sys[s]["MQM"])
    # per 100 source characters: the summed segment penalties over the rated segments' source length
    seg = segment_scores(ted_mqm)["SMU"]
    chars = sum(ted_mqm.seg_chars[k] for k in seg)
    assert by_sys["SMU"]["MQM per 100 chars"] == pytest.approx(100 * sum(seg.values()) / chars)
    assert by_sys["SMU"]["chars"] == chars and by_sys["SMU"]["rated"] == 529


def test_a_changed_weight_and_a_filter(ted_mqm):
    w = MqmWeights.parse("Major=10")
    rows = slices(ted_mqm, ["severity"], w, {"system": ["SMU"]})
    base = slices(ted_mqm, ["severity"], None, {"system": ["SMU"]})
    major, major0 = (next(r for r in x if r["severity"] == "Major") for x in (rows, base))
    non_tr = sum(1 for r in ted_mqm.errors if r[0] == "SMU" and r[5] == "Major" and r[4].startswith("Non-transl"))
    assert major["errors"] == major0["errors"] and major["penalty"] == pytest.approx(
        2 * major0["penalty"] - 25 * non_tr * 2 + 25 * non_tr)
    minor = next(r for r in rows if r["severity"] == "Minor")
    assert minor == next(r for r in base if r["severity"] == "Minor")
    # an error filter keeps every rated segment in scope: a category's share of the system's score
    acc = slices(ted_mqm, ["system"], None, {"category": ["Accuracy/Mistranslation"], "system": ["SMU"]})
    assert acc[0]["rated"] == 529 and acc[0]["MQM"] < slices(ted_mqm, ["system"], None, {"system": ["SMU"]})[0]["MQM"]
    with pytest.raises(InputError, match="slice by"):
        slices(ted_mqm, ["colour"])


def test_significance_on_the_slice(ted_mqm):
    sig = significance(ted_mqm, MqmWeights.parse("Major=10"), {"category": ["Accuracy/Mistranslation"]}, n=200)
    by_sys = {r["system"]: r["MQM"] for r in slices(ted_mqm, ["system"], MqmWeights.parse("Major=10"),
                                                    {"category": ["Accuracy/Mistranslation"]})}
    assert sig["systems"] == {s: pytest.approx(v) for s, v in by_sys.items()}
    assert len(sig["pairs"]) == 15 * 14 // 2
    ref = next(r for r in sig["pairs"] if (r["a"], r["b"]) == ("ref", "refB"))
    assert ref["difference"] == pytest.approx(by_sys["ref"] - by_sys["refB"]) and ref["p"] < 0.01
    assert all(r["p (Holm)"] >= r["p"] for r in sig["pairs"])
    # the same pair twice is the same (seeded), and a system against itself is no difference
    again = significance(ted_mqm, MqmWeights.parse("Major=10"), {"category": ["Accuracy/Mistranslation"]}, n=200)
    assert again["pairs"] == sig["pairs"]


def test_metadata_fields_of_a_wmt22_file(tmp_path):
    """The WMT22-24 layout's JSON metadata column: its scalar fields slice and filter like the others."""
    head = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata"
    rows = [("A", "d1", 1, 1, "r1", "Quelle.", "<v>One</v> two.", "Accuracy/Mistranslation", "Major", {"domain": "news", "t": 1}),
            ("A", "d1", 2, 2, "r1", "Deux.", "Two two.", "No-error", "No-error", {"domain": "news"}),
            ("A", "d2", 1, 3, "r1", "Trois.", "Three <v>x</v>.", "Fluency/Grammar", "Minor", {"domain": "chat"}),
            ("B", "d1", 1, 1, "r1", "Quelle.", "One two.", "No-error", "No-error", {"domain": "news"}),
            ("B", "d1", 2, 2, "r1", "Deux.", "Two.", "Fluency/Grammar", "Minor", {"domain": "news"}),
            ("B", "d2", 1, 3, "r1", "Trois.", "Three.", "No-error", "No-error", {"domain": "chat"})]
    f = tmp_path / "mqm22.tsv"
    f.write_text("\n".join([head] + ["\t".join(map(str, r[:9])) + "\t" + json.dumps(r[9]) for r in rows]) + "\n",
                 encoding="utf-8")
    hs = read_mqm(f).scores
    assert hs.meta_fields == ["domain", "t"] and hs.seg_chars[("d1", "1")] == len("Quelle.")
    got = {(r["system"], r["domain"]): (r["errors"], r["penalty"]) for r in slices(hs, ["system", "domain"])}
    assert got == {("A", "news"): (1, 5.0), ("A", "chat"): (1, 1.0), ("B", "news"): (1, 1.0)}
    # A: segments 5, 0, 1 -> MQM 2; B: 0, 1, 0 -> 1/3; per 100 chars of source
    sys_ = {r["system"]: r for r in slices(hs, ["system"])}
    assert sys_["A"]["MQM"] == pytest.approx(2.0) and sys_["B"]["MQM"] == pytest.approx(1 / 3)
    n_chars = len("Quelle.") + len("Deux.") + len("Trois.")
    assert sys_["A"]["MQM per 100 chars"] == pytest.approx(600 / n_chars)
    only_news = slices(hs, ["system"], None, {"domain": ["news"]})
    assert {r["system"]: r["penalty"] for r in only_news} == {"A": 5.0, "B": 1.0}
    sig = significance(hs, per="100 characters", n=100)
    assert sig["pairs"][0]["difference"] == pytest.approx(100 * 6 / n_chars - 100 * 1 / n_chars)


def test_the_command_line_says_the_same(ted, ted_mqm, capsys):
    mqm = str(ted / "raw" / "mqm_ted_zhen.tsv")
    assert main(["human", "--mqm", mqm, "--by", "category,severity", "--weights", "Major=10", "--where",
                 "system=SMU", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["slices"] == json.loads(json.dumps(slices(ted_mqm, ["category", "severity"], MqmWeights.parse("Major=10"),
                                                         {"system": ["SMU"]})))
    assert main(["human", "--mqm", mqm, "--where", "system"]) == 2
    assert "FIELD=VALUE" in capsys.readouterr().err
    assert main(["human", "--mqm", mqm, "--where", "system=SMU,ref", "--significance"]) == 0
    text = capsys.readouterr().out
    assert "SMU              ref" in text and "paired randomization" in text
    assert main(["human", "--mqm", mqm, "--where", "system=SMU,ref", "--significance", "--per", "100chars",
                 "--format", "json"]) == 0
    sig = json.loads(capsys.readouterr().out)["significance"]
    assert sig["per"] == "100 characters" and sig["pairs"][0]["MQM a"] == pytest.approx(
        slices(ted_mqm, ["system"], None, {"system": ["SMU"]})[0]["MQM per 100 chars"])
