"""Benchmark: does the dashboard server give memory back after sessions that loaded a WMT24 pair close?
(issue 63 point 10: with five WMT24 en-zh sessions, back within 150 MB of its start within 150 s of the last
closing.)

Starts the real server (`streamlit run app.py` on a free port, headless; BLONDE_SHARED_DIR as set, else
../shared; BLONDE_WMT_ROOTS its data/ folder, so the Data page may read WMT24 by path). One first session
loads the bundled sample data and opens the Overview, so that the server has imported what the pages need
(plotly, scipy, sacrebleu, the English annotation workers), and closes; once the server has released it the
start is read. Then --sessions Chromium sessions (Playwright, one context each, one after the other) load
WMT24 LP by its path on the Data page's "A WMT folder" tab and wait for the Overview's BlonDe leaderboard;
all stay open until the last is shown, then all close at once. The memory is read every --every seconds
for --wait seconds after the last closing, and every second meanwhile for the peak.

Two figures, both from /proc: the server process's resident size (VmRSS: what the issue's bar is about),
and its process tree's (the server with its annotation fork servers and workers) summed proportional set
sizes (PSS: a page shared by k processes counts 1/k in each, so the workers' shared spaCy pipeline counts
once). The verdict is said for each: within 150 MB of the start at the end of the wait.

The annotation cache: a fresh temporary folder, deleted at the end (cold: the first session annotates every
sentence, minutes for en-zh on two cores), or --cache-dir DIR, kept between runs (warm from its second run on:
the server reads what it needs from the disk cache, takes minutes less and keeps less afterwards - docs/
scale.md has both). Say which when quoting a figure.

    .venv/bin/python bench/bench_sessions_memory.py                               # 5 sessions of WMT24 en-zh
    .venv/bin/python bench/bench_sessions_memory.py --sessions 2 --lp en-cs       # quicker
    .venv/bin/python bench/bench_sessions_memory.py --cache-dir /tmp/bench-wmt24-cache   # warm after its first run
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_app  # noqa: E402
from bench_app import CHROMIUM, SHARED, print, process_tree, tree_rss  # noqa: E402, A004

BAR_MB = 150
SHOWN = """text => new Promise(resolve => {
  const seen = () => [...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
    .some(el => el.textContent.includes(text));
  if (seen()) return resolve(Date.now());
  const ob = new MutationObserver(() => { if (seen()) { ob.disconnect(); resolve(Date.now()); } });
  ob.observe(document.body, {subtree: true, childList: true, characterData: true});
})"""


def rss_mb(pid: int) -> float:
    """The process's resident size (VmRSS), MB; 0 once it has gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def tree_mb(pid: int) -> float:
    return tree_rss(pid) / 2 ** 20


def smaps_kinds(text: str) -> dict[str, float]:
    """Resident MB of a /proc/PID/smaps by kind of mapping: [heap] (glibc's main arena), anonymous (the other
    arenas, pymalloc's arenas, large blocks mapped on their own, thread stacks), shared libraries (.so) and
    other files (a model, a dictionary, the cache's SQLite file)."""
    kinds: dict[str, float] = {}
    kind = None
    for line in text.splitlines():
        head = line.split(None, 5)
        if len(head) >= 5 and "-" in head[0] and ":" in head[3]:  # a mapping's first line
            name = head[5].strip() if len(head) > 5 else ""
            kind = ("[heap]" if name == "[heap]" else "anonymous" if not name or name.startswith("[anon")
                    else "[stack]" if name.startswith("[stack") else ".so" if ".so" in Path(name).name
                    else "other file" if name.startswith("/") else name)
        elif line.startswith("Rss:") and kind is not None:
            kinds[kind] = kinds.get(kind, 0.0) + int(line.split()[1]) / 1024
    return kinds


def save_smaps(pid: int, folder: Path | None, label: str) -> None:
    """--smaps: the server's /proc/PID/smaps as folder/smaps-LABEL.txt, and its resident MB by kind printed."""
    if folder is None:
        return
    try:
        text = Path(f"/proc/{pid}/smaps").read_text()
    except OSError:
        return
    (folder / f"smaps-{label}.txt").write_text(text)
    kinds = smaps_kinds(text)
    print(f"  smaps {label}: " + ", ".join(f"{k} {v:.0f}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])
                                          if v >= 0.5) + " (MB resident)")


class Server(bench_app.Server):
    """The app on a free port (bench_app's), allowed to read the shared data folder's WMT folders by path; its
    memory watched every second for both peaks."""

    def __init__(self, cache_dir: Path):
        os.environ.update(BLONDE_SHARED_DIR=str(SHARED), BLONDE_WMT_ROOTS=str(SHARED / "data"))
        self.peak_rss = 0.0
        super().__init__(cache_dir)

    def now(self) -> tuple[float, float]:
        """(server RSS, tree PSS) in MB."""
        return rss_mb(self.proc.pid), tree_mb(self.proc.pid)

    def reset_peaks(self) -> None:
        self.peak_rss = self.peak = 0.0

    def _watch(self) -> None:
        while not self._stop.is_set():
            rss, tree = self.now()
            self.peak_rss, self.peak = max(self.peak_rss, rss), max(self.peak, tree)
            time.sleep(1)


def new_page(browser, url: str, timeout_s: float):
    pg = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    pg.set_default_timeout(timeout_s * 1000)  # a long wait fails loudly instead of hanging
    pg.goto(url + "/data")
    pg.get_by_role("heading", name="Data").first.wait_for()
    return pg


def goto(pg, title: str) -> None:
    """A page by the sidebar's own link (app.py draws them in the bl-nav box)."""
    pg.locator(".st-key-bl-nav a", has_text=title).first.click()
    pg.get_by_role("heading", name=title, exact=True).first.wait_for()


def overview_shown(pg) -> None:
    goto(pg, "Overview")
    pg.evaluate(SHOWN, "Shown: BlonDe family")
    if pg.locator('[data-testid="stException"]').count():
        raise SystemExit("the Overview shows an exception")


def load_wmt(pg, folder: Path, lp: str) -> None:
    pg.get_by_role("tab", name="A WMT folder").click()
    pg.get_by_role("textbox", name="or the folder's path on this server").fill(str(folder))
    pg.get_by_role("textbox", name="Language pair (when the folder has several)").fill(lp)
    pg.get_by_role("button", name="Load this folder").click()
    pg.get_by_text("WMT folder understood as").first.wait_for()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=5)
    ap.add_argument("--lp", default="en-zh", help="WMT24 language pair (default en-zh)")
    ap.add_argument("--wait", type=float, default=150, help="seconds to watch after the last closing (150)")
    ap.add_argument("--every", type=float, default=5, help="seconds between readings after the closing (5)")
    ap.add_argument("--settle", type=float, default=80,
                    help="seconds after the first session closed before the start is read (80: the server "
                         "releases a session 45-60 s after its tab closed)")
    ap.add_argument("--cache-dir", type=Path, default=None,
                    help="the annotation cache, kept (default: a fresh temporary folder, i.e. cold)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds a session may take to show its Overview")
    ap.add_argument("--smaps", type=Path, default=None,
                    help="a folder: the server's /proc/PID/smaps saved there at the start, with the sessions and at "
                         "the end (smaps-start.txt, smaps-loaded.txt, smaps-end.txt), its resident MB by kind printed")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    wmt = SHARED / "data" / "wmt24"
    if not (wmt / "system-outputs" / a.lp).is_dir():
        raise SystemExit(f"no WMT24 {a.lp} under {wmt} (BLONDE_SHARED_DIR)")
    if a.smaps is not None:
        a.smaps.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="bench-sessions-memory-"))
    cache = a.cache_dir or work / "cache"
    warm = cache.exists() and any(cache.iterdir())
    server = Server(cache)
    print(f"WMT24 {a.lp}, {a.sessions} sessions; annotation cache {cache} ({'warm' if warm else 'cold'}); "
          f"server log {server.log.name}")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"])
            first = new_page(browser, server.url, a.timeout)
            first.get_by_role("button", name="Load sample data").click()
            first.get_by_text("Loaded: bundled sample data").first.wait_for()
            overview_shown(first)
            first.context.close()
            time.sleep(a.settle)
            start_rss, start_tree = server.now()
            print(f"start: server {start_rss:.0f} MB, tree {start_tree:.0f} MB "
                  f"(processes: {len(process_tree(server.proc.pid))})")
            save_smaps(server.proc.pid, a.smaps, "start")
            server.reset_peaks()
            pages, t0 = [], time.time()
            for i in range(a.sessions):
                pg = new_page(browser, server.url, a.timeout)
                load_wmt(pg, wmt, a.lp)
                overview_shown(pg)
                pages.append(pg)
                rss, tree = server.now()
                print(f"session {i + 1}: WMT24 {a.lp} loaded, Overview shown at {time.time() - t0:.0f} s; "
                      f"server {rss:.0f} MB, tree {tree:.0f} MB")
            loaded_rss, loaded_tree = server.now()
            save_smaps(server.proc.pid, a.smaps, "loaded")
            for pg in pages:
                pg.context.close()
            closed_at = time.time()
            browser.close()
            readings = []
            while True:
                left = closed_at + len(readings) * a.every + a.every - time.time()
                if left > 0:
                    time.sleep(left)
                t = time.time() - closed_at
                if t > a.wait + a.every / 2:
                    break
                rss, tree = server.now()
                readings.append((t, rss, tree))
                print(f"  {t:5.0f} s after the closing: server {rss:6.0f} MB, tree {tree:6.0f} MB")
            save_smaps(server.proc.pid, a.smaps, "end")
            if a.smaps is not None:
                time.sleep(10)  # a debugging hook in the server may answer the files (docs/scale.md)
    finally:
        server.close()
        if a.cache_dir is None:  # the fresh cache was this run's only
            shutil.rmtree(work, ignore_errors=True)
    t_end, end_rss, end_tree = readings[-1]

    def verdict(start: float, end: float) -> str:
        return f"{end - start:+.0f} MB, {'within' if end - start <= BAR_MB else 'NOT within'} {BAR_MB} MB of the start"
    print(f"server process (VmRSS): start {start_rss:.0f} MB, with {a.sessions} sessions {loaded_rss:.0f} MB, "
          f"peak {server.peak_rss:.0f} MB, {t_end:.0f} s after the last closing {end_rss:.0f} MB: "
          f"{verdict(start_rss, end_rss)}")
    print(f"process tree (PSS, with the annotation workers): start {start_tree:.0f} MB, with {a.sessions} sessions "
          f"{loaded_tree:.0f} MB, peak {server.peak:.0f} MB, {t_end:.0f} s after {end_tree:.0f} MB: "
          f"{verdict(start_tree, end_tree)}")


if __name__ == "__main__":
    main()
