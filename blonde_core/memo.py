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
import types
from collections import OrderedDict
from typing import Callable


_ATOMS = (str, bytes, bytearray, int, float, complex, bool, type(None), range, slice)


def approx_size(obj) -> int:
    """The bytes a value holds: every object reachable from it counted once (containers,
    strings, numbers, objects' attributes and slots; numpy arrays with their buffers, a view
    through the array it views). Not counted: classes, modules, functions, and the
    attributes a class names in `_memo_shared` (what others own and keep anyway: a Result's
    corpus belongs to its Study, a feature table's annotation records to the annotator).
    tests/test_server.py compares it with what tracemalloc sees a computed result keep."""
    np = sys.modules.get("numpy")  # no array can exist before numpy is loaded: importing the memo loads nothing
    ndarray = np.ndarray if np is not None else ()
    seen: set[int] = set()
    stack = [obj]
    total = 0
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, _ATOMS):
            total += sys.getsizeof(o)
            continue
        if isinstance(o, (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
            continue
        if ndarray and isinstance(o, ndarray):
            total += sys.getsizeof(o)  # with the buffer when the array owns it
            if o.base is not None:
                stack.append(o.base)
            if o.dtype.hasobject:
                stack.extend(o.ravel().tolist())
            continue
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (list, tuple, set, frozenset)):
            stack.extend(o)
        else:
            shared = getattr(type(o), "_memo_shared", ())
            d = getattr(o, "__dict__", None)
            if isinstance(d, dict):
                total += sys.getsizeof(d)
                seen.add(id(d))
                stack.extend(v for k, v in d.items() if k not in shared)
            for cls in type(o).__mro__:
                for slot in getattr(cls, "__slots__", ()):
                    if slot not in shared and slot not in ("__dict__", "__weakref__") and hasattr(o, slot):
                        stack.append(getattr(o, slot))
    return total


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

    def _measure(self, value) -> int:
        """A value's bytes, measured only when a byte cap is to be kept (an unbounded memo, as a command's
        one run uses, counts entries and never walks its values)."""
        return approx_size(value) if self.max_bytes != float("inf") else 0

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
        size = self._measure(value) if size is None else size
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
            size = self._measure(value)
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
