"""One door into the core: a Study is everything one user loaded, and answers
every question a page (or the command line) asks about it.

    from .study import Study
    study = Study(corpus, "my files", human=judgments)
    res = study.result(ScoreConfig())            # BlonDe scores (cached)
    std = study.standard("sentence", "BLEU")     # sacrebleu, one metric at a time
    study.compare(ScoreConfig(), metric="BlonDe", test="bootstrap")

A Study's `key` is a hash over all of its content: every reference, system
and source segment, names and file names, document boundaries, BlonD+ and
refined-entity lines, and the human judgments with their direction and every
per-segment value.  Everything an Engine computes is stored under that key
plus the settings that shape the value, so a page can only ever show values
made from its own user's data and settings.

An Engine is what the process shares: annotators (one per lowercase flag and
language; thread-safe, each distinct sentence annotated once even when two
sessions ask at the same time) and a size-bounded LRU of computed values.
The dashboard's server has one (`server_engine()`), the command line makes
its own.  Nothing here imports Streamlit.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import secrets
import threading
import time
from dataclasses import dataclass, field

from blonde_core.metric.settings import ScoreConfig
from blonde_core.io.corpus import Corpus
from .errors import InputError
from .memo import Memo

COUNTING = ("lowercase", "granularity", "aggregation", "lang")
CACHE_MODES = ("disk", "memory", "off")
log = logging.getLogger(__name__)


def counting_key(cfg: ScoreConfig) -> tuple:
    """The settings that change the counts (the rest only re-scores them)."""
    return tuple(getattr(cfg, f) for f in COUNTING)


# --- the engine: what one process shares ---------------------------------------

class Engine:
    """Annotators and a bounded memo of computed values, shared by the studies of
    one process.

    cache_mode: "disk" (annotations and sacrebleu statistics in SQLite under
    cache_dir), "memory" (kept in this process only, bounded) or "off"
    (nothing kept between computations except the bounded memo of results).
    pool: "fork" (CLI: worker processes forked per run) or "server" (one
    long-lived worker processes shared by all sessions' threads).
    """

    def __init__(self, cache_mode: str = "disk", cache_dir=None, n_process: int | None = None,
                 pool: str = "fork", memo_sentences: int | None = None, results_mb: int = 1024,
                 disk_mb: int | None = None):
        if cache_mode not in CACHE_MODES:
            raise InputError(f"unknown cache mode '{cache_mode}' (choose from {', '.join(CACHE_MODES)})")
        from blonde_core.annotation.backends import default_n_process

        self.cache_mode = cache_mode
        self.cache_dir = cache_dir
        self.n_process = n_process if n_process is not None else default_n_process()
        self.pool = pool
        self.memo_sentences = 0 if cache_mode == "off" else memo_sentences
        self.disk_bytes = None if disk_mb is None else disk_mb * 2 ** 20
        self.results = Memo(max_entries=512, max_bytes=results_mb * 2 ** 20, name="results")
        self._annotators: dict = {}
        self._lock = threading.Lock()
        self._disk = None

    # disk stores (None unless cache_mode == "disk")
    def disk(self, table: str = "ann"):
        if self.cache_mode != "disk":
            return None
        from blonde_core.annotation.store import AnnotationCache, decode_numbers

        if table == "ann":
            if self._disk is None:
                self._disk = AnnotationCache(self.cache_dir, max_bytes=self.disk_bytes)
            return self._disk
        return AnnotationCache(self.cache_dir, table=table, validate=decode_numbers, max_bytes=self.disk_bytes)

    def annotator(self, lowercase: bool, lang: str = "en", persist: bool = True):
        """persist=False (the Sandbox's edits): annotations kept in a small memory memo
        of their own, never on disk."""
        from blonde_core.annotation.annotator import Annotator
        from blonde_core.lang.base import load_pack

        with self._lock:
            key = (bool(lowercase), lang, persist)
            ann = self._annotators.get(key)
            if ann is None:
                memo = self.memo_sentences if persist else min(self.memo_sentences or 20_000, 20_000)
                ann = Annotator(load_pack(lang), lowercase, self.disk() if persist else None,
                                n_process=self.n_process, memo_limit=memo, pool=self.pool)
                self._annotators[key] = ann
            return ann

    def segstats_runner(self, corpus: Corpus):
        """Where sacrebleu runs: in the server's worker processes, after any annotation
        waiting there (priority 2); in this process for the CLI."""
        if self.pool != "server":
            return None
        from blonde_core.annotation.backends import server_pool

        lang = "en"

        def run(metric: str, hyps: list, refs: list) -> list:
            pool = server_pool(lang, self.n_process)
            k = max(1, -(-len(hyps) // self.n_process))  # one share per worker, in parallel
            futs = [pool.submit({"call": "blonde_core.analysis.standard:segment_statistics",
                                 "args": [metric, hyps[i:i + k], [r[i:i + k] for r in refs]],
                                 "rows": len(hyps[i:i + k])}, 2)
                    for i in range(0, len(hyps), k)]
            return [row for f in futs for row in f.result()]
        return run

    def info(self) -> dict:
        """What is kept where, for the Data page and the README."""
        anns = list(self._annotators.values())
        out = {"cache_mode": self.cache_mode, "results": self.results.info(),
               "memo_limit_sentences": self.memo_sentences,
               "sentences_in_memory": sum(a.memo_size() for a in anns),
               "sentences_annotated": sum(a.stats["annotated"] for a in anns),
               "sentences_from_disk": sum(a.stats["cached"] for a in anns)}
        if self.cache_mode == "disk":
            out["cache_file"] = str(self.disk().path)
        return out

    def forget(self, study: "Study") -> None:
        """Drop everything computed from this study: results, its sentences in memory
        and in the disk caches."""
        self.results.drop(lambda k: isinstance(k, tuple) and k and k[0] == study.key)
        for (lc, _lang, _persist), ann in list(self._annotators.items()):
            ann.forget(study.distinct_texts(lc))
        if self.cache_mode == "disk":
            from blonde_core.analysis.standard import segment_keys_of

            self.disk("segstats").delete_many(segment_keys_of(study.corpus))


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


_SERVER: Engine | None = None
_SERVER_LOCK = threading.Lock()


def server_engine() -> Engine:
    """The dashboard server's engine, configured from the environment:
    BLONDE_CACHE (disk | memory | off, default disk), BLONDE_CACHE_DIR,
    BLONDE_MEMO_SENTENCES (default 200000), BLONDE_RESULTS_MB (default 1024),
    BLONDE_CACHE_MAX_MB (annotation cache on disk, default 2048; oldest records out first),
    BLONDE_JOBS (annotation processes, default up to 2)."""
    global _SERVER
    with _SERVER_LOCK:
        if _SERVER is None:
            from blonde_core.annotation.backends import default_n_process

            _SERVER = Engine(cache_mode=os.environ.get("BLONDE_CACHE", "disk"),
                             cache_dir=os.environ.get("BLONDE_CACHE_DIR") or None,
                             n_process=_env_int("BLONDE_JOBS", default_n_process()), pool="server",
                             memo_sentences=_env_int("BLONDE_MEMO_SENTENCES", 200_000),
                             results_mb=_env_int("BLONDE_RESULTS_MB", 1024),
                             disk_mb=_env_int("BLONDE_CACHE_MAX_MB", 2048))
        return _SERVER


# --- the study: one user's data --------------------------------------------------

def _canon(obj):
    """A JSON-able, order-stable form of nested data (tuple keys included)."""
    if isinstance(obj, dict):
        return [[_canon(k), _canon(v)] for k, v in sorted(obj.items(), key=lambda kv: repr(kv[0]))]
    if isinstance(obj, (list, tuple)):
        return [_canon(x) for x in obj]
    if isinstance(obj, float) and obj != obj:
        return "NaN"
    return obj


@dataclass
class Study:
    corpus: Corpus
    origin: str
    human: object | None = None  # human.HumanScores
    annotation: list | None = None  # BlonD+ lines, one per reference segment
    ner: list | None = None  # refined-entity lines
    annotation_file: str = "annotation.txt"
    ner_file: str = "ner.txt"
    messages: dict = field(default_factory=dict)
    key: str = ""
    human_file: str = "judgments.tsv"  # the judgments' file name, for the command lines

    def __post_init__(self):
        self.corpus.check_names()
        h = hashlib.sha256()
        c = self.corpus

        def add(part):
            h.update(json.dumps(_canon(part), ensure_ascii=False, default=str).encode("utf-8", "surrogatepass"))
            h.update(b"\x00")

        for part in (c.doc_ids, c.references, c.systems, c.source, c.seg_ids, c.boundaries, c.files,
                     c.docids_file, self.annotation, self.ner, self.annotation_file, self.ner_file, self.human_file):
            add(part)
        hs = self.human
        if hs is None:
            add(None)
        else:
            for part in (hs.name, hs.higher_is_better, hs.segments, hs.doc_scores, hs.system_scores,
                         hs.n_segments, hs.rater_scores, hs.error_spans, hs.mapping, hs.errors):
                add(part)
        self.key = h.hexdigest()[:32]

    def with_human_mapping(self, mapping: dict) -> "Study":
        """The same study with the DA judgments' system names mapped as given ({name in the file:
        loaded name, or None to leave it out}); a new content key, so nothing computed with the old
        mapping is reused."""
        from blonde_core.io.da import bind

        hs = self.human
        if hs is None or getattr(hs, "table", None) is None:
            raise InputError("only judgments read from a DA / ESA table have a name mapping to change")
        return dataclasses.replace(self, human=bind(hs.table, self.corpus, mapping, hs.higher_is_better))

    # -- what it holds -----------------------------------------------------------
    @property
    def plus(self) -> bool:
        return self.annotation is not None

    def distinct_texts(self, lowercase: bool = False) -> set:
        """Every distinct reference and system sentence as spaCy sees it (lowercased or not)."""
        from blonde_core.metric.blonde import prepare

        c = self.corpus
        return {prepare(s, lowercase) for g in (c.references, c.systems) for docs in g.values()
                for d in docs for s in d}

    def prefetch(self, cfg: ScoreConfig, keep_going, engine: Engine | None = None) -> threading.Thread | None:
        """Start annotating this study's sentences in the background (the dashboard calls it
        when data is loaded, so the workers are busy while the user is still on the Data
        page). A page asking for the scores meanwhile waits for those sentences, with its
        progress, instead of annotating them again. keep_going() is asked at most every half
        second as the work goes on; False stops the work (the session left, or loaded other
        data): what is already in the workers is finished and kept, nothing more is sent.
        Returns the thread, or None when there is nothing to gain (no shared annotation
        memo: cache off)."""
        from blonde_core.annotation.annotator import ProgressStop

        engine = engine or server_engine()
        if engine.cache_mode == "off" or engine.pool != "server":
            return None
        try:
            self.corpus.check(cfg.granularity)
        except InputError:
            return None  # the pages say why; nothing to score yet
        texts = sorted(self.distinct_texts(cfg.lowercase))
        ann = engine.annotator(cfg.lowercase, cfg.lang, persist=self.origin != "sandbox")

        class _Stopped(ProgressStop):
            pass

        def check(done: int, total: int) -> None:
            if not keep_going():
                raise _Stopped()

        def run() -> None:
            try:
                ann.annotate(texts, progress=check)
            except _Stopped:
                pass
            except Exception as exc:  # the page asking for the scores meets the same error and shows it
                log.info("background annotation stopped: %s", exc)

        t = threading.Thread(target=run, name=f"prefetch-{self.key[:8]}", daemon=True)
        t.start()
        return t

    def n_distinct(self, cfg: ScoreConfig) -> int:
        return len(self.distinct_texts(cfg.lowercase))

    def signature(self, cfg: ScoreConfig) -> str:
        from blonde_core.annotation.pipeline import pipeline_id
        from blonde_core.lang.base import load_pack

        return cfg.signature(len(self.corpus.references), pipeline_id(load_pack(cfg.lang)), plus=self.plus,
                             refined_ner=self.ner is not None)

    # -- answers -------------------------------------------------------------------
    def _get(self, engine: Engine | None, what: tuple, compute):
        engine = engine or server_engine()
        return engine.results.get((self.key,) + what, compute)

    def result(self, cfg: ScoreConfig, engine: Engine | None = None, progress=None):
        """BlonDe-family scores: counted once per counting settings, re-scored for the rest."""
        from blonde_core.metric.blonde import BlonDe

        engine = engine or server_engine()
        self.corpus.check(cfg.granularity)

        def count():
            metric = BlonDe(cfg, annotator=engine.annotator(cfg.lowercase, cfg.lang,
                                                            persist=self.origin != "sandbox"))
            ann = metric.annotator
            old = ann.progress
            try:
                return metric.evaluate(self.corpus, annotation=self.annotation, ner_refined=self.ner,
                                       annotation_file=self.annotation_file, ner_file=self.ner_file,
                                       progress=progress)
            finally:
                ann.progress = old

        base = self._get(engine, ("counts", counting_key(cfg)), count)
        return base if base.config == cfg else base.with_config(cfg)

    def standard(self, granularity: str, metric: str, engine: Engine | None = None, progress=None):
        """One sacrebleu metric (BLEU, chrF or TER), per-segment statistics cached on disk."""
        from blonde_core.analysis.standard import StandardResult

        engine = engine or server_engine()
        if self.origin == "sandbox":  # typed text: never on disk; a few lines, computed here (no workers)
            return self._get(engine, ("standard", granularity, metric), lambda: StandardResult(
                self.corpus, [metric], granularity, cache=False))
        return self._get(engine, ("standard", granularity, metric), lambda: StandardResult(
            self.corpus, [metric], granularity, cache=engine.cache_mode == "disk", cache_dir=engine.cache_dir,
            progress=progress, extract=engine.segstats_runner(self.corpus), store=engine.disk("segstats")))

    def standard_ready(self, granularity: str, metric: str, engine: Engine | None = None) -> bool:
        return (self.key, "standard", granularity, metric) in (engine or server_engine()).results

    def standards(self, granularity: str, metrics, engine: Engine | None = None):
        """Several sacrebleu metrics as one StandardResult (None when metrics is empty)."""
        from blonde_core.analysis.standard import StandardResult

        metrics = list(metrics)
        if not metrics:
            return None
        return StandardResult.merge([self.standard(granularity, m, engine) for m in metrics])

    def standard_intervals(self, granularity: str, metrics, n: int = 1000, seed: int = 12345,
                           engine: Engine | None = None) -> dict:
        """sacrebleu's metrics with the leaderboard's intervals over documents (stats.standard_intervals)."""
        from blonde_core.analysis.stats import standard_intervals

        metrics = tuple(metrics)
        std = self.standards(granularity, metrics, engine)
        return self._get(engine, ("standard_intervals", granularity, metrics, n, seed),
                         lambda: standard_intervals(std, metrics, list(self.corpus.systems), n, seed))

    def compare(self, cfg: ScoreConfig, metric: str = "BlonDe", test: str = "bootstrap", unit: str = "doc",
                n: int = 1000, seed: int = 12345, std_metrics=(), cis: bool = True, engine: Engine | None = None):
        from blonde_core.analysis.stats import compare

        res = self.result(cfg, engine)
        std = self.standards(cfg.granularity, std_metrics, engine)
        return self._get(engine, ("compare", repr(cfg), metric, test, unit, n, seed, tuple(std_metrics), cis),
                         lambda: compare(res, metric=metric, test=test, unit=unit, n=n, seed=seed, standard=std,
                                         system_cis=cis))

    def bootstrap_cis(self, cfg: ScoreConfig, metrics, n: int = 1000, engine: Engine | None = None,
                      unit: str = "doc"):
        from blonde_core.analysis.stats import bootstrap_cis

        res = self.result(cfg, engine)
        return self._get(engine, ("cis", repr(cfg), tuple(metrics), n, unit),
                         lambda: bootstrap_cis(res, list(metrics), n=n, unit=unit))

    def board(self, cfg: ScoreConfig, n: int = 1000, engine: Engine | None = None) -> dict:
        """The leaderboard's intervals and significance clusters (stats.leaderboard.board), from
        the same cached test and intervals the Significance page's defaults use."""
        from blonde_core.analysis.stats import board, policy, leaderboard_tops

        res = self.result(cfg, engine)
        unit = self.significance_unit(cfg)["unit"]
        tested = self.compare(cfg, "BlonDe", policy.TEST, unit, n, engine=engine)
        cis = self.bootstrap_cis(cfg, leaderboard_tops(res), n, engine, unit=unit)
        return self._get(engine, ("board", repr(cfg), n), lambda: board(res, n=n, tested=tested, cis=cis))

    def significance_unit(self, cfg: ScoreConfig) -> dict:
        """The policy's unit for these documents (stats.policy.corpus_unit)."""
        from blonde_core.analysis.stats.policy import corpus_unit

        return corpus_unit(self.corpus, cfg.granularity)

    def companions(self, cfg: ScoreConfig, engine: Engine | None = None) -> dict:
        """Otem/Utem, the early BlonD variants and RC (0-100; they depend on the counting settings only)."""
        from blonde_core.analysis.companion import companion_scores

        res = self.result(cfg, engine)
        return self._get(engine, ("companions", counting_key(cfg)), lambda: companion_scores(res, per_doc=True))

    def apt(self, pair: str, engine: Engine | None = None) -> dict:
        from blonde_core.analysis.apt import corpus_apt

        return self._get(engine, ("apt", pair), lambda: corpus_apt(self.corpus, pair))

    def extra_tables(self, cfg: ScoreConfig, level: str, std_metrics=(), apt_pair: str | None = None,
                     engine: Engine | None = None) -> dict:
        """Standard, companion and APT scores oriented higher-is-better, per system or document."""
        from blonde_core.analysis.stats import oriented_tables

        res = self.result(cfg, engine)
        std = self.standards(cfg.granularity, std_metrics, engine)
        apt = self.apt(apt_pair, engine) if apt_pair else None
        return oriented_tables(level, res.names, std, self.companions(cfg, engine), apt)

    def correlate(self, cfg: ScoreConfig, level: str = "system", std_metrics=(), apt_pair: str | None = None,
                  engine: Engine | None = None, grouping: str = "none", exclude=(), spa: bool = False,
                  permutations: int = 1000, seed: int = 12345, compare: tuple | None = None):
        """(correlate(...) output, metric_table(...)) against this study's own human judgments."""
        from blonde_core.analysis.stats import correlate, metric_table

        if self.human is None:
            raise InputError("no human judgments loaded")
        res = self.result(cfg, engine)
        extra = self.extra_tables(cfg, level, std_metrics, apt_pair, engine)
        extra_docs = self.extra_tables(cfg, "document", std_metrics, apt_pair, engine) if spa else None
        exclude = tuple(exclude)
        return self._get(engine, ("correlate", repr(cfg), level, tuple(std_metrics), apt_pair, grouping, exclude,
                                  spa, permutations, seed, tuple(compare or ())),
                         lambda: (correlate(res, self.human, level, extra=extra, grouping=grouping, exclude=exclude,
                                            spa=spa, permutations=permutations, seed=seed, compare=compare,
                                            extra_docs=extra_docs),
                                  metric_table(res, self.human, level, extra=extra, exclude=exclude)))

    def compare_pair(self, cfg: ScoreConfig, pair: tuple, level: str = "system", std_metrics=(),
                     apt_pair: str | None = None, engine: Engine | None = None, grouping: str = "none", exclude=(),
                     permutations: int = 1000, seed: int = 12345) -> dict:
        """Two metrics compared (Williams, PERM-BOTH) against this study's human judgments."""
        from blonde_core.analysis.stats import compare_pair

        if self.human is None:
            raise InputError("no human judgments loaded")
        res = self.result(cfg, engine)
        extra = self.extra_tables(cfg, level, std_metrics, apt_pair, engine)
        exclude = tuple(exclude)
        return self._get(engine, ("compare_pair", repr(cfg), tuple(pair), level, tuple(std_metrics), apt_pair,
                                  grouping, exclude, permutations, seed),
                         lambda: compare_pair(res, self.human, tuple(pair), level, extra=extra, grouping=grouping,
                                              exclude=exclude, permutations=permutations, seed=seed))

    def rater_agreement(self) -> list[dict]:
        """Cohen's kappa between every two raters of the loaded MQM judgments ([] without raters)."""
        from blonde_core.analysis.stats import rater_agreement

        return rater_agreement(self.human) if self.human is not None and self.human.rater_scores else []

    def scored_against(self, name: str) -> "Study":
        """The same study with `name` (a reference or a system) as the only reference; other
        references become systems.  BlonD+ annotation belongs to the first reference, so it is
        kept only when that stays the reference.  Sentence annotations are cached, so this
        re-scores without re-annotating."""
        c = self.corpus
        if name in c.references and len(c.references) == 1:
            return self
        first = next(iter(c.references))
        keep = name == first
        return Study(c.scored_against(name), self.origin, self.human, self.annotation if keep else None,
                     self.ner if keep else None, self.annotation_file, self.ner_file, dict(self.messages),
                     human_file=self.human_file)

    def guess_pair(self) -> str | None:
        """The APT language pair from the texts: Chinese source and English target, or English to French."""
        import re

        c = self.corpus
        if not c.source:
            return None
        src = " ".join(s for doc in c.source[:2] for s in doc[:20])
        tgt = " ".join(s for doc in next(iter(c.references.values()))[:2] for s in doc[:20])
        if re.search(r"[\u4e00-\u9fff]", src) and re.search(r"\b(the|and)\b", tgt, re.I):
            return "zh-en"
        if re.search(r"\b(the|and)\b", src, re.I) and re.search(r"\b(le|la|les|et)\b", tgt, re.I):
            return "en-fr"
        return None

    # -- the command line that reproduces the numbers ---------------------------------
    def command(self, cfg: ScoreConfig, subcommand: str = "score", extra=()) -> list[str] | None:
        """The `python -m blonde_core score` arguments that reproduce this study's
        scores with cfg (None when the data did not come from files); subcommand and
        extra: another command over the same files and settings (`compare --metric ...`)."""
        c = self.corpus
        if c.boundaries == "single" and self.origin == "sandbox":
            return None
        files = ["-r"] + [c.files.get(n, f"{n}.txt") for n in c.references] + \
            ["-s"] + [c.files.get(n, f"{n}.txt") for n in c.systems]
        if c.boundaries == "docids":
            files += ["--docids", c.docids_file or "docids.txt"]
        elif c.boundaries == "blank-lines":
            files += ["--blank-line-docs"]
        if self.annotation is not None:
            files += ["-p", "-an", self.annotation_file]
        if self.ner is not None:
            files += ["-ner", self.ner_file]
        tail = ["--per-doc"] if subcommand == "score" else []
        return ["python", "-m", "blonde_core", subcommand, *files, *cfg.cli_args(), *extra, *tail, "--format", "json"]


# --- sessions that survive a browser reload ----------------------------------------

class StudyStore:
    """token -> Study, in this server's memory only, for at most `ttl` seconds after
    the last use and at most `max_items` studies (least recently used out).
    Tokens are unguessable (128 random bits)."""

    def __init__(self, ttl: float = 12 * 3600, max_items: int = 64):
        self.ttl, self.max_items = ttl, max_items
        self._items: dict[str, tuple[Study, float]] = {}
        self._lock = threading.Lock()

    def put(self, study: Study, token: str | None = None) -> str:
        token = token or secrets.token_urlsafe(16)
        with self._lock:
            self._expire()
            self._items[token] = (study, time.time())
            while len(self._items) > self.max_items:
                oldest = min(self._items, key=lambda t: self._items[t][1])
                del self._items[oldest]
        return token

    def get(self, token: str | None) -> Study | None:
        if not token:
            return None
        with self._lock:
            self._expire()
            hit = self._items.get(token)
            if hit is None:
                return None
            self._items[token] = (hit[0], time.time())
            return hit[0]

    def drop(self, token: str | None) -> None:
        with self._lock:
            self._items.pop(token or "", None)

    def _expire(self) -> None:
        now = time.time()
        for t in [t for t, (_, used) in self._items.items() if now - used > self.ttl]:
            del self._items[t]

    def __len__(self) -> int:
        return len(self._items)


_STORE: StudyStore | None = None


def study_store() -> StudyStore:
    """The server's store (BLONDE_SESSION_HOURS, default 12; BLONDE_SESSIONS, default 64)."""
    global _STORE
    with _SERVER_LOCK:
        if _STORE is None:
            _STORE = StudyStore(ttl=3600 * float(os.environ.get("BLONDE_SESSION_HOURS", 12)),
                                max_items=_env_int("BLONDE_SESSIONS", 64))
        return _STORE


# --- what the pages may use besides Study (they import nothing else of the core but render) --
from blonde_core.analysis.companion import COMPANIONS, LOWER_IS_BETTER  # noqa: E402,F401
from blonde_core.metric.settings import CATEGORY_NAMES, PRESETS, SMOOTH_DEFAULTS  # noqa: E402,F401
from blonde_core.analysis.diagnostics import collapse_notes, entity_strings, feature_breakdown, sentence_view  # noqa: E402,F401
from blonde_core.analysis.overlap import document_errors, error_overlap  # noqa: E402,F401
from blonde_core.io.human import read_human  # noqa: E402,F401
from blonde_core.io.readers import NamedBytes, attach_source, plain_corpus, read_lines  # noqa: E402,F401
from blonde_core.io.structured import read_structured_with_human  # noqa: E402,F401
from blonde_core.metric.scoring import THIN, score  # noqa: E402,F401
from blonde_core.analysis.standard import HIGHER_IS_BETTER  # noqa: E402,F401
from blonde_core.analysis.stats import leaderboard_tops, metric_names, points_factor  # noqa: E402,F401
from blonde_core.analysis.stats import policy  # noqa: E402,F401
from blonde_core.analysis.threads import GROUP_ORDER, MIN_SIMILARITY, entity_threads, pronoun_threads, tense_timeline  # noqa: E402,F401
from blonde_core.analysis.contrast import (contrast, discourse_categories, document_contrast, mismatching_sentences,  # noqa: E402,F401
                       sentence_errors, sentence_level)
from blonde_core.analysis.apt import apt_of_links  # noqa: E402,F401
