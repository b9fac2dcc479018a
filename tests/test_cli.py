"""The command line: every flag family, every output format, and bad input."""
import csv
import io
import json
import subprocess
import sys

import pytest

from blonde_core.cli import main
from conftest import ROOT, SAMPLE, sample_paths

REF = str(SAMPLE / "reference.txt")
CONS = str(SAMPLE / "consistent.txt")
DOCIDS = str(SAMPLE / "docids.txt")
ANN = str(SAMPLE / "blonde_plus_annotation.txt")


def score(capsys, *args, systems=None, fmt="json"):
    argv = ["score", "-r", REF, "-s", *(systems or sample_paths()), "--docids", DOCIDS, "--format", fmt, *args]
    code = main(argv)
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out) if fmt == "json" else out.out


def fail(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 2
    assert out.out == ""
    assert "Traceback" not in out.err and out.err.count("\n") == 1
    return out.err


def test_json_shape(capsys):
    d = score(capsys, "--per-doc")
    assert d["signature"].startswith("BlonDe|preset:blonde-0.1.4|")
    assert list(d["systems"]) == ["consistent", "names", "tense", "pronouns", "markers"]
    e = d["systems"]["names"]
    assert set(e) == {"BlonDe", "BlonD-d", "categories", "documents"}
    assert list(e["categories"]) == ["tense", "pronoun", "entity", "dm", "1", "2", "3", "4"]
    assert set(e["documents"]) == {"lab", "market", "trip"}
    for v in (e["BlonDe"], e["BlonD-d"]):
        assert set(v) == {"R", "P", "F1"}
        assert all(x is None or 0 <= x <= 1 for x in v.values())
    for v in e["categories"].values():
        assert set(v) == {"R", "P", "F1", "spans", "thin"}
        assert all(x is None or 0 <= x <= 1 for x in (v["R"], v["P"], v["F1"]))
        assert set(v["spans"]) == {"reference", "system", "matched"}
        assert v["spans"]["matched"] <= min(v["spans"]["reference"], v["spans"]["system"])
        assert v["thin"] == (v["spans"]["reference"] < 5)
    # unigrams: one feature, so recall and precision are plain ratios of the counts
    u = e["categories"]["1"]
    assert u["R"] == pytest.approx(u["spans"]["matched"] / u["spans"]["reference"])
    assert u["P"] == pytest.approx(u["spans"]["matched"] / u["spans"]["system"])
    # each sample system breaks exactly its own category
    cats = {n: s["categories"] for n, s in d["systems"].items()}
    assert cats["names"]["entity"]["F1"] < 0.5 and cats["consistent"]["entity"]["F1"] == 1
    assert cats["tense"]["tense"]["F1"] < 0.5 and cats["pronouns"]["pronoun"]["F1"] < 0.5
    assert cats["markers"]["dm"]["F1"] < 0.5 and cats["names"]["dm"]["F1"] == 1


def test_csv_and_text_and_output_file(capsys, tmp_path):
    text = score(capsys, "--per-doc", fmt="csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 5 * 4  # corpus row + 3 documents per system
    assert {"system", "document", "BlonDe.F1", "BlonD-d.R", "entity.P", "4.F1", "signature"} <= set(rows[0])
    d = score(capsys)
    assert float(rows[0]["BlonDe.F1"]) == d["systems"]["consistent"]["BlonDe"]["F1"]
    t = score(capsys, fmt="text")
    assert "BlonDe|preset:blonde-0.1.4" in t and "consistent" in t
    out = tmp_path / "o.json"
    assert main(["score", "-r", REF, "-s", sample_paths()[0], "--docids", DOCIDS, "--format", "json",
                 "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert json.loads(out.read_text())["systems"]["consistent"]["BlonDe"]["F1"] == \
        d["systems"]["consistent"]["BlonDe"]["F1"]


def test_category_subset_and_average(capsys):
    d = score(capsys, "-c", "tense", "pronoun")
    e = d["systems"]["tense"]
    assert list(e["categories"]) == ["tense", "pronoun"]
    assert "|c:tense,pronoun|" in d["signature"]
    assert e["BlonDe"] == e["BlonD-d"]
    a = score(capsys, "-c", "tense", "pronoun", "-aver", "arithmetic")
    ea = a["systems"]["tense"]
    assert "|avg:arith|" in a["signature"]
    assert ea["BlonDe"]["R"] == pytest.approx((ea["categories"]["tense"]["R"] + ea["categories"]["pronoun"]["R"]) / 2)


def ngram_recalls(capsys, tmp_path, ref_line, sys_line, *args):
    (tmp_path / "r.txt").write_text(ref_line + "\n", encoding="utf-8")
    (tmp_path / "s.txt").write_text(sys_line + "\n", encoding="utf-8")
    assert main(["score", "-r", str(tmp_path / "r.txt"), "-s", str(tmp_path / "s.txt"), "-c", "ngram",
                 "--format", "json", *args]) == 0
    d = json.loads(capsys.readouterr().out)
    cats = d["systems"]["s"]["categories"]
    return d["signature"], [cats[k]["R"] for k in sorted(cats)]


def test_smoothing_flags(capsys, tmp_path):
    """'the cat sat on the mat' vs 'the dog sat on a mat': matched/total per order are
    4/6, 1/5, 0/4, 0/3 (worked by hand).  The 0.1.4 preset weights n-gram totals by
    0.25 before smoothing, so a zero order gets value/(0.25 t) (floor),
    1/(2^k 0.25 t) (exp, k-th zero order) or 0 (none)."""
    ref, hyp = "the cat sat on the mat", "the dog sat on a mat"
    sig, r = ngram_recalls(capsys, tmp_path, ref, hyp, "-sm", "floor", "-sv", "0.2")
    assert "|smooth:floor(0.2)|" in sig
    assert r == pytest.approx([4 / 6, 1 / 5, 0.2 / (0.25 * 4), 0.2 / (0.25 * 3)])
    sig, r = ngram_recalls(capsys, tmp_path, ref, hyp, "-sm", "none")
    assert "|smooth:none|" in sig and r == pytest.approx([4 / 6, 1 / 5, 0, 0])
    _, r = ngram_recalls(capsys, tmp_path, ref, hyp)  # the package's default: exp
    assert r == pytest.approx([4 / 6, 1 / 5, 1 / (2 * 0.25 * 4), 1 / (4 * 0.25 * 3)])


def test_lowercase_flags(capsys, tmp_path):
    """'The Cat sat' vs 'the cat sat': lowercased, every n-gram matches (3/3, 2/2, 1/1);
    case-sensitive only 'sat' does (1/3, then nothing: 0/2 and 0/1, smoothed by exp)."""
    sig, r = ngram_recalls(capsys, tmp_path, "The Cat sat", "the cat sat", "-sm", "none")
    assert "|case:lc|" in sig and r[:3] == pytest.approx([1, 1, 1])
    sig, r = ngram_recalls(capsys, tmp_path, "The Cat sat", "the cat sat", "-sm", "none", "-lc", "no")
    assert "|case:mixed|" in sig and r[:3] == pytest.approx([1 / 3, 0, 0])
    assert "|case:lc|" in score(capsys, "-lc")["signature"]
    a = score(capsys, "-lc", "no")
    b = score(capsys, "--case-sensitive")
    assert "|case:mixed|" in a["signature"] and a == b


def test_weights_need_override_flag(capsys):
    d = score(capsys, "-w", "-wp", "1", "1", "1", "1", "-we", "1", "1")
    assert "pronoun=1,1,1,1" in d["signature"] and "entity=1,1" in d["signature"]
    base = score(capsys)
    # NON-PERSON entities (Bremen, Lyon, Paris) now count: the names system keeps them all
    assert d["systems"]["names"]["categories"]["entity"]["R"] > base["systems"]["names"]["categories"]["entity"]["R"]
    err = fail(capsys, "score", "-r", REF, "-s", CONS, "-wt", *["1"] * 7)
    assert "-w" in err
    rw = score(capsys, "-rw")
    assert rw["systems"]["tense"]["BlonD-d"] == pytest.approx(base["systems"]["tense"]["BlonD-d"])
    bad = fail(capsys, "score", "-r", REF, "-s", CONS, "-w", "-wp", "1", "1")
    assert "-wp" in bad or "expected 4" in bad


def test_blonde_plus(capsys):
    d = score(capsys, "-p", "-an", ANN)
    assert "|plus:1,1|" in d["signature"]
    e = d["systems"]["pronouns"]
    assert e["categories"]["ellipsis"]["R"] < 0.2 and "BlonD+" in e
    assert d["systems"]["consistent"]["categories"]["ellipsis"]["F1"] == 1
    assert "Traceback" not in fail(capsys, "score", "-r", REF, "-s", CONS, "-p")
    assert "-p" in fail(capsys, "score", "-r", REF, "-s", CONS, "-an", ANN)
    only = score(capsys, "-p", "-an", ANN, "-pc", "ellipsis", "-pw", "2")
    assert "|plus:0,2|" in only["signature"]


def test_refined_named_entities(capsys, tmp_path):
    ner = tmp_path / "ner.txt"
    lines = ["PERSON: (Maria Lopez: 1; )\tNONPERSON: ()", "PERSON: ()\tNONPERSON: ()",
             "PERSON: ()\tNONPERSON: ()", "PERSON: (Maria Lopez: 1; Tom Becker: 1; )\tNONPERSON: ()",
             "PERSON: (Anna Weber: 1; )\tNONPERSON: (Bremen: 1; )", "PERSON: ()\tNONPERSON: ()",
             "PERSON: (Paul Weber: 1; )\tNONPERSON: ()", "PERSON: (Jacques Martin: 1; )\tNONPERSON: (Lyon: 1; )",
             "PERSON: ()\tNONPERSON: ()", "PERSON: ()\tNONPERSON: (Paris: 1; )"]
    ner.write_text("\n".join(lines) + "\n", encoding="utf-8")
    d = score(capsys, "-ner", str(ner))
    assert "|ner:refined|" in d["signature"]
    ent = {n: s["categories"]["entity"] for n, s in d["systems"].items()}
    assert ent["consistent"]["R"] == 1.0
    # names.txt keeps Maria Lopez (segment 1) only: 1 of 6 refined PERSON mentions
    assert ent["names"]["R"] == pytest.approx(1 / 6)
    ner.write_text("PERSON: (Maria: x; )\n" * 10, encoding="utf-8")
    err = fail(capsys, "score", "-r", REF, "-s", CONS, "--docids", DOCIDS, "-ner", str(ner))
    assert "line 1" in err and "whole number" in err


def test_granularity_and_preset(capsys):
    doc = score(capsys, "--granularity", "document", "--per-doc")
    assert "|gran:doc|" in doc["signature"]
    paper = score(capsys, "--preset", "paper")
    assert "|preset:paper|" in paper["signature"] and "|zero:delta|" in paper["signature"]
    # uniform weights count NON-PERSON entities, which the names system keeps
    assert paper["systems"]["names"]["categories"]["entity"]["R"] > \
        score(capsys)["systems"]["names"]["categories"]["entity"]["R"]


def test_document_granularity_accepts_split_sentences():
    from blonde_core.metric.settings import ScoreConfig
    from blonde_core.errors import InputError
    from blonde_core.metric.blonde import BlonDe
    from blonde_core.io.readers import plain_corpus

    c = plain_corpus([REF], [str(SAMPLE / "consistent.txt")], docids=DOCIDS)
    lab = c.systems["consistent"][0]
    # the system splits segment 3 of document "lab" into two sentences
    c.systems["consistent"][0] = lab[:2] + ["However, the freezer had broken.", "So the cells were ruined."] + lab[3:]
    with pytest.raises(InputError) as e:
        BlonDe().evaluate(c)
    msg = str(e.value)
    assert "'consistent'" in msg and "'lab'" in msg and "5 segments" in msg and "has 4" in msg
    assert "document-level matching" in msg
    res = BlonDe(ScoreConfig(granularity="document")).evaluate(c)
    assert "|gran:doc|" in res.signature
    assert res.scores("consistent")["categories"]["dm"]["F1"] == 1.0  # "However" and "so" both kept


def test_bad_input_messages(capsys, tmp_path):
    err = fail(capsys, "score", "-r", str(tmp_path / "nope.txt"), "-s", REF)
    assert "nope.txt: no such file" in err
    short = tmp_path / "short.txt"
    short.write_text("one line\n", encoding="utf-8")
    err = fail(capsys, "score", "-r", REF, "-s", str(short), "--docids", DOCIDS)
    assert "short.txt" in err and "1 lines" in err and "10" in err
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"abc\x00def\n")
    assert "binary" in fail(capsys, "score", "-r", REF, "-s", str(binary))
    latin = tmp_path / "latin.txt"
    latin.write_bytes("caf\u00e9\n".encode("latin-1"))
    err = fail(capsys, "score", "-r", REF, "-s", str(latin))
    assert "latin.txt" in err and "offset 3" in err
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert "empty" in fail(capsys, "score", "-r", REF, "-s", str(empty))
    assert "unknown category" in fail(capsys, "score", "-r", REF, "-s", CONS, "-c", "tense", "verbs")
    assert "no system output given" in fail(capsys, "score", "-r", REF)
    assert "--help" in fail(capsys, "score", "-r", REF, "--granularity", "paragraph")


def test_line_count_mismatch_with_docids_names_both_files(capsys, tmp_path):
    lines = (SAMPLE / "names.txt").read_text(encoding="utf-8").splitlines()
    sys_file = tmp_path / "merged.txt"
    sys_file.write_text("\n".join(lines[:3] + lines[4:]) + "\n", encoding="utf-8")
    err = fail(capsys, "score", "-r", REF, "-s", str(sys_file), "--docids", DOCIDS)
    assert "merged.txt" in err and "9 lines" in err and "docids.txt" in err and "has 10" in err


def test_equivalent_encodings_give_identical_scores(capsys, tmp_path):
    text = (SAMPLE / "names.txt").read_text(encoding="utf-8")
    variants = {
        "bom": b"\xef\xbb\xbf" + text.encode("utf-8"),
        "crlf": text.replace("\n", "\r\n").encode("utf-8"),
        "utf16": text.encode("utf-16"),
    }
    base = score(capsys, systems=[str(SAMPLE / "names.txt")])["systems"]["names"]
    for name, data in variants.items():
        d = tmp_path / name
        d.mkdir()
        f = d / "names.txt"
        f.write_bytes(data)
        assert score(capsys, systems=[str(f)])["systems"]["names"] == base, name


def test_subprocess_exit_code_and_console_entry(tmp_path):
    p = subprocess.run([sys.executable, "-m", "blonde_core", "score", "-r", str(tmp_path / "x.txt"), "-s", REF],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("blonde-studio: error: ") and "Traceback" not in p.stderr
    v = subprocess.run([sys.executable, "-m", "blonde_core", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert v.returncode == 0 and "0.1.0" in v.stdout


def test_per_feature_counts(capsys):
    d = score(capsys, "--per-feature")
    f = d["systems"]["tense"]["features"]
    assert set(f) == {"tense", "pronoun", "entity", "dm", "ngram"}
    vbd = f["tense"]["VBD"]
    assert vbd["reference"] > vbd["system"] == vbd["matched"] and vbd["R"] == vbd["matched"] / vbd["reference"]
    assert f["pronoun"]["neuter"]["weight"] == 0.0


def test_single_document_mode_is_said(capsys):
    assert main(["score", "-r", REF, "-s", sample_paths()[0], "--format", "json"]) == 0
    out = capsys.readouterr()
    assert "every file is one document" in out.err and list(json.loads(out.out)["systems"]) == ["consistent"]


def test_document_granularity_from_a_table_with_split_sentences(capsys, tmp_path):
    ref = (SAMPLE / "reference.txt").read_text(encoding="utf-8").splitlines()
    ids = (SAMPLE / "docids.txt").read_text(encoding="utf-8").splitlines()
    rows = ["system\tdoc_id\tseg_id\ttext"]
    for i, (d, t) in enumerate(zip(ids, ref), 1):
        rows.append(f"ref\t{d}\t{i}\t{t}")
        if i == 3:  # the system splits segment 3 in two
            rows.append(f"split\t{d}\t3\tHowever, the freezer had failed.")
            rows.append(f"split\t{d}\t3.5\tSo the cells were ruined.")
        else:
            rows.append(f"split\t{d}\t{i}\t{t}")
    f = tmp_path / "t.tsv"
    f.write_text("\n".join(rows) + "\n", encoding="utf-8")
    err = fail(capsys, "score", "--input", str(f), "--reference-systems", "ref")
    assert "'split' has 5 segments in document 'lab'" in err and "--granularity document" in err
    assert main(["score", "--input", str(f), "--reference-systems", "ref", "--granularity", "document",
                 "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["systems"]["split"]["categories"]["dm"]["F1"] == 1.0 and "|gran:doc|" in d["signature"]


@pytest.mark.parametrize("cfg", [
    {},
    {"preset": "paper", "lowercase": False, "granularity": "document", "aggregation": "sum"},
    {"categories": ("tense", "dm", "ngram"), "average": "arithmetic", "smooth": "floor", "smooth_value": 0.2},
    {"weights": {"pronoun": (1.0, 1.0, 0.0, 0.0), "entity": (1.0, 0.5)}, "zero": "delta"},
])
def test_config_round_trips_through_command_line_flags(cfg):
    from blonde_core.cli import build_parser, config_from_args
    from blonde_core.metric.settings import ScoreConfig

    c = ScoreConfig(**cfg)
    a = build_parser().parse_args(["score", "-r", REF, "-s", REF, *c.cli_args()])
    back = config_from_args(a)
    assert back.resolved_weights == c.resolved_weights
    for f in ("preset", "categories", "average", "smooth", "resolved_smooth_value", "resolved_zero", "lowercase",
              "aggregation", "granularity"):
        assert getattr(back, f) == getattr(c, f), f
    assert back.signature(1, "x") == c.signature(1, "x")


def test_console_script_is_installed():
    from pathlib import Path

    exe = Path(sys.executable).parent / "blonde-studio"
    assert exe.exists(), "scripts/setup.sh installs the package with pip install -e ."
    p = subprocess.run([str(exe), "score", "-r", REF, "-s", sample_paths()[0], "--docids", DOCIDS, "--format",
                        "json"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["systems"]["consistent"]["BlonDe"]["F1"] > 0.8


def test_contrast_command_text_and_bad_pairs(capsys):
    """`contrast`: the text output ranks what the JSON holds (top N of each table); a system, document or
    category that is not there is one line naming it."""
    base = ["contrast", "-r", REF, "-s", *sample_paths(), "--docids", DOCIDS]
    assert main(base + ["--pair", "consistent", "pronouns", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    pron = next(r for r in d["categories"] if r["category"] == "pronoun")
    assert pron["F1 A"] == 100 and pron["A fewer errors"] == 5 and pron["B fewer errors"] == 0
    assert [abs(r["errors A - B"]) for r in d["sentences"]] == sorted((abs(r["errors A - B"]) for r in d["sentences"]),
                                                                      reverse=True)
    assert main(base + ["--pair", "consistent", "pronouns", "--top", "2", "--document", "trip"]) == 0
    text = capsys.readouterr().out
    first = d["sentences"][0]
    assert f"(2 of {len(d['sentences'])};" in text and "Document trip, category by category:" in text
    row = text.split("errors A - B\n")[1].splitlines()[0].split()
    assert row == [first["document"], str(first["sentence"]), first["category"], *(str(first[k]) for k in (
        "missed A", "extra A", "missed B", "extra B", "errors A - B"))]
    assert text.rstrip().endswith("|contrast:consistent|pronouns")
    for extra, msg in ((["--pair", "consistent", "nope"], "no system named 'nope'"),
                       (["--pair", "names", "names"], "two different systems"),
                       (["--pair", "consistent", "names", "--document", "x"], "no document 'x'"),
                       (["--pair", "consistent", "names", "-c", "n-gram"], "needs a discourse category")):
        assert msg in fail(capsys, *base, *extra)


def test_entity_strings(capsys):
    """--entity-strings: per system, each entity string's counts (what the Categories page lists); the
    text shows the ten most missed; CSV refuses with a message (the table has rows of its own)."""
    d = score(capsys, "--entity-strings", systems=[sample_paths()[1]])
    ents = d["systems"]["names"]["entity_strings"]
    by_key = {r["entity"]: r for r in ents}
    # names.txt renders the reference's Tom Becker differently: missed on the reference side
    assert by_key["tom becker"]["reference"] == 1 and by_key["tom becker"]["missed"] == 1
    assert all(r["missed"] == r["reference"] - r["matched"] and r["extra"] == r["system"] - r["matched"] for r in ents)
    assert [r["missed"] for r in ents] == sorted((r["missed"] for r in ents), reverse=True)
    text = score(capsys, "--entity-strings", systems=[sample_paths()[1]], fmt="text")
    assert f"names: entity strings, the ten most missed of {len(ents)}" in text
    assert "Tom Becker" in text and "matching key" in text
    assert "--format json" in fail(capsys, "score", "-r", REF, "-s", CONS, "--entity-strings", "--format", "csv")


@pytest.mark.parametrize("argv", [
    ["score", "-r", REF, "-s", REF, "--per-doc", "--metrics", "BLEU,chrF", "--ci", "10", "--format", "json"],
    ["compare", "-r", REF, "-s", REF, REF, "--test", "ar", "--unit", "block:5"],
    ["contrast", "-r", REF, "-s", REF, REF, "--pair", "a", "b"],
    ["report", "-r", REF, "-s", REF, "-o", "x.html"],
    ["correlate", "-r", REF, "-s", REF, "--human", "h.tsv", "--level", "document"],
    ["human", "h.tsv", "--by", "system", "--format", "json"],
    ["apt", "--source", "s", "-r", "r", "-s", "x", "--pair", "zh-en"],
])
def test_a_command_parses_the_same_with_only_its_own_parser(argv):
    """The command line declares only the subcommand it runs (build_parser(command)): each command's
    arguments, defaults included, are what the full parser reads."""
    from blonde_core.cli import _COMMANDS, build_parser

    assert set(_COMMANDS) == {"score", "compare", "contrast", "report", "correlate", "human", "apt", "spans"}
    assert vars(build_parser(argv[0]).parse_args(argv)) == vars(build_parser().parse_args(argv))
