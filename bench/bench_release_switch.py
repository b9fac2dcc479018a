"""Benchmark: switching pairs of a release on the dashboard (issue 65: at most 1 s warm).

    .venv/bin/python bench/bench_release_switch.py

A release of two pairs built from WMT22 zh-en (tests/conftest.py's layout: zh-en with every system, ja-en with
three) is put in an AppTest session as the Data page leaves it; the sidebar's Language pair is switched to the
other pair and the Home page (leaderboard, clusters) drawn - cold, then back and forth warm. Then the Release page
of the same folder loaded by a session, and by a second session of the same server (the pairs the first read are
shared: studio/release.py). AppTest reruns only a
page after a session's first run, so each switch is a fresh AppTest carrying the session's state, in one process
(one engine, as one server)."""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main() -> int:
    from streamlit.testing.v1 import AppTest

    from blonde_core.study import Study
    from conftest import WMT_SUBSET_SYSTEMS, wmt22_layout

    d = Path(tempfile.mkdtemp())
    wmt22_layout(d, 60, lp="zh-en")
    rel = wmt22_layout(d, 40, systems=WMT_SUBSET_SYSTEMS[:3], lp="ja-en")["root"]
    first = Study.from_wmt(rel, "ja-en")
    state = {"data": first, "release": {"source": rel, "pairs": ["ja-en", "zh-en"], "gold": None, "lower": [],
                                        "esa_common": True, "roots": None, "label": str(rel),
                                        "studies": {"ja-en": first}, "tables": {}}}
    runs = [(None, "Home on ja-en, cold"), ("zh-en", "switch to zh-en + Home, cold"),
            ("ja-en", "switch back to ja-en + Home, warm"), ("zh-en", "switch to zh-en + Home, warm")]
    warm = []
    for target, label in runs:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
        for k, v in state.items():
            at.session_state[k] = v
        if target:
            at.session_state[f"release_pair_{state['data'].wmt[1]}"] = target
        t = time.perf_counter()
        at.run()
        dt = time.perf_counter() - t
        assert not at.exception, [e.value for e in at.exception]
        state = {k: at.session_state[k] for k in ("data", "release")}
        print(f"{label}: {dt:.2f} s (pair now {state['data'].wmt[1]})")
        if "warm" in label:
            warm.append(dt)
    print(f"warm switch, worst: {max(warm):.2f} s (target <= 1)")
    # the Release page: this session first, then a second session loading the same folder on the same server
    import os

    os.environ["BLONDE_WMT_ROOTS"] = str(d)
    for who in ("first session", "second session (the pairs read by the first)"):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
        at.run()
        at.switch_page("pages/data.py").run()
        at.text_input(key="up_wmt_dir").set_value(str(rel))
        at.text_input(key="up_wmt_lp").set_value("all")
        t = time.perf_counter()
        at.button(key="FormSubmitter:wmt-Load this folder").click().run()
        at.switch_page("pages/release.py").run()
        dt = time.perf_counter() - t
        assert not at.exception and at.dataframe, [e.value for e in at.exception]
        print(f"Release page, {who}: load + table {dt:.2f} s" + (" (target <= 2)" if who.startswith("second") else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
