"""The page gate: a page's title, then the loaded data, the settings and the core's Analysis - or the message
that says what is missing (no data, a link whose data is gone, a language without a pack) and stops the page."""
from __future__ import annotations

import streamlit as st

from blonde_core.study import ScoreConfig, Study
from studio.compute import result
from studio.navigation import TOKEN_PARAM, page
from studio.session import config, data, scoped
from studio.state import STARTED, study_store
from studio.text import first_clause, md_escape
from studio.widgets import note_line


GONE = {
    "restart": "The data this link pointed to is gone: the server was restarted since it was loaded (at {started}), "
               "and uploads are kept in its memory only. Load the files again on **Data** (the link then changes).",
    "expired": "This link has expired: its data was cleared, or unused for longer than {hours:g} hours, and is "
               "deleted. Load the files again on **Data**.",
    "unknown": "This link is not known to this server: it was never made here, or newer uploads pushed its data "
               "out (the server keeps the {items} most recently used). Load the files again on **Data**.",
}


def gone_link() -> str | None:
    """When the address holds a token that opens nothing: why, in plain words (None otherwise)."""
    import datetime

    token = st.query_params.get(TOKEN_PARAM)
    if not token or st.session_state.get("data") is not None:
        return None
    store = study_store()
    why = store.why(token)
    if why is None:
        return None
    started = datetime.datetime.fromtimestamp(STARTED, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return GONE[why].format(started=started, hours=store.ttl / 3600, items=store.max_items)


def start_page(title: str, what: str):
    """Title, then the loaded data, the settings and the core's Analysis (the Result and what
    a page asks of it); stops the page with a message saying what to do when something is missing."""
    st.title(title)
    d = need_data(what)
    if d is None:
        st.stop()
    cfg = config()
    no_pack_stop(d, cfg, what)
    res = result(d, cfg)
    if res is None:
        st.stop()
    return d, cfg, res


def no_pack_stop(d, cfg: ScoreConfig, what: str) -> None:
    """Where a BlonDe number would be, for a target language without a pack: the one sentence that says so,
    where to go for what is computed, and the page stops."""
    msg = d.no_pack(cfg)
    if msg is None:
        return
    st.error(md_escape(msg) + f": {md_escape(what)} needs the BlonDe family.", icon=":material/translate:")
    c1, c2, c3 = st.columns(3)
    c1.page_link(page("overview"), label="Overview (chrF, BLEU)", icon=":material/leaderboard:")
    c2.page_link(page("correlation"), label="Human correlation", icon=":material/scatter_plot:")
    c3.page_link(page("judgments"), label="Human judgments", icon=":material/rule:")
    st.stop()


def domain_caption(d: Study | None) -> None:
    """One line under a page's title when the sidebar restricts the pages to a domain, and one when
    re-segmentation set human segment judgments aside."""
    for msg in (d.messages.get("resegment", []) if d is not None else []):
        note_line("Human judgments: " + md_escape(first_clause(msg)), md_escape(msg[0].upper() + msg[1:]) + ".")
    if d is not None and d.domain:
        st.caption(f":material/filter_alt: Domain **{md_escape(d.domain)}** only (the sidebar's Domain): "
                   f"{len(d.doc_ids)} of {len(data().doc_ids)} documents, {d.reference_segments} "
                   "segments." + "".join(f" {md_escape(x[0].upper() + x[1:])}." for x in d.messages.get("domain", [])))


def need_data(what: str = "this page") -> Study | None:
    d = scoped(data())
    domain_caption(d)
    if d is None:
        gone = gone_link()
        if gone:
            st.warning(gone, icon=":material/link_off:")
        else:
            st.info(f"No data yet. Open **Data** to upload references and system outputs, or load the "
                    f"bundled sample, to see {what}.")
        st.page_link(page("data"), label="Go to Data", icon="📂")
    return d
