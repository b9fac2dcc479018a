"""The meta-evaluation statistics' table (blonde_core/analysis/stats/statistics.py) drives every view: correlate's
JSON holds the fields the table declares, its text lists the table's columns, the report's correlation section its
labels, the Human correlation page its columns - no view names a statistic the table lacks or misses one it has.
And a statistic added to the table alone (Pearson of ranks, which must equal Spearman) is computed and shown by
all of them (issue 61 point 2), on the sample's real texts and judgments."""
import ast
import json
import re

import numpy as np
import pytest
from scipy.stats import rankdata

from conftest import ROOT, SAMPLE, sample_paths
from blonde_core.analysis.stats import statistics as T

FILES = ["-r", SAMPLE / "reference.txt", "-s", *sample_paths(), "--docids", SAMPLE / "docids.txt",
         "--human", SAMPLE / "human_judgments.tsv"]
RECORD = {"n", "ci_methods", "ci_method"}  # a metric record's own fields, beside its statistics'


def run(capsys, *args):
    from blonde_core.cli import main

    code = main(list(map(str, args)))
    got = capsys.readouterr()
    assert code == 0, got.err
    return got.out


def text_header(text: str) -> list[str]:
    return text.splitlines()[0].split()


def want_header(level: str, flags=()) -> list[str]:
    """The text table's header words as the table declares them: metric, then each listed statistic's column,
    its interval's and the columns beside it."""
    words = ["metric"]
    for s in T.shown("cli", level, flags=flags):
        words += [s.short] + (["95% CI"] if s.interval else []) + [b.header for b in s.beside]
    return " ".join(words).split()


def ranks_statistic() -> T.Statistic:
    """A statistic the table does not have: Pearson of the system scores' ranks (Spearman by another road)."""
    def compute(c):
        ok = c.rated()
        return {"pearson_ranks": float(np.corrcoef(rankdata(c.metric[ok]), rankdata(c.human[ok]))[0, 1])
                if ok.sum() >= 3 and np.ptp(c.metric[ok]) > 0 else None}
    return T.Statistic("pearson_ranks", T.SYSTEM, "Pearson of ranks", "ranks r", "none (one value per system)",
                       ("3 systems",), compute, ("pearson_ranks",), "Pearson's r of the ranks",
                       views=("cli", "page", "report"))


@pytest.mark.parametrize("level,flags", [("system", ()), ("system", ("accuracy", "spa")), ("document", ()),
                                         ("segment", ())])
def test_correlate_json_and_text_are_the_tables(capsys, level, flags):
    args = ["correlate", *FILES, "--level", level, "--bootstrap", "100", *(f"--{f}" for f in flags)]
    data = json.loads(run(capsys, *args, "--format", "json"))
    computed = T.at(level, [f for f in flags if f == "spa"])
    declared = RECORD.union(*(s.fields for s in computed))
    for m, rec in data["metrics"].items():
        assert set(rec) <= declared, (m, set(rec) - declared)  # no field the table does not declare
        assert all(s.key in rec for s in computed), m  # every statistic of the level computed
    text = run(capsys, *args)
    assert text_header(text) == want_header(level, flags)
    if "spa" in flags:
        assert any(line.startswith("SPA: over documents") for line in text.splitlines())  # the statistic's note


def test_views_do_not_spell_statistics_out():
    """The correlate command's text, the report's correlation section and the page's table read the table: none
    of them names a statistic's field (the page's scatter and two-metric comparison, made of Pearson by
    definition, are outside the table's rows)."""
    keys = {s.key for s in T.TABLE} | {s.interval for s in T.TABLE if s.interval} | {s.short for s in T.TABLE} \
        | {s.label for s in T.TABLE}

    def literals(node):
        return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}

    cli = ast.parse((ROOT / "blonde_core" / "cli" / "commands.py").read_text(encoding="utf-8"))
    run_correlate = next(n for n in cli.body if isinstance(n, ast.FunctionDef) and n.name == "run_correlate")
    json_out = next(i for i, n in enumerate(run_correlate.body) if isinstance(n, ast.If)
                    and ast.unparse(n.test) == "a.format == 'json'")
    text_out = run_correlate.body[json_out + 1:]  # the text, after the JSON's return
    assert text_out and not set().union(*map(literals, text_out)) & keys
    report = (ROOT / "blonde_core" / "report.py").read_text(encoding="utf-8")
    section = report[report.index("# correlation with humans"):report.index("# the documents where the top two")]
    assert not literals(ast.parse("if 1:\n" + section)) & keys
    page = (ROOT / "pages" / "correlation.py").read_text(encoding="utf-8")
    rows = page[page.index("rows = []"):page.index('st.subheader("Compare two metrics")')]
    assert not literals(ast.parse(rows)) & keys


def test_report_lists_the_tables_statistics(tmp_path, capsys):
    run(capsys, "report", *FILES, "--ci", "50", "-o", tmp_path / "r.html")
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    section = html[html.index("Correlation with humans (system level)"):]
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", section[:section.index("</thead>")])
    assert heads == ["metric"] + [s.label for s in T.shown("report", "system")]


def page_table(at):
    return [df.value for df in at.dataframe if "metric" in df.value.columns and "n" in df.value.columns][0]


def want_columns(level: str, spa: bool = False) -> list[str]:
    cols = ["metric"]
    for s in T.shown("page", level):
        if s.option and not spa:
            continue
        cols += [s.short] + ([f"{s.short}_low", f"{s.short}_high"] if s.interval else [])
        cols += [k for b in s.beside for k in b.page({})]
    return cols + (["intervals"] if level == "system" else ["groups used", "groups left out"]) + ["n"]


def sample_page():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("pages/data.py").run()
    at.button[0].click().run()  # the sample, with its judgments
    return at.switch_page("pages/correlation.py").run()


def test_the_page_lists_the_tables_statistics():
    at = sample_page()
    assert not at.exception and not at.error
    assert list(page_table(at).columns) == want_columns("system")
    assert [t.label for t in at.toggle if t.key == "corr_spa"] == [T.OPTIONS["spa"]]  # the option's switch
    at.toggle(key="corr_spa").set_value(True).run()
    assert list(page_table(at).columns) == want_columns("system", spa=True)
    at.toggle(key="corr_spa").set_value(False)
    at.session_state["corr_level"] = "document"
    at.run()
    assert not at.exception and not at.error
    assert list(page_table(at).columns) == want_columns("document")


def test_a_statistic_added_to_the_table_alone_is_computed_and_shown_everywhere(monkeypatch, capsys, tmp_path):
    """One entry in the table: correlate's JSON has it, its text, the report and the page show it."""
    s = ranks_statistic()
    monkeypatch.setitem(T.STATISTICS, s.id, s)
    args = ["correlate", *FILES, "--bootstrap", "0", "--seed", "7"]
    data = json.loads(run(capsys, *args, "--format", "json"))
    for m, rec in data["metrics"].items():  # Pearson of ranks is Spearman's rho
        if rec["spearman"] is not None:
            assert rec["pearson_ranks"] == pytest.approx(rec["spearman"], abs=1e-12), m
    text = run(capsys, *args)
    assert text_header(text) == want_header("system") and "ranks" in text_header(text)
    run(capsys, "report", *FILES, "--ci", "50", "--seed", "7", "-o", tmp_path / "r.html")
    assert "<th>Pearson of ranks</th>" in (tmp_path / "r.html").read_text(encoding="utf-8")
    at = sample_page()
    at.multiselect(key="corr_exclude_reference").set_value(["markers"]).run()  # settings no earlier run cached
    assert not at.exception and not at.error
    table = page_table(at).set_index("metric")
    assert "ranks r" in table.columns
    assert table.loc["BlonDe", "ranks r"] == pytest.approx(table.loc["BlonDe", "spearman"], abs=1e-12)
