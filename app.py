"""BlonDe Studio - Streamlit entry point.  All pages are routed here with
st.navigation (Streamlit's legacy auto-discovery of pages/ never applies)."""
import streamlit as st

st.set_page_config(page_title="BlonDe Studio", page_icon="📄", layout="wide")

PAGES = [
    st.Page("pages/overview.py", title="Overview", icon="🏁", default=True),
]
st.navigation(PAGES).run()
