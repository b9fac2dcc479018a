"""Persistent on-disk annotation cache (SQLite).

Keyed by (spaCy pipeline name and version, spaCy version, lowercase flag,
sentence text).  Safe for several processes at once (SQLite locking, WAL
journal) and for several threads of one process (each thread opens its own
connection: the dashboard's server runs every script run in its own thread);
a corrupt or truncated file is detected, moved aside and rebuilt; any other
cache failure degrades to "no cache" with a warning, never a crash.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Iterable

from .pipeline import RECORD_VERSION

BUSY_SECONDS = 60  # how long a connection waits for another's lock (SQLite's busy timeout, the WAL switch)


def default_cache_dir() -> Path:
    env = os.environ.get("BLONDE_CACHE_DIR")
    if env:
        return Path(env)
    try:
        from platformdirs import user_cache_dir

        return Path(user_cache_dir("blonde-studio", appauthor=False))
    except ImportError:  # pragma: no cover - platformdirs is a pinned dependency
        return Path.home() / ".cache" / "blonde-studio"


def cache_key(pipeline_id: str, lowercase: bool, text: str) -> bytes:
    h = hashlib.blake2b(digest_size=20)
    h.update(f"{RECORD_VERSION}\x00{pipeline_id}\x00{int(bool(lowercase))}\x00".encode())
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.digest()


def _warn(msg: str) -> None:
    print(f"blonde-studio: warning: {msg}", file=sys.stderr)


class AnnotationCache:
    """A key -> JSON record store.  `get_many` returns only valid records.

    The same file holds other tables of per-segment results (e.g. sacrebleu
    statistics, `table="segstats"`), each with its own validator."""

    def __init__(self, directory: str | os.PathLike | None = None, table: str = "ann", validate=None,
                 max_bytes: int | None = None):
        self.dir = Path(directory) if directory is not None else default_cache_dir()
        self.path = self.dir / "annotations.sqlite3"
        self._local = threading.local()  # one connection per thread
        self.disabled = False
        if not table.isidentifier():
            raise ValueError("bad table name")
        self.table = table
        self.validate = validate or _decode
        self.max_bytes = max_bytes  # None: unbounded; else the oldest records go first past this size
        self._writes = 0

    # -- connection management -------------------------------------------
    def _open(self) -> sqlite3.Connection | None:
        if self.disabled:
            return None
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
        for attempt in range(2):
            try:
                self.dir.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
                _wal(conn)
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute(f"CREATE TABLE IF NOT EXISTS {self.table} (k BLOB PRIMARY KEY, v BLOB NOT NULL)")
                conn.execute(f"SELECT count(*) FROM (SELECT k FROM {self.table} LIMIT 1)").fetchone()
                self._local.conn = conn
                return conn
            except sqlite3.DatabaseError as exc:
                if attempt == 0 and _looks_corrupt(exc):
                    _warn(f"annotation cache {self.path} is corrupt ({exc}); rebuilding it")
                    self._move_aside()
                    continue
                _warn(f"annotation cache {self.path} unusable ({exc}); continuing without it")
                self.disabled = True
                return None
            except OSError as exc:
                _warn(f"annotation cache directory {self.dir} unusable ({exc}); continuing without it")
                self.disabled = True
                return None
        return None

    def _move_aside(self) -> None:
        stamp = f"{int(time.time())}.{os.getpid()}"
        for suffix in ("", "-wal", "-shm"):
            p = Path(str(self.path) + suffix)
            if p.exists():
                try:
                    p.replace(Path(str(p) + f".corrupt-{stamp}") if suffix == "" else p.with_name(p.name + ".old"))
                    if suffix:
                        Path(str(p.with_name(p.name + ".old"))).unlink(missing_ok=True)
                except OSError:
                    pass

    def close(self) -> None:
        """Close this thread's connection (others close with their threads)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            try:
                conn.close()
            except sqlite3.Error:
                pass
            self._local.conn = None

    # -- reads and writes ---------------------------------------------------
    def get_many(self, keys: list[bytes]) -> dict[bytes, dict]:
        conn = self._open()
        if conn is None or not keys:
            return {}
        out: dict[bytes, dict] = {}
        try:
            for i in range(0, len(keys), 900):
                chunk = keys[i:i + 900]
                q = f"SELECT k, v FROM {self.table} WHERE k IN (%s)" % ",".join("?" * len(chunk))
                for k, v in conn.execute(q, chunk):
                    rec = self.validate(v)
                    if rec is not None:
                        out[bytes(k)] = rec
        except sqlite3.DatabaseError as exc:
            if _looks_corrupt(exc):
                _warn(f"annotation cache {self.path} is corrupt ({exc}); rebuilding it")
                self.close()
                self._move_aside()
            else:
                _warn(f"annotation cache read failed ({exc}); annotating again")
            return out
        return out

    def put_many(self, items: Iterable[tuple[bytes, dict]]) -> None:
        conn = self._open()
        if conn is None:
            return
        rows = [(k, json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode("utf-8")) for k, v in items]
        if not rows:
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(f"INSERT OR REPLACE INTO {self.table} (k, v) VALUES (?, ?)", rows)
            conn.execute("COMMIT")
            self._writes += len(rows)
            if self.max_bytes is not None and self._writes >= 2000:
                self._writes = 0
                self.trim()
        except sqlite3.Error as exc:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            _warn(f"annotation cache write failed ({exc}); results are not cached")


    def delete_many(self, keys: list[bytes]) -> int:
        """Remove these keys (the dashboard's "Clear loaded data"); returns how many were there."""
        conn = self._open()
        if conn is None or not keys:
            return 0
        n = 0
        try:
            conn.execute("BEGIN IMMEDIATE")
            for i in range(0, len(keys), 900):
                chunk = keys[i:i + 900]
                cur = conn.execute(f"DELETE FROM {self.table} WHERE k IN (%s)" % ",".join("?" * len(chunk)), chunk)
                n += max(cur.rowcount, 0)
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            _warn(f"annotation cache delete failed ({exc})")
        return n

    def trim(self) -> int:
        """Past max_bytes of records, delete the oldest written (a quarter of them at a time)."""
        conn = self._open()
        if conn is None or self.max_bytes is None:
            return 0
        gone = 0
        try:
            while True:
                n, size = conn.execute(f"SELECT count(*), coalesce(sum(length(v)) + 40 * count(*), 0) "
                                       f"FROM {self.table}").fetchone()
                if size <= self.max_bytes or n == 0:
                    return gone
                k = max(1, n // 4)
                conn.execute(f"DELETE FROM {self.table} WHERE rowid IN "
                             f"(SELECT rowid FROM {self.table} ORDER BY rowid LIMIT ?)", (k,))
                gone += k
        except sqlite3.Error as exc:
            _warn(f"annotation cache trim failed ({exc})")
            return gone

    def count(self) -> int:
        conn = self._open()
        if conn is None:
            return 0
        try:
            return int(conn.execute(f"SELECT count(*) FROM {self.table}").fetchone()[0])
        except sqlite3.Error:
            return 0


def _wal(conn: sqlite3.Connection, patience: float = BUSY_SECONDS) -> None:
    """Put the file in WAL mode (it stays so).  The switch needs a lock SQLite does not
    wait for: while another connection writes to a file not yet in WAL mode - another
    thread or process opening the new cache at the same moment - it fails at once with
    "database is locked" (seen with eight sessions starting on an empty cache; the
    cache then turned itself off).  So: retry until the other is done."""
    end = time.monotonic() + patience
    while True:
        try:
            if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc).lower() or time.monotonic() > end:
                raise
            time.sleep(0.005)


def _looks_corrupt(exc: Exception) -> bool:
    msg = str(exc).lower()
    return any(s in msg for s in ("not a database", "malformed", "corrupt", "disk image", "file is encrypted"))


def _decode(v) -> dict | None:
    try:
        rec = json.loads(bytes(v).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(rec, dict):
        return None
    w, i, t, e = rec.get("w"), rec.get("i"), rec.get("t"), rec.get("e")
    if not (isinstance(w, list) and isinstance(i, list) and isinstance(t, list) and isinstance(e, list)):
        return None
    if not (len(w) == len(i) == len(t)):
        return None
    return rec


def decode_numbers(v) -> list | None:
    """Validator for tables of per-segment statistics (a JSON list of numbers)."""
    try:
        rec = json.loads(bytes(v).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(rec, list) or not all(isinstance(x, (int, float)) for x in rec):
        return None
    return rec
