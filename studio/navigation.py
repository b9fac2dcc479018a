"""Routing and navigation: the check that sends a page run on its own through app.py, the data token that travels
with every page change, and the pages themselves - declared once (`PAGES`: file, title, icon, section), so that
app.py's st.navigation, the sidebar's links and every page_link and switch_page name a page by its declaration
(`page("overview")`), never by a path string.  A new page is its file in pages/ and one line in `PAGES`."""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from studio import internals


def route_through_app() -> None:
    """Every page is routed by st.navigation in app.py. Streamlit decides once per server
    process, when the first session starts, to treat a pages/ folder as legacy
    auto-discovered pages, and drops that only once st.navigation has run. A first visitor
    who opened a page's own address (or clicked a page before app.py got that far) had that
    page file run on its own - no settings sidebar - and the legacy list of file names
    (_shared and _views among them) in the sidebar. app.py clears the flag itself first
    thing (its own first run needs no rerun); a page run on its own gets here through this
    module's import (studio/session.py imports it first, and every page asks for the session's data or
    settings) and starts over through app.py."""
    if internals.legacy_pages_on():
        internals.legacy_pages_off()
        if internals.in_script_run() and not st.session_state.get("_routing_rerun"):
            st.session_state["_routing_rerun"] = True  # once per session: never a rerun loop
            st.rerun()


route_through_app()


TOKEN_PARAM = "s"  # the URL parameter that brings a session's data back after a reload


def token_query() -> dict | None:
    """The query that keeps this session's data token in the URL, for a page switch or link (None: no data)."""
    token = st.session_state.get("data_token")
    return {TOKEN_PARAM: token} if token else None


def keep_token() -> None:
    """Keep the token in the URL (Streamlit clears query parameters on page changes)."""
    token = st.session_state.get("data_token")
    if token and st.session_state.get("data") is not None and st.query_params.get(TOKEN_PARAM) != token:
        st.query_params[TOKEN_PARAM] = token


EVALUATE, EXPLORE = "Evaluate", "Teach and explore"


@dataclass(frozen=True)
class PageSpec:
    """One page: its file in pages/ (named by its stem: `page("overview")`), its title (the sidebar's link and
    the browser tab's "Overview · BlonDe Studio"), its icon and its section of the sidebar."""

    name: str
    title: str
    icon: str
    section: str
    default: bool = False

    @property
    def file(self) -> str:
        return f"pages/{self.name}.py"


PAGES = (
    PageSpec("home", "Home", ":material/home:", EVALUATE, default=True),
    PageSpec("data", "Data", ":material/folder_open:", EVALUATE),
    PageSpec("overview", "Overview", ":material/leaderboard:", EVALUATE),
    PageSpec("release", "Release", ":material/table_view:", EVALUATE),
    PageSpec("categories", "Categories", ":material/category:", EVALUATE),
    PageSpec("documents", "Documents", ":material/article:", EVALUATE),
    PageSpec("significance", "Significance", ":material/functions:", EVALUATE),
    PageSpec("contrast", "Contrast", ":material/compare_arrows:", EVALUATE),
    PageSpec("correlation", "Human correlation", ":material/scatter_plot:", EVALUATE),
    PageSpec("judgments", "Human judgments", ":material/rule:", EVALUATE),
    PageSpec("sandbox", "Sandbox", ":material/edit_note:", EXPLORE),
    PageSpec("gallery", "Phenomenon gallery", ":material/school:", EXPLORE),
)
SPECS = {p.name: p for p in PAGES}


def page(name: str):
    """The st.Page of a declared page, for st.navigation, st.page_link and st.switch_page (a new object each
    call: Streamlit knows a page by its address, which the declaration fixes)."""
    p = SPECS[name]
    return st.Page(p.file, title=p.title, icon=p.icon, default=p.default)


def sections() -> dict[str, list]:
    """{section: [st.Page, ...]} in the declaration's order: what app.py hands st.navigation."""
    out: dict[str, list] = {}
    for p in PAGES:
        out.setdefault(p.section, []).append(page(p.name))
    return out


def take_pending(prefix: str) -> None:
    """Apply the widget values another page (or a click) left for this page, before its widgets exist."""
    for k, v in st.session_state.pop(f"pending_{prefix}", {}).items():
        st.session_state[k] = v


def open_documents(doc=None, systems=None, categories=None, only=None, sentence=None,
                   origin: str | None = None) -> None:
    """Go to the Documents page with this document, these systems and categories selected (only: the
    mismatch filter), or to one sentence of it; origin: the declared name of the page the click came from
    (Documents offers the way back to it)."""
    pend = {}
    if doc is not None:
        pend["doc_sel"] = doc
        pend["doc_page"] = 1
    if systems is not None:
        pend["doc_systems"] = list(systems)
    if categories is not None:
        pend["doc_cats"] = list(categories)
    if only is not None:
        pend["doc_only"] = list(only)
    pend.update(focus_sentence(sentence) if sentence else {"doc_focus_row": None})
    st.session_state["pending_doc"] = pend
    st.session_state["doc_origin"] = origin
    # the data's token goes with the switch: one history entry (a switch clears the query and keep_token then
    # put the token back, a second entry, so the browser's Back needed two presses to leave Documents)
    go_to("documents")


def go_to(name: str) -> None:
    """Switch to a declared page, the data's token with it (one history entry)."""
    st.switch_page(page(name), query_params=token_query())


def focus_sentence(n: int) -> dict:
    """Widget values that show sentence n (1-based) of the current document: its page, the highlighted view,
    the row marked and scrolled to.  The mismatch filter stays on; the Documents page switches it off (and
    says so) only when it hides that sentence."""
    return {"doc_goto": int(n), "doc_focus_row": int(n), "doc_tab": "Highlighted spans", "doc_scroll": int(n)}
