"""An Engine is what one process shares between the studies it answers for: annotators
(one per lowercase flag, language and persistence; thread-safe, each distinct sentence
annotated once even when two callers ask at the same time), the disk stores and a
size-bounded memo of computed values.  The command line makes one per run; the
dashboard's server makes one for all its sessions (studio/state.py) and hands it to
every Study it creates.
"""
from __future__ import annotations

import sys
import threading

from blonde_core.errors import InputError
from blonde_core.io.corpus import Corpus
from blonde_core.memo import Memo

CACHE_MODES = ("disk", "memory", "off")


class Engine:
    """Annotators and a bounded memo of computed values, shared by the studies of
    one process.

    cache_mode: "disk" (annotations and sacrebleu statistics in SQLite under
    cache_dir), "memory" (kept in this process only, bounded) or "off"
    (nothing kept between computations except the bounded memo of results).
    pool: where spaCy runs (annotation/backends.py): "fork" (the command line: worker
    processes forked per run), "server" (long-lived worker processes shared by all
    sessions' threads), "inline", or a callable (pack, n_process) -> backend.
    scheduler: the address of a Dask scheduler (tcp://HOST:8786): spaCy runs on its
    workers (annotation/cluster.py) and `pool` keeps only sacrebleu's statistics; None
    (the default): Dask is not imported.
    """

    def __init__(self, cache_mode: str = "disk", cache_dir=None, n_process: int | None = None,
                 pool: str = "fork", memo_sentences: int | None = None, results_mb: int | None = 1024,
                 disk_mb: int | None = None, scheduler: str | None = None):
        if cache_mode not in CACHE_MODES:
            raise InputError(f"unknown cache mode '{cache_mode}' (choose from {', '.join(CACHE_MODES)})", code=InputError.Codes.SETTING)
        from blonde_core.annotation.backends import default_n_process

        self.cache_mode = cache_mode
        self.cache_dir = cache_dir
        self.n_process = n_process if n_process is not None else default_n_process()
        self.pool = pool
        self.scheduler = scheduler or None
        self.memo_sentences = 0 if cache_mode == "off" else memo_sentences
        self.disk_bytes = None if disk_mb is None else disk_mb * 2 ** 20
        self.results = Memo(max_entries=512, max_bytes=None if results_mb is None else results_mb * 2 ** 20,
                            name="results")
        self._annotators: dict = {}
        self._lock = threading.Lock()
        self._disk = None
        self._forked = None  # the command line's pool for sacrebleu (segstats_runner)

    # disk stores (None unless cache_mode == "disk")
    def disk(self, table: str = "ann", validate=None):
        """The disk cache's table (None unless the cache mode is disk); validate: how its rows are read back
        (default: lists of numbers, the per-segment statistics)."""
        if self.cache_mode != "disk":
            return None
        from blonde_core.annotation.store import AnnotationCache, decode_numbers

        if table == "ann":
            if self._disk is None:
                self._disk = AnnotationCache(self.cache_dir, max_bytes=self.disk_bytes)
            return self._disk
        return AnnotationCache(self.cache_dir, table=table, validate=validate or decode_numbers,
                               max_bytes=self.disk_bytes)

    def annotator(self, lowercase: bool, lang="en", persist: bool = True):
        """The shared annotator of a language (its pack, or its name, folder or file; kept under the name given,
        or the pack's name). persist=False (the Sandbox's edits): annotations kept in a small memory memo
        of their own, never on disk."""
        from blonde_core.annotation.annotator import build_annotator

        with self._lock:
            key = (bool(lowercase), lang if isinstance(lang, str) else lang.name, persist)
            ann = self._annotators.get(key)
            if ann is None:
                memo = self.memo_sentences if persist else min(self.memo_sentences or 20_000, 20_000)
                ann = build_annotator(lang, lowercase, self.disk() if persist else None,
                                      n_process=self.n_process, memo_limit=memo, pool=self.annotation_pool())
                self._annotators[key] = ann
            return ann

    def annotation_pool(self):
        """Where spaCy runs: the Dask scheduler's workers when one is named, else `pool`."""
        if self.scheduler is None:
            return self.pool
        from blonde_core.annotation.cluster import backend_factory

        return backend_factory(self.scheduler)

    def backend_text(self) -> str:
        """Where spaCy runs, in words (the Data page, the README)."""
        if self.scheduler is not None:
            return f"Dask scheduler at {self.scheduler}"
        if callable(self.pool):
            return getattr(self.pool, "describe", getattr(self.pool, "__name__", "a custom backend"))
        return {"server": f"{self.n_process} local worker process(es) of this server",
                "fork": f"{self.n_process} local process(es) forked per run",
                "inline": "this process"}.get(self.pool, str(self.pool))

    def segstats_runner(self, corpus: Corpus):
        """Where sacrebleu's per-segment statistics are computed: in the server's worker
        processes, as a run that already sent 2,000 texts (backends.SEGSTATS_PRIORITY: after a
        session's first batches, before a long upload's later ones); for the command line
        (pool "fork") in processes forked once per run and shared by every metric, one share
        of each chunk per process; elsewhere in this process (None)."""
        split = lambda hyps, refs, k: [(hyps[i:i + k], [r[i:i + k] for r in refs])  # noqa: E731
                                       for i in range(0, len(hyps), k)]
        if self.pool == "fork" and self.n_process > 1 and sys.platform != "win32":
            from blonde_core.analysis.standard import segment_statistics

            def run_forked(metric: str, hyps: list, refs: list) -> list:
                if len(hyps) < 2 * self.n_process:
                    return segment_statistics(metric, hyps, refs)
                k = -(-len(hyps) // self.n_process)
                parts = self._forked_pool().starmap(segment_statistics, [(metric, h, r) for h, r in split(hyps, refs, k)])
                return [row for part in parts for row in part]
            return run_forked
        if self.pool != "server":
            return None
        from blonde_core.annotation.backends import SEGSTATS_PRIORITY, server_pool

        lang = "en"

        def run(metric: str, hyps: list, refs: list) -> list:
            pool = server_pool(lang, self.n_process)
            k = max(1, -(-len(hyps) // self.n_process))  # one share per worker, in parallel
            futs = [pool.submit({"call": "blonde_core.analysis.standard:segment_statistics",
                                 "args": [metric, h, r], "rows": len(h)}, SEGSTATS_PRIORITY)
                    for h, r in split(hyps, refs, k)]
            return [row for f in futs for row in f.result()]
        return run

    def _forked_pool(self):
        """Processes forked (once, when first needed) from this single-threaded command-line process."""
        with self._lock:
            if self._forked is None:
                import multiprocessing as mp

                self._forked = mp.get_context("fork").Pool(self.n_process)
            return self._forked

    def cache_root(self):
        """The folder of this engine's caches on disk (cache_dir, else BLONDE_CACHE_DIR, else the user's cache
        folder), whatever the cache mode."""
        from pathlib import Path

        from blonde_core.annotation.store import default_cache_dir

        return Path(self.cache_dir) if self.cache_dir else default_cache_dir()

    def info(self) -> dict:
        """What is kept where, for the Data page and the README."""
        anns = list(self._annotators.values())
        out = {"cache_mode": self.cache_mode, "backend": self.backend_text(), "scheduler": self.scheduler,
               "results": self.results.info(),
               "memo_limit_sentences": self.memo_sentences,
               "sentences_in_memory": sum(a.memo_size() for a in anns),
               "sentences_annotated": sum(a.stats["annotated"] for a in anns),
               "sentences_from_disk": sum(a.stats["cached"] for a in anns)}
        if self.cache_mode == "disk":
            out["cache_file"] = str(self.disk().path)
            out["cache_writable"] = self.disk().writable()
        return out

    def release(self, study, keep=None) -> int:
        """Drop the results computed from this study from memory; given `keep` (the studies still
        in use, perhaps none), also its sentences from the annotation memos unless one of those
        has them too (the disk cache keeps them), and with no study kept at all the language packs'
        memos of what their sentences taught (drop_sentence_memos). Returns how many results were dropped."""
        n = self.results.drop(lambda k: isinstance(k, tuple) and k and k[0] == study.key)
        if keep is not None:
            anns = list(self._annotators.items())
            gone = {lc: study.distinct_texts(lc).difference(*(s.distinct_texts(lc) for s in keep))
                    for lc in {key[0] for key, _ in anns}}  # lowercase flag -> texts no kept study has
            for (lc, _lang, _persist), ann in anns:
                ann.drop_from_memo(gone[lc])
            if not keep:
                self.drop_sentence_memos()
        return n

    def drop_sentence_memos(self) -> None:
        """Empty the memos the annotators' language packs filled from the sentences they counted (LanguagePack
        tense_tokens: the rules' verdict per token context - its tag, last character and the next tag -, and a
        morphology string's features; up to 100,000 entries each, kept for the process's life): after a cold WMT24
        en-zh run the zh pack's verdicts held 38,171 entries - some 100,000 tuples with their strings, made among the
        sentences' records and left scattered over Python's allocator's arenas, so that those could not go back to
        the system when the records went (docs/scale.md). Refilled by the next cold count (a warm one reads its
        counts from the disk cache and never asks)."""
        for ann in list(self._annotators.values()):
            for memo in (getattr(ann.pack, "_verdicts", None), getattr(ann.pack, "_parsed", None)):
                if isinstance(memo, dict):
                    memo.clear()

    def unload(self, study, lang: str) -> None:
        """A release's pair done on the command line (Study.release): its results and its sentences in memory go,
        and so do the annotators of its language with that language's analyser (spaCy pipeline, recogniser,
        dictionary), and the fork pool for sacrebleu (forked from this process as it was during the pair), so that
        eight pairs in one process hold one pair's memory at a time, not eight; the disk cache keeps every record.
        Memory freed is handed back to the system (malloc_trim)."""
        import gc

        from blonde_core.annotation.analysers import unload_analyser
        from blonde_core.lang.base import load_pack

        self.release(study, keep=[])
        with self._lock:
            for key in [k for k in self._annotators if k[1] == lang]:
                del self._annotators[key]
            if self._forked is not None:  # sacrebleu's pool, forked during this pair: it holds the pair's memory
                self._forked.terminate()
                self._forked = None
        unload_analyser(load_pack(lang))
        gc.collect()
        try:
            import ctypes

            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):  # not glibc
            pass

    def _forget_tables(self, study) -> None:
        """Delete the feature tables (binary counts) made of this study's texts, and of each of its domains, with
        the statistics matched from them."""
        from blonde_core.metric.blonde import table_store
        from blonde_core.metric.features import STATS_PREFIX, table_key

        variants = [study] + [study.in_domain(d) for d in study.domain_counts()]
        for (lc, _lang, _persist), ann in list(self._annotators.items()):
            store = table_store(ann.cache)
            if store is None:
                continue
            keys = [k for k in (table_key(sorted(v.distinct_texts(lc)), ann.pack, ann.pipeline_id, lc)
                                for v in variants) if k is not None]
            store.delete_many(keys)
            table_store(ann.cache, "fstats").delete_prefixed([k[:STATS_PREFIX] for k in keys])

    def forget(self, study) -> None:
        """Drop everything computed from this study: results, its sentences in memory
        and in the disk caches."""
        self.release(study)
        for (lc, _lang, _persist), ann in list(self._annotators.items()):
            ann.forget(study.distinct_texts(lc))
        if self.cache_mode == "disk":
            self._forget_tables(study)
            from blonde_core.analysis.standard import segment_keys_of

            self.disk("segstats").delete_many(segment_keys_of(study.corpus, study.text_language()))
            from blonde_core.io.resegment import corpus_cache_keys

            self.disk("langid").delete_many(list(study.language_keys().values()))  # its language guesses
            if study.corpus.resegmented:  # the systems' own text, kept with each document's cut
                self.disk("reseg").delete_many(corpus_cache_keys(study.corpus, study.text_language()))
