"""Issue 60, point 1: the answer weighs the human judgments in. With judgments loaded, Home, the Overview and
`score --human` say whether the humans agree with BlonDe's leader - where they rank it, their own leader, and
BlonDe's and chrF's system-level Pearson with them - and a disagreement is the headline. On TED with its MQM
the leader BlonDe names (Online-W) is 12th of 13 for the humans."""
import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from blonde_core.analysis.verdict import human_verdict, ordinal
from blonde_core.cli import main
from blonde_core.study import ScoreConfig, Study
from conftest import ROOT, SAMPLE, SAMPLE_SYSTEMS, TED


@pytest.fixture(scope="module")
def ted_mqm():
    return Study.from_files([TED / "refs" / "ref.txt"], sorted((TED / "systems").glob("*.txt")),
                            docids=TED / "docids.txt").with_files(human=TED / "mqm_seg_scores.tsv")


def ted_args():
    return ["-r", str(TED / "refs" / "ref.txt"), "-s", *map(str, sorted((TED / "systems").glob("*.txt"))),
            "--docids", str(TED / "docids.txt"), "--human", str(TED / "mqm_seg_scores.tsv")]


def test_on_ted_the_humans_disagree_with_the_leader(ted_mqm):
    v = ted_mqm.human_verdict(ScoreConfig())
    assert v["state"] == "disagree" and v["leader"] == "Online-W" and v["rated"] == 13
    # independently: the MQM file's mean per system (higher is better in it), ranked
    rows = [ln.split("\t") for ln in (TED / "mqm_seg_scores.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    mean = {s: np.mean([float(r[3]) for r in rows if r[0] == s]) for s in {r[0] for r in rows}}
    by_humans = sorted(ted_mqm.result(ScoreConfig()).names, key=lambda s: -mean[s])
    assert v["leader_rank"] == by_humans.index("Online-W") + 1 == 12
    assert v["human_leader"] == by_humans[0]
    # BlonDe's Pearson with the humans over the 13 systems, from the scores themselves
    res = ted_mqm.result(ScoreConfig())
    x = [res.scores(s)["BlonDe"]["F1"] for s in by_humans]
    assert v["pearson"]["r"] == pytest.approx(np.corrcoef(x, [mean[s] for s in by_humans])[0, 1], abs=1e-9)
    assert v["pearson"]["r"] < 0 and v["pearson"]["ci"][0] < v["pearson"]["r"] < v["pearson"]["ci"][1]
    assert v["sentence"].startswith("The human judgments disagree (mqm): the humans rank Online-W, BlonDe's "
                                    "leader, 12th of 13 and put " + by_humans[0] + " first")
    assert "chrF's -0.30" in v["sentence"]


def test_score_with_human_says_the_verdict_first(capsys):
    assert main(["score", *ted_args()]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("The human judgments disagree (mqm)") and out[1] == ""
    assert main(["score", *ted_args(), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["human_verdict"]["state"] == "disagree" and data["human_verdict"]["sentence"] == out[0]
    assert data["human_verdict"]["signature"].endswith("|level:system|grouping:none|boot:1000|seed:12345|ref:ref")
    assert main(["score", *ted_args(), "--format", "csv"]) == 0
    cap = capsys.readouterr()
    assert out[0] in cap.err and "The human judgments" not in cap.out


def test_on_the_sample_the_humans_agree():
    s = Study.from_files([SAMPLE / "reference.txt"], [SAMPLE / f"{n}.txt" for n in SAMPLE_SYSTEMS],
                         docids=SAMPLE / "docids.txt").with_files(human=SAMPLE / "human_judgments.tsv")
    v = s.human_verdict(ScoreConfig())
    assert v["state"] == "agree" and v["leader"] == "consistent" and v["leader_rank"] == 1
    assert v["sentence"].startswith("The human judgments agree (score): the humans also put consistent first of 5")


def _column(ranks: dict) -> dict:
    return {"name": "esa", "systems": {s: {"score": -k, "rank": k} if k else {"score": None} for s, k in ranks.items()}}


def _corr(r: float, lo: float, hi: float) -> dict:
    return {"metrics": {"BlonDe": {"pearson": r, "pearson_ci": [lo, hi], "n": 8},
                        "chrF": {"pearson": 0.5, "pearson_ci": [0.1, 0.8], "n": 8}}}


def test_the_rule_between_agree_and_disagree():
    order = list("ABCDEFGH")
    # the leader second of eight, a positive correlation whose interval reaches below 0: partly
    v = human_verdict(order, _column(dict(zip(order, [2, 1, 3, 4, 5, 6, 7, 8]))), _corr(0.4, -0.2, 0.8))
    assert v["state"] == "partly" and "ranks it 1st" not in v["sentence"] and "(BlonDe ranks it 2nd)" in v["sentence"]
    # in the top quarter with an interval above 0: agree
    assert human_verdict(order, _column(dict(zip(order, [2, 1, 3, 4, 5, 6, 7, 8]))),
                         _corr(0.7, 0.3, 0.9))["state"] == "agree"
    # first for the humans but a correlation at or below 0: disagree
    assert human_verdict(order, _column(dict(zip(order, [1, 8, 7, 6, 5, 4, 3, 2]))),
                         _corr(-0.1, -0.6, 0.4))["state"] == "disagree"
    # the leader in the humans' lower half: disagree, whatever the correlation
    assert human_verdict(order, _column(dict(zip(order, [5, 1, 2, 3, 4, 6, 7, 8]))),
                         _corr(0.6, 0.2, 0.9))["state"] == "disagree"
    # the leader not rated by the humans
    v = human_verdict(order, _column(dict(zip(order, [None, 1, 2, 3, 4, 5, 6, 7]))), _corr(0.6, 0.2, 0.9))
    assert v["leader_rank"] is None and "the humans did not rate A, BlonDe's leader" in v["sentence"]
    # two rated systems: nothing weighed
    v = human_verdict(order, _column(dict(zip(order, [1, 2, None, None, None, None, None, None]))), None)
    assert v["state"] == "too few" and v["pearson"] is None and "too few" in v["sentence"]
    assert [ordinal(k) for k in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]


def test_home_and_overview_lead_with_the_disagreement(ted_mqm):
    """TED with its MQM loaded: Home's answer opens with the humans' disagreement (a warning), before the
    leader sentence; the Overview says the same sentence."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.session_state["data"] = ted_mqm
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    said = ted_mqm.human_verdict(ScoreConfig())["sentence"]
    warn = [w.value for w in at.warning if "The human judgments disagree" in w.value]
    assert len(warn) == 1 and "12th of 13" in warn[0] and "Online-W" in warn[0]
    at.switch_page("pages/overview.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("12th of 13" in w.value for w in at.warning), said


def test_the_report_says_the_verdict_and_marks_the_intervals(tmp_path, capsys):
    """The HTML report opens with the same verdict, and a row whose interval rests on resamples where a category
    vanishes carries the leaderboard's mark, with its one line under the table (TED: every row, pronouns)."""
    import html

    out = tmp_path / "r.html"
    assert main(["report", *ted_args(), "--ci", "200", "-o", str(out)]) == 0
    text = html.unescape(out.read_text(encoding="utf-8"))
    assert main(["score", *ted_args(), "--ci", "200", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    v = d["human_verdict"]
    assert f"<p class=verdict><b>{v['headline']}</b>{v['sentence'][len(v['headline']):]}</p>" in text
    lb = d["leaderboard"]
    assert lb["marked"] and lb["mark_line"] in text
    s = lb["marked"][0]
    lo, hi = lb["intervals"]["BlonDe"][s]
    assert f"[{100 * lo:.1f}, {100 * hi:.1f}] {lb['mark']}</div>" in text
