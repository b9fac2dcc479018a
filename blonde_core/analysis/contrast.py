"""Where systems go wrong, sentence by sentence, from the sufficient statistics alone.

With sentence-level matching every unit of `Result.stats` is one sentence, so the
counts of the features that carry weight give, per sentence and discourse category,

    missed = reference - matched     (reference spans the system did not reproduce)
    extra  = system - matched        (system spans the reference does not have)

exactly as the score sees them (against all references, aggregated).  From those:

* `mismatching_sentences`: the sentences of a document where a category mismatches
  for any of the chosen systems (the Documents page's filter);
* `contrast`: two systems A and B over the whole corpus - per category, the
  documents whose F1 differs most and the sentences whose error counts differ most;
* `document_contrast`: A and B on one document, category by category.
"""
from __future__ import annotations

import numpy as np

from blonde_core.metric.settings import DISCOURSE
from blonde_core.numbers import nan_to_none
from blonde_core.metric.scoring import category_counts, score


def sentence_level(result) -> bool:
    return result.config.granularity == "sentence"


def discourse_categories(result) -> list[str]:
    return [c for c in DISCOURSE if c in result.config.categories]


def unit_errors(result, name: str) -> dict:
    """{category: (missed, extra)} arrays over units (sentences at sentence granularity)."""
    counts = category_counts(result.stats[name], result.config, result.layout, result.plus)
    return {c: (counts[c][2] - counts[c][0], counts[c][1] - counts[c][0]) for c in discourse_categories(result)}


def _doc_units(result, doc_index: int) -> np.ndarray:
    return np.flatnonzero(result.unit_doc == doc_index)


def sentence_errors(result, doc_index: int, name: str) -> dict:
    """{category: [(missed, extra) per sentence of the document]} (sentence granularity only)."""
    if not sentence_level(result):
        raise ValueError("sentence errors need sentence-level matching")
    units = _doc_units(result, doc_index)
    return {c: list(zip(m[units].astype(int).tolist(), e[units].astype(int).tolist()))
            for c, (m, e) in unit_errors(result, name).items()}


def mismatching_sentences(result, doc_index: int, systems: list[str], categories) -> list[int]:
    """0-based sentence numbers of the document where, for at least one of the systems,
    at least one of the categories has a missed or an extra span."""
    if not sentence_level(result):
        raise ValueError("sentence filters need sentence-level matching")
    units = _doc_units(result, doc_index)
    bad = np.zeros(len(units), dtype=bool)
    for n in systems:
        errs = unit_errors(result, n)
        for c in categories:
            if c in errs:
                m, e = errs[c]
                bad |= (m[units] + e[units]) > 0
    return np.flatnonzero(bad).tolist()


def _f1(S, result) -> dict:
    per = score(S, result.config, result.layout, result.plus)
    return per["categories"]


def document_contrast(result, doc_index: int, a: str, b: str) -> list[dict]:
    """One row per discourse category: F1 (points) of A and B on the document, A - B, and
    their span counts."""
    ca, cb = (_f1(result.doc_stats(n)[doc_index], result) for n in (a, b))
    rows = []
    for c in discourse_categories(result):
        fa, fb = (nan_to_none(float(x[c]["F1"]) * 100) for x in (ca, cb))
        rows.append({"category": c, "F1 A": fa, "F1 B": fb,
                     "A - B": None if fa is None or fb is None else fa - fb,
                     "reference spans": float(ca[c]["reference"]),
                     "matched A": float(ca[c]["matched"]), "in A": float(ca[c]["system"]),
                     "matched B": float(cb[c]["matched"]), "in B": float(cb[c]["system"])})
    return rows


def contrast(result, a: str, b: str, top: int | None = None) -> dict:
    """A against B over the corpus.

    categories: one row per discourse category with both corpus F1s and A - B (points) and,
    at sentence level, the summary's counts;
    documents: one row per (document, category) with both F1s and A - B (points), ranked by
    |A - B| (documents where the category is absent on both sides are left out);
    sentences: one row per (sentence, category) where A's and B's error counts
    (missed + extra) differ, ranked by |errors A - errors B| (sentence-level matching only);
    summary: per category, in how many sentences A has fewer errors, B has fewer, they tie.
    """
    docs = result.corpus.doc_ids
    ca, cb = (_f1(result.doc_stats(n), result) for n in (a, b))
    sa, sb = result.scores(a)["categories"], result.scores(b)["categories"]
    crows = []  # the corpus, one row per category (the summary's counts added below)
    for c in discourse_categories(result):
        fa, fb = (None if x[c]["F1"] is None else 100 * x[c]["F1"] for x in (sa, sb))
        crows.append({"category": c, "F1 A": fa, "F1 B": fb, "A - B": None if fa is None or fb is None else fa - fb})
    drows = []
    for c in discourse_categories(result):
        fa, fb = np.asarray(ca[c]["F1"], float) * 100, np.asarray(cb[c]["F1"], float) * 100
        ref_n = np.asarray(ca[c]["reference"], float)
        for i, d in enumerate(docs):
            if np.isnan(fa[i]) and np.isnan(fb[i]):
                continue
            diff = fa[i] - fb[i]
            drows.append({"document": d, "category": c, "F1 A": nan_to_none(float(fa[i])),
                          "F1 B": nan_to_none(float(fb[i])), "A - B": nan_to_none(float(diff)),
                          "reference spans": float(ref_n[i])})
    drows.sort(key=lambda r: (-(abs(r["A - B"]) if r["A - B"] is not None else -1), r["document"], r["category"]))
    out = {"signature": f"{result.signature}|contrast:{a}|{b}", "a": a, "b": b, "categories": crows,
           "documents": drows[:top] if top else drows, "sentences": [], "summary": {},
           "sentence_level": sentence_level(result)}
    if not sentence_level(result):
        return out
    ea, eb = unit_errors(result, a), unit_errors(result, b)
    unit_doc = result.unit_doc
    first = np.searchsorted(unit_doc, np.arange(len(docs)))
    srows = []
    for c in discourse_categories(result):
        ta, tb = ea[c][0] + ea[c][1], eb[c][0] + eb[c][1]
        diff = ta - tb
        out["summary"][c] = {"A fewer errors": int((diff < 0).sum()), "B fewer errors": int((diff > 0).sum()),
                             "same": int((diff == 0).sum())}
        next(r for r in crows if r["category"] == c).update(out["summary"][c])
        for u in np.flatnonzero(diff != 0):
            di = int(unit_doc[u])
            srows.append({"document": docs[di], "sentence": int(u - first[di]) + 1, "category": c,
                          "missed A": int(ea[c][0][u]), "extra A": int(ea[c][1][u]),
                          "missed B": int(eb[c][0][u]), "extra B": int(eb[c][1][u]),
                          "errors A - B": int(diff[u])})
    srows.sort(key=lambda r: (-abs(r["errors A - B"]), r["document"], r["sentence"], r["category"]))
    out["sentences"] = srows[:top] if top else srows
    return out


def disagreement(result, ext, a: str, b: str) -> dict:
    """Where BlonDe and a metric computed elsewhere (io.metric_scores.ExternalMetric) disagree most about
    systems A and B.  Per document (and per sentence, when the metric has segment scores and matching is per
    sentence): d_BlonDe = BlonDe(A) - BlonDe(B) in points, d_metric = metric(A) - metric(B) oriented so that
    positive means A is better; each difference divided by its standard deviation over the units; disagreement
    = -(z_BlonDe x z_metric), positive when they point opposite ways.  Rows with opposite signs first, by
    disagreement; units missing a value on either side are left out (and counted)."""
    from blonde_core.analysis.stats.units import metric_fn, unit_stats

    from blonde_core.errors import InputError

    for n in (a, b):
        if n not in ext.systems:
            raise InputError(f"{ext.name} has no scores for '{n}' (it has: {', '.join(ext.systems)})",
                             code=InputError.Codes.NAMES)
    fn = metric_fn(result, "BlonDe")
    sign = ext.oriented[0]
    doc_ids = list(result.corpus.doc_ids)
    bd = 100 * (fn(result.doc_stats(a)) - fn(result.doc_stats(b)))
    ma, mb = ext.doc_scores(a), ext.doc_scores(b)
    md = sign * (np.asarray(ma, float) - np.asarray(mb, float)) if ma is not None and mb is not None else None
    out = {"a": a, "b": b, "metric": ext.name, "direction": "higher is better" if ext.higher_is_better else
           "lower is better (oriented: positive = A better)",
           "documents": _ranked(bd, md, [{"document": d} for d in doc_ids], ext.name)}
    if ext.seg and a in ext.seg and b in ext.seg and sentence_level(result):
        ud = result.unit_doc
        starts = np.searchsorted(ud, np.arange(len(doc_ids)))
        pos = np.arange(len(ud)) - starts[ud]
        sa, sb = unit_stats(result, a, "segment")[1], unit_stats(result, b, "segment")[1]
        bs = 100 * (fn(sa) - fn(sb))
        ms = sign * (ext.seg[a] - ext.seg[b])
        out["sentences"] = _ranked(bs, ms, [{"document": doc_ids[d], "sentence": int(p) + 1}
                                            for d, p in zip(ud, pos)], ext.name)
    return out


def _ranked(bd: np.ndarray, md, keys: list[dict], name: str) -> dict:
    if md is None:
        return {"rows": [], "left_out": len(keys), "note": f"{name} has no per-unit scores for both systems"}
    bd, md = np.asarray(bd, float), np.asarray(md, float)
    ok = ~(np.isnan(bd) | np.isnan(md))
    sb = float(np.std(bd[ok])) if ok.sum() > 1 else 0.0
    sm = float(np.std(md[ok])) if ok.sum() > 1 else 0.0
    zb = bd / sb if sb > 0 else np.zeros_like(bd)
    zm = md / sm if sm > 0 else np.zeros_like(md)
    dis = -(zb * zm)
    rows = []
    for i in np.nonzero(ok)[0]:
        opposite = bool(np.sign(bd[i]) * np.sign(md[i]) < 0)
        rows.append({**keys[i], "BlonDe A - B": nan_to_none(float(bd[i])), f"{name} A - B": nan_to_none(float(md[i])),
                     "disagreement": nan_to_none(float(dis[i])), "opposite": opposite})
    rows.sort(key=lambda r: (not r["opposite"], -(r["disagreement"] or 0.0)))
    return {"rows": rows, "left_out": int((~ok).sum()), "opposite": sum(r["opposite"] for r in rows)}
