"""Issue 60, point 6: a language without a pack is no dead end. On WMT24 en-hi as released, scored as Marathi
(`--lang mr`, a language of the same script without a pack - Hindi has one since 2026-11-27 - so the real ESA
judgments with their error spans stay): Significance tests chrF, BLEU and the metrics computed elsewhere on the
texts alone, the command line's `compare --metric chrF` gives the same numbers; Documents shows the texts side by
side with the human error spans, and no BlonDe span; a system that wrote nothing is called empty."""
import json

import pytest
from streamlit.testing.v1 import AppTest

from blonde_core.cli import main
from blonde_core.study import ScoreConfig, Study
from conftest import ROOT, SAMPLE, SHARED

WMT24 = SHARED / "data" / "wmt24"


@pytest.fixture(scope="module")
def en_hi():
    return Study.from_wmt(WMT24, "en-hi")


def app_with(study, page, lang: str = "mr"):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.session_state["data"] = study
    at.session_state["config"] = ScoreConfig(lang=lang)  # what the sidebar gives data in that language
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_compare_chrf_without_a_pack_on_the_command_line(capsys, en_hi):
    assert main(["compare", "--wmt-dir", str(WMT24), "--lp", "en-hi", "--lang", "mr", "--metric", "chrF", "--n",
                 "200", "--format", "json"]) == 0
    cap = capsys.readouterr()
    out = json.loads(cap.out)
    assert out["signature"].startswith("texts|lang:mr|pack:none|") and "Marathi" in cap.err
    assert "chrF needs none" in cap.err
    assert len(out["pairs"]) == 19 * 18 // 2
    same = en_hi.compare(ScoreConfig(lang="mr"), "chrF", "bootstrap", "auto", 200, std_metrics=("chrF",))
    assert [q["p"] for q in out["pairs"]] == [q["p"] for q in same["pairs"]]
    # BlonDe itself still needs the pack: said, exit 2
    assert main(["compare", "--wmt-dir", str(WMT24), "--lp", "en-hi", "--lang", "mr", "--metric", "BlonDe"]) == 2
    assert "no language pack" in capsys.readouterr().err


def test_the_significance_page_tests_chrf_without_a_pack(en_hi):
    at = app_with(en_hi, "pages/significance.py")
    assert any("Marathi" in w.value and "need no pack" in w.value for w in at.warning), [w.value for w in at.warning]
    assert not at.error, [e.value for e in at.error]
    metric = at.selectbox(key="sig_metric")
    assert "BlonDe" not in metric.options and "chrF" in metric.options
    assert metric.value == "chrF"
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]
    assert spec["type"] == "heatmap" and len(spec["x"]) == 19
    assert "Every category at once" not in [h.value for h in at.subheader]


def test_the_documents_page_shows_texts_and_human_spans_without_a_pack(en_hi):
    cfg = ScoreConfig(lang="mr")
    errs = en_hi.human_errors(cfg, 0, "Aya23")
    assert errs is not None and sum(map(len, errs)) > 0  # ESA spans of the first document
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.session_state["data"] = en_hi
    at.session_state["config"] = cfg
    at.session_state["doc_systems_np"] = ["Aya23"]
    at.run()
    at.switch_page("pages/documents.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("no BlonDe span is marked" in w.value for w in at.warning)
    body = " ".join(h.proto.body for h in at.html)
    assert 'class="bl-mqm"' in body and 'class="bl-span' not in body  # human spans, no BlonDe highlighting
    first = en_hi.document_texts(0, ["Aya23"])["Aya23"][0].strip()
    assert first[:20] in body.replace("&#x27;", "'").replace("&quot;", '"') or first[:20] in body


def test_an_empty_system_is_called_empty(tmp_path):
    lines = (SAMPLE / "reference.txt").read_text(encoding="utf-8").splitlines()
    (tmp_path / "silent.txt").write_text("\n" * len(lines), encoding="utf-8")
    s = Study.from_files([SAMPLE / "reference.txt"], [SAMPLE / "consistent.txt", tmp_path / "silent.txt"],
                         docids=SAMPLE / "docids.txt")
    assert s.empty_systems() == ["silent"]
    assert s.off_target_warnings()["silent"].startswith("system 'silent' is empty: all its 10 segments are empty")
    at = app_with(s, "pages/data.py", "en")
    assert any("empty - every segment" in w.value and "silent" in w.value for w in at.warning)
    assert not any("partly not in" in w.value for w in at.warning)


def test_one_unit_is_no_test(tmp_path):
    """A file without document ids is one document, and chrF is tested over documents: one unit, so no p-value
    and no interval (a bootstrap over one unit only echoes the difference's sign), and the warning says why."""
    s = Study.from_files([SAMPLE / "reference.txt"], [SAMPLE / "consistent.txt", SAMPLE / "names.txt"])
    out = s.compare(ScoreConfig(lang="et"), "chrF", "bootstrap", "auto", 200, std_metrics=("chrF",))
    assert out["n_units"] == 1 and out["pairs"][0]["p"] is None and out["pairs"][0]["ci"] == [None, None]
    assert out["warning"].startswith("only 1 unit (doc): no test is possible")
