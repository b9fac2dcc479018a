"""The seed papers' other metrics, from the same annotations and the same
per-unit sufficient-statistics design as BlonDe (so they resample too).

* Otem / Utem (Yang et al. 2018, seed 001), equations 1-7: proportions of
  over-matched n-grams among the candidate's and of under-matched n-grams
  among the reference's, with their length penalties; multi-reference rules:
  the minimum over-match count, the minimum under-match and maximum reference
  count per n-gram, the closest-length reference for the length penalty.
  0-100 scale, LOWER IS BETTER; Otem with n up to 2 and Utem up to 4 by default.
* The early BlonD (Jiang et al. 2021, seed 000): recall-based "BlonD-recall"
  with its length penalty, "dBlonD-recall" (entities, tense, pronouns only), with
  the paper's tuned weights (tense MD .2, VBD .2, VBN .05, VBP .2, VBZ .15,
  VBG .05, VB .15; pronouns he .45, she .45, it .05, they .05; entities uniform);
  the distance-based "BlonD-dist" / "dBlonD-dist" with the alpha-norm (alpha 2;
  LOWER IS BETTER), combined with the arithmetic mean the paper allows (a
  geometric mean of distances is 0 as soon as one category is perfect); for
  several references, per category the reference giving the best value, as the
  paper describes.
* RC (Wong and Kit 2012): share of content words of a document that repeat an
  earlier content word of the same document.  LC needs WordNet, which no
  registry package here ships with its data, so LC is not offered.

Tokens, tags and entities are the BlonDe annotations (lowercased when the
lowercase flag is on).  Names never clash with the later paper's BlonD-d.
"""
from __future__ import annotations

import math

import numpy as np

from blonde_core.errors import InputError
from blonde_core.numbers import nan_to_none
from blonde_core.metric import registry
from blonde_core.metric.sufficient import _aggregate

ORDERS = 4
EARLY_CATS = ("entity", "tense", "pronoun", "1", "2", "3", "4")
COMPANIONS = registry.names("companion")  # what they are (direction, what each needs): metric/registry.py


def available(pack) -> tuple:
    """The companion metrics a language can give (the registry's `needs`): Otem and Utem always; the early
    BlonD with the pack's `early` weights; RC with its `rc` word lists."""
    return registry.available(pack, ("companion",))


def language_part(pack, part: str, metric: str) -> dict:
    """The language pack's word lists or weights for a companion metric (pack.json `early`, `rc`)."""
    got = getattr(pack, part)
    if not got:
        raise InputError(f"{metric} needs the language pack's '{part}' entry, which the {pack.name!r} pack does "
                         "not have", file=pack.source, code=InputError.Codes.LANGUAGE)
    return got


def _union(skc, rkcs):
    """Aligned counts over the union of composite keys: (keys, S (n,), R (K, n))."""
    parts = [skc[0]] + [r[0] for r in rkcs]
    keys = np.unique(np.concatenate(parts)) if any(len(p) for p in parts) else np.zeros(0, np.int64)
    S = np.zeros(len(keys))
    if len(skc[0]):
        S[np.searchsorted(keys, skc[0])] = skc[1]
    R = np.zeros((len(rkcs), len(keys)))
    for k, (rk, rc) in enumerate(rkcs):
        if len(rk):
            R[k, np.searchsorted(keys, rk)] = rc
    return keys, S, R


class CompanionStats:
    """Per-unit sufficient statistics of the companion metrics for one system.

    ou      (U, 4, 4): per n-gram order [over, cand, under, refmax]
    length  (U, 2): [candidate tokens, closest reference tokens]
    early   (U, K, 7, 4): per reference and early-BlonD category [matched, ref, dist^a, ref^a]
    rc      (U, 2): [repeated content words, content words]
    """

    def __init__(self, result, name: str, alpha: float = 2.0):
        table = result.table
        rows, units = result.segments[name]
        refs = [result.segments[r] for r in result.corpus.references]
        U = len(result.stats[name])
        K = len(refs)
        self.alpha = alpha
        self.ou = np.zeros((U, ORDERS, 4))
        self.early = np.zeros((U, K, len(EARLY_CATS), 4))
        lay = table.layout
        n_ent = len(table.pack.entity_groups)
        # n-grams (keyed columns after the entity groups)
        for o in range(ORDERS):
            csr = table.keyed[n_ent + o]
            skc = _agg(csr, rows, units)
            rkcs = [_agg(csr, r, u) for r, u in refs]
            keys, S, R = _union(skc, rkcs)
            unit = keys // max(csr.n_items, 1)
            over_k = np.where((S > R) & (R > 0), S - R, np.where((S > 1) & (R == 0), S - 1, 0.0))
            under_k = np.maximum(R - S, 0.0)
            self.ou[:, o, 0] = np.bincount(unit, over_k.min(0) if K else 0 * S, minlength=U)
            self.ou[:, o, 1] = np.bincount(unit, S, minlength=U)
            self.ou[:, o, 2] = np.bincount(unit, under_k.min(0) if K else 0 * S, minlength=U)
            self.ou[:, o, 3] = np.bincount(unit, R.max(0) if K else 0 * S, minlength=U)
            self._early_keyed(3 + o, unit, S, R, U)
        # entities: both groups, uniform weights, keyed by (group, text)
        e_units, e_S, e_R = [], [], []
        for g in range(n_ent):
            csr = table.keyed[g]
            keys, S, R = _union(_agg(csr, rows, units), [_agg(csr, r, u) for r, u in refs])
            e_units.append(keys // max(csr.n_items, 1))
            e_S.append(S)
            e_R.append(R)
        self._early_keyed(0, np.concatenate(e_units), np.concatenate(e_S), np.concatenate(e_R, axis=1)
                          if K else np.zeros((0, 0)), U)
        # dense: tense with the early weights (layout order), pronouns
        self.available = available(table.pack)
        # the early BlonD's tense and pronoun weights are the language's (without them: no early BlonD)
        early = table.pack.early or {"tense": {f: 0.0 for f in table.pack.tense_tags},
                                     "pronoun": [0.0] * len(table.pack.pronoun_classes)}
        tense_w = np.array([early["tense"][t] for t in table.pack.tense_tags])
        pron_w = np.array(early["pronoun"], dtype=float)
        dsl = {"tense": lay.cat_slices["tense"], "pronoun": lay.cat_slices["pronoun"]}
        dense_index = {c: i for i, c in enumerate(lay.dense_cols)}

        def dense(rws, uts, cat):
            cols = [dense_index[c] for c in range(dsl[cat].start, dsl[cat].stop)]
            d = table.dense[rws][:, cols].astype(float)
            out = np.zeros((U, len(cols)))
            np.add.at(out, uts, d)
            return out

        for ci, (cat, w) in ((1, ("tense", tense_w)), (2, ("pronoun", pron_w))):
            s_d = dense(rows, units, cat)
            for k, (r, u) in enumerate(refs):
                r_d = dense(r, u, cat)
                self._early_fill(ci, k, np.minimum(s_d, r_d) @ w, r_d @ w,
                                 ((w * np.abs(r_d - s_d)) ** alpha).sum(1), ((w * r_d) ** alpha).sum(1))
        # lengths: candidate tokens, closest reference per unit (ties: the shorter)
        c = self.ou[:, 0, 1]
        uni = table.keyed[n_ent]
        r_lens = np.stack([np.bincount(u[pos], cnt, minlength=U) for (r, u) in refs
                           for pos, _, cnt in [uni.gather(r)]]) if K else np.zeros((0, U))
        diff = np.abs(r_lens - c) + r_lens * 1e-9
        closest = r_lens[np.argmin(diff, axis=0), np.arange(U)] if K else np.zeros(U)
        self.length = np.stack([c, closest], axis=1)
        self.rc = _repetition(result, name, U) if "RC" in self.available else np.zeros((U, 2))

    def _early_keyed(self, ci, unit, S, R, U):
        a = self.alpha
        for k in range(R.shape[0]):
            self._early_fill(ci, k, np.bincount(unit, np.minimum(S, R[k]), minlength=U),
                             np.bincount(unit, R[k], minlength=U),
                             np.bincount(unit, np.abs(R[k] - S) ** a, minlength=U),
                             np.bincount(unit, R[k] ** a, minlength=U))

    def _early_fill(self, ci, k, m, r, d, e):
        self.early[:, k, ci, 0] = m
        self.early[:, k, ci, 1] = r
        self.early[:, k, ci, 2] = d
        self.early[:, k, ci, 3] = e


def _agg(csr, rows, units):
    pos, items, counts = csr.gather(rows)
    return _aggregate(units[pos], items, counts, csr.n_items)


def _repetition(result, name, U):
    """Per unit: content words that repeat an earlier content word of the same document."""
    table = result.table
    rows, units = result.segments[name]
    out = np.zeros((U, 2))
    doc_of_unit = result.unit_doc
    rc = language_part(table.pack, "rc", "RC")
    content, function_words = tuple(rc["content_tag_prefixes"]), set(rc["function_words"])
    seen: dict = {}
    for row, u in zip(rows.tolist(), units.tolist()):
        d = int(doc_of_unit[u])
        words = seen.setdefault(d, set())
        rec = table.records[row]
        for w, t in zip(rec["w"], rec["t"]):
            lw = w.lower()
            if not t.startswith(content) or not lw.isalpha() or lw in function_words:
                continue
            out[u, 1] += 1
            if lw in words:
                out[u, 0] += 1
            words.add(lw)
    return out


# --- scores from summed statistics ---------------------------------------------------

def _geo(values) -> float:
    v = [x for x in values if not math.isnan(x)]
    if not v:
        return float("nan")
    if any(x <= 0 for x in v):
        return 0.0
    return math.exp(sum(math.log(x) for x in v) / len(v))


def _mismatch(ou, n: int, num: int, den: int, lp: float) -> float:
    """100 * LP * geometric mean over orders 1..n of ou[:, num] / ou[:, den]."""
    ou = np.asarray(ou)
    g = _geo([ou[i, num] / ou[i, den] if ou[i, den] else float("nan") for i in range(n)])
    return float("nan") if math.isnan(g) else 100 * lp * g


def otem(ou, length, n: int = 2) -> float:
    """Equations 1-4: over-matched over candidate n-grams; LP penalises long candidates."""
    c, r = length
    if not c:
        return float("nan")
    return _mismatch(ou, n, 0, 1, 1.0 if c < r else math.exp(1 - r / c))


def utem(ou, length, n: int = 4) -> float:
    """Equations 1, 5-7: under-matched over reference n-grams; LP penalises short candidates."""
    c, r = length
    if not r:
        return float("nan")
    return _mismatch(ou, n, 2, 3, 1.0 if c > r else math.exp(1 - c / r))


def early_blond(early, length, alpha: float = 2.0) -> dict:
    """BlonD-recall, dBlonD-recall, BlonD-dist, dBlonD-dist from summed early stats (K, 7, 4)."""
    early = np.asarray(early)
    rec, dist = {}, {}
    for ci, cat in enumerate(EARLY_CATS):
        m, r, d, e = early[:, ci, 0], early[:, ci, 1], early[:, ci, 2], early[:, ci, 3]
        with np.errstate(divide="ignore", invalid="ignore"):
            rk = np.where(r > 0, m / np.where(r > 0, r, 1), np.nan)
            dk = np.where(e > 0, (d ** (1 / alpha)) / np.where(e > 0, e, 1) ** (1 / alpha), np.nan)
        rec[cat] = float(np.nanmax(rk)) if not np.all(np.isnan(rk)) else float("nan")
        dist[cat] = float(np.nanmin(dk)) if not np.all(np.isnan(dk)) else float("nan")
    c, r = length
    lp = math.exp(1 - c / r) if (r and c >= r) else 1.0
    disc = ("entity", "tense", "pronoun")
    return {"BlonD-recall": 100 * lp * _geo(rec.values()), "dBlonD-recall": 100 * _geo(rec[c_] for c_ in disc),
            "BlonD-dist": 100 * _mean(dist.values()), "dBlonD-dist": 100 * _mean(dist[c_] for c_ in disc),
            "categories": {"recall": rec, "dist": dist}}


def _mean(values) -> float:
    v = [x for x in values if not math.isnan(x)]
    return sum(v) / len(v) if v else float("nan")


def scores_from(cs: CompanionStats, sel=None, otem_n: int = 2, utem_n: int = 4) -> dict:
    """All companion scores (0-100) for the units selected (all by default)."""
    idx = slice(None) if sel is None else sel
    ou = cs.ou[idx].sum(0)
    length = cs.length[idx].sum(0)
    early = cs.early[idx].sum(0)
    rc = cs.rc[idx].sum(0)
    out = {"Otem": otem(ou, length, otem_n), "Utem": utem(ou, length, utem_n)}
    eb = early_blond(early, length, cs.alpha)
    out.update({k: eb[k] for k in ("BlonD-recall", "dBlonD-recall", "BlonD-dist", "dBlonD-dist")})
    out["RC"] = 100 * rc[0] / rc[1] if rc[1] else float("nan")
    return out


def companion_scores(result, names=None, metrics=COMPANIONS, per_doc: bool = False, otem_n: int = 2,
                     utem_n: int = 4, alpha: float = 2.0) -> dict:
    for name, n in (("Otem", otem_n), ("Utem", utem_n)):  # the statistics hold n-gram orders 1..ORDERS
        if not 1 <= n <= ORDERS:
            raise InputError(f"{name}'s largest n-gram order must be from 1 to {ORDERS}, not {n}",
                             code=InputError.Codes.SETTING)
    if not alpha > 0:
        raise InputError(f"BlonD-dist's alpha must be above 0, not {alpha}", code=InputError.Codes.SETTING)
    bad = [m for m in metrics if m not in COMPANIONS]
    if bad:
        raise InputError(f"unknown metric '{bad[0]}' (companion metrics: {', '.join(COMPANIONS)}; LC needs "
                         "WordNet, which is not installable here)", code=InputError.Codes.SETTING)
    ok = available(result.table.pack)
    missing = [m for m in metrics if m not in ok]
    if missing and metrics is not COMPANIONS:  # asked for by name: say why not
        part = registry.SPECS[missing[0]].needs.partition(".")[2]
        language_part(result.table.pack, part, missing[0])
    out = {}
    for name in names or result.names:
        cs = CompanionStats(result, name, alpha)
        allv = scores_from(cs, None, otem_n, utem_n)
        entry = {m: _clean(allv[m]) if m in ok else None for m in metrics}
        if per_doc:
            entry["documents"] = {}
            for di, d in enumerate(result.corpus.doc_ids):
                v = scores_from(cs, result.unit_doc == di, otem_n, utem_n)
                entry["documents"][d] = {m: _clean(v[m]) if m in ok else None for m in metrics}
        out[name] = entry
    return out


_clean = nan_to_none
