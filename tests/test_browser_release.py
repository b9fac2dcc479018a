"""In a real browser: a WMT folder of two pairs (built from WMT22 zh-en, real text and DA rows) loaded as a release
from the Data page with the pair 'all'; the sidebar switches pairs; the Release page shows systems x pairs with the
answer first, its table equal to `score --lp all`, the rank heatmap and the LaTeX download. Screenshots at 1280 and
1600 px go to test-artifacts/ (look at them)."""
import json

import pytest

from blonde_core.cli import main
from conftest import WMT_SUBSET_SYSTEMS, wmt22_layout
from test_browser import goto, no_exception, shot, wait_value
from test_browser_wmt import wmt_tab


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    d = tmp_path_factory.mktemp("release-browser")
    wmt22_layout(d, 60, lp="zh-en")
    return wmt22_layout(d, 40, systems=WMT_SUBSET_SYSTEMS[:3], lp="ja-en")["root"]


def test_release_page_in_a_browser(tmp_path_factory, release, capsys, tmp_path):
    assert main(["score", "--wmt-dir", str(release), "--lp", "all", "--format", "json"]) == 0
    want = json.loads(capsys.readouterr().out)
    with wmt_tab(tmp_path_factory, "release", BLONDE_WMT_ROOTS=str(release.parent)) as (page, _):
        page.get_by_role("textbox", name="or the folder's path on this server").fill(str(release))
        page.get_by_role("textbox", name="Language pair (when the folder has several)").fill("all")
        page.get_by_role("button", name="Load this folder").click()
        page.get_by_text("WMT folder understood as").first.wait_for()
        no_exception(page)
        pick = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]',
                            has_text="Language pair (2 in this release)").first
        pick.wait_for()
        wait_value(page, "Language pair (2 in this release)", "ja-en")
        goto(page, "Release")
        lead = want["order"][0]
        page.get_by_text(f"{lead} leads across the release").first.wait_for()
        no_exception(page)
        page.get_by_text("Rank by BlonDe in each pair").first.wait_for()
        shot(page, "release")
        with page.expect_download() as got:
            page.get_by_role("button", name="LaTeX").click()
        tex = got.value.path().read_text()
        assert r"\label{tab:release}" in tex and tex.isascii()
        # the sidebar's other pair: every page then shows it
        pick.locator("input").click()
        page.get_by_role("option", name="zh-en").click()
        page.wait_for_load_state("networkidle")
        wait_value(page, "Language pair (2 in this release)", "zh-en")
        goto(page, "Data")
        page.get_by_text("language pair zh-en").first.wait_for()
        no_exception(page)
