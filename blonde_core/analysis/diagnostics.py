"""Diagnostics behind the dashboard's breakdowns and document views; plain data only.

* `feature_breakdown`: matched / system / reference counts and P, R, F1 of
  every feature (tense tag, pronoun gender, entity group, marker type, n-gram order);
* `entity_strings`: which entity strings a system matches or misses;
* `collapse_notes`: documents whose geometric mean was floored because a
  category matched nothing;
* `sentence_view`: one document sentence by sentence, with every counted span
  marked matched / missed (reference) or matched / extra (system).
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from blonde_core.metric.settings import CATEGORY_NAMES, DISCOURSE
from blonde_core.metric.features import entities, entity_occurrences, spans
from blonde_core.annotation.pipeline import prepare

def _prf(m, s, r):
    R = m / r if r else float("nan")
    P = m / s if s else float("nan")
    F = 2 * R * P / (R + P) if (r and s and (R + P) > 0) else (0.0 if r and s else float("nan"))
    return R, P, F


def feature_breakdown(result, name: str, doc_index: int | None = None) -> list[dict]:
    """One row per feature (unweighted counts); weights shown for reference."""
    S = result.total(name) if doc_index is None else result.doc_stats(name)[doc_index]
    w = result.config.resolved_weights
    rows = []
    for cat in CATEGORY_NAMES:
        if cat not in result.config.categories:
            continue
        sl = result.layout.cat_slices[cat]
        for j, col in enumerate(range(sl.start, sl.stop)):
            m, s, r = (float(x) for x in S[col])
            R, P, F = _prf(m, s, r)
            feat = result.layout.columns[col][1]
            rows.append({"category": cat, "feature": str(feat), "weight": w[cat][j], "matched": m, "system": s,
                         "reference": r, "R": R, "P": P, "F1": F})
    return rows


def _segment_texts(result, name):
    lc = result.config.tag_lowercase
    docs = result.corpus.systems.get(name) or result.corpus.references[name]
    return [[prepare(s, lc) for s in d] for d in docs]


def entity_strings(result, name: str) -> list[dict]:
    """Per entity string (and group): reference count (max over references),
    system count and matched count, summed over aligned sentences
    (or documents at document granularity); `entity` is the matching key (lowercased
    when the lowercase setting is on), `as written` its most frequent original form.
    With document-consistent entities (entities: document) a string tagged anywhere in a
    document counts wherever it occurs there, as the score counts it.  `by the tagger`:
    how many of the string's missed and extra occurrences are the same string standing
    in the other text untagged (the analyser's miss, not the translation's)."""
    table, pack = result.table, result.table.pack
    sys_docs = _segment_texts(result, name)
    ref_docs = [_segment_texts(result, r) for r in result.corpus.references]
    raw = {t: r.strip() for n in [name, *result.corpus.references]
           for d in (result.corpus.systems.get(n) or result.corpus.references[n]) for r in d
           for t in [prepare(r, result.config.tag_lowercase)]}
    doc_level = result.config.granularity == "document"
    whole_doc = result.config.entities == "document"
    rows: dict = {}
    written: dict = {}
    found: dict = {}  # text -> its tagged entities, read from its record once

    def ents(t):
        if t not in found:
            found[t] = [(pack.entity_groups[g], key, a, b) for g, key, a, b in
                        entities(table.records[table.index[t]], t, pack, table.fold)]
        return found[t]

    def occurrences(key, texts):
        return sum(entity_occurrences(key, t, pack) for t in texts)

    def tagged(texts):
        """The strings tagged in these texts (a document), each occurrence's written form counted."""
        out = set()
        for t in texts:
            orig = raw.get(t, t)
            for group, key, a, b in ents(t):
                out.add((group, key))
                written.setdefault((group, key), Counter())[orig[a:b] if len(orig) == len(t) else t[a:b]] += 1
        return out

    def ents_of(texts, doc_keys=None):
        c = Counter()
        if doc_keys is not None:  # document-consistent: the document's tagged strings wherever they occur
            for k in doc_keys:
                n = occurrences(k[1], texts)
                if n:
                    c[k] += n
            return c
        for t in texts:
            for group, key, _, _ in ents(t):
                c[(group, key)] += 1
        return c

    for di in range(len(result.corpus.doc_ids)):
        s_keys = tagged(sys_docs[di])
        r_keys = [tagged(r[di]) for r in ref_docs]
        if doc_level:
            units = [(sys_docs[di], [r[di] for r in ref_docs])]
        else:
            units = [([s], [[r[di][i]] for r in ref_docs]) for i, s in enumerate(sys_docs[di])]
        for s_texts, r_texts in units:
            sc = ents_of(s_texts, s_keys if whole_doc else None)
            rcs = [ents_of(rt, rk if whole_doc else None) for rt, rk in zip(r_texts, r_keys)]
            if result.config.aggregation == "max":
                rc = Counter()
                for c in rcs:
                    for k, v in c.items():
                        rc[k] = max(rc[k], v)
                pairs = [(sc, rc, r_texts[0])]
            else:
                pairs = [(sc, c, rt) for c, rt in zip(rcs, r_texts)]
            for s_c, r_c, r_t in pairs:
                for k in set(s_c) | set(r_c):
                    row = rows.setdefault(k, {"group": k[0], "entity": k[1], "reference": 0, "system": 0,
                                              "matched": 0, "by the tagger": 0, "documents": set()})
                    row["reference"] += r_c[k]
                    row["system"] += s_c[k]
                    row["matched"] += min(s_c[k], r_c[k])
                    # the string stands untagged on the side that lacks it: the tagger's miss
                    if s_c[k] > r_c[k]:
                        row["by the tagger"] += min(s_c[k] - r_c[k], max(occurrences(k[1], r_t) - r_c[k], 0))
                    elif r_c[k] > s_c[k]:
                        row["by the tagger"] += min(r_c[k] - s_c[k], max(occurrences(k[1], s_texts) - s_c[k], 0))
                    row["documents"].add(result.corpus.doc_ids[di])
    out = []
    for row in rows.values():
        row["documents"] = sorted(row["documents"])
        row["missed"] = row["reference"] - row["matched"]
        row["extra"] = row["system"] - row["matched"]
        row["as written"] = written[(row["group"], row["entity"])].most_common(1)[0][0]
        out.append(row)
    out.sort(key=lambda r: (-r["missed"], -r["reference"], r["entity"]))
    return out


def collapse_notes(result, name: str) -> dict:
    """{doc_id: [note, ...]} for documents where a category present in the
    reference matched nothing, so the geometric mean used the 1e-5 floor."""
    notes = {}
    ds = result.doc_stats(name)
    w = result.config.resolved_weights
    for di, d in enumerate(result.corpus.doc_ids):
        msgs = []
        for cat in DISCOURSE:
            if cat not in result.config.categories:
                continue
            sl = result.layout.cat_slices[cat]
            wt = np.asarray(w[cat])
            m = (ds[di, sl, 0] * wt).sum()
            r = (ds[di, sl, 2] * wt).sum()
            s = (ds[di, sl, 1] * wt).sum()
            if m == 0 and (r > 0 or s > 0):
                def feats(k):
                    return " + ".join(f"{int(ds[di, c, k])} {result.layout.columns[c][1]}" for c in range(sl.start, sl.stop)
                                      if ds[di, c, k] > 0 and wt[c - sl.start] > 0)
                if r > 0:
                    msgs.append(f"{cat}: 0 of the reference's {feats(2)} spans matched (recall 0); geometric mean "
                                "floored")
                else:  # the system has spans of a category the reference does not have
                    msgs.append(f"{cat}: the system has {feats(1)} spans and the reference none (precision 0); "
                                "geometric mean floored")
        if msgs:
            notes[d] = msgs
    return notes


def _key(span) -> tuple:
    if span["category"] == "entity":
        return ("entity", span["feature"], span.get("key", span["text"]))
    return (span["category"], span["feature"])


def mark_spans(sys_spans: list[dict], ref_spans: list[dict]) -> None:
    """Flag each span: system spans 'matched' or 'extra', reference spans
    'matched' or 'missed'; the first min(count_sys, count_ref) occurrences of
    each key are the matched ones (the clipped counts of the metric)."""
    sc = Counter(_key(s) for s in sys_spans)
    rc = Counter(_key(s) for s in ref_spans)
    budget_s = {k: min(v, rc[k]) for k, v in sc.items()}
    budget_r = dict(budget_s)
    for s in sys_spans:
        k = _key(s)
        s["status"] = "matched" if budget_s.get(k, 0) > 0 else "extra"
        if budget_s.get(k, 0) > 0:
            budget_s[k] -= 1
    for s in ref_spans:
        k = _key(s)
        s["status"] = "matched" if budget_r.get(k, 0) > 0 else "missed"
        if budget_r.get(k, 0) > 0:
            budget_r[k] -= 1


def sentence_view(result, doc_index: int, systems: list[str], reference: str | None = None) -> dict:
    """Sentences of one document for the reference and the given systems, each
    with its spans (statuses against the reference) and count vectors."""
    table, pack = result.table, result.table.pack
    ref_name = reference or next(iter(result.corpus.references))
    lc = result.config.tag_lowercase

    def rows_of(name):
        docs = result.corpus.systems.get(name) or result.corpus.references[name]
        out = []
        for raw in docs[doc_index]:
            t = prepare(raw, lc)
            rec = table.records[table.index[t]]
            shown = raw.strip()
            sp = spans(rec, t, pack, table.fold)
            if len(shown) != len(t):  # lowercasing changed the length: show what spaCy saw
                shown = t
            for s in sp:
                s["text"] = shown[s["start"]:s["end"]]
            out.append({"text": shown, "spans": sp})
        return out

    ref_rows = rows_of(ref_name)
    weights = counted_features(result)
    view = {"doc_id": result.corpus.doc_ids[doc_index], "reference": ref_name, "rows": {ref_name: ref_rows}}
    aligned = result.config.granularity == "sentence"
    for name in systems:
        rows = rows_of(name)
        if aligned:
            for srow, rrow in zip(rows, ref_rows):
                mark_spans(srow["spans"], [dict(s) for s in rrow["spans"]])
        else:
            all_ref = [s for r in ref_rows for s in r["spans"]]
            mark_spans([s for r in rows for s in r["spans"]], [dict(s) for s in all_ref])
        view["rows"][name] = rows
    # reference spans: missed against the first system (if any), else neutral
    if systems:
        first = view["rows"][systems[0]]
        if aligned:
            for srow, rrow in zip(first, ref_rows):
                mark_spans([dict(s) for s in srow["spans"]], rrow["spans"])
        else:
            mark_spans([dict(s) for r in first for s in r["spans"]], [s for r in ref_rows for s in r["spans"]])
    else:
        for r in ref_rows:
            for s in r["spans"]:
                s["status"] = "neutral"
    ident: dict = {}  # each entity of the document one number, the reference's first (as Figure 3 colours them)
    described = pack.tense_descriptions  # VBD -> "past tense": tags said in words
    for rows in view["rows"].values():
        for r in rows:
            for s in r["spans"]:
                s["counted"] = weights.get((s["category"], s["feature"]), True)
                if s["category"] == "tense" and s["feature"] in described:
                    s["describe"] = described[s["feature"]]
                if s["category"] == "entity":
                    s["ident"] = ident.setdefault((s["feature"], s["key"]), len(ident) + 1)
            feats: dict = {}  # the count vector per category, by feature (counted spans only)
            for s in r["spans"]:
                if s["counted"]:
                    f = feats.setdefault(s["category"], {})
                    f[s["feature"]] = f.get(s["feature"], 0) + 1
            r["features"] = feats
            r["counts"] = {c: sum(f.values()) for c, f in feats.items()}
    return view


def lost_entities(result, annotator, doc_index: int, names: list[str]) -> dict:
    """Entities that lowercasing hides: {name: [[span, ...] per sentence]} of the entities spaCy finds in the
    text as written (annotator: one that keeps case) where the lowercased text the score annotates has no
    entity over them.  Each span is drawn as not counted (counted False, lost True).  Empty when the
    settings keep case or tag the text as written."""
    if not result.config.tag_lowercase:
        return {}
    table, pack = result.table, result.table.pack
    out = {}
    for name in names:
        docs = result.corpus.systems.get(name) or result.corpus.references[name]
        raws = docs[doc_index]
        recs = annotator.annotate(raws)
        rows = []
        for raw in raws:
            cased, lower = annotator.prepare(raw), prepare(raw, True)
            found = []
            if len(cased) == len(lower) and lower in table.index:
                have = [(s, e) for _, _, s, e in entities(table.records[table.index[lower]], lower, pack)]
                for g, key, s, e in entities(recs[cased], cased, pack, True):  # as --tag-as-written would count
                    if not any(s < e2 and s2 < e for s2, e2 in have):
                        found.append({"category": "entity", "feature": pack.entity_groups[g], "start": s, "end": e,
                                      "text": cased[s:e], "key": key, "counted": False, "lost": True})
            rows.append(found)
        out[name] = rows
    return out


def counted_features(result) -> dict:
    """{(category, feature): whether the feature carries weight in the result's settings} - a span
    of a weight-0 feature (neuter and epicene pronouns, non-person entities in blonde-0.1.4) is
    shown but neither counts in the score nor as a mismatch."""
    w = result.config.resolved_weights
    out = {}
    for cat in DISCOURSE:
        sl = result.layout.cat_slices[cat]
        for j, col in enumerate(range(sl.start, sl.stop)):
            out[(cat, result.layout.columns[col][1])] = j < len(w[cat]) and w[cat][j] > 0
    return out




def thin_evidence(result) -> dict | None:
    """The categories that rest on fewer than THIN reference spans, when the geometric mean lets one
    of them collapse a unit's (or a resample's) score: {"categories": {category: reference spans},
    "message"}; None when there is none or the mean is arithmetic.  Every command prints it and
    every page shows it (each adding what to do with its own controls)."""
    from blonde_core.metric.scoring import THIN

    if not result.names or result.config.average != "geometric":
        return None
    # a category the language has nothing to count in (Hindi pronouns) is absent from every mean, never thin
    empty = result.config.pack.empty if result.config.has_pack else {}
    thin = {c: v["spans"]["reference"] for c, v in result.scores(result.names[0])["categories"].items()
            if v["spans"]["reference"] < THIN and c not in empty}
    if not thin:
        return None
    what = ", ".join(f"{c} rests on {n:g} reference span{'s' if n != 1 else ''}" for c, n in thin.items())
    return {"categories": thin, "threshold": THIN,
            "message": f"thin evidence: {what} (fewer than {THIN}); a document, unit or resample in which such a "
                       "category matches nothing enters the geometric mean as 0, floored at 1e-5, and collapses "
                       "its BlonDe and BlonD-d scores"}
