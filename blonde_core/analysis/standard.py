"""Standard sentence-level metrics through sacrebleu (never re-implemented):
BLEU, chrF and TER on their own 0-100 scales, with sacrebleu's signatures.

Per-document values come from sacrebleu's own additive sufficient statistics
(summed per document), so bootstrap resampling over documents needs no
re-scoring either.
"""
from __future__ import annotations

import math

import numpy as np

from blonde_core.io.corpus import Corpus
from blonde_core.errors import InputError
from blonde_core.lang.scripts import script
from blonde_core.metric import registry
from blonde_core.numbers import nan_to_none

STANDARD = registry.names("sacrebleu", "document")  # what they are: metric/registry.py
# Document-level sacrebleu (issue 47), as document-level MT papers report it: each document's segments joined
# into one unit (a space between them), then the corpus score over documents; whatever the study's matching,
# so a system whose sentences do not line up with the reference's is scored too.
DOCUMENT_LEVEL = {"d-BLEU": "BLEU", "d-chrF": "chrF"}


def base_metric(name: str) -> str:
    """sacrebleu's metric behind a name ("d-BLEU" -> "BLEU")."""
    return DOCUMENT_LEVEL.get(name, name)




def sacrebleu_options(metric: str, lang: str | None) -> dict:
    """The keyword arguments of sacrebleu's metric class for a target language, from its pack's script
    (lang/scripts.py): BLEU's tokenizer (`zh`, `ja-mecab`, `ko-mecab`, what sacrebleu itself picks for those
    targets; `13a`, sacrebleu's default, for every other language); TER into Chinese, Japanese and Korean is
    normalised with Asian support, as sacrebleu recommends for them (its TER applies `asian_support` only when
    `normalized` is on: without it an unspaced paragraph is one word and TER meaningless, 475 on WMT24 en-zh);
    chrF is the same for every language. The options are in each metric's sacrebleu signature (BLEU: `tok:zh`;
    TER: `norm:yes|...|asian:yes`)."""
    facts = script(lang)
    if metric == "BLEU":
        return {"trg_lang": lang or "", "tokenize": facts.bleu_tokenize}
    if metric == "TER" and facts.ter_asian_support:
        return {"normalized": True, "asian_support": True}
    return {}


def _metric(name: str, lang: str | None = None):
    """sacrebleu's metric object for this target language (sacrebleu_options); `name` may carry the
    language itself, "BLEU@zh" (what workers are sent)."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    if "@" in name:
        name, lang = name.split("@", 1)
    name = base_metric(name)
    return {"BLEU": BLEU, "chrF": CHRF, "TER": TER}[name](**sacrebleu_options(name, lang))


def _sentence_bleu(lang: str | None):
    from sacrebleu.metrics import BLEU

    return BLEU(effective_order=True, **sacrebleu_options("BLEU", lang))


def metric_key(name: str, lang: str | None) -> str:
    """"BLEU@zh": a metric and the target language its sacrebleu object is made for."""
    return f"{name}@{lang}" if lang else name


_METRICS: dict = {}


def segment_statistics(name: str, hyps: list, refs: list) -> list[list[float]]:
    """sacrebleu's per-segment sufficient statistics of one metric ("chrF", or "BLEU@zh" for a target
    language; what the server's worker processes run for it: annotation/workers.py `call`)."""
    obj = _METRICS.get(name) or _METRICS.setdefault(name, _metric(name))
    return [[float(x) for x in row] for row in obj._extract_corpus_statistics(hyps, refs)]


class StandardResult:
    """Per system and metric: corpus score, per-document scores, per-document stats."""

    CHUNK = 200  # segments between progress reports (TER: ~20 ms of CPU each)
    CHUNK_FAST = 4000  # BLEU and chrF (~0.2-0.3 ms each): fewer, larger calls, one share per worker each

    @classmethod
    def merge(cls, parts: list["StandardResult"]) -> "StandardResult":
        """One result holding the metrics of several (each computed on its own)."""
        out = cls.__new__(cls)
        out.metrics, out.signatures, out.doc_stats, out.seg_stats, out._objs = [], {}, {}, {}, {}
        out.doc_ids = parts[0].doc_ids
        out.n_refs = parts[0].n_refs
        out.lang = parts[0].lang
        for p in parts:
            out.metrics += p.metrics
            out.signatures.update(p.signatures)
            out.doc_stats.update(p.doc_stats)
            out.seg_stats.update(p.seg_stats)
            out._objs.update(p._objs)
        return out

    def __init__(self, corpus: Corpus, metrics=STANDARD, granularity: str = "sentence", cache: bool = True,
                 cache_dir=None, progress=None, extract=None, store=None, lang: str | None = None):
        """extract(metric key, hyps, refs) -> per-segment statistics: where sacrebleu
        runs (default: here; the dashboard's server: in its worker processes).  lang: the
        target language (BLEU's tokenizer and TER's Asian support follow it)."""
        bad = [m for m in metrics if m not in STANDARD]
        if bad:
            raise InputError(f"unknown standard metric '{bad[0]}' (choose from {', '.join(STANDARD)})", code=InputError.Codes.SETTING)
        self.metrics = list(metrics)
        self.doc_ids = list(corpus.doc_ids)
        self.signatures: dict[str, str] = {}
        self.doc_stats: dict[str, dict[str, np.ndarray]] = {}  # metric -> system -> (n_docs, k)
        # metric -> system -> (n_segments, k): each segment's own statistics (sentence granularity only)
        self.seg_stats: dict[str, dict[str, np.ndarray]] = {}
        self.lang = lang
        self._objs = {m: _metric(m, lang) for m in self.metrics}
        ref_names = list(corpus.references)

        def units(docs, gran=granularity):
            if gran == "sentence":
                return [s.strip() for d in docs for s in d], np.repeat(np.arange(len(docs)), [len(d) for d in docs])
            return [" ".join(s.strip() for s in d) for d in docs], np.arange(len(docs))

        self.n_refs = len(ref_names)
        if not cache:
            store = None
        elif store is None:
            from blonde_core.annotation.store import AnnotationCache, decode_numbers

            store = AnnotationCache(cache_dir, table="segstats", validate=decode_numbers)
        total = sum(len(units(d, "document" if m in DOCUMENT_LEVEL else granularity)[0])
                    for m in self._objs for d in corpus.systems.values())
        done = 0
        for m, obj in self._objs.items():
            gran = "document" if m in DOCUMENT_LEVEL else granularity
            refs = [units(corpus.references[r], gran)[0] for r in ref_names]
            self.doc_stats[m] = {}
            self.seg_stats[m] = {}
            obj.num_refs = len(ref_names)  # what sacrebleu records after reading the references
            obj_sig = obj.get_signature()
            self.signatures[m] = f"{m}|{obj_sig.format()}"
            # every system's segments in one sequence (each beside its references), in chunks: a
            # chunk is one call of extract (the server's workers: one share per worker), so a
            # system of a few hundred segments is not a call of its own that waits for a worker
            per = {name: units(docs, gran) for name, docs in corpus.systems.items()}
            all_h = [h for hyps, _ in per.values() for h in hyps]
            all_r = [[x for hyps, _ in per.values() for x in r[:len(hyps)]] for r in refs]
            step = self.CHUNK_FAST if base_metric(m) in ("BLEU", "chrF") else self.CHUNK
            parts = []
            for i in range(0, len(all_h), step):  # progress (and a chance to stop) per chunk
                parts.append(self._segment_stats(obj, self.signatures[m], all_h[i:i + step],
                                                 [r[i:i + step] for r in all_r], store, extract, metric_key(m, lang)))
                done += len(all_h[i:i + step])
                if progress:
                    progress(done, total)
            st_all = np.concatenate(parts) if parts else np.zeros((0, 1))
            off = 0
            for name, (hyps, doc_of) in per.items():
                st = st_all[off:off + len(hyps)] if len(hyps) else np.zeros((0, st_all.shape[1]))
                off += len(hyps)
                per_doc = np.zeros((len(self.doc_ids), st.shape[1]))
                np.add.at(per_doc, doc_of, st)
                self.doc_stats[m][name] = per_doc
                if gran == "sentence":
                    self.seg_stats[m][name] = st

    @staticmethod
    def _segment_stats(obj, signature: str, hyps: list, refs: list, store, extract=None, name="") -> np.ndarray:
        """sacrebleu's per-segment statistics, from the disk cache where possible."""
        if not hyps:
            return np.zeros((0, 1))
        run = (lambda h, r: extract(name, h, r)) if extract is not None else obj._extract_corpus_statistics
        if store is None:
            return np.asarray(run(hyps, refs), dtype=float)
        keys = _keys(signature, hyps, refs)
        found = store.get_many(keys)
        missing = [i for i, k in enumerate(keys) if k not in found]
        if missing:
            new = run([hyps[i] for i in missing], [[r[i] for i in missing] for r in refs])
            store.put_many((keys[i], [float(x) for x in row]) for i, row in zip(missing, new))
            for i, row in zip(missing, new):
                found[keys[i]] = row
        return np.asarray([found[k] for k in keys], dtype=float)

    def score_stats(self, metric: str, stats) -> float:
        s = self._objs[metric]._compute_score_from_stats(np.asarray(stats).tolist()).score
        return float(s) if s is not None and not math.isnan(s) else float("nan")

    def score(self, metric: str, system: str) -> float:
        return self.score_stats(metric, self.doc_stats[metric][system].sum(0))

    def doc_scores(self, metric: str, system: str) -> dict:
        st = self.doc_stats[metric][system]
        return {d: self.score_stats(metric, st[i]) for i, d in enumerate(self.doc_ids)}

    def bootstrap(self, metric: str, system: str, weights: np.ndarray) -> np.ndarray:
        """Scores of resampled document multisets (weights: (n, n_docs))."""
        resampled = weights @ self.doc_stats[metric][system]
        return np.array([self.score_stats(metric, r) for r in resampled])

    def segment_scores(self, metric: str, system: str) -> np.ndarray | None:
        """Each segment scored on its own, as the WMT metrics task's sentence-level baselines are (sentence
        chrF, sentBLEU with sacrebleu's effective order, sentence TER); None when matched per document."""
        st = self.seg_stats.get(metric, {}).get(system)
        if st is None:
            return None
        obj = self._objs[metric]
        if metric == "BLEU":  # sacrebleu's sentence_bleu: effective order, so a short segment is not 0
            obj = _sentence_bleu(self.lang)
        out = np.empty(len(st))
        for i, row in enumerate(st.tolist()):
            v = obj._compute_score_from_stats(row).score
            out[i] = float("nan") if v is None else v
        return out

    def to_dict(self, per_doc: bool = False) -> dict:
        out = {}
        for m in self.metrics:
            for name in self.doc_stats[m]:
                entry = out.setdefault(name, {})
                entry[m] = _clean(self.score(m, name))
                if per_doc:
                    entry.setdefault("documents", {})
                    for d, v in self.doc_scores(m, name).items():
                        entry["documents"].setdefault(d, {})[m] = _clean(v)
        return out


def _keys(signature: str, hyps: list, refs: list) -> list[bytes]:
    from blonde_core.annotation.store import cache_key

    return [cache_key(signature, False, "\x1e".join([h] + [r[i] for r in refs])) for i, h in enumerate(hyps)]


def segment_keys_of(corpus: Corpus, lang: str | None = None) -> list[bytes]:
    """The disk-cache keys of every per-segment statistic this corpus can produce in its
    target language (every metric, both granularities): what "Clear loaded data" deletes."""
    keys: list[bytes] = []
    ref_names = list(corpus.references)
    for gran in ("sentence", "document"):
        def units(docs):
            if gran == "sentence":
                return [s.strip() for d in docs for s in d]
            return [" ".join(s.strip() for s in d) for d in docs]

        refs = [units(corpus.references[r]) for r in ref_names]
        for m in STANDARD:
            obj = _metric(m, lang)
            obj.num_refs = len(ref_names)
            sig = f"{m}|{obj.get_signature().format()}"
            for docs in corpus.systems.values():
                hyps = units(docs)
                if len(hyps) == len(refs[0]):
                    keys += _keys(sig, hyps, refs)
    return keys


_clean = nan_to_none
