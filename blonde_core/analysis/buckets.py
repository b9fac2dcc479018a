"""Two systems, A and B, bucket by bucket, as compare-mt (Neubig et al. 2019) buckets them:

* length: the sentences grouped by the reference sentence's length in words; each bucket's
  BlonDe is computed from the bucket's summed sufficient statistics (the score of those
  sentences taken together, exactly as the corpus score is of all of them);
* score: how many sentences of each system fall in each band of sentence-level BlonDe, and how
  the A - B differences spread;
* frequency: word accuracy (F-measure of clipped word matches) by how often the word occurs in
  the reference;
* n-grams: the reference n-grams A reproduces more often than B, and the other way round, ranked
  by the smoothed ratio of their match counts; and the discourse features and entity strings
  whose matched counts differ (from the sufficient statistics);
* sentences: every sentence's BlonDe for A and B (the scatter the Contrast page draws).

Sentence-level matching only (units are sentences); the words and n-grams are those of
sacrebleu's 13a tokenizer over the first reference."""
from __future__ import annotations

from collections import Counter

import numpy as np

from blonde_core.errors import InputError
from blonde_core.numbers import nan_to_none

LENGTH_EDGES = (10, 20, 30, 40, 50, 60)  # compare-mt's: <10, [10, 20), ..., >=60 words
FREQ_EDGES = (1, 2, 3, 4, 5, 10, 100, 1000)  # compare-mt's: 0, 1, 2, 3, 4, 5-9, 10-99, 100-999, >=1000
SCORE_EDGES = tuple(range(10, 100, 10))  # sentence BlonDe in points: [0, 10), ..., [90, 100]
DIFF_EDGES = (-20, -5, 5, 20)  # A - B in points: A much worse, worse, about the same, better, much better
NGRAM_ORDERS = (1, 2, 3, 4)


def _labels(edges, unit: str = "") -> list[str]:
    out = [f"<{edges[0]}{unit}"]
    for lo, hi in zip(edges, edges[1:]):
        out.append(f"{lo}{unit}" if hi == lo + 1 else f"{lo}-{hi - 1}{unit}")
    return out + [f">={edges[-1]}{unit}"]


def _bucket(values, edges) -> np.ndarray:
    return np.searchsorted(np.asarray(edges), np.asarray(values, float), side="right")


_TOKENIZER: list = []  # sacrebleu's 13a tokenizer, made once (it compiles its expressions)


def _tokens(text: str, lowercase: bool) -> list[str]:
    if not _TOKENIZER:
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        _TOKENIZER.append(Tokenizer13a())
    t = _TOKENIZER[0](text.strip())
    return (t.lower() if lowercase else t).split()


def _sentences(result, name: str) -> list[str]:
    docs = result.corpus.systems.get(name) or result.corpus.references[name]
    return [s for d in docs for s in d]


def buckets(result, a: str, b: str, top: int = 20) -> dict:
    from blonde_core.analysis.stats.units import metric_fn
    from blonde_core.analysis.diagnostics import _prf, entity_strings, feature_breakdown

    if result.config.granularity != "sentence":
        raise InputError("buckets need sentence-level matching (the scores were matched per document)",
                         code=InputError.Codes.SENTENCE_COUNTS)
    for n in (a, b):
        if n not in result.names:
            raise InputError(f"no system named {n!r} (systems: {', '.join(result.names)})", code=InputError.Codes.NAMES)
    ref_name = next(iter(result.corpus.references))
    lc = bool(result.config.lowercase)
    ref = [_tokens(s, lc) for s in _sentences(result, ref_name)]
    hyp = {n: [_tokens(s, lc) for s in _sentences(result, n)] for n in (a, b)}
    fn = metric_fn(result, "BlonDe")
    stats = {n: np.asarray(result.stats[n], float) for n in (a, b)}
    sent = {n: 100 * np.asarray(fn(stats[n]), float) for n in (a, b)}
    doc_ids = list(result.corpus.doc_ids)
    ud = result.unit_doc
    pos = np.arange(len(ud)) - np.searchsorted(ud, np.arange(len(doc_ids)))[ud]

    # length buckets: BlonDe of the bucket's sentences together
    lengths = np.array([len(t) for t in ref])
    lb = _bucket(lengths, LENGTH_EDGES)
    length_rows = []
    for i, lab in enumerate(_labels(LENGTH_EDGES, " words")):
        mask = lb == i
        row = {"bucket": lab, "sentences": int(mask.sum())}
        for n, key in ((a, "A"), (b, "B")):
            row[f"BlonDe {key}"] = nan_to_none(100 * float(fn(stats[n][mask].sum(0)))) if mask.any() else None
        row["A - B"] = None if row["BlonDe A"] is None or row["BlonDe B"] is None else row["BlonDe A"] - row["BlonDe B"]
        length_rows.append(row)

    # score buckets: sentences per band of their own BlonDe (undefined: no span on either side)
    score_rows = []
    sb = {n: _bucket(sent[n], SCORE_EDGES) for n in (a, b)}
    for i, lab in enumerate(_labels(SCORE_EDGES)):
        score_rows.append({"bucket": lab, "sentences A": int(((sb[a] == i) & ~np.isnan(sent[a])).sum()),
                           "sentences B": int(((sb[b] == i) & ~np.isnan(sent[b])).sum())})
    score_rows.append({"bucket": "undefined", "sentences A": int(np.isnan(sent[a]).sum()),
                       "sentences B": int(np.isnan(sent[b]).sum())})
    diff = sent[a] - sent[b]
    ok = ~np.isnan(diff)
    db = _bucket(diff[ok], DIFF_EDGES)
    diff_names = ["A worse by more than 20", "A worse by 5 to 20", "within 5", "A better by 5 to 20",
                  "A better by more than 20"]
    diff_rows = [{"A - B": lab, "sentences": int((db == i).sum())} for i, lab in enumerate(diff_names)]
    diff_rows.append({"A - B": "undefined for A or B", "sentences": int((~ok).sum())})

    # word accuracy by the word's frequency in the reference
    freq = Counter(w for t in ref for w in t)
    fb_of = {}

    def fbucket(w):
        if w not in fb_of:
            fb_of[w] = int(_bucket([freq.get(w, 0)], FREQ_EDGES)[0])
        return fb_of[w]

    nb = len(FREQ_EDGES) + 1
    acc = {n: np.zeros((nb, 3)) for n in (a, b)}  # matched, system, reference
    for k, r in enumerate(ref):
        rc = Counter(r)
        for n in (a, b):
            hc = Counter(hyp[n][k])
            for w, c in rc.items():
                acc[n][fbucket(w), 2] += c
                acc[n][fbucket(w), 0] += min(c, hc.get(w, 0))
            for w, c in hc.items():
                acc[n][fbucket(w), 1] += c
    freq_labels = ["0 (not in the reference)"] + _labels(FREQ_EDGES)[1:]
    freq_rows = []
    for i, lab in enumerate(freq_labels):
        row = {"frequency": lab, "reference words": int(acc[a][i, 2])}
        for n, key in ((a, "A"), (b, "B")):
            f = _prf(*(float(v) for v in acc[n][i]))[2]  # matched, system, reference -> F (NaN: a side has none)
            row[f"F {key}"] = nan_to_none(100 * f)
            row[f"words {key}"] = int(acc[n][i, 1])
        row["A - B"] = None if row["F A"] is None or row["F B"] is None else row["F A"] - row["F B"]
        freq_rows.append(row)

    # n-grams of the reference matched by one and not the other
    right = {n: Counter() for n in (a, b)}
    in_ref: Counter = Counter()
    def grams(words):
        return Counter(tuple(words[i:i + k]) for k in NGRAM_ORDERS for i in range(len(words) - k + 1))

    for k, r in enumerate(ref):
        rc = grams(r)
        in_ref.update(rc)
        for n in (a, b):
            hc = grams(hyp[n][k])
            got = right[n]
            for g in rc.keys() & hc.keys():
                got[g] += min(rc[g], hc[g])
    rows = []
    for g in set(right[a]) | set(right[b]):
        x, y = right[a][g], right[b][g]
        if x != y:
            rows.append({"n-gram": " ".join(g), "n": len(g), "in reference": in_ref[g], "matched A": x,
                         "matched B": y, "ratio": (x + 1) / (y + 1)})
    a_better = sorted((r for r in rows if r["ratio"] > 1), key=lambda r: (-r["ratio"], -r["matched A"], r["n-gram"]))
    b_better = sorted((r for r in rows if r["ratio"] < 1), key=lambda r: (r["ratio"], -r["matched B"], r["n-gram"]))

    # discourse features and entity strings matched more by one than the other
    fa, fb = ({(r["category"], r["feature"]): r for r in feature_breakdown(result, n) if r["category"] != "ngram"}
              for n in (a, b))
    spans = [{"category": c, "feature": f, "reference": int(fa[(c, f)]["reference"]), "matched A": int(fa[(c, f)]["matched"]),
              "matched B": int(fb[(c, f)]["matched"]), "matched A - B": int(fa[(c, f)]["matched"] - fb[(c, f)]["matched"])}
             for (c, f) in fa if (c, f) in fb and fa[(c, f)]["matched"] != fb[(c, f)]["matched"]]
    if "entity" in result.config.categories:
        ea, eb = ({(r["group"], r["entity"]): r for r in entity_strings(result, n)} for n in (a, b))
        for key in sorted(set(ea) | set(eb)):
            ma = ea.get(key, {}).get("matched", 0)
            mb = eb.get(key, {}).get("matched", 0)
            if ma != mb:
                src = ea.get(key) or eb.get(key)
                spans.append({"category": "entity string", "feature": f"{src.get('as written', key[1])} ({key[0]})",
                              "reference": src.get("reference", 0), "matched A": ma, "matched B": mb,
                              "matched A - B": ma - mb})
    spans.sort(key=lambda r: (-abs(r["matched A - B"]), r["category"], str(r["feature"])))

    sentences = [{"document": doc_ids[int(d)], "sentence": int(p) + 1, "reference words": int(lengths[u]),
                  "BlonDe A": nan_to_none(float(sent[a][u])), "BlonDe B": nan_to_none(float(sent[b][u]))}
                 for u, (d, p) in enumerate(zip(ud, pos))]
    return {"signature": f"{result.signature}|buckets:{a}|{b}|tok:13a|ref:{ref_name}", "a": a, "b": b,
            "reference": ref_name, "length": length_rows, "score": score_rows, "score_difference": diff_rows,
            "frequency": freq_rows, "ngrams_a_better": a_better[:top], "ngrams_b_better": b_better[:top],
            "ngrams_differing": len(rows), "spans": spans[:top * 2], "sentences": sentences}
