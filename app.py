"""BlonDe Studio - Streamlit entry point.

Every page is routed here with st.navigation (Streamlit's legacy
auto-discovery of pages/ never applies); the sidebar settings are built here
so they apply to every page.  Run with `bash scripts/run.sh`.
"""
import os
from pathlib import Path

from blonde_core.blas import one_blas_thread

one_blas_thread()  # before anything imports numpy: sessions compute side by side in this process (blas.py)
import streamlit as st  # noqa: E402

from studio import internals  # noqa: E402

# Before anything slow: from this moment the server never treats pages/ as legacy
# auto-discovered pages, even if this first run is cut short (studio/navigation.route_through_app).
internals.legacy_pages_off()

from blonde_core.study import InputError  # noqa: E402

from studio.gate import gone_link  # noqa: E402
from studio.navigation import keep_token, sections  # noqa: E402
from studio.session import config, data, load_sample, scoped, set_data  # noqa: E402
from studio.sidebar import sidebar_nav, sidebar_settings  # noqa: E402
from studio.text import esc, md_escape  # noqa: E402
from studio import release  # noqa: E402
from studio.state import presence, server_engine, settle  # noqa: E402

# a local icon: a material or emoji icon makes every page load fetch it from fonts.gstatic.com
st.set_page_config(page_title="BlonDe Studio", page_icon=str(Path(__file__).parent / "assets" / "favicon.png"),
                   layout="wide")

# the sidebar's links are drawn below (sidebar_nav), each carrying this session's data token: Streamlit's own
# list drops the address's query on a page change, and writing the token back then pushed a second history
# entry for every page - Back took two presses per page, three on Human judgments (issue 60)
nav = st.navigation(sections(), position="hidden")  # the pages, as studio/navigation.py declares them
# the page's title (none when app.py is imported without a script run, e.g. as the __main__ a spawned
# process re-imports: a Dask worker started after an AppTest ran app.py in the same process)
PAGE_TITLE = getattr(nav, "title", None)
# each page its own browser-tab title ("Overview · BlonDe Studio"): tabs of several pages are told apart
if PAGE_TITLE:
    st.set_page_config(page_title=f"{PAGE_TITLE} · BlonDe Studio")
# A progress bar jumps to each new value instead of gliding: Streamlit's 0.5 s transition,
# restarted by every update (twice a second), kept each waiting tab redrawing the bar 60 times
# a second - with eight sessions on one machine, CPU taken from the annotation they wait for.
# The second rule hides the elements that warm the browser up (below).
st.html(f"<style>{internals.progress_without_transition()}{internals.hidden_block('bl-warmup')}</style>")
# scripts/run.sh sets BLONDE_AUTOLOAD=sample: every new session starts on the bundled sample data
if os.environ.get("BLONDE_AUTOLOAD") == "sample" and "autoloaded" not in st.session_state:
    st.session_state["autoloaded"] = True
    if data() is None and not gone_link():  # a link whose data is gone says so (pages), not the sample instead
        load_sample()
nav_box = st.sidebar.container(key="bl-nav")  # the page links, above the settings; filled once the token is known
release.sidebar(server_engine(), set_data)  # a WMT release's pair selector (studio/release.py), before the settings
sidebar_settings()
study = data()
sidebar_nav(nav_box)
presence().hold(internals.session_id(), study)  # what this live session holds (studio/state.py)
if study is not None:
    keep_token()
    st.sidebar.caption(f"Loaded: {md_escape(study.origin)} - {len(study.systems)} systems, "
                       f"{len(study.doc_ids)} documents")
    study = scoped(study)
    presence().hold(internals.session_id(), data(), study)  # and the form the pages score: its results are its own
    if study.domain:
        st.sidebar.caption(f"Pages show domain **{md_escape(study.domain)}** only: {len(study.doc_ids)} "
                           f"documents, {study.reference_segments} segments.")
    if st.session_state.get("shared_copy"):
        st.sidebar.caption("Opened from a shared link: this is your own copy. Loading or clearing data here "
                           "leaves the sender's data as it was.")
    try:
        # plain escaped text, not st.code: the code block's highlighter is the heaviest thing a
        # browser loads after Analyse (~0.3 s of CPU per tab), and the pages' signature boxes
        # (with a copy button) draw it after their first answer
        st.sidebar.html('<div style="font-size:.8rem;opacity:.8">Signature</div><code style="font-size:.72rem;'
                        'word-break:break-all;white-space:normal;line-height:1.4">'
                        f'{esc(study.signature(config()))}</code>')
    except InputError as exc:
        st.sidebar.warning(md_escape(exc.for_page()))
# Plotly's library (4.7 MB of JavaScript; ~1 s of a browser's CPU to load, measured in Chromium)
# is fetched the first time a page draws a chart, and the data grid's scripts (DataFrame, Arrow,
# the Styler's formatting: ~1.7 MB) the first time it draws a table. A hidden empty chart and a
# one-cell table in a session's first run have the browser load both while its user is still
# choosing files, not while they wait for their first leaderboard: the Overview's chart then
# costs the browser ~0.08 s instead of 1.2-1.5 s, and its table is drawn 0.03 s after the
# "Shown" caption instead of 0.5-1.2 s after it. Only in the first run: later runs leave the
# sidebar as it was.
if "warmup" not in st.session_state:
    st.session_state["warmup"] = True
    import pandas as pd
    import plotly.graph_objects as go

    with st.sidebar.container(key="bl-warmup"):
        st.plotly_chart(go.Figure(), config={"staticPlot": True}, key="bl-warmup-figure")
        st.dataframe(pd.DataFrame({"x": [1.0]}).style.format(precision=2), hide_index=True,
                     column_config={"x": st.column_config.NumberColumn(format="%.2f")})
# the page shown before this run's (Documents offers the way back only when a click on another page led there)
st.session_state["page_before"], st.session_state["page_now"] = st.session_state.get("page_now"), PAGE_TITLE
try:
    nav.run()
finally:
    settle()  # what this run built and holds leaves the cyclic collector's full passes (studio/state.py)
