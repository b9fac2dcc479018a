"""Streamlit's private parts this app relies on, in one place; each has a test (tests/test_architecture.py
::test_streamlit_internals_are_there) that fails loudly when a Streamlit upgrade removes or renames it.

* `PagesManager.uses_pages_directory`: Streamlit decides once per server process whether a pages/ folder is
  legacy auto-discovered pages; the app routes with st.navigation and turns that off first thing.
* the XSRF cookie's format ("2|mask|masked secret|time"): its unmasked secret identifies the browser that
  loaded data (who may replace or clear it).
* `Runtime` (`exists`, `instance`, `is_active_session`, `clear_user_info_for_session`): which sessions are
  live, and closing a disconnected one's stored state.
* `get_script_run_ctx`: the running script's session id.
* Streamlit's DOM - class names (`stProgress`, `stElementContainer`, `st-key-KEY`) and test ids (`stMain`) it
  does not promise to keep - reached by the app's CSS and page scripts: every selector is written below (the
  CSS and script helpers), so an upgrade that renames one is mended here; tests/test_architecture.py fails when
  a selector appears anywhere else.
"""
from __future__ import annotations

XSRF_COOKIE = "_streamlit_xsrf"

# Streamlit's DOM, as its CSS and page scripts reach it
MAIN_SELECTOR = '[data-testid="stMain"]'  # the scrolling main column


def progress_without_transition() -> str:
    """CSS: a progress bar jumps to each new value instead of gliding (Streamlit's 0.5 s transition, restarted
    by every update, kept each waiting tab redrawing the bar 60 times a second)."""
    return ".stProgress *{transition:none!important;}"


def hidden_block(key: str) -> str:
    """CSS: the container made with key=KEY takes no room and is not seen (its elements still load)."""
    safe = "".join(ch for ch in key if ch.isalnum() or ch in "-_")
    return f".st-key-{safe}{{position:absolute;visibility:hidden;height:0;overflow:hidden;}}"


def stale_not_dimmed() -> str:
    """CSS: elements of the previous run are not greyed out while the page reruns (the Sandbox's scores stay
    readable while a new text is scored)."""
    return '.stElementContainer[data-stale="true"]{opacity:1!important;transition:none!important;}'


def scroll_main_to_top() -> str:
    """A page-script step (JavaScript, run in the page itself): the main column and the window to their top."""
    return ("const m=window.parent.document.querySelector('" + MAIN_SELECTOR.replace('"', '\\"') + "');"
            "if(m){m.scrollTo(0,0);}window.parent.scrollTo(0,0);")


def legacy_pages_on() -> bool:
    from streamlit.runtime.pages_manager import PagesManager

    return bool(PagesManager.uses_pages_directory)


def legacy_pages_off() -> None:
    """From now on this server never treats pages/ as legacy auto-discovered pages."""
    from streamlit.runtime.pages_manager import PagesManager

    PagesManager.uses_pages_directory = False


def session_id() -> str | None:
    """The running script's session id (None outside a script run: AppTest's bare mode, a thread)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else None


def in_script_run() -> bool:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    return get_script_run_ctx() is not None


def runtime():
    """Streamlit's runtime, or None (AppTest, no server)."""
    from streamlit.runtime import Runtime

    return Runtime.instance() if Runtime.exists() else None


def session_is_live(rt, sid: str) -> bool:
    return rt.is_active_session(sid)


def close_session(rt, sid: str) -> None:
    """Close a stored (disconnected) session on Streamlit's event loop, thread-safely, so it cannot resume."""
    rt.clear_user_info_for_session(sid)


def xsrf_secret(raw: str) -> bytes:
    """The secret under the XSRF cookie's mask ("2|mask|masked|time"); the raw value when it has another form."""
    secret = raw.encode()
    parts = raw.split("|")
    if len(parts) == 4 and parts[0] == "2":
        try:
            mask, masked = bytes.fromhex(parts[1]), bytes.fromhex(parts[2])
            secret = bytes(b ^ mask[i % len(mask)] for i, b in enumerate(masked)) if mask else masked
        except ValueError:
            pass
    return secret
