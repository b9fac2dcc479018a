"""The dashboard as a shared server, measured in a real browser (Playwright + Debian's
Chromium), with the command line timed beside it on the same files.

    .venv/bin/python bench/bench_app.py                 # TED zh-en cases + Sandbox
    .venv/bin/python bench/bench_app.py --wmt           # also WMT22 zh-en at full size
    .venv/bin/python bench/bench_app.py --wmt --ter     # and wait for TER on WMT22 (minutes)

Prints, per case: the CLI's cold `score --per-doc` and `--metrics BLEU,chrF` times;
the app's time to a first Overview with BlonDe scores (empty cache), to BLEU and
chrF shown, to TER shown; the first Overview after a server restart with the cache
warm; 8 concurrent sessions on different TED subsets (slowest vs a single
session, medians of three runs, each leaderboard checked against the CLI's JSON, the CPU
every kind of process spent meanwhile: server, its workers, browser tabs, the rest); 10 concurrent Sandbox
editors (95th percentile from an edit to updated scores), once in Chromium tabs
(which share the machine's cores with the server) and once through Streamlit's
websocket protocol without a browser (the server's share, as for users whose
browsers run on their own machines); peak server memory (server and its
annotation workers: summed proportional set sizes, so the pages the workers share
with their fork server count once).

    .venv/bin/python bench/bench_app.py --skip ted,concurrent --editors 10   # Sandbox cases only
    .venv/bin/python bench/bench_app.py --skip ted,sandbox,protocol --repeat 5  # 8 sessions, medians of 5 runs
"""
from __future__ import annotations

import argparse
import json
import functools
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))
TED = SHARED / "data" / "ted-zhen"
WMT = SHARED / "data" / "wmt22-zhen"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
MAIN = '[data-testid="stMain"] '  # the page's own charts (app.py warms Plotly up in the sidebar on a first run)
PY = sys.executable
print = functools.partial(print, flush=True)  # noqa: A001 - figures appear as they are measured


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def median_p95(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs), xs[int(0.95 * (len(xs) - 1))]


def process_tree(pid: int) -> list[int]:
    """A process and all its descendants still running (the server starts its annotation
    workers from a thread: /proc lists them under that thread, not the main one)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
        out.append(p)
    return out


def tree_rss(pid: int) -> int:
    """Memory of a process and all its descendants, in bytes: the sum of their proportional
    set sizes (a page shared by k processes counts 1/k in each; the annotation workers are
    forked from one process and share its spaCy pipeline), or of their resident sizes where
    the kernel does not say."""
    total = 0
    for p in process_tree(pid):
        for path, key in ((f"/proc/{p}/smaps_rollup", "Pss:"), (f"/proc/{p}/status", "VmRSS:")):
            try:
                lines = Path(path).read_text().splitlines()
            except OSError:
                continue
            found = [int(line.split()[1]) * 1024 for line in lines if line.startswith(key)]
            if found:
                total += found[0]
                break
    return total


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) a running process has spent (0 once it has gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime (fields 14, 15)


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) spent by a process and its descendants still running."""
    return sum(proc_cpu(p) for p in process_tree(pid))


class Server:
    def __init__(self, cache_dir: Path):
        self.port = free_port()
        env = dict(os.environ, BLONDE_CACHE_DIR=str(cache_dir))
        self.log = tempfile.NamedTemporaryFile("w", suffix=".log", delete=False)
        self.proc = subprocess.Popen([PY, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port",
                                      str(self.port), "--server.address", "127.0.0.1", "--server.headless", "true",
                                      "--server.maxUploadSize", "500"],
                                     cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{self.port}"
        for _ in range(240):
            try:
                if urllib.request.urlopen(self.url + "/_stcore/health", timeout=2).status == 200:
                    break
            except OSError:
                time.sleep(0.25)
        self.peak = 0
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._watch, daemon=True)
        self._t.start()

    def _watch(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, tree_rss(self.proc.pid))
            time.sleep(0.2)

    def close(self) -> None:
        self._stop.set()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def cli(args: list[str], cache_dir: Path) -> tuple[float, dict]:
    env = dict(os.environ, BLONDE_CACHE_DIR=str(cache_dir))
    t = time.perf_counter()
    p = subprocess.run([PY, "-m", "blonde_core", "score", *args, "--format", "json"], capture_output=True, text=True,
                       env=env, cwd=ROOT)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(p.stderr)
    return dt, json.loads(p.stdout)


def uploader(page, label):
    return page.locator('[data-testid="stFileUploader"]', has_text=label).locator('input[type="file"]')


def open_page(browser, url):
    pg = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    pg.set_default_timeout(900_000)  # a long wait fails loudly instead of hanging
    pg.goto(url + "/data")  # the Data page (Home is the default page)
    pg.get_by_role("heading", name="Data").first.wait_for()
    return pg


# Inside a timed window the bench clicks and waits from within the page: a click is the
# element's own click() (Playwright's click first checks the element is visible, stable and
# hit by the pointer, polling the page), and "What was understood" is awaited with a
# MutationObserver (Playwright's text wait re-queries and checks the visibility of the page's
# elements at 0, 20, 50, 100, 100, then every 500 ms). With eight tabs on the server's two
# cores, Playwright's own checks took the renderers ~1-1.5 CPU s of the 8-session window
# (/tmp probe of 2026-11-24: renderers 8.2-9.0 CPU s that way, 6.6-7.3 this way): CPU the
# users' browsers would not spend, taken from the annotation being timed.
CLICK = """([sel, text]) => {
  const el = [...document.querySelectorAll(sel)].find(e => e.textContent.includes(text));
  if (!el) throw new Error("no " + sel + " with " + text);
  el.click();
}"""
ARM_HEADING = """text => {
  window.__heading = window.__heading || {};
  window.__heading[text] = new Promise(resolve => {
    const seen = () => [...document.querySelectorAll('[data-testid="stHeading"]')]
      .some(h => h.textContent.includes(text));
    if (seen()) return resolve(Date.now());
    const ob = new MutationObserver(() => { if (seen()) { ob.disconnect(); resolve(Date.now()); } });
    ob.observe(document.body, {subtree: true, childList: true, characterData: true});
  });
}"""


def click(pg, sel: str, text: str) -> None:
    pg.evaluate(CLICK, [sel, text])


def nav(pg, title):
    click(pg, '[data-testid="stSidebarNav"] a', title)


def analyse(pg) -> None:
    """Press Analyse (arm_understood first)."""
    click(pg, "button", "Analyse these files")


def arm_understood(pg) -> None:
    pg.evaluate(ARM_HEADING, "What was understood")


def understood(pg) -> None:
    """Wait (in the page) until the Data page shows what it understood of the upload."""
    pg.evaluate("t => window.__heading[t]", "What was understood")


def upload(pg, refs, systems, docids):
    uploader(pg, "References").set_input_files([str(r) for r in refs])
    uploader(pg, "System outputs").set_input_files([str(s) for s in systems])
    uploader(pg, "Document ids").set_input_files(str(docids))
    pg.wait_for_load_state("networkidle")
    pg.wait_for_timeout(1500)  # the uploads reach the server before Analyse is pressed


# When a caption first contains a text and the page's table is drawn (its data grid's
# canvas is in the page: the caption under the table can appear before the grid's scripts
# have loaded), timed inside the page (a MutationObserver; the clock is the machine's,
# Date.now()): no polling, which would cost the renderers the CPU being measured, and no
# lag of Playwright's waits (they re-check at 0, 20, 50, 100, 100, then every 500 ms). The
# page switch is inside the app, so the observer armed on the Data page sees the Overview.
ARM_SHOWN = """texts => {
  window.__at = window.__at || {};
  window.__caption = window.__caption || {};
  const grid = '[data-testid="stMain"] [data-testid="stDataFrame"] canvas';
  for (const text of texts) {
    let captioned = null;
    window.__caption[text] = new Promise(c => { captioned = c; });
    window.__at[text] = new Promise(resolve => {
      const seen = () => {
        if (![...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
              .some(el => el.textContent.includes(text))) return false;
        captioned(Date.now());  // a later call keeps the first time
        return document.querySelector(grid) !== null;
      };
      if (seen()) return resolve(Date.now());
      const ob = new MutationObserver(() => { if (seen()) { ob.disconnect(); resolve(Date.now()); } });
      ob.observe(document.body, {subtree: true, childList: true, characterData: true});
    });
  }
}"""


def shown_at(pg, text: str) -> float:
    """The machine's clock (seconds) when an armed text appeared in the page with its table drawn."""
    return pg.evaluate("t => window.__at[t]", text) / 1000


def caption_at(pg, text: str) -> float:
    """The machine's clock (seconds) when an armed text's caption appeared (its table may come later)."""
    return pg.evaluate("t => window.__caption[t]", text) / 1000


def first_overview(pg, refs, systems, docids, want_ter: bool, ter_timeout: float) -> dict:
    """Upload, then time: Analyse -> Overview with BlonDe shown -> BLEU, chrF -> TER."""
    upload(pg, refs, systems, docids)
    pg.evaluate(ARM_SHOWN, ["Shown: BlonDe family", "chrF ✓"])
    arm_understood(pg)
    t0 = time.time()
    analyse(pg)
    understood(pg)
    nav(pg, "Overview")
    out = {"blonde": shown_at(pg, "Shown: BlonDe family") - t0, "bleu_chrf": shown_at(pg, "chrF ✓") - t0,
           "caption": caption_at(pg, "Shown: BlonDe family") - t0}
    if want_ter:
        if pg.get_by_text("TER skipped").count():
            pg.get_by_text("Compute TER").click()
        try:
            pg.get_by_text("TER ✓").first.wait_for(timeout=ter_timeout * 1000)  # minutes: Playwright's wait
            out["ter"] = time.time() - t0
        except Exception:
            out["ter"] = None
    return out


def leaderboard(pg) -> dict:
    """System -> BlonDe F1 (points) from the Overview's bar chart data."""
    pg.locator(MAIN + ".js-plotly-plot").first.wait_for()
    pg.wait_for_function("() => { const el = document.querySelector('" + MAIN + ".js-plotly-plot');"
                         " return el && el.data && el.data[0] && el.data[0].x && el.data[0].x.length > 0 }")
    pg.wait_for_timeout(300)
    # one bar trace per significance cluster: every trace's bars
    x, y = pg.locator(MAIN + ".js-plotly-plot").first.evaluate(
        "el => [el._fullData.flatMap(t => Array.from(t.x)), el._fullData.flatMap(t => Array.from(t.y))]")
    return dict(zip(x, y))


def case(browser, name, refs, systems, docids, args, want_ter, ter_timeout, warm_target) -> None:
    print(f"\n== {name}: {len(systems)} systems, {len(refs)} reference(s)")
    tmp = Path(tempfile.mkdtemp(prefix="bench-app-"))
    cold_cli, cli_json = cli([*args, "--per-doc"], tmp / "cli-cache")
    metrics_cli, _ = cli([*args, "--metrics", "BLEU,chrF"], tmp / "cli-cache-2")
    print(f"CLI cold score --per-doc: {cold_cli:.1f} s; CLI cold --metrics BLEU,chrF: {metrics_cli:.1f} s")
    server = Server(tmp / "app-cache")
    try:
        pg = open_page(browser, server.url)
        t = first_overview(pg, refs, systems, docids, want_ter, ter_timeout)
        board = leaderboard(pg)
        diff = max(abs(board[s] - 100 * cli_json["systems"][s]["BlonDe"]["F1"]) for s in board)
        print(f"app first Overview (empty cache): BlonDe shown {t['blonde']:.1f} s "
              f"({t['blonde'] / cold_cli:.2f} x CLI; target 1.3), BLEU+chrF shown {t['bleu_chrf']:.1f} s "
              f"(+{t['bleu_chrf'] - t['blonde']:.1f} s after BlonDe; the CLI's --metrics run takes "
              f"{metrics_cli - cold_cli:+.1f} s more than its plain run: "
              f"{(t['bleu_chrf'] - t['blonde']) / max(metrics_cli - cold_cli, 0.1):.2f} x; target 1.3)")
        if want_ter:
            print("app: TER shown " + (f"{t['ter']:.1f} s" if t.get("ter") else f"not within {ter_timeout:.0f} s"))
        print(f"leaderboard vs CLI JSON: max |diff| = {diff:.2e} points over {len(board)} systems; "
              f"the same systems: {set(board) == set(cli_json['systems'])}")
        print(f"peak server memory (server + workers): {server.peak / 2 ** 20:.0f} MB")
        pg.context.close()
    finally:
        server.close()
    server = Server(tmp / "app-cache")  # a restart: the disk cache is warm
    try:
        pg = open_page(browser, server.url)
        t = first_overview(pg, refs, systems, docids, False, 0)
        print(f"after a restart, warm cache: BlonDe shown {t['blonde']:.1f} s (target {warm_target} s), "
              f"BLEU+chrF {t['bleu_chrf']:.1f} s; peak memory {server.peak / 2 ** 20:.0f} MB")
        pg.context.close()
    finally:
        server.close()
    shutil.rmtree(tmp, ignore_errors=True)


def cpu_by_kind(server_pid: int) -> dict[str, float]:
    """CPU seconds (user + system) so far of every running process on the machine, by
    kind: the server's own process, its annotation workers (its descendants), Chromium's
    renderers (one per tab), the rest of Chromium (browser, GPU and utility processes), and
    everything else (this script, Playwright's driver, the system)."""
    tree = set(process_tree(server_pid))
    out = dict.fromkeys(["server", "workers", "renderers", "browser (other)", "rest"], 0.0)
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        pid = int(d.name)
        kind = ("server" if pid == server_pid else "workers" if pid in tree
                else "renderers" if "chrom" in cmd and "--type=renderer" in cmd
                else "browser (other)" if "chrom" in cmd else "rest")
        out[kind] += proc_cpu(pid)
    return out


def concurrent_ted(browser, n_sessions: int = 8, repeat: int = 3) -> None:
    """A single session on its own, then n sessions at once (each on a fresh server and
    cache), `repeat` times; the ratio is of the medians. Each session times itself in its
    page (ARM_SHOWN), so the figures do not depend on the order Playwright collects them."""
    systems = sorted((TED / "systems").glob("*.txt"))
    refs = [TED / "refs" / "ref.txt"]
    docids = TED / "docids.txt"
    subsets = [[systems[(i + k) % len(systems)] for k in range(4)] for i in range(n_sessions)]
    print(f"\n== {n_sessions} concurrent sessions, TED subsets of 4 systems each (empty cache)"
          + (f", {repeat} runs" if repeat > 1 else ""))
    tmp = Path(tempfile.mkdtemp(prefix="bench-app-"))
    # the same work through the core alone (threads of one process, no browser on the same 2 cores)
    import concurrent.futures

    sys.path.insert(0, str(ROOT))
    from blonde_core.study import Engine, ScoreConfig, Study

    def core_run(subs, cache):
        eng = Engine(cache_mode="disk", cache_dir=cache, pool="server")

        def one(sub):
            t = time.perf_counter()
            Study.from_files(refs, sub, docids=docids, origin="bench", engine=eng).result(ScoreConfig())
            return time.perf_counter() - t
        with concurrent.futures.ThreadPoolExecutor(len(subs)) as ex:
            return list(ex.map(one, subs))
    core_single = core_run(subsets[:1], tmp / "core1")[0]
    core_many = max(core_run(subsets, tmp / "core8"))
    print(f"core only (threads, no browser): single {core_single:.1f} s, slowest of {n_sessions} "
          f"{core_many:.1f} s = {core_many / core_single:.2f} x")
    # each subset's leaderboard as the CLI gives it, once for every run
    expected = [cli(["-r", *map(str, refs), "-s", *map(str, sub), "--docids", str(docids)], tmp / "cli")[1]
                for sub in subsets]
    singles, slowest, ok = [], [], True
    for r in range(repeat):
        run = f"run {r + 1}: " if repeat > 1 else ""
        # a single session on its own first, on a fresh server and cache
        server = Server(tmp / f"single-{r}")
        try:
            pg = open_page(browser, server.url)
            c0 = cpu_by_kind(server.proc.pid)
            t = first_overview(pg, refs, subsets[0], docids, False, 0)
            c1 = cpu_by_kind(server.proc.pid)
            singles.append(t["blonde"])
            pg.context.close()
        finally:
            server.close()
        print(f"{run}single session: {t['blonde']:.1f} s (its caption {t['caption']:.1f} s); "
              "CPU s from upload to Overview: "
              + ", ".join(f"{k} {c1[k] - c0[k]:.2f}" for k in c0))
        server = Server(tmp / f"many-{r}")
        pages = [open_page(browser, server.url) for _ in range(n_sessions)]
        for pg, sub in zip(pages, subsets):
            upload(pg, refs, sub, docids)
        for pg in pages:
            pg.evaluate(ARM_SHOWN, ["Shown: BlonDe family"])
            arm_understood(pg)
        t0, busy0, kinds0 = time.time(), machine_busy(), cpu_by_kind(server.proc.pid)
        for pg in pages:
            analyse(pg)
        for pg in pages:
            understood(pg)
            nav(pg, "Overview")
        # each page notes the moment itself; Playwright's sync API then collects them in turn
        times = [shown_at(pg, "Shown: BlonDe family") - t0 for pg in pages]
        busy, kinds = machine_busy() - busy0, cpu_by_kind(server.proc.pid)
        captions = [caption_at(pg, "Shown: BlonDe family") - t0 for pg in pages]
        slowest.append(max(times))
        for pg, js in zip(pages, expected):
            board = leaderboard(pg)
            diff = max(abs(board[s] - 100 * js["systems"][s]["BlonDe"]["F1"]) for s in board)
            ok = ok and diff < 1e-9 and set(board) == set(js["systems"])
        print(f"{run}slowest first Overview {max(times):.1f} s = {max(times) / singles[-1]:.2f} x its single session; "
              f"fastest {min(times):.1f} s; 'Shown' captions {min(captions):.1f}-{max(captions):.1f} s after Analyse, "
              f"each table {min(t - c for t, c in zip(times, captions)):.2f}-"
              f"{max(t - c for t, c in zip(times, captions)):.2f} s after its caption")
        print(f"{run}until the last was shown the machine spent {busy:.0f} CPU s: "
              + ", ".join(f"{k} {kinds[k] - kinds0[k]:.1f}" for k in kinds)
              + f"; peak server memory {server.peak / 2 ** 20:.0f} MB")
        for pg in pages:
            pg.context.close()
        server.close()
    if repeat > 1:
        print(f"single session: median {statistics.median(singles):.1f} s (runs: "
              + ", ".join(f"{x:.1f}" for x in singles) + f"); slowest of {n_sessions}: median "
              f"{statistics.median(slowest):.1f} s (runs: " + ", ".join(f"{x:.1f}" for x in slowest) + ")")
    ratio = statistics.median(slowest) / statistics.median(singles)
    print(f"slowest first Overview = {ratio:.2f} x a single session (target 3)"
          + (" (medians)" if repeat > 1 else "") + f"; every leaderboard equals the CLI's JSON: {ok}")
    shutil.rmtree(tmp, ignore_errors=True)


# An edit's latency is timed inside the page: from the Ctrl+Enter keydown to the animation
# frame after the edited text appears (a MutationObserver, no polling). Playwright's own
# waits re-check at 0, 20, 50, 100, 100, then every 500 ms, so a 300 ms update would be
# reported as ~770 ms.
ARM_EDIT = """word => {
  window.__shown = new Promise(resolve => {
    const start = ev => {
      if (ev.key !== "Enter" || !ev.ctrlKey) return;
      document.removeEventListener("keydown", start, true);
      const t0 = performance.now();
      const seen = () => [...document.querySelectorAll(".bl-doc")].some(el => el.textContent.includes(word));
      const ob = new MutationObserver(() => {
        if (!seen()) return;
        ob.disconnect();
        const note = [...document.querySelectorAll(".bl-note")].find(el => el.textContent.includes("Scored on"));
        requestAnimationFrame(() => resolve([performance.now() - t0, note ? note.textContent : ""]));
      });
      ob.observe(document.body, {subtree: true, childList: true, characterData: true});
    };
    document.addEventListener("keydown", start, true);
  });
}"""


# The simulated typist works inside the page too: it sets the text area's value as typing
# would (React's input event), arms ARM_EDIT and presses Ctrl+Enter (a keydown event, which
# Streamlit's text area takes as "apply"), in one call. Playwright's fill() and press() check
# each time that the element is visible, stable, enabled and editable, polling the page: with
# ten tabs on the server's two cores that CPU was taken from the other editors' timed edits.
TYPE_EDIT = """([sel, text, word]) => {
  const box = document.querySelector(sel);
  box.focus();
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set.call(box, text);
  box.dispatchEvent(new Event("input", {bubbles: true}));
  (%s)(word);
  box.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", code: "Enter", ctrlKey: true, bubbles: true, cancelable: true}));
}""" % ARM_EDIT


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (every process: server, browsers, driver)."""
    v = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(v) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")


def sandbox(n_editors: int = 10, edits: int = 20) -> None:
    """n editors with the Sandbox open, then all editing at once: each types an edit,
    waits for its result, thinks 0.3-1 s, and so on (async Playwright: every editor on its
    own page). Page loads come first and are not part of an edit's time."""
    import asyncio
    import random

    from playwright.async_api import async_playwright

    print(f"\n== Sandbox: {n_editors} concurrent editors, {edits} edits each")
    tmp = Path(tempfile.mkdtemp(prefix="bench-app-"))
    server = Server(tmp / "cache")
    words = ["Anna", "Peter", "Lucy", "Tom", "Maria", "John", "Ellen", "Oscar"]
    lat: list[float] = []
    first: list[float] = []  # each editor's first edit (its first fragment run after the page load)
    server_ms: list[float] = []
    loaded: list[int] = []
    mark: dict = {}

    async def editor(browser, i):
        ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
        pg = await ctx.new_page()
        pg.set_default_timeout(600_000)
        await pg.goto(server.url)
        await pg.get_by_role("heading", name="Settings").first.wait_for()  # the app's own sidebar is there
        await pg.locator('[data-testid="stSidebarNav"] a', has_text="Sandbox").first.click()
        await pg.locator(".bl-doc").first.wait_for()
        await pg.locator('textarea[aria-label="Candidate A"]').wait_for()
        loaded.append(i)
        while len(loaded) < n_editors:
            await asyncio.sleep(0.05)
        if i == 0:
            mark.update(t=time.perf_counter(), busy=machine_busy(), server=tree_cpu(server.proc.pid))
        rnd = random.Random(i)
        await asyncio.sleep(rnd.uniform(0, 1))
        for k in range(edits):
            word = f"{words[k % len(words)]}{i}x{k}"
            text = f"{word} walked into the room.\nHe saw a letter on the table.\nIt was not for him."
            await pg.evaluate(TYPE_EDIT, ['textarea[aria-label="Candidate A"]', text, word])
            ms, cap = await pg.evaluate("() => window.__shown")
            lat.append(ms / 1000)
            if k == 0:
                first.append(ms)
            server_ms.append(float(cap.split(" in ")[1].split(" ms")[0]))
            await asyncio.sleep(rnd.uniform(0.3, 1.0))
        return ctx

    async def run():
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            ctxs = await asyncio.gather(*(editor(browser, i) for i in range(n_editors)))
            mark.update(wall=time.perf_counter() - mark["t"], busy=machine_busy() - mark["busy"],
                        server=tree_cpu(server.proc.pid) - mark["server"])
            for ctx in ctxs:
                await ctx.close()
            await browser.close()

    asyncio.run(run())
    med, p95 = median_p95([1000 * x for x in lat])
    print(f"edit -> updated scores shown: median {med:.0f} ms, 95th percentile {p95:.0f} ms over {len(lat)} edits "
          "(target 300; timed in the page; the browsers share the machine's 2 cores with the server)")
    print(f"slowest edit {1000 * max(lat):.0f} ms; editors' first edits: slowest {max(first):.0f} ms")
    print(f"while editing the machine was {100 * mark['busy'] / mark['wall'] / (os.cpu_count() or 1):.0f}% busy "
          f"({1000 * mark['busy'] / len(lat):.0f} ms of CPU per edit: browsers, server, Playwright; the server "
          f"and its workers {1000 * mark['server'] / len(lat):.0f} ms)")
    med, p95 = median_p95(server_ms)
    print(f"server time per edit (the page's own measure): median {med:.0f} ms, 95th percentile {p95:.0f} ms")
    print(f"peak server memory: {server.peak / 2 ** 20:.0f} MB")
    server.close()
    shutil.rmtree(tmp, ignore_errors=True)


class ProtocolEditor:
    """A Sandbox editor that speaks Streamlit's own websocket protocol (the protobuf
    messages the browser sends and receives) without a browser: the server's share of
    an edit, as seen by users whose browsers run on their own machines."""

    def __init__(self, url: str):
        self.url = url
        self.ws = None
        self.page_hash = None
        self.widgets: dict[str, str] = {}  # label -> widget id
        self.fragment = ""

    async def _send(self, **rerun) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        msg = BackMsg()
        rr = msg.rerun_script
        rr.context_info.timezone = "UTC"
        rr.context_info.locale = "en-US"
        rr.context_info.url = self.url + "/sandbox"
        for wid, text in rerun.get("widgets", {}).items():
            w = rr.widget_states.widgets.add()
            w.id = wid
            w.string_value = text
        if self.page_hash:
            rr.page_script_hash = self.page_hash
        if rerun.get("fragment"):
            rr.fragment_id = rerun["fragment"]
        await self.ws.send(msg.SerializeToString())

    async def _until_finished(self, want: str | None = None) -> bool:
        """Read messages to the end of the run; whether an HTML element contained `want`."""
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        seen = want is None
        while True:
            m = ForwardMsg()
            m.ParseFromString(await self.ws.recv())
            kind = m.WhichOneof("type")
            if kind == "navigation" and not self.page_hash:
                self.page_hash = next((p.page_script_hash for p in m.navigation.app_pages
                                      if p.url_pathname == "sandbox"), None)
            elif kind == "delta":
                el = m.delta.new_element
                if el.WhichOneof("type") == "text_area":
                    self.widgets[el.text_area.label] = el.text_area.id
                    self.fragment = m.delta.fragment_id or self.fragment
                elif el.WhichOneof("type") == "html" and want and want in el.html.body:
                    seen = True
            elif kind == "script_finished":
                return seen

    async def open(self) -> None:
        import websockets

        host = self.url.split("://", 1)[1]
        self.ws = await websockets.connect(f"ws://{host}/_stcore/stream", subprotocols=["streamlit"],
                                           origin=self.url, max_size=2 ** 26)
        await self._send()              # the app's default page
        await self._until_finished()
        await self._send()              # now with the Sandbox's page hash
        await self._until_finished()

    async def edit(self, reference: str, a: str) -> bool:
        widgets = {self.widgets["Reference"]: reference, self.widgets["Candidate A"]: a,
                   self.widgets["Candidate B (optional)"]: ""}
        await self._send(widgets=widgets, fragment=self.fragment)
        return await self._until_finished(a.split()[0])

    async def close(self) -> None:
        await self.ws.close()


def sandbox_protocol(n_editors: int = 10, edits: int = 20) -> None:
    """The same editors and edits as sandbox(), through ProtocolEditor: no browser on the machine."""
    import asyncio
    import random

    print(f"\n== Sandbox through the websocket protocol (no browser): {n_editors} concurrent editors, {edits} edits each")
    tmp = Path(tempfile.mkdtemp(prefix="bench-app-"))
    server = Server(tmp / "cache")
    words = ["Anna", "Peter", "Lucy", "Tom", "Maria", "John", "Ellen", "Oscar"]
    ref = "Mary walked into the room.\nShe saw a letter on the table.\nHowever, it was not for her."
    lat: list[float] = []
    shown = []

    async def editor(i):
        ed = ProtocolEditor(server.url)
        await ed.open()
        rnd = random.Random(i)
        await asyncio.sleep(rnd.uniform(0, 1))
        for k in range(edits):
            word = f"{words[k % len(words)]}{i}x{k}"
            t0 = time.perf_counter()
            shown.append(await ed.edit(ref, f"{word} walked into the room.\nHe saw a letter on the table.\n"
                                            "It was not for him."))
            lat.append(time.perf_counter() - t0)
            await asyncio.sleep(rnd.uniform(0.3, 1.0))
        await ed.close()

    async def run():
        await asyncio.gather(*(editor(i) for i in range(n_editors)))

    cpu = tree_cpu(server.proc.pid)
    asyncio.run(run())
    cpu = tree_cpu(server.proc.pid) - cpu
    med, p95 = median_p95([1000 * x for x in lat])
    print(f"edit -> run finished with the edited text highlighted: median {med:.0f} ms, 95th percentile {p95:.0f} ms "
          f"over {len(lat)} edits (target 300); every edit's text shown: {all(shown)}")
    print(f"server CPU per edit (server and its workers, page loads included): {1000 * cpu / len(lat):.0f} ms")
    print(f"peak server memory: {server.peak / 2 ** 20:.0f} MB")
    server.close()
    shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wmt", action="store_true", help="also WMT22 zh-en at full size")
    ap.add_argument("--ter", action="store_true", help="wait for TER (minutes on WMT22)")
    ap.add_argument("--ter-timeout", type=float, default=1200)
    ap.add_argument("--editors", type=int, default=10, help="concurrent Sandbox editors")
    ap.add_argument("--edits", type=int, default=20, help="edits per Sandbox editor (the first one included)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of the concurrent case (a single session and 8 at once, fresh servers each; the ratio "
                         "is of the medians): one run's ratio moves by ~0.3 from run to run on a 2-core machine")
    ap.add_argument("--skip", default="", help="comma list of cases to skip: ted,wmt,concurrent,sandbox,protocol")
    a = ap.parse_args()
    skip = set(a.skip.split(","))
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        if "ted" not in skip:
            systems = sorted((TED / "systems").glob("*.txt")) + [TED / "refs" / "refB.txt"]
            refs = [TED / "refs" / "ref.txt"]
            args = ["-r", *map(str, refs), "-s", *map(str, systems), "--docids", str(TED / "docids.txt")]
            case(browser, "TED zh-en", refs, systems, TED / "docids.txt", args, True, a.ter_timeout, 3)
        if a.wmt and "wmt" not in skip:
            systems = sorted((WMT / "systems").glob("*.txt")) + [WMT / "refs" / "refB.txt"]
            refs = [WMT / "refs" / "refA.txt"]
            args = ["-r", *map(str, refs), "-s", *map(str, systems), "--docids", str(WMT / "docids.blk10.txt")]
            case(browser, "WMT22 zh-en", refs, systems, WMT / "docids.blk10.txt", args, a.ter, a.ter_timeout, 8)
        if "concurrent" not in skip:
            concurrent_ted(browser, repeat=a.repeat)
        browser.close()
    if "sandbox" not in skip:
        sandbox(a.editors, a.edits)
    if "protocol" not in skip:
        sandbox_protocol(a.editors, a.edits)


if __name__ == "__main__":
    main()
