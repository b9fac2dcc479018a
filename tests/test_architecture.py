"""The core's shape, read from the source (tests/import_graph.py; run it to print the graph):
no import circles, every import points down the list of parts, and the pages reach the core
only through its door."""
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
            door = {"blonde_core.study"} | ({"blonde_core.render"} if name.startswith("pages") else set()) | \
                ({"blonde_core.blas"} if name in ("app", "blonde_core.cli") else set()) | \
                ({"blonde_core"} if name.startswith("blonde_core.cli") else set())
            core = {d for d in deps if d.startswith("blonde_core") and not d.startswith("blonde_core.cli")}
            assert core <= door, (name, sorted(core - door))
            seen += bool(core)
    assert seen >= 15


def test_the_checks_catch_a_circle_and_an_upward_import():
    g = {"blonde_core.io.a": {"blonde_core.analysis.b"}, "blonde_core.analysis.b": {"blonde_core.io.a"}}
    assert cycles(g) == [["blonde_core.analysis.b", "blonde_core.io.a"]]
    assert upward(g) == [("blonde_core.io.a", "blonde_core.analysis.b")]


def test_one_streamlit_version():
    """requirements.txt pins Streamlit; pyproject's app extra admits that version's minor only (the pages use
    internals of it: pages/_shared.py, app.py), so the two never disagree."""
    import re

    from conftest import ROOT

    pin = re.search(r"^streamlit==(\d+)\.(\d+)\.\d+$", (ROOT / "requirements.txt").read_text(), re.M)
    extra = re.search(r'"streamlit>=(\d+)\.(\d+),<(\d+)\.(\d+)"', (ROOT / "pyproject.toml").read_text())
    assert pin and extra, "one pin in requirements.txt, one range in pyproject.toml"
    major, minor = int(pin[1]), int(pin[2])
    assert (int(extra[1]), int(extra[2])) == (major, minor) and (int(extra[3]), int(extra[4])) == (major, minor + 1)
