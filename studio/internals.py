"""Streamlit's private parts this app relies on, in one place; each has a test (tests/test_architecture.py
::test_streamlit_internals_are_there) that fails loudly when a Streamlit upgrade removes or renames it.

* `PagesManager.uses_pages_directory`: Streamlit decides once per server process whether a pages/ folder is
  legacy auto-discovered pages; the app routes with st.navigation and turns that off first thing.
* the XSRF cookie's format ("2|mask|masked secret|time"): its unmasked secret identifies the browser that
  loaded data (who may replace or clear it).
* `Runtime` (`exists`, `instance`, `is_active_session`, `clear_user_info_for_session`): which sessions are
  live, and closing a disconnected one's stored state.
* `get_script_run_ctx`: the running script's session id.
"""
from __future__ import annotations

XSRF_COOKIE = "_streamlit_xsrf"


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
