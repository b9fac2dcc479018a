"""Standard sentence-level metrics through sacrebleu (never re-implemented):
BLEU, chrF and TER on their own 0-100 scales, with sacrebleu's signatures.

Per-document values come from sacrebleu's own additive sufficient statistics
(summed per document), so bootstrap resampling over documents needs no
re-scoring either.
"""
from __future__ import annotations

import math

import numpy as np

from .corpus import Corpus
from .errors import InputError

STANDARD = ("BLEU", "chrF", "TER")
HIGHER_IS_BETTER = {"BLEU": True, "chrF": True, "TER": False}


def _metric(name: str):
    from sacrebleu.metrics import BLEU, CHRF, TER

    return {"BLEU": BLEU, "chrF": CHRF, "TER": TER}[name]()


class StandardResult:
    """Per system and metric: corpus score, per-document scores, per-document stats."""

    def __init__(self, corpus: Corpus, metrics=STANDARD, granularity: str = "sentence", cache: bool = True,
                 cache_dir=None, progress=None):
        bad = [m for m in metrics if m not in STANDARD]
        if bad:
            raise InputError(f"unknown standard metric '{bad[0]}' (choose from {', '.join(STANDARD)})")
        self.metrics = list(metrics)
        self.doc_ids = list(corpus.doc_ids)
        self.signatures: dict[str, str] = {}
        self.doc_stats: dict[str, dict[str, np.ndarray]] = {}  # metric -> system -> (n_docs, k)
        self._objs = {m: _metric(m) for m in self.metrics}
        ref_names = list(corpus.references)

        def units(docs):
            if granularity == "sentence":
                return [s.strip() for d in docs for s in d], np.repeat(np.arange(len(docs)), [len(d) for d in docs])
            return [" ".join(s.strip() for s in d) for d in docs], np.arange(len(docs))

        refs = [units(corpus.references[r])[0] for r in ref_names]
        store = None
        if cache:
            from .cache import AnnotationCache, decode_numbers

            store = AnnotationCache(cache_dir, table="segstats", validate=decode_numbers)
        total = len(self._objs) * sum(len(units(d)[0]) for d in corpus.systems.values())
        done = 0
        for m, obj in self._objs.items():
            self.doc_stats[m] = {}
            obj.num_refs = len(ref_names)  # what sacrebleu records after reading the references
            obj_sig = obj.get_signature()
            self.signatures[m] = f"{m}|{obj_sig.format()}"
            for name, docs in corpus.systems.items():
                hyps, doc_of = units(docs)
                st = self._segment_stats(obj, self.signatures[m], hyps, refs, store)
                done += len(hyps)
                if progress:
                    progress(done, total)
                per_doc = np.zeros((len(self.doc_ids), st.shape[1]))
                np.add.at(per_doc, doc_of, st)
                self.doc_stats[m][name] = per_doc

    @staticmethod
    def _segment_stats(obj, signature: str, hyps: list, refs: list, store) -> np.ndarray:
        """sacrebleu's per-segment statistics, from the disk cache where possible."""
        if store is None:
            return np.asarray(obj._extract_corpus_statistics(hyps, refs), dtype=float)
        from .cache import cache_key

        keys = [cache_key(signature, False, "\x1e".join([h] + [r[i] for r in refs])) for i, h in enumerate(hyps)]
        found = store.get_many(keys)
        missing = [i for i, k in enumerate(keys) if k not in found]
        if missing:
            new = obj._extract_corpus_statistics([hyps[i] for i in missing], [[r[i] for i in missing] for r in refs])
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


def _clean(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x
