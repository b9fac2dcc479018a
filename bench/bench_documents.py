"""The Documents page on TED zh-en's longest talk (talk.9, 159 sentences) with five systems, warm.

    .venv/bin/python bench/bench_documents.py            # server script time (AppTest) and a real browser
    .venv/bin/python bench/bench_documents.py --no-browser

Prints: the page's script time on the server (Streamlit's AppTest runs the real page with the
session's data; first run, then the median and max of 5 warm reruns), for the default page of 25
sentences, for all 159 sentences on one page, and with the pronoun mismatch filter; then, in
Chromium against `streamlit run`, the time from a click in the navigation to the highlighted rows
drawn and the script finished (median of 5, warm).  Target: under 2 s warm.
"""
from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("BLONDE_CACHE_DIR", tempfile.mkdtemp(prefix="bench-documents-"))
print = functools.partial(print, flush=True)  # noqa: A001

from bench_app import CHROMIUM, TED, Server, nav, open_page, upload  # noqa: E402

SYSTEMS = ["Online-W", "SMU", "Borderline", "DIDI-NLP", "NiuTrans"]
DOC = "talk.9"


def server_side() -> None:
    from streamlit.testing.v1 import AppTest

    from blonde_core.study import Study
    from studio.state import server_engine

    study = Study.from_files([TED / "refs" / "ref.txt"], sorted((TED / "systems").glob("*.txt")),
                             docids=TED / "docids.txt", origin="TED", engine=server_engine())
    for k, (label, extra) in enumerate((("25 sentences a page", {}), ("all 159 sentences", {"doc_page_size": 1000}),
                                        ("only tense mismatches", {"doc_only": ["tense"]}))):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
        at.session_state["data"] = study
        at.session_state["pending_doc"] = {"doc_sel": DOC, "doc_systems": SYSTEMS, "doc_page": 1, **extra}
        at.switch_page("pages/documents.py")
        t = time.perf_counter()
        at.run()
        first = time.perf_counter() - t
        assert not at.exception, [e.value for e in at.exception]
        rows = "".join(h.proto.body for h in at.get("html")).count("class='bl-row'")
        warm = []
        for _ in range(5):
            t = time.perf_counter()
            at.run()
            warm.append(time.perf_counter() - t)
        print(f"server script, {label}: {rows} rows; first run {first:.2f} s"
              f"{' (annotation, cold cache)' if k == 0 else ''}, warm median "
              f"{statistics.median(warm):.3f} s, max {max(warm):.3f} s")


def browser_side() -> None:
    from playwright.sync_api import sync_playwright

    server = Server(Path(os.environ["BLONDE_CACHE_DIR"]))
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            pg = open_page(b, server.url)
            upload(pg, [TED / "refs" / "ref.txt"], sorted((TED / "systems").glob("*.txt")), TED / "docids.txt")
            pg.get_by_role("button", name="Analyse these files").click()
            pg.get_by_text("What was understood").wait_for()
            nav(pg, "Documents")
            pg.locator(".bl-row").first.wait_for()
            pg.locator('[data-testid="stSelectbox"]', has_text="Document").first.click()
            pg.get_by_role("option", name=DOC, exact=True).click()
            pg.wait_for_load_state("networkidle")
            ms = pg.locator('[data-testid="stMultiSelect"]', has_text="Systems").first
            while ms.locator('button[aria-label^="Remove"]').count():  # clear the default systems
                ms.locator('button[aria-label^="Remove"]').first.click()
                pg.wait_for_timeout(500)
            for s in SYSTEMS:
                ms.locator("input").fill(s)
                pg.keyboard.press("Enter")
                pg.wait_for_timeout(600)
            pg.keyboard.press("Escape")
            pg.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')")
            pg.wait_for_timeout(1000)
            heads = pg.locator("thead th").all_inner_texts()
            assert sum(h.startswith("system:") for h in heads) == 5, heads
            times = []
            for _ in range(6):
                nav(pg, "Categories")
                pg.get_by_role("heading", name="Categories", exact=True).first.wait_for()
                pg.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')")
                t = time.perf_counter()
                nav(pg, "Documents")
                pg.locator(".bl-row").nth(24).wait_for()
                pg.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')")
                times.append(time.perf_counter() - t)
            warm = times[1:]
            print(f"browser, {DOC} with 5 systems, click to rows drawn and script done: median "
                  f"{statistics.median(warm):.2f} s, max {max(warm):.2f} s (first {times[0]:.2f} s); target 2 s")
            b.close()
    finally:
        server.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    server_side()
    if not args.no_browser:
        browser_side()


if __name__ == "__main__":
    main()
