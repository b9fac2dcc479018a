"""WMT25's general MT release as the task published it (`wmt-conference/wmt25-general-mt`, folder data/): JSON
Lines, whole documents, paragraphs as segments.  A folder (or a zip of one, the folder at the top or up to two
levels down) holding:

    wmt25-genmt.jsonl              the test set: one document a line, {"doc_id", "domain", "src_lang", "tgt_lang",
                                   "src_text", "refs": {"refA": {"ref": ...}}} (refs may be empty: no reference)
    systems/NAME.jsonl             one system: {"doc_id", "hypothesis", "paragraphs_match"} a document
    automatic_scores/NAME.jsonl    its metrics: {"language_pair", "domain", "document_id",
                                   "metric_scores": {METRIC: [one score per paragraph]}} a document
    wmt25-genmt-humeval.jsonl      the human evaluation (humeval/04-collect_humeval.py writes it): one paragraph a
                                   line, {"doc_id": "DOC_#_K", "scores": {SYSTEM: {"human1", "errors1",
                                   "annotator1", "human2", "errors2", "annotator2"}}}: ESA scores 0-100 with error
                                   spans, two annotations ("human2": the second wave, the same items again)

A document id is "LP_#_DOMAIN_#_NAME" (LP as "en-cs_CZ"); its segments are its paragraphs, the text split at
each blank line ("\\n\\n", as humeval/01-prepare_waves.py splits it); a line break inside a paragraph reads as a
space (one character for one: the error spans' offsets stay).  `--lp en-cs` or `--lp en-cs_CZ` picks a pair.

What is not as it should be is said, never dropped without a word, and damage stays where it is (issue 65): a
system file with bytes that are not UTF-8 is read with them replaced (which lines, how many bytes), a line that is
not a JSON object is left out (the file and line named), an empty system is set aside, a document a system lacks is
scored as nothing translated; each in `damage`.  A system whose paragraphs do not match the reference's
(`paragraphs_match: false`, or another count) keeps its own paragraphs there and is re-segmented into the
reference's (Study.from_wmt: io/resegment.py), said; its automatic scores of such a document (per its own
paragraphs) are left out.  The test set and the human evaluation are the release's ground: a fault there is an
InputError naming the file and line.
"""
from __future__ import annotations

import math
import re
from collections import defaultdict

import numpy as np

from blonde_core.errors import InputError
from .corpus import Corpus
from .judgments import HumanScores, aggregate_segments, check_scale, scale_of

SEP = "_#_"  # WMT25's separator inside document and paragraph ids
TEST_SET = "wmt25-genmt.jsonl"
HUMEVAL = "humeval"  # in the human evaluation's file name (wmt25-genmt-humeval.jsonl)
GOLDS = ("human1", "human2")
_SYSTEM = re.compile(r"^(?P<top>(?:[^/]+/){0,2})systems/[^/]+\.jsonl$")


def _member_text(tree, rel: str) -> str:
    from .readers import decode_bytes

    f = tree.get(rel)
    return decode_bytes(f.data, f.name)


def wmt25_root(tree):
    """(the tree re-rooted at the folder holding systems/ and the test set, the test set's member, the human
    evaluation's member or None), or None when the tree is not WMT25's layout; a systems/ folder with no test set
    beside it, or several candidates, is an InputError saying which."""
    tops = sorted({m.group("top") for n in tree.names if (m := _SYSTEM.match(n))}, key=len)
    if not tops:
        return None
    top = tops[0]
    sub = type(tree)([n[len(top):] for n in tree.names if n.startswith(top)], lambda rel: tree._read(top + rel),
                     tree.label + ("/" + top.rstrip("/") if top else ""))
    own = [n for n in sub.names if "/" not in n and n.endswith(".jsonl")]
    tests = [n for n in own if HUMEVAL not in n]
    if len(tests) > 1:
        tests = [n for n in tests if n == TEST_SET] or tests
    if not tests:
        raise InputError(f"has systems/ but no test set beside it ({TEST_SET}: one document a line with doc_id, "
                         "src_text and refs), so WMT25's layout cannot be read", file=sub.label,
                         code=InputError.Codes.MALFORMED)
    if len(tests) > 1:
        raise InputError(f"holds {len(tests)} JSON Lines files that could be the test set ({', '.join(tests)}); keep "
                         f"one ({TEST_SET})", file=sub.label, code=InputError.Codes.NAMES)
    hum = sorted(n for n in own if HUMEVAL in n)
    if len(hum) > 1:
        raise InputError(f"holds {len(hum)} human evaluations ({', '.join(hum)}); keep one", file=sub.label,
                         code=InputError.Codes.NAMES)
    return sub, tests[0], (hum[0] if hum else None)


def _test_rows(tree, rel: str) -> list[tuple[int, dict]]:
    """(line, row) of every document of the test set, each checked: doc_id, src_text and refs as WMT25 gives them."""
    from .jsonsafe import loads

    out, seen = [], {}
    for k, line in enumerate(_member_text(tree, rel).split("\n"), 1):
        if not line.strip():
            continue
        row = loads(line, tree.name(rel), k)
        if not isinstance(row, dict):
            raise InputError("is not a JSON object", file=tree.name(rel), line=k, code=InputError.Codes.MALFORMED)
        for key, kind in (("doc_id", str), ("src_text", str)):
            if not isinstance(row.get(key), kind):
                raise InputError(f"has no \"{key}\" string (each line of WMT25's test set is a document with doc_id, "
                                 "src_text and refs)", file=tree.name(rel), line=k, code=InputError.Codes.MALFORMED)
        if row["doc_id"].count(SEP) < 2:
            raise InputError(f"doc_id {row['doc_id']!r} is not LP{SEP}DOMAIN{SEP}NAME", file=tree.name(rel), line=k,
                             code=InputError.Codes.MALFORMED)
        if not isinstance(row.get("refs", {}), dict):
            raise InputError("\"refs\" is not an object of references", file=tree.name(rel), line=k,
                             code=InputError.Codes.MALFORMED)
        if row["doc_id"] in seen:
            raise InputError(f"document {row['doc_id']!r} appears again (first on line {seen[row['doc_id']]})",
                             file=tree.name(rel), line=k, code=InputError.Codes.MALFORMED)
        seen[row["doc_id"]] = k
        out.append((k, row))
    if not out:
        raise InputError("is empty", file=tree.name(rel), code=InputError.Codes.EMPTY)
    return out


def _pair_of(doc_id: str) -> str:
    return doc_id.split(SEP, 1)[0]


def wmt25_pairs(tree, test_rel: str) -> list[str]:
    """The language pairs of the test set, as WMT25 writes them (en-cs_CZ)."""
    return sorted({_pair_of(r["doc_id"]) for _, r in _test_rows(tree, test_rel)})


def pairs_named(pairs: list[str], lp: str) -> list[str]:
    """The pairs `lp` names: itself when the folder writes it so, else every pair whose short form it is (en-cs for
    en-cs_CZ)."""
    return [lp] if lp in pairs else [p for p in pairs if p.split("_", 1)[0] == lp]


def resolve_pair(pairs: list[str], lp: str | None, label: str) -> str:
    """The pair asked for: WMT25's own code (en-cs_CZ) or its short form (en-cs) when only one pair has it; without
    one, the only pair there is."""
    if lp is None:
        if len(pairs) != 1:
            what = f"holds {len(pairs)} language pairs ({', '.join(pairs)}); choose one"
            raise InputError(f"{what} with --lp", file=label, code=InputError.Codes.OPTIONS,
                             page=f"{what} in the language-pair box")
        return pairs[0]
    short = pairs_named(pairs, lp)
    if len(short) == 1:
        return short[0]
    why = f"'{lp}' is {', '.join(short)}: name one" if short else f"has no pair '{lp}'"
    raise InputError(f"{why} (language pairs here: {', '.join(pairs)})", file=label, code=InputError.Codes.NAMES)


def paragraphs(text: str) -> list[str]:
    """A WMT25 text's segments: split at each blank line, a line break inside a paragraph read as one space."""
    return [p.replace("\r", " ").replace("\n", " ") for p in text.split("\n\n")]


def decode_counting(data: bytes) -> tuple[str, dict]:
    """UTF-8 text with every byte that is not UTF-8 replaced (U+FFFD), and {line: bytes replaced} (1-based)."""
    try:
        return data.decode("utf-8-sig"), {}
    except UnicodeDecodeError:
        pass
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    parts, bad, pos = [], defaultdict(int), 0
    while True:
        try:
            parts.append(data[pos:].decode("utf-8"))
            break
        except UnicodeDecodeError as exc:
            a, b = pos + exc.start, pos + exc.end
            parts.append(data[pos:a].decode("utf-8") + "\ufffd")
            bad[data[:a].count(b"\n") + 1] += b - a
            pos = b
    return "".join(parts), dict(bad)


def _jsonl_contained(tree, rel: str, damage: list, what: str):
    """(line, row) of a release file read with its damage contained: bytes that are not UTF-8 replaced and counted,
    a line that is not a JSON object left out; each said in `damage` (file, problem).  NUL and hostile JSON are
    left out the same way (jsonsafe's refusal, its message kept)."""
    from .jsonsafe import loads

    name = tree.name(rel)
    text, bad = decode_counting(tree.get(rel).data)
    if bad:
        lines = sorted(bad)
        damage.append({"file": name, "kind": "not UTF-8", "lines": lines, "bytes": sum(bad.values()),
                       "said": f"{what}: {sum(bad.values())} byte(s) that are not UTF-8 on line(s) "
                               f"{', '.join(map(str, lines[:10]))}{' ...' if len(lines) > 10 else ''}: read with "
                               "each replaced by U+FFFD"})
    rows = []
    for k, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            row = loads(line.replace("\x00", "\ufffd"), name, k)
        except InputError as exc:
            damage.append({"file": name, "kind": "not JSON", "lines": [k],
                           "said": f"{what}: line {k} left out ({exc.problem})"})
            continue
        if not isinstance(row, dict):
            damage.append({"file": name, "kind": "not JSON", "lines": [k],
                           "said": f"{what}: line {k} left out (not a JSON object)"})
            continue
        rows.append((k, row))
    return rows


def read_wmt25(tree, test_rel: str, hum_rel: str | None, lp: str | None, gold: str | None = None,
               lower_is_better=(), esa_common: bool = True):
    """WMT25's release (module doc) for one language pair -> the fields of io.wmt.WmtFolder (layout "WMT25 (JSON
    Lines)", which io/wmt.py makes of them); the systems whose paragraphs do not match in `misaligned` ({system:
    [document ids]}), for the caller to re-segment."""
    rows = _test_rows(tree, test_rel)
    test_name = tree.name(test_rel)
    lp = resolve_pair(sorted({_pair_of(r["doc_id"]) for _, r in rows}), lp, tree.label)
    mine = [(k, r) for k, r in rows if _pair_of(r["doc_id"]) == lp]
    ref_names = sorted({n for _, r in mine for n in r.get("refs") or {}})
    left_out: list = []
    if not ref_names:
        with_refs = sorted({_pair_of(r["doc_id"]) for _, r in rows if r.get("refs")})
        raise InputError(f"WMT25 released no reference for {lp} (refs is empty in all of its {len(mine)} documents); "
                         f"BlonDe scores against a reference (pairs with one: {', '.join(with_refs) or 'none'})",
                         file=test_name, code=InputError.Codes.MALFORMED)
    order, domains, refs, src, lines_of = [], {}, {n: [] for n in ref_names}, [], {}
    lacking = []
    for k, r in mine:
        given = r.get("refs") or {}
        texts = {}
        for n in ref_names:
            v = given.get(n)
            v = v.get("ref") if isinstance(v, dict) else v
            texts[n] = v if isinstance(v, str) else None
        if any(v is None for v in texts.values()):
            lacking.append(r["doc_id"])
            continue
        segs = {n: paragraphs(v) for n, v in texts.items()}
        n0 = len(segs[ref_names[0]])
        if any(len(v) != n0 for v in segs.values()):
            counts = ", ".join(str(len(v)) for v in segs.values())
            raise InputError(f"document {r['doc_id']!r}: its references have {counts} paragraphs; they must have as "
                             "many", file=test_name, line=k, code=InputError.Codes.COUNTS)
        d = r["doc_id"]
        order.append(d)
        domains[d] = str(r.get("domain") or d.split(SEP)[1])
        lines_of[d] = k
        for n in ref_names:
            refs[n].append(segs[n])
        src.append(paragraphs(r["src_text"]))
    if lacking:
        left_out.append((test_name, f"{len(lacking)} document(s) of {lp} without a reference ({', '.join(ref_names)}): "
                                    f"not scored ({', '.join(lacking[:3])}{' ...' if len(lacking) > 3 else ''})"))
    sizes = [len(x) for x in refs[ref_names[0]]]
    skipped: list = []
    if any(len(s) != n for s, n in zip(src, sizes)):
        bad = [d for d, s, n in zip(order, src, sizes) if len(s) != n]
        skipped.append((test_name, f"the source: {len(bad)} document(s) ({', '.join(bad[:3])}) have another number "
                                   "of paragraphs than the reference, so the source is not loaded"))
        src = None
    pos = {d: i for i, d in enumerate(order)}
    damage: list = []
    systems, files, missing, misaligned, missing_docs = {}, {}, {}, {}, {}
    for rel in tree.under("systems/"):
        if not rel.endswith(".jsonl"):
            continue
        name = rel[len("systems/"):-len(".jsonl")]
        what = f"system '{name}'"
        got = _jsonl_contained(tree, rel, damage, what)
        if not got:
            damage.append({"file": tree.name(rel), "kind": "empty", "lines": [],
                           "said": f"{what}: {'no line could be read' if tree.get(rel).data.strip() else 'empty'}; "
                                   "set aside"})
            continue
        docs: dict = {}
        flags: dict = {}
        for k, row in got:
            d, hyp = row.get("doc_id"), row.get("hypothesis")
            if not isinstance(d, str) or _pair_of(d) != lp:
                continue
            if not isinstance(hyp, str):
                damage.append({"file": tree.name(rel), "kind": "malformed", "lines": [k],
                               "said": f"{what}: line {k} has no \"hypothesis\" string; document {d!r} scored as "
                                       "nothing translated"})
                hyp = ""
            if d not in pos:
                if d not in lacking:
                    damage.append({"file": tree.name(rel), "kind": "unknown document", "lines": [k],
                                   "said": f"{what}: line {k} is document {d!r}, which the test set has not; left out"})
                continue
            if d in docs:
                damage.append({"file": tree.name(rel), "kind": "repeated document", "lines": [k],
                               "said": f"{what}: document {d!r} again on line {k} (first on line {docs[d][0]}); "
                                       "the first kept"})
                continue
            docs[d] = (k, hyp)
            flags[d] = row.get("paragraphs_match")
        if not docs:
            continue  # not in this pair
        if name in refs:
            left_out.append((tree.name(rel), f"not loaded as a system: '{name}' is the reference's name"))
            continue
        out, gone, moved, empty = [], [], [], 0
        for d, n in zip(order, sizes):
            if d not in docs:
                gone.append(d)
                out.append([""] * n)
                continue
            hyp = docs[d][1]
            if not hyp.strip():
                empty += 1
                out.append([""] * n)
                continue
            segs = paragraphs(hyp)
            if len(segs) != n:
                moved.append(d)
            out.append(segs)
        if gone:
            missing_docs[name] = gone
            damage.append({"file": tree.name(rel), "kind": "missing documents", "lines": [],
                           "said": f"{what}: {len(gone)} of the {len(order)} documents of {lp} missing "
                                   f"({', '.join(gone[:3])}{' ...' if len(gone) > 3 else ''}): scored as nothing "
                                   "translated"})
        if moved:
            misaligned[name] = moved
        said_false = [d for d in docs if flags.get(d) is False and d not in moved and d in pos]
        if said_false:
            skipped.append((tree.name(rel), f"{len(said_false)} document(s) marked paragraphs_match false with as many "
                                            "paragraphs as the reference: paired paragraph by paragraph"))
        systems[name] = out
        files[name] = tree.name(rel)
        missing[name] = empty
        if empty:
            skipped.append((tree.name(rel), f"{empty} document(s) with an empty hypothesis: scored as nothing "
                                            "translated"))
    if not systems:
        raise InputError(f"has no system output of {lp} under systems/ (besides what was set aside: "
                         f"{'; '.join(x['file'] + ': ' + x['said'] for x in damage) or 'nothing'})", file=tree.label,
                         code=InputError.Codes.MALFORMED)
    for name in ref_names:
        files[name] = test_name
    corpus = Corpus(order, refs, systems, src, None, "docids", files, test_name, 0,
                    missing_documents=missing_docs)
    corpus.check_names()
    metrics = _automatic_scores(tree, corpus, lp, misaligned, lower_is_better, damage, skipped)
    human, chosen, golds = None, None, {}
    if hum_rel is not None:
        human, chosen, golds = _human(tree, hum_rel, corpus, lp, gold, esa_common, skipped)
    elif gold is not None:
        raise InputError(f"has no human evaluation (*{HUMEVAL}*.jsonl), so --gold {gold} has nothing to choose",
                         file=tree.label, code=InputError.Codes.NAMES,
                         page=f"has no human evaluation (*{HUMEVAL}*.jsonl), so the human scores {gold!r} "
                              "in the form's box have nothing to choose")
    return dict(corpus=corpus, lp=lp, domains=domains, human=human, gold=chosen, golds=golds, metrics=metrics,
                skipped=skipped, missing=missing, left_out=left_out, damage=damage,
                misaligned=misaligned)


def _doc_key(lp: str, row: dict, known: dict) -> str | None:
    """The test set's document of an automatic-score row: LP_#_DOMAIN_#_document_id, else the one document of that
    pair and domain whose name ends in '_' + document_id (speech: 'vid_' + the video's id)."""
    dom, name = row.get("domain"), row.get("document_id")
    if not isinstance(dom, str) or not isinstance(name, str):
        return None
    d = f"{lp}{SEP}{dom}{SEP}{name}"
    return d if d in known else known.get((dom, name))


def _automatic_scores(tree, corpus: Corpus, lp: str, misaligned: dict, lower_is_better, damage: list,
                      skipped: list) -> dict:
    """automatic_scores/NAME.jsonl of the loaded systems -> {metric: ExternalMetric}: one score per paragraph, NaN
    where none (a document re-segmented, a list of another length, a value that is not a number: said)."""
    from .metric_scores import ExternalMetric, _layout

    n_seg, doc_of = _layout(corpus)
    start = np.concatenate([[0], np.cumsum([len(d) for d in next(iter(corpus.references.values()))])])
    index = {d: i for i, d in enumerate(corpus.doc_ids)}
    known: dict = dict.fromkeys(corpus.doc_ids)
    by_end: dict = defaultdict(list)
    for d in corpus.doc_ids:
        parts = d.split(SEP)
        tail = SEP.join(parts[2:])
        for k in range(1, len(tail)):
            if tail[k - 1] == "_":
                by_end[(parts[1], tail[k:])].append(d)
    for key, ds in by_end.items():
        if len(ds) == 1:
            known[key] = ds[0]
    seg: dict = defaultdict(dict)
    used: dict = defaultdict(list)
    for name in corpus.systems:
        rel = f"automatic_scores/{name}.jsonl"
        if not tree.has(rel):
            continue
        what = f"automatic scores of '{name}'"
        wrong, not_number, resegmented, unknown = [], 0, 0, 0
        for k, row in _jsonl_contained(tree, rel, damage, what):
            if row.get("language_pair") != lp:
                continue
            d = _doc_key(lp, row, known)
            if d is None:
                unknown += 1
                continue
            di = index[d]
            scores = row.get("metric_scores")
            if not isinstance(scores, dict):
                damage.append({"file": tree.name(rel), "kind": "malformed", "lines": [k],
                               "said": f"{what}: line {k} has no \"metric_scores\" object; left out"})
                continue
            for metric, vals in scores.items():
                arr = seg[metric].setdefault(name, np.full(n_seg, np.nan))
                if tree.name(rel) not in used[metric]:
                    used[metric].append(tree.name(rel))
                if d in misaligned.get(name, ()):
                    resegmented += 1
                    continue
                if d in corpus.missing_documents.get(name, ()):
                    continue  # a document the system file lacks (damage, said there): no score for nothing
                n = start[di + 1] - start[di]
                if not isinstance(vals, list) or len(vals) != n:
                    wrong.append((k, metric))
                    continue
                for j, v in enumerate(vals):
                    if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                        arr[start[di] + j] = float(v)
                    elif v is not None:
                        not_number += 1
        if wrong:
            skipped.append((tree.name(rel), f"{len(wrong)} score list(s) of another length than the document's "
                                            f"paragraphs (first: line {wrong[0][0]}, {wrong[0][1]}): left out"))
        if not_number:
            skipped.append((tree.name(rel), f"{not_number} score(s) that are not numbers: read as missing"))
        if resegmented:
            skipped.append((tree.name(rel), f"{resegmented} score list(s) of re-segmented documents (one score per "
                                            "paragraph of the system's own): left out"))
        if unknown:
            skipped.append((tree.name(rel), f"{unknown} line(s) of {lp} documents the loaded test set has not: "
                                            "left out"))
    return {m: ExternalMetric(m, n_seg, doc_of, seg=dict(per), higher_is_better=m not in lower_is_better,
                              files=used[m]) for m, per in sorted(seg.items())}


def _spans(raw, text: str, rater: str, file: str, line: int) -> list[dict]:
    """Appraise's error spans ({"start_i", "end_i", "severity"}) as the core holds them: offsets into the loaded
    paragraph (a span past its end keeps no position), the annotation named as the rater."""
    if raw in (None, ""):
        return []
    if not isinstance(raw, list):
        raise InputError(f"errors of {rater} is not a list of error spans", file=file, line=line,
                         code=InputError.Codes.MALFORMED)
    out = []
    for e in raw:
        if not isinstance(e, dict):
            raise InputError(f"an error span of {rater} is not an object", file=file, line=line,
                             code=InputError.Codes.MALFORMED)
        a, b = e.get("start_i", e.get("start")), e.get("end_i", e.get("end"))
        ok = all(isinstance(x, int) and not isinstance(x, bool) for x in (a, b)) and 0 <= a <= b <= len(text)
        sev = str(e.get("severity") or "").lower()
        out.append({"side": "target", "start": a if ok else None, "end": b if ok else None,
                    "text": text[a:b] if ok else "", "category": "ESA error",
                    "severity": sev.capitalize() if sev in ("minor", "major") else (sev or "unknown"), "rater": rater})
    return out


def _human(tree, rel: str, corpus: Corpus, lp: str, gold: str | None, esa_common: bool, skipped: list):
    """The human evaluation of the loaded pair -> (HumanScores of the gold annotation, its name, {name: levels}):
    segment scores are the gold's (human1 unless --gold human2); both annotations kept per segment in
    rater_scores ({"human1": ..., "human2": ...}) and their error spans tagged with the annotation, so that the
    two can be compared (Study.annotator_agreement); systems as the mean of their judged paragraphs (with
    esa_common, of those judged for every system, WMT24's way)."""
    from .jsonsafe import loads

    name = tree.name(rel)
    g = (gold or "human1").lower().removeprefix("esa-")
    if g not in GOLDS:
        raise InputError(f"has no human scores named '{gold}' (WMT25: human1, human2)", file=name,
                         code=InputError.Codes.NAMES)
    other = GOLDS[1 - GOLDS.index(g)]
    texts = {**corpus.references, **corpus.systems}
    ref0 = next(iter(corpus.references.values()))
    places = {(d, k): (di, k) for di, d in enumerate(corpus.doc_ids) for k in range(len(ref0[di]))}
    vals: dict = {}
    raters: dict = {}
    spans: dict = defaultdict(list)
    targets: dict = {}
    found: dict = defaultdict(set)
    outside = gone = 0
    unjudged: set = set()
    scale = scale_of("esa")
    for k, line in enumerate(_member_text(tree, rel).split("\n"), 1):
        if not line.strip():
            continue
        row = loads(line, name, k)
        if not isinstance(row, dict) or not isinstance(row.get("doc_id"), str):
            raise InputError("is not an object with a \"doc_id\" string", file=name, line=k,
                             code=InputError.Codes.MALFORMED)
        doc, _, para = row["doc_id"].rpartition(SEP)
        if _pair_of(doc) != lp:
            continue
        if not para.isdigit() or (doc, int(para)) not in places:
            outside += 1
            continue
        di, j = places[(doc, int(para))]
        scores = row.get("scores") or {}
        if not isinstance(scores, dict):
            raise InputError("\"scores\" is not an object of systems", file=name, line=k,
                             code=InputError.Codes.MALFORMED)
        for s, by in scores.items():
            if not isinstance(by, dict):
                raise InputError(f"the scores of {s!r} are not an object", file=name, line=k,
                                 code=InputError.Codes.MALFORMED)
            if s not in texts:
                unjudged.add(s)
                continue
            if doc in corpus.missing_documents.get(s, ()):
                gone += 1  # a judgment of a document the system file lacks (damage): it rates no loaded text
                continue
            key = (s, doc, str(j + 1))
            text = texts[s][di][j] if j < len(texts[s][di]) else ""
            judged_text = (row.get("tgt_text") or {}).get(s) if isinstance(row.get("tgt_text"), dict) else None
            if isinstance(judged_text, str):  # the text the spans point into, as judged (Appraise's line breaks)
                text = judged_text
            for ann in GOLDS:
                v = by.get(ann)
                if v is None:
                    continue
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise InputError(f"{ann} of {s!r} is not a number ({v!r})", file=name, line=k,
                                     code=InputError.Codes.JUDGMENTS)
                check_scale(float(v), scale, name, k, f"{ann} of {s!r}")
                found[ann].add("seg")
                raters.setdefault(key, {})[ann] = float(v)
                spans[key].extend(_spans(by.get(f"errors{ann[-1]}"), text, ann, name, k))
                if ann == g:
                    vals[key] = [float(v)]
            if by.get(f"errors{g[-1]}"):
                targets[key] = text
    if not vals:
        raise InputError(f"holds no {g} score of a loaded text of {lp} (loaded: {', '.join(texts)})", file=name,
                         code=InputError.Codes.JUDGMENTS)
    judged: dict = defaultdict(set)
    for (s, d, seg) in vals:
        judged[s].add((d, seg))
    common = set.intersection(*judged.values()) if esa_common else None
    if common is not None and not common:
        common = None
        skipped.append((name, "no paragraph is judged for every system: each system scored over its own judged ones"))
    hs = HumanScores(f"esa-{g}", True, kind=f"WMT25 human evaluation (ESA, 0-100 with error spans): {g} used, {other} "
                                            "kept as a second annotation"
                     + (f"; systems compared on the {len(common):,} paragraphs judged for all {len(judged)} of them"
                        if common is not None else "; every judged paragraph used"))
    aggregate_segments(hs, vals, common)
    hs.rater_scores = raters
    hs.error_spans = {k: v for k, v in spans.items() if v}
    hs.targets = targets
    if corpus.source is not None:
        hs.seg_chars = {(d, str(j + 1)): len(corpus.source[di][j]) for (d, j), (di, _) in places.items()}
    for key, by in raters.items():
        if g not in by:
            continue
        mine = [e for e in hs.error_spans.get(key, []) if e["rater"] == g]
        for e in mine:
            hs.errors.append((key[0], key[1], key[2], g, "ESA error", e["severity"],
                              {"minor": 1.0, "major": 5.0}.get(e["severity"].lower(), 0.0)))
            hs.error_meta.append({})
        if not mine:
            hs.errors.append((key[0], key[1], key[2], g, "No-error", "no-error", 0.0))
            hs.error_meta.append({})
    n_all = corpus.n_segments
    hs.coverage = {s: {"segments_rated": len(judged[s]), "segments": n_all,
                       "segments_compared": hs.n_segments.get(s, 0)} for s in judged}
    hs.compared = common
    hs.details = {"pair": lp, "common": esa_common, "segments_common": len(common) if common is not None else None,
                  "systems_judged": len(judged), "gold_rater": g, "second_annotation": other,
                  "items_with_both": sum(1 for by in raters.values() if len(by) == 2), "files": [name]}
    if unjudged:
        skipped.append((name, f"judgments of {len(unjudged)} text(s) not loaded ({', '.join(sorted(unjudged)[:5])})"))
    if outside:
        skipped.append((name, f"{outside} paragraph(s) of {lp} outside the loaded documents: not used"))
    if gone:
        skipped.append((name, f"{gone} judgment(s) of documents a system file lacks: not used"))
    return hs, f"esa-{g}", {f"esa-{a}": found[a] for a in GOLDS if found[a]}


__all__ = ["decode_counting", "paragraphs", "read_wmt25", "resolve_pair", "wmt25_pairs", "wmt25_root"]
