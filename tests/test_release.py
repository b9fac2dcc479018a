"""Issue 65, point 1 (the command line): a WMT folder with several pairs scored at once, `score --wmt-dir DIR
--lp all` - systems x pairs, each pair in its own language pack with BlonDe's significance clusters, chrF and
the human score, and the across-pair summary. On a folder of two pairs built from WMT22 zh-en (real text and DA
rows; the second pair with three of the five systems): each pair's column equals a single-pair run."""
import json

import pytest

from blonde_core.cli import main
from conftest import WMT_SUBSET_SYSTEMS, wmt22_layout, wmt_form


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    d = tmp_path_factory.mktemp("release")
    wmt22_layout(d, 60, lp="zh-en")
    return wmt22_layout(d, 40, systems=WMT_SUBSET_SYSTEMS[:3], lp="ja-en")["root"]


def run(capsys, *argv):
    code = main([str(x) for x in argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_every_pair_at_once_equals_each_pair_alone(release, capsys):
    code, out, err = run(capsys, "score", "--wmt-dir", release, "--lp", "all", "--ci", "200", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert list(data["pairs"]) == ["ja-en", "zh-en"] and "pair 2 of 2: zh-en" in err
    for lp in ("zh-en", "ja-en"):
        code, one, err = run(capsys, "score", "--wmt-dir", release, "--lp", lp, "--ci", "200", "--metrics", "chrF",
                             "--format", "json")
        assert code == 0, err
        one = json.loads(one)
        assert data["pairs"][lp]["board_signature"] == one["leaderboard"]["signature"]
        for s, v in one["systems"].items():
            row = data["systems"][s]["per_pair"][lp]
            assert row["BlonDe"] == pytest.approx(v["BlonDe"]["F1"], abs=1e-12)
            assert row["chrF"] == pytest.approx(v["chrF"], abs=1e-9)
            assert row["cluster"] == one["leaderboard"]["clusters"][s]
    # the summary over the pairs each system entered: ranks by BlonDe within each pair, top clusters counted
    for s, v in data["systems"].items():
        ranks = [r["rank"] for r in v["per_pair"].values()]
        assert v["pairs_entered"] == len(ranks) == (2 if s in WMT_SUBSET_SYSTEMS[:3] or s == "refB" else 1)
        assert v["mean_rank"] == pytest.approx(sum(ranks) / len(ranks))
        assert v["top_cluster"] == sum(r["cluster"] == 1 for r in v["per_pair"].values())
    order = list(data["systems"])
    key = [(-data["systems"][s]["top_cluster"], data["systems"][s]["mean_rank"]) for s in order]
    assert key == sorted(key)


def test_text_and_csv_and_refusals(release, capsys):
    code, out, err = run(capsys, "score", "--wmt-dir", release, "--lp", "zh-en", "--lp", "ja-en", "--ci", "100")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:4] == ["system", "pairs", "mean", "rank"] and "zh-en" in lines[0]
    assert any(line.startswith("zh-en: BlonDe|") for line in lines)
    code, out, err = run(capsys, "score", "--wmt-dir", release, "--lp", "all", "--ci", "100", "--format", "csv")
    assert code == 0 and out.splitlines()[0].startswith("system,pairs,mean rank,top cluster,ja-en BlonDe")
    code, _, err = run(capsys, "score", "--wmt-dir", release, "--lp", "all", "--lang", "en")
    assert code == 2 and "each pair is scored in its own language" in err
    code, _, err = run(capsys, "score", "--wmt-dir", release, "--lp", "zh-en", "--lp", "xx-yy")
    assert code == 2 and "--lp xx-yy: the folder has no such pair" in err


def test_latex_and_report_of_a_release(release, capsys, tmp_path):
    code, out, err = run(capsys, "score", "--wmt-dir", release, "--lp", "all", "--ci", "100", "--format", "json")
    data = json.loads(out)
    code, tex, err = run(capsys, "score", "--wmt-dir", release, "--lp", "all", "--ci", "100", "--format", "latex")
    assert code == 0, err
    assert r"\begin{tabular}{lrrrrr}" in tex and r"\label{tab:release}" in tex and tex.isascii()
    body = tex.split(r"\midrule")[1].split(r"\bottomrule")[0].strip().splitlines()
    assert [line.split(" & ")[0] for line in body] == [s.replace("_", r"\_") for s in data["order"]]
    for lp in data["pairs"]:  # each pair's best BlonDe in bold, with its cluster as a superscript
        best = max((v["per_pair"][lp]["BlonDe"], s) for s, v in data["systems"].items() if lp in v["per_pair"])
        col = 4 + list(data["pairs"]).index(lp)
        row = body[data["order"].index(best[1])].rstrip(" \\").split(" & ")
        assert row[col] == (r"\textbf{" + f"{100 * best[0]:.2f}" + "}$^{"
                            + str(data["systems"][best[1]]["per_pair"][lp]["cluster"]) + "}$")
    # a system that did not enter a pair has an empty cell there
    missing = [s for s, v in data["systems"].items() if len(v["per_pair"]) < 2]
    assert missing and body[data["order"].index(missing[0])].split(" & ")[4] == ""
    report = tmp_path / "release.html"
    code, _, err = run(capsys, "report", "--wmt-dir", release, "--lp", "all", "--ci", "100", "-o", report)
    assert code == 0, err
    html = report.read_text()
    assert "<h1>BlonDe Studio: a WMT release</h1>" in html and html.count("<tr>") == len(data["systems"]) + 1
    assert all(p["board_signature"] in html for p in data["pairs"].values())
    code, _, err = run(capsys, "score", "--wmt-dir", release, "--lp", "zh-en", "--format", "latex")
    assert code == 2 and "release table of several --lp" in err


def test_release_page_loads_every_pair_and_switches(release, monkeypatch, capsys):
    """The Data page's folder form with the pair 'all' loads a release (the first pair is the session's data); the
    sidebar switches pairs (each page then shows that pair), and the Release page's table equals score --lp all;
    other data loaded forgets the release."""
    from streamlit.testing.v1 import AppTest

    from blonde_core.study import Study
    from conftest import ROOT
    code, out, err = run(capsys, "score", "--wmt-dir", release, "--lp", "all", "--format", "json")
    want = json.loads(out)
    monkeypatch.setenv("BLONDE_WMT_ROOTS", str(release.parent))
    at = wmt_form(release, "zh-en, xx-yy")
    assert any("language pair xx-yy: the folder has no such pair (it has ja-en, zh-en)" in e.value.replace("\\", "")
               for e in at.error)
    at.text_input(key="up_wmt_lp").set_value("all")
    at.button(key="FormSubmitter:wmt-Load this folder").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    rel = at.session_state["release"]
    assert rel["pairs"] == ["ja-en", "zh-en"] and rel["studies"]["ja-en"] is at.session_state["data"]
    assert any("language pair ja-en" in m.value for m in at.markdown if "understood as" in m.value)
    at.text_input(key="up_wmt_lp").set_value("zh-en")  # other data: the release is forgotten
    at.button(key="FormSubmitter:wmt-Load this folder").click().run()
    assert not at.exception and "release" not in at.session_state
    # the sidebar (app.py's run; AppTest's switch_page runs a page alone): a release as the form leaves it
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    first = Study.from_wmt(release, "ja-en")
    at.session_state["data"] = first
    at.session_state["release"] = {"source": release, "pairs": ["ja-en", "zh-en"], "gold": None, "lower": [],
                                   "esa_common": True, "roots": None, "label": str(release),
                                   "studies": {"ja-en": first}, "tables": {}}
    at.session_state["release_pair_ja-en"] = "zh-en"  # the sidebar's choice (AppTest reruns a page without app.py)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    pick = at.sidebar.selectbox(key="release_pair_ja-en")
    assert pick.options == ["ja-en", "zh-en"] and pick.value == "zh-en"
    assert at.session_state["data"].wmt[1] == "zh-en"  # switched: the Home page and the settings after it
    assert at.session_state["release"]["studies"]["zh-en"] is at.session_state["data"]
    assert at.sidebar.selectbox(key=f"lang_{at.session_state['data'].key}").value == "en"
    at.switch_page("pages/release.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    table = at.dataframe[0].value.set_index("system")
    assert list(table.index) == want["order"]
    for s, v in want["systems"].items():
        assert table.loc[s, "top cluster"] == v["top_cluster"]
        for lp, r in v["per_pair"].items():
            assert table.loc[s, f"{lp} BlonDe"] == pytest.approx(100 * r["BlonDe"], abs=1e-9)
            assert table.loc[s, f"{lp} cl."] == r["cluster"]
    lead = want["order"][0]
    assert any(m.value.startswith(f"**{lead}** leads across the release") for m in at.markdown)


def test_a_second_session_reads_no_pair_again(release, monkeypatch, tmp_path):
    """Two sessions loading the same release folder share each pair's study (the second reads no file again); a
    file changed on disk is read anew; a pair is kept at most release.SHARED_TTL seconds unused."""
    import shutil

    from studio import release as rel_mod

    copy = tmp_path / "wmt22"
    shutil.copytree(release, copy)
    monkeypatch.setenv("BLONDE_WMT_ROOTS", str(tmp_path))

    def load():
        at = wmt_form(copy, "all")
        assert not at.exception and not at.error, [e.value for e in at.error]
        return at.session_state["release"]["studies"]["ja-en"]

    one, two = load(), load()
    assert one is two and rel_mod.shared(one)
    ref = next((copy / "references").glob("ja-en.*.txt"))
    ref.write_text(ref.read_text(encoding="utf-8").replace("the", "The", 1), encoding="utf-8")
    three = load()
    assert three is not one and three.key != one.key
    def kept():
        return [v[0] for k, v in rel_mod._SHARED.items() if k[0] == str(copy.resolve()) and k[1] == "ja-en"]

    before = kept()  # the pair as first read, and as read after the change (the old one goes by age or number)
    assert len(before) == 2
    monkeypatch.setattr(rel_mod, "SHARED_TTL", 0.0)  # unused longer than the ttl: dropped, read again
    load()
    assert len(kept()) == 1 and all(kept()[0] is not b for b in before)


def test_a_pair_in_a_child_process_equals_the_pair_in_this_one(release):
    """The command line computes each pair of a release in a child forked for it (analysis/release_run.apart: its
    analyser and memory go with it): the table equals the one computed in this process, byte for byte, the
    child's annotation progress comes back here as it goes, and a child's failure is raised here as it was (an
    InputError keeps its file and code; a child killed is said with its exit status)."""
    import os
    import signal

    from blonde_core.analysis import release_run
    from blonde_core.engine import Engine
    from blonde_core.errors import InputError
    from blonde_core.study import ScoreConfig, Study

    def cfg_of(st):
        lang = st.guess_language()["language"]
        return ScoreConfig(lang=lang, lowercase=Study.pack_lowercase(lang))

    got, seen = {}, {}
    for how, apart in (("here", None), ("child", release_run.apart)):
        seen[how] = []
        table = Study.release(release, ["ja-en"], cfg_of, 100, engine=Engine(cache_mode="off"), apart=apart,
                              work=lambda lp, done, of, how=how: seen[how].append((lp, done, of)))
        got[how] = json.dumps(table, sort_keys=False)
    assert got["child"] == got["here"] and json.loads(got["here"])["pairs"]["ja-en"]["board_signature"]
    assert seen["child"] == seen["here"] and seen["here"][-1][1] == seen["here"][-1][2] > 0

    def refuse(st):
        raise InputError("no pack for this pair", file="ja-en.refA.txt", line=3, code=InputError.Codes.NO_PACK)

    with pytest.raises(InputError) as err:
        Study.release(release, ["ja-en"], refuse, 100, engine=Engine(cache_mode="off"), apart=release_run.apart)
    assert (err.value.file, err.value.line, err.value.code) == ("ja-en.refA.txt", 3, InputError.Codes.NO_PACK)
    assert str(err.value) == "ja-en.refA.txt, line 3: no pack for this pair"
    with pytest.raises(RuntimeError, match=r"ended without its answer \(exit status -9"):
        release_run.apart(lambda tell: os.kill(os.getpid(), signal.SIGKILL))
    told = []
    assert release_run.apart(lambda tell: [tell(k, 2) for k in (1, 2)] and os.getpid(),
                             lambda *m: told.append(m)) != os.getpid()
    assert told == [(1, 2), (2, 2)]
