"""BlonDe Studio - Streamlit entry point.

Every page is routed here with st.navigation (Streamlit's legacy
auto-discovery of pages/ never applies); the sidebar settings are built here
so they apply to every page.  Run with `bash scripts/run.sh`.
"""
import os

import streamlit as st

from blonde_core.errors import InputError

from pages._shared import config, data, load_sample, sidebar_settings

st.set_page_config(page_title="BlonDe Studio", page_icon=":material/translate:", layout="wide")

PAGES = {
    "Evaluate": [
        st.Page("pages/data.py", title="Data", icon=":material/folder_open:", default=True),
        st.Page("pages/overview.py", title="Overview", icon=":material/leaderboard:"),
        st.Page("pages/categories.py", title="Categories", icon=":material/category:"),
        st.Page("pages/documents.py", title="Documents", icon=":material/article:"),
        st.Page("pages/significance.py", title="Significance", icon=":material/functions:"),
        st.Page("pages/correlation.py", title="Human correlation", icon=":material/scatter_plot:"),
    ],
    "Teach and explore": [
        st.Page("pages/sandbox.py", title="Sandbox", icon=":material/edit_note:"),
        st.Page("pages/gallery.py", title="Phenomenon gallery", icon=":material/school:"),
    ],
}
nav = st.navigation(PAGES)
# scripts/run.sh sets BLONDE_AUTOLOAD=sample: every new session starts on the bundled sample data
if os.environ.get("BLONDE_AUTOLOAD") == "sample" and "autoloaded" not in st.session_state:
    st.session_state["autoloaded"] = True
    if data() is None:
        load_sample()
sidebar_settings()
d = data()
if d is not None:
    st.sidebar.caption(f"Loaded: {d.origin} - {len(d.corpus.systems)} systems, {len(d.corpus.doc_ids)} documents")
    from blonde_core.annotate import pipeline_id
    from blonde_core.langpack import load_pack

    try:
        sig = config().signature(len(d.corpus.references), pipeline_id(load_pack(config().lang)),
                                 plus=d.annotation is not None, refined_ner=d.ner is not None)
        st.sidebar.caption("Signature")
        st.sidebar.code(sig, language=None, wrap_lines=True)
    except InputError as exc:
        st.sidebar.warning(str(exc))
nav.run()
