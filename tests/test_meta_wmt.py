"""Meta-evaluation as WMT24/25 ranks metrics (issue 48): PDP, SPA over segments, `correlate --task`, texts as
mt-metrics-eval's JSON Lines, and strict JSON (no NaN) from every command - on real data (WMT22 zh-en in the
WMT layout, WMT24 as released) through the real pipelines."""
import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from conftest import SHARED, WMT_SUBSET_SYSTEMS, wmt22_layout, wmt_form

WMT24 = SHARED / "data" / "wmt24"


def run(capsys, *args):
    from blonde_core.cli import main

    code = main(list(map(str, args)))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- strict JSON on a corpus with empty categories ----------------------------------------------------------

REF = ["The cat sat on the mat.", "The dog ran to the park.", "However, a bird sings in the tree.",
       "The sun is bright today."]
SYSTEMS = {"a": ["The cat sat on a mat.", "The dog ran in the park.", "Moreover, a bird sang in the tree.",
                 "The sun is bright."],
           "b": ["Cat sits on the mat.", "Dog runs to park.", "Bird sings in tree.", "Sun bright today."],
           "c": ["The cat sat on the mat.", "A dog ran to the park.", "However, a bird sings in a tree.",
                 "The sun was bright today."]}


@pytest.fixture(scope="module")
def bare(tmp_path_factory):
    d = tmp_path_factory.mktemp("bare")
    (d / "ref.txt").write_text("\n".join(REF) + "\n")
    for s, lines in SYSTEMS.items():
        (d / f"{s}.txt").write_text("\n".join(lines) + "\n")
    (d / "ids.txt").write_text("doc1\ndoc1\ndoc2\ndoc2\n")
    (d / "hum.tsv").write_text("system\tdoc\tscore\na\tdoc1\t80\na\tdoc2\t70\nb\tdoc1\t40\nb\tdoc2\t30\n"
                               "c\tdoc1\t90\nc\tdoc2\t85\n")
    return d


def test_every_command_writes_strict_json_without_person_entities_or_pronouns(capsys, bare):
    corpus = ["-r", bare / "ref.txt", "-s", bare / "a.txt", bare / "b.txt", bare / "c.txt", "--docids", bare / "ids.txt"]
    runs = [["score", *corpus, "--ci", "100", "--metrics", "chrF,BLEU,TER,Otem,Utem", "--per-doc"],
            ["compare", *corpus], ["compare", *corpus, "--metric", "pronoun"],
            ["contrast", *corpus, "--pair", "a", "b"], ["human", bare / "hum.tsv"]]
    runs += [["correlate", *corpus, "--human", bare / "hum.tsv", "--level", lv, *extra]
             for lv, extra in [("system", ["--spa", "--accuracy"]), ("system", []), ("document", []),
                               ("document", ["--grouping", "item"]), ("segment", [])]]
    for argv in runs:
        code, out, err = run(capsys, *argv, "--format", "json")
        assert code == 0, (argv, err)
        data = json.loads(out)  # strict: json.loads accepts NaN, so check for it in the text as well
        assert "NaN" not in out and "Infinity" not in out, argv
        assert data
    # the pronoun category has no span anywhere: null, never NaN; dm: spans on both sides in a, none matched
    code, out, _ = run(capsys, "score", *corpus, "--format", "json")
    cats = json.loads(out)["systems"]["a"]["categories"]
    assert cats["pronoun"]["F1"] is None and cats["pronoun"]["spans"]["reference"] == 0
    assert cats["dm"]["spans"] == {"reference": 1, "system": 1, "matched": 0}
    assert cats["dm"]["R"] == 0 and cats["dm"]["P"] == 0 and cats["dm"]["F1"] == 0  # not null


# -- PDP and SPA over segments on WMT22 zh-en in the WMT layout ------------------------------------------

@pytest.fixture(scope="module")
def layout(tmp_path_factory):
    return wmt22_layout(tmp_path_factory.mktemp("wmt22"), n=60)


def _matrices(layout, systems):
    """Independently of the tool: the DA segment means and the layout's chrF, systems x segments."""
    n = len(layout["ids"])
    H = np.array([[layout["da_seg"].get(s, {}).get(k + 1, np.nan) for k in range(n)] for s in systems])
    M = np.array([layout["seg"][s] for s in systems])
    return H, M


def test_pdp_of_the_layout_chrf_equals_its_definition(capsys, layout):
    from blonde_core.analysis.stats import meta

    code, out, err = run(capsys, "correlate", "--wmt-dir", layout["root"], "--level", "segment", "--grouping", "item",
                         "--metrics", "chrF-refA", "--bootstrap", "200", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    H, M = _matrices(layout, data["systems"])
    # mt-metrics-eval's definition (stats.AverageCorrelation._enumerate_pairwise_diffs, commit 68a481a): every
    # R x R difference within a segment, gold None dropped, one Pearson, written out here on its own
    dh, dm = [], []
    for k in range(H.shape[1]):
        for i in range(H.shape[0]):
            for j in range(H.shape[0]):
                if not (math.isnan(H[i, k]) or math.isnan(H[j, k])):
                    dh.append(H[j, k] - H[i, k])
                    dm.append(M[j, k] - M[i, k])
    want = float(np.corrcoef(dh, dm)[0, 1])
    got = data["metrics"]["chrF-refA"]
    assert got["pdp"] == pytest.approx(want, abs=1e-9)
    assert meta.pdp_reference(H, M) == pytest.approx(want, abs=1e-9)
    assert got["pdp_ci"][0] < got["pdp"] < got["pdp_ci"][1]
    assert "bootstrap" in got["ci_methods"]["pdp_ci"]
    # the document level has its PDP as well (items: documents)
    code, out, _ = run(capsys, "correlate", "--wmt-dir", layout["root"], "--level", "document", "--bootstrap", "0")
    assert code == 0 and "PDP" in out


def test_spa_over_segments_beside_the_document_version(capsys, layout):
    from blonde_core.analysis.stats import meta

    code, out, err = run(capsys, "correlate", "--wmt-dir", layout["root"], "--spa", "--bootstrap", "0",
                         "--metrics", "chrF-refA,BlonDe", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["spa_segments"]["seed"] == 4 and "segments" in data["spa_segments"]["items"]
    assert "documents" in data["spa"]["items"]
    H, M = _matrices(layout, data["systems"])
    want = meta.soft_pairwise_accuracy(H, M, k=1000, seed=4)["spa"]
    assert data["metrics"]["chrF-refA"]["spa_segments"] == pytest.approx(want, abs=1e-12)
    assert data["metrics"]["BlonDe"]["spa_segments"] is not None
    assert data["metrics"]["BlonDe"]["spa"] is not None  # the documents' SPA stays, named apart


def test_fast_spa_and_pdp_interval_agree_with_the_exact_ones():
    from blonde_core.analysis.stats import meta

    rng = np.random.default_rng(7)
    x = np.round(rng.random((6, 80)), 1)  # one decimal: many exact ties
    signs = meta.permutation_signs(80, 1000, 4)
    exact = meta._pair_p(meta._pair_differences(x, np.ones_like(x, bool)), signs)[0]
    assert np.array_equal(meta.spa_p_values_complete(x, signs), exact)
    h, m = rng.normal(size=(5, 30)), rng.normal(size=(5, 30))
    ones = np.ones((1, 30))
    lo, hi = meta.bootstrap_pdp(h, m, np.vstack([ones, ones]))
    assert lo == pytest.approx(meta.pairwise_difference_pearson(h, m)["pdp"]) == pytest.approx(hi)


# -- the WMT24 task ---------------------------------------------------------------------------------------

def test_assign_ranks_as_mt_metrics_eval():
    from blonde_core.analysis.stats.task import assign_ranks

    order = ["a", "b", "c", "d"]
    # b not below a; c below b (but not a): a new cluster at c; d below nothing of c's cluster: stays
    p = {("a", "b"): 0.3, ("a", "c"): 0.2, ("b", "c"): 0.01, ("a", "d"): 0.0, ("b", "d"): 0.0, ("c", "d"): 0.4}
    assert assign_ranks(order, p) == {"a": 1, "b": 1, "c": 2, "d": 2}


def test_correlate_task_wmt24_on_the_release(capsys):
    from blonde_core.analysis.stats import meta
    from blonde_core.metric.settings import ScoreConfig
    from blonde_core.study import Study

    code, out, err = run(capsys, "correlate", "--wmt-dir", WMT24, "--task", "wmt24", "--lp", "en-cs", "--lp", "en-zh",
                         "--draws", "200")
    assert code == 0, err
    assert "en-cs:" in out and "en-zh:" in out and "SPA sys" in out and "acc_eq seg" in out and "overall" in out
    # Czech and Chinese have packs (issue 46): BlonDe is ranked beside chrF and BLEU, BlonD-d left out with the reason
    assert "task:wmt24|pairs:en-cs,en-zh" in out and "no language pack" not in out
    assert "BlonDe " in out and "note: BlonD-d left out of the ranking" in out
    code, js, err = run(capsys, "correlate", "--wmt-dir", WMT24, "--task", "wmt24", "--lp", "en-cs", "--lp", "en-zh",
                        "--draws", "200", "--format", "json")
    data = json.loads(js)
    # the gold alone defines the cells evaluated (issue 62): BlonD-d has no value on a paragraph without a
    # discourse span, so it is left out of the ranking with the reason, and the other metrics keep every cell
    st = Study.from_wmt(WMT24, "en-cs")
    t = st.task_tables(ScoreConfig(lang="cs", lowercase=False))  # the Czech pack's default, as the command's
    rated = ~np.isnan(t.human_seg)
    unscored = int((rated & np.isnan(t.metric_seg["BlonD-d"])).sum())
    assert unscored > 0 and not (rated & np.isnan(t.metric_seg["BlonDe"])).any()
    assert data["metrics"] == ["BlonDe", "chrF", "BLEU"]
    assert data["left_out"]["BlonD-d"]["en-cs"] == {"unscored": unscored, "rated": int(rated.sum()),
                                                  "why": f"no value on {unscored} of {int(rated.sum())} rated cells"}
    assert any(n.startswith("BlonD-d left out of the ranking") for n in data["notes"])
    cs = data["pairs"]["en-cs"]
    # 297 segments judged for every system: SPA's set, for every metric
    assert cs["segments_every_system"] == 297 and len(cs["systems"]) == 15 and cs["human"] == "esa"
    assert cs["cells_per_metric"] == {m: int(rated.sum()) for m in data["metrics"]}
    spa, acc = cs["statistics"]
    # the values are the task's statistics, computed again here from the pair's own tables
    assert (~np.isnan(t.human_seg).any(0)).sum() == 297
    Hr = t.human_seg
    ok = ~np.isnan(Hr).any(0)
    H, C = Hr[:, ok], t.metric_seg["chrF"][:, ok]
    assert spa["values"]["chrF"] == pytest.approx(meta.soft_pairwise_accuracy(H, C, seed=4)["spa"], abs=1e-12)
    acc_all = meta.tie_calibrated_accuracy(Hr, t.metric_seg["chrF"], "item")["acc_eq"]
    assert acc["values"]["chrF"] == pytest.approx(acc_all, abs=1e-12)
    avg = cs["average"]["values"]["chrF"]
    assert avg == pytest.approx((spa["values"]["chrF"] + acc["values"]["chrF"]) / 2)
    overall = data["overall"]["values"]["chrF"]
    both = [data["pairs"][lp]["average"]["values"]["chrF"] for lp in ("en-cs", "en-zh")]
    assert overall == pytest.approx(sum(both) / 2)
    assert 1 in set(data["overall"]["ranks"].values()) <= set(range(1, len(data["metrics"]) + 1))
    assert all(p["draws"] <= 200 for st_ in cs["statistics"] for p in st_["p"])
    # the same command twice: the same clusters (seeded draws)
    code, js2, _ = run(capsys, "correlate", "--wmt-dir", WMT24, "--task", "wmt24", "--lp", "en-cs", "--lp", "en-zh",
                       "--draws", "200", "--format", "json")
    assert js2 == js
    # a metric's value never depends on the metrics beside it: chrF's statistics and averages alike with and
    # without BlonDe and BlonD-d in the ranking
    code, js3, err = run(capsys, "correlate", "--wmt-dir", WMT24, "--task", "wmt24", "--lp", "en-cs", "--lp", "en-zh",
                         "--draws", "200", "--metrics", "chrF,BLEU", "--format", "json")
    assert code == 0, err
    alone = json.loads(js3)
    assert alone["left_out"] == {} and alone["metrics"] == ["chrF", "BLEU"]
    for lp in ("en-cs", "en-zh"):
        for a_, b_ in zip(data["pairs"][lp]["statistics"], alone["pairs"][lp]["statistics"]):
            assert a_["values"]["chrF"] == b_["values"]["chrF"] and a_["values"]["BLEU"] == b_["values"]["BLEU"]
        assert data["pairs"][lp]["average"]["values"]["chrF"] == alone["pairs"][lp]["average"]["values"]["chrF"]
    assert data["overall"]["values"]["chrF"] == alone["overall"]["values"]["chrF"]
    code, tex, _ = run(capsys, "correlate", "--wmt-dir", WMT24, "--task", "wmt24", "--lp", "en-cs", "--draws", "0",
                       "--format", "latex")
    assert code == 0 and r"\begin{tabular}" in tex and r"\textbf{" in tex


def test_task_options_are_checked(capsys):
    code, _, err = run(capsys, "correlate", "--wmt-dir", WMT24, "--task", "wmt24", "--lp", "en-de")
    assert code == 2 and "no human scores for en-de" in err
    code, _, err = run(capsys, "correlate", "--wmt-dir", WMT24, "--task", "wmt24", "--level", "document")
    assert code == 2 and "--task sets its own levels" in err
    # several pairs: score makes the release table (tests/test_release.py); the other commands take one
    code, _, err = run(capsys, "compare", "--wmt-dir", WMT24, "--lp", "en-cs", "--lp", "en-zh")
    assert code == 2 and "one language pair" in err


def test_task_wmt23_has_global_accuracy_and_pearson(capsys, layout):
    code, js, err = run(capsys, "correlate", "--wmt-dir", layout["root"], "--task", "wmt23", "--metrics",
                        "BlonDe,chrF,chrF-refA", "--draws", "100", "--format", "json")
    assert code == 0, err
    data = json.loads(js)
    stats = [s["statistic"] for s in data["pairs"]["zh-en"]["statistics"]]
    assert stats == ["pearson_sys", "pearson_seg", "acc_eq"]
    assert data["global"]["statistic"] == "accuracy"
    assert sorted(data["metrics"]) == ["BlonDe", "chrF", "chrF-refA"]
    # the layout's chrF and the tool's sentence chrF against the same refA would agree, but here the tool
    # scores against refA and refB: the two need not be equal; both are in range
    assert all(0 <= v <= 1 for v in data["global"]["values"].values())


# -- texts as mt-metrics-eval JSON Lines ------------------------------------------------------------------

def _layout_copy(tmp_path, form, systems=5, missing=False):
    d = tmp_path / form
    for sub in ("documents", "sources", "references", "system-outputs/en-cs", "metadata/en-cs"):
        (d / sub).mkdir(parents=True)
    shutil.copy(WMT24 / "documents" / "en-cs.docs", d / "documents")
    shutil.copy(WMT24 / "metadata" / "en-cs.jsonl", d / "metadata")

    def put(src, dst, field):
        lines = src.read_text(encoding="utf-8").splitlines()
        if missing and field == "hypothesis":
            lines[5] = "[No translation supplied]"
        if form == "txt":
            (dst.parent / (dst.name + ".txt")).write_text("\n".join(lines) + "\n", encoding="utf-8")
        else:
            (dst.parent / (dst.name + ".jsonl")).write_text(
                "".join(json.dumps({field: x, "lp": "en-cs"}, ensure_ascii=False) + "\n" for x in lines),
                encoding="utf-8")
    put(WMT24 / "sources" / "en-cs.txt", d / "sources" / "en-cs", "source")
    put(WMT24 / "references" / "en-cs.refA.txt", d / "references" / "en-cs.refA", "target")
    names = sorted(p.stem for p in (WMT24 / "system-outputs" / "en-cs").glob("*.txt"))[:systems]
    for n in names:
        put(WMT24 / "system-outputs" / "en-cs" / f"{n}.txt", d / "system-outputs" / "en-cs" / n, "hypothesis")
    n_lines = len((WMT24 / "documents" / "en-cs.docs").read_text().splitlines())
    (d / "metadata" / "en-cs" / f"{names[0]}.jsonl").write_text('{"model": "x"}\n' * n_lines)
    return d, names


def test_a_jsonl_folder_scores_exactly_as_the_txt_one(capsys, tmp_path):
    txt, names = _layout_copy(tmp_path, "txt")
    jl, _ = _layout_copy(tmp_path, "jsonl")
    outs = []
    for d in (txt, jl):
        code, out, err = run(capsys, "score", "--wmt-dir", d, "--metrics", "chrF,BLEU", "--ci", "100",
                             "--format", "json")
        assert code == 0, err
        outs.append(json.loads(out))
    # the canary is said for both, each naming its own folder's documents file; everything else is equal
    for o, d in zip(outs, (txt, jl)):
        left = o.pop("test_set_left_out")
        assert len(left) == 1 and left[0].startswith(str(d)) and "the canary" in left[0]
    assert outs[0] == outs[1]
    from blonde_core.study import Study

    st = Study.from_wmt(jl)
    assert st.messages["wmt"]["system metadata"] == {names[0]: ["model"]}


def test_no_translation_supplied_is_a_missing_output(capsys, tmp_path):
    d, names = _layout_copy(tmp_path, "jsonl", systems=2, missing=True)
    from blonde_core.study import Study

    st = Study.from_wmt(d)
    seg = st.corpus.systems[names[0]]
    flat = [s for doc in seg for s in doc]
    assert flat[4] == ""  # line 5 of the file (the canary is line 0)
    assert st.messages["wmt"]["no translation supplied"] == {n: 1 for n in names}
    assert any("No translation supplied" in x for x in st.messages["wmt"]["not used"])


def test_a_bad_jsonl_line_names_file_and_line(capsys, tmp_path):
    d, names = _layout_copy(tmp_path, "jsonl", systems=1)
    f = d / "system-outputs" / "en-cs" / f"{names[0]}.jsonl"
    lines = f.read_text(encoding="utf-8").splitlines()
    lines[3] = '{"target": "wrong field"}'
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "score", "--wmt-dir", d, "--metrics", "chrF")
    assert code == 2 and f"{names[0]}.jsonl" in err and "line 4" in err and '"hypothesis"' in err


def test_gold_names_of_wmt24_and_25_come_first(capsys, layout, tmp_path):
    root = tmp_path / "gold"
    shutil.copytree(layout["root"], root)
    for lv in ("seg", "sys"):
        shutil.copy(root / "human-scores" / f"zh-en.wmt-raw.{lv}.score", root / "human-scores" / f"zh-en.esa-human1.{lv}.score")
    from blonde_core.study import Study

    assert Study.from_wmt(root).wmt[2] == "esa-human1"


def test_latex_prints_a_backslash_literally():
    from blonde_core.report import latex_text

    assert latex_text(r"\input{x}") == r"\textbackslash{}input\{x\}"


def test_the_human_correlation_page_ranks_metrics_as_the_command(monkeypatch, capsys):
    """WMT24 en-cs loaded on the Data page: the Human correlation page's task table equals `correlate --task
    wmt24`'s numbers and clusters; document level has PDP with its interval."""
    monkeypatch.setenv("BLONDE_WMT_ROOTS", str(WMT24.parent))
    at = wmt_form(WMT24, "en-cs")
    assert not at.exception, [e.value for e in at.exception]
    # AppTest's switch_page runs the page file alone, without app.py's sidebar, which would set the guessed
    # language (the browser test of issue 44 checks that): set it as the sidebar does
    from blonde_core.metric.settings import ScoreConfig

    from blonde_core.study import Study

    lang = at.session_state["data"].guess_language()["language"]
    at.session_state["config"] = ScoreConfig(lang=lang, lowercase=Study.pack_lowercase(lang))  # the sidebar's
    at.switch_page("pages/correlation.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert not any("no language pack" in w.value for w in at.warning)  # Czech has a pack (issue 46)
    # two metrics compared (PERM-BOTH and Williams), no error
    assert at.selectbox(key="corr_a").value != at.selectbox(key="corr_b").value
    assert any("PERM-BOTH" in str(df.value) for df in at.dataframe)
    at.selectbox(key="corr_task_draws").set_value(200)
    at.toggle(key="corr_task_on").set_value(True).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    table = [df.value for df in at.dataframe if "average cluster" in df.value.columns][0].set_index("metric")
    code, js, err = run(capsys, "correlate", "--wmt-dir", WMT24, "--task", "wmt24", "--lp", "en-cs", "--draws", "200",
                        "--format", "json")
    data = json.loads(js)
    cs = data["pairs"]["en-cs"]
    # BlonD-d has no value on some rated paragraphs: not ranked, and the page says why (as the command's JSON)
    assert "BlonDe" in table.index and "BlonD-d" not in table.index and "BlonD-d" in data["left_out"]
    assert any("BlonD-d" in c.value and "is not ranked" in c.value for c in at.caption)
    for m in ("chrF", "BLEU", "BlonDe"):
        assert table.loc[m, "average"] == pytest.approx(cs["average"]["values"][m], abs=1e-12)
        assert table.loc[m, "average cluster"] == data["overall"]["ranks"][m]
        assert table.loc[m, "SPA (system, over segments)"] == pytest.approx(cs["statistics"][0]["values"][m], abs=1e-12)
    assert any("in the first cluster" in m.value for m in at.markdown)
    at.session_state["corr_level"] = "document"
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    corr = [df.value for df in at.dataframe if "PDP" in df.value.columns][0].set_index("metric")
    assert corr.loc["chrF", "PDP_low"] <= corr.loc["chrF", "PDP"] <= corr.loc["chrF", "PDP_high"]


def test_sacrebleus_metrics_segment_by_segment_are_its_sentence_scores():
    """Sentence chrF, sentBLEU (effective order) and TER of each segment, from the cached statistics, equal
    sacrebleu's sentence_* functions - in Chinese, with its tokenizer and TER's Asian support."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    from blonde_core.metric.settings import ScoreConfig
    from blonde_core.study import Study

    full = Study.from_wmt(WMT24, "en-zh")
    # twelve paragraphs: TER into Chinese, normalised with Asian support, costs about a second a paragraph
    ref = [s for d in full.corpus.references["refA"] for s in d][:410:34]
    hyp = [s for d in full.corpus.systems["GPT-4"] for s in d][:410:34]
    st = Study.from_texts(ref, {"GPT-4": hyp})
    segs = st.standard_segments(ScoreConfig(lang="zh"), ("chrF", "BLEU", "TER"), ["GPT-4"])
    # TER into Chinese as sacrebleu recommends it: normalised, with Asian support (issue 62)
    bleu, chrf, ter = BLEU(effective_order=True, trg_lang="zh"), CHRF(), TER(normalized=True, asian_support=True)
    for k in (0, 1, 5, 11):
        assert segs["BLEU"]["GPT-4"][k] == pytest.approx(bleu.sentence_score(hyp[k].strip(), [ref[k].strip()]).score,
                                                         abs=1e-9)
        assert segs["chrF"]["GPT-4"][k] == pytest.approx(chrf.sentence_score(hyp[k].strip(), [ref[k].strip()]).score,
                                                         abs=1e-9)
        assert segs["-TER"]["GPT-4"][k] == pytest.approx(-ter.sentence_score(hyp[k].strip(), [ref[k].strip()]).score,
                                                         abs=1e-9)


@pytest.mark.unit
def test_task_evaluates_every_metric_on_the_gold_cells():
    """Hand-made tables: a metric with a missing cell is left out with the count; the others' values are the
    same as in a ranking without it (the cells come from the gold alone)."""
    from blonde_core.analysis.stats.task import PairTables, run_task

    rng = np.random.default_rng(7)
    H = rng.normal(size=(5, 40))
    H[0, :5] = np.nan  # cells the humans did not rate
    good = {"a": H + rng.normal(scale=0.5, size=H.shape), "b": H + rng.normal(scale=1.0, size=H.shape)}
    holey = H + rng.normal(scale=0.2, size=H.shape)
    holey[1, 10:13] = np.nan  # three rated cells it cannot score
    holey[0, :5] = np.nan  # unrated cells do not count against it
    with_it = run_task([PairTables("xx-yy", list("ABCDE"), H, {**good, "c": holey})], "wmt24", k=100, permutations=50)
    without = run_task([PairTables("xx-yy", list("ABCDE"), H, dict(good))], "wmt24", k=100, permutations=50)
    assert with_it["metrics"] == ["a", "b"]
    assert with_it["left_out"] == {"c": {"xx-yy": {"unscored": 3, "rated": 195, "why": "no value on 3 of 195 rated cells"}}}
    assert with_it["pairs"]["xx-yy"]["cells_per_metric"] == {"a": 195, "b": 195}
    for x, y in zip(with_it["pairs"]["xx-yy"]["statistics"], without["pairs"]["xx-yy"]["statistics"]):
        assert x["values"] == y["values"] and x["ranks"] == y["ranks"]
    assert with_it["overall"] == without["overall"]



@pytest.mark.pipeline
def test_ter_into_chinese_is_normalised_with_asian_support():
    """sacrebleu applies asian_support only with normalized: the corpus TER of a good system into Chinese is
    sacrebleu's with both options (said in the signature) and well below 100, where unnormalised TER counts an
    unspaced paragraph as one word. Its cost (a second a paragraph) keeps it out of the defaults for zh/ja/ko."""
    from sacrebleu.metrics import TER

    from blonde_core.metric.settings import ScoreConfig
    from blonde_core.study import Study

    st = Study.from_wmt(WMT24, "en-zh")
    ref = [s.strip() for d in st.corpus.references["refA"] for s in d][1:21]  # about a second each (normalised)
    hyp = [s.strip() for d in st.corpus.systems["GPT-4"] for s in d][1:21]
    want = TER(normalized=True, asian_support=True).corpus_score(hyp, [ref]).score
    plain = TER().corpus_score(hyp, [ref]).score
    assert want < 60 < 100 < plain
    from blonde_core.analysis.standard import _metric

    ter = _metric("TER", "zh")
    assert ter.corpus_score(hyp, [ref]).score == pytest.approx(want, abs=1e-9)
    sig = ter.get_signature().format()
    assert "norm:yes" in sig and "asian:yes" in sig
    from blonde_core.analysis.standard import sacrebleu_options

    assert sacrebleu_options("TER", "de") == {}  # other languages as before
    assert "TER" not in st.default_standard_metrics() and st.ter_left_out()
    assert "TER" in Study.from_wmt(WMT24, "en-de").default_standard_metrics() or \
        Study.from_wmt(WMT24, "en-de").n_segments() > 20_000


MME = json.loads((Path(__file__).parent / "fixtures" / "mme_wmt24.json").read_text(encoding="utf-8"))


@pytest.mark.pipeline
@pytest.mark.parametrize("lp", ["en-ja", "en-zh"])
def test_task_equals_mt_metrics_eval_on_wmt24(lp):
    """Differential test against numbers computed by mt-metrics-eval's own functions (tests/fixtures/mme_wmt24.json,
    its commit inside): WMT24's SPA = WMT25's 1 - PCE (stats.PairwiseConfidenceError, seed 4, 1000 permutations) and
    acc_eq with item grouping (stats.KendallWithTiesOpt, acc23, sample_rate 1.0), on our task tables; BlonD-d left
    out with the same count of unscored rated cells; correlate --spa's segment SPA the same numbers."""
    from blonde_core.analysis.stats.task import PairTables, run_task
    from blonde_core.metric.settings import ScoreConfig
    from blonde_core.study import Study

    want = MME[lp]
    st = Study.from_wmt(WMT24, lp)
    t = st.task_tables(ScoreConfig(lang=lp.split("-")[1], lowercase=False), ["chrF", "BLEU"], None)
    assert t.systems == want["systems"]
    rated = ~np.isnan(t.human_seg)
    assert int(rated.sum()) == want["rated_cells"]
    for task, name in (("wmt24", "spa"), ("wmt25", "pce")):
        out = run_task([PairTables(lp, t.systems, t.human_seg, dict(t.metric_seg))], task, k=0, permutations=1000)
        stats = {s["statistic"]: s["values"] for s in out["pairs"][lp]["statistics"]}
        assert out["left_out"]["BlonD-d"][lp]["unscored"] == int((rated & np.isnan(t.metric_seg["BlonD-d"])).sum())
        for m in ("BlonDe", "chrF", "BLEU"):
            assert stats[name][m] == pytest.approx(want["pce"][m], abs=1e-9), (task, m)
            assert stats["acc_eq"][m] == pytest.approx(want["acc_eq"][m], abs=1e-9), (task, m)
    assert out["pairs"][lp]["segments_every_system"] == want["pce_columns"]


@pytest.mark.unit
def test_williams_equals_mt_metrics_eval():
    """Williams' p as mt-metrics-eval's WilliamsSigDiff returns it (one-sided, t.sf(|t|)), from the fixture's
    system-level correlations."""
    from blonde_core.analysis.stats.correlation import williams_test

    for lp in ("en-ja", "en-zh"):
        for case in MME[lp]["williams"]["tests"]:
            t, p = williams_test(case["r2"], case["r1"], case["r12_metric1_metric2"], case["n"])
            assert p == pytest.approx(case["p_one_sided"], abs=1e-9), (lp, case["metric1"], case["metric2"])


@pytest.mark.pipeline
def test_correlate_spa_over_segments_equals_mt_metrics_eval(capsys):
    """correlate --spa: SPA over segments draws its permutations over the segments judged for every system, as
    mt-metrics-eval's PairwiseConfidenceError does (equal to its value on WMT24 en-ja)."""
    esa = [WMT24 / "human" / "esa_generalMT2024_wave2.csv", WMT24 / "human" / "esa_generalMT2024_wave3.csv"]
    code, js, err = run(capsys, "correlate", "--wmt-dir", WMT24, "--lp", "en-ja", "--human", *esa, "--level", "system",
                        "--spa", "--metrics", "BlonDe,BlonD-d,chrF,BLEU", "--bootstrap", "0", "--format", "json")
    assert code == 0, err
    data = json.loads(js)
    assert data["spa_segments_count"] == MME["en-ja"]["pce_columns"]
    for m in ("BlonDe", "chrF", "BLEU"):
        assert data["metrics"][m]["spa_segments"] == pytest.approx(MME["en-ja"]["pce"][m], abs=1e-9), m
    # BlonD-d has no value on some rated segments: no SPA over segments, said
    assert data["metrics"]["BlonD-d"]["spa_segments"] is None and data["metrics"]["BlonD-d"]["spa_segments_note"]


@pytest.mark.pipeline
@pytest.mark.slow
def test_task_clusters_do_not_move_with_the_seed():
    """WMT24 en-ja: the clusters of each statistic and of the average are the same under three seeds (acc_eq's
    early stop placed as mt-metrics-eval's: a pair never reversed runs all 1,000 draws, so the average's null
    distribution repeats no block)."""
    from blonde_core.analysis.stats.task import PairTables, run_task
    from blonde_core.metric.settings import ScoreConfig
    from blonde_core.study import Study

    t = Study.from_wmt(WMT24, "en-ja").task_tables(ScoreConfig(lang="ja", lowercase=False), ["chrF", "BLEU"], None)
    runs = [run_task([PairTables("en-ja", t.systems, t.human_seg, dict(t.metric_seg))], "wmt24", k=1000, seed=s)
            for s in (1, 2, 3)]
    for r in runs[1:]:
        assert r["overall"]["ranks"] == runs[0]["overall"]["ranks"]
        for a, b in zip(r["pairs"]["en-ja"]["statistics"], runs[0]["pairs"]["en-ja"]["statistics"]):
            assert a["ranks"] == b["ranks"]
    acc = runs[0]["pairs"]["en-ja"]["statistics"][1]
    assert acc["statistic"] == "acc_eq"
    assert all(p["draws"] == 1000 for p in acc["p"] if p["p"] == 0.0)  # never stopped early at p = 0


# WMT25's error-span scoring (wmt-conference/wmt25-mteval scripts/scoring/task2/scoring_esa.py at 74e123c): its
# get_char_f1 run on this hand-made fixture gave precision 0.5, recall 0.4027777777777778, F1 0.4461538461538462
# (the first segment alone: 0.5, 0.55, 0.5238095238095238; no error on either side: 1, 1, 1)
SPAN_FIXTURE = {
    "lens": [20, 15, 30, 10, 12],
    "gold": [[(0, 5, "major"), (10, 15, "minor")], [(2, 8, "minor")],
             [(0, 10, "major"), (5, 12, "major"), ("missing", "missing", "minor")], [], [(1, 4, "critical")]],
    "pred": [[(0, 5, "minor"), (12, 18, "minor")], [], [(3, 10, "major"), (20, 25, "minor")], [(0, 2, "minor")],
             [(1, 4, "undecided"), (2, 6, "major")]],
}


@pytest.mark.unit
def test_span_f1_equals_the_wmt25_scoring_script():
    from blonde_core.analysis.spanf1 import char_f1

    def errs(xs):
        return [{"start": a, "end": b, "severity": s} for a, b, s in xs]
    segs = [(n, errs(g), errs(p)) for n, g, p in zip(SPAN_FIXTURE["lens"], SPAN_FIXTURE["gold"], SPAN_FIXTURE["pred"])]
    got = char_f1(segs)
    assert (got["precision"], got["recall"], got["f1"]) == pytest.approx((0.5, 0.4027777777777778, 0.4461538461538462),
                                                                         abs=1e-12)
    assert (got["matched"], got["gold_chars"], got["pred_chars"]) == (14.5, 36.0, 29.0)
    one = char_f1(segs[:1])
    assert (one["precision"], one["recall"], one["f1"]) == pytest.approx((0.5, 0.55, 0.5238095238095238), abs=1e-12)
    assert char_f1([(5, [], [])])["f1"] == 1.0
    # the gold and predicted sides swapped: precision and recall swap, F1 stays
    back = char_f1([(n, p, g) for n, g, p in segs])
    assert back["f1"] == pytest.approx(got["f1"]) and back["precision"] == pytest.approx(got["recall"])


@pytest.mark.pipeline
def test_two_raters_of_wmt24_esa_agree_as_measured(capsys):
    """WMT24's ESA waves have segments judged by two raters: their agreement (span F1, score correlation) is in
    correlate's JSON, recomputed here from the rows the reader kept."""
    from blonde_core.analysis.spanf1 import char_f1

    esa = [WMT24 / "human" / "esa_generalMT2024_wave2.csv", WMT24 / "human" / "esa_generalMT2024_wave3.csv"]
    code, js, err = run(capsys, "correlate", "--wmt-dir", WMT24, "--lp", "en-cs", "--human", *esa, "--level", "system",
                        "--metrics", "chrF", "--bootstrap", "0", "--format", "json")
    assert code == 0, err
    two = json.loads(js)["annotator_agreement"]
    assert two["items"] > 100 and 0 < two["span_f1"]["f1"] < 1 and -1 <= two["pearson"] <= 1
    assert "two raters on" in err
    from blonde_core.study import Study

    st = Study.from_wmt(WMT24, "en-cs").with_files(human=[str(p) for p in esa])
    hs = st.human
    keys = [k for k, by in hs.rater_scores.items() if len(by) >= 2]
    assert len(keys) == two["items"]
    segs = []
    for k in keys:
        a, b = sorted(hs.rater_scores[k])[:2]
        segs.append(([e for e in hs.error_spans.get(k, []) if e["rater"] == a],
                     [e for e in hs.error_spans.get(k, []) if e["rater"] == b]))
    assert char_f1(segs)["f1"] == pytest.approx(two["span_f1"]["f1"], abs=1e-12)
