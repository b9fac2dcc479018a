import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs the same hypothesis examples every time (a red CI must mean a real change);
# run locally without CI=true to explore new examples.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))
TED = SHARED / "data" / "ted-zhen"
SAMPLE = ROOT / "sample_data"
SAMPLE_SYSTEMS = ["consistent", "names", "tense", "pronouns", "markers"]

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Every test run gets its own annotation cache: never the user's.
_CACHE = tempfile.mkdtemp(prefix="blonde-test-cache-")
os.environ["BLONDE_CACHE_DIR"] = _CACHE


@pytest.fixture(scope="session")
def ted():
    assert (TED / "refs" / "ref.txt").exists(), f"shared TED data missing at {TED}"
    return TED


@pytest.fixture(scope="session")
def ted_systems(ted):
    return sorted((ted / "systems").glob("*.txt"))


@pytest.fixture(scope="session")
def cache_dir():
    return _CACHE


def sample_paths():
    return [str(SAMPLE / f"{s}.txt") for s in SAMPLE_SYSTEMS]


WMT = SHARED / "data" / "wmt22-zhen"
WMT_SUBSET_SYSTEMS = ["JDExploreAcademy", "Online-A", "Online-W", "DLUT", "Online-Y"]


def wmt22_subset(folder: Path, n: int = 80) -> dict:
    """The first n segments of WMT22 zh-en (refA, refB, five systems, document ids) and the real DA
    rows of those segments, written to folder: {name: path, "docids": path, "da": path, "rows": [...]}."""
    out = {}
    for name, src in [("refA", WMT / "refs" / "refA.txt"), ("refB", WMT / "refs" / "refB.txt")] + \
            [(s, WMT / "systems" / f"{s}.txt") for s in WMT_SUBSET_SYSTEMS]:
        out[name] = folder / f"{name}.txt"
        out[name].write_text("".join(src.read_text(encoding="utf-8").splitlines(True)[:n]), encoding="utf-8")
    out["docids"] = folder / "docids.txt"
    out["docids"].write_text("".join((WMT / "docids.blk10.txt").read_text().splitlines(True)[:n]))
    lines = (WMT / "human" / "ad-seg-scores-zh-en.csv").read_text().splitlines()
    out["rows"] = [r.split() for r in lines[1:] if r.strip() and int(r.split()[1]) <= n]
    out["da"] = folder / "ad-seg-scores-zh-en.csv"
    out["da"].write_text("\n".join([lines[0]] + [" ".join(r) for r in out["rows"]]) + "\n")
    return out


def wmt22_layout(folder: Path, n: int = 80, systems=WMT_SUBSET_SYSTEMS, lp: str = "zh-en") -> dict:
    """The first n segments of WMT22 zh-en written in the WMT metrics-task layout (mt-metrics-eval):
    documents (the blocks of ten, domain "news" for even blocks, "social" for odd), source, refA and
    refB, the systems (and refB again as a human system output), human-scores from the real DA rows
    (seg level: mean RAW.SCR per system and line, None where unrated; sys level: the release's
    system scores), and metric-scores of chrF against refA computed here with sacrebleu (seg: sentence
    chrF per segment; sys: corpus chrF).  Returns {"root", "seg": {system: [chrF]}, "sys": {system: chrF},
    "da_seg": {system: {line: mean}}, "da_sys": {system: score}}."""
    from sacrebleu.metrics import CHRF

    def head(p):
        return p.read_text(encoding="utf-8").splitlines()[:n]

    root = folder / "wmt22"
    for sub in ("documents", "sources", "references", f"system-outputs/{lp}", "human-scores", f"metric-scores/{lp}"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    ids = head(WMT / "docids.blk10.txt")
    (root / "documents" / f"{lp}.docs").write_text(
        "".join(f"{'news' if int(d[5:]) % 2 == 0 else 'social'} {d}\n" for d in ids))
    (root / "sources" / f"{lp}.txt").write_text("\n".join(head(WMT / "source.zh.txt")) + "\n", encoding="utf-8")
    texts = {"refA": head(WMT / "refs" / "refA.txt"), "refB": head(WMT / "refs" / "refB.txt")}
    for r in ("refA", "refB"):
        (root / "references" / f"{lp}.{r}.txt").write_text("\n".join(texts[r]) + "\n", encoding="utf-8")
    for s in systems:
        texts[s] = head(WMT / "systems" / f"{s}.txt")
    for s in [*systems, "refB"]:
        (root / "system-outputs" / lp / f"{s}.txt").write_text("\n".join(texts[s]) + "\n", encoding="utf-8")
    # human scores: the real DA rows of these lines
    da_seg: dict = {}
    for line in (WMT / "human" / "ad-seg-scores-zh-en.csv").read_text().splitlines()[1:]:
        f = line.split()
        if len(f) < 3:
            continue
        name = "refB" if f[0].startswith("HUMAN-B") else f[0].rsplit(".", 1)[0]
        sid = int(f[1])
        if name in texts and name != "refA" and sid <= n:
            da_seg.setdefault(name, {}).setdefault(sid, []).append(float(f[2]))
    da_seg = {s: {k: sum(v) / len(v) for k, v in d.items()} for s, d in da_seg.items()}
    with open(root / "human-scores" / f"{lp}.wmt-raw.seg.score", "w") as out:
        for s in [*systems, "refB"]:
            for k in range(1, n + 1):
                v = da_seg.get(s, {}).get(k)
                out.write(f"{s}\t{'None' if v is None else repr(v)}\n")
    da_sys = {}
    for line in (WMT / "human" / "ad-sys-scores-zh-en.csv").read_text().splitlines()[1:]:
        f = line.split()
        if len(f) >= 4:
            name = "refB" if f[3].startswith("HUMAN-B") else f[3].rsplit(".", 1)[0]
            if name in texts and name != "refA":
                da_sys[name] = float(f[0])
    (root / "human-scores" / f"{lp}.wmt-raw.sys.score").write_text("".join(f"{s} {v!r}\n" for s, v in da_sys.items()))
    # a metric computed here: chrF against refA, per segment and per system
    chrf = CHRF()
    seg, sysv = {}, {}
    for s in [*systems, "refB"]:
        seg[s] = [chrf.sentence_score(h, [r]).score for h, r in zip(texts[s], texts["refA"])]
        sysv[s] = chrf.corpus_score(texts[s], [texts["refA"]]).score
    with open(root / "metric-scores" / lp / "chrF-refA.seg.score", "w") as out:
        for s in seg:
            out.writelines(f"{s} {v!r}\n" for v in seg[s])
    (root / "metric-scores" / lp / "chrF-refA.sys.score").write_text("".join(f"{s} {v!r}\n" for s, v in sysv.items()))
    return {"root": root, "seg": seg, "sys": sysv, "da_seg": da_seg, "da_sys": da_sys, "ids": ids}


# -- test tiers (issue 45): `bash scripts/test.sh --fast` runs unit and pipeline tests, CI runs everything ------
# unit: no spaCy pipeline, no server (formulas, statistics, readers, the fake annotator); pipeline: the real
# pipelines and analysers on real data; app: Streamlit's AppTest; browser: Chromium driving a real server;
# slow: the few that take tens of seconds (the whole of TED or WMT, worker processes, timing-sensitive ones).
UNIT_FILES = {"test_formula.py", "test_stats.py", "test_meta.py", "test_properties.py", "test_render.py",
              "test_architecture.py", "test_readers.py", "test_cache.py"}
SLOW = {
    "test_real_pipeline.py", "test_bench.py", "test_cluster.py", "test_server.py",
}
SLOW_TESTS = {
    "test_a_worker_killed_mid_batch_is_replaced_and_the_batch_retried",
    "test_a_worker_killed_while_the_overview_computes_leaves_its_numbers_equal_to_the_cli",
    "test_correlate_task_wmt24_on_the_release", "test_the_human_correlation_page_ranks_metrics_as_the_command",
    "test_a_zip_bomb_is_refused_while_it_inflates_with_little_memory",
    "test_wmt22_de_fr_same_json_from_the_text_files_and_from_the_xml", "test_counts_agree_with_highlighted_spans_on_ted",
    "test_a_one_megabyte_cap_holds_scoring_ted_and_wmt22", "test_correlate_against_refB_without_ref",
    # whole WMT24 pairs, a WMT folder read twice, every TED bucket: 13-18 s each (the fast tier stays under 3 min)
    "test_bleu_follows_the_target_language", "test_a_jsonl_folder_scores_exactly_as_the_txt_one",
    "test_a_domain_scores_as_its_documents_loaded_alone", "test_correlate_en_ja_against_esa",
    "test_buckets_on_ted_add_up",
    # 10-80 s each on WMT24 (raters' agreement, mt-metrics-eval's fixtures, TER on whole paragraphs, the gallery's
    # pages, Chinese names, en-hi with and without its pack, correlate on TED): the full suite and CI run them
    "test_two_raters_of_wmt24_esa_agree_as_measured", "test_task_equals_mt_metrics_eval_on_wmt24",
    "test_ter_into_chinese_is_normalised_with_asian_support", "test_the_choice_outlives_a_visit_to_another_page",
    "test_chinese_names_count_without_word_boundaries",
    "test_en_hi_scores_with_its_pack_and_without_one_names_the_language", "test_correlate_command",
    # 11-160 s each, about half the fast tier (--durations=0, 2026-11-27): whole WMT24 en-zh with its ESA waves,
    # mt-metrics-eval's segment-level PA, the MQM TSV through score, whole-TED re-segmentation and chrF without a
    # pack on the command line; their modules keep their quicker tests in the fast tier
    "test_esa_spans_without_a_position_are_whole_segment_errors",
    "test_correlate_spa_over_segments_equals_mt_metrics_eval",
    "test_score_input_mqm", "test_compare_chrf_without_a_pack_on_the_command_line",
    "test_entities_lowercasing_hides_are_found_as_written",
    "test_judgments_of_a_re_segmented_document_leave_what_pairs_segments",
    "test_document_level_sacrebleu_is_sacrebleu_on_whole_documents", "test_off_by_default_and_the_package_scores_stay",
    # 3-6 s each, uncontended (--durations=25): the fast tier 3 min 8 s -> under 3 min with them out
    "test_real_references_raise_no_reference_warning", "test_the_intervals_equal_an_independent_computation_on_ted",
    "test_the_significance_page_tests_chrf_without_a_pack", "test_apt_command_aligns_automatically_with_eflomal",
    "test_the_drill_down_counts_as_the_score_and_names_the_taggers_misses",
    "test_joined_sentences_score_as_the_aligned_original", "test_corrupt_cache_file_is_rebuilt",
    "test_truncated_cache_file_is_rebuilt", "test_spans_command_on_a_wmt_folder",
    "test_bad_records_are_annotated_again",
    "test_a_release_run_says_each_pairs_damage",
}


def wmt_form(folder, lp: str | None = None, at=None):
    """An AppTest session (a new one unless given) whose Data page's WMT form loads folder with the language-pair
    box set to lp: the AppTest, after the form's run (errors are the caller's to check)."""
    from streamlit.testing.v1 import AppTest

    if at is None:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
        at.run()
        at.switch_page("pages/data.py").run()
    at.text_input(key="up_wmt_dir").set_value(str(folder))
    if lp is not None:
        at.text_input(key="up_wmt_lp").set_value(lp)
    at.button(key="FormSubmitter:wmt-Load this folder").click().run()
    return at


def pytest_collection_modifyitems(config, items):
    import inspect

    for item in items:
        name = item.path.name
        if name.startswith("test_browser"):
            item.add_marker(pytest.mark.browser)
            continue
        fn = getattr(item, "function", None)
        try:
            src = inspect.getsource(fn) if fn is not None else ""
        except (OSError, TypeError):
            src = ""
        if name == "test_app.py" or "AppTest" in src or "wmt_form(" in src:
            item.add_marker(pytest.mark.app)
        elif name in UNIT_FILES:
            item.add_marker(pytest.mark.unit)
        else:
            item.add_marker(pytest.mark.pipeline)
        if name in SLOW or item.originalname in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
