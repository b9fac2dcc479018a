"""Standard metrics come from sacrebleu unchanged, cached or not."""
import json

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

from blonde_core.cli import main
from blonde_core.io.readers import plain_corpus
from blonde_core.analysis.standard import StandardResult
from conftest import SAMPLE, sample_paths


def test_equal_to_sacrebleu_corpus_scores(tmp_path):
    c = plain_corpus([SAMPLE / "reference.txt"], sample_paths(), docids=SAMPLE / "docids.txt")
    ref = [s.strip() for d in c.references["reference"] for s in d]
    cold = StandardResult(c, cache_dir=tmp_path)
    warm = StandardResult(c, cache_dir=tmp_path)
    nocache = StandardResult(c, cache=False)
    for name, docs in c.systems.items():
        hyp = [s.strip() for d in docs for s in d]
        want = {"BLEU": BLEU().corpus_score(hyp, [ref]).score, "chrF": CHRF().corpus_score(hyp, [ref]).score,
                "TER": TER().corpus_score(hyp, [ref]).score}
        for m, v in want.items():
            assert cold.score(m, name) == pytest.approx(v, abs=1e-9)
            assert warm.score(m, name) == cold.score(m, name) == nocache.score(m, name)
        # a document's score is sacrebleu on that document alone
        lab = [s.strip() for s in docs[0]]
        assert cold.doc_scores("BLEU", name)["lab"] == pytest.approx(
            BLEU().corpus_score(lab, [[s.strip() for s in c.references["reference"][0]]]).score)
    assert cold.signatures["BLEU"].startswith("BLEU|nrefs:1|case:mixed|")
    assert cold.signatures["TER"].startswith("TER|nrefs:1|")


def test_score_command_adds_standard_metrics(capsys):
    assert main(["score", "-r", str(SAMPLE / "reference.txt"), "-s", *sample_paths()[:2], "--docids",
                 str(SAMPLE / "docids.txt"), "--metrics", "BLEU,chrF,TER", "--format", "json", "--per-doc"]) == 0
    d = json.loads(capsys.readouterr().out)
    e = d["systems"]["names"]
    assert {"BLEU", "chrF", "TER"} <= set(e) and {"BLEU", "chrF", "TER"} <= set(e["documents"]["lab"])
    assert set(d["metric_signatures"]) == {"BLEU", "chrF", "TER"}
    assert main(["score", "-r", str(SAMPLE / "reference.txt"), "-s", sample_paths()[0], "--metrics", "BLEURT"]) == 2
    assert "unknown metric 'BLEURT'" in capsys.readouterr().err


def test_extra_metrics_in_csv_and_text(capsys):
    import csv
    import io

    base = ["score", "-r", str(SAMPLE / "reference.txt"), "-s", sample_paths()[1], "--docids",
            str(SAMPLE / "docids.txt"), "--metrics", "BLEU,Utem"]
    assert main(base + ["--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert float(rows[0]["BLEU"]) > 0 and float(rows[0]["Utem"]) > 0
    assert main(base) == 0
    text = capsys.readouterr().out
    assert "BLEU" in text and "Utem (lower is better)" in text
