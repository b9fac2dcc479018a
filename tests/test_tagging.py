"""Gold spans, the `spans` command and the measured tagging that travels with every category's number."""
import json
import sys

import pytest

from blonde_core.analysis.tagging import is_weak, line_spans, match, tagging_block, tagging_table
from blonde_core.cli import main
from blonde_core.lang import available, load_pack
from blonde_core.lang.gold import GoldError, GoldSpan, check_file, gold_path, load_gold, parse
from conftest import ROOT, SAMPLE, SHARED

DATA = SHARED / "data"
WMT24 = DATA / "wmt24"


# --- the gold files' format --------------------------------------------------------------------------------

@pytest.mark.unit
def test_parse_nested_marks_and_traps():
    text, spans, traps = parse("Včera [[jsem [[ho|pronoun|on (he)]] viděl|tense|minulý čas]] u {{#Praha|entity|hashtag}} "
                               "a [[Petr Novák|entity|person]].")
    assert text == "Včera jsem ho viděl u #Praha a Petr Novák."
    assert [(s.category, s.label, text[s.start:s.end]) for s in spans] == [
        ("tense", "minulý čas", "jsem ho viděl"), ("pronoun", "on (he)", "ho"), ("entity", "person", "Petr Novák")]
    assert [(t.category, t.label, t.text) for t in traps] == [("entity", "hashtag", "#Praha")]
    # a bar inside the span's text stays part of it (the last two fields are the labels)
    assert parse("a|b [[x|y|tense|VBD]] c")[0] == "a|b x|y c"


@pytest.mark.unit
@pytest.mark.parametrize("bad", ["[[open|tense|VBD", "closed]]", "[[x|nocat|A]]", "[[x|tense]]", "{{x|dm|y]]"])
def test_parse_refuses_broken_marks(bad):
    with pytest.raises(GoldError):
        parse(bad)


@pytest.mark.unit
def test_check_file_names_each_problem(tmp_path):
    f = tmp_path / "gold.jsonl"
    rows = [{"id": "a", "file": "x.txt", "line": 0, "marked": "[[He|pronoun|masculine]] [[went|tense|VBZZ]] ."},
            {"id": "b", "file": "x.txt", "line": 0, "marked": "[[ He|pronoun|masculine]]"}]
    f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    (tmp_path / "x.txt").write_text("He went .\n", encoding="utf-8")
    problems = check_file("en", tmp_path, f)
    assert any("'VBZZ'" in p for p in problems)  # not a class of the pack
    assert any("labelled twice" in p for p in problems)
    assert any("spaces at its edge" in p for p in problems)
    assert any("text differs" in p for p in problems)  # row b's text is not line 0


@pytest.mark.pipeline
@pytest.mark.parametrize("lang", [x for x in available() if gold_path(x).is_file()])
def test_every_gold_file_is_sound_and_read_from_its_source(lang, tmp_path):
    """Each pack's gold parses, uses the pack's classes and is, mark for mark removed, the line of the shared data
    it names; and it is big enough to measure (lang/GOLD.md: at least 60 paragraphs).  Icelandic's source, WMT24
    en-is, is not in the shared data: it is read from the fetched release (tests/wmt24_is.py), or the test skips
    saying where it looked."""
    data = DATA
    if lang == "is":
        from wmt24_is import WHERE, data_root

        data = data_root(tmp_path)
        if data is None:
            pytest.skip(WHERE)
    assert check_file(lang, data) == []
    items = load_gold(lang)
    assert len(items) >= 60
    assert all(it.get("by") for it in items)


# --- matching, hand-worked ---------------------------------------------------------------------------------

@pytest.mark.unit
def test_match_and_table_hand_worked():
    pack = load_pack("en")
    g = [GoldSpan(0, 2, "pronoun", "masculine", "He"), GoldSpan(3, 7, "tense", "VBD", "went"),
         GoldSpan(11, 16, "entity", "PERSON", "Paris")]
    tool = [{"start": 0, "end": 2, "category": "pronoun", "class": "masculine", "text": "He"},
            {"start": 3, "end": 7, "category": "tense", "class": "VBN", "text": "went"},   # matched, wrong class
            {"start": 11, "end": 16, "category": "entity", "class": "NON-PERSON", "text": "Paris"},
            {"start": 17, "end": 20, "category": "entity", "class": "PERSON", "text": "xyz"}]  # an extra
    assert [(a.text, b["text"]) for a, b in match(g[1:2], tool[1:2])] == [("went", "went")]
    item = {"id": "x", "spans": g, "traps": [GoldSpan(17, 20, "entity", "hashtag", "xyz")]}
    t = tagging_table([item], [tool], pack)
    e = t["categories"]["entity"]
    assert (e["gold"], e["tool"], e["matched"], e["same_class"], e["trap_hits"]) == (1, 2, 1, 0, 1)
    assert e["precision"] == 0.5 and e["recall"] == 1.0 and e["class_accuracy"] == 0.0
    assert t["categories"]["tense"]["class_accuracy"] == 0.0
    assert t["confusions"]["tense"] == {"VBD -> VBN": 1}
    assert t["categories"]["pronoun"]["precision"] == 1.0
    # per class: NON-PERSON's tool span matched a PERSON gold span: the class's precision counts it
    assert e["classes"]["NON-PERSON"]["precision"] == 1.0 and e["classes"]["PERSON"]["recall"] == 1.0
    assert e["classes"]["PERSON"]["precision"] == 0.0  # its one tool span (xyz) matched nothing
    assert [m["text"] for m in t["extras"]] == ["xyz"]


@pytest.mark.unit
def test_the_bar():
    assert is_weak(None)
    assert is_weak({"precision": 0.95, "recall": 0.95, "gold": 29})
    assert is_weak({"precision": 0.89, "recall": 0.95, "gold": 100})
    assert is_weak({"precision": 0.95, "recall": 0.79, "gold": 100})
    assert not is_weak({"precision": 0.90, "recall": 0.80, "gold": 30})
    measured = {"measured": "2026-11-27", "by_case": {"lc": {"entity": {"precision": 0.5, "recall": 0.9, "gold": 40}},
                                                      "as-written": {"entity": {"precision": 0.95, "recall": 0.9,
                                                                                "gold": 40}}}}
    lc = tagging_block(measured, "en", ("tense", "entity"), True)["categories"]
    assert lc["entity"]["marked"] and lc["tense"]["marked"]  # tense: never measured
    assert "P 0.50 R 0.90 on 40 gold spans" in lc["entity"]["note"]
    assert not tagging_block(measured, "en", ("entity",), False)["categories"]["entity"]["marked"]


# --- spans of real text through the real analysers -----------------------------------------------------------

@pytest.mark.pipeline
def test_line_spans_offsets_are_the_input_lines():
    """Offsets index the line as given: leading white space kept, and under lowercasing a letter whose lower
    case is longer (İ) does not shift what follows."""
    from blonde_core.study import Engine, ScoreConfig, Study

    lines = ["   He told İstanbul's mayor that she would come, but it rained.", "", "Mary went to Paris."]
    rows = Study.spans_of_lines(lines, ScoreConfig(lang="en", lowercase=True), Engine(cache_mode="off", pool="inline"))
    assert rows, "no span found"
    for r in rows:
        assert lines[r["line"]][r["start"]:r["end"]] == r["text"]
    got = {(r["line"], r["text"], r["category"]) for r in rows}
    assert (0, "He", "pronoun") in got and (0, "she", "pronoun") in got and (0, "but", "dm") in got
    assert (0, "rained", "tense") in got and (2, "went", "tense") in got
    assert not any(r["line"] == 1 for r in rows)


def spans_cli(capsys, *argv):
    assert main(["spans", *argv]) == 0
    return capsys.readouterr().out


@pytest.mark.pipeline
def test_spans_command_plain_file_and_tsv(capsys, tmp_path):
    lines = (SAMPLE / "reference.txt").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(x) for x in spans_cli(capsys, "-i", str(SAMPLE / "reference.txt"), "--lang", "en").splitlines()]
    assert {r["category"] for r in rows} == {"tense", "pronoun", "entity", "dm"}
    assert set(rows[0]) == {"line", "start", "end", "text", "category", "class"}
    for r in rows:
        assert lines[r["line"]][r["start"]:r["end"]] == r["text"]
    tsv = spans_cli(capsys, "-i", str(SAMPLE / "reference.txt"), "--lang", "en", "--format", "tsv", "-c", "pronoun")
    head, *body = tsv.splitlines()
    assert head.split("\t") == ["line", "start", "end", "category", "class", "text"]
    assert body and all(b.split("\t")[3] == "pronoun" for b in body)
    assert len(body) == sum(r["category"] == "pronoun" for r in rows)


@pytest.mark.pipeline
def test_spans_command_on_a_wmt_folder(capsys):
    """--wmt-dir with --text: line numbers are the file's (the canary is line 0), offsets into that line."""
    out = spans_cli(capsys, "--wmt-dir", str(WMT24), "--lp", "en-cs", "--text", "refA", "--lang", "cs")
    rows = [json.loads(x) for x in out.splitlines()]
    lines = (WMT24 / "references" / "en-cs.refA.txt").read_text(encoding="utf-8").split("\n")
    assert len({r["line"] for r in rows}) > 800  # most paragraphs have a span; line 0 is the canary
    for r in rows[::50]:
        assert lines[r["line"]][r["start"]:r["end"]] == r["text"]
    assert main(["spans", "--wmt-dir", str(WMT24), "--lp", "en-cs", "--text", "nobody"]) == 2
    assert "no text 'nobody'" in capsys.readouterr().err
    assert main(["spans", "--wmt-dir", str(WMT24), "--lp", "en-cs"]) == 2  # which text?
    assert main(["spans"]) == 2
    assert "give either -i FILE or --wmt-dir" in capsys.readouterr().err


# --- the measured accuracy travels with the numbers ---------------------------------------------------------

@pytest.mark.pipeline
@pytest.mark.parametrize("lang", [x for x in available() if gold_path(x).is_file()])
def test_stored_tagging_is_what_the_gold_measures_now(lang):
    """lang/<code>/tagging.json (shown beside every number) equals what bench/check_tagging.py measures from the
    gold with the real analyser now: a change to a pack, an analyser or the gold that moves a figure fails here
    until the figures are written again (bench/check_tagging.py --write)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from check_tagging import measure

    stored = load_pack(lang).tagging
    assert stored, f"{lang}: no tagging.json; run bench/check_tagging.py --write"
    t = measure(lang)
    case = "lc" if t["lowercase"] else "as-written"
    for c, cell in stored["by_case"][case].items():
        now = t["categories"][c]
        assert (cell["gold"], cell["tool"], cell["matched"], cell["same_class"]) == \
            (now["gold"], now["tool"], now["matched"], now["same_class"]), (lang, c)


@pytest.mark.pipeline
def test_score_json_text_and_csv_carry_the_marks(capsys):
    """A category below the bar (or never measured) is marked in JSON (warnings and the tagging block), the text
    table's header (†, with the figures under it) and the CSV's columns."""
    from blonde_core.study import ScoreConfig, Study

    argv = ["score", "-r", str(SAMPLE / "reference.txt"), "-s", str(SAMPLE / "names.txt"), "--docids",
            str(SAMPLE / "docids.txt")]
    rep = Study.tagging_report(ScoreConfig(lang="en"))
    marked = [c for c, v in rep["categories"].items() if v["marked"]]
    assert main(argv + ["--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tagging"]["language"] == "en" and set(data["tagging"]["categories"]) == {"tense", "pronoun", "entity", "dm"}
    assert [c for c, v in data["tagging"]["categories"].items() if v["marked"]] == marked
    for c in marked:
        assert any(w.startswith(f"en {c}: ") for w in data["warnings"])
    # lowercasing's cost said where tagging as written measured better (English entities: recall 0.59 -> 0.84)
    aw = Study.tagging_report(ScoreConfig(lang="en", tag_as_written=True))["categories"]["entity"]
    if "entity" in marked and aw["recall"] > rep["categories"]["entity"]["recall"] + 0.05:
        assert any(w.startswith("en entity: ") and "--tag-as-written" in w for w in data["warnings"])
    assert main(argv) == 0
    text = capsys.readouterr().out
    header = text.splitlines()[0]
    for c in ("tense", "pronoun", "entity", "dm"):
        assert (c + "†" in header) == (c in marked)
    assert ("† = en tagging" in text) == bool(marked)
    assert main(argv + ["--format", "csv"]) == 0
    head = capsys.readouterr().out.splitlines()[0].split(",")
    assert "entity.tagging_P" in head and "entity.tagging_marked" in head


@pytest.mark.pipeline
def test_a_weak_pack_is_marked_and_a_strong_one_is_not(tmp_path):
    """Through the real report: a pack whose tagging.json is below the bar in one category carries † on that
    category only."""
    import shutil

    from blonde_core.study import Engine, ScoreConfig, Study

    pack = tmp_path / "enx"
    pack.mkdir()
    shutil.copy(ROOT / "blonde_core" / "lang" / "en" / "pack.json", pack / "pack.json")
    good = {"precision": 0.97, "recall": 0.95, "gold": 200}
    cells = {"tense": good, "pronoun": good, "dm": good, "entity": {"precision": 0.4, "recall": 0.9, "gold": 60}}
    (pack / "tagging.json").write_text(json.dumps({"measured": "2026-11-27", "by_case": {"lc": cells}}))
    cfg = ScoreConfig(lang=str(pack))
    assert set(Study.tagging_marks(cfg)) == {"entity"}
    st = Study.from_files([str(SAMPLE / "reference.txt")], [str(SAMPLE / "names.txt")],
                          docids=str(SAMPLE / "docids.txt"), engine=Engine(cache_mode="memory", pool="inline"))
    html = st.report_html(cfg, 50)
    assert "entity †" in html and "tense †" not in html and "P 0.40 R 0.90 on 60 gold spans" in html


@pytest.mark.pipeline
def test_tag_as_written_tags_capitals_and_matches_lowercased():
    """--tag-as-written: the analyser reads the text as written (it finds 'Marie Curie', which lowercasing hides),
    the matching stays lowercased (entity keys and n-grams: a lowercased system still matches every n-gram), the
    signature says so; lowercasing off matches case too."""
    from blonde_core.study import Engine, ScoreConfig, Study

    eng = Engine(cache_mode="memory", pool="inline")
    ref = "Albert Einstein visited Paris in 1921 and met Marie Curie there."
    tagged = {cfg: {r["text"] for r in Study.spans_of_lines([ref], cfg, eng) if r["category"] == "entity"}
              for cfg in (ScoreConfig(), ScoreConfig(tag_as_written=True))}
    assert "Marie Curie" not in tagged[ScoreConfig()]
    assert "Marie Curie" in tagged[ScoreConfig(tag_as_written=True)]
    st = Study.from_texts([ref], {"A": ["albert einstein visited PARIS in 1921 and met marie curie there."]},
                          engine=eng)
    cased = st.analysis(ScoreConfig(tag_as_written=True))
    keys = {r["entity"] for r in cased.entity_strings("A")}
    assert {"albert einstein", "paris", "marie curie"} <= keys
    assert all(cased.scores("A")["categories"][n]["F1"] == 1.0 for n in ("1", "2", "3", "4"))
    assert "tag:written" in str(cased.signature) and "case:lc" in str(cased.signature)
    assert "--tag-as-written" in ScoreConfig(tag_as_written=True).cli_args()
    assert "--tag-as-written" not in ScoreConfig(tag_as_written=True, lowercase=False).cli_args()
    mixed = st.analysis(ScoreConfig(lowercase=False))
    assert mixed.scores("A")["categories"]["1"]["F1"] < 1.0
    assert "tag:written" not in str(st.analysis(ScoreConfig()).signature)
