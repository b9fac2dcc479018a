"""A WMT release in one session (issue 65): several language pairs of one WMT folder or zip loaded together.

The session's data is always one pair's Study - every page keeps its per-pair view - and the sidebar's pair
selector switches between the pairs (each pair's study is kept once loaded, its computed results with it, so a
switch back is warm). The Release page asks the core (Study.release) for the systems x pairs table over every
pair, each in its own language pack; the table is kept per settings, so a second visit is immediate.

What a session holds: st.session_state["release"] = {"source", "pairs", "gold", "lower", "esa_common", "roots",
"label", "studies": {lp: Study}, "tables": {key: table}}.
"""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import streamlit as st

from blonde_core.study import ScoreConfig, Study

KEY = "release"


def current() -> dict | None:
    """This session's release, or None (one pair loaded, or other data)."""
    return st.session_state.get(KEY)


def holds(study) -> bool:
    """Is this study one of the session's release pairs (then replacing it keeps its results: a switch back)?"""
    rel = current()
    return bool(rel) and any(s is study for s in rel["studies"].values())


# Pairs read from a folder on this server, shared by the sessions that load the same release: a second session's
# Release page then reads no file again (WMT24's eight pairs took ~5 s to read). Keyed by everything a pair's study
# depends on: the folder, the pair, the form's choices, the reading limits, and the size and time of every file
# under the folder (a file changed on disk is read again). Bounded (one release of eight pairs) and each pair
# dropped after SHARED_TTL seconds unused, so the memory goes back after the sessions close; a zip upload is never
# kept here.
_SHARED: dict = {}  # key -> [study, last used (time.monotonic())]
_SHARED_MAX = 8
SHARED_TTL = 600.0
_SHARED_LOCK = threading.Lock()


def _files_signature(folder: Path) -> tuple:
    out = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for f in sorted(files):
            try:
                stt = os.stat(os.path.join(root, f))
            except OSError:
                continue
            out.append((os.path.relpath(os.path.join(root, f), folder), stt.st_size, stt.st_mtime_ns))
    return tuple(out)


def _read(source, lp, gold, lower, esa_common, roots, engine) -> Study:
    """One pair read under this server's limits per upload (as the Data page reads one pair); a folder's pair read
    by another session with the same choices, files unchanged, is that session's study (shared, as the study store
    interns identical uploads)."""
    from blonde_core.study import reading_limits

    from studio.state import upload_limits

    key = None
    if isinstance(source, Path) and source.is_dir():
        key = (str(source.resolve()), lp, gold, tuple(lower or ()), bool(esa_common),
               tuple(str(r) for r in roots or ()), upload_limits(), _files_signature(source))
        now = time.monotonic()
        with _SHARED_LOCK:
            for k in [k for k, v in _SHARED.items() if now - v[1] > SHARED_TTL]:
                del _SHARED[k]
            hit = _SHARED.get(key)
            if hit is not None:
                hit[1] = now
        if hit is not None and hit[0].engine is engine:
            return hit[0]
    with reading_limits(*upload_limits()):
        got = Study.from_wmt(source, lp, gold, lower, engine=engine, esa_common=esa_common, roots=roots)
    got.check_limits(*upload_limits())
    if key is not None:
        with _SHARED_LOCK:
            _SHARED[key] = [got, time.monotonic()]
            while len(_SHARED) > _SHARED_MAX:  # the least recently used
                _SHARED.pop(min(_SHARED, key=lambda k: _SHARED[k][1]))
    return got


def shared(study) -> bool:
    """Is this study kept for every session (a folder's pair): then one session forgetting its release leaves the
    study's results to the engine's bounded memo, for the other sessions."""
    with _SHARED_LOCK:
        return any(v[0] is study for v in _SHARED.values())


def start(source, pairs: list[str], label: str, *, gold, lower, esa_common: bool, roots, engine, set_data) -> None:
    """Load a release: its first pair becomes the session's data now; the others on a switch or on the Release
    page. Any earlier release of this session is forgotten first."""
    forget(engine)
    first = _read(source, pairs[0], gold, lower, esa_common, roots, engine)
    st.session_state[KEY] = {"source": source, "pairs": list(pairs), "gold": gold, "lower": lower,
                             "esa_common": esa_common, "roots": roots, "label": label,
                             "studies": {pairs[0]: first}, "tables": {}}
    set_data(first)
    st.session_state[KEY]["studies"][pairs[0]] = st.session_state.get("data", first)


def pair_of(study) -> str | None:
    rel = current()
    if not rel or study is None:
        return None
    return next((lp for lp, s in rel["studies"].items() if s is study or s.key == study.key), None)


def load_pair(lp: str, engine) -> Study:
    """One pair's study of the release (read once, then kept)."""
    rel = current()
    got = rel["studies"].get(lp)
    if got is None:
        got = _read(rel["source"], lp, rel["gold"], rel["lower"], rel["esa_common"], rel["roots"], engine)
        rel["studies"][lp] = got
    return got


def switch(lp: str, engine, set_data) -> None:
    """Make pair lp the session's data (its pages, its language pack)."""
    set_data(load_pair(lp, engine))
    rel = current()
    if rel is not None:  # set_data may intern the study: keep the one the session holds
        rel["studies"][lp] = st.session_state.get("data", rel["studies"][lp])


def forget(engine) -> None:
    """Drop the session's release (other data loaded or cleared): the pairs' computed results go, except the one
    that is the session's data now."""
    rel = st.session_state.pop(KEY, None)
    if not rel:
        return
    now = st.session_state.get("data")
    for s in rel["studies"].values():
        if s is not now and not shared(s):
            engine.release(s)


def pair_config(study: Study, cfg: ScoreConfig) -> ScoreConfig:
    """The settings a pair is scored with on the Release page: the sidebar's, in the pair's own language (the
    language guessed from its reference, that pack's case and weights)."""
    guess = study.guess_language()["language"]
    if guess is None or guess == cfg.lang:
        return cfg
    return cfg.with_(lang=guess, weights=None, lowercase=Study.pack_lowercase(guess), tag_as_written=False)


def table(cfg: ScoreConfig, n: int, seed: int, engine, progress=None, work=None) -> dict:
    """The systems x pairs table (Study.release) under the sidebar's settings, each pair in its own language;
    kept per settings for this release."""
    rel = current()
    key = (repr(cfg), n, seed)
    got = rel["tables"].get(key)
    if got is None:
        for k, lp in enumerate(rel["pairs"]):  # each pair read as the Data page's form said (gold, lower, ESA)
            if lp not in rel["studies"]:
                if progress:
                    progress(lp, k, len(rel["pairs"]))
                load_pair(lp, engine)
        got = Study.release(rel["source"], rel["pairs"], lambda s: pair_config(s, cfg), n, seed, rel["gold"], engine,
                            progress=progress, work=work, studies=rel["studies"])
        rel["tables"][key] = got
    return got


def sidebar(engine, set_data) -> None:
    """The sidebar's pair selector of a loaded release (before the settings: the language follows the pair)."""
    rel = current()
    d = st.session_state.get("data")
    if not rel or d is None:
        return
    now = pair_of(d)
    if now is None:  # the session's data is no pair of the release (cannot happen: set_data forgets it)
        return
    pairs = rel["pairs"]
    for lp in pairs:  # an earlier pair's selector must not carry its last choice into a later visit of that pair
        if lp != now:
            st.session_state.pop(f"release_pair_{lp}", None)
    choice = st.sidebar.selectbox(
        f"Language pair ({len(pairs)} in this release)", pairs, index=pairs.index(now), key=f"release_pair_{now}",
        help="Every page shows one pair of the release, scored in that pair's own language pack; the Release page "
             "shows systems x pairs. A pair is read the first time it is chosen, then kept: a switch back is quick.")
    if choice != now:
        with st.spinner(f"Reading {choice}..."):
            switch(choice, engine, set_data)
