"""The metric families (blonde_core/analysis/families.py) drive every view of a metric: the leaderboard's columns,
what the paired tests resample, the values `correlate` correlates and the help texts of the command line and the
pages.  A family registered here alone (a length ratio per document, computed from the real texts) is computed and
shown by all of them, with no other file changed."""
import json
from pathlib import Path

import numpy as np
import pytest

from blonde_core.analysis import families
from blonde_core.cli import main
from blonde_core.metric import registry
from blonde_core.study import CATALOG, ScoreConfig, Study

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data"
SYSTEMS = ("consistent", "markers", "names", "pronouns", "tense")


def _files():
    return ["-r", str(SAMPLE / "reference.txt"), "-s", *(str(SAMPLE / f"{s}.txt") for s in SYSTEMS),
            "--docids", str(SAMPLE / "docids.txt")]


@pytest.fixture(scope="module")
def study():
    return Study.from_files([str(SAMPLE / "reference.txt")], [str(SAMPLE / f"{s}.txt") for s in SYSTEMS],
                            docids=str(SAMPLE / "docids.txt"), human=[str(SAMPLE / "human_judgments.tsv")])


# -- a throwaway family: words of the system over words of the reference, per scoring unit, summed ----------------
def _unit_words(result, system):
    """(scoring units, 2): the system's and the reference's words in each unit (segment, or whole document)."""
    ref = next(iter(result.corpus.references.values()))
    pairs = [(list(sd), list(rd)) for sd, rd in zip(result.corpus.systems[system], ref)]
    if len(result.unit_doc) == len(pairs):  # document-level units
        return np.array([[sum(len(x.split()) for x in sd), sum(len(x.split()) for x in rd)] for sd, rd in pairs],
                        dtype=float)
    return np.array([[len(s.split()), len(r.split())] for sd, rd in pairs for s, r in zip(sd, rd)], dtype=float)


def _ratio(v):
    return float(v[0] / v[1]) if v[1] else float("nan")


def _scores(study, cfg, asked):
    res = study.analysis(cfg)
    out = {}
    for s in res.names:
        u = _unit_words(res, s)
        per_doc = np.zeros((len(res.corpus.doc_ids), 2))
        np.add.at(per_doc, res.unit_doc, u)
        out[s] = {"LR": _ratio(u.sum(0)), "documents": {d: {"LR": _ratio(v)} for d, v in zip(res.corpus.doc_ids,
                                                                                                per_doc)}}
    return out


@pytest.fixture
def length_family(monkeypatch):
    monkeypatch.setitem(registry.SPECS, "LR", registry.MetricSpec("LR", "length", units=("doc",), needs="",
                                                                  computed_by="analysis.families",
                                                                  what="system words over reference words"))
    fam = families.Family("length", ("length",), "length ratio", scores=_scores, segment_stats=_unit_words,
                          score_stats=lambda metric, v: _ratio(v))
    families.register(fam)
    yield fam
    families.FAMILIES.remove(fam)


def test_the_help_texts_list_every_family_metric(capsys):
    for argv, use in ((["score", "--help"], "score"), (["compare", "--help"], "compare")):
        with pytest.raises(SystemExit):
            main(argv)
        shown = " ".join(capsys.readouterr().out.split())
        for f in CATALOG.families:
            if (f.score if use == "score" else f.tested):
                for m in f.metrics:
                    assert m in CATALOG.metrics_help(use), (use, m)
        assert " ".join(CATALOG.metrics_help(use).split()).replace("- ", "-")[:60] in shown.replace("- ", "-")
    # no page or help text re-types the companion metrics' names
    for p in (ROOT / "pages" / "overview.py", *(ROOT / "studio").glob("*.py"), ROOT / "blonde_core" / "cli" /
              "__init__.py"):
        assert "Otem, Utem" not in p.read_text(encoding="utf-8") and "Otem,Utem" not in p.read_text(encoding="utf-8")


def test_the_families_give_the_leaderboard_its_columns(study):
    cfg = ScoreConfig()
    lb = study.leaderboard(cfg, n=50, std_metrics=("BLEU", "TER"), companions=True)
    assert [c.metric for c in lb.of("standard")] == ["BLEU", "TER"]
    assert [c.metric for c in lb.of("companion")] == list(registry.names("companion"))
    for c in lb.of("standard", "companion"):
        assert c.higher_is_better == registry.SPECS[c.metric].higher_is_better
    assert [c.key for c in lb.of("companion")][:2] == ["Otem ↓", "Utem ↓"]
    kinds = [c.kind for c in lb.columns]
    assert kinds.index("human") < kinds.index("standard") < kinds.index("companion")  # the head, then the rest


def test_a_family_registered_alone_is_computed_and_shown_by_all(study, length_family, tmp_path):
    cfg = ScoreConfig()
    truth = _scores(study, cfg, ("LR",))
    # the leaderboard: its column, after the others, with its scores
    lb = study.leaderboard(cfg, n=50, std_metrics=("chrF",), metrics=("LR",))
    col = lb.of("length")[0]
    assert col.key == "LR ↑" and lb.columns[-1] is col
    assert lb.values[col.key] == {s: truth[s]["LR"] for s in lb.systems}
    # the paired tests: resampled over documents, its scores the summed ratio
    tested = study.compare(cfg, "LR", test="bootstrap", unit="auto", n=50)
    assert tested["unit"] == "doc" and tested["metric"] == "LR"
    assert {s: v["score"] for s, v in tested["systems"].items()} == pytest.approx({s: truth[s]["LR"] for s in SYSTEMS})
    assert len(tested["pairs"]) == len(SYSTEMS) * (len(SYSTEMS) - 1) // 2
    # correlate: its values against the humans
    out, _ = study.correlate(cfg, "system", more=("LR",))
    assert "LR" in out["metrics"] and out["metrics"]["LR"]["pearson"] is not None
    # the command line: help, score --metrics (JSON and the leaderboard), compare --metric
    assert "LR" in CATALOG.metrics_help("score") and "LR" in CATALOG.metrics_help("compare")
    f = tmp_path / "out.json"
    assert main(["score", *_files(), "--metrics", "LR", "--ci", "20", "--format", "json", "-o", str(f)]) == 0
    data = json.loads(f.read_text(encoding="utf-8"))
    assert data["systems"]["names"]["LR"] == pytest.approx(truth["names"]["LR"])
    assert data["metric_directions"]["LR"] == "higher is better"
    assert main(["compare", *_files(), "--metric", "LR", "--n", "50", "--format", "json", "-o", str(f)]) == 0
    assert json.loads(f.read_text(encoding="utf-8"))["metric"] == "LR"


def test_metrics_computed_elsewhere_are_a_family_asked_before_the_registry(study, tmp_path):
    """A table of segment scores named chrF (the real sentence chrF of each segment, computed here with sacrebleu,
    scaled by 1/2 so that it differs from sacrebleu's corpus chrF): the file's chrF belongs to the family of metrics
    computed elsewhere, not to sacrebleu's; the leaderboard shows it where that family's columns go (after the human
    column, before sacrebleu's), `correlate`'s values and the paired tests take its scores, and compare's help
    names the family."""
    from sacrebleu.metrics import CHRF

    from blonde_core.analysis.families import family, metrics_help

    ref = [x for d in study.texts(study.references[0]) for x in d]
    rows, seg = ["system\tseg\tchrF"], {}
    for s in SYSTEMS:
        hyp = [x for d in study.texts(s) for x in d]
        seg[s] = [CHRF().sentence_score(h, [r]).score / 2 for h, r in zip(hyp, ref)]
        rows += [f"{s}\t{k + 1}\t{v!r}" for k, v in enumerate(seg[s])]
    (tmp_path / "scores.tsv").write_text("\n".join(rows) + "\n")
    st = study.with_metric_files([tmp_path / "scores.tsv"])
    cfg = ScoreConfig()
    assert family("chrF", {"external": st.external}).name == "external" and family("chrF").name == "standard"
    lb = st.leaderboard(cfg, n=100, seed=1, std_metrics=["chrF"])
    kinds = [c.kind for c in lb.columns]
    assert kinds.index("external") > kinds.index("human") and kinds.index("external") < kinds.index("standard")
    col = next(c for c in lb.columns if c.kind == "external")
    assert col.metric == "chrF" and lb.external["chrF"]["clusters"]
    assert col.key == "chrF (computed elsewhere)" and lb.column("chrF").kind == "standard"  # both shown, apart
    got, beside = st.extra_tables(cfg, "system", ()), st.extra_tables(cfg, "system", ("chrF",))
    std = st.standards(cfg.granularity, ("chrF",))
    for s in SYSTEMS:
        assert lb.values[col.key][s] == pytest.approx(np.mean(seg[s]))
        assert lb.values["chrF"][s] == pytest.approx(std.score("chrF", s)) != pytest.approx(np.mean(seg[s]))
        assert got["chrF"][s] == beside["chrF (computed elsewhere)"][s] == pytest.approx(np.mean(seg[s]))
        assert beside["chrF"][s] == pytest.approx(std.score("chrF", s))
    assert list(beside)[-1] == "chrF (computed elsewhere)"  # after the others, as correlate lists them
    # the paired test resamples the file's segment scores (their per-document sums and counts), not sacrebleu's
    res = st.analysis(cfg)
    per, fn, lower = families.FAMILIES[1].unit_data_of(res, "chrF", "doc", list(SYSTEMS), {"external": st.external})
    assert families.FAMILIES[1].name == "external" and not lower
    assert float(fn(per[SYSTEMS[0]][1].sum(axis=0))) == pytest.approx(np.mean(seg[SYSTEMS[0]]))
    tested = st.compare(cfg, metric="chrF", test="bootstrap", n=100, seed=1)
    for s in SYSTEMS:  # the test's systems carry the file's scores
        assert tested["systems"][s]["score"] == pytest.approx(np.mean(seg[s]))
    assert "a metric loaded from score files" in metrics_help("compare")


def test_score_keeps_a_files_metric_apart_from_sacrebleus_of_the_same_name(tmp_path, capsys):
    """`score --metrics chrF --metric-scores` with a file's chrF: both in the JSON, per system and per document,
    neither replacing the other (before, the file's replaced sacrebleu's and its documents the others')."""
    from blonde_core.io.readers import read_lines

    ids = read_lines(SAMPLE / "docids.txt")
    lines = ["system\tdoc\tchrF"] + [f"{s}\t{d}\t{k + 0.5!r}" for s in SYSTEMS for k, d in
                                        enumerate(dict.fromkeys(ids))]
    (tmp_path / "doc.tsv").write_text("\n".join(lines) + "\n")
    assert main(["score", *_files(), "--metrics", "chrF", "--metric-scores", str(tmp_path / "doc.tsv"),
                 "--per-doc", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    docs = list(dict.fromkeys(ids))
    for s in SYSTEMS:
        got = out["systems"][s]
        assert got["chrF (computed elsewhere)"] == pytest.approx(np.mean([k + 0.5 for k in range(len(docs))]))
        assert got["chrF"] > 10 and got["chrF"] != got["chrF (computed elsewhere)"]
        for k, d in enumerate(docs):
            assert got["documents"][d]["chrF (computed elsewhere)"] == k + 0.5 and got["documents"][d]["chrF"] > 10
    assert set(out["metric_directions"]) >= {"chrF", "chrF (computed elsewhere)"}
