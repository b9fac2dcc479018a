"""The BlonDe metric: corpus in, sufficient statistics and scores out.

    from .blonde import BlonDe
    from blonde_core.io.readers import plain_corpus
    corpus = plain_corpus(["ref.txt"], ["sysA.txt"], docids="docids.txt")
    result = BlonDe().evaluate(corpus)
    result.scores("sysA")["BlonDe"]["F1"]
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from blonde_core.annotation.annotator import Annotator, build_annotator
from blonde_core.annotation.pipeline import prepare
from blonde_core.annotation.store import AnnotationCache
from .settings import COUNTING, ScoreConfig, Signature
from blonde_core.io.corpus import Corpus
from blonde_core.errors import InputError
from .features import (PLUS_CATEGORIES, FeatureTable, LazyTable, Layout, decode_table, entity_occurrences,
                       npz_bytes, stats_key, table_key)
from .features import entities as tagged_entities
from . import registry
from .plus import count_phrase, parse_annotation, parse_ner_line
from .scoring import THIN, score
from .sufficient import literal_items, system_stats


@dataclass
class Result:
    _memo_shared = ("corpus",)  # the Study's, kept with it (memo.approx_size)

    config: ScoreConfig
    signature: Signature
    layout: Layout
    corpus: Corpus
    stats: dict  # name -> (n_units, n_columns, 3)
    unit_doc: np.ndarray  # document index of every unit
    plus: bool = False
    table: FeatureTable | None = None
    annotation_stats: dict = field(default_factory=dict)
    segments: dict = field(default_factory=dict)  # name -> (FeatureTable rows, unit of every segment)

    @property
    def names(self) -> list[str]:
        return list(self.stats)

    def with_config(self, config: ScoreConfig) -> "Result":
        """The same counts scored with other settings (weights, preset, categories,
        mean, smoothing): nothing is annotated or counted again."""
        for f in COUNTING:
            if getattr(config, f) != getattr(self.config, f):
                raise ValueError(f"'{f}' changes the counts: evaluate again")
        import dataclasses

        return dataclasses.replace(self, config=config, signature=self.signature.with_config(config))

    def doc_stats(self, name: str) -> np.ndarray:
        """(n_docs, n_columns, 3): statistics summed per document."""
        st = self.stats[name]
        starts = np.searchsorted(self.unit_doc, np.arange(len(self.corpus.doc_ids)))
        return np.add.reduceat(st, starts, axis=0) if len(st) else st

    def total(self, name: str) -> np.ndarray:
        return self.stats[name].sum(axis=0)

    def scores(self, name: str) -> dict:
        # to_dict's vectorised path with a leading axis of one: one way from score()'s arrays to plain numbers
        return _entries(_as_lists(score(self.total(name)[None], self.config, self.layout, self.plus)), 1)[0]

    def doc_scores(self, name: str) -> dict:
        per = score(self.doc_stats(name), self.config, self.layout, self.plus)
        return self._documents(_as_lists(per))  # each array to Python numbers once, not a numpy scalar per cell

    def _documents(self, lists: dict) -> dict:
        """{document id: its scores} from one system's per-document lists (_as_lists)."""
        return dict(zip(self.corpus.doc_ids, _entries(lists, len(self.corpus.doc_ids))))

    def to_dict(self, per_doc: bool = False) -> dict:
        out = {"signature": self.signature, "systems": {}}
        names = self.names
        if not names:
            return out
        # every system's totals (and documents) scored in one call: the formula is vectorised over leading axes
        totals = _as_lists(score(np.stack([self.total(n) for n in names]), self.config, self.layout, self.plus))
        docs = _as_lists(score(np.stack([self.doc_stats(n) for n in names]), self.config, self.layout,
                               self.plus)) if per_doc else None
        for k, (name, entry) in enumerate(zip(names, _entries(totals, len(names)))):
            if per_doc:
                entry["documents"] = self._documents(_take(docs, k))
            out["systems"][name] = entry
        return out


TOPS = registry.names("blonde")


def _count(x):
    """Span counts are whole numbers except when several references are summed or maxed per feature."""
    return int(x) if x is not None and float(x).is_integer() else x


def _as_lists(res):
    """score()'s arrays as Python lists (NaN as None; nested lists for 2-d arrays), the same nesting."""
    if isinstance(res, dict):
        return {k: _as_lists(v) for k, v in res.items()}
    a = np.asarray(res, dtype=float)
    if a.ndim == 2:
        return [[None if x != x else x for x in row] for row in a.tolist()]
    return [None if x != x else x for x in a.tolist()]


def _take(res, k):
    """Row k of every list of _as_lists's output (one system's per-document lists)."""
    if isinstance(res, dict):
        return {key: _take(v, k) for key, v in res.items()}
    return res[k]


def _entries(res: dict, n: int) -> list[dict]:
    """score()'s output as plain lists (_as_lists) over n units: one entry per unit (the tops' R/P/F1, then
    every category's R/P/F1, span counts and thin flag), built column by column."""
    out = [{} for _ in range(n)]
    for key in TOPS:
        if key in res:
            r = res[key]
            for e, R, P, F in zip(out, r["R"], r["P"], r["F1"]):
                e[key] = {"R": R, "P": P, "F1": F}
    cats = [{} for _ in range(n)]
    for e, c in zip(out, cats):
        e["categories"] = c
    for c, v in res["categories"].items():
        counts = [[_count(x) for x in v[k]] for k in ("reference", "system", "matched")]
        for e, R, P, F, a, b, m in zip(cats, v["R"], v["P"], v["F1"], *counts):
            e[c] = {"R": R, "P": P, "F1": F, "spans": {"reference": a, "system": b, "matched": m},
                    "thin": bool(a < THIN)}
    return out


_TABLE_STORES: dict = {}


def table_store(cache: AnnotationCache | None, table: str = "ftable") -> AnnotationCache | None:
    """The disk cache's table of feature tables ("ftable", FeatureTable.to_bytes) or of a run's sufficient
    statistics ("fstats", _stats_bytes), binary, beside an annotation cache: the same file under the same size
    cap; None without a disk cache."""
    if cache is None:
        return None
    k = (str(cache.dir), cache.max_bytes, table)
    store = _TABLE_STORES.get(k)
    if store is None:
        store = _TABLE_STORES[k] = AnnotationCache(cache.dir, table=table, validate=decode_table,
                                                   max_bytes=cache.max_bytes, raw=True)
    return store


def _stats_bytes(stats: list) -> bytes | None:
    """Systems' statistics (float arrays of whole counts) in the smallest unsigned integer type that holds
    them; None when one is not a whole non-negative count (never kept then)."""
    arrays = {}
    for k, s in enumerate(stats):
        top = float(s.max()) if s.size else 0.0
        if s.size and (float(s.min()) < 0 or not np.array_equal(s, np.floor(s))):
            return None
        dt = np.uint8 if top < 2 ** 8 else np.uint16 if top < 2 ** 16 else np.uint32 if top < 2 ** 32 else None
        if dt is None:
            return None
        arrays[f"s{k}"] = s.astype(dt)
    arrays["n_keyed"] = np.array([len(stats)], np.int64)
    return npz_bytes(arrays)


class BlonDe:
    """Scores systems against references with a `ScoreConfig`.

    cache: use the on-disk annotation cache (BLONDE_CACHE_DIR, or the user's
    cache directory); n_process: annotation worker processes (default: up to 2);
    progress: callback(done, total) over distinct sentences.
    """

    def __init__(self, config: ScoreConfig | None = None, *, cache: bool = True, cache_dir=None,
                 n_process: int | None = None, progress=None, annotator: Annotator | None = None):
        self.config = config or ScoreConfig()
        self.pack = self.config.pack
        if annotator is not None:  # shared (e.g. by the dashboard's sessions)
            if annotator.lowercase != self.config.tag_lowercase or annotator.pack is not self.pack:
                raise ValueError("the annotator's lowercase flag or language differs from the config")
            self.cache, self.annotator = annotator.cache, annotator
            return
        self.cache = AnnotationCache(cache_dir) if cache else None
        self.annotator = build_annotator(self.pack, self.config.tag_lowercase, self.cache, n_process=n_process,
                                         progress=progress)

    def evaluate(self, corpus: Corpus, annotation: list[str] | None = None,
                 ner_refined: list[str] | None = None, annotation_file: str = "annotation",
                 ner_file: str = "ner", progress=None) -> Result:
        cfg = self.config
        corpus.check(cfg.granularity)
        lc, fold = cfg.tag_lowercase, cfg.fold_case  # what the analyser reads; whether matching lowercases
        prep = {}  # role name -> docs of prepared texts
        for group in (corpus.references, corpus.systems):
            for name, docs in group.items():
                prep[name] = [[prepare(s, lc) for s in d] for d in docs]
        ref_names = list(corpus.references)
        sys_names = list(corpus.systems)
        # the annotator sees each distinct prepared text once
        distinct = sorted({s for docs in prep.values() for d in docs for s in d})
        store = table_store(self.cache)
        tkey = table_key(distinct, self.pack, self.annotator.pipeline_id, lc, fold) if store is not None else None
        # the table's counts are read when matching needs them (not when the statistics are cached)
        table = LazyTable(distinct, self.pack, lambda: self._table(distinct, None, tkey), fold)
        n_docs = len(corpus.doc_ids)
        ref0 = prep[ref_names[0]]
        if cfg.granularity == "sentence":
            n_units = sum(len(d) for d in ref0)
            unit_doc = np.repeat(np.arange(n_docs), [len(d) for d in ref0])

            def units_of(docs):
                return np.arange(sum(len(d) for d in docs), dtype=np.int64)
        else:
            n_units = n_docs
            unit_doc = np.arange(n_docs)

            def units_of(docs):
                return np.repeat(np.arange(len(docs)), [len(d) for d in docs]).astype(np.int64)

        def flat(docs):
            return [s for d in docs for s in d]

        ref_rows = [table.rows(flat(prep[r])) for r in ref_names]
        ref_units = [units_of(prep[r]) for r in ref_names]
        n_ref_segs = len(ref_rows[0])
        plus_cps = None
        if annotation is not None:
            if len(annotation) != n_ref_segs:
                raise InputError(f"has {len(annotation)} lines but the reference has {n_ref_segs} segments; "
                                 "expected one annotation line per reference segment", file=annotation_file, code=InputError.Codes.COUNTS)
            plus_cps = parse_annotation(annotation)
        ner = None
        if ner_refined is not None:
            if len(ner_refined) != n_ref_segs:
                raise InputError(f"has {len(ner_refined)} lines but the reference has {n_ref_segs} segments; "
                                 "expected one line per reference segment", file=ner_file, code=InputError.Codes.COUNTS)
            ner = [parse_ner_line(line, ner_file, i + 1) for i, line in enumerate(ner_refined)]
        ref_flat = [flat(prep[r]) for r in ref_names]
        seg_unit = ref_units[0]
        stats = {}
        refs: dict = {}  # the references' side of each column, made once for all systems
        doc_ents = None  # the references' document-consistent entity counts, made once (entities: document)
        segments = {r: (rows, units) for r, rows, units in zip(ref_names, ref_rows, ref_units)}
        skey = None
        if tkey is not None and plus_cps is None and ner is None and cfg.entities != "document":
            for name in sys_names:
                segments[name] = (table.rows(flat(prep[name])), units_of(prep[name]))
            skey = stats_key(tkey, f"{cfg.granularity}|{cfg.aggregation}|{n_units}",
                             [(n, *segments[n]) for n in ref_names + sys_names])
            got = table_store(self.cache, "fstats").get_many([skey]).get(skey)
            shape = (n_units, table.layout.n, 3)
            if got is not None and int(got["n_keyed"][0]) == len(sys_names) and \
                    all(got[f"s{k}"].shape == shape for k in range(len(sys_names))):
                stats = {name: got[f"s{k}"].astype(np.float64) for k, name in enumerate(sys_names)}
                self.annotator.count_cached(len(distinct))
                if progress is not None:
                    progress(len(distinct), len(distinct))
        cached = bool(stats)
        if not cached:
            table._table = self._table(distinct, progress, tkey)  # with the annotation's progress
        for name in sys_names if not cached else ():
            docs = prep[name]
            s_flat = flat(docs)
            s_units = units_of(docs)
            rows = table.rows(s_flat)
            segments[name] = (rows, s_units)
            plus_items = ent_items = None
            if plus_cps is not None:
                plus_items = [self._literal(plus_cps, k, s_flat, s_units, ref_flat, seg_unit, n_units)
                              for k in range(len(PLUS_CATEGORIES))]
            if ner is not None:
                ent_items = [self._ner_items(ner, g, s_flat, s_units, seg_unit, n_units, len(ref_names))
                             for g in range(2)]
            elif cfg.entities == "document":  # a string tagged anywhere in a document counts wherever it occurs there
                if doc_ents is None:
                    doc_ents = {r: self._document_entities(table, prep[r], units_of(prep[r]), n_units)
                                for r in ref_names}
                mine = self._document_entities(table, docs, s_units, n_units)
                ent_items = [literal_items(mine[g], [doc_ents[r][g] for r in ref_names], n_units)
                             for g in range(len(self.pack.entity_groups))]
            stats[name] = system_stats(table, rows, s_units, ref_rows, ref_units, n_units,
                                       cfg.aggregation, entity_override=ent_items, plus=plus_items, refs=refs)
        if skey is not None and not cached:
            blob = _stats_bytes([stats[n] for n in sys_names])
            if blob is not None:
                table_store(self.cache, "fstats").put_many([(skey, blob)])
        sig = cfg.signature(len(ref_names), self.annotator.pipeline_id, plus=plus_cps is not None,
                            refined_ner=ner is not None, seg=corpus.seg_method, domain=corpus.domain)
        return Result(cfg, sig, table.layout, corpus, stats, unit_doc, plus=plus_cps is not None,
                      table=table, annotation_stats=dict(self.annotator.stats), segments=segments)

    def _table(self, distinct: list[str], progress=None, key: bytes | None = None) -> FeatureTable:
        """The feature table of these prepared texts (key: its table_key, None when not kept): from the disk
        cache's binary form when it holds it (no annotation record is read then; views that show spans read
        them when they ask), else counted from the annotator's records and kept there."""
        store = table_store(self.cache)
        if key is not None:
            arrays = store.get_many([key]).get(key)
            table = None if arrays is None else FeatureTable.from_arrays(
                distinct, arrays, self.pack, lambda texts: self.annotator.annotate(texts), self.config.fold_case)
            if table is not None:
                self.annotator.count_cached(len(distinct))
                if progress is not None:
                    progress(len(distinct), len(distinct))
                return table
        table = FeatureTable(distinct, self.annotator.annotate(distinct, progress=progress), self.pack,
                             self.config.fold_case)
        if key is not None:
            store.put_many([(key, table.to_bytes())])
        return table

    def _document_entities(self, table, docs, units, n_units: int) -> list[list[dict]]:
        """Document-consistent entities of one text (the setting entities: document): per entity group, per
        unit, {key: count} where the keys are the strings the analyser tagged in that group anywhere in the
        segment's document, counted wherever they occur in it (whole words; any substring in Chinese and
        Japanese, written without spaces).  A name tagged in one sentence and not in the next counts in both."""
        pack = self.pack
        n_groups = len(pack.entity_groups)
        out: list[list[dict]] = [[dict() for _ in range(n_units)] for _ in range(n_groups)]
        k = 0
        for doc in docs:
            keys: list[set] = [set() for _ in range(n_groups)]
            for s in doc:
                for g, key, _, _ in tagged_entities(table.records[table.index[s]], s, pack, table.fold):
                    keys[g].add(key)
            for s in doc:
                u = units[k]
                k += 1
                for g in range(n_groups):
                    for key in keys[g]:
                        c = entity_occurrences(key, s, pack)
                        if c:
                            out[g][u][key] = out[g][u].get(key, 0) + c
        return out

    @staticmethod
    def _literal(cps, k, s_flat, s_units, ref_flat, seg_unit, n_units):
        """BlonD+ checkpoints of kind k counted per unit in the system and each reference."""
        # checkpoints belong to reference segments; at document granularity a
        # document's checkpoints are counted in the whole system document.
        unit_cps: list[list[str]] = [[] for _ in range(n_units)]
        for i, pair in enumerate(cps):
            for cp in pair[k]:
                if cp not in unit_cps[seg_unit[i]]:
                    unit_cps[seg_unit[i]].append(cp)
        return literal_items(_phrase_counts(unit_cps, s_flat, s_units, n_units),
                             [_phrase_counts(unit_cps, texts, seg_unit, n_units) for texts in ref_flat], n_units)

    @staticmethod
    def _ner_items(ner, g, s_flat, s_units, seg_unit, n_units, n_refs):
        """Refined entities of group g: reference counts from the file, system counts by
        literal whole-word matching of the refined names in the system segment."""
        names_of_unit: list[dict] = [dict() for _ in range(n_units)]
        for i, groups in enumerate(ner):
            d = names_of_unit[seg_unit[i]]
            for name, c in groups[g].items():
                d[name] = d.get(name, 0) + c
        return literal_items(_phrase_counts(names_of_unit, s_flat, s_units, n_units), [names_of_unit] * n_refs,
                             n_units)


def _phrase_counts(phrases_of_unit, texts, units, n_units: int) -> list[dict]:
    """Per unit: whole-word, case-insensitive counts of that unit's phrases in its texts."""
    out: list[dict] = [dict() for _ in range(n_units)]
    for t, u in zip(texts, units):
        for p in phrases_of_unit[u]:
            out[u][p] = out[u].get(p, 0) + count_phrase(p, t)
    return out
