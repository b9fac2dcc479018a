"""Annotation: run the spaCy pipeline once per distinct sentence, with a disk cache.

The records are pipeline.py's (versioned schema); where spaCy runs is decided here:
in this process, in forked processes (command line) or in the server's worker
processes (workers.py).  spaCy is imported only when some sentence is not in the cache.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys
import threading
from collections import OrderedDict
from typing import Callable, Sequence

from .pipeline import doc_to_record, load_pipeline, pipeline_id
from .store import AnnotationCache, cache_key
from blonde_core.errors import InputError
from blonde_core.lang.base import LanguagePack

ProgressFn = Callable[[int, int], None]

# --- worker processes ------------------------------------------------------------
# CLI: a fork pool per run (the parent's loaded pipeline is inherited).
# Server: long-lived worker processes shared by every session's thread (worker.py;
# forking a multi-threaded server is unsafe); each worker loads the pipeline once.
_WORKER_NLP = None


def _work(batch: list[str]) -> list[dict]:
    return [doc_to_record(d) for d in _WORKER_NLP.pipe(batch, batch_size=64)]


_SERVER_POOLS: dict = {}
_SERVER_POOLS_LOCK = threading.Lock()


def server_pool(lang: str, n_process: int):
    """The server's shared annotation worker processes for a language (started once;
    plain child processes, see worker.py: a threaded server is never forked)."""
    from .workers import WorkerPool

    with _SERVER_POOLS_LOCK:
        pool = _SERVER_POOLS.get(lang)
        if pool is None:
            pool = _SERVER_POOLS[lang] = WorkerPool(lang, n_process)
        return pool


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
    nothing kept between calls).  `pool="fork"` (CLI) forks worker processes
    per run; `pool="server"` uses the server's long-lived worker processes.
    """

    SMALL = 64  # jobs up to this many texts: in the calling process (CLI), first in the workers' queue (server)

    def __init__(self, pack: LanguagePack, lowercase: bool, cache: AnnotationCache | None = None,
                 n_process: int = 1, progress: ProgressFn | None = None, memo_limit: int | None = None,
                 pool: str = "fork"):
        self.pack = pack
        self.lowercase = lowercase
        self.cache = cache
        self.n_process = max(1, int(n_process))
        self.progress = progress
        self.pipeline_id = pipeline_id(pack)
        self.loaded_pipeline = False
        self.memo_limit = memo_limit
        self.pool = pool
        self.stats = {"distinct": 0, "cached": 0, "annotated": 0}
        self._memo: OrderedDict[str, dict] = OrderedDict()
        self._inflight: dict[str, threading.Event] = {}
        self._lock = threading.Lock()

    def prepare(self, text: str) -> str:
        return text.lower() if self.lowercase else text

    # -- memo ------------------------------------------------------------------
    def _remember(self, items) -> None:
        if self.memo_limit == 0:
            return
        with self._lock:
            for t, r in items:
                self._memo[t] = r
                self._memo.move_to_end(t)
            if self.memo_limit is not None:
                while len(self._memo) > self.memo_limit:
                    self._memo.popitem(last=False)

    def known(self, texts) -> int:
        """How many of these prepared texts are in memory now."""
        with self._lock:
            return sum(1 for t in texts if t in self._memo)

    def forget(self, texts, timeout: float = 30.0) -> None:
        """Drop these prepared texts from memory and from the disk cache. Texts being
        annotated right now (a background annotation, a page that stopped) are waited
        for first (up to `timeout` seconds), so that they do not come back into the
        memo and the disk cache after they were dropped."""
        import time

        texts = list(texts)
        end = time.monotonic() + timeout
        while True:
            with self._lock:
                busy = [self._inflight[t] for t in texts if t in self._inflight]
            if not busy or time.monotonic() >= end:
                break
            for ev in busy:
                ev.wait(max(0.0, end - time.monotonic()))
        with self._lock:
            for t in texts:
                self._memo.pop(t, None)
        if self.cache is not None:
            self.cache.delete_many([cache_key(self.pipeline_id, self.lowercase, t) for t in texts])

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
                    r = self._memo.get(t)
                    if r is not None:
                        self._memo.move_to_end(t)
                        out[t] = r
                    elif t in self._inflight:
                        theirs[t] = self._inflight[t]
                    else:
                        self._inflight[t] = threading.Event()
                        mine.append(t)
            if mine:
                self._annotate_mine(sorted(mine), out, report, total)
            for t in sorted(theirs):  # texts another caller is annotating right now, in its order
                theirs[t].wait()
                with self._lock:
                    r = self._memo.get(t)
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
                self._remember(pairs)
                if self.cache is not None:
                    self.cache.put_many((keys[t], r) for t, r in pairs)
                out.update(pairs)
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
        """Annotate texts batch by batch (on_batch per finished batch); texts a stopped
        caller left in the server's workers are added to `handed`."""
        global _WORKER_NLP
        self.loaded_pipeline = True
        chunk = 128
        batches = [texts[i:i + chunk] for i in range(0, len(texts), chunk)]
        n_proc = min(self.n_process, len(batches))
        if self.pool == "server":  # the server never runs spaCy in its own threads
            self._run_server_pool(batches, on_batch, handed, priority=0 if len(texts) <= self.SMALL else 1)
            return
        if len(texts) <= self.SMALL or n_proc <= 1 or sys.platform == "win32":
            nlp = load_pipeline(self.pack)
            for batch in batches:
                on_batch(batch, [doc_to_record(d) for d in nlp.pipe(batch, batch_size=64)])
            return
        import multiprocessing as mp

        _WORKER_NLP = load_pipeline(self.pack)
        ctx = mp.get_context("fork")
        with ctx.Pool(n_proc) as pool:
            for batch, recs in zip(batches, pool.imap(_work, batches)):
                on_batch(batch, recs)

    def _run_server_pool(self, batches: list[list[str]], on_batch, handed: set, priority: int = 1) -> None:
        """At most n_process batches of this caller in the shared pool at a time, so
        that several sessions' batches interleave; a caller that stops (its session
        left, or its user opened another page) submits nothing more, and what it had
        submitted stays in flight: remembered and cached when the workers finish it,
        and only then released, so that the next caller (the page the user opened)
        waits for those texts instead of annotating them a second time."""
        from concurrent.futures import FIRST_COMPLETED, wait

        pool = server_pool(self.pack.name, self.n_process)
        pending: dict = {}
        queue = list(batches)
        try:
            while queue or pending:
                while queue and len(pending) < self.n_process:
                    b = queue.pop(0)
                    pending[pool.submit(b, priority)] = b
                done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                for f in done:
                    b = pending.pop(f)
                    on_batch(b, f.result())
        finally:
            for f, b in pending.items():  # left early: keep what the pool finishes anyway
                handed.update(b)
                f.add_done_callback(lambda fut, b=b: self._late(b, fut))

    def _late(self, batch: list[str], fut) -> None:
        try:
            if fut.cancelled() or fut.exception() is not None:
                return
            recs = fut.result()
            self._remember(zip(batch, recs))
            if self.cache is not None:
                self.cache.put_many((cache_key(self.pipeline_id, self.lowercase, t), r) for t, r in zip(batch, recs))
            with self._lock:
                self.stats["annotated"] += len(batch)
        finally:
            self._release(batch)  # waiting callers take the records from the memo, or claim what failed


def default_n_process() -> int:
    return max(1, min(2, os.cpu_count() or 1))
