"""Cross-sentence consistency views of one document (plain data for the UI).

* entity threads: every reference entity and, sentence by sentence, the string
  the system used for it (matched on the keys the score uses; shown as written, in the
  text's own case: `entity_shown`, `system_shown`).  Alignment heuristic (stated in the UI): in the same
  sentence (the same document at document granularity), an identical system
  entity of the same group wins; otherwise the system entity (any group) with the
  highest similarity - token overlap (Jaccard on lowercased words) or character
  similarity (difflib ratio), whichever is higher - if it reaches 0.3; otherwise
  the entity is reported as missing in that sentence.
* pronoun threads: the gendered pronouns of every sentence, reference against
  systems, mismatches marked.
* tense timeline: the tense profile of every sentence (past, present, future /
  modal, other verb forms), so tense drift shows at a glance.
"""
from __future__ import annotations

import difflib
from collections import Counter

from blonde_core.metric.features import entities, pronoun_tokens
from blonde_core.annotation.pipeline import prepare

MIN_SIMILARITY = 0.3
# the timeline's groups of tense features (the language pack's tense.groups map features to them);
# the first three are finite, and a sentence's dominant tense is one of them
GROUP_ORDER = ["past", "present", "modal/future", "base form", "gerund"]
FINITE = ("past", "present", "modal/future")


def _docs(result, name):
    return result.corpus.systems.get(name) or result.corpus.references[name]


def _sentences(result, name, doc_index):
    table, lc = result.table, result.config.tag_lowercase
    out = []
    for raw in _docs(result, name)[doc_index]:
        t = prepare(raw, lc)
        out.append((t, table.records[table.index[t]]))
    return out


def _as_written(result, name, doc_index) -> list[str]:
    """Each sentence as written (stripped, not lowercased): what a thread shows entities in."""
    return [raw.strip() for raw in _docs(result, name)[doc_index]]


def _shown(written: str, prepared: str, s: int, e: int) -> str:
    """The span (s, e) of the prepared (maybe lowercased) text in the text's own case; the prepared
    text where lowercasing changed the length (a rare character), so offsets no longer agree."""
    return written[s:e] if len(written) == len(prepared) else prepared[s:e]


def similarity(a: str, b: str) -> float:
    ta, tb = set(a.lower().split()), set(b.lower().split())
    jac = len(ta & tb) / len(ta | tb) if ta | tb else 0.0
    return max(jac, difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio())


def entity_threads(result, doc_index: int, system: str, reference: str | None = None) -> list[dict]:
    pack, fold = result.table.pack, result.table.fold
    ref = reference or next(iter(result.corpus.references))
    rs = _sentences(result, ref, doc_index)
    ss = _sentences(result, system, doc_index)
    rw, sw = _as_written(result, ref, doc_index), _as_written(result, system, doc_index)
    aligned = result.config.granularity == "sentence" and len(rs) == len(ss)
    threads: dict = {}
    shown: dict = {}  # (group, key) -> the entity as the system wrote it (its first occurrence)
    shown_at: dict = {}  # (sentence, (group, key)) -> as written in that sentence
    for k, (st_, srec) in enumerate(ss):
        for g, key, s0, e0 in entities(srec, st_, pack, fold):
            text = _shown(sw[k], st_, s0, e0)
            shown.setdefault((pack.entity_groups[g], key), text)
            shown_at.setdefault((k, (pack.entity_groups[g], key)), text)
    for i, (t, rec) in enumerate(rs):
        ref_ents = [(pack.entity_groups[g], key, _shown(rw[i], t, s0, e0)) for g, key, s0, e0 in entities(rec, t, pack, fold)]
        if aligned:
            pool = [(pack.entity_groups[g], key) for g, key, _, _ in entities(ss[i][1], ss[i][0], pack, fold)]
        else:
            pool = [(pack.entity_groups[g], key) for st, srec in ss for g, key, _, _ in entities(srec, st, pack, fold)]
        available = list(pool)
        for group, key, written in ref_ents:
            th = threads.setdefault((group, key), {"entity": key, "entity_shown": written, "group": group,
                                                   "occurrences": []})
            choice, score = None, 0.0
            if (group, key) in available:
                choice, score = (group, key), 1.0
            else:
                for cand in available:
                    sim = similarity(key, cand[1])
                    if sim > score:
                        choice, score = cand, sim
                if score < MIN_SIMILARITY:
                    choice = None
            if choice is not None and aligned:
                available.remove(choice)
            th["occurrences"].append({"sentence": i + 1, "system": choice[1] if choice else None,
                                      "system_shown": (shown_at.get((i, choice)) if aligned else None)
                                      or shown.get(choice, choice[1]) if choice else None,
                                      "exact": choice is not None and choice[1] == key,
                                      "similarity": round(score, 3) if choice else 0.0})
    out = []
    for th in threads.values():
        used = [o["system"] for o in th["occurrences"]]
        renderings = sorted({u for u in used if u is not None})
        th["renderings"] = renderings
        th["missing"] = sum(u is None for u in used)
        th["consistent"] = len(renderings) <= 1 and th["missing"] == 0 and all(o["exact"] for o in th["occurrences"])
        th["inconsistent_renderings"] = len(renderings) > 1
        out.append(th)
    out.sort(key=lambda th: (th["consistent"], -len(th["occurrences"]), th["entity"]))
    return out


def pronoun_threads(result, doc_index: int, systems: list[str], reference: str | None = None) -> list[dict]:
    pack = result.table.pack
    ref = reference or next(iter(result.corpus.references))
    names = [ref] + [s for s in systems if s != ref]
    per = {n: _sentences(result, n, doc_index) for n in names}
    n_rows = max(len(v) for v in per.values())
    rows = []
    for i in range(n_rows):
        row = {"sentence": i + 1, "texts": {}, "pronouns": {}, "mismatch": {}}
        for n in names:
            if i < len(per[n]):
                t, rec = per[n][i]
                prons = [(rec["w"][k], pack.pronoun_classes[c])
                         for k, cls in pronoun_tokens(rec["w"], pack, rec.get("m")) for c in cls]
            else:
                t, prons = "", []
            row["texts"][n] = t
            row["pronouns"][n] = prons
        ref_classes = Counter(c for _, c in row["pronouns"][ref] if c in pack.gendered)
        for n in names[1:]:
            sys_classes = Counter(c for _, c in row["pronouns"][n] if c in pack.gendered)
            row["mismatch"][n] = sys_classes != ref_classes
        rows.append(row)
    return rows


def tense_timeline(result, doc_index: int, systems: list[str], reference: str | None = None) -> dict:
    """{name: [{"sentence", "counts": {group: n}, "dominant": group or "none"}]}."""
    ref = reference or next(iter(result.corpus.references))
    names = [ref] + [s for s in systems if s != ref]
    pack = result.table.pack
    out = {}
    for n in names:
        seq = []
        for i, (t, rec) in enumerate(_sentences(result, n, doc_index)):
            feats = [pack.tense_tags[fi] for _, fi in pack.tense_tokens(rec)]
            c = Counter(pack.tense_groups[f] for f in feats if f in pack.tense_groups)
            finite = {g: c[g] for g in FINITE if c[g]}
            dominant = max(finite, key=lambda g: (finite[g], -GROUP_ORDER.index(g))) if finite else (
                "other verbs" if c else "no verb")
            seq.append({"sentence": i + 1, "counts": dict(c), "dominant": dominant})
        out[n] = seq
    return out


def tense_legend(pack) -> dict:
    """{timeline group: [(tense feature, its description)]} in GROUP_ORDER, from the language pack."""
    out: dict = {}
    for f in pack.tense_tags:
        g = pack.tense_groups.get(f)
        if g is not None:
            out.setdefault(g, []).append((f, pack.tense_descriptions.get(f, f)))
    return {g: out[g] for g in sorted(out, key=lambda g: GROUP_ORDER.index(g) if g in GROUP_ORDER else 99)}
