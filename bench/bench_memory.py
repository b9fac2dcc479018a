"""Benchmark: the dashboard server's memory across sessions that load WMT22 zh-en and close.

Starts the real app and lets one session load the bundled sample data and open the
Overview (so the server has imported what the pages need: plotly, scipy, sacrebleu, ...),
closes it and waits until the server has released it, then reads the server process's RSS
(the start). Five browser
sessions (Chromium) each upload WMT22 zh-en (refA, 12 systems and refB, document ids),
press Analyse and wait for the Overview's BlonDe leaderboard; then all five close. The
server's RSS is read every 5 s until it is back within 150 MB of the start or --wait
seconds have passed (Streamlit drops a closed session's state and uploaded files
server.disconnectedSessionTTL = 120 s after its tab closed; the app releases what only
closed sessions held within 15 s of noticing). The annotation worker processes are
separate processes and not counted (their memory is the pipeline's, whatever is loaded).
Target: back within 150 MB of the start.

    .venv/bin/python bench/bench_memory.py [--sessions 5] [--wait 300]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_app import (CHROMIUM, WMT, Server, analyse, arm_understood, nav, open_page,  # noqa: E402
                       understood, upload)

ARM = """text => { window.__shown = new Promise(resolve => {
  const seen = () => [...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
    .some(el => el.textContent.includes(text));
  if (seen()) return resolve(Date.now());
  const ob = new MutationObserver(() => { if (seen()) { ob.disconnect(); resolve(Date.now()); } });
  ob.observe(document.body, {subtree: true, childList: true, characterData: true});
}); }"""


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=5)
    ap.add_argument("--wait", type=float, default=300, help="seconds to wait for the memory to come back")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    refs = [WMT / "refs" / "refA.txt"]
    systems = sorted((WMT / "systems").glob("*.txt")) + [WMT / "refs" / "refB.txt"]
    server = Server(Path(tempfile.mkdtemp(prefix="bench-memory-")))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"])
            first = open_page(browser, server.url)
            first.evaluate(ARM, "Shown: BlonDe family")
            first.get_by_role("button", name="Load sample data").click()
            first.get_by_text("Loaded: bundled sample data").first.wait_for()
            nav(first, "Overview")
            first.evaluate("() => window.__shown")
            first.context.close()
            time.sleep(75)  # released 45-60 s after its tab closed
            start = rss_mb(server.proc.pid)
            pages, t0 = [], time.time()
            for i in range(a.sessions):
                pg = open_page(browser, server.url)
                upload(pg, refs, systems, WMT / "docids.blk10.txt")
                arm_understood(pg)
                analyse(pg)
                understood(pg)
                pg.evaluate(ARM, "Shown: BlonDe family")
                nav(pg, "Overview")
                pg.evaluate("() => window.__shown")
                pages.append(pg)
                print(f"session {i + 1}: WMT22 loaded and its Overview shown at {time.time() - t0:.0f} s; server RSS "
                      f"{rss_mb(server.proc.pid):.0f} MB", flush=True)
            loaded = rss_mb(server.proc.pid)
            for pg in pages:
                pg.context.close()
            closed_at = time.time()
            browser.close()
            now = loaded
            while time.time() - closed_at < a.wait:
                time.sleep(5)
                now = rss_mb(server.proc.pid)
                if now - start <= 150 and time.time() - closed_at > 140:
                    break
            waited = time.time() - closed_at
    finally:
        server.close()
    print(f"server RSS: {start:.0f} MB at the start, {loaded:.0f} MB with {a.sessions} WMT22 sessions, "
          f"{now:.0f} MB {waited:.0f} s after they closed: {now - start:+.0f} MB "
          f"({'within' if now - start <= 150 else 'NOT within'} 150 MB of the start)")


if __name__ == "__main__":
    main()
