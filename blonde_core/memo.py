"""A thread-safe, size-bounded LRU memo with single flight.

Used by `study.py` for everything the dashboard computes: a value is stored
under a key that names all it depends on (the study's content key plus the
settings), so two users see the same value only when they loaded the same
content and chose the same settings.  Two threads asking for the same key
at once compute it once (the second waits for exactly that work, never for
anything else); different keys never wait for each other.  When the owner
of a computation is interrupted (a Streamlit session that left raises a
control-flow BaseException), a waiter takes the work over.
"""
from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from typing import Callable


def approx_size(obj, _depth: int = 0) -> int:
    """A rough size in bytes (numpy arrays by nbytes, containers walked a few levels)."""
    np = sys.modules.get("numpy")  # no array can exist before numpy is loaded: importing the memo loads nothing
    if np is not None and isinstance(obj, np.ndarray):
        return int(obj.nbytes) + 112
    if _depth > 4:
        return 64
    if isinstance(obj, dict):
        return sys.getsizeof(obj) + sum(approx_size(k, _depth + 1) + approx_size(v, _depth + 1)
                                        for k, v in obj.items())
    if isinstance(obj, (list, tuple, set, frozenset)):
        items = list(obj)
        if len(items) > 200:  # sample long lists
            step = len(items) // 200
            return sys.getsizeof(obj) + step * sum(approx_size(x, _depth + 1) for x in items[::step])
        return sys.getsizeof(obj) + sum(approx_size(x, _depth + 1) for x in items)
    size_fn = getattr(obj, "approx_bytes", None)
    if callable(size_fn):
        return int(size_fn())
    if hasattr(obj, "__dict__") and not isinstance(obj, type):
        return sys.getsizeof(obj) + approx_size(vars(obj), _depth + 1)
    return sys.getsizeof(obj)


class _Flight:
    def __init__(self):
        self.done = threading.Event()
        self.value = None
        self.error: BaseException | None = None


class Memo:
    """key -> value, least recently used first out, bounded by entries and bytes: the one LRU of the
    project (the engine's results, the annotator's sentences, the server's reload store).
    max_entries / max_bytes None: no bound of that kind."""

    def __init__(self, max_entries: int | None = 256, max_bytes: int | None = 512 * 2 ** 20, name: str = "memo"):
        max_entries = float("inf") if max_entries is None else max_entries
        max_bytes = float("inf") if max_bytes is None else max_bytes
        self.max_entries, self.max_bytes, self.name = max_entries, max_bytes, name
        self._data: OrderedDict = OrderedDict()  # key -> (value, size)
        self._flights: dict = {}
        self._lock = threading.Lock()
        self.bytes = 0
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key) -> bool:
        with self._lock:
            return key in self._data

    def peek(self, key, default=None):
        with self._lock:
            hit = self._data.get(key)
            if hit is None:
                return default
            self._data.move_to_end(key)
            return hit[0]

    def put(self, key, value, size: int | None = None) -> None:
        size = approx_size(value) if size is None else size
        with self._lock:
            self._store(key, value, size)

    def _store(self, key, value, size: int) -> None:
        old = self._data.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        if size > self.max_bytes:  # larger than the whole memo: computed, returned, not kept
            return
        self._data[key] = (value, size)
        self.bytes += size
        while self._data and (len(self._data) > self.max_entries or self.bytes > self.max_bytes):
            _, (_, s) = self._data.popitem(last=False)
            self.bytes -= s

    def get(self, key, compute: Callable[[], object]):
        """The value under key, computing it (once, whoever asks) when missing."""
        while True:
            with self._lock:
                hit = self._data.get(key)
                if hit is not None:
                    self._data.move_to_end(key)
                    self.hits += 1
                    return hit[0]
                flight = self._flights.get(key)
                owner = flight is None
                if owner:
                    flight = self._flights[key] = _Flight()
                    self.misses += 1
            if not owner:
                flight.done.wait()
                if flight.error is None:
                    return flight.value
                if isinstance(flight.error, Exception):
                    raise flight.error
                continue  # the owner was interrupted (its session left): take the work over
            try:
                value = compute()
            except BaseException as exc:
                flight.error = exc
                with self._lock:
                    self._flights.pop(key, None)
                flight.done.set()
                raise
            size = approx_size(value)
            with self._lock:
                self._store(key, value, size)
                self._flights.pop(key, None)
            flight.value = value
            flight.done.set()
            return value

    def drop(self, predicate: Callable[[object], bool]) -> int:
        """Remove every entry whose key satisfies predicate; returns how many."""
        return self.drop_where(lambda k, v: predicate(k))

    def drop_where(self, predicate: Callable[[object, object], bool]) -> int:
        """Remove every entry whose (key, value) satisfies predicate; returns how many."""
        with self._lock:
            gone = [k for k, (v, _) in self._data.items() if predicate(k, v)]
            for k in gone:
                self.bytes -= self._data.pop(k)[1]
        return len(gone)

    def values(self) -> list:
        """A snapshot of the values, least recently used first (use does not change)."""
        with self._lock:
            return [v for v, _ in self._data.values()]

    def discard(self, keys) -> None:
        """Remove these keys (those present)."""
        with self._lock:
            for k in keys:
                old = self._data.pop(k, None)
                if old is not None:
                    self.bytes -= old[1]

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.bytes = 0

    def info(self) -> dict:
        with self._lock:
            return {"name": self.name, "entries": len(self._data), "bytes": self.bytes,
                    "max_entries": self.max_entries, "max_bytes": self.max_bytes, "hits": self.hits,
                    "misses": self.misses}
