"""Input formats as one table (blonde_core/io/formats.py, issue 61 point 3): the command line's help, the Data page's
uploaders and Study's loading all loop over it, so a format registered there is taken everywhere at once; a view
that names a kind of file the table lacks fails here."""
import argparse
import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from blonde_core.cli import build_parser
from blonde_core.errors import InputError
from blonde_core.io import formats
from blonde_core.io.formats import InputFormat, accepted, of_role, recognise
from blonde_core.io.readers import NamedBytes, read_lines, read_table
from blonde_core.study import CATALOG, Study
from conftest import ROOT, SAMPLE, SAMPLE_SYSTEMS, TED

SHARED = TED.parent
# words that name a kind of file: a view saying one of them for a role's flag or uploader must have it from the table
FORMAT_WORDS = ("XML", "TSV", "CSV", "JSON", "JSON Lines", "MQM", "DA", "ESA", "COMET", "score files", "SGML", "XLIFF",
                "TMX", "Parquet", "Excel", "XLSX", "YAML", "PSV", "pipe-separated")
COMMANDS = {"texts": ("score", "correlate", "report"), "judgments": ("score", "correlate", "report"),
            "metric scores": ("score", "correlate"), "folders": ("score", "correlate", "report")}  # the commands whose flag of the role (the table's) is checked


def named_formats(text: str) -> set:
    return {w for w in FORMAT_WORDS if re.search(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", text)}


def unknown_formats(role: str, text: str) -> list:
    """The kinds of file `text` names that no format of the role's table says."""
    table = " ".join(f"{f.label} {f.help}" for f in of_role(role))
    return sorted(named_formats(text) - named_formats(table))


def flag_help(command: str, flag: str) -> str:
    """A subcommand's flag's help as argparse prints it (its %% unescaped)."""
    p = build_parser(command)
    sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    return next(a.help for a in sub._actions if flag in a.option_strings).replace("%%", "%")


def psv_format() -> InputFormat:
    """A throwaway format: a TSV/CSV table's columns separated by '|' (.psv), read as the table it is."""
    def read(f, reference_systems):
        return read_table(NamedBytes(f.name, f.data.replace(b"|", b"\t")), reference_systems), None

    return InputFormat(name="psv", role="texts", label="a pipe-separated table", help="the table's columns split by |",
                       read=read, sniff=lambda p: p.low.endswith(".psv"), extensions=(".psv",))


@pytest.fixture
def with_psv(monkeypatch):
    """The table with the throwaway format registered before the texts' fallback (one entry: all it takes)."""
    table = list(formats.FORMATS)
    table.insert(table.index(of_role("texts")[-1]), psv_format())
    monkeypatch.setattr(formats, "FORMATS", tuple(table))


def sample_rows(sep: str) -> bytes:
    """The sample's reference and two systems as rows doc_id, seg_id, system, text (the documents of docids.txt)."""
    ids = read_lines(SAMPLE / "docids.txt")
    rows = [sep.join(["doc_id", "seg_id", "system", "text"])]
    for name, path in [("ref", SAMPLE / "reference.txt")] + [(s, SAMPLE / f"{s}.txt") for s in SAMPLE_SYSTEMS[:2]]:
        seen: dict = {}
        for d, line in zip(ids, read_lines(path)):
            seen[d] = seen.get(d, 0) + 1
            rows.append(sep.join([d, str(seen[d]), name, line]))
    return ("\n".join(rows) + "\n").encode()


def test_the_table_declares_each_role_once_with_one_fallback_last():
    """Each role of files: distinct names, one fallback last (it reads any name); the folders' role: a zip of any
    layout uploaded, the last layout of io/wmt.py taking any folder the others do not recognise."""
    from blonde_core.io import wmt

    folders = of_role("folders")
    assert [f.name for f in folders] == [lay.name for lay in wmt.LAYOUTS] and accepted("folders").types == ["zip"]
    assert wmt.LAYOUTS[-1].found(wmt._Tree([], None, "any")) is not None
    assert CATALOG.input_formats("folders").formats == folders
    for role in set(formats.ROLES) - {"folders"}:
        fs = of_role(role)
        assert len({f.name for f in fs}) == len(fs) >= 3
        assert [f.sniff is None for f in fs] == [False] * (len(fs) - 1) + [True]  # the fallback reads the rest
        assert all(f.label and f.help and f.extensions and f.extensions == tuple(e.lower() for e in f.extensions)
                   for f in fs)
        assert accepted(role).types is None  # a fallback reads any name: the uploader restricts none
        assert CATALOG.input_formats(role).formats == fs  # the door gives the table itself
    with pytest.raises(KeyError):
        of_role("xliff")


def test_the_command_line_help_is_the_table():
    for role, commands in COMMANDS.items():
        flag = accepted(role).flag
        for command in commands:
            text = flag_help(command, flag)
            assert all(f.said in text for f in of_role(role)), (command, flag, text)
            assert unknown_formats(role, text) == [], (command, flag)


def test_a_view_naming_a_format_the_table_lacks_is_caught(with_psv):
    """The check itself: a help that says a kind of file the role's table has not is named; once the format is
    registered, the same words pass, and the command line says it without any other edit."""
    assert unknown_formats("texts", "WMT XML, Parquet or JSON Lines") == ["Parquet"]
    assert unknown_formats("judgments", "MQM TSV or a pipe-separated table") == ["pipe-separated"]
    assert unknown_formats("texts", "MQM TSV or a pipe-separated table") == []
    assert "a pipe-separated table: the table's columns split by |" in flag_help("score", "--input")


def test_study_reads_each_format_with_the_first_reader_that_knows_it(tmp_path):
    xml = SHARED / "wmt22-defr" / "wmttest2022.de-fr.all.xml"
    mqm = TED / "raw" / "mqm_ted_zhen.tsv"
    tsv, jsonl = tmp_path / "rows.tsv", tmp_path / "rows.data"
    tsv.write_bytes(sample_rows("\t"))
    header, *rows = [r.split("\t") for r in sample_rows("\t").decode().splitlines()]
    jsonl.write_text("\n".join(json.dumps(dict(zip(header, r)), ensure_ascii=False) for r in rows) + "\n")
    got = {p: recognise("texts", [NamedBytes(str(p), p.read_bytes())]).name for p in (xml, mqm, tsv, jsonl)}
    assert got == {xml: "wmt-xml", mqm: "mqm", tsv: "table", jsonl: "jsonl"}  # JSON Lines known by its first byte
    table, lines = Study.from_structured(tsv, ["ref"]), Study.from_structured(jsonl, ["ref"])
    assert table.corpus.references == lines.corpus.references and table.corpus.systems == lines.corpus.systems
    assert list(table.corpus.systems) == SAMPLE_SYSTEMS[:2] and table.human is None
    ted = Study.from_structured(mqm, ["ref"])  # MQM: texts and their judgments from one file
    assert ted.human is not None and set(ted.human.system_scores) >= set(ted.corpus.systems)
    assert Study.from_structured(xml).corpus.references  # WMT XML: its <ref> blocks


def test_judgments_and_metric_scores_go_by_the_table(tmp_path):
    esa = sorted((SHARED / "wmt24" / "human").glob("esa_*.csv"))
    table = SAMPLE / "human_judgments.tsv"
    named = [NamedBytes(str(p), p.read_bytes()) for p in esa]
    assert recognise("judgments", named).name == "esa"  # several files, read together
    assert recognise("judgments", [NamedBytes(str(table), table.read_bytes())]).name == "table"
    assert recognise("judgments", [NamedBytes(str(TED / "raw" / "mqm_ted_zhen.tsv"),
                                              (TED / "raw" / "mqm_ted_zhen.tsv").read_bytes())]).name == "mqm"
    with pytest.raises(InputError) as exc:  # several files that are not all ESA exports: refused, naming them
        Study.from_files([SAMPLE / "reference.txt"], [SAMPLE / "names.txt"], docids=SAMPLE / "docids.txt",
                         human=[table, esa[0]])
    assert exc.value.code == InputError.Codes.JUDGMENTS and str(table) in exc.value.file
    assert "read together only when all are ESA exports (Appraise's CSV)" in str(exc.value)
    study = Study.from_files([SAMPLE / "reference.txt"], [SAMPLE / f"{s}.txt" for s in SAMPLE_SYSTEMS],
                             docids=SAMPLE / "docids.txt", human=table)
    assert study.human.system_scores["consistent"] == pytest.approx((4.8 + 4.7 + 4.9) / 3)
    # metric scores: a WMT-layout score file by its name, COMET's JSON by its first byte, else a table
    n = study.corpus.n_segments
    seg = tmp_path / "Comet.seg.score"
    seg.write_text("".join(f"{s}\t0.{k}\n" for s in SAMPLE_SYSTEMS for k in range(n)))
    comet = tmp_path / "comet.out"
    comet.write_text(json.dumps({f"{s}.txt": [{"COMET": 0.5 + k / 100} for k in range(n)] for s in SAMPLE_SYSTEMS}))
    sys_table = tmp_path / "scores.tsv"
    sys_table.write_text("system\tMetricX\n" + "".join(f"{s}\t-{k}\n" for k, s in enumerate(SAMPLE_SYSTEMS)))
    assert [recognise("metric scores", [NamedBytes(str(p), p.read_bytes())]).name for p in (seg, comet, sys_table)] \
        == ["wmt-score", "comet-json", "table"]
    got = study.with_metric_files([seg, comet, sys_table], ["MetricX"]).external
    assert set(got) == {"Comet", "COMET", "MetricX"} and not got["MetricX"].higher_is_better


def test_a_format_registered_in_the_table_is_read_by_study_and_the_cli(with_psv, tmp_path, capsys):
    from blonde_core.cli import main

    psv = tmp_path / "rows.psv"
    psv.write_bytes(sample_rows("|"))
    tsv = tmp_path / "rows.tsv"
    tsv.write_bytes(sample_rows("\t"))
    a, b = Study.from_structured(psv, ["ref"]), Study.from_structured(tsv, ["ref"])
    assert a.corpus.systems == b.corpus.systems and a.corpus.references == b.corpus.references
    assert main(["score", "--input", str(psv), "-r", "ref", "--format", "json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["systems"]) == set(SAMPLE_SYSTEMS[:2])


def test_the_data_page_uploaders_are_the_table(with_psv):
    """Each role's uploader: its label, help and accepted types from the table (the throwaway format included,
    registered nowhere else); a .psv upload through the structured form loads."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("pages/data.py").run()
    for role in ("texts", "judgments"):
        acc = CATALOG.input_formats(role)
        up = at.file_uploader(key=acc.uploader)
        shown = (up.label + " " + up.help).replace("\\", "")  # the page escapes Markdown
        assert acc.label in shown and all(f.said in shown for f in acc.formats), role
        assert unknown_formats(role, shown) == [] and not up.proto.type  # any name: the fallback reads the rest
    assert "a pipe-separated table" in at.file_uploader(key=CATALOG.input_formats("texts").uploader).label
    at.file_uploader(key=CATALOG.input_formats("texts").uploader).set_value(
        ("rows.psv", sample_rows("|"), "text/plain"))
    at.text_input(key="up_refsys").set_value("ref")
    at.button(key="FormSubmitter:structured-Analyse this file").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("2 system(s)" in m.value for m in at.markdown)
    scored = CATALOG.input_formats("metric scores")  # shown once texts are loaded
    captions = " ".join(c.value for c in at.caption).replace("\\", "")
    assert all(f.said in captions for f in scored.formats) and at.file_uploader(key=scored.uploader)


def test_a_folder_layout_registered_in_the_table_is_read_and_said(tmp_path, monkeypatch):
    """A release folder's layouts are io/wmt.py's LAYOUTS: a throwaway layout added there (one entry: a marker
    file beside the metrics-task layout) is recognised by read_wmt and wmt_pairs, its label is what the folder is
    understood as, and --wmt-dir's help and the "folders" role name it; the same folder without the marker reads as
    the metrics-task layout, the last of the table, which takes whatever the others do not."""
    from blonde_core.io import wmt
    from conftest import wmt22_layout

    root = wmt22_layout(tmp_path, n=20)["root"]
    plain = wmt.read_wmt(root)
    assert plain.layout == "WMT (mt-metrics-eval)" == wmt.LAYOUTS[-1].label
    marked = wmt.FolderLayout(name="marked", label="a marked folder", help="LAYOUT.marked beside documents/",
                              found=lambda t: t if t.has("LAYOUT.marked") else None,
                              pairs=lambda t: wmt._root(t)[1], read=wmt._mme_read, text=wmt._mme_text)
    monkeypatch.setattr(wmt, "LAYOUTS", (marked, *wmt.LAYOUTS))
    assert wmt.read_wmt(root).layout == "WMT (mt-metrics-eval)"  # no marker: not this layout
    (root / "LAYOUT.marked").write_text("")
    got = wmt.read_wmt(root)
    assert got.layout == "a marked folder" and wmt.wmt_pairs(root) == ["zh-en"]
    assert got.corpus.systems == plain.corpus.systems and got.corpus.references == plain.corpus.references
    assert wmt.wmt_text(root, "zh-en", "refA")[1] == (root / "references" / "zh-en.refA.txt").read_text().splitlines()
    folders = accepted("folders")
    assert [f.name for f in folders.formats] == ["marked", "wmt25", "mt-metrics-eval"] and folders.types == ["zip"]
    said = flag_help("score", "--wmt-dir")
    assert all(f"{lay.label}: {lay.help}" in said for lay in wmt.LAYOUTS), said
