"""The core's shape, read from the source (tests/import_graph.py; run it to print the graph):
no import circles, every import points down the list of parts, and the pages reach the core
only through its door."""
import dataclasses

from import_graph import LAYERS, cycles, graph, layer, upward


def test_the_import_graph_has_no_circles():
    g = graph()
    assert len(g) > 40 and any(d for d in g.values())  # the graph was read
    assert cycles(g) == []


def test_every_import_points_down_the_parts():
    g = graph()
    assert [layer(n) for n in ("blonde_core.lang.base", "blonde_core.annotation.store", "blonde_core.io.readers",
                               "blonde_core.metric.scoring", "blonde_core.analysis.stats.meta",
                               "blonde_core.study", "blonde_core.cli.commands", "pages.overview")] == list(LAYERS[1:])
    assert upward(g) == []


def test_pages_and_commands_reach_the_core_only_through_the_door():
    """Pages import blonde_core.study and blonde_core.render (the span HTML) of the core; the command line
    blonde_core.study (and the package for its version); app.py and the command line also
    blonde_core.blas, the BLAS thread setting made before numpy loads. Nothing deeper."""
    g = graph()
    seen = 0
    for name, deps in g.items():
        if layer(name) == "app" or name.startswith("blonde_core.cli"):
            door = {"blonde_core.study"} | ({"blonde_core.render"} if name.startswith(("pages", "studio")) else set()) | \
                ({"blonde_core.blas"} if name in ("app", "blonde_core.cli") else set()) | \
                ({"blonde_core"} if name.startswith("blonde_core.cli") else set())
            core = {d for d in deps if d.startswith("blonde_core") and not d.startswith("blonde_core.cli")}
            assert core <= door, (name, sorted(core - door))
            seen += bool(core)
    assert seen >= 15


def corpus_reads(text: str) -> list[int]:
    """The lines of Python source that read an attribute named `corpus` (`x.corpus`, `getattr(x, "corpus")`):
    the io Corpus reached past the door. Words in strings and comments are not reads."""
    import ast

    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Attribute) and node.attr == "corpus":
            found.append(node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") \
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value == "corpus":
            found.append(node.lineno)
    return sorted(found)


def test_pages_and_commands_never_read_the_corpus():
    """The io Corpus stays behind the door (issue 61 point 5): pages, the app's runtime and the command line ask
    the Study (doc_ids, references, source, texts, check, ...) or the Analysis a result comes as (doc_ids,
    references, source, resegmented), never `.corpus`."""
    from conftest import ROOT

    files = [*(ROOT / "pages").glob("*.py"), *(ROOT / "studio").glob("*.py"), ROOT / "app.py",
             *(ROOT / "blonde_core" / "cli").glob("*.py")]
    assert len(files) > 20
    found = {str(f.relative_to(ROOT)): corpus_reads(f.read_text(encoding="utf-8")) for f in files}
    assert not any(found.values()), {k: v for k, v in found.items() if v}
    # the detector sees each way of reading it, and only those
    planted = ("docs = res.corpus.doc_ids\nc = d.corpus\nmoved = getattr(res.corpus, 'x', {})\n"
               "y = getattr(d, 'corpus')\n")
    assert corpus_reads(planted) == [1, 2, 3, 4]
    assert corpus_reads("st.caption('F1 over the corpus.corpus')  # d.corpus\ncorpus = 1\nx = corpus_diff") == []


def annotators_made(text: str) -> list[tuple[int, str | None]]:
    """(line, the function it is in) of every call that makes an Annotator in Python source."""
    import ast

    out = []

    def visit(node, within):
        for child in ast.iter_child_nodes(node):
            name = getattr(child.func, "id", getattr(child.func, "attr", None)) if isinstance(child, ast.Call) else None
            if name == "Annotator":
                out.append((child.lineno, within))
            visit(child, child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else within)
    visit(ast.parse(text), None)
    return out


def test_one_place_builds_an_annotator():
    """An Annotator is made by annotation/annotator.py's build_annotator only (Engine.annotator and BlonDe call
    it): the same pack, worker count and cache rules wherever one is needed."""
    from conftest import ROOT

    made = {str(f.relative_to(ROOT)): annotators_made(f.read_text(encoding="utf-8"))
            for f in (ROOT / "blonde_core").rglob("*.py")}
    made = {k: v for k, v in made.items() if v}
    assert list(made) == ["blonde_core/annotation/annotator.py"], made
    assert [within for _, within in made["blonde_core/annotation/annotator.py"]] == ["build_annotator"]
    # the detector sees a call wherever it is
    assert annotators_made("def f():\n    return Annotator(p, True)\nann = annotation.Annotator(p, False)\n") == \
        [(2, "f"), (3, None)]


def test_the_checks_catch_a_circle_and_an_upward_import():
    g = {"blonde_core.io.a": {"blonde_core.analysis.b"}, "blonde_core.analysis.b": {"blonde_core.io.a"}}
    assert cycles(g) == [["blonde_core.analysis.b", "blonde_core.io.a"]]
    assert upward(g) == [("blonde_core.io.a", "blonde_core.analysis.b")]


def test_one_streamlit_version():
    """requirements.txt pins Streamlit; pyproject's app extra admits that version's minor only (the pages use
    internals of it: studio/internals.py), so the two never disagree."""
    import re

    from conftest import ROOT

    pin = re.search(r"^streamlit==(\d+)\.(\d+)\.\d+$", (ROOT / "requirements.txt").read_text(), re.M)
    extra = re.search(r'"streamlit>=(\d+)\.(\d+),<(\d+)\.(\d+)"', (ROOT / "pyproject.toml").read_text())
    assert pin and extra, "one pin in requirements.txt, one range in pyproject.toml"
    major, minor = int(pin[1]), int(pin[2])
    assert (int(extra[1]), int(extra[2])) == (major, minor) and (int(extra[3]), int(extra[4])) == (major, minor + 1)


def test_pages_holds_page_files_only():
    """pages/ is Streamlit's page folder: page files, each declared once in studio/navigation.py's PAGES (which
    app.py routes with st.navigation); the app's runtime lives in studio/.  No page or studio module names a page
    by its path: page_link and switch_page take the declaration's st.Page (`page("overview")`)."""
    import re

    from conftest import ROOT
    from studio.navigation import PAGES

    files = sorted(p.name for p in (ROOT / "pages").iterdir() if p.suffix == ".py")
    assert files and not [f for f in files if f.startswith("_")], files
    assert sorted(p.file for p in PAGES) == [f"pages/{f}" for f in files], "every page file declared, once"
    assert len({p.title for p in PAGES}) == len(PAGES) and sum(p.default for p in PAGES) == 1
    app = (ROOT / "app.py").read_text(encoding="utf-8")
    assert "st.navigation(sections()" in app and "st.Page(" not in app
    for f in [*(ROOT / "pages").glob("*.py"), *(ROOT / "studio").glob("*.py"), ROOT / "app.py"]:
        said = re.findall(r"""["']pages/\w+\.py["']""", f.read_text(encoding="utf-8"))
        assert not said, (f.name, said)


def test_only_studio_internals_reaches_streamlit_private_parts():
    """streamlit.runtime (PagesManager, Runtime, the script-run context) and the XSRF cookie: studio/internals.py
    only."""
    from conftest import ROOT

    others = [p for d in ("pages", "studio") for p in (ROOT / d).glob("*.py") if p.name != "internals.py"]
    found = {p.name: private_parts(p.read_text(encoding="utf-8")) for p in others + [ROOT / "app.py"]}
    assert not any(found.values()), {k: v for k, v in found.items() if v}
    # and the check sees each kind, and what internals.py itself holds
    for planted in ("from streamlit.runtime import Runtime", "x = '_streamlit_xsrf'", 'q("[data-testid=\'stMain\']")',
                    "css = '.st-key-bl-warmup{height:0}'", "css = '.stProgress *{transition:none}'",
                    "css = '.stElementContainer[data-stale]{opacity:1}'"):
        assert private_parts(planted), planted
    assert not private_parts("st.progress(0.5); st.container(key='bl-nav'); x = '.bl-table{border:0}'")
    inner = private_parts((ROOT / "studio" / "internals.py").read_text(encoding="utf-8"))
    assert {"streamlit.runtime", "data-testid", ".st-key-", ".stProgress", ".stElementContainer"} <= set(inner)


def private_parts(text: str) -> list[str]:
    """Streamlit's private modules, its XSRF cookie, and its DOM (test ids, `st-key-` and `st`-prefixed class
    selectors) named in a file's text."""
    import re

    found = [p for p in ("streamlit.runtime", "_streamlit_xsrf", "PagesManager", "clear_user_info_for_session")
             if p in text]
    found += sorted(set(re.findall(r"data-testid|\.st-key-|\.st[A-Z][A-Za-z]+", text)))
    return found


def test_streamlit_internals_are_there():
    """Each private part studio/internals.py uses exists in the installed Streamlit: an upgrade that removes one
    fails here, not in front of a user."""
    import inspect

    from streamlit.runtime import Runtime
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    from studio import internals

    assert isinstance(PagesManager.uses_pages_directory, (bool, type(None)))
    for name in ("exists", "instance", "is_active_session", "clear_user_info_for_session"):
        assert callable(getattr(Runtime, name, None)), name
    assert "session_id" in inspect.signature(Runtime.clear_user_info_for_session).parameters
    from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

    assert get_script_run_ctx() is None  # outside a script run; what a run's context holds is checked on the class
    assert "session_id" in {f.name for f in dataclasses.fields(ScriptRunContext)}
    # the XSRF cookie's masked form, as tornado writes it (Streamlit's server is tornado): unmasked to its secret
    from tornado.web import _websocket_mask

    secret, mask = b"0123456789abcdef", b"\x01\x02\x03\x04"
    raw = f"2|{mask.hex()}|{_websocket_mask(mask, secret).hex()}|1700000000"
    assert internals.xsrf_secret(raw) == secret
    was = internals.legacy_pages_on()
    internals.legacy_pages_off()
    assert internals.legacy_pages_on() is False
    PagesManager.uses_pages_directory = was


def test_every_pack_names_a_registered_analyser_and_its_script():
    """A language is its folder (issue 61 point 4): each pack's analyser kind is declared by one adapter module
    (annotation/adapters.py reads the decorator lines), whose import registers that kind with a version (spaCy's
    alone has none: its pipeline's versions name the records); a kind nobody declares is the pack's error, naming
    its file.  The pack's script says BLEU's tokenizer: for the languages sacrebleu knows it is sacrebleu's own
    choice for that target (the facts moved out of three lists without changing one)."""
    import importlib
    import json

    import pytest
    from sacrebleu.metrics import BLEU

    from blonde_core.annotation import adapters
    from blonde_core.annotation.pipeline import find_pipeline
    from blonde_core.errors import InputError
    from blonde_core.lang.base import _build, available, load_pack
    from blonde_core.lang.scripts import script

    declared = adapters.declared()
    assert {"spacy", "jieba", "mecab", "kiwi"} <= set(declared)
    for kind, module in declared.items():
        importlib.import_module(f"blonde_core.annotation.{module}")
        got = adapters._REGISTRY[kind]
        assert got.kind == kind and hasattr(got.cls, "records"), kind
        assert (got.version is None) == (kind == "spacy") and (got.version is None or got.version >= 1), kind
    for code in available():
        pack = load_pack(code)
        assert pack.analyser in declared, (code, pack.analyser)
        assert adapters.adapter_of(pack).kind == pack.analyser
        want = BLEU(trg_lang=code).tokenizer.signature()
        assert BLEU(tokenize=script(code).bleu_tokenize).tokenizer.signature() == want, code
    assert [c for c in available() if script(c).unspaced] == ["ja", "zh"]
    assert [c for c in available() if script(c).ter_asian_support] == ["ja", "ko", "zh"]
    assert script("th") == script(None) == script("en")  # no pack: sacrebleu's defaults
    data = json.loads(load_pack("fr").source and open(load_pack("fr").source, encoding="utf-8").read())
    odd = _build({**data, "analyser": {"kind": "treetagger", "packages": ["treetaggerwrapper"]}}, "odd/pack.json")
    with pytest.raises(InputError) as e:  # a kind no adapter declares: refused by the registry, naming the pack
        find_pipeline(odd)
    assert e.value.file == "odd/pack.json" and "'treetagger'" in str(e.value) and "kiwi" in str(e.value)
    with pytest.raises(InputError) as e:
        _build({**data, "script": {"unspaced": True, "tokenizer": "zh"}}, "odd/pack.json")
    assert e.value.file == "odd/pack.json" and "tokenizer" in str(e.value)
