"""MQM and judgment readers; the compare, correlate and human commands on TED zh-en."""
import json

import numpy as np
import pytest

from blonde_core.cli import main
from blonde_core.errors import InputError
from blonde_core.io.human import mqm_corpus, read_judgments, read_mqm
from blonde_core.io.readers import read_lines
from conftest import SAMPLE


@pytest.fixture(scope="module")
def mqm(ted):
    return read_mqm(ted / "raw" / "mqm_ted_zhen.tsv")


def test_mqm_reproduces_the_published_system_table(mqm, ted):
    s = mqm.scores.system_scores
    assert round(s["refB"], 2) == 0.42 and round(s["ref"], 2) == 5.52
    assert min(s, key=s.get) == "refB" and max(s, key=s.get) == "ref"
    assert all(n == 529 for n in mqm.scores.n_segments.values())
    # the per-segment file of shared/ (minus the mean penalty) agrees segment by segment
    rows = [line.split("\t") for line in read_lines(ted / "mqm_seg_scores.tsv")[1:]]
    for system, doc, seg, value in rows[::97]:
        assert -mqm.scores.segments[(system, doc, seg)] == pytest.approx(float(value))


def test_mqm_texts_are_the_system_outputs_without_markers(mqm, ted):
    for name in ("SMU", "Online-W"):
        flat = [s for d in mqm.corpus_docs[name] for s in d]
        assert flat == read_lines(ted / "systems" / f"{name}.txt")
        assert not any("<v>" in s for s in flat)
    assert mqm.doc_ids == ["talk.2", "talk.5", "talk.6", "talk.7", "talk.9"]
    assert [s for d in mqm.source_docs for s in d] == read_lines(ted / "source.zh.txt")


def test_mqm_corpus_needs_known_reference_systems(mqm):
    c = mqm_corpus(mqm, ["ref"])
    assert list(c.references) == ["ref"] and "refB" in c.systems and len(c.systems) == 14
    with pytest.raises(InputError, match="'nobody'"):
        mqm_corpus(mqm, ["nobody"])
    with pytest.raises(InputError, match="reference"):
        mqm_corpus(mqm, [])


def test_mqm_bad_rows(tmp_path):
    f = tmp_path / "m.tsv"
    f.write_text("system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
                 "A\td\t1\t1\tr1\tsrc\ttgt\tNo-error\tno-error\nA\td\t1\t2\tr1\tsrc\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        read_mqm(f)
    assert "line 3" in str(e.value) and "9" in str(e.value)
    f.write_text("system\tdoc\nA\td\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 1"):
        read_mqm(f)


def test_judgments_table():
    h = read_judgments(SAMPLE / "human_judgments.tsv")
    assert h.name == "score" and h.higher_is_better
    assert h.system_scores["consistent"] == pytest.approx((4.8 + 4.7 + 4.9) / 3)
    assert h.doc_scores["markers"]["trip"] == 3.3


def test_human_command_on_mqm(ted, capsys):
    assert main(["human", "--mqm", str(ted / "raw" / "mqm_ted_zhen.tsv"), "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert round(d["systems"]["refB"]["MQM"], 2) == 0.42 and round(d["systems"]["ref"]["MQM"], 2) == 5.52
    assert d["systems"]["ref"]["segments"] == 529
    assert set(d["documents"]["SMU"]) == {"talk.2", "talk.5", "talk.6", "talk.7", "talk.9"}


def _ted_args(ted, systems):
    return ["-r", str(ted / "refs" / "ref.txt"), "-s", *[str(ted / "systems" / f"{s}.txt") for s in systems],
            str(ted / "refs" / "refB.txt"), "--docids", str(ted / "docids.txt")]


def test_compare_command(ted, capsys):
    args = ["compare", *_ted_args(ted, ["Online-W", "SMU", "DIDI-NLP"]), "--format", "json"]
    assert main(args + ["--test", "ttest", "--unit", "doc"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert "|test:ttest|unit:doc|metric:BlonDe|seed:12345" in d["signature"]
    assert len(d["pairs"]) == 6 and set(d["systems"]) == {"Online-W", "SMU", "DIDI-NLP", "refB"}
    q = d["pairs"][0]
    assert {"a", "b", "metric", "mean_diff", "ci", "t", "p", "p_holm", "p_bh", "n_units"} <= set(q)
    assert q["n_units"] == 5
    for s in d["systems"].values():
        assert s["ci"][0] <= s["score"] <= s["ci"][1]
    assert main(args + ["--test", "bootstrap", "--n", "300", "--metric", "dm.R", "--unit", "block:5"]) == 0
    b = json.loads(capsys.readouterr().out)
    q = b["pairs"][0]
    blocks = sum((n + 4) // 5 for n in (140, 31, 129, 70, 159))
    assert b["metric"] == "dm.R" and b["n_units"] == blocks and "|n:300" in b["signature"]
    assert q["n_units"] + q["n_nan_units"] == blocks and q["n_nan_units"] > 0
    # the same seed gives the same answer
    assert main(args + ["--test", "bootstrap", "--n", "300", "--metric", "dm.R", "--unit", "block:5"]) == 0
    assert json.loads(capsys.readouterr().out) == b
    assert main(args + ["--test", "ar", "--n", "500", "--metric", "tense"]) == 0
    assert json.loads(capsys.readouterr().out)["pairs"][0]["p"] > 0
    assert main(["compare", *_ted_args(ted, ["SMU"]), "--metric", "nonsense"]) == 2
    assert "unknown metric" in capsys.readouterr().err


def test_compare_default_is_the_policy(ted, capsys):
    """Default: paired bootstrap over an automatic unit: 5 TED documents are too few, so blocks of
    consecutive segments, the largest that still give 30 units."""
    assert main(["compare", *_ted_args(ted, ["Online-W", "SMU"]), "--format", "json", "--n", "200"]) == 0
    d = json.loads(capsys.readouterr().out)
    lengths = (140, 31, 129, 70, 159)
    # block 19: 8 + 2 + 7 + 4 + 9 = 30 units; block 20: 7 + 2 + 7 + 4 + 8 = 28
    assert sum(-(-n // 19) for n in lengths) == 30 and sum(-(-n // 20) for n in lengths) == 28
    assert d["test"] == "bootstrap" and d["unit"] == "block:19" and d["n_units"] == 30
    assert d["unit_asked"] == "auto" and "5 documents" in d["unit_reason"] and d["warning"] is None
    assert "|test:bootstrap-percentile|unit:block:19|" in d["signature"]  # the method named (issue 36)
    assert main(["compare", *_ted_args(ted, ["Online-W", "SMU"]), "--unit", "doc", "--n", "200"]) == 0
    text = capsys.readouterr().out
    assert "warning: only 5 units" in text and "fewer than 30" in text
    # the text prints BlonDe differences in points, as `score` and the pages do; BLEU on its own scale
    assert main(["compare", *_ted_args(ted, ["Online-W", "SMU"]), "--n", "200"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    q = d["pairs"][0]
    assert row[:3] == ["Online-W", "SMU", f"{100 * q['corpus_diff']:+.2f}"]
    assert " ".join(row[3:5]) == f"[{100 * q['ci'][0]:+.2f}, {100 * q['ci'][1]:+.2f}]"
    assert main(["compare", *_ted_args(ted, ["Online-W", "SMU"]), "--metric", "BLEU", "--format", "json"]) == 0
    b = json.loads(capsys.readouterr().out)["pairs"][0]
    assert main(["compare", *_ted_args(ted, ["Online-W", "SMU"]), "--metric", "BLEU"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split()[2] == f"{b['corpus_diff']:+.2f}" and 1 < abs(b["corpus_diff"]) < 100
    assert "on the metric's own scale" in out


def test_score_ci_gives_the_leaderboard_intervals_and_clusters(ted, capsys):
    """`score --ci N` (what the Overview's command line gives): every system's 95% intervals are
    the ones `compare` reports for that metric with the same resamples and seed (BlonDe family over
    the policy's unit, BLEU over documents), and its clusters follow the WMT rule applied by hand
    to compare's Benjamini-Hochberg p-values, best system first."""
    systems = ["Online-W", "SMU", "DIDI-NLP", "metricsystem5", "Borderline"]
    base = _ted_args(ted, systems)
    assert main(["score", *base, "--metrics", "BLEU", "--ci", "300", "--seed", "7", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    lb = d["leaderboard"]
    assert lb["unit"] == "block:19" and lb["n_units"] == 30 and lb["resamples"] == 300 and lb["seed"] == 7
    assert lb["signature"] == d["signature"] + "|ci:bootstrap|n:300|unit:block:19|seed:7|method:bca-conditional"
    names = systems + ["refB"]
    for metric in ("BlonDe", "BlonD-d", "BLEU"):
        assert main(["compare", *base, "--metric", metric, "--n", "300", "--seed", "7", "--format", "json"]) == 0
        c = json.loads(capsys.readouterr().out)
        assert c["unit"] == ("doc" if metric == "BLEU" else "block:19")
        for n in names:
            assert lb["intervals"][metric][n] == pytest.approx(c["systems"][n]["ci"], abs=1e-12), (metric, n)
            assert lb["intervals"][metric][n][0] < lb["intervals"][metric][n][1]
        if metric != "BlonDe":
            continue
        p = {frozenset((q["a"], q["b"])): q["p_bh"] for q in c["pairs"]}
        ranked = sorted(names, key=lambda n: -d["systems"][n]["BlonDe"]["F1"])
        expected, head, k = {}, None, 0
        for n in ranked:
            if head is None or p[frozenset((head, n))] < 0.05:
                head, k = n, k + 1
            expected[n] = k
        assert lb["clusters"] == expected and list(lb["clusters"]) == ranked
        assert max(expected.values()) >= 2  # the check sees clusters apart, not all in one
    # the text output: ranked rows, cluster and intervals in points (BLEU on its own scale)
    assert main(["score", *base, "--metrics", "BLEU", "--ci", "300", "--seed", "7"]) == 0
    text = capsys.readouterr().out
    rows = text.split("BlonDe 95% CI")[1].splitlines()[2:2 + len(names)]
    for row, n in zip(rows, lb["clusters"]):
        lo, hi = lb["intervals"]["BlonDe"][n]
        blo, bhi = lb["intervals"]["BLEU"][n]
        assert row.split()[:4] == [n, str(lb["clusters"][n]), f"[{100 * lo:.2f},", f"{100 * hi:.2f}]"]
        assert row.endswith(f"[{blo:.2f}, {bhi:.2f}]")
    assert lb["signature"] in text
    assert main(["score", *base, "--metrics", "BLEU", "--ci", "300", "--seed", "7", "--format", "csv"]) == 0
    import csv
    import io

    table = {(r["system"], r["document"]): r for r in csv.DictReader(io.StringIO(capsys.readouterr().out))}
    for n in names:
        r = table[(n, "")]
        assert int(r["cluster"]) == lb["clusters"][n]
        assert [float(r["BlonD-d.ci_low"]), float(r["BlonD-d.ci_high"])] == lb["intervals"]["BlonD-d"][n]
        assert [float(r["BLEU.ci_low"]), float(r["BLEU.ci_high"])] == lb["intervals"]["BLEU"][n]
    assert main(["score", *base, "--ci", "0"]) == 2
    assert "argument --ci: must be at least 1" in capsys.readouterr().err


def test_correlate_command(ted, capsys):
    args = ["correlate", *_ted_args(ted, ["Online-W", "SMU", "DIDI-NLP", "NiuTrans", "MiSS"]),
            "--human", str(ted / "raw" / "mqm_ted_zhen.tsv"), "--format", "json"]
    assert main(args) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["n"] == 6 and d["level"] == "system" and "negated" in d["human_direction"]
    m = d["metrics"]["BlonDe"]
    assert {"pearson", "pearson_ci", "spearman", "spearman_ci", "kendall", "kendall_ci"} <= set(m)
    assert -1 <= m["pearson"] <= 1 and m["pearson_ci"][0] <= m["pearson"] <= m["pearson_ci"][1]
    # worked out independently: the system scores of `score`, MQM of `human`, negated (lower is better)
    systems = ["Online-W", "SMU", "DIDI-NLP", "NiuTrans", "MiSS"]
    assert main(["score", *_ted_args(ted, systems), "--format", "json"]) == 0
    sc = json.loads(capsys.readouterr().out)["systems"]
    assert main(["human", "--mqm", str(ted / "raw" / "mqm_ted_zhen.tsv"), "--format", "json"]) == 0
    hm = json.loads(capsys.readouterr().out)["systems"]
    names = sorted(sc)
    x = np.array([sc[s]["BlonDe"]["F1"] for s in names])
    y = -np.array([hm[s]["MQM"] for s in names])
    assert m["pearson"] == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-9)
    rx, ry = np.argsort(np.argsort(x)), np.argsort(np.argsort(y))
    assert m["spearman"] == pytest.approx(np.corrcoef(rx, ry)[0, 1], abs=1e-9)
    conc = sum(np.sign((x[i] - x[j]) * (y[i] - y[j])) for i in range(len(x)) for j in range(i + 1, len(x)))
    assert m["kendall"] == pytest.approx(conc / (len(x) * (len(x) - 1) / 2), abs=1e-9)
    assert d["matrix"]["BlonDe"]["BlonDe"] == pytest.approx(1.0)
    assert main(args + ["--level", "document"]) == 0
    assert json.loads(capsys.readouterr().out)["n"] == 30


def test_correlate_against_refB_without_ref(ted, capsys):
    """`-r refB --exclude ref`: refB scores the systems, ref becomes a system and is left out;
    Pearson, Kendall, pairwise accuracy and SPA with intervals, checked against values worked out here."""
    systems = ["Online-W", "SMU", "DIDI-NLP", "NiuTrans", "MiSS", "Facebook-AI"]
    mqm = str(ted / "raw" / "mqm_ted_zhen.tsv")
    args = ["correlate", *_ted_args(ted, systems), "--human", mqm, "-r", "refB", "--exclude", "ref", "--accuracy",
            "--spa", "--permutations", "500", "--metrics", "BlonDe", "--format", "json"]
    assert main(args) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["systems"] == systems and d["excluded"] == ["ref"] and d["n_systems"] == 6
    assert d["cells_rated"] == d["cells"] == 30 and "|ref:refB" in d["signature"] and "|exclude:ref" in d["signature"]
    m = d["metrics"]["BlonDe"]
    # the system scores of `score -r refB.txt -s ... ref.txt`, MQM negated
    assert main(["score", "-r", str(ted / "refs" / "refB.txt"), "-s",
                 *[str(ted / "systems" / f"{s}.txt") for s in systems], str(ted / "refs" / "ref.txt"),
                 "--docids", str(ted / "docids.txt"), "--format", "json"]) == 0
    sc = json.loads(capsys.readouterr().out)["systems"]
    assert main(["human", "--mqm", mqm, "--format", "json"]) == 0
    hm = json.loads(capsys.readouterr().out)["systems"]
    x = np.array([sc[s]["BlonDe"]["F1"] for s in systems])
    y = -np.array([hm[s]["MQM"] for s in systems])
    assert m["pearson"] == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-9)
    pairs = [(i, j) for i in range(6) for j in range(i + 1, 6)]
    agree = sum(np.sign(x[i] - x[j]) == np.sign(y[i] - y[j]) for i, j in pairs)
    assert m["accuracy"] == pytest.approx(agree / 15) and m["pairs"] == 15
    for k in ("pearson_ci", "kendall_ci", "accuracy_ci"):
        assert m[k][0] is not None and m[k][0] <= m[k][1]
    assert "bootstrap over documents" in m["ci_method"]
    # every interval names its method: Spearman's is bootstrapped like the others (it was a Fisher-z interval
    # labelled "bootstrap over documents")
    assert m["ci_methods"]["spearman_ci"].startswith("bootstrap over documents") and m["spearman_ci"][0] is not None
    assert set(m["ci_methods"]) >= {"pearson_ci", "spearman_ci", "kendall_ci", "accuracy_ci", "spa_ci"}
    assert 0 <= m["spa"] <= 1 and d["spa"]["permutations"] == 500
    assert m["spa_ci"][0] is not None and m["spa_ci"][0] <= m["spa_ci"][1]
    # same seed, same SPA; the text output names what was used
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["BlonDe"]["spa"] == m["spa"]
    assert main(args[:-2]) == 0
    text = capsys.readouterr().out
    assert "scored against refB" in text and "excluded: ref" in text and "SPA" in text and "accuracy" in text
    # document level, grouped per item, and two metrics compared
    assert main([*args[:-4], "--metrics", "BlonDe,BlonD-d", "--level", "document", "--grouping", "item",
                 "--compare", "BlonD-d", "BlonDe", "--format", "json"]) == 0
    g = json.loads(capsys.readouterr().out)
    assert g["grouping"] == "item" and g["metrics"]["BlonDe"]["groups"] == 5
    assert g["compare"]["a"] == "BlonD-d" and 0 <= g["compare"]["perm_both"]["p_b_better"] <= 1
    # the page's compare_pair (the comparison alone) gives the command line's numbers
    from blonde_core.io.formats import read_human
    from blonde_core.io.readers import plain_corpus
    from blonde_core.analysis.stats import compare_pair
    from blonde_core.study import ScoreConfig, Study

    study = Study(plain_corpus([ted / "refs" / "ref.txt"], [ted / "systems" / f"{s}.txt" for s in systems]
                               + [ted / "refs" / "refB.txt"], docids=ted / "docids.txt"), "t").scored_against("refB")
    alone = compare_pair(study.result(ScoreConfig()), read_human(mqm), ("BlonD-d", "BlonDe"), "document",
                         metrics=["BlonDe", "BlonD-d"], grouping="item", exclude=["ref"], permutations=500)
    assert alone == g["compare"]
    assert main([*args, "--grouping", "sys"]) == 2  # grouping is for document level
    assert "document and segment level only" in capsys.readouterr().err
    assert main(["correlate", *_ted_args(ted, systems), "--human", mqm, "-r", "nosuch"]) == 2
    assert "no loaded text is named 'nosuch'" in capsys.readouterr().err


def test_score_input_mqm(ted, capsys):
    assert main(["score", "--input", str(ted / "raw" / "mqm_ted_zhen.tsv"), "--reference-systems", "ref",
                 "--format", "json"]) == 0
    via_mqm = json.loads(capsys.readouterr().out)
    assert main(["score", *_ted_args(ted, ["SMU"]), "--format", "json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    # the MQM file carries judgments: the human column (the system's MQM and its rated segments) comes along
    hum = {k: via_mqm["systems"]["SMU"].pop(k) for k in ("human:MQM", "human segments")}
    assert hum["human:MQM"] == pytest.approx(via_mqm["human"]["systems"]["SMU"]["score"]) and hum["human segments"] > 0
    via_mqm["systems"]["refB"].pop("human:MQM"), via_mqm["systems"]["refB"].pop("human segments")
    assert via_mqm["systems"]["SMU"] == plain["systems"]["SMU"]
    assert via_mqm["systems"]["refB"] == plain["systems"]["refB"]
    assert main(["score", "--input", str(ted / "raw" / "mqm_ted_zhen.tsv")]) == 2
    assert "--reference-systems" in capsys.readouterr().err


def test_rater_agreement_kappa(tmp_path):
    rows = ["system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"]
    # two raters on four segments: penalties 0/1/5/25 vs 0/1/1/25 -> bands 0,1,2,3 vs 0,1,1,3
    cats = {"r1": [("No-error", "No-error"), ("Fluency/Grammar", "Minor"), ("Accuracy/Mistranslation", "Major"),
                   ("Non-translation!", "Major")],
            "r2": [("No-error", "No-error"), ("Fluency/Grammar", "Minor"), ("Fluency/Grammar", "Minor"),
                   ("Non-translation!", "Major")]}
    for rater, items in cats.items():
        for seg, (cat, sev) in enumerate(items, 1):
            rows.append(f"A\td\t1\t{seg}\t{rater}\tsrc\ttgt\t{cat}\t{sev}")
    f = tmp_path / "m.tsv"
    f.write_text("\n".join(rows) + "\n", encoding="utf-8")
    hs = read_mqm(f).scores
    assert hs.system_scores["A"] == pytest.approx((0 + 1 + (5 + 1) / 2 + 25) / 4)
    from blonde_core.analysis.stats import cohen_kappa, rater_agreement

    agr = rater_agreement(hs)
    assert len(agr) == 1 and agr[0]["segments"] == 4

    assert agr[0]["kappa"] == pytest.approx(cohen_kappa([0, 1, 2, 3], [0, 1, 1, 3]))


def test_ted_mqm_has_one_rater_per_segment(mqm):
    from blonde_core.analysis.stats import judgments_summary

    d = judgments_summary(mqm.scores)
    assert d["rater_agreement"] == [] and "single rater" in d["rater_agreement_note"]


def test_segment_level_correlation_and_acc_eq_on_ted(ted, capsys):
    """Segment level (issue 36: acc_eq at segment and system level): each segment scored on its own, paired
    with the MQM segment scores of the same system - the file's ids are test-set line numbers, so by position
    within each document; Pearson over all cells and acc_eq per segment across systems (WMT's grouping item)
    equal an independent computation from the per-segment statistics and the TSV."""
    from blonde_core.analysis.stats import meta
    from blonde_core.metric.scoring import score
    from blonde_core.study import ScoreConfig, Study

    systems = ["Online-W", "SMU", "DIDI-NLP"]
    tsv = ted / "mqm_seg_scores.tsv"
    base = ["correlate", *_ted_args(ted, systems), "--human", str(tsv), "--level", "segment", "--metrics",
            "BlonDe", "--bootstrap", "0", "--format", "json"]
    assert main(base) == 0
    flat = json.loads(capsys.readouterr().out)
    assert main(base + ["--grouping", "item"]) == 0
    item = json.loads(capsys.readouterr().out)
    # independently: the TSV's scores by position within each document, the BlonDe F1 of every segment alone
    rows = [line.split("\t") for line in tsv.read_text(encoding="utf-8").splitlines()[1:]]
    study = Study.from_files([ted / "refs" / "ref.txt"], [ted / "systems" / f"{s}.txt" for s in systems]
                             + [ted / "refs" / "refB.txt"], docids=ted / "docids.txt")
    res = study.result(ScoreConfig())
    names = systems + ["refB"]
    H, M = [], []
    for s in names:
        h = []
        for d in res.corpus.doc_ids:
            segs = sorted((int(r[2]), float(r[3])) for r in rows if r[0] == s and r[1] == d)
            h += [v for _, v in segs]
        H.append(h)
        M.append([float(score(res.stats[s][k], res.config, res.layout)["BlonDe"]["F1"])
                  for k in range(len(res.stats[s]))])
    H, M = np.array(H), np.array(M)
    assert H.shape == (4, 529) and flat["cells_rated"] == 4 * 529
    x, y = M.reshape(-1), H.reshape(-1)  # MQM is higher-is-better in this file
    assert flat["metrics"]["BlonDe"]["pearson"] == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-9)
    want = meta.tie_calibrated_accuracy(H, M, "item")
    assert item["metrics"]["BlonDe"]["acc_eq"] == pytest.approx(want["acc_eq"], abs=1e-12)
    assert item["metrics"]["BlonDe"]["acc_eq_epsilon"] == want["epsilon"]
    assert item["level"] == "segment" and item["metrics"]["BlonDe"]["groups_used"] > 400
