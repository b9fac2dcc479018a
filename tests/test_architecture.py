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


def test_pages_reach_the_core_only_through_the_door():
    g = graph()
    door = {"blonde_core.study", "blonde_core.render"}
    for name, deps in g.items():
        if layer(name) == "app":
            core = {d for d in deps if d.startswith("blonde_core")}
            assert core <= door | {"blonde_core.annotation.blas"} if name == "app" else core <= door, (name, core)


def test_the_checks_catch_a_circle_and_an_upward_import():
    g = {"blonde_core.io.a": {"blonde_core.analysis.b"}, "blonde_core.analysis.b": {"blonde_core.io.a"}}
    assert cycles(g) == [["blonde_core.analysis.b", "blonde_core.io.a"]]
    assert upward(g) == [("blonde_core.io.a", "blonde_core.analysis.b")]
