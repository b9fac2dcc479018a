"""Document-consistent entities (issue 50, point 6): an opt-in setting (entities: document, ent:doc in the
signature, off by default so package-exact scores stay) that counts a string the analyser tagged anywhere in a
document wherever it occurs in that document; the entity drill-down says which mismatches are the tagger's.
Through the real English pipeline on TED zh-en and the Chinese pack on WMT24."""
import json

import pytest

from conftest import SHARED, TED

SYSTEMS = ["SMU", "Online-W"]


@pytest.fixture(scope="module")
def study():
    from blonde_core.study import Study

    return Study.from_files([TED / "refs" / "ref.txt"], [TED / "systems" / f"{s}.txt" for s in SYSTEMS],
                            docids=TED / "docids.txt")


def test_off_by_default_and_the_package_scores_stay(study):
    from blonde_core.study import ScoreConfig

    cfg = ScoreConfig()
    assert cfg.entities == "tagged" and "ent:" not in study.signature(cfg)
    assert "|ent:doc|" in study.signature(ScoreConfig(entities="document"))
    tagged, whole = study.analysis(cfg), study.analysis(ScoreConfig(entities="document"))
    for s in SYSTEMS:  # only the entity category moves
        a, b = tagged.scores(s)["categories"], whole.scores(s)["categories"]
        assert b["entity"]["F1"] > a["entity"]["F1"]
        for c in ("tense", "pronoun", "dm"):
            assert a[c]["F1"] == b[c]["F1"]


def test_the_drill_down_counts_as_the_score_and_names_the_taggers_misses(study):
    """Entity strings sum to the score's own per-group counts in both modes; 'Einstein', tagged in one reference
    sentence and not in the next, is two mismatches by the tagger, and none with document-consistent entities."""
    from blonde_core.study import ScoreConfig

    for mode in ("tagged", "document"):
        a = study.analysis(ScoreConfig(entities=mode))
        rows = a.entity_strings("SMU")
        for f in (r for r in a.feature_breakdown("SMU") if r.get("category") == "entity"):
            mine = [r for r in rows if r["group"] == f["feature"]]
            assert (sum(r["reference"] for r in mine), sum(r["system"] for r in mine),
                    sum(r["matched"] for r in mine)) == (f["reference"], f["system"], f["matched"]), (mode, f)
        ein = next(r for r in rows if r["entity"] == "einstein")
        if mode == "tagged":
            assert ein["missed"] + ein["extra"] == ein["by the tagger"] == 2
        else:
            assert ein["missed"] == ein["extra"] == ein["by the tagger"] == 0


def test_the_command_line_flag_reproduces_the_setting(capsys):
    from blonde_core.cli import main
    from blonde_core.study import ScoreConfig

    args = ["score", "-r", str(TED / "refs" / "ref.txt"), "-s", *(str(TED / "systems" / f"{s}.txt") for s in SYSTEMS),
            "--docids", str(TED / "docids.txt"), "--format", "json"]
    assert main(args + ["--entities", "document"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "|ent:doc|" in out["signature"]
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)
    assert out["systems"]["SMU"]["categories"]["entity"]["F1"] > plain["systems"]["SMU"]["categories"]["entity"]["F1"]
    assert ScoreConfig(entities="document").cli_args() == ScoreConfig().cli_args() + ["--entities", "document"]


def test_chinese_names_count_without_word_boundaries():
    """Chinese is written without spaces: a tagged name counts as a substring wherever it stands in the document
    (WMT24 en-zh, its news documents, the Chinese pack's jieba)."""
    from blonde_core.study import ScoreConfig, Study

    s = Study.from_wmt(SHARED / "data" / "wmt24", lp="en-zh").in_domain("news")
    cfg = ScoreConfig(lang="zh", lowercase=False)
    tagged, whole = s.analysis(cfg), s.analysis(cfg.with_(entities="document"))
    a = tagged.scores("GPT-4")["categories"]["entity"]["spans"]
    b = whole.scores("GPT-4")["categories"]["entity"]["spans"]
    assert b["reference"] > a["reference"] and b["system"] > a["system"], (a, b)
    rows = whole.entity_strings("GPT-4")
    for f in (r for r in whole.feature_breakdown("GPT-4") if r.get("category") == "entity"):
        mine = [r for r in rows if r["group"] == f["feature"]]
        assert (sum(r["reference"] for r in mine), sum(r["system"] for r in mine),
                sum(r["matched"] for r in mine)) == (f["reference"], f["system"], f["matched"]), f
