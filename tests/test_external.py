"""A whole WMT evaluation folder in one step, and metrics computed elsewhere (WMT-layout score files, a
table, COMET's JSON) as first-class columns: read from real WMT22 zh-en texts and real DA rows written in
the layout, every number checked against one computed directly (sacrebleu's chrF, scipy's correlations)."""
import json
import shutil
import zipfile

import numpy as np
import pytest
from scipy import stats as sps

from blonde_core.cli import main
from blonde_core.study import Engine, InputError, ScoreConfig, Study
from blonde_core.study import latex_table, round_as_shown
from conftest import WMT_SUBSET_SYSTEMS, wmt22_layout

N = 80  # segments: 8 documents (blocks of ten) of WMT22 zh-en
CFG = ScoreConfig()


@pytest.fixture(scope="module")
def layout(tmp_path_factory):
    return wmt22_layout(tmp_path_factory.mktemp("wmt"), N)


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def fail(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 2 and out.out == ""
    assert "Traceback" not in out.err and out.err.count("\n") == 1, out.err
    return out.err


def test_folder_is_understood(layout):
    s = Study.from_wmt(layout["root"], "zh-en", engine=Engine(cache_mode="off"))
    c = s.corpus
    assert list(c.references) == ["refA", "refB"]
    assert sorted(c.systems) == sorted(WMT_SUBSET_SYSTEMS)  # refB's system output is the reference, loaded once
    assert c.doc_ids == list(dict.fromkeys(layout["ids"])) and c.n_segments == N
    assert c.source is not None and len(c.source) == len(c.doc_ids)
    assert s.domains["block000"] == "news" and s.domains["block001"] == "social"
    u = s.messages["wmt"]
    assert u["human score used"] == "wmt-raw" and u["metrics"] == {"chrF-refA": ["seg", "sys"]}
    assert u["domains"] == {"news": 4, "social": 4}
    hs = s.human
    for sys_name, v in layout["da_sys"].items():  # system level as the judgments define it: the release's
        assert hs.system_scores[sys_name] == pytest.approx(v)
    for sys_name, rows in layout["da_seg"].items():  # every rated segment, nothing else
        assert hs.n_segments[sys_name] == len(rows)
        for line, v in rows.items():
            d, k = c.doc_ids[(line - 1) // 10], str((line - 1) % 10 + 1)
            assert hs.segments[(sys_name, d, k)] == pytest.approx(v)
    m = s.external["chrF-refA"]
    for sys_name in WMT_SUBSET_SYSTEMS:
        assert m.score(sys_name) == pytest.approx(layout["sys"][sys_name])  # the file's own system score
        seg = np.array(layout["seg"][sys_name])
        doc = m.doc_scores(sys_name)
        assert doc[0] == pytest.approx(seg[:10].mean()) and doc[-1] == pytest.approx(seg[-10:].mean())


def test_zip_reads_the_same(layout, tmp_path):
    z = tmp_path / "wmt22.zip"
    with zipfile.ZipFile(z, "w") as f:
        for p in layout["root"].rglob("*"):
            if p.is_file():
                f.write(p, "pack/" + p.relative_to(layout["root"]).as_posix())  # one folder down
    a = Study.from_wmt(layout["root"], "zh-en")
    b = Study.from_wmt(("upload.zip", z.read_bytes()))  # an upload, the only language pair found
    assert a.corpus.references == b.corpus.references and a.corpus.systems == b.corpus.systems
    assert a.human.segments == b.human.segments and a.domains == b.domains
    ma, mb = a.external["chrF-refA"], b.external["chrF-refA"]
    assert ma.sys == mb.sys and set(ma.seg) == set(mb.seg)
    assert all(np.array_equal(ma.seg[s], mb.seg[s]) for s in ma.seg)


def test_score_overview_values_equal_direct(capsys, layout):
    """`score --wmt-dir` (the Overview's command): the metric's column, its interval and clusters, and the
    human column equal what is computed directly."""
    d = run(capsys, "score", "--wmt-dir", str(layout["root"]), "--lp", "zh-en", "-r", "refA", "--ci", "200",
            "--per-doc", "--format", "json")
    for s in WMT_SUBSET_SYSTEMS + ["refB"]:
        assert d["systems"][s]["chrF-refA"] == pytest.approx(layout["sys"][s])
        first = d["systems"][s]["documents"]["block000"]["chrF-refA"]
        assert first == pytest.approx(np.mean(layout["seg"][s][:10]))
        assert d["human"]["systems"][s]["score"] == pytest.approx(layout["da_sys"][s])
        assert d["human"]["systems"][s]["segments"] == len(layout["da_seg"][s])
    lb = d["leaderboard"]
    assert set(lb["intervals"]["chrF-refA"]) == set(WMT_SUBSET_SYSTEMS + ["refB"])
    assert lb["external"]["chrF-refA"]["level"] == "seg"
    assert lb["external"]["chrF-refA"]["unit"] == lb["unit"]  # the same unit as BlonDe's intervals
    lo, hi = lb["intervals"]["chrF-refA"]["DLUT"]
    seg_mean = np.mean(layout["seg"]["DLUT"])
    assert lo < seg_mean < hi
    clusters = lb["external"]["chrF-refA"]["clusters"]
    best = max(layout["seg"], key=lambda s: np.mean(layout["seg"][s]))
    assert clusters[best] == 1
    assert d["metric_directions"]["chrF-refA"] == "higher is better"
    # the same through CSV: every column, the human one too
    code = main(["score", "--wmt-dir", str(layout["root"]), "-r", "refA", "--format", "csv"])
    out = capsys.readouterr().out
    assert code == 0
    header = out.splitlines()[0].split(",")
    assert "chrF-refA" in header and "human:wmt-raw" in header and "human segments" in header


def test_correlate_equals_scipy(capsys, layout):
    sysd = run(capsys, "correlate", "--wmt-dir", str(layout["root"]), "-r", "refA", "--level", "system",
               "--bootstrap", "50", "--format", "json")
    used = sysd["systems"]
    x = [layout["sys"][s] for s in used]
    y = [layout["da_sys"][s] for s in used]
    r = sysd["metrics"]["chrF-refA"]
    assert r["pearson"] == pytest.approx(sps.pearsonr(x, y).statistic)
    assert r["kendall"] == pytest.approx(sps.kendalltau(x, y).statistic)
    assert "BlonDe" in sysd["metrics"]
    seg = run(capsys, "correlate", "--wmt-dir", str(layout["root"]), "-r", "refA", "--level", "segment",
              "--bootstrap", "20", "--format", "json")
    xs, ys = [], []
    for s in seg["systems"]:
        for line, v in sorted(layout["da_seg"].get(s, {}).items()):
            xs.append(layout["seg"][s][line - 1])
            ys.append(v)
    assert seg["metrics"]["chrF-refA"]["n"] == len(xs)
    assert seg["metrics"]["chrF-refA"]["pearson"] == pytest.approx(sps.pearsonr(xs, ys).statistic)
    both = run(capsys, "correlate", "--wmt-dir", str(layout["root"]), "-r", "refA", "--level", "system",
               "--bootstrap", "20", "--compare", "BlonDe", "chrF-refA", "--format", "json")
    assert both["compare"]["perm_both"]["p_b_better"] is not None


def test_compare_on_an_external_metric(capsys, layout):
    out = run(capsys, "compare", "--wmt-dir", str(layout["root"]), "-r", "refA", "--metric", "chrF-refA",
              "--test", "bootstrap", "--n", "200", "--unit", "doc", "--format", "json")
    assert out["metric"] == "chrF-refA" and out["unit"] == "doc"
    for s, v in out["systems"].items():  # the corpus value of document units: the mean of every segment
        assert v["score"] == pytest.approx(np.mean(layout["seg"][s]))
    assert len(out["pairs"]) == 15  # five systems and refB


def test_table_and_comet_json_give_the_same_columns(layout, tmp_path):
    base = Study.from_wmt(layout["root"], "zh-en").scored_against("refA")
    seg = layout["seg"]
    table = tmp_path / "scores.tsv"
    table.write_text("system\tseg\tCOMET\tchrF\n" + "".join(
        f"{s}\t{k + 1}\t{v / 100!r}\t{v!r}\n" for s in seg for k, v in enumerate(seg[s])))
    comet = tmp_path / "comet.json"
    comet.write_text(json.dumps({f"outputs/{s}.txt": [{"src": "x", "mt": "y", "ref": "z", "COMET": v / 100}
                                                      for v in seg[s]] for s in seg}))
    by_doc = tmp_path / "doc.csv"  # a document-level table: system, doc, metric
    ids = list(dict.fromkeys(layout["ids"]))
    by_doc.write_text("system,doc,docmetric\n" + "".join(
        f"{s},{d},{float(np.mean(seg[s][10 * i:10 * i + 10]))!r}\n" for s in seg for i, d in enumerate(ids)))
    t = base.with_metric_files([table, by_doc])
    j = base.with_metric_files([comet])
    for s in seg:
        assert t.external["COMET"].score(s) == pytest.approx(j.external["COMET"].score(s))
        assert t.external["COMET"].score(s) == pytest.approx(np.mean(seg[s]) / 100)
        assert t.external["chrF"].score(s) == pytest.approx(np.mean(seg[s]))
        assert t.external["docmetric"].score(s) == pytest.approx(np.mean(seg[s]))
    assert t.key != j.key != base.key  # the scores are content: another key
    tabs = t.extra_tables(CFG, "system", ())
    assert tabs["COMET"]["DLUT"] == pytest.approx(np.mean(seg["DLUT"]) / 100)
    assert t.external["docmetric"].level == "doc" and t.external["COMET"].level == "seg"
    # a lower-is-better metric is negated where metrics are oriented
    low = base.with_metric_files([comet], lower_is_better=["COMET"])
    assert low.extra_tables(CFG, "system", ())["-COMET"]["DLUT"] == pytest.approx(-np.mean(seg["DLUT"]) / 100)


def test_mismatches_are_refused_naming_both(capsys, layout, tmp_path):
    base = Study.from_wmt(layout["root"], "zh-en")
    bad_sys = tmp_path / "X-refA.seg.score"
    bad_sys.write_text("".join(f"Nobody {k}\n" for k in range(N)))
    with pytest.raises(InputError) as e:
        base.with_metric_files([bad_sys])
    assert "'Nobody'" in str(e.value) and "DLUT" in str(e.value) and e.value.file == str(bad_sys)
    short = tmp_path / "Y-refA.seg.score"
    short.write_text("".join(f"DLUT {k}\n" for k in range(N - 1)))
    with pytest.raises(InputError) as e:
        base.with_metric_files([short])
    assert f"{N - 1} segment-level scores for 'DLUT'" in str(e.value) and f"has {N} segments" in str(e.value)
    comet = tmp_path / "c.json"
    comet.write_text(json.dumps({"DLUT.txt": [{"COMET": 0.5}] * 3}))
    err = fail(capsys, "score", "--wmt-dir", str(layout["root"]), "--metric-scores", str(comet))
    assert "3 segment scores for 'DLUT'" in err and f"{N} segments" in err and "c.json" in err
    err = fail(capsys, "score", "--wmt-dir", str(layout["root"]), "--lp", "de-en")
    assert "de-en" in err and "zh-en" in err
    # a missing value stays missing: None in a segment file is NaN, the mean is over the rest
    holes = tmp_path / "Z-refA.seg.score"
    vals = {s: list(layout["seg"][s]) for s in WMT_SUBSET_SYSTEMS}
    holes.write_text("".join(f"{s} {'None' if k == 0 else repr(v)}\n" for s in vals for k, v in enumerate(vals[s])))
    z = base.with_metric_files([holes]).external["Z-refA"]
    assert z.score("DLUT") == pytest.approx(np.mean(vals["DLUT"][1:]))
    assert z.describe()["missing"]["DLUT"] == 1


def test_human_only_and_system_only_metric(layout, tmp_path):
    """A metric with system scores only is shown, marked, and never given an interval or a cluster."""
    root = tmp_path / "copy"
    shutil.copytree(layout["root"], root)
    (root / "metric-scores" / "zh-en" / "chrF-refA.seg.score").unlink()
    s = Study.from_wmt(root, "zh-en", engine=Engine(cache_mode="off")).scored_against("refA")
    eb = s.external_board(CFG, n=50)
    e = eb["chrF-refA"]
    assert e["level"] == "sys" and e["unit"] is None and e["clusters"] == {}
    assert e["intervals"]["DLUT"]["score"] == pytest.approx(layout["sys"]["DLUT"])
    assert e["intervals"]["DLUT"]["ci"] == [None, None]


def test_a_server_of_ones_own_reads_a_folder_path_a_shared_one_its_list(layout, monkeypatch):
    """Issue 60, point 5: scripts/run.sh (BLONDE_LOCAL_FOLDERS=1, no BLONDE_WMT_ROOTS) reads a folder at any path
    - here one in a temporary folder, outside the shared data; with BLONDE_WMT_ROOTS set (a shared server's
    allow-list) the same path is refused, and the message names the folders and how to set them; run.sh keeps
    an allow-list it is given."""
    import subprocess

    from streamlit.testing.v1 import AppTest

    from conftest import ROOT
    env = subprocess.run(["bash", "-c", "source <(grep -E '^if .*BLONDE_WMT_ROOTS' scripts/run.sh); echo \"${BLONDE_LOCAL_FOLDERS:-}\""],
                         cwd=ROOT, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert env.stdout.strip() == "1"
    kept = subprocess.run(["bash", "-c", "source <(grep -E '^if .*BLONDE_WMT_ROOTS' scripts/run.sh); "
                           "echo \"${BLONDE_LOCAL_FOLDERS:-}\""], cwd=ROOT, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "BLONDE_WMT_ROOTS": "/srv/wmt"})
    assert kept.stdout.strip() == ""
    monkeypatch.delenv("BLONDE_WMT_ROOTS", raising=False)
    monkeypatch.setenv("BLONDE_LOCAL_FOLDERS", "1")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=240)
    at.run()
    at.switch_page("pages/data.py").run()
    assert "any folder of this machine" in at.text_input(key="up_wmt_dir").help
    at.text_input(key="up_wmt_dir").set_value(str(layout["root"]))
    at.button(key="FormSubmitter:wmt-Load this folder").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("WMT folder understood as" in m.value for m in at.markdown)
    monkeypatch.setenv("BLONDE_WMT_ROOTS", str(ROOT / "sample_data"))
    at.text_input(key="up_wmt_dir").set_value(str(layout["root"]))
    at.button(key="FormSubmitter:wmt-Load this folder").click().run()
    err = [e.value.replace("\\", "") for e in at.error]  # as shown: Markdown's escapes taken off
    assert any("loads folders under" in e and "sample_data only" in e and "BLONDE_WMT_ROOTS=DIR1:DIR2" in e
               for e in err), err


def test_pages_with_a_wmt_folder(layout, monkeypatch):
    """The Data page loads a WMT folder by path (only under BLONDE_WMT_ROOTS); the Overview shows the metric's
    column with its interval and clusters and the human column equal to the core's; every page runs."""
    from streamlit.testing.v1 import AppTest

    from conftest import ROOT
    monkeypatch.setenv("BLONDE_WMT_ROOTS", str(layout["root"].parent))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=240)
    at.session_state["board_kind"] = "full"
    at.run()
    at.switch_page("pages/data.py").run()
    at.text_input(key="up_wmt_dir").set_value("/etc")
    at.button(key="FormSubmitter:wmt-Load this folder").click().run()
    assert any("loads folders under" in e.value for e in at.error)
    at.text_input(key="up_wmt_dir").set_value(str(layout["root"]))
    at.button(key="FormSubmitter:wmt-Load this folder").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("WMT folder understood as" in m.value for m in at.markdown)
    at.switch_page("pages/overview.py").run()
    assert not at.exception and not at.error
    board = at.dataframe[0].value.set_index("system")
    for s in WMT_SUBSET_SYSTEMS + ["refB"]:  # refA and refB are both references: all systems scored against both
        if s == "refB":
            continue
        assert board.loc[s, "chrF-refA"] == pytest.approx(layout["sys"][s])
        assert board.loc[s, "human (wmt-raw)"] == pytest.approx(layout["da_sys"][s])
        assert board.loc[s, "human rated segments"] == len(layout["da_seg"][s])
        assert board.loc[s, "chrF-refA CI low"] <= np.mean(layout["seg"][s]) <= board.loc[s, "chrF-refA CI high"]
    # ranking by humans is one click away
    at.segmented_control(key="rank_by").set_value("humans").run()
    ranked = list(at.dataframe[0].value["system"])
    assert ranked == sorted(WMT_SUBSET_SYSTEMS, key=lambda s: -layout["da_sys"][s])
    for page in ("pages/significance.py", "pages/contrast.py", "pages/documents.py", "pages/correlation.py"):
        at.switch_page(page).run()
        assert not at.exception and not at.error, (page, [e.value for e in at.error])
    at.switch_page("pages/contrast.py").run()
    assert at.selectbox(key="ct_disagree").value == "chrF-refA"


def test_report_is_one_self_contained_file(capsys, layout, tmp_path):
    out = tmp_path / "report.html"
    code = main(["report", "--wmt-dir", str(layout["root"]), "-r", "refA", "--ci", "200", "-o", str(out)])
    assert code == 0, capsys.readouterr().err
    text = out.read_text(encoding="utf-8")
    for section in ("<h2>Leaderboard", "<h2>Categories", "<h2>Significance", "<h2>Correlation with humans",
                    "<h2>Where the top two differ most", "<h2>Signature", "<svg"):
        assert section in text, section
    # nothing leaves the file: no script, no external link or image; a policy that forbids any request
    assert "<script" not in text and "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "") \
        and "https://" not in text
    assert "default-src 'none'" in text
    # the leaderboard's numbers are score --ci's
    d = run(capsys, "score", "--wmt-dir", str(layout["root"]), "-r", "refA", "--ci", "200", "--format", "json")
    for s, v in d["systems"].items():
        lo, hi = d["leaderboard"]["intervals"]["BlonDe"][s]
        mark = f" {d['leaderboard']['mark']}" if s in d["leaderboard"].get("marked", ()) else ""
        assert f"{100 * v['BlonDe']['F1']:.2f}<div class=ci>[{100 * lo:.1f}, {100 * hi:.1f}]{mark}</div>" in text
        assert f"{v['chrF-refA']:.2f}" in text
    assert d["leaderboard"]["signature"] in text


def test_latex_is_paper_ready():
    rows = [{"system": "Sÿs_1 ↑", "cluster": 1, "BlonDe F1": 61.234, "BlonDe CI low": 58.0, "BlonDe CI high": 64.5,
             "TER": 50.0},
            {"system": "B&B", "cluster": 2, "BlonDe F1": 55.0, "BlonDe CI low": 52.0, "BlonDe CI high": 57.0,
             "TER": 40.0}]
    cols = ["system", "cluster", "BlonDe F1", "TER"]
    iv = {"BlonDe F1": ("BlonDe CI low", "BlonDe CI high")}
    tex = latex_table(rows, cols, intervals=iv, style="pm", higher={"BlonDe F1": True, "TER": False},
                            digits={"cluster": 0}, cluster="cluster")
    tex.encode("ascii")  # ASCII only
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex
    # asymmetric (58.00 .. 64.50 around 61.23): never a symmetric +-, which would misstate a bound (issue 50)
    assert r"\textbf{61.23} {\scriptsize $^{+3.27}_{-3.23}$}" in tex and r"\pm" not in tex.split("% needs")[1]
    sym = latex_table([{"system": "s", "BlonDe F1": 60.0, "BlonDe CI low": 58.0, "BlonDe CI high": 62.0}],
                            ["system", "BlonDe F1"], intervals=iv, style="pm")
    assert r"60.00 {\scriptsize $\pm$2.00}" in sym  # symmetric as printed: +- is exact
    default = latex_table(rows, cols, intervals=iv)
    assert "{\\scriptsize [58.00, 64.50]}" in default  # [lo, hi] unless asked otherwise
    assert r"\textbf{40.00}" in tex and r"\textbf{50.00}" not in tex  # lower is better for TER
    assert r"Sys\_1 $\uparrow$" in tex and r"B\&B" in tex
    assert tex.count(r"\midrule") == 2  # after the header and between the two clusters
    assert r"\resizebox{\linewidth}{!}" in tex
    br = latex_table(rows, cols, intervals=iv, style="brackets")
    assert "61.23 {\\scriptsize [58.00, 64.50]}" in br
    assert round_as_shown(rows, {"BlonDe F1": 1})[0]["BlonDe F1"] == 61.2


def test_the_pages_commands_reproduce_a_wmt_study(capsys, layout):
    """Study.command for a WMT study names the folder, the language pair and the human scores; run as is,
    it gives the study's own numbers."""
    s = Study.from_wmt(layout["root"], "zh-en").scored_against("refA")
    cmd = s.command(CFG, "correlate", ["--level", "system", "--bootstrap", "20"])
    assert cmd[cmd.index("--wmt-dir") + 1] == str(layout["root"]) and "--gold" in cmd and "wmt-raw" in cmd
    assert cmd[cmd.index("-r") + 1] == "refA" and "--human" not in cmd
    out = run(capsys, *cmd[3:])
    want, _ = s.correlate(CFG, "system", bootstrap=20)
    assert out["metrics"]["chrF-refA"]["pearson"] == pytest.approx(want["metrics"]["chrF-refA"]["pearson"])
    assert out["metrics"]["BlonDe"]["pearson"] == pytest.approx(want["metrics"]["BlonDe"]["pearson"])
