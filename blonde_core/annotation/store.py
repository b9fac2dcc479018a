"""Persistent on-disk annotation cache (SQLite).

Keyed by (spaCy pipeline name and version, spaCy version, lowercase flag,
sentence text).  Safe for several processes at once (SQLite locking, WAL
journal) and for several threads of one process (each thread opens its own
connection: the dashboard's server runs every script run in its own thread);
a corrupt or truncated file is detected, deleted (it holds users' text) and
rebuilt; any other cache failure degrades to "no cache" with a warning, never a crash.

A cap (`max_bytes`, the server's BLONDE_CACHE_MAX_MB, the command line's too) bounds the
whole file, every table together (annotations and sacrebleu's statistics): after each
write the file's pages in use and its write-ahead log are measured (SQLite keeps the
counts: no scan), and past the cap the oldest rows go, a quarter of the largest table at
a time, and the freed pages are given back to the file system (incremental vacuum, a
truncating checkpoint). So the file exceeds its cap by at most the batch just written,
whatever happened before a restart.
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
                 max_bytes: int | None = None, raw: bool = False):
        """raw: values are bytes, stored as they are (a binary table: metric.features.FeatureTable.to_bytes);
        else JSON."""
        self.dir = Path(directory) if directory is not None else default_cache_dir()
        self.path = self.dir / "annotations.sqlite3"
        self._local = threading.local()  # one connection per thread
        self.disabled = False
        if not table.isidentifier():
            raise ValueError("bad table name")
        self.table = table
        self.validate = validate or _decode
        self.max_bytes = max_bytes  # None: unbounded; else the oldest records go first past this size
        self.raw = raw

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
                if self.max_bytes is not None:
                    _reclaimable(conn)
                _wal(conn)
                conn.execute("PRAGMA synchronous=NORMAL")
                if self.max_bytes is not None:  # the log, too, stays small next to the cap
                    limit = max(64 * 1024, self.max_bytes // 4)
                    conn.execute(f"PRAGMA journal_size_limit={limit}")
                    conn.execute(f"PRAGMA wal_autocheckpoint={max(16, limit // 4096)}")
                conn.execute(f"CREATE TABLE IF NOT EXISTS {self.table} (k BLOB PRIMARY KEY, v BLOB NOT NULL)")
                conn.execute(f"SELECT count(*) FROM (SELECT k FROM {self.table} LIMIT 1)").fetchone()
                self._local.conn = conn
                return conn
            except sqlite3.DatabaseError as exc:
                if attempt == 0 and _looks_corrupt(exc):
                    _warn(f"annotation cache {self.path} is corrupt ({exc}); rebuilding it")
                    self._delete_file()
                    continue
                _warn(f"annotation cache {self.path} unusable ({exc}); continuing without it")
                self.disabled = True
                return None
            except OSError as exc:
                _warn(f"annotation cache directory {self.dir} unusable ({exc}); continuing without it")
                self.disabled = True
                return None
        return None

    def writable(self) -> bool:
        """Can this cache store anything (not disabled, its folder and file writable)?"""
        if self.disabled:
            return False
        d = self.dir
        while not d.exists() and d != d.parent:  # a folder still to be made: its nearest existing parent decides
            d = d.parent
        if not d.is_dir() or not os.access(d, os.W_OK):  # a file where a folder must be: nothing can go there
            return False
        return not self.path.exists() or os.access(self.path, os.W_OK)

    def _delete_file(self) -> None:
        """Delete a corrupt file and its log (users' text: never kept aside)."""
        for suffix in ("", "-wal", "-shm"):
            try:
                Path(str(self.path) + suffix).unlink(missing_ok=True)
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
                rows = conn.execute(q, chunk).fetchall()
                many = getattr(self.validate, "many", None)  # a validator that decodes a whole chunk at once
                recs = many([v for _, v in rows]) if many else [self.validate(v) for _, v in rows]
                for (k, _), rec in zip(rows, recs):
                    if rec is not None:
                        out[bytes(k)] = rec
        except sqlite3.DatabaseError as exc:
            if _looks_corrupt(exc):
                _warn(f"annotation cache {self.path} is corrupt ({exc}); rebuilding it")
                self.close()
                self._delete_file()
            else:
                _warn(f"annotation cache read failed ({exc}); annotating again")
            return out
        return out

    def put_many(self, items: Iterable[tuple[bytes, dict]]) -> None:
        conn = self._open()
        if conn is None:
            return
        rows = [(k, bytes(v) if self.raw else json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
                for k, v in items]
        if not rows:
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(f"INSERT OR REPLACE INTO {self.table} (k, v) VALUES (?, ?)", rows)
            conn.execute("COMMIT")
            if self.max_bytes is not None and self.file_bytes(conn) > self.max_bytes:
                self.trim()
        except sqlite3.Error as exc:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            _warn(f"annotation cache write failed ({exc}); results are not cached")


    def delete_many(self, keys: list[bytes]) -> int:
        """Remove these keys (the dashboard's "Clear loaded data"); returns how many were there."""
        chunks = [keys[i:i + 900] for i in range(0, len(keys), 900)]
        return self._delete([(f"DELETE FROM {self.table} WHERE k IN (%s)" % ",".join("?" * len(c)), c)
                             for c in chunks])

    def delete_prefixed(self, prefixes: list[bytes]) -> int:
        """Remove every key that begins with one of these byte strings; returns how many went."""
        return self._delete([(f"DELETE FROM {self.table} WHERE substr(k, 1, ?) = ?", (len(p), p))
                             for p in prefixes])

    def _delete(self, statements: list) -> int:
        """Run these DELETE statements in one transaction; how many rows went (0 when the cache is off)."""
        conn = self._open()
        if conn is None or not statements:
            return 0
        n = 0
        try:
            conn.execute("BEGIN IMMEDIATE")
            for sql, args in statements:
                n += max(conn.execute(sql, args).rowcount, 0)
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            _warn(f"annotation cache delete failed ({exc})")
        return n

    def file_bytes(self, conn: sqlite3.Connection | None = None) -> int:
        """The file's pages in use plus its write-ahead log, in bytes (no scan)."""
        conn = conn or self._open()
        if conn is None:
            return 0
        size = self._used_bytes(conn)
        try:
            size += os.path.getsize(str(self.path) + "-wal")
        except OSError:
            pass
        return size

    def trim(self) -> int:
        """Past max_bytes, delete the oldest rows (a quarter of the largest table at a time, every
        table of the file counted) and give the space back; returns how many rows went."""
        conn = self._open()
        if conn is None or self.max_bytes is None:
            return 0
        gone = 0
        try:
            self._checkpoint(conn)
            while self._used_bytes(conn) > self.max_bytes:
                tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
                counts = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
                counts = {t: n for t, n in counts.items() if n}
                if not counts:
                    break
                t = max(counts, key=lambda name: (self._table_bytes(conn, name), name))
                k = max(1, counts[t] // 4)
                conn.execute(f"DELETE FROM {t} WHERE rowid IN (SELECT rowid FROM {t} ORDER BY rowid LIMIT ?)", (k,))
                gone += k
            conn.executescript("PRAGMA incremental_vacuum;")  # sqlite3_exec steps it to the end (execute frees one page)
            self._checkpoint(conn)
        except sqlite3.Error as exc:
            _warn(f"annotation cache trim failed ({exc})")
        return gone

    @staticmethod
    def _used_bytes(conn) -> int:
        pages = conn.execute("PRAGMA page_count").fetchone()[0] - conn.execute("PRAGMA freelist_count").fetchone()[0]
        return pages * conn.execute("PRAGMA page_size").fetchone()[0]

    @staticmethod
    def _table_bytes(conn, table: str) -> int:
        try:  # the dbstat table, where SQLite has it
            return int(conn.execute("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name=?", (table,)).fetchone()[0])
        except sqlite3.Error:
            return int(conn.execute(f"SELECT coalesce(sum(length(v)) + 40 * count(*), 0) FROM {table}").fetchone()[0])

    @staticmethod
    def _checkpoint(conn) -> None:
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error:
            pass

    def count(self) -> int:
        conn = self._open()
        if conn is None:
            return 0
        try:
            return int(conn.execute(f"SELECT count(*) FROM {self.table}").fetchone()[0])
        except sqlite3.Error:
            return 0


def _reclaimable(conn: sqlite3.Connection) -> None:
    """A capped file gives freed pages back (incremental auto-vacuum). The mode is set when the
    file is made; a file made without it is converted once (VACUUM: a copy of its size)."""
    try:
        if conn.execute("PRAGMA auto_vacuum").fetchone()[0] != 2:
            conn.execute("PRAGMA auto_vacuum=INCREMENTAL")
            if conn.execute("PRAGMA page_count").fetchone()[0] > 1:
                conn.execute("VACUUM")
    except sqlite3.OperationalError:  # another connection holds the file: it converts it, or a later start does
        pass


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


def _json_row(v):
    """A row as its JSON value (None when it is not JSON): what every validator below reads first."""
    try:
        return json.loads(bytes(v).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None


def decode_numbers(v) -> list | None:
    """Validator for tables of per-segment statistics (a JSON list of numbers)."""
    rec = _json_row(v)
    if not isinstance(rec, list) or not all(isinstance(x, (int, float)) for x in rec):
        return None
    return rec


def decode_strings(v) -> list | None:
    """Validator for tables of texts (a JSON list of strings: re-segmented documents)."""
    rec = _json_row(v)
    if not isinstance(rec, list) or not all(isinstance(x, str) for x in rec):
        return None
    return rec


def decode_fact(v) -> dict | None:
    """Validator for the table of a study's language guesses: {"v": the guess} (Study.language_keys)."""
    rec = _json_row(v)
    return rec if isinstance(rec, dict) and "v" in rec else None


def _decode_numbers_many(vs: list) -> list:
    """decode_numbers of many rows with one JSON parse (a warm Overview reads tens of thousands of rows: one
    parse per row was most of its time); a chunk that does not parse as a whole is read row by row, so one
    bad row costs only itself."""
    try:
        recs = json.loads(b"[" + b",".join(bytes(v) for v in vs) + b"]")
    except (ValueError, UnicodeDecodeError):
        return [decode_numbers(v) for v in vs]
    if len(recs) != len(vs):  # a row that was two values (e.g. '1],[2'): row by row
        return [decode_numbers(v) for v in vs]
    return [r if isinstance(r, list) and all(isinstance(x, (int, float)) for x in r)
            else None for r in recs]


decode_numbers.many = _decode_numbers_many
