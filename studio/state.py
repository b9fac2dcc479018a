"""The server's state, shared by every session of this process: the annotation engine
(blonde_core.engine.Engine, configured from the environment) and the store of loaded
studies that brings a session's data back after a browser reload.  App side: the
core knows neither; the pages hand this engine to every Study they create."""
from __future__ import annotations

import os
import secrets
import threading
import time

from blonde_core.study import Engine, Memo, Study


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def limit_malloc() -> None:
    """glibc's allocator set for a server whose sessions run in threads of their own (Linux only; an
    administrator's MALLOC_ARENA_MAX or MALLOC_MMAP_THRESHOLD_ wins): at most BLONDE_MALLOC_ARENAS (default 2)
    arenas, and every block of 256 KB or more mapped on its own, so that it goes back to the system whole when
    freed. glibc gives each thread an arena of its own (up to 8 per core) and raises the mapping threshold to
    32 MB after the first large block is freed; the memory that five closed WMT24 en-zh sessions had used then
    stayed in the arenas, and malloc_trim returned little of it (bench/bench_sessions_memory.py, warm cache: the
    server 204 MB above its start 150 s after they closed; two arenas 129 MB, the fixed threshold 123 MB, both
    126 MB; docs/scale.md). The GIL serialises most allocations anyway, so fewer arenas cost no parallelism."""
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    if "MALLOC_ARENA_MAX" not in os.environ:
        libc.mallopt(-8, max(1, _env_int("BLONDE_MALLOC_ARENAS", 2)))  # M_ARENA_MAX
    if "MALLOC_MMAP_THRESHOLD_" not in os.environ:
        libc.mallopt(-3, 256 * 1024)  # M_MMAP_THRESHOLD (fixed: no sliding up)


limit_malloc()  # imported by app.py's first run, before any session computes

_SERVER: Engine | None = None
_SERVER_LOCK = threading.Lock()


def server_engine() -> Engine:
    """The dashboard server's engine, configured from the environment:
    BLONDE_CACHE (disk | memory | off, default disk), BLONDE_CACHE_DIR,
    BLONDE_MEMO_SENTENCES (default 200000), BLONDE_RESULTS_MB (default 1024),
    BLONDE_CACHE_MAX_MB (annotation cache on disk, default 2048; oldest records out first),
    BLONDE_JOBS (annotation processes, default up to 2),
    BLONDE_SCHEDULER (a Dask scheduler's address, tcp://HOST:8786: spaCy runs on its workers)."""
    global _SERVER
    with _SERVER_LOCK:
        if _SERVER is None:
            _SERVER = Engine(cache_mode=os.environ.get("BLONDE_CACHE", "disk"),
                             cache_dir=os.environ.get("BLONDE_CACHE_DIR") or None,
                             n_process=_env_int("BLONDE_JOBS", 0) or None, pool="server",
                             memo_sentences=_env_int("BLONDE_MEMO_SENTENCES", 200_000),
                             results_mb=_env_int("BLONDE_RESULTS_MB", 1024),
                             disk_mb=_env_int("BLONDE_CACHE_MAX_MB", 2048),
                             scheduler=os.environ.get("BLONDE_SCHEDULER", "").strip() or None)
        return _SERVER




STARTED = time.time()  # this server process's start: a link older than it lost its data in a restart
BOOT = secrets.token_hex(3)  # in every token this process makes: a token of another run is told apart


class StudyStore:
    """token -> (Study, owner), in this server's memory, for at most `ttl` seconds after
    the last use and at most `max_items` studies (least recently used out; the core's Memo).
    Tokens are unguessable (128 random bits) and carry this server run's tag (BOOT), so that a
    link whose data is gone can say why: the server restarted, the link expired, or it is
    unknown here (`why`). The owner is the browser that loaded the data (`browser_id` in
    studio/session.py; None where the browser sends no identity): only its token-holder in that
    browser may replace or clear the entry; anyone else who opens the token gets a copy under a
    token of their own (`open`).

    disk_dir (BLONDE_UPLOADS=disk, off by default): every entry is also written there (the study
    without its engine, pickled; the file name a hash of the token) and read back after a
    restart; Clear and expiry delete the file. Only this server writes the directory."""

    def __init__(self, ttl: float = 12 * 3600, max_items: int = 64, disk_dir=None):
        self.ttl, self.max_items = ttl, max_items
        self._memo = Memo(max_entries=max_items, max_bytes=None, name="sessions")  # token -> (study, last use, owner)
        self._expired: dict = {}  # token -> when it expired (the last 4096), to say so
        self.disk = None
        if disk_dir:
            from pathlib import Path

            self.disk = Path(disk_dir)
            self.disk.mkdir(parents=True, exist_ok=True, mode=0o700)

    def put(self, study: Study, token: str | None = None, owner: str | None = None) -> str:
        """Store study under token (a new one when None, or when token belongs to another owner)."""
        self._expire()
        old = self._memo.peek(token) if token else None
        if token is None or (old is not None and old[2] != owner):
            token = f"{secrets.token_urlsafe(16)}.{BOOT}"
        self._memo.put(token, (study, time.time(), owner), size=0)
        self._write(token, study, owner)
        return token

    def intern(self, study: Study) -> Study:
        """The stored study with this study's content (key, origin and messages), so that sessions that load the
        same files share one copy in memory (a class that loads the same WMT pair: 6 MB each for WMT22 zh-en);
        this study itself when none is stored."""
        self._expire()
        for v in self._memo.values():
            s = v[0]
            if s.key == study.key and s.origin == study.origin and s.messages == study.messages \
                    and s.engine is study.engine:
                return s
        return study

    def get(self, token: str | None) -> Study | None:
        hit = self._entry(token)
        return None if hit is None else hit[0]

    def open(self, token: str | None, owner: str | None) -> tuple[Study | None, str | None, bool]:
        """(study, the token to use, shared): the owner's own token as it is; another owner's
        token gives a copy under a new token of the visitor's (shared=True); (None, None, False)
        when the token is unknown or expired (`why` says which)."""
        hit = self._entry(token)
        if hit is None:
            return None, None, False
        study, _, who = hit
        if who == owner:
            return study, token, False
        return study, self.put(study, None, owner), True

    def why(self, token: str | None) -> str | None:
        """Why a token opens nothing: "restart" (made by an earlier run of this server; its data was in
        memory only), "expired" (unused for longer than the ttl, or cleared), "unknown" (never made here, or
        pushed out by newer uploads); None when it opens data."""
        if not token or self._entry(token) is not None:
            return None
        if token in self._expired:
            return "expired"
        if "." in token and token.rsplit(".", 1)[1] != BOOT:
            return "restart"
        return "unknown"

    def drop(self, token: str | None, owner: str | None = None) -> bool:
        """Drop the token's entry if this owner holds it; True when dropped."""
        hit = self._memo.peek(token or "")
        if hit is None or hit[2] != owner:
            return False
        self._memo.discard([token])
        self._remove(token)
        self._expired[token] = time.time()
        return True

    def holds(self, study: Study) -> bool:
        """Does any entry still hold a study with this study's content key?"""
        self._expire()
        return any(v[0].key == study.key for v in self._memo.values())

    def _entry(self, token: str | None):
        if not token:
            return None
        self._expire()
        hit = self._memo.peek(token)
        if hit is None:
            hit = self._read(token)
            if hit is None:
                return None
        self._memo.put(token, (hit[0], time.time(), hit[2]), size=0)
        return hit

    def expire(self) -> None:
        """Drop the entries unused for longer than the ttl (the presence sweeper calls it; so does every use)."""
        self._expire()

    def _expire(self) -> None:
        now = time.time()
        gone = []
        self._memo.drop_where(lambda token, v: (now - v[1] > self.ttl) and (gone.append(token) or True))
        for token in gone:
            self._expired[token] = now
            self._remove(token)
        while len(self._expired) > 4096:
            self._expired.pop(next(iter(self._expired)))
        if self.disk is not None:  # files of entries no longer in memory (a restart) expire by their own time
            for f in self.disk.glob("*.pickle"):
                try:
                    if now - f.stat().st_mtime > self.ttl:
                        f.unlink()
                except OSError:
                    pass

    # the opt-in disk store (BLONDE_UPLOADS=disk)
    def _file(self, token: str):
        import hashlib

        return self.disk / (hashlib.sha256(token.encode()).hexdigest() + ".pickle")

    def _write(self, token: str, study: Study, owner) -> None:
        if self.disk is None:
            return
        import dataclasses
        import os as _os
        import pickle

        f = self._file(token)
        tmp = f.with_suffix(".tmp")
        try:
            with open(tmp, "wb") as out:
                pickle.dump((token, dataclasses.replace(study, engine=None), owner), out,
                            protocol=pickle.HIGHEST_PROTOCOL)
            _os.replace(tmp, f)
        except (OSError, pickle.PicklingError, TypeError):  # the memory copy still serves; the disk one is missed
            try:
                tmp.unlink()
            except OSError:
                pass

    def _read(self, token: str):
        if self.disk is None:
            return None
        import dataclasses
        import pickle

        f = self._file(token)
        try:
            if time.time() - f.stat().st_mtime > self.ttl:
                f.unlink()
                return None
            with open(f, "rb") as src:
                saved, study, owner = pickle.load(src)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError):
            return None
        if saved != token:
            return None
        study = dataclasses.replace(study, engine=server_engine())
        return study, time.time(), owner

    def _remove(self, token: str) -> None:
        if self.disk is not None:
            try:
                self._file(token).unlink()
            except OSError:
                pass

    def __len__(self) -> int:
        return len(self._memo)


class Presence:
    """Which live browser sessions hold which data (the loaded study and the form the pages score, re-segmented
    or one domain, whose results have a key of their own): every script run says (hold), and a sweep
    takes the sessions that have been disconnected for `grace` seconds (a tab closed; a short
    network break resumes within it) and releases what only they held - the results computed
    from it and its sentences in the annotation memo (the disk cache keeps them; the reload
    store keeps the data itself, so a reload recomputes from the disk cache) -, closes their
    Streamlit sessions (their state and uploaded files: Streamlit would keep a disconnected
    session until some later visit expires it) and asks the C allocator to give freed memory
    back to the system. Without it the server kept every closed session's results until the
    memo's bound pushed them out (issue 38: 1,306 MB still 160 s after five sessions closed)."""

    def __init__(self):
        self._held: dict[str, tuple] = {}  # session id -> the studies it holds (its data and the form pages score)
        self._since: dict[str, float] = {}  # session id -> when it was first seen disconnected
        self._lock = threading.Lock()
        self.closed = 0  # sessions this sweeper has closed so far

    def hold(self, session_id: str | None, *studies: Study | None) -> None:
        """This session's studies now: its loaded data and the form its pages score (re-segmented, one domain:
        studio/session.scoped), whose results are stored under a content key of their own."""
        if session_id:
            held = tuple({id(s): s for s in studies if s is not None}.values())
            with self._lock:
                self._held[session_id] = held
                self._since.pop(session_id, None)

    def holding(self) -> dict:
        """{session id: the studies it holds} (a copy)."""
        with self._lock:
            return dict(self._held)

    def sweep(self, is_active, engine: Engine, close=None, grace: float = 45.0, now: float | None = None) -> int:
        """Release what only the sessions disconnected for `grace` seconds held and close them
        (close(session id)); returns how many studies were released."""
        now = time.monotonic() if now is None else now
        with self._lock:
            for sid in list(self._held):
                if is_active(sid):
                    self._since.pop(sid, None)
                else:
                    self._since.setdefault(sid, now)
            gone = [sid for sid, t in self._since.items() if now - t >= grace]
            if not gone:
                return 0
            self.closed += len(gone)
            left = [s for sid in gone for s in self._held.pop(sid)]
            for sid in gone:
                self._since.pop(sid)
            live = [s for held in self._held.values() for s in held]
        live_keys = {s.key for s in live}
        orphans = list({s.key: s for s in left if s.key not in live_keys}.values())
        released, left = len(orphans), None
        while orphans:  # each let go once released: none is kept alive through the collection below
            engine.release(orphans.pop(), live)
        live = None
        for sid in gone if close is not None else ():
            close(sid)
        _give_back_memory()
        return released


def _give_back_memory() -> None:
    """glibc keeps freed memory for reuse; malloc_trim(0) returns what it can (Linux only).  The frozen
    objects (settle) are thawed first, so that a full collection reaches everything, and frozen again."""
    import gc

    gc.unfreeze()
    gc.collect()
    gc.freeze()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def settle() -> None:
    """After each script run (app.py): what the run built and still holds - a study's results, the sentences'
    records, the Streamlit session - is long-lived, so it leaves the cyclic collector's view (gc.freeze, after
    a collection of the young generations).  Python's full collection otherwise walked all of it in the middle
    of a later page: 0.15-0.25 s of the Categories page's first open after TED's 13 systems were loaded
    (bench/bench_pages.py: 0.23 s with, 0.08 s without that pause).  Reference counting still frees what is
    dropped; cycles among frozen objects wait for the presence sweep's full collection (_give_back_memory:
    when sessions close, and every THAW_SWEEPS sweeps)."""
    import gc

    gc.collect(1)
    gc.freeze()


_PRESENCE = Presence()


def presence() -> Presence:
    """The server's registry of live sessions' data, swept every SWEEP_SECONDS by a thread of its
    own (sessions close without telling) and whenever a session is seen gone."""
    global _SWEEPER
    with _SERVER_LOCK:
        if _SWEEPER is None:
            _SWEEPER = threading.Thread(target=_sweep_forever, name="blonde-presence", daemon=True)
            _SWEEPER.start()
    return _PRESENCE


SWEEP_SECONDS = 15
THAW_SWEEPS = 20  # every 5 minutes a full collection that reaches the frozen objects too
_SWEEPER: threading.Thread | None = None


def _sweep_forever() -> None:
    from studio import internals

    sweeps, again = 0, False
    while True:
        time.sleep(SWEEP_SECONDS)
        sweeps += 1
        rt = internals.runtime()
        closed = _PRESENCE.closed
        if again:  # Streamlit drops a closed session on its event loop, after the sweep that closed it
            _give_back_memory()
            again = False
        if rt is not None:
            try:
                # a stored (disconnected) session is closed on Streamlit's event loop, so that it cannot resume
                _PRESENCE.sweep(lambda sid: internals.session_is_live(rt, sid), server_engine(),
                                close=lambda sid: internals.close_session(rt, sid))
                if _STORE is not None:
                    _STORE.expire()  # links unused for the store's ttl go now, not at the next visit
            except Exception:  # noqa: BLE001 - a sweep that failed is tried again next time
                pass
        again = _PRESENCE.closed != closed  # this sweep closed sessions (and gave memory back already)
        if not again and sweeps % THAW_SWEEPS == 0:  # cycles that died among the frozen objects
            _give_back_memory()


def upload_limits() -> tuple[int, int]:
    """(characters per line, segments per upload) this server takes: BLONDE_MAX_LINE_CHARS
    (default 10,000; the longest segment of the shared TED and WMT22 data has 1,676) and
    BLONDE_MAX_SEGMENTS (default 500,000 over all texts of one upload; WMT22 zh-en's 13 texts
    and source have 26,250 + 1,875). Past them an upload is refused before any work starts,
    so that no upload holds the annotation workers for long while others wait."""
    return _env_int("BLONDE_MAX_LINE_CHARS", 10_000), _env_int("BLONDE_MAX_SEGMENTS", 500_000)


_STORE: StudyStore | None = None


def uploads_dir():
    """Where uploads are kept on disk with BLONDE_UPLOADS=disk (beside the annotation cache, in uploads/), else
    None (the default: in memory only)."""
    if os.environ.get("BLONDE_UPLOADS", "memory").strip().lower() != "disk":
        return None
    return str(server_engine().cache_root() / "uploads")


def study_store() -> StudyStore:
    """The server's store (BLONDE_SESSION_HOURS, default 12; BLONDE_SESSIONS, default 64; BLONDE_UPLOADS=disk:
    also on disk, read back after a restart)."""
    global _STORE
    if _STORE is not None:
        return _STORE
    disk = uploads_dir()  # before the lock: it asks server_engine(), which takes the same (non-reentrant) lock
    with _SERVER_LOCK:
        if _STORE is None:
            _STORE = StudyStore(ttl=3600 * float(os.environ.get("BLONDE_SESSION_HOURS", 12)),
                                max_items=_env_int("BLONDE_SESSIONS", 64), disk_dir=disk)
        return _STORE
