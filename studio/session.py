"""This session's data and settings: the loaded Study (`data`, `set_data`: the server's store behind the token in
the address, restored after a reload; the owner told apart by the XSRF cookie's secret), the settings the sidebar
made (`config`), the data as the pages score it (`scoped`: re-segmented, one domain), the bundled sample and the
shared data's folders."""
from __future__ import annotations

import os
import threading
from pathlib import Path

import streamlit as st
from studio import internals
from studio.navigation import TOKEN_PARAM  # first: the routing check (a page run on its own starts over)

from blonde_core.study import InputError, ScoreConfig, Study
from studio.state import server_engine, study_store
from studio.text import md_escape


ROOT = Path(__file__).resolve().parent.parent


SAMPLE = ROOT / "sample_data"


SAMPLE_SYSTEMS = ["consistent", "names", "tense", "pronouns", "markers"]


# the shared data folder (BLONDE_SHARED_DIR, as the tests read it; default ../shared beside the project)
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR") or ROOT.parent / "shared")


TED = SHARED / "data" / "ted-zhen"


def browser_id() -> str | None:
    """Who loaded the data, as far as the server can tell: a hash of the secret in Streamlit's
    XSRF cookie. That cookie lives as long as the browser session and is never in the address
    bar, so a reload of the same tab (or another tab of the same browser) has it and a link
    opened in another browser has not. Its value is masked anew in every response
    ("2|mask|masked secret|time"); the secret under the mask stays. None when the browser sends
    no such cookie (XSRF protection off; AppTest): then every holder of a token is its owner."""
    import hashlib

    try:
        raw = st.context.cookies.get(internals.XSRF_COOKIE)
    except Exception:  # noqa: BLE001 - no request context (AppTest)
        return None
    if not isinstance(raw, str) or not raw:
        return None
    return hashlib.sha256(b"blonde-studio-owner|" + internals.xsrf_secret(raw)).hexdigest()


def data() -> Study | None:
    """This session's data; after a browser reload, restored from the server's store
    through the unguessable token in the URL. A token that another browser loaded opens a
    copy under a new token of this session's own: whatever this session then loads or
    clears leaves the other browser's data as it was."""
    d = st.session_state.get("data")
    if d is None:
        token = st.query_params.get(TOKEN_PARAM)
        d, mine, shared = study_store().open(token, browser_id())
        if d is not None:
            st.session_state["data"] = d
            st.session_state["data_token"] = mine
            st.session_state["shared_copy"] = shared
            if mine != token:
                st.query_params[TOKEN_PARAM] = mine
    return d


def _annotate_ahead(study: Study) -> None:
    """Start annotating the loaded data at once, in the background (the core's
    Study.prefetch): the workers are busy while the user is still reading the Data page,
    and the Overview then waits only for what is left. It stops when this session loads
    other data, clears it, or leaves (its browser tab is closed)."""
    stop = st.session_state["annotate_ahead_stop"] = threading.Event()
    sid = internals.session_id()
    runtime = internals.runtime()

    def keep_going() -> bool:
        return not stop.is_set() and (runtime is None or sid is None or internals.session_is_live(runtime, sid))
    cfg = config()
    guess = study.guess_language()["language"]  # the sidebar's default for the new data: its own language
    if guess is not None and guess != cfg.lang:  # and the case that language's pack reads text in
        cfg = cfg.with_(lang=guess, weights=None, lowercase=Study.pack_lowercase(guess))
    st.session_state["annotating_ahead"] = study.prefetch(cfg, keep_going) is not None


def set_data(study: Study | None) -> None:
    """Make study this session's data (None clears it, and what was computed from it)."""
    old, token = st.session_state.get("data"), st.session_state.get("data_token")
    store, me = study_store(), browser_id()
    ahead = st.session_state.pop("annotate_ahead_stop", None)
    if ahead is not None:
        ahead.set()  # the previous data's background annotation sends nothing more
    st.session_state.pop("shared_copy", None)
    if study is None:
        from studio import release

        release.forget(server_engine())
        store.drop(token, me)
        if old is not None and not store.holds(old):  # another session's copy keeps what it uses
            server_engine().forget(old)
            held = st.session_state.pop("scoped_study", None)
            if held is not None and held[1] is not old:  # its re-segmented or one-domain form, too
                server_engine().forget(held[1])
        st.session_state.pop("data", None)
        st.session_state.pop("data_token", None)
        st.query_params.pop(TOKEN_PARAM, None)
        return
    from studio import release

    if not release.holds(study):  # other data than the release's pairs: the release is forgotten
        release.forget(server_engine())
    if study.engine is not server_engine():  # every study of this server computes through its one engine
        study = study.with_engine(server_engine())
    study = store.intern(study)  # the same files loaded by another session: one copy for both
    st.session_state["data"] = study
    st.session_state["data_token"] = store.put(study, token, me)
    st.query_params[TOKEN_PARAM] = st.session_state["data_token"]
    if old is not None and old.key != study.key and not store.holds(old) and not release.holds(old):
        server_engine().release(old)  # replaced: its computed results go (its cached sentences stay; a release's
        # other pairs keep theirs for a switch back)
    _annotate_ahead(study)


def config() -> ScoreConfig:
    return st.session_state.get("config") or ScoreConfig()


def scoped(d: Study | None) -> Study | None:
    """The loaded data as the pages score it: re-segmented when the sidebar's Re-segment is on (Study.resegmented)
    and restricted to the sidebar's domain when one is chosen (Study.in_domain); kept for this session, so it is
    built once per choice.  The loaded data itself stays as uploaded."""
    dom = st.session_state.get("domain")
    if d is None:
        return d
    dom = dom if dom in d.domain_counts() else None
    uneven = d.misaligned() if st.session_state.get("resegment") and not d.seg_method else []
    cut = bool(uneven)
    if dom is None and not cut:
        return d
    held = st.session_state.get("scoped_study")
    if held is not None and held[0] == (d.key, dom, cut):
        return held[1]
    sub = d
    if cut:  # the sidebar's Re-segment (the Data page's checkbox does it when loading)
        with st.spinner(f"Re-segmenting {len(uneven)} system(s) into the reference's sentences..."):
            try:
                sub = sub.resegmented()
            except InputError as exc:
                st.sidebar.error(md_escape(exc.for_page()))
    sub = sub.in_domain(dom)
    st.session_state["scoped_study"] = ((d.key, dom, cut), sub)
    return sub


def load_sample() -> None:
    """Load the bundled sample data (with its human judgments and BlonD+ annotation) into the session."""
    set_data(Study.from_files([SAMPLE / "reference.txt"], [SAMPLE / f"{s}.txt" for s in SAMPLE_SYSTEMS],
                              docids=SAMPLE / "docids.txt", human=SAMPLE / "human_judgments.tsv",
                              annotation=SAMPLE / "blonde_plus_annotation.txt",
                              origin="bundled sample data (sample_data/)", engine=server_engine()))
