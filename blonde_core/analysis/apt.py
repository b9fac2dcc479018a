"""APT: accuracy of pronoun translation (Miculicich Werlen and Popescu-Belis 2017, seed 002).

For every source pronoun of the language pair, find its translation in the
reference and in the candidate through word alignments (Pharaoh "i-j" links,
0-based, over whitespace tokens), improved by the paper's heuristics:

1. a pronoun among the aligned target words is the alignment;
2. otherwise (unaligned, aligned to non-pronouns), the target positions aligned
   to the source words just before and after the pronoun are markers, and the
   range reaches one word beyond them on each side;
3. the target pronouns in that range are candidates;
4. the one closest to the centre of the range is chosen.

Each (reference, candidate) pair falls in one of six cases: 1 identical,
2 equivalent, 3 different, 4 candidate translation not found, 5 reference
translation not found, 6 both not found.  APT = sum of w_i n_i / sum of n_i over
the cases not discarded (defaults w1 = 1, w2 = 0.5, others 0; nothing discarded).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import accumulate

from blonde_core.errors import InputError


@dataclass(frozen=True)
class PairConfig:
    name: str
    source_pronouns: frozenset
    target_groups: tuple  # tuple of frozensets: forms that count as identical
    equivalent: frozenset  # frozenset of frozensets {group index a, group index b}
    source_tokenizer: str = "whitespace"
    target_tokenizer: str = "latin"
    group_of: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "group_of", {w: i for i, g in enumerate(self.target_groups) for w in g})

    def is_target_pronoun(self, w: str) -> bool:
        return w.lower() in self.group_of


def _pair(name, src, groups, equivalent_names, src_tok="whitespace", trg_tok="latin"):
    groups = tuple(frozenset(g) for g in groups)
    index = {w: i for i, g in enumerate(groups) for w in g}
    eq = frozenset(frozenset((index[a], index[b])) for a, b in equivalent_names)
    return PairConfig(name, frozenset(src), groups, eq, src_tok, trg_tok)


PAIRS = {
    # English-French, the paper's Table 2: identical {ce, c'} and {ça, ç', cela}; equivalent ce~il, ce~ça
    "en-fr": _pair("en-fr", {"it", "they"},
                   [{"il"}, {"elle"}, {"ils"}, {"elles"}, {"ce", "c'"}, {"ça", "ç'", "cela"}, {"on"},
                    {"le"}, {"la"}, {"l'"}, {"les"}, {"lui"}, {"leur"}, {"eux"}, {"y"}, {"en"}],
                   [("ce", "il"), ("ce", "ça")]),
    # Chinese-English: 他/她/它 and plurals; English forms of one pronoun count as identical;
    # singular 'they' is accepted as equivalent to he and she
    "zh-en": _pair("zh-en", {"他", "她", "它", "他们", "她们", "它们"},
                   [{"he", "him", "his", "himself"}, {"she", "her", "hers", "herself"}, {"it", "its", "itself"},
                    {"they", "them", "their", "theirs", "themselves"}],
                   [("he", "they"), ("she", "they")], src_tok="zh"),
}
DEFAULT_WEIGHTS = (1.0, 0.5, 0.0, 0.0, 0.0, 0.0)


def tokenize(text: str, kind: str, keep: frozenset = frozenset()) -> list[str]:
    """whitespace; latin (words, elided forms like c' l' qu', punctuation); zh (characters,
    keeping the pair's multi-character pronouns and ASCII runs whole)."""
    if kind == "whitespace":
        return text.split()
    if kind == "latin":
        return re.findall(r"[^\W\d_]+['\u2019]|\w+|[^\w\s]", text)
    if kind == "zh":
        out, i = [], 0
        longest = sorted(keep, key=len, reverse=True)
        while i < len(text):
            if text[i].isspace():
                i += 1
                continue
            for p in longest:
                if text.startswith(p, i):
                    out.append(p)
                    i += len(p)
                    break
            else:
                m = re.match(r"[A-Za-z0-9_]+", text[i:])
                if m:
                    out.append(m.group())
                    i += len(m.group())
                else:
                    out.append(text[i])
                    i += 1
        return out
    raise InputError(f"unknown tokenizer '{kind}'", code=InputError.Codes.SETTING)


def parse_links(line: str, file: str = "alignment", lineno: int | None = None) -> dict:
    links: dict[int, list[int]] = {}
    for item in line.split():
        m = re.fullmatch(r"(\d+)[-:](\d+)", item)
        if not m:
            raise InputError(f"'{item}' is not an 'i-j' alignment link", file=file, line=lineno, code=InputError.Codes.MALFORMED)
        links.setdefault(int(m.group(1)), []).append(int(m.group(2)))
    return links


def find_translation(pos: int, src_len: int, links: dict, target: list[str], pair: PairConfig,
                     heuristics: bool = True) -> int | None:
    """Index of the target pronoun translating source position pos, or None."""
    aligned = sorted(j for j in links.get(pos, []) if 0 <= j < len(target))
    prons = [j for j in aligned if pair.is_target_pronoun(target[j])]
    if prons:
        return prons[0]
    if not heuristics:
        return None
    markers = [j for p in (pos - 1, pos + 1) if 0 <= p < src_len for j in links.get(p, []) if 0 <= j < len(target)]
    markers += aligned
    if not markers:
        return None
    lo, hi = max(min(markers) - 1, 0), min(max(markers) + 1, len(target) - 1)
    centre = (lo + hi) / 2
    cands = [j for j in range(lo, hi + 1) if pair.is_target_pronoun(target[j])]
    if not cands:
        return None
    return min(cands, key=lambda j: (abs(j - centre), j))


def classify(ref_word: str | None, cand_word: str | None, pair: PairConfig) -> int:
    if ref_word is None and cand_word is None:
        return 6
    if ref_word is None:
        return 5
    if cand_word is None:
        return 4
    gr, gc = pair.group_of[ref_word.lower()], pair.group_of[cand_word.lower()]
    if gr == gc:
        return 1
    if frozenset((gr, gc)) in pair.equivalent:
        return 2
    return 3


def apt_cases(source: list[list[str]], reference: list[list[str]], candidate: list[list[str]], ref_links: list,
              cand_links: list, pair: PairConfig, heuristics: bool = True) -> list[dict]:
    """Per source pronoun occurrence: sentence, source word, reference and candidate words, case."""
    out = []
    for i, (src, ref, cand) in enumerate(zip(source, reference, candidate)):
        for pos, w in enumerate(src):
            if w.lower() not in pair.source_pronouns and w not in pair.source_pronouns:
                continue
            jr = find_translation(pos, len(src), ref_links[i], ref, pair, heuristics)
            jc = find_translation(pos, len(src), cand_links[i], cand, pair, heuristics)
            rw = ref[jr] if jr is not None else None
            cw = cand[jc] if jc is not None else None
            out.append({"sentence": i + 1, "source": w, "reference": rw, "candidate": cw,
                        "case": classify(rw, cw, pair)})
    return out


def case_counts(cases: list[dict], sentences=None) -> dict:
    """{case 1..6: how many} of apt_cases' rows (only those of the given sentence numbers, if any)."""
    return {c: sum(1 for x in cases if x["case"] == c and (sentences is None or x["sentence"] in sentences))
            for c in range(1, 7)}


def apt_score(case_counts: dict, weights=DEFAULT_WEIGHTS, discard=()) -> float:
    num = sum(weights[c - 1] * case_counts.get(c, 0) for c in range(1, 7) if c not in discard)
    den = sum(case_counts.get(c, 0) for c in range(1, 7) if c not in discard)
    return num / den if den else float("nan")


def auto_align(source_tokens: list[list[str]], target_tokens: list[list[str]]) -> list[dict]:
    """Source-to-target links computed with eflomal (a registry package), forward direction."""
    try:
        import eflomal
    except ImportError:
        raise InputError("word alignments are required: give --align-ref / --align-system files (Pharaoh "
                         "'i-j' links) or install eflomal (pip install eflomal) for automatic alignment", code=InputError.Codes.OPTIONS,
                         page="word alignments are required: this server needs eflomal (pip install eflomal) to align "
                              "the texts automatically") from None
    import os
    import tempfile

    if not source_tokens:
        return []
    # eflomal writes the texts to temporary files of its own (mode 600, deleted when align returns)
    # and its links to ours, in a private folder removed with everything in it at once
    with tempfile.TemporaryDirectory(prefix="blonde-apt-") as tmp:
        fwd = os.path.join(tmp, "links")
        aligner = eflomal.Aligner()
        src_lines = [" ".join(t) if t else "_" for t in source_tokens]
        trg_lines = [" ".join(t) if t else "_" for t in target_tokens]
        aligner.align(src_lines, trg_lines, links_filename_fwd=fwd, quiet=True)
        with open(fwd, encoding="utf-8") as f:
            lines = f.read().splitlines()
    lines += [""] * (len(source_tokens) - len(lines))
    return [parse_links(line) for line in lines]


def corpus_apt(corpus, pair_name: str, weights=DEFAULT_WEIGHTS, discard=(), heuristics: bool = True,
               progress=None) -> dict:
    """APT of every system of a corpus with a source, aligned automatically with eflomal
    against the first reference: {system: {"APT", "cases", "documents": {doc: APT}}}."""
    if not corpus.source:
        raise InputError("APT needs the source text", code=InputError.Codes.TOO_LITTLE)
    pair = PAIRS[pair_name]
    ref_docs = next(iter(corpus.references.values()))
    flat_src = [s for d in corpus.source for s in d]
    ends = list(accumulate(len(d) for d in corpus.source))
    doc_sentences = [set(range(e - len(d) + 1, e + 1)) for e, d in zip(ends, corpus.source)]  # 1-based
    tok_src = [tokenize(x, pair.source_tokenizer, pair.source_pronouns) for x in flat_src]
    tok_ref = [tokenize(x, pair.target_tokenizer) for d in ref_docs for x in d]
    if len(tok_ref) != len(tok_src):
        raise InputError("APT needs one reference segment per source segment", code=InputError.Codes.COUNTS)
    ref_links = auto_align(tok_src, tok_ref)
    out = {}
    for k, (name, docs) in enumerate(corpus.systems.items()):
        tok_hyp = [tokenize(x, pair.target_tokenizer) for d in docs for x in d]
        if len(tok_hyp) != len(tok_src):
            continue
        cases = apt_cases(tok_src, tok_ref, tok_hyp, ref_links, auto_align(tok_src, tok_hyp), pair, heuristics)
        counts = case_counts(cases)
        per_doc = {d: apt_score(case_counts(cases, doc_sentences[di]), weights, discard)
                   for di, d in enumerate(corpus.doc_ids)}
        out[name] = {"APT": apt_score(counts, weights, discard), "cases": counts, "documents": per_doc}
        if progress:
            progress(k + 1, len(corpus.systems))
    return out


def apt_of_links(source: list[str], reference: list[str], candidates: dict, pair_name: str,
                 alignment: dict) -> dict:
    """APT of each candidate from given word alignments: alignment["reference"] and alignment[name]
    hold one Pharaoh line (source-target, 0-based over the pair's tokens) per source line."""
    pair = PAIRS[pair_name]
    tok_src = [tokenize(x, pair.source_tokenizer, pair.source_pronouns) for x in source]
    tok_ref = [tokenize(x, pair.target_tokenizer) for x in reference]
    ref_links = [parse_links(x, "alignment reference", i + 1) for i, x in enumerate(alignment["reference"])]
    out = {}
    for name, lines in candidates.items():
        cases = apt_cases(tok_src, tok_ref, [tokenize(x, pair.target_tokenizer) for x in lines], ref_links,
                          [parse_links(x, f"alignment {name}", i + 1) for i, x in enumerate(alignment[name])], pair)
        out[name] = apt_score(case_counts(cases))
    return out


def apt_of_files(source, reference, systems: list, pair: str, weights=DEFAULT_WEIGHTS, discard=(),
                 heuristics: bool = True, align_ref=None, align_systems=None) -> dict:
    """APT of files (the `apt` command): source, reference and system files of one segment per
    line; Pharaoh alignments given (align_ref and one align_systems file per system) or made
    with eflomal.  {"pair", "weights", "discard", "alignment", "heuristics", "systems": {name:
    {"APT", "cases"}}}."""
    from pathlib import Path

    from blonde_core.io.readers import read_lines

    p = PAIRS[pair]
    bad = [c for c in discard if c not in range(1, 7)]
    if bad:
        raise InputError(f"--discard takes case numbers 1-6, not {bad[0]}", code=InputError.Codes.SETTING,
                         page=f"the APT cases to leave out are numbered 1-6, not {bad[0]}")
    src = read_lines(source)
    ref = read_lines(reference)
    if len(ref) != len(src):
        raise InputError(f"has {len(ref)} lines but the source has {len(src)}", file=str(reference), code=InputError.Codes.COUNTS)
    given = align_ref is not None
    if given != bool(align_systems):
        raise InputError("give both --align-ref and --align-system (one per system), or neither for automatic "
                         "alignment", code=InputError.Codes.OPTIONS,
                         page="give alignments for the reference and for every system, or none (automatic alignment)")
    if given and len(align_systems) != len(systems):
        raise InputError(f"{len(align_systems)} --align-system files for {len(systems)} systems", code=InputError.Codes.COUNTS,
                         page=f"{len(align_systems)} alignment files for {len(systems)} systems")
    if given:  # the links refer to whitespace tokens
        tok_src = [tokenize(x, "whitespace") for x in src]
        tok_ref = [tokenize(x, "whitespace") for x in ref]
    else:
        tok_src = [tokenize(x, p.source_tokenizer, p.source_pronouns) for x in src]
        tok_ref = [tokenize(x, p.target_tokenizer) for x in ref]

    def links_of(path, n):
        lines = read_lines(path, allow_empty=True)
        if len(lines) != n:
            raise InputError(f"has {len(lines)} lines but the source has {n}", file=str(path), code=InputError.Codes.COUNTS)
        return [parse_links(line, str(path), i + 1) for i, line in enumerate(lines)]

    ref_links = links_of(align_ref, len(src)) if given else auto_align(tok_src, tok_ref)
    out = {"pair": pair, "weights": list(weights), "discard": list(discard),
           "alignment": "given" if given else "eflomal (forward links)", "heuristics": heuristics, "systems": {}}
    for k, sys_file in enumerate(systems):
        hyp = read_lines(sys_file)
        if len(hyp) != len(src):
            raise InputError(f"has {len(hyp)} lines but the source has {len(src)}", file=str(sys_file), code=InputError.Codes.COUNTS)
        tok_hyp = [tokenize(x, "whitespace" if given else p.target_tokenizer) for x in hyp]
        hyp_links = links_of(align_systems[k], len(src)) if given else auto_align(tok_src, tok_hyp)
        cases = apt_cases(tok_src, tok_ref, tok_hyp, ref_links, hyp_links, p, heuristics)
        counts = {str(c): n for c, n in case_counts(cases).items()}
        score = apt_score({int(c): n for c, n in counts.items()}, weights, discard)
        out["systems"][Path(str(sys_file)).stem] = {"APT": None if score != score else score, "cases": counts}
    return out
