"""Annotation: run the spaCy pipeline once per distinct sentence, with a disk cache.

The records are pipeline.py's (versioned schema); where spaCy runs is decided here:
in this process, in forked processes (command line) or in the server's worker
processes (workers.py).  spaCy is imported only when some sentence is not in the cache.
"""
from __future__ import annotations

import threading
from typing import Callable, Sequence

from blonde_core.memo import Memo

from .backends import default_n_process, make_backend
from .pipeline import prepare
from .store import AnnotationCache, cache_key
from blonde_core.lang.base import LanguagePack, as_pack

ProgressFn = Callable[[int, int], None]

def _throttled(fn: ProgressFn, every: float = 0.5) -> ProgressFn:
    """fn, called at most every `every` seconds (and always for the first and the final count)."""
    import time

    last = [None]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if last[0] is None or done >= total or now - last[0] >= every:
            last[0] = now
            fn(done, total)
    return report


ProgressStop = BaseException  # what a progress callback may raise to stop the work (e.g. a session left)


class Annotator:
    """Annotates texts, each distinct text once, with an optional disk cache.

    Safe to share between threads (the dashboard's sessions): a text being
    annotated for one caller is not annotated again for another (the second
    waits for that text only); records reach the memo and the disk cache batch
    by batch, so an interrupted run keeps what it finished.  The in-memory memo
    is an LRU of at most `memo_limit` sentences (None: unbounded, the CLI; 0:
    nothing kept between calls).  Where spaCy runs is the backend's business
    (backends.py): `pool` names one (fork: the command line's processes forked per
    run; server: the server's long-lived worker processes; inline) or is a callable
    (pack, n_process) -> backend, e.g. a cluster's.
    """

    def __init__(self, pack: LanguagePack, lowercase: bool, cache: AnnotationCache | None = None,
                 n_process: int = 1, progress: ProgressFn | None = None, memo_limit: int | None = None,
                 pool="fork"):
        self.pack = pack
        self.lowercase = lowercase
        self.cache = cache
        self.n_process = max(1, int(n_process))
        self.progress = progress
        self.backend = make_backend(pool, pack, self.n_process)
        self.pipeline_id = self.backend.pipeline_id
        self.memo_limit = memo_limit
        self.stats = {"distinct": 0, "cached": 0, "annotated": 0}
        self._memo = Memo(max_entries=memo_limit, max_bytes=None, name="sentences")  # text -> record
        self._inflight: dict[str, threading.Event] = {}
        self._forgotten: set[str] = set()  # texts cleared while a worker still held them: never kept
        self._lock = threading.Lock()

    def prepare(self, text: str) -> str:
        return prepare(text, self.lowercase)

    # -- memo ------------------------------------------------------------------
    def _remember(self, items) -> None:
        if self.memo_limit == 0:
            return
        for text, rec in items:
            self._memo.put(text, rec, size=0)

    def known(self, texts) -> int:
        """How many of these prepared texts are in memory now."""
        return sum(1 for t in texts if t in self._memo)

    def forget(self, texts, timeout: float = 30.0) -> None:
        """Drop these prepared texts from memory and from the disk cache. Texts being
        annotated right now (a background annotation, a page that stopped) are waited
        for first (up to `timeout` seconds); whatever of them comes back later is
        dropped, never remembered or cached (until a caller asks for the text again)."""
        import time

        texts = list(texts)
        with self._lock:
            self._forgotten.update(t for t in texts if t in self._inflight)
        end = time.monotonic() + timeout
        while True:
            with self._lock:
                busy = [self._inflight[t] for t in texts if t in self._inflight]
            if not busy or time.monotonic() >= end:
                break
            for ev in busy:
                ev.wait(max(0.0, end - time.monotonic()))
        self.drop_from_memo(texts)
        if self.cache is not None:
            self.cache.delete_many([cache_key(self.pipeline_id, self.lowercase, t) for t in texts])

    def count_cached(self, n: int) -> None:
        """n distinct texts served from the disk cache without their records (a cached feature table)."""
        with self._lock:
            self.stats["distinct"] = n
            self.stats["cached"] += n

    def drop_from_memo(self, texts) -> None:
        """Drop these prepared texts from memory only (the disk cache keeps them)."""
        self._memo.discard(list(texts))

    @property
    def loaded_pipeline(self) -> bool:
        """Did this annotator ever run spaCy (a fully cached run never does)."""
        return self.backend.loaded_pipeline

    def memo_size(self) -> int:
        return len(self._memo)

    # -- annotation ------------------------------------------------------------
    def annotate(self, texts: Sequence[str], progress: ProgressFn | None = None) -> dict[str, dict]:
        """Return {prepared text: record} for every text (prepared = as spaCy sees it)."""
        report = _throttled(progress or self.progress or (lambda done, tot: None))
        prepared = {self.prepare(t) for t in texts}
        total = len(prepared)
        out: dict[str, dict] = {}
        if self.memo_limit == 0:  # nothing kept between calls: every call annotates its own texts
            self._annotate_mine(sorted(prepared), out, report, total, shared=False)
        while len(out) < total:
            mine, theirs = [], {}
            with self._lock:
                for t in prepared:
                    if t in out:
                        continue
                    r = self._memo.peek(t)
                    if r is not None:
                        out[t] = r
                    elif t in self._inflight:
                        theirs[t] = self._inflight[t]
                    else:
                        self._inflight[t] = threading.Event()
                        self._forgotten.discard(t)  # asked for again: kept again
                        mine.append(t)
            if mine:
                self._annotate_mine(sorted(mine), out, report, total)
            for t in sorted(theirs):  # texts another caller is annotating right now, in its order
                theirs[t].wait()
                r = self._memo.peek(t)
                if r is not None:
                    out[t] = r
                    report(len(out), total)
            # a text still missing here was given up by a caller that stopped (its session
            # left) or already left the LRU memo: the next round claims it
        report(len(out), total)
        with self._lock:
            self.stats["distinct"] = total
        return out

    def _release(self, texts) -> None:
        with self._lock:
            for t in texts:
                ev = self._inflight.pop(t, None)
                if ev is not None:
                    ev.set()

    def _annotate_mine(self, todo: list[str], out: dict, report, total: int, shared: bool = True) -> None:
        handed: set = set()  # texts left in the workers by a caller that stopped: released when they finish
        try:
            keys = {t: cache_key(self.pipeline_id, self.lowercase, t) for t in todo}
            found = self.cache.get_many(list(keys.values())) if self.cache is not None else {}
            hits = [(t, found[keys[t]]) for t in todo if keys[t] in found]
            self._remember(hits)
            out.update(hits)
            if shared:
                self._release(t for t, _ in hits)
            with self._lock:
                self.stats["cached"] += len(hits)
            missing = [t for t in todo if keys[t] not in found]
            report(len(out), total)

            def on_batch(batch: list[str], recs: list[dict]) -> None:
                pairs = list(zip(batch, recs))
                out.update(pairs)
                if self._forgotten:  # cleared while this caller still ran: returned, never kept
                    with self._lock:
                        pairs = [(t, r) for t, r in pairs if t not in self._forgotten]
                self._remember(pairs)
                if self.cache is not None:
                    self.cache.put_many((keys[t], r) for t, r in pairs)
                if shared:
                    self._release(batch)
                with self._lock:
                    self.stats["annotated"] += len(batch)
                report(len(out), total)

            if missing:
                self._run(missing, on_batch, handed)
        finally:
            if shared:  # whatever was not finished and is not still in a worker: others may take it over
                self._release(t for t in todo if t not in handed)

    def _run(self, texts: list[str], on_batch, handed: set) -> None:
        """Annotate texts batch by batch through the backend (on_batch per finished batch);
        texts a stopped caller left running in the backend are added to `handed`."""
        def late(batch, fut):
            handed.update(batch)
            fut.add_done_callback(lambda f, b=batch: self._late(b, f))

        self.backend.run(texts, on_batch, late)

    def _late(self, batch: list[str], fut) -> None:
        try:
            if fut.cancelled() or fut.exception() is not None:
                return
            with self._lock:
                pairs = [(t, r) for t, r in zip(batch, fut.result()) if t not in self._forgotten]
                self._forgotten.difference_update(batch)
            self._remember(pairs)
            if self.cache is not None:
                self.cache.put_many((cache_key(self.pipeline_id, self.lowercase, t), r) for t, r in pairs)
            with self._lock:
                self.stats["annotated"] += len(batch)
        finally:
            self._release(batch)  # waiting callers take the records from the memo, or claim what failed


def build_annotator(lang: str | LanguagePack, lowercase: bool, cache: AnnotationCache | None = None, *,
                    n_process: int | None = None, progress: ProgressFn | None = None,
                    memo_limit: int | None = None, pool="fork") -> Annotator:
    """The one place an Annotator is made (Engine.annotator for the studies, BlonDe for a caller without one):
    for a pack, or a language's name, folder or file; n_process None: default_n_process() (up to 2)."""
    return Annotator(as_pack(lang), lowercase, cache, n_process if n_process is not None else default_n_process(),
                     progress, memo_limit=memo_limit, pool=pool)
