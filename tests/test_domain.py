"""One domain of a WMT test set (issue 44, point 4): `--domain` and the sidebar's domain restrict the
texts, the human judgments and the metrics computed elsewhere to the documents of that domain - checked
against the same documents loaded as plain files, and the ESA means recomputed by hand from the CSV."""
import json

import pytest

from test_wmt24 import ESA, WMT24, _by_hand, run


def _domain_lines(lp: str, domain: str) -> list[int]:
    """0-based lines of the released files (the canary is line 0) whose document is in the domain."""
    rows = (WMT24 / "documents" / f"{lp}.docs").read_text(encoding="utf-8").splitlines()
    return [k for k, r in enumerate(rows) if r.split("\t")[0] == domain]


def test_a_domain_scores_as_its_documents_loaded_alone(tmp_path, capsys):
    """BlonDe, chrF and BLEU of en-zh's news documents through --domain equal those of the same lines
    written out as plain files with their document ids; the signature names the domain."""
    lp, systems = "en-zh", ["GPT-4", "ONLINE-B"]
    lines = _domain_lines(lp, "news")
    docs = (WMT24 / "documents" / f"{lp}.docs").read_text(encoding="utf-8").splitlines()

    def take(path, name):
        text = path.read_text(encoding="utf-8").split("\n")
        out = tmp_path / f"{name}.txt"
        out.write_text("\n".join(text[k] for k in lines) + "\n", encoding="utf-8")
        return out
    ref = take(WMT24 / "references" / f"{lp}.refA.txt", "refA")
    syss = [take(WMT24 / "system-outputs" / lp / f"{s}.txt", s) for s in systems]
    ids = tmp_path / "docids.txt"
    ids.write_text("\n".join(docs[k].split("\t")[1] for k in lines) + "\n", encoding="utf-8")

    code, out, err = run(capsys, "score", "--wmt-dir", WMT24, "--lp", lp, "--domain", "news", "--metrics",
                         "chrF,BLEU", "--format", "json")
    assert code == 0, err
    via_domain = json.loads(out)
    assert "domain 'news': 17 of 170 documents, 149 segments" in err
    assert via_domain["domain"] == {"name": "news", "documents": 17, "segments": 149, "notes": []}
    assert "|domain:news|" in via_domain["signature"]
    code, out, err = run(capsys, "score", "-r", ref, "-s", *syss, "--docids", ids, "--metrics", "chrF,BLEU",
                         "--format", "json")
    assert code == 0, err
    alone = json.loads(out)
    for s in systems:
        a, b = via_domain["systems"][s], alone["systems"][s]
        for k in ("BlonDe", "chrF", "BLEU"):
            assert a[k] == b[k], (s, k)
        assert a["categories"] == b["categories"]
    # and the whole folder scores otherwise
    code, out, _ = run(capsys, "score", "--wmt-dir", WMT24, "--lp", lp, "--metrics", "chrF", "--format", "json")
    assert json.loads(out)["systems"]["GPT-4"]["chrF"] != via_domain["systems"]["GPT-4"]["chrF"]


def test_esa_in_a_domain_by_hand():
    """Each system's ESA score in a domain is its mean over the domain's segments judged for every system,
    from the CSV by hand; documents and error spans outside the domain are gone."""
    from blonde_core.study import ScoreConfig, Study

    s = Study.from_wmt(WMT24, lp="en-zh").with_files(human=[str(p) for p in ESA])
    lines = set(_domain_lines("en-zh", "speech"))
    sub = s.in_domain("speech")
    want = _by_hand(("eng", "zho"), ["GPT-4", "IKUN-C", "refA"], keep=lines)
    for name, v in want.items():
        assert sub.human.system_scores[name] == pytest.approx(v, abs=1e-9), name
        assert sub.human.system_scores[name] != pytest.approx(s.human.system_scores[name], abs=1e-6)
    docs = set(sub.corpus.doc_ids)
    assert {k[1] for k in sub.human.segments} <= docs and {k[1] for k in sub.human.error_spans} <= docs
    assert {row[1] for row in sub.human.errors} <= docs
    assert sub.human.details["segments_common"] == len(sub.human.compared) < s.human.details["segments_common"]
    assert sub.signature(ScoreConfig(lang="zh")).count("|domain:speech|") == 1


def test_metrics_computed_elsewhere_follow_the_domain(tmp_path):
    """Segment scores are cut to the domain and their mean is the system score; a metric given per
    system only covers every domain, so it is left out and said; an unknown domain names the known ones."""
    from blonde_core.study import InputError, Study

    s = Study.from_wmt(WMT24, lp="en-cs")
    n = s.corpus.n_segments
    seg = tmp_path / "M.seg.score"
    seg.write_text("".join(f"{sys}\t{(k % 7) / 10}\n" for sys in s.corpus.systems for k in range(n)))
    sysf = tmp_path / "S.sys.score"
    sysf.write_text("".join(f"{sys}\t0.5\n" for sys in s.corpus.systems))
    s = s.with_metric_files([seg, sysf])
    sub = s.in_domain("literary")
    m = sub.external["M"]
    assert m.n_segments == sub.corpus.n_segments < n
    places = [k for k, (d, *_) in enumerate(s.corpus.segment_places()) if s.domains[d] == "literary"]
    want = sum((k % 7) / 10 for k in places) / len(places)
    assert m.score("GPT-4") == pytest.approx(want, abs=1e-12)
    assert "S" not in sub.external and any("'S' has system scores only" in x for x in sub.messages["domain"])
    with pytest.raises(InputError) as e:
        s.in_domain("sports")
    assert "literary (" in str(e.value) and "news (" in str(e.value)
    with pytest.raises(InputError) as e:
        Study.from_texts(["A line."], {"sys": ["A line."]}).in_domain("news")
    assert "these texts have no domains" in str(e.value)


def test_the_pages_show_the_sidebars_domain(capsys):
    """WMT24 en-zh with the sidebar's domain 'news': the Overview signs and gives the command with the
    domain, and the Human correlation page's system-level correlations equal `correlate --domain news`."""
    from streamlit.testing.v1 import AppTest

    from blonde_core.metric.settings import ScoreConfig
    from blonde_core.study import Study
    from conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    study = at.session_state["data"] = Study.from_wmt(WMT24, lp="en-zh")
    at.session_state[f"domain_{study.key}"] = "news"  # the sidebar's Domain, chosen before the Home page scores
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    box = at.sidebar.selectbox(key=f"domain_{study.key}")
    assert box.options[0].startswith("all (170 documents)") and "news (17 documents)" in box.options
    assert box.value == "news" and any("17 of 170 documents" in c.value for c in at.caption)  # Home says it too
    # AppTest's switch_page runs a page without app.py's sidebar: set what the sidebar sets
    at.session_state["config"] = ScoreConfig(lang="zh", lowercase=False)
    at.session_state["domain"] = "news"
    at.switch_page("pages/overview.py").run()
    assert not at.exception and not at.error, [e.value for e in at.exception] + [e.value for e in at.error]
    assert any("only (the sidebar's Domain): 17 of 170 documents, 149 segments" in c.value for c in at.caption)
    shown = " ".join(h.proto.body for h in at.html)
    assert "domain:news" in shown and "--domain news" in shown
    at.switch_page("pages/correlation.py").run()
    assert not at.exception and not at.error, [e.value for e in at.exception] + [e.value for e in at.error]
    table = [df.value for df in at.dataframe if "pearson" in df.value.columns][0].set_index("metric")
    code, out, err = run(capsys, "correlate", "--wmt-dir", WMT24, "--lp", "en-zh", "--domain", "news", "--level",
                         "system", "--metrics", "BlonDe,chrF", "--format", "json")
    assert code == 0, err
    want = json.loads(out)["metrics"]
    for m in ("BlonDe", "chrF"):
        assert table.loc[m, "pearson"] == pytest.approx(want[m]["pearson"], abs=1e-9), m
