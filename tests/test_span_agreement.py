"""Issue 62, point 4: BlonDe's own mismatched spans against human error spans, one more row beside the humans'
agreement - character by character as WMT25 scores error spans, severity set aside. On TED zh-en with its MQM
spans: `score --overlap` and the Human judgments page give the same numbers, and the characters counted are
those of BlonDe's unmatched spans and of the human's error spans on the compared segments."""
import json

import pytest
from streamlit.testing.v1 import AppTest

from blonde_core.analysis.overlap import _as_spans
from blonde_core.analysis.spanf1 import char_f1
from blonde_core.cli import main
from blonde_core.study import ScoreConfig, Study
from conftest import ROOT, TED

SYSTEMS = ["Online-W", "SMU"]


def test_severity_is_set_aside_and_non_errors_left_out():
    human = [{"start": 5, "end": 9, "severity": "Minor"}, {"start": 0, "end": 3, "severity": "Neutral"},
             {"start": None, "end": None, "severity": "major"}, {"start": 12, "end": 14, "severity": "Major"}]
    blonde = [{"start": 1, "end": 4, "category": "entity"}, {"start": 6, "end": 9, "category": "tense"}]
    g, p = _as_spans(human, 1), _as_spans(blonde)
    assert g == [{"start": 4, "end": 8, "severity": "major"}, {"start": 11, "end": 13, "severity": "major"}]
    r = char_f1([(20, g, p)])
    # predicted characters 1-3 and 6-8 (6), gold 4-7 and 11-12 (6), in both: 6, 7 (2)
    assert (r["pred_chars"], r["gold_chars"], r["matched"]) == (6, 6, 2)
    assert r["precision"] == pytest.approx(2 / 6) and r["recall"] == pytest.approx(2 / 6)


@pytest.fixture(scope="module")
def ted():
    return Study.from_files([TED / "refs" / "ref.txt"], [TED / "systems" / f"{s}.txt" for s in SYSTEMS],
                            docids=TED / "docids.txt").with_files(human=TED / "raw" / "mqm_ted_zhen.tsv")


def test_the_command_and_the_page_agree_on_ted(ted, capsys):
    assert main(["score", "-r", str(TED / "refs" / "ref.txt"), "-s", *[str(TED / "systems" / f"{s}.txt")
                                                                        for s in SYSTEMS],
                 "--docids", str(TED / "docids.txt"), "--human", str(TED / "raw" / "mqm_ted_zhen.tsv"), "--overlap",
                 "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)["overlap"]
    ov = ted.blonde_spans_vs_human(ScoreConfig())
    assert ov["span_f1"] == pytest.approx(cli["span_f1"])
    total = {k: sum(v["span_f1"][k] for v in ov["systems"].values()) for k in ("matched", "gold_chars", "pred_chars")}
    assert total == pytest.approx({k: ov["span_f1"][k] for k in total})  # the overall is the systems' characters
    assert 0 < ov["span_f1"]["precision"] < 1 and 0 < ov["span_f1"]["recall"] < 1
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.session_state["data"] = ted
    at.session_state["config"] = ScoreConfig()
    at.run()
    at.switch_page("pages/judgments.py").run()
    at.toggle(key="jud_blonde_spans").set_value(True).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    said = " ".join(m.value for m in at.markdown)
    assert f"F1 {ov['span_f1']['f1']:.3f}" in said
    table = next(df.value for df in at.dataframe if "span F1" in df.value.columns).set_index("system")
    for s in SYSTEMS:
        assert table.loc[s, "span F1"] == pytest.approx(ov["systems"][s]["span_f1"]["f1"])
