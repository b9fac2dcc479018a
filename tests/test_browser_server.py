"""The dashboard as a shared server, in a real browser (Playwright + Debian's Chromium):
two users at once with the same systems but their own source, judgments and
BlonD+ file see only their own data; a name clash is refused naming both files;
a reloaded tab gets its data back; a restarted server serves the annotations
from the disk cache (no thread errors in its log, nothing annotated again)."""
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT
from test_browser import ARTIFACTS, CHROMIUM, MAIN, free_port, uploader

SYSTEMS = ["Online-W", "SMU", "Facebook-AI"]


def start_server(cache_dir: Path, log_path: Path, **extra_env):
    """`streamlit run app.py` on a free port with its own annotation cache (and extra_env): (process, url)."""
    port = free_port()
    env = dict(os.environ, BLONDE_CACHE_DIR=str(cache_dir), **extra_env)
    log = open(log_path, "a")
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port",
                             str(port), "--server.address", "127.0.0.1", "--server.headless", "true"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=2).status == 200:
                return proc, url
        except OSError:
            time.sleep(0.5)
    proc.kill()
    pytest.fail("streamlit did not start")


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Chromium is missing: scripts/test.sh installs Debian's chromium package"
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


def new_page(browser, url):
    pg = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    pg.set_default_timeout(180_000)
    pg.goto(url)
    pg.locator("h1").first.wait_for()  # the Home page, or the page a shared link names
    if pg.get_by_role("heading", name="Data", exact=True).count() == 0:
        nav(pg, "Data")
    return pg


def nav(pg, title):
    pg.locator('.st-key-bl-nav a', has_text=title).first.click()
    pg.get_by_role("heading", name=title, exact=True).first.wait_for()
    pg.wait_for_load_state("networkidle")


def no_exception(pg):
    assert pg.locator('[data-testid="stException"]').count() == 0


def user_files(ted, tmp: Path, tag: str, lower_better: bool, plus: bool):
    """A user's own source, judgments table and (optionally) BlonD+ file for the same TED systems."""
    src = (ted / "source.zh.txt").read_text(encoding="utf-8").splitlines()
    source = tmp / f"source-{tag}.txt"
    source.write_text("\n".join(f"{tag.upper()}-SOURCE {i}: {s}" for i, s in enumerate(src)) + "\n",
                      encoding="utf-8")
    docs = list(dict.fromkeys((ted / "docids.txt").read_text(encoding="utf-8").split()))
    rows = ["system\tdoc_id\tscore"]
    for k, s in enumerate(SYSTEMS):
        for j, d in enumerate(docs):
            rows.append(f"{s}\t{d}\t{10 * k + j}")
    judg = tmp / f"judgments-{tag}.tsv"
    judg.write_text("\n".join(rows) + "\n", encoding="utf-8")
    ann = None
    if plus:
        ann = tmp / f"plus-{tag}.txt"
        ref = (ted / "refs" / "ref.txt").read_text(encoding="utf-8").splitlines()
        ann.write_text("\n".join(f"{r}\t0" for r in ref) + "\n", encoding="utf-8")
    return source, judg, ann


def upload(pg, ted, source, judg, ann, lower_better):
    uploader(pg, "References").set_input_files(str(ted / "refs" / "ref.txt"))
    uploader(pg, "System outputs").set_input_files([str(ted / "systems" / f"{s}.txt") for s in SYSTEMS])
    uploader(pg, "Document ids").set_input_files(str(ted / "docids.txt"))
    uploader(pg, "Source").set_input_files(str(source))
    uploader(pg, "Human judgments").set_input_files(str(judg))
    if ann is not None:
        uploader(pg, "BlonD+").set_input_files(str(ann))
    if lower_better:
        pg.get_by_text("In the judgments table, lower scores are better").click()
    pg.wait_for_timeout(1200)
    pg.get_by_role("button", name="Analyse these files").click()
    pg.get_by_text("3 system(s)").wait_for()


def leaderboard_columns(pg):
    return pg.locator('[data-testid="stDataFrame"]').first.get_attribute("data-testid") and \
        pg.locator('[data-testid="stDataFrame"] [role="columnheader"]').all_inner_texts()


def test_two_users_see_only_their_own_data_and_a_reload_restores_it(browser, ted, tmp_path):
    proc, url = start_server(tmp_path / "cache", tmp_path / "server.log")
    try:
        a, b = new_page(browser, url), new_page(browser, url)
        fa = user_files(ted, tmp_path, "a", False, True)
        fb = user_files(ted, tmp_path, "b", True, False)
        upload(a, ted, *fa, lower_better=False)
        upload(b, ted, *fb, lower_better=True)
        for pg in (a, b):
            nav(pg, "Overview")
        for pg in (a, b):
            pg.get_by_text("Leaderboard").first.wait_for()
            pg.locator(MAIN + ".js-plotly-plot").first.wait_for()
            no_exception(pg)
        # BlonD+ only for the user who uploaded a BlonD+ file
        a.get_by_text("|plus:").first.wait_for()
        assert b.get_by_text("|plus:").count() == 0
        # each sees its own source text on the Documents page
        for pg in (a, b):
            nav(pg, "Documents")
            pg.locator(".bl-seg").first.wait_for()
        assert "A-SOURCE 0:" in a.content() and "B-SOURCE" not in a.content()
        assert "B-SOURCE 0:" in b.content() and "A-SOURCE" not in b.content()
        # each sees its own judgments' direction, and correlations of opposite sign
        pearson = {}
        for tag, pg in (("a", a), ("b", b)):
            nav(pg, "Human correlation")
            pg.locator(MAIN + ".js-plotly-plot").first.wait_for()
            no_exception(pg)
            title = pg.locator(MAIN + ".js-plotly-plot .gtitle").first.text_content()
            pearson[tag] = float(title.split()[-1])
            pg.screenshot(path=str(ARTIFACTS / f"server-correlation-{tag}.png"), full_page=True)
        assert a.get_by_text("higher is better").count() > 0
        assert b.get_by_text("lower is better").count() > 0
        assert pearson["a"] == pytest.approx(-pearson["b"], abs=1e-3) and pearson["a"] != 0
        # a reload brings the data back (the token in the address bar)
        assert "s=" in a.url
        a.reload()
        a.get_by_text("Loaded: uploaded files").first.wait_for()
        nav(a, "Documents")
        a.locator(".bl-seg").first.wait_for()
        assert "A-SOURCE 0:" in a.content()
        # Clear loaded data removes it from the server too: the old address restores nothing
        old = a.url
        nav(a, "Data")
        a.get_by_role("button", name="Clear loaded data").click()
        a.get_by_text("Nothing loaded yet").wait_for()
        sidebar = a.locator('[data-testid="stSidebar"]')
        assert "Loaded:" not in sidebar.inner_text() and "Signature" not in sidebar.inner_text()
        a.goto(old)
        # the old address says why it opens nothing (issue 49), not a bare "No data yet"
        a.get_by_text("its data was cleared").first.wait_for()
        for pg in (a, b):
            pg.context.close()
    finally:
        stop(proc)
    log = (tmp_path / "server.log").read_text(encoding="utf-8", errors="replace")
    assert "thread" not in log.lower() or "SQLite objects" not in log
    assert "Traceback" not in log


def test_a_name_clash_in_uploads_is_refused_naming_both_files(browser, ted, tmp_path):
    proc, url = start_server(tmp_path / "cache", tmp_path / "server.log")
    try:
        pg = new_page(browser, url)
        clash = tmp_path / "ref.txt"
        clash.write_text((ted / "systems" / "SMU.txt").read_text(encoding="utf-8"), encoding="utf-8")
        uploader(pg, "References").set_input_files(str(ted / "refs" / "ref.txt"))
        uploader(pg, "System outputs").set_input_files([str(clash), str(ted / "systems" / "Online-W.txt")])
        uploader(pg, "Document ids").set_input_files(str(ted / "docids.txt"))
        pg.wait_for_timeout(1000)
        pg.get_by_role("button", name="Analyse these files").click()
        msg = pg.locator('[data-testid="stAlertContentError"]').first
        msg.wait_for()
        text = msg.inner_text()
        assert "reference ref.txt and system ref.txt are both named 'ref'" in text, text
        # names are text: a file named like markup shows literally, never as a link or bold
        pg.context.close()
        pg = new_page(browser, url)
        odd = tmp_path / "[link](https:evil.example) **bold**.txt"
        odd.write_text("x\n", encoding="utf-8")
        uploader(pg, "References").set_input_files(str(ted / "refs" / "ref.txt"))
        uploader(pg, "System outputs").set_input_files([str(odd)])
        uploader(pg, "Document ids").set_input_files(str(ted / "docids.txt"))
        pg.wait_for_timeout(1000)
        pg.get_by_role("button", name="Analyse these files").click()
        msg = pg.locator('[data-testid="stAlertContentError"]', has_text="evil").first
        msg.wait_for()
        assert "[link](https:evil.example) **bold**.txt: has 1 lines" in msg.inner_text()
        assert msg.locator("a").count() == 0 and msg.locator("strong").count() == 0
        pg.context.close()
    finally:
        stop(proc)


# Every change inside a progress bar, and whether it started an animation (style forced
# first, so that a CSS transition starts right there).
WATCH_PROGRESS = """() => {
  window.__bar = {changes: 0, moving: 0};
  new MutationObserver(ms => { for (const m of ms) {
    const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
    const bar = el && el.closest('.stProgress');
    if (!bar) continue;
    window.__bar.changes++;
    for (const x of bar.querySelectorAll('*')) getComputedStyle(x).transform;
    window.__bar.moving += bar.getAnimations({subtree: true}).length;
  }}).observe(document.body, {subtree: true, attributes: true, childList: true, characterData: true});
}"""


def test_a_restarted_server_serves_annotations_from_the_disk_cache(browser, ted, tmp_path):
    cache = tmp_path / "cache"
    log = tmp_path / "server.log"
    for run in ("cold", "warm"):
        proc, url = start_server(cache, log)
        try:
            pg = new_page(browser, url)
            pg.evaluate(WATCH_PROGRESS)
            pg.get_by_role("button", name="Load TED zh-en demo").click()
            pg.get_by_text("What was understood").wait_for()
            nav(pg, "Overview")
            pg.get_by_text("Leaderboard").first.wait_for()
            pg.locator(MAIN + ".js-plotly-plot").first.wait_for()
            no_exception(pg)
            if run == "cold":
                # the progress bar moved while annotating, and never by an animation: a transition
                # made every browser tab redraw the bar 60 times a second for as long as it waited
                bar = pg.evaluate("window.__bar")
                assert bar["changes"] > 0 and bar["moving"] == 0, bar
            nav(pg, "Data")
            pg.get_by_text("This server's annotation work").click()
            txt = pg.get_by_text("Since it started, this server annotated").inner_text()
            if run == "warm":
                assert "annotated 0 sentences" in txt, txt
            else:
                assert "annotated 0 sentences" not in txt, txt
            pg.context.close()
        finally:
            stop(proc)
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "SQLite objects created in a thread" not in text and "warning: annotation cache" not in text


def test_a_first_visitor_on_a_page_address_gets_the_app_not_the_legacy_pages(browser, tmp_path):
    """Streamlit treats a pages/ folder as legacy auto-discovered pages until st.navigation
    has run once in the process. A fresh server whose first visitor opens /sandbox ran
    pages/sandbox.py on its own (no settings sidebar) under a sidebar of file names
    ('shared', 'views', 'app', ...). Both that visitor and the next one get the app."""
    proc, url = start_server(tmp_path / "cache", tmp_path / "server.log")
    try:
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        pg = ctx.new_page()
        pg.set_default_timeout(180_000)
        pg.goto(url + "/sandbox")
        pg.get_by_role("heading", name="Sandbox").first.wait_for()
        pg.get_by_role("heading", name="Settings").first.wait_for(timeout=60_000)  # app.py's sidebar ran
        pg.locator(".bl-doc").first.wait_for()
        pg.wait_for_timeout(1000)
        links = [t.split("\n")[-1] for t in pg.locator('.st-key-bl-nav a').all_inner_texts()]
        assert links == ["Home", "Data", "Overview", "Release", "Categories", "Documents", "Significance", "Contrast",
                         "Human correlation", "Human judgments", "Sandbox", "Phenomenon gallery"], links
        no_exception(pg)
        second = new_page(browser, url)  # the next visitor: the app's own pages as well
        links = [t.split("\n")[-1] for t in second.locator('.st-key-bl-nav a').all_inner_texts()]
        assert "Data" in links and "shared" not in links and "views" not in links, links
        ctx.close()
        second.context.close()
    finally:
        stop(proc)


def test_a_shared_link_gives_a_copy_that_cannot_replace_or_clear_the_senders_data(browser, tmp_path):
    """Browser B opens browser A's address (token and all): B gets a copy under a token of its own;
    what B then uploads or clears leaves A's data, and A's reload, as they were (issue 38)."""
    from conftest import SAMPLE

    proc, url = start_server(tmp_path / "cache", tmp_path / "server.log")
    sample_loaded = "Loaded: bundled sample data (sample_data/) - 5 systems"

    def sidebar(pg):
        return pg.locator('[data-testid="stSidebar"]').inner_text()

    def a_still_has_its_data():
        a.reload()
        a.get_by_text("Loaded: bundled sample data").first.wait_for()
        assert sample_loaded in sidebar(a) and "shared link" not in sidebar(a)
        assert a.url.split("s=")[1] == link.split("s=")[1]

    try:
        a = new_page(browser, url)
        a.get_by_role("button", name="Load sample data").click()
        a.get_by_text("Loaded: bundled sample data").first.wait_for()
        a.wait_for_function("location.search.includes('s=')")
        link = a.url
        b = new_page(browser, link)  # another browser: its own cookies
        b.get_by_text("Opened from a shared link").wait_for()
        assert sample_loaded in sidebar(b)
        b.wait_for_function(f"!location.search.includes({link.split('s=')[1]!r})")
        # B uploads its own files and analyses them
        uploader(b, "References").set_input_files(str(SAMPLE / "reference.txt"))
        uploader(b, "System outputs").set_input_files(str(SAMPLE / "names.txt"))
        b.wait_for_timeout(1000)
        b.get_by_role("button", name="Analyse these files").click()
        b.get_by_text("1 system(s)").wait_for()
        assert "Loaded: uploaded files" in sidebar(b)
        a_still_has_its_data()
        # B clears its copy
        b.get_by_role("button", name="Clear loaded data").click()
        b.get_by_text("Nothing loaded yet").wait_for()
        a_still_has_its_data()
        # B opens the link again and clears at once
        b.goto(link)
        b.get_by_text("Opened from a shared link").wait_for()
        b.get_by_role("button", name="Clear loaded data").click()
        b.get_by_text("Nothing loaded yet").wait_for()
        a_still_has_its_data()
        nav(a, "Overview")
        a.get_by_text("Leaderboard").first.wait_for()
        no_exception(a)
        a.screenshot(path=str(ARTIFACTS / "server-shared-link-sender.png"))
        # the sender itself can clear: its old address then restores nothing
        nav(a, "Data")
        a.get_by_role("button", name="Clear loaded data").click()
        a.get_by_text("Nothing loaded yet").wait_for()
        a.goto(link)
        a.get_by_text("Nothing loaded yet").first.wait_for()
        assert "Loaded:" not in sidebar(a)
        # an upload with a line past the server's limit is refused, naming the file and line
        c = new_page(browser, url)
        long_file = tmp_path / "long.txt"
        lines = (SAMPLE / "names.txt").read_text(encoding="utf-8").splitlines()
        lines[2] = "word " * 4000
        long_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        uploader(c, "References").set_input_files(str(SAMPLE / "reference.txt"))
        uploader(c, "System outputs").set_input_files(str(long_file))
        c.wait_for_timeout(1000)
        c.get_by_role("button", name="Analyse these files").click()
        c.get_by_text("a segment of 20,000 characters").wait_for()
        assert "long.txt, line 3:" in c.content()
        assert "10,000 characters per line" in c.content() and "Loaded:" not in sidebar(c)
        for pg in (a, b, c):
            pg.context.close()
    finally:
        stop(proc)
    assert "Traceback" not in (tmp_path / "server.log").read_text(encoding="utf-8", errors="replace")


def test_a_newcomer_sees_what_the_tool_is_and_the_answer_without_scrolling(browser, tmp_path):
    """`bash scripts/run.sh`'s server (the sample loaded for every new session) at 1280x800 and 1600x900: without
    scrolling, the Home page says what BlonDe Studio is, that the sample is loaded, and its leading system with
    the significance sentence; the sidebar shows the real navigation, no module names (issue 50). Screenshots:
    home-1280.png, home-1600.png (the window as a newcomer's, not the full page)."""
    proc, url = start_server(tmp_path / "cache", tmp_path / "streamlit.log", BLONDE_AUTOLOAD="sample")
    try:
        for w, h in ((1280, 800), (1600, 900)):
            pg = browser.new_context(viewport={"width": w, "height": h}).new_page()
            pg.set_default_timeout(180_000)
            pg.goto(url)
            pg.get_by_role("heading", name="BlonDe Studio").first.wait_for()
            answer = pg.locator(MAIN + '[data-testid="stMarkdownContainer"]', has_text="leads").first
            answer.wait_for()
            pg.locator(MAIN + '[data-testid="stDataFrame"]').first.wait_for()
            pg.wait_for_timeout(800)
            for what in ("Document-level evaluation of machine translation", "Loaded:", "leads"):
                box = pg.locator(MAIN + '[data-testid="stMarkdownContainer"]', has_text=what).first.bounding_box()
                assert box is not None and box["y"] + box["height"] <= h, (w, what, box)
            assert "bundled sample data" in pg.locator(MAIN).inner_text()
            nav_text = pg.locator('.st-key-bl-nav').inner_text()
            assert "Overview" in nav_text and not any(x in nav_text.split() for x in ("app", "shared", "state", "views"))
            assert pg.locator('[data-testid="stException"]').count() == 0
            pg.screenshot(path=str(ARTIFACTS / f"home-{w}.png"))
            pg.context.close()
    finally:
        stop(proc)


def test_the_overview_leaderboard_is_in_view_at_1280x800_with_ted(browser, tmp_path):
    """TED zh-en (the demo button) at 1280x800: the Overview's controls sit in one row, the leader's sentence
    under them, and the leaderboard's first row is above the fold; the compact table is whole at 1280 px (no
    horizontal scrolling); warnings are one line each, opening to their text (issue 50). Screenshot:
    overview-ted-1280x800.png (the window as a reader's)."""
    proc, url = start_server(tmp_path / "cache", tmp_path / "streamlit.log")
    try:
        pg = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        pg.set_default_timeout(300_000)
        pg.goto(url)
        pg.get_by_role("heading", name="BlonDe Studio").first.wait_for()
        nav(pg, "Data")
        pg.get_by_role("button", name="Load TED zh-en demo").click()
        pg.get_by_text("What was understood").first.wait_for()
        nav(pg, "Overview")
        grid = pg.locator(MAIN + '[data-testid="stDataFrame"]').first
        grid.wait_for()
        pg.get_by_text("companion metrics ✓").first.wait_for()  # the final table
        pg.wait_for_timeout(1000)
        box = grid.bounding_box()
        assert box["y"] + 2 * 35 <= 800, box  # the header and the first row
        pg.screenshot(path=str(ARTIFACTS / "overview-ted-1280x800.png"))
        scroller = grid.locator(".dvn-scroller").first
        assert scroller.evaluate("el => el.scrollWidth - el.clientWidth") <= 1  # no horizontal scrolling
        thin = pg.locator(MAIN + '[data-testid="stExpander"]', has_text="Thin evidence").first
        assert thin.bounding_box()["height"] < 60  # one line, closed
        assert pg.locator('[data-testid="stException"]').count() == 0
        pg.screenshot(path=str(ARTIFACTS / "overview-ted-1280x800.png"))
        # TED's leaderboard as LaTeX, as downloaded: intervals as [lo, hi] by default, never a symmetric +-
        pg.get_by_role("button", name="LaTeX").first.click()
        with pg.expect_download() as dl:
            pg.get_by_role("button", name="Download leaderboard.tex").click()
        tex = Path(dl.value.path()).read_text(encoding="ascii")
        assert r"\begin{tabular}" in tex and "Online-W" in tex and "{\\scriptsize [" in tex, tex[:400]
        assert r"\pm" not in tex.split("% needs")[-1]
    finally:
        stop(proc)
