"""A slow, independent re-statement of how the published `blonde` 0.1.4 package
scores (shared/spec/blonde-0.1.4-behaviour.md), used only as a test oracle.

It deliberately shares no code with `blonde_core`: it runs spaCy the package's
way (full pipeline, `disable=["parser"]`), counts with `collections.Counter`
per sentence, takes the element-wise max over references, sums over the
corpus and applies the package's smoothing and floored geometric mean.
"""
from __future__ import annotations

import math
from collections import Counter

TENSE = ("VBD", "VBN", "VBP", "VBZ", "VBG", "VB", "MD")
PRON = {
    "masculine": ["he", "his", "him", "He", "His", "Him", "himself", "Himself"],
    "feminine": ["she", "her", "hers", "She", "Her", "Hers", "herself", "Herself"],
    "neuter": ["it", "its", "It", "Its", "itself", "Itself"],
    "epicene": ["they", "their", "them", "They", "Their", "Them", "themselves", "Themselves"],
}
DM = {
    "comparison": ["but", "while", "however", "although", "though", "still", "yet", "whereas",
                   "on the other hand", "in contrast", "by contrast", "by comparison", "conversely"],
    "cause": ["if", "because", "so", "since", "thus", "hence", "as a result", "therefore", "thereby",
              "accordingly", "consequently", "in consequence", "for this reason"],
    "conjunction": ["also", "in addition", "moreover", "additionally", "besides", "else,", "plus"],
    "asynchronous": ["when", "after", "then", "before", "until", "later", "once", "afterward", "next"],
    "synchronous": ["meantime", "meanwhile", "simultaneously"],
}
NONPERSON = {"NORP", "GPE", "FAC", "ORG", "WORK_OF_ART"}
WEIGHTS = {"tense": [1 / 7] * 7, "pronoun": [0.5, 0.5, 0, 0], "entity": [1, 0], "dm": [0.2] * 5,
           "ngram": [0.25] * 4}


def sentence_counts(doc) -> dict:
    toks = [t.text for t in doc]
    tags = [t.tag_ for t in doc]
    c = {"tense": Counter(t for t in tags if t in TENSE)}
    pr = Counter()
    for w in toks:
        for k, words in PRON.items():
            if w in words:
                pr[k] += 1
    c["pronoun"] = pr
    person, nonperson = Counter(), Counter()
    for e in doc.ents:
        text = e.text[:-2] if e.text[-2:] == "\u2019s" else e.text
        if e.label_ == "PERSON":
            person[text] += 1
        elif e.label_ in NONPERSON:
            nonperson[text] += 1
    c["entity"] = [person, nonperson]
    low = [t.lower() for t in toks]
    dm = Counter()
    for k, markers in DM.items():
        for m in markers:
            m = m.split(" ")
            dm[k] += sum(1 for i in range(len(low)) if low[i:i + len(m)] == m)
    c["dm"] = dm
    c["ngram"] = [Counter(" ".join(toks[i:i + n]) for i in range(len(toks) - n + 1)) for n in (1, 2, 3, 4)]
    return c


def annotate(nlp, sentences, lowercase=True):
    texts = [s.strip() for s in sentences]
    if lowercase:
        texts = [t.lower() for t in texts]
    return [sentence_counts(d) for d in nlp.pipe(texts, disable=["parser"])]


def max_refs(ref_counts: list) -> dict:
    out = {}
    for cat in ("tense", "pronoun", "dm"):
        keys = set().union(*[r[cat] for r in ref_counts])
        out[cat] = Counter({k: max(r[cat][k] for r in ref_counts) for k in keys})
    for cat, n in (("entity", 2), ("ngram", 4)):
        out[cat] = []
        for i in range(n):
            keys = set().union(*[r[cat][i] for r in ref_counts])
            out[cat].append(Counter({k: max(r[cat][i][k] for r in ref_counts) for k in keys}))
    return out


def _safe(a, b):
    return a / b if b != 0 else float("nan")


def _f1(r, p):
    if not math.isnan(r) and not math.isnan(p):
        # the package divides 0 by 0 here (NaN) when R = P = 0; BlonDe Studio reports F1 = 0 (issue 48): the
        # one departure from the package, on a category's own F1, which no aggregate uses (they combine R and P)
        return 0.0 if r + p == 0 else _safe(2 * r * p, r + p)
    return r


def _geo(values):
    vals = [v for v in values if not math.isnan(v)]
    if not vals:
        return float("nan")
    return math.exp(sum(math.log(max(v, 1e-5)) for v in vals) / len(vals))


def score(sys_counts: list, ref_counts: list) -> dict:
    """sys_counts: per sentence; ref_counts: per sentence, already max-aggregated."""
    num, dr, ds = Counter(), Counter(), Counter()
    for s, r in zip(sys_counts, ref_counts):
        for cat, feats in (("tense", TENSE), ("pronoun", list(PRON)), ("dm", list(DM))):
            for w, f in zip(WEIGHTS[cat], feats):
                num[cat] += w * min(s[cat][f], r[cat][f])
                dr[cat] += w * r[cat][f]
                ds[cat] += w * s[cat][f]
        for cat, keyname in (("entity", None), ("ngram", "n")):
            for i, w in enumerate(WEIGHTS[cat]):
                key = cat if keyname is None else i + 1
                for item in set(s[cat][i]) | set(r[cat][i]):
                    num[key] += w * min(s[cat][i][item], r[cat][i][item])
                    dr[key] += w * r[cat][i][item]
                    ds[key] += w * s[cat][i][item]
    recalls, precisions = {}, {}
    for cat in ("tense", "pronoun", "entity", "dm"):
        recalls[cat] = _safe(num[cat], dr[cat])
        precisions[cat] = _safe(num[cat], ds[cat])

    def smooth(total):
        vals = [0.0] * 4
        k = 1.0
        for n in range(1, 5):
            if total[n] == 0:
                break
            if num[n] == 0:
                k *= 2
                vals[n - 1] = 1.0 / (k * total[n])
            else:
                vals[n - 1] = num[n] / total[n]
        return vals

    for n, (rv, pv) in enumerate(zip(smooth(dr), smooth(ds)), 1):
        recalls[str(n)] = rv
        precisions[str(n)] = pv
    out = {"categories": {c: {"R": recalls[c], "P": precisions[c], "F1": _f1(recalls[c], precisions[c])}
                          for c in recalls}}
    for name, keys in (("BlonDe", list(recalls)), ("BlonD-d", ["tense", "pronoun", "entity", "dm"])):
        R = _geo([recalls[k] for k in keys])
        P = _geo([precisions[k] for k in keys])
        out[name] = {"R": R, "P": P, "F1": _f1(R, P)}
    return out
