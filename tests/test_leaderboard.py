"""The one leaderboard table (blonde_core/leaderboard.py): assembled once by the core, rendered by the
Overview, the report and `score --ci`.  Real pipeline on the bundled sample data."""
import json
import math

import pytest

from blonde_core.cli import main
from blonde_core.metric import registry
from blonde_core.study import ScoreConfig, Study
from blonde_core.study import json_safe
from conftest import SAMPLE, SAMPLE_SYSTEMS, sample_paths


@pytest.fixture(scope="module")
def study():
    return Study.from_files([SAMPLE / "reference.txt"], sample_paths(), docids=SAMPLE / "docids.txt",
                            human=SAMPLE / "human_judgments.tsv")


def test_columns_carry_their_specs_and_values_come_from_the_core(study):
    cfg = ScoreConfig()
    lb = study.leaderboard(cfg, 200, std_metrics=("BLEU", "chrF", "TER"), companions=True)
    res = study.analysis(cfg)
    kinds = [c.kind for c in lb.columns]
    # the order every view shows: the BlonDe family, the categories, the human column, sacrebleu, companions
    assert kinds.index("top") < kinds.index("category") < kinds.index("human") < kinds.index("standard") \
        < kinds.index("companion")
    assert lb.systems[0] == max(res.names, key=lambda s: res.scores(s)["BlonDe"]["F1"])
    b = study.board(cfg, n=200)
    for s in res.names:
        assert lb.values["BlonDe F1"][s] == b["intervals"]["BlonDe"][s]["score"]
        assert lb.shown("BlonDe F1", s) == pytest.approx(100 * res.scores(s)["BlonDe"]["F1"])
        assert list(lb.intervals["BlonDe F1"][s]) == b["intervals"]["BlonDe"][s]["ci"]
    std = study.standard_intervals(cfg.granularity, ("BLEU", "chrF", "TER"), 200)
    for m in ("BLEU", "chrF", "TER"):
        col = lb.column(m)
        assert col.interval and col.points == 1 and col.higher_is_better == (m != "TER")
        assert all(lb.values[m][s] == std[m][s]["score"] for s in res.names)
    comp = study.companions(cfg)
    otem = lb.column("Otem ↓")
    assert not otem.higher_is_better and otem.unavailable is None
    assert all(lb.values["Otem ↓"][s] == comp[s]["Otem"] for s in res.names)
    hum = study.human_column(res.names)
    assert lb.column(f"human ({hum['name']})").digits == 3
    # records: what the Overview's full table and downloads hold, in points
    rec = {r["system"]: r for r in lb.records()}
    s = SAMPLE_SYSTEMS[0]
    assert rec[s]["BlonDe F1"] == pytest.approx(100 * res.scores(s)["BlonDe"]["F1"])
    assert rec[s]["BlonDe CI low"] == pytest.approx(100 * b["intervals"]["BlonDe"][s]["ci"][0])
    assert rec[s]["TER CI high"] == std["TER"][s]["ci"][1]
    v = res.scores(s)["categories"]["pronoun"]["spans"]
    assert rec[s]["pronoun spans matched/sys/ref"] == (f"{v['matched']:g}/{v['system']:g}/{v['reference']:g}"
                                                       + (" °" if v["reference"] < 5 else ""))
    for c in lb.of("category"):  # an absent category is NaN in the records (the page's "-"), never 0
        for x in res.names:
            f1 = res.scores(x)["categories"][c.metric]
            want = 0.0 if f1["R"] == 0 and f1["P"] == 0 else f1["F1"]
            assert (want is None and math.isnan(rec[x][c.key])) or rec[x][c.key] == pytest.approx(100 * want)


def test_score_ci_renders_the_same_table(study, capsys):
    """`score --ci`'s JSON leaderboard is the table's json_block: same intervals and clusters."""
    argv = ["score", "-r", str(SAMPLE / "reference.txt"), "-s", *sample_paths(), "--docids",
            str(SAMPLE / "docids.txt"), "--metrics", "BLEU,chrF", "--ci", "200", "--format", "json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    lb = study.leaderboard(ScoreConfig(), 200, std_metrics=("BLEU", "chrF"))
    block = json.loads(json.dumps(json_safe(lb.json_block())))
    assert out["leaderboard"] == block
    assert list(out["leaderboard"]["intervals"]) == ["BlonDe", "BlonD-d", "BLEU", "chrF"]
    assert out["leaderboard"]["clusters"] == lb.clusters["BlonDe"]


def test_every_companion_column_is_a_registered_metric(study):
    lb = study.leaderboard(ScoreConfig(), 200, companions=True)
    assert [c.metric for c in lb.of("companion")] == list(registry.names("companion"))
    for c in lb.of("companion"):
        assert c.higher_is_better == registry.higher_is_better(c.metric)
        assert c.key.endswith("↑" if c.higher_is_better else "↓")
