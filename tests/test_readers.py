"""Readers: every format gives the same corpus and the same scores; every bad
input gets its message; fuzzing finds no exception but InputError."""
import csv
import io
import json
import os
from xml.sax.saxutils import escape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blonde_core.cli import main
from blonde_core.errors import InputError
from blonde_core.io.formats import read_human, read_structured
from blonde_core.io.human import read_judgments, read_mqm
from blonde_core.metric.plus import parse_annotation, parse_ner_line
from blonde_core.io.readers import plain_corpus, read_jsonl, read_lines, read_table, read_wmt_xml
from conftest import SAMPLE, SAMPLE_SYSTEMS, sample_paths

REF = SAMPLE / "reference.txt"
DOCIDS = SAMPLE / "docids.txt"


def sample_plain():
    return plain_corpus([REF], sample_paths(), docids=DOCIDS)


def sample_records():
    c = sample_plain()
    for name, docs in c.systems.items():
        for d, segs in zip(c.doc_ids, docs):
            for i, s in enumerate(segs, 1):
                yield {"system": name, "doc_id": d, "seg_id": str(i), "text": s,
                       "ref": c.references["reference"][c.doc_ids.index(d)][i - 1]}


def write_tsv(path):
    rows = list(sample_records())
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("system\tdoc_id\tseg_id\ttext\treference\n")
        for r in rows:
            f.write("\t".join([r["system"], r["doc_id"], r["seg_id"], r["text"], r["ref"]]) + "\n")


def write_csv(path):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Doc", "Segment", "System", "Translation", "reference"])
        for r in sample_records():
            w.writerow([r["doc_id"], r["seg_id"], r["system"], r["text"], r["ref"]])


def write_jsonl(path):
    with open(path, "w", encoding="utf-8") as f:
        for r in sample_records():
            f.write(json.dumps({"doc": r["doc_id"], "seg": r["seg_id"], "system": r["system"], "hyp": r["text"],
                                "reference": r["ref"]}) + "\n")


def write_xml(path, corpus, drop_hyp=None, extra_seg=None):
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<dataset id="sample">', '<collection id="general">']
    for di, d in enumerate(corpus.doc_ids):
        out.append(f'<doc id="{escape(d)}" origlang="en">')
        src = corpus.source[di] if corpus.source else corpus.references["reference"][di]
        out.append('<src lang="en"><p>' + "".join(f'<seg id="{i + 1}">{escape(s)}</seg>' for i, s in enumerate(src))
                   + "</p></src>")
        for rname, docs in corpus.references.items():
            out.append(f'<ref lang="en" translator="{escape(rname)}"><p>' + "".join(
                f'<seg id="{i + 1}">{escape(s)}</seg>' for i, s in enumerate(docs[di])) + "</p></ref>")
        for sname, docs in corpus.systems.items():
            if drop_hyp == (sname, d):
                continue
            segs = list(docs[di]) + (["one more"] if extra_seg == (sname, d) else [])
            out.append(f'<hyp lang="en" system="{escape(sname)}"><p>' + "".join(
                f'<seg id="{i + 1}">{escape(s)}</seg>' for i, s in enumerate(segs)) + "</p></hyp>")
        out.append("</doc>")
    out += ["</collection>", "</dataset>"]
    path.write_text("\n".join(out), encoding="utf-8")


def same_corpus(a, b, ref_name="reference"):
    assert a.doc_ids == b.doc_ids
    assert a.systems == b.systems
    assert list(a.references.values())[0] == list(b.references.values())[0]


def test_every_format_reads_into_the_same_corpus(tmp_path):
    base = sample_plain()
    files = {"t.tsv": write_tsv, "t.csv": write_csv, "t.jsonl": write_jsonl}
    for fname, writer in files.items():
        p = tmp_path / fname
        writer(p)
        c = read_structured(p)
        same_corpus(base, c)
        assert list(c.references) == ["reference"]
    x = tmp_path / "t.xml"
    write_xml(x, base)
    c = read_structured(x)
    same_corpus(base, c)


def test_every_format_gives_identical_scores(tmp_path, capsys):
    assert main(["score", "-r", str(REF), "-s", *sample_paths(), "--docids", str(DOCIDS), "--format", "json"]) == 0
    base = json.loads(capsys.readouterr().out)
    write_tsv(tmp_path / "t.tsv")
    write_jsonl(tmp_path / "t.jsonl")
    write_xml(tmp_path / "t.xml", sample_plain())
    for f in ("t.tsv", "t.jsonl", "t.xml"):
        assert main(["score", "--input", str(tmp_path / f), "--format", "json"]) == 0, f
        assert json.loads(capsys.readouterr().out) == base, f


def test_ted_as_wmt_xml_equals_plain_text(ted, tmp_path):
    systems = sorted((ted / "systems").glob("*.txt"))[:3]
    c = plain_corpus([ted / "refs" / "ref.txt"], systems, docids=ted / "docids.txt")
    c.references = {"reference": c.references["ref"]}
    src = read_lines(ted / "source.zh.txt")
    it = iter(src)
    c.source = [[next(it) for _ in d] for d in c.references["reference"]]
    write_xml(tmp_path / "ted.xml", c)
    x = read_wmt_xml(tmp_path / "ted.xml")
    same_corpus(c, x)
    assert x.source == c.source


def test_table_reference_systems_and_ordering(tmp_path):
    p = tmp_path / "t.tsv"
    # segments delivered out of order and a human translation as a "system"
    p.write_text("system\tdoc\tseg\ttext\nA\td1\t2\tsecond\nA\td1\t1\tfirst\nH\td1\t1\tone\nH\td1\t2\ttwo\n",
                 encoding="utf-8")
    c = read_table(p, reference_systems=["H"])
    assert c.references == {"H": [["one", "two"]]} and c.systems == {"A": [["first", "second"]]}
    with pytest.raises(InputError, match="'Z' is not in the file"):
        read_table(p, reference_systems=["Z"])


def test_table_errors_name_file_row_and_problem(tmp_path):
    p = tmp_path / "bad.tsv"
    p.write_text("system\tdoc\tseg\ttext\nA\td1\t1\tx\nA\td1\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        read_table(p)
    assert "bad.tsv, line 3" in str(e.value) and "2 fields" in str(e.value)
    p.write_text("system\tdoc\tseg\ttext\nA\td1\t1\tx\nA\td1\t1\ty\n", encoding="utf-8")
    with pytest.raises(InputError, match="appears twice"):
        read_table(p)
    # a system with fewer segments in a document is read (document-level matching can score it);
    # sentence-level matching then names the system, the document and both counts
    p.write_text("system\tdoc\tseg\ttext\nR\td1\t1\tx\nR\td1\t2\ty\nB\td1\t1\tz\nB\td2\t1\tw\n"
                 "R\td2\t1\tv\n", encoding="utf-8")
    c = read_table(p, reference_systems=["R"])
    assert c.systems["B"] == [["z"], ["w"]]
    with pytest.raises(InputError) as e:
        c.check("sentence")
    assert "'B' has 1 segments in document 'd1' but reference 'R' has 2" in str(e.value)
    assert "document-level matching" in str(e.value)
    c.check("document")
    p.write_text("system\tdoc\tseg\ttext\nR\td1\t1\tx\nR\td2\t1\ty\nB\td1\t1\tz\n", encoding="utf-8")
    with pytest.raises(InputError, match="'B' has no segment of document 'd2'"):
        read_table(p, reference_systems=["R"])
    p.write_text("who\twhat\n1\t2\n", encoding="utf-8")
    with pytest.raises(InputError, match="no document column"):
        read_table(p)
    j = tmp_path / "bad.jsonl"
    j.write_text('{"doc": "d", "text": "x"}\n{"doc": "d", "text": \n', encoding="utf-8")
    with pytest.raises(InputError) as e:
        read_jsonl(j)
    assert "bad.jsonl, line 2" in str(e.value)


def test_xml_errors(tmp_path):
    base = sample_plain()
    p = tmp_path / "x.xml"
    write_xml(p, base, drop_hyp=("names", "market"))
    with pytest.raises(InputError, match="system 'names' has no translation of document 'market'"):
        read_wmt_xml(p)
    write_xml(p, base, extra_seg=("tense", "trip"))
    with pytest.raises(InputError) as e:
        read_wmt_xml(p)
    assert "'tense' has 4 segments in document 'trip'" in str(e.value) and "has 3" in str(e.value)
    text = p.read_text(encoding="utf-8")
    p.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(InputError) as e:
        read_wmt_xml(p)
    assert "not well-formed XML" in str(e.value) and "line" in str(e.value)


def test_blank_line_documents(tmp_path):
    r = tmp_path / "r.txt"
    s = tmp_path / "s.txt"
    r.write_text("a b\nc d\n\ne f\n", encoding="utf-8")
    s.write_text("a b\nc x\n\ne f\n", encoding="utf-8")
    c = plain_corpus([r], [s], boundaries="blank-lines")
    assert c.doc_ids == ["doc1", "doc2"] and c.systems["s"] == [["a b", "c x"], ["e f"]]
    s.write_text("a b\nc x\ne f\n", encoding="utf-8")
    with pytest.raises(InputError, match="1 documents"):
        plain_corpus([r], [s], boundaries="blank-lines")
    one = plain_corpus([r], [s])
    assert one.boundaries == "single" and one.doc_ids == ["doc1"]


def test_docids_must_be_consecutive(tmp_path):
    d = tmp_path / "ids"
    d.write_text("a\na\nb\na\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        plain_corpus([REF], [REF], docids=d)
    assert "line 4" in str(e.value) and "consecutive" in str(e.value)


def test_readers_never_modify_or_write(tmp_path):
    import os

    write_tsv(tmp_path / "t.tsv")
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    read_structured(tmp_path / "t.tsv")
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()} == before
    assert os.listdir(tmp_path) == ["t.tsv"]


def test_blonde_plus_and_ner_parsers_take_phrases_literally():
    cps = parse_annotation(["text\t1,c++ (v2), x <pos/1,2>;a.b*, y <pos/3,4>\t3,he, she <pos/0,2>", "text\t0"])
    assert cps[0] == (["c++ (v2)", "a.b*"], ["he"]) and cps[1] == ([], [])
    from blonde_core.metric.plus import count_phrase

    assert count_phrase("c++ (v2)", "we use C++ (v2) and c++ (v2).") == 2
    assert count_phrase("a.b*", "axb a.b* a.bbb") == 1
    assert parse_ner_line("PERSON: (Zhang Gong: 1; Qiao Lian's: 2; )\tNONPERSON: (Tianwu: 2; )", "f", 1) == \
        [{"zhang gong": 1, "qiao lian": 2}, {"tianwu": 2}]


# --- fuzzing -------------------------------------------------------------------

# derandomize: CI runs the same examples every time (run with BLONDE_FUZZ=N locally to search harder)
FUZZ = settings(max_examples=int(os.environ.get("BLONDE_FUZZ", 400)), deadline=None,
                derandomize="BLONDE_FUZZ" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _valid_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("valid")
    write_tsv(d / "t.tsv")
    write_jsonl(d / "t.jsonl")
    write_xml(d / "t.xml", sample_plain())
    write_csv(d / "t.csv")
    return {p.suffix: p.read_bytes() for p in d.iterdir()}


@pytest.fixture(scope="module")
def valid_files(tmp_path_factory):
    return _valid_files(tmp_path_factory)


READERS = [read_structured, read_table, read_jsonl, read_wmt_xml, read_mqm, read_judgments, read_human,
           lambda p: plain_corpus([p], [p]), lambda p: plain_corpus([REF], [p], docids=DOCIDS),
           lambda p: plain_corpus([p], [p], boundaries="blank-lines"), read_lines]


def _check_value(value) -> None:
    """What a reader returns is what it promises: a corpus whose every text has a document list as long as
    the document ids, human judgments with scores, or the file's lines."""
    from blonde_core.io.corpus import Corpus
    from blonde_core.io.human import MqmFile
    from blonde_core.io.judgments import HumanScores

    if isinstance(value, MqmFile):
        value = value.scores
    if isinstance(value, Corpus):
        # texts, and document ids without repeats (a table may name no reference yet: `-r NAME` or the Data
        # page picks one of its systems)
        assert (value.references or value.systems) and value.doc_ids and len(set(value.doc_ids)) == len(value.doc_ids)
        for group in (value.references, value.systems):
            for docs in group.values():
                assert len(docs) == len(value.doc_ids)
                assert all(isinstance(s, str) for d in docs for s in d)
    elif isinstance(value, HumanScores):
        assert value.name and isinstance(value.system_scores, dict)
        assert all(isinstance(v, float) for v in value.system_scores.values())
    else:
        assert isinstance(value, list) and value and all(isinstance(x, str) and "\n" not in x for x in value), value


def _check_all(path):
    from blonde_core.errors import ERRORS

    for reader in READERS:
        try:
            value = reader(path)
        except InputError as exc:
            # refused with a message and the code of a known kind of problem, never a traceback
            assert str(exc) and exc.code in ERRORS and exc.code != InputError.Codes.OTHER, (str(exc), exc.code)
        else:
            _check_value(value)


@FUZZ
@given(data=st.binary(max_size=400))
def test_fuzz_random_bytes(tmp_path_factory, data):
    d = tmp_path_factory.mktemp("fz")
    for suffix in (".tsv", ".xml", ".jsonl", ".csv", ".txt"):
        p = d / f"f{suffix}"
        p.write_bytes(data)
        _check_all(p)


@FUZZ
@given(data=st.data())
def test_fuzz_mutated_valid_files(tmp_path_factory, valid_files, data):
    suffix = data.draw(st.sampled_from(sorted(valid_files)))
    raw = bytearray(valid_files[suffix])
    for _ in range(data.draw(st.integers(1, 6))):
        op = data.draw(st.sampled_from(["flip", "delete", "insert", "truncate", "dup"]))
        pos = data.draw(st.integers(0, max(len(raw) - 1, 0)))
        if op == "flip" and raw:
            raw[pos] = data.draw(st.integers(0, 255))
        elif op == "delete" and raw:
            del raw[pos:pos + data.draw(st.integers(1, 40))]
        elif op == "insert":
            raw[pos:pos] = data.draw(st.sampled_from([b"\t", b"\n", b"<", b'"', b"\x00", b"\xff", b"{", b"</doc>",
                                                      "\u00e9".encode(), b"\r\n", b","]))
        elif op == "truncate":
            raw = raw[:pos]
        elif op == "dup" and raw:
            raw[pos:pos] = raw[pos:pos + 80]
    p = tmp_path_factory.mktemp("mut") / f"m{suffix}"
    p.write_bytes(bytes(raw))
    _check_all(p)


def test_table_string_segment_ids_keep_file_order(tmp_path):
    """String segment ids keep the file's order for every text (also when a system lists its
    segments in another order); read with set lookups, not list scans."""
    from blonde_core.io.formats import read_structured

    ids = ["intro", "b7", "a3", "zeta", "c"]
    rows = ["doc_id\tseg_id\tsystem\ttext\tref"]
    rows += [f"talk\t{s}\tA\tA {s}\tR {s}" for s in ids]
    rows += [f"talk\t{s}\tB\tB {s}\t" for s in reversed(ids)]
    f = tmp_path / "t.tsv"
    f.write_text("\n".join(rows) + "\n", encoding="utf-8")
    c = read_structured(f, [])
    assert c.seg_ids == [ids]
    assert c.systems["A"] == [[f"A {s}" for s in ids]]
    assert c.systems["B"] == [[f"B {s}" for s in ids]]  # file order of the first text, not B's own order


def test_utf16_without_bom_is_named(tmp_path):
    from blonde_core.io.readers import read_lines

    for enc, order in (("utf-16-le", "little"), ("utf-16-be", "big")):
        f = tmp_path / f"{enc}.txt"
        f.write_bytes("Mary walked in.\nShe sat down.\n".encode(enc))
        with pytest.raises(InputError, match=f"UTF-16 \\({order}-endian\\) without a byte-order mark"):
            read_lines(f)
    f = tmp_path / "bom.txt"
    f.write_bytes("Mary walked in.\nShe sat down.\n".encode("utf-16"))  # with a BOM: read
    assert read_lines(f) == ["Mary walked in.", "She sat down."]
    f = tmp_path / "bin.dat"
    f.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(InputError, match="binary|not valid"):
        read_lines(f)


def test_undecodable_and_binary_files_name_the_line(tmp_path):
    """A byte that is not UTF-8 (a Latin-1 'é') or a NUL: the message names the file and the line."""
    from blonde_core.io.readers import read_lines

    f = tmp_path / "latin1.txt"
    f.write_bytes("Mary walked in.\nShe sat down.\nThe café was closed.\n".encode("latin-1"))
    with pytest.raises(InputError) as err:
        read_lines(f)
    assert (err.value.file, err.value.line) == (str(f), 3) and "byte 0xe9" in err.value.problem
    assert str(err.value).startswith(f"{f}, line 3: not valid UTF-8 text") and "Latin-1" in str(err.value)
    f.write_bytes(b"one\ntwo\nthr\x00ee\n")
    with pytest.raises(InputError, match="binary file") as err:
        read_lines(f)
    assert err.value.line == 3


def test_attach_source_splits_real_ted_source_by_the_references_documents(ted):
    from blonde_core.io.readers import attach_source

    corpus = plain_corpus([ted / "refs" / "ref.txt"], [ted / "systems" / "Online-W.txt"], docids=ted / "docids.txt")
    attach_source(corpus, ted / "source.zh.txt")
    src = (ted / "source.zh.txt").read_text(encoding="utf-8").splitlines()
    ids = (ted / "docids.txt").read_text(encoding="utf-8").splitlines()
    # worked out independently: the source lines of each document id, in file order
    expect = {}
    for line, d in zip(src, ids):
        expect.setdefault(d, []).append(line)
    assert corpus.source == [expect[d] for d in corpus.doc_ids]
    assert len(corpus.source) == 5 and sum(map(len, corpus.source)) == 529


def test_attach_source_with_blank_line_boundaries(tmp_path):
    from blonde_core.io.readers import attach_source

    (tmp_path / "ref.txt").write_text("A cat sat.\nIt slept.\n\nHe left.\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("A cat sat down.\nIt slept.\n\nShe left.\n", encoding="utf-8")
    corpus = plain_corpus([tmp_path / "ref.txt"], [tmp_path / "sys.txt"], boundaries="blank-lines")
    # the source marks its documents with blank lines, as the reference does
    (tmp_path / "src.txt").write_text("猫坐着。\n它睡了。\n\n他走了。\n", encoding="utf-8")
    attach_source(corpus, tmp_path / "src.txt")
    assert corpus.source == [["猫坐着。", "它睡了。"], ["他走了。"]]
    # or it has one line per segment and no blank lines
    (tmp_path / "flat.txt").write_text("猫坐着。\n它睡了。\n他走了。\n", encoding="utf-8")
    attach_source(corpus, tmp_path / "flat.txt")
    assert corpus.source == [["猫坐着。", "它睡了。"], ["他走了。"]]
    # documents cut elsewhere than the reference's: an error naming the file and the document
    (tmp_path / "bad.txt").write_text("猫坐着。\n\n它睡了。\n他走了。\n", encoding="utf-8")
    with pytest.raises(InputError, match="document 1 has 1 segments but the reference's has 2") as e:
        attach_source(corpus, tmp_path / "bad.txt")
    assert "bad.txt" in str(e.value)
    (tmp_path / "short.txt").write_text("猫坐着。\n它睡了。\n", encoding="utf-8")
    with pytest.raises(InputError, match="has 1 documents .* but the reference has 2"):
        attach_source(corpus, tmp_path / "short.txt")


def test_attach_source_line_count_mismatch_names_the_file(tmp_path):
    from blonde_core.io.readers import attach_source

    (tmp_path / "ref.txt").write_text("One.\nTwo.\n", encoding="utf-8")
    corpus = plain_corpus([tmp_path / "ref.txt"], [])
    (tmp_path / "src.txt").write_text("一。\n", encoding="utf-8")
    with pytest.raises(InputError, match="has 1 lines but the reference has 2 segments") as e:
        attach_source(corpus, tmp_path / "src.txt")
    assert "src.txt" in str(e.value)


def test_the_fuzz_checks_catch_a_reader_that_returns_nothing_or_a_broken_corpus():
    from blonde_core.io.corpus import Corpus

    _check_value(sample_plain())
    _check_value(["a line"])
    for bad in (None, [], Corpus(["d1", "d2"], {"ref": [["a"]]}, {"sys": [["b"], ["c"]]}),
                Corpus(["d1"], {}, {})):
        with pytest.raises(AssertionError):
            _check_value(bad)


def test_a_message_that_names_a_flag_has_words_for_the_pages(tmp_path):
    """The core's messages name the command line's flags; each such raise outside cli/ also says what to
    do in the dashboard (InputError(page=...)), and the pages show that (for_page) - issue 38."""
    import ast
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "blonde_core"
    flagged = 0
    for p in root.rglob("*.py"):
        if "cli" in p.parts:
            continue
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
                    getattr(node.exc.func, "id", None) == "InputError" and node.exc.args:
                text = re.sub(r"`[^`]*`", "", ast.unparse(node.exc.args[0]))  # `pip install -r ...` is no flag of ours
                if re.search(r"(^|[\s(])--?[a-z]", text):
                    flagged += 1
                    page = [k for k in node.exc.keywords if k.arg == "page"]
                    assert page, (p.name, node.lineno, text[:80])
                    assert not re.search(r"(^|[\s(])--[a-z]", ast.unparse(page[0].value)), (p.name, node.lineno)
    assert flagged >= 8
    from blonde_core.io.formats import read_human

    table = tmp_path / "two-score-columns.tsv"
    table.write_text("system\tdoc_id\tscore\tother\nnames\td1\t1\t2\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        read_human(table)
    assert "--score-column" in str(e.value) and "--" not in e.value.for_page()
    assert e.value.for_page().startswith(str(table)) and "leave one score column" in e.value.for_page()
    pages = " ".join(p.read_text(encoding="utf-8") for p in
                     (*(root.parent / "studio").glob("*.py"), *(root.parent / "pages" / n for n in
                                                                ("data.py", "significance.py", "correlation.py"))))
    assert "md_escape(str(exc))" not in pages and "append(str(exc))" not in pages


def test_limits_per_upload_name_the_file_and_line():
    from blonde_core.io.readers import NamedBytes

    ref = b"One.\nTwo.\nThree.\n\nFour.\nFive.\n"
    sys_ = b"One.\nTwo.\nThree.\n\nFour.\n" + b"x" * 300 + b"\n"
    for blank, line in ((True, 6), (False, None)):
        c = plain_corpus([NamedBytes("ref.txt", ref)], [NamedBytes("sys.txt", sys_)], boundaries="blank-lines") \
            if blank else plain_corpus([NamedBytes("ref.txt", ref.replace(b"\n\n", b"\n"))],
                                       [NamedBytes("sys.txt", sys_.replace(b"\n\n", b"\n"))])
        c.check_limits(300, 100)
        with pytest.raises(InputError) as e:
            c.check_limits(299, 100)
        assert e.value.code == InputError.Codes.TOO_MUCH and e.value.file == "sys.txt"
        assert e.value.line == (line or 5) and "300 characters" in str(e.value)
        with pytest.raises(InputError, match="10 segments in all"):
            c.check_limits(1000, 9)


def test_every_input_error_has_a_known_code():
    """Every `raise InputError(...)` in the core names its kind (blonde_core/errors.py), and the kinds the
    pages and the command line branch on come out as said."""
    import ast
    from pathlib import Path

    from blonde_core.errors import ERRORS

    root = Path(__file__).resolve().parent.parent / "blonde_core"
    n = 0
    for p in root.rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
                    getattr(node.exc.func, "id", None) == "InputError":
                code = [k for k in node.exc.keywords if k.arg == "code"]
                assert code and ast.unparse(code[0].value).startswith("InputError.Codes."), (p.name, node.lineno)
                assert getattr(InputError.Codes, ast.unparse(code[0].value).rsplit(".", 1)[1]) in ERRORS
                n += 1
    assert n > 100
    with pytest.raises(InputError) as e:
        read_lines(SAMPLE / "no-such-file.txt")
    assert e.value.code == InputError.Codes.UNREADABLE
    with pytest.raises(InputError) as e:
        plain_corpus([REF], [SAMPLE / "gallery.json"], docids=DOCIDS)
    assert e.value.code == InputError.Codes.COUNTS
    from blonde_core.study import ScoreConfig, Study

    study = Study(plain_corpus([REF], [SAMPLE / "consistent.txt"]), "t")
    short = study.corpus.systems["consistent"][0][:-1]
    study.corpus.systems["consistent"][0] = short
    with pytest.raises(InputError) as e:
        study.result(ScoreConfig())
    assert e.value.code == InputError.Codes.SENTENCE_COUNTS
    with pytest.raises(InputError) as e:
        ScoreConfig(lang="xx-none")
    assert e.value.code == InputError.Codes.LANGUAGE


def test_the_command_line_prints_the_code(capsys):
    assert main(["score", "-r", str(REF), "-s", str(SAMPLE / "gallery.json"), "--docids", str(DOCIDS)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("blonde-studio: error: ") and err.rstrip().endswith("[E013]")
