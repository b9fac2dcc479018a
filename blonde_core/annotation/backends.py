"""Where spaCy runs: the annotation backends behind one small interface.

    backend.pipeline_id                 what made the records (part of every cache key)
    backend.run(texts, on_batch, on_late)
        annotate texts batch by batch, calling on_batch(batch, records) as each batch
        finishes (in any order); a backend whose batches may outlive a caller that
        stopped (the server's shared workers) hands each such batch to
        on_late(batch, future) instead of dropping it.

`Inline` runs spaCy in the calling process, `Forked` in processes forked for one
run (the command line: they inherit the loaded pipeline), `Server` in the
dashboard server's long-lived worker processes (workers.py).  A cluster backend
is one more class with this interface; the Annotator (annotator.py) does the rest:
the memo, the disk store, each distinct text once.
"""
from __future__ import annotations

import marshal
import os
import sys
import threading

from blonde_core.lang.base import LanguagePack

from .analysers import load_analyser
from .pipeline import pipeline_id

CHUNK = 128  # texts per batch at most
CHUNK_CHARS = 32_000  # characters per batch at most (a longer text alone): no batch holds a worker for long
SMALL = 64  # jobs up to this many texts: in the calling process (CLI), first in the workers' queue (server)
ATTAINED_SCALE = 1e6  # server: a batch's priority is 1 + texts its run sent before / this (least attained first)
SEGSTATS_PRIORITY = 1 + 2000 / ATTAINED_SCALE  # sacrebleu's chunks: as a run that sent 2,000 texts


def batches_of(texts: list[str]) -> list[list[str]]:
    """Consecutive batches of at most CHUNK texts and CHUNK_CHARS characters (WMT22 zh-en's
    sentences, 150 characters on average, make batches of 128; a batch of very long lines
    is cut short, so that a batch - what another user's work may wait for - stays short)."""
    out: list[list[str]] = []
    cur: list[str] = []
    chars = 0
    for t in texts:
        if cur and (len(cur) >= CHUNK or chars + len(t) > CHUNK_CHARS):
            out.append(cur)
            cur, chars = [], 0
        cur.append(t)
        chars += len(t)
    if cur:
        out.append(cur)
    return out


class Backend:
    """The interface (and what every spaCy backend shares)."""

    def __init__(self, pack: LanguagePack, n_process: int = 1):
        self.pack = pack
        self.n_process = max(1, int(n_process))
        self.pipeline_id = pipeline_id(pack)
        self.loaded_pipeline = False  # did this backend ever run spaCy (tests: a warm run never does)

    def run(self, texts: list[str], on_batch, on_late=None) -> None:
        raise NotImplementedError


class Inline(Backend):
    """spaCy in the calling process."""

    def run(self, texts, on_batch, on_late=None) -> None:
        self.loaded_pipeline = True
        nlp = load_analyser(self.pack)
        for batch in batches_of(texts):
            on_batch(batch, nlp.records(batch))


_FORKED_NLP = None  # the pipeline a forked worker inherits


def _forked_work(batch: list[str]) -> bytes | list[dict]:
    """A batch's records, marshalled: records are plain data (strings, numbers, lists, dicts), and marshal
    writes and reads them in about half of pickle's time (MeCab's 27 MB of Japanese records: 0.75 s of CPU
    instead of 1.4 s).  The forked child runs the parent's own interpreter, so the format is the same.  A
    record holding anything else (a subclass of str) goes back as it is, pickled."""
    recs = _FORKED_NLP.records(batch)
    try:
        return marshal.dumps(recs)
    except ValueError:
        return recs


class Forked(Inline):
    """Processes forked for one run, inheriting the loaded pipeline (the command line;
    small jobs, one process or no fork: inline)."""

    def run(self, texts, on_batch, on_late=None) -> None:
        global _FORKED_NLP
        batches = batches_of(texts)
        n_proc = min(self.n_process, len(batches))
        if len(texts) <= SMALL or n_proc <= 1 or sys.platform == "win32":
            return super().run(texts, on_batch, on_late)
        import multiprocessing as mp

        self.loaded_pipeline = True
        _FORKED_NLP = load_analyser(self.pack)
        with mp.get_context("fork").Pool(n_proc) as pool:
            for batch, recs in zip(batches, pool.imap(_forked_work, batches)):
                on_batch(batch, marshal.loads(recs) if isinstance(recs, bytes) else recs)


_SERVER_POOLS: dict = {}
_SERVER_POOLS_LOCK = threading.Lock()


def server_pool(lang: str, n_process: int):
    """The server's shared annotation worker processes for a language (started once;
    plain child processes, see workers.py: a threaded server is never forked)."""
    from .workers import WorkerPool

    with _SERVER_POOLS_LOCK:
        pool = _SERVER_POOLS.get(lang)
        if pool is None:
            pool = _SERVER_POOLS[lang] = WorkerPool(lang, n_process)
        return pool


class Server(Backend):
    """The server's long-lived worker processes, shared by every session's thread (the
    server never runs spaCy in its own threads)."""

    def run(self, texts, on_batch, on_late=None) -> None:
        """At most n_process batches of this caller in the shared pool at a time, so
        that several sessions' batches interleave; a caller that stops (its session
        left, loaded other data or cleared it, or its user opened another page) submits
        nothing more, its batches still queued are cancelled, and the batch a worker is
        running (at most CHUNK_CHARS characters) is handed to on_late, so that it is
        remembered and cached when it ends - unless its texts were forgotten meanwhile
        (Annotator.forget) - and the next caller waits for those texts instead of
        annotating them a second time."""
        from concurrent.futures import FIRST_COMPLETED, wait

        self.loaded_pipeline = True
        small = len(texts) <= SMALL
        pool = server_pool(self.pack.name, self.n_process)
        pending: dict = {}
        queue = batches_of(texts)
        attained = 0  # texts this run sent: a run that sent fewer goes first (another user's first
        try:          # batches pass a long upload's later ones instead of waiting behind them)
            while queue or pending:
                while queue and len(pending) < self.n_process:
                    b = queue.pop(0)
                    priority = 0 if small else 1 + min(attained, ATTAINED_SCALE - 1) / ATTAINED_SCALE
                    attained += len(b)
                    pending[pool.submit(b, priority)] = b
                done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                for f in done:
                    b = pending.pop(f)
                    on_batch(b, f.result())
        finally:
            for f, b in pending.items():  # left early: what no worker started is cancelled; what one
                if not f.cancel() and on_late is not None:  # runs (one batch each) is kept when it ends
                    on_late(b, f)


BACKENDS = {"inline": Inline, "fork": Forked, "server": Server}


def make_backend(kind, pack: LanguagePack, n_process: int = 1) -> Backend:
    """A backend by name (inline, fork, server), or made by a callable (pack, n_process)."""
    if callable(kind):
        return kind(pack, n_process)
    return BACKENDS[kind](pack, n_process)


def default_n_process() -> int:
    return max(1, min(2, os.cpu_count() or 1))
