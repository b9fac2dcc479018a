"""The first open of Categories against the Overview's warm time, on TED zh-en (13 systems), in one run.

    .venv/bin/python bench/bench_pages.py

Each page runs as the server runs it (Streamlit's AppTest: the real page with the session's data and
the server's one engine). The Overview opens first (annotation, intervals, clusters: cold), then again
(warm: its median of 3 reruns); then Categories opens for the first time in that session and data
(what it computes that the Overview did not: the heatmap's table and its open tab, Per feature), and
each of its other tabs is opened once (only an open tab's content is computed). Twice:
in a fresh process (Categories' code compiled and Plotly's and the grid's first use paid there, once
per server), and in a process where Categories already ran for other data (a running server: what a
user who loads new data waits for). Target (issue 50): Categories' first open within 1.5 x the
Overview's warm time.
"""
from __future__ import annotations

import functools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BLONDE_CACHE_DIR", tempfile.mkdtemp(prefix="bench-pages-"))
print = functools.partial(print, flush=True)  # noqa: A001
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR") or ROOT.parent / "shared")
TED = SHARED / "data" / "ted-zhen"


def timed(at) -> float:
    t = time.perf_counter()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return time.perf_counter() - t


def main() -> None:
    from streamlit.testing.v1 import AppTest

    from blonde_core.study import Study
    from studio.state import server_engine

    def session(study, label: str) -> None:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
        at.session_state["data"] = study
        at.switch_page("pages/overview.py")
        cold = timed(at)
        warm = statistics.median(timed(at) for _ in range(3))
        at.switch_page("pages/categories.py")
        first = timed(at)
        again = statistics.median(timed(at) for _ in range(3))
        print(f"{label}: Overview first {cold:.2f} s, warm median {warm:.3f} s; Categories first open {first:.3f} s "
              f"= {first / warm:.2f} x the Overview's warm time (target <= 1.5), warm median {again:.3f} s")
        tabs = [t.label for t in at.tabs]
        opened = []
        for tab in tabs[1:]:  # the details tabs other than the default, each opened for the first time
            at.session_state["cat_tab"] = tab
            t = timed(at)
            opened.append(f"{tab} {t:.3f} s ({t / warm:.2f} x)")
        print(f"    then each other tab's first open: {'; '.join(opened)}")

    def ted(systems):
        return Study.from_files([TED / "refs" / "ref.txt"], systems, docids=TED / "docids.txt", origin="TED",
                                engine=server_engine())
    systems = sorted((TED / "systems").glob("*.txt"))
    session(ted(systems[:3]), "fresh process, TED with 3 systems")
    session(ted(systems), "the same process (Categories ran before), TED with all 13 systems")


if __name__ == "__main__":
    main()
