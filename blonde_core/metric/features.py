"""From annotation records to BlonDe features, spans and a shared feature table.

The feature layout (columns of every sufficient-statistics array) is the language
pack's; in English:

    tense   VBD VBN VBP VBZ VBG VB MD           (dense counts)
    pronoun masculine feminine neuter epicene   (dense counts)
    entity  PERSON NON-PERSON                   (keyed by entity text)
    dm      comparison cause conjunction asynchronous synchronous (dense)
    ngram   1 2 3 4                             (keyed by n-gram)
    plus    ambiguity ellipsis                  (keyed by checkpoint phrase)

`FeatureTable` holds, for every distinct sentence text of a run, its dense
counts and its keyed items (ids + counts, CSR layout), built with numpy once and
shared by every system and reference.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from blonde_core.lang.base import NGRAM_ORDERS, LanguagePack
from .plus import count_phrase

PLUS_CATEGORIES = ("ambiguity", "ellipsis")


@dataclass(frozen=True)
class Layout:
    """Column layout of the sufficient statistics for a language pack."""

    columns: tuple  # ((category, feature), ...)
    cat_slices: dict  # category -> slice of columns
    dense_cols: np.ndarray  # column indices of dense features in order tense, pronoun, dm
    keyed_cols: tuple  # column indices of keyed features: entity groups then ngram orders

    @property
    def n(self) -> int:
        return len(self.columns)

    def col(self, category: str, feature) -> int:
        return self.columns.index((category, feature))


def make_layout(pack: LanguagePack) -> Layout:
    cols = []
    slices = {}

    def add(cat, feats):
        start = len(cols)
        cols.extend((cat, f) for f in feats)
        slices[cat] = slice(start, len(cols))

    add("tense", pack.tense_tags)
    add("pronoun", pack.pronoun_classes)
    add("entity", pack.entity_groups)
    add("dm", pack.dm_types)
    add("ngram", NGRAM_ORDERS)
    add("plus", PLUS_CATEGORIES)
    dense = np.r_[np.arange(slices["tense"].start, slices["tense"].stop),
                  np.arange(slices["pronoun"].start, slices["pronoun"].stop),
                  np.arange(slices["dm"].start, slices["dm"].stop)]
    keyed = tuple(range(slices["entity"].start, slices["entity"].stop)) + \
        tuple(range(slices["ngram"].start, slices["ngram"].stop))
    return Layout(tuple(cols), slices, dense, keyed)


# --- per-sentence extraction -------------------------------------------------

def entity_key(text: str, pack: LanguagePack) -> str:
    for suf in pack.entity_strip_suffixes:
        if text.endswith(suf):
            return text[: -len(suf)]
    return text


def pronoun_tokens(words: list[str], pack: LanguagePack, morph: list[str] | None = None):
    """Yield (token index, pronoun class indices) of every counted pronoun: a pronoun that stands where one of
    the pack's impersonal patterns puts it (French "il y a", "il faut", German "gibt es"), or that the analyser
    marks expletive by its context (morphology "Expl=Yes": German correlate "es", annotation/german.py), has no
    referent and is not counted."""
    pron = pack.pronoun_of
    pats = pack.pronoun_impersonal
    low = None
    for k, w in enumerate(words):
        cls = pron.get(w)
        if not cls or (morph and "Expl=Yes" in morph[k]):
            continue
        if pats:
            if low is None:
                low = [t.lower() for t in words]
            if any(0 <= k - at and k - at + len(p) <= len(low)
                   and all(a is None or low[k - at + j] in a for j, a in enumerate(p)) for at, p in pats):
                continue
        yield k, cls


def dense_counts(rec: dict, pack: LanguagePack) -> list[int]:
    """Counts of tense tags, pronoun classes, discourse-marker types (in that order)."""
    nt, npr, nd = len(pack.tense_tags), len(pack.pronoun_classes), len(pack.dm_types)
    out = [0] * (nt + npr + nd)
    for _, i in pack.tense_tokens(rec):
        out[i] += 1
    for _, cls in pronoun_tokens(rec["w"], pack, rec.get("m")):
        for c in cls:
            out[nt + c] += 1
    for ti, start, end in dm_occurrences(rec["w"], pack, rec.get("t"), rec.get("p")):
        out[nt + npr + ti] += 1
    return out


def _dm_index(pack: LanguagePack) -> dict:
    idx = getattr(pack, "_dm_first", None)
    if idx is None:
        idx = {}
        for ti, toks in pack.dm_patterns:
            idx.setdefault(toks[0], []).append((ti, toks))
        object.__setattr__(pack, "_dm_first", idx)
    return idx


def _marker_end(low: list[str], p: int, toks: tuple, comma: bool) -> int | None:
    """Where a marker of several tokens that begins at p ends (last token + 1), with comma a comma inside it
    allowed (Ukrainian "після того, як", Russian "несмотря на то, что"); None when it does not stand there."""
    j = p
    for t in toks:
        while comma and j < len(low) and low[j] == "," and j > p:
            j += 1
        if j >= len(low) or low[j] != t:
            return None
        j += 1
    return j


def _dm_refused(rules: tuple, low: list[str], a: int, b: int, tags, pos, first: dict, comma: bool) -> bool:
    """Does one of a marker's dm.not rules hold for its occurrence low[a:b] (lang/base.py says what each key
    means)? A neighbour beyond the text's edge is "" (word, tag and POS)."""
    n = len(low)
    for rule in rules:
        skip = next((v for k, v in rule if k == "SKIP"), ())
        i, j = a - 1, b
        while i >= 0 and low[i] in skip:
            i -= 1
        while j < n and low[j] in skip:
            j += 1
        ok = True
        for k, v in rule:
            if k == "SKIP":
                continue
            if k == "NEXT_MARKER":
                got = j < n and any(
                    (j + 1 if len(toks) == 1 else _marker_end(low, j, toks, comma)) is not None
                    for _, toks in first.get(low[j], ()))
                ok = got == v
            elif k == "QUESTION":
                end = next((w for w in low[b:] if w[-1:] in ".!?…。！？"), "")
                ok = ("?" in end or "？" in end) == v
            else:
                at = i if k.startswith("PREV") else j
                if k.endswith("_TAG"):
                    x = tags[at] if tags and 0 <= at < n else ""
                elif k.endswith("_POS"):
                    x = pos[at] if pos and 0 <= at < n else ""
                else:  # PREV, NEXT, PREV_BEGINS: the word
                    x = low[at] if 0 <= at < n else ""
                ok = x in v
            if not ok:
                break
        if ok:
            return True
    return False


def dm_occurrences(tokens: list[str], pack: LanguagePack, tags: list[str] | None = None,
                   pos: list[str] | None = None):
    """Yield (type index, first token, last token + 1) for every marker occurrence; a marker the pack gives
    parts of speech (dm.pos: Japanese でも the conjunction, not the particle) counts only where its first token's
    tag begins with one of them (when the record has tags); where one of a marker's dm.not rules holds (Spanish
    "si" before a full stop is an unaccented yes; Chinese 最后 before a noun is the adjective "final") it is no
    marker, and a shorter one there may count."""
    first = _dm_index(pack)
    low = [t.lower() for t in tokens]
    n = len(low)
    longest, covered = pack.dm_longest, 0
    need, refuse = pack.dm_pos, pack.dm_not
    for p, tok in enumerate(low):
        cands = first.get(tok)
        if not cands or p < covered:
            continue
        if need and tags and tok in need and not tags[p].startswith(need[tok]):
            continue
        best = None
        for ti, toks in cands:
            k = len(toks)
            end = p + 1 if k == 1 else _marker_end(low, p, toks, pack.dm_comma)
            if end is not None and refuse:
                rules = refuse.get(" ".join(toks))
                if rules and _dm_refused(rules, low, p, end, tags, pos, first, pack.dm_comma):
                    end = None
            if end is not None:
                if not longest:
                    yield ti, p, end
                elif best is None or end - p > best[2] - best[1]:
                    best = (ti, p, end)
        if best is not None:
            covered = best[2]
            yield best


def _handle(span: str, before: str = "") -> bool:
    """A hashtag, @handle, cashtag, web address or a #PLACEHOLDER# of anonymised data (never a name, in any
    language); before: the character before the span (a tokenizer may leave the # outside it)."""
    return (span[:1] in "#@$" or before in ("#", "@") or "#" in span or "://" in span
            or span.startswith("www."))


SENTENCE_END = frozenset('.!?:;…"“”„«»—–-')  # a token ending in one of these ends a sentence (or opens speech)


def _starts_sentence(words: list[str], k: int) -> bool:
    return k == 0 or words[k - 1][-1:] in SENTENCE_END


def _no_name_by_case(rec: dict, text: str, s: int, e: int, label: str, rules: dict, pack: LanguagePack) -> bool:
    """Is a recogniser span no name by the entity rules that read letter case (each leaves lowercased text alone):
    require_capital (a span without a capital letter in a text written with them), initial_require_tag (a
    capitalised one-word span opening a sentence whose fine tag is none of these) and initial_lexicon (such a span
    whose word the pipeline's own lexicon knows in lower case: annotation/common_words.py); the two sentence-opening
    rules spare the labels in initial_exempt_labels (English NORP: *German* is tagged JJ wherever it stands)."""
    span = text[s:e]
    if rules.get("require_capital") and not any(ch.isupper() for ch in span) and any(ch.isupper() for ch in text):
        return True
    first_tag, lexicon = rules.get("initial_require_tag"), rules.get("initial_lexicon")
    if not (first_tag or lexicon) or not span[:1].isupper() or label in rules.get("initial_exempt_labels", ()):
        return False
    toks = [k for k, o in enumerate(rec["i"]) if s <= o < e]
    if len(toks) != 1 or not _starts_sentence(rec["w"], toks[0]):
        return False
    if first_tag and rec["t"][toks[0]] not in first_tag:
        return True
    if lexicon:
        from blonde_core.annotation.common_words import knows

        return knows(pack, rec["w"][toks[0]])
    return False


def _has_feature(morph: str | None, wanted: frozenset) -> bool:
    """Does a morphology string ("Case=Nom|NameType=Giv,Nat") hold one of the wanted "Key=Value" pairs (a value
    of a multi-valued feature counts)?"""
    if not morph or not wanted:
        return False
    for part in morph.split("|"):
        k, _, vs = part.partition("=")
        if any(f"{k}={v}" in wanted for v in vs.split(",")):
            return True
    return False


def entities(rec: dict, text: str, pack: LanguagePack, fold: bool = False) -> list[tuple[int, str, int, int]]:
    """(group index, key text, start_char, end_char) of counted entities (fold: the key lowercased, for text
    tagged as written and compared lowercased): the recogniser's spans of the pack's labels, except a span
    without a letter and a hashtag, @handle or web address; and, as the pack says (pack.entity_rules, each
    measured against its gold):
      require_pos          a span none of whose tokens has one of these coarse POS is dropped (a span the
                           recogniser draws over common words is no name)
      exclude_morph        a span holding a token with one of these "Key=Value" features is dropped
                           (NameType=Nat: nationalities are not names here)
      initial_require_pos  a capitalised one-word span that opens a sentence is dropped unless its POS is one
                           of these (a capitalised common word is no name; lowercased text is left alone)
      require_capital, initial_require_tag, initial_lexicon, initial_exempt_labels: _no_name_by_case
      tag_as_written_only  the rules apply only to text tagged as written and compared lowercased (fold: English,
                           whose blonde-0.1.4 settings stay the package's, lowercased or not)
      from_morph           {group: ["Key=Value", ...]}: proper nouns (POS PROPN, capitalised) inside a sentence
                           with one of these features and outside every recogniser span are names of that
                           group (the morphologizer knows names the recogniser misses)
      relabel_from_morph   a recogniser span whose tokens' features (those from_morph lists) all point to one
                           group takes that group (Czech: the morphologizer's NameType=Giv/Sur tells a person
                           better than the recogniser's label)
      whole_words          a span that stops at a hyphen inside a word runs to the word's end (El-Rufaiho,
                           TP-Link: the tokenizer splits at the hyphen)"""
    out = []
    rules = pack.entity_rules
    if rules.get("tag_as_written_only") and not fold:  # English: the package's own settings stay exact
        rules = {}
    pos, morph, words, offs = rec.get("p"), rec.get("m"), rec["w"], rec["i"]
    need = rules.get("require_pos")
    for s, e, label in rec["e"]:
        g = pack.group_of_label.get(label)
        if g is None:
            continue
        span = text[s:e]
        if _handle(span, text[s - 1:s]) or not any(ch.isalpha() for ch in span):
            continue
        if rules and _no_name_by_case(rec, text, s, e, label, rules, pack):
            continue
        if rules and pos:
            toks = [k for k, o in enumerate(offs) if s <= o < e]
            if need and not any(pos[k] in need for k in toks):
                continue
            if morph and any(_has_feature(morph[k], rules.get("exclude_morph", frozenset())) for k in toks):
                continue
            first = rules.get("initial_require_pos")
            if (first and len(toks) == 1 and span[:1].isupper() and _starts_sentence(words, toks[0])
                    and pos[toks[0]] not in first):
                continue
            if morph and rules.get("relabel_from_morph"):
                said = {gi for k in toks for gi, feats in rules.get("from_morph", ()) if _has_feature(morph[k], feats)}
                g = said.pop() if len(said) == 1 else g
        if rules.get("whole_words"):
            while e < len(text) and text[e - 1] == "-" and text[e].isalpha():
                while e < len(text) and text[e].isalnum():
                    e += 1
            span = text[s:e]
        out.append((g, entity_key(span, pack), s, e))
    extra = rules.get("from_morph")
    if extra and pos and morph:
        taken = [(s, e) for _, _, s, e in out]
        k, n = 0, len(words)
        while k < n:
            grp = next((gi for gi, feats in extra if pos[k] == "PROPN" and words[k][:1].isupper()
                        and _has_feature(morph[k], feats)), None)
            if grp is None:
                k += 1
                continue
            j = k + 1
            while j < n and pos[j] == "PROPN" and words[j][:1].isupper():
                j += 1
            s, e = offs[k], offs[j - 1] + len(words[j - 1])
            if not _starts_sentence(words, k) and not any(a < e and s < b for a, b in taken):
                out.append((grp, entity_key(text[s:e], pack), s, e))
            k = j
        out.sort(key=lambda x: x[2])
    if rules.get("unknown_katakana") and morph:
        out = _katakana_names(rec, text, pack, out)
    if fold:
        out = [(g, key.lower(), s, e) for g, key, s, e in out]
    return out


_KATAKANA = frozenset(chr(c) for c in range(0x30A1, 0x30FB)) | {"ー", "・", "ヴ"}


# A noun after a name that makes the whole an organisation (グーグル社, ...軍, ...大学), and the suffixes that make
# a name a nationality, language or religion (ソ連人, ロシア語, ...教): those are no entities here (README).
_JA_ORG_SUFFIX = frozenset({"社", "軍", "党", "省", "庁", "大学", "銀行", "協会", "財団", "連盟", "機構"})
_JA_NOT_NAME_SUFFIX = frozenset({"人", "語", "教"})


def _katakana_names(rec: dict, text: str, pack: LanguagePack, out: list) -> list:
    """Japanese (entity.unknown_katakana): a word IPAdic does not know (no lemma), a common noun written in
    katakana, is a foreign name the dictionary lacks (a character of a novel, a person in the news) - unless
    UniDic (the adapter's `Uni=` in its morphology, annotation/japanese.py) knows it as a common word: a loanword
    IPAdic is too old for (タトゥー, ブラウザ).  What follows it decides its kind, and makes even a word UniDic knows
    a name: a person suffix (さん, 氏, 様: 名詞-接尾-人名; after any katakana noun: パールさん), a place suffix (市,
    州: 名詞-接尾-地域) or an organisation's noun (社, 軍, 大学: _JA_ORG_SUFFIX, the span taking it in); else UniDic's
    人名 makes a person, its 地名 a place, and the rest are names of unknown kind.  Runs joined by ・ and names
    beside them (アレクサンドル・ケレンスキー) are one name.  Any name followed by the suffix 人, 語 or 教 (ソ連人,
    ロシア語) and a proper noun ending in 教 (イスラム教) is a nationality, language or religion: none."""
    words, offs, tags, morph = rec["w"], rec["i"], rec["t"], rec["m"]
    person = pack.group_of_label.get("人名")
    place = pack.group_of_label.get("地域")
    org = pack.group_of_label.get("組織")
    other = pack.group_of_label.get("一般")
    n = len(words)

    def katakana(k):
        w = words[k]
        return tags[k].startswith("名詞-一般") and len(w) > 1 and w[0] != "ー" and all(ch in _KATAKANA for ch in w)

    def foreign(k):  # not in IPAdic
        return katakana(k) and "Lemma=" not in morph[k]

    def unknown(k):  # in neither dictionary as a common word
        return foreign(k) and "Uni=普通" not in morph[k]

    def suffix(j):  # the group a word after a name gives it, and whether the span takes the word in
        if j >= n:
            return None, False
        if tags[j].startswith("名詞-接尾-人名"):
            return person, False
        if tags[j].startswith("名詞-接尾-地域"):
            return place, True
        if words[j] in _JA_ORG_SUFFIX:
            return org, True
        return None, False

    def after(e):  # the token starting at character e
        return next((j for j in range(n) if offs[j] == e), n)

    spans = []
    for g, _, s, e in out:  # the analyser's names, less nationalities, languages and religions
        j = after(e)
        if text[s:e].endswith("教") or (j < n and tags[j].startswith("名詞-接尾") and words[j] in _JA_NOT_NAME_SUFFIX):
            continue
        spans.append((s, e, g))
    k = 0
    while k < n:
        if not katakana(k):
            k += 1
            continue
        j = k + 1
        while j < n and (katakana(j) and offs[j] == offs[j - 1] + len(words[j - 1])  # ゲン + スラー: one word
                         or j + 1 < n and words[j] == "・" and (foreign(j + 1) or tags[j + 1].startswith("名詞-固有名詞"))):
            j += 1 if katakana(j) else 2
        by, take = suffix(j)
        named = any(unknown(i) for i in range(k, j))
        if not (named or (by is not None and (by == person or any(foreign(i) for i in range(k, j))))):
            k = j
            continue
        if j < n and tags[j].startswith("名詞-接尾") and words[j] in _JA_NOT_NAME_SUFFIX:
            k = j
            continue
        s, e = offs[k], offs[(j if take else j - 1)] + len(words[j if take else j - 1])
        uni = {m.partition("Uni=")[2] for m in morph[k:j] if "Uni=" in m}
        g = by if by is not None else person if uni == {"人名"} else place if uni == {"地名"} else other
        spans.append((s, e, g))
        k = j
    spans.sort()
    merged: list = []
    for s, e, g in spans:  # a known name joined by ・ to an unknown one (or overlapping it): one name
        if merged and (s < merged[-1][1] or (text[merged[-1][1]:s] == "・")):
            ps, pe, pg = merged[-1]
            merged[-1] = (ps, max(pe, e), pg if pg != other else g)
        else:
            merged.append((s, e, g))
    return [(g, entity_key(text[s:e], pack), s, e) for s, e, g in merged if g is not None]


def entity_occurrences(key: str, text: str, pack: LanguagePack) -> int:
    """How often an entity string occurs in a text, tagged or not (document-consistent entities): as whole
    words, any case (BlonD+'s rule, plus.count_phrase); in a script without spaces (Chinese, Japanese: the pack's
    script.unspaced) wherever it stands."""
    return text.count(key) if pack.script.unspaced else count_phrase(key, text)


def spans(rec: dict, text: str, pack: LanguagePack, fold: bool = False) -> list[dict]:
    """Every counted span of a sentence as plain records (for highlighting views)."""
    out = []
    words, offs = rec["w"], rec["i"]
    for k, fi in pack.tense_tokens(rec):
        w, o = words[k], offs[k]
        out.append({"category": "tense", "feature": pack.tense_tags[fi], "start": o, "end": o + len(w), "text": w})
    for k, cls in pronoun_tokens(words, pack, rec.get("m")):
        w, o = words[k], offs[k]
        for c in cls:
            out.append({"category": "pronoun", "feature": pack.pronoun_classes[c],
                        "start": o, "end": o + len(w), "text": w})
    for g, key, s, e in entities(rec, text, pack, fold):
        out.append({"category": "entity", "feature": pack.entity_groups[g], "start": s, "end": e,
                    "text": text[s:e], "key": key})
    for ti, a, b in dm_occurrences(words, pack, rec.get("t"), rec.get("p")):
        s, e = offs[a], offs[b - 1] + len(words[b - 1])
        out.append({"category": "dm", "feature": pack.dm_types[ti], "start": s, "end": e, "text": text[s:e]})
    out.sort(key=lambda d: (d["start"], -d["end"]))
    return out


# --- the shared table ----------------------------------------------------------

class Csr:
    """Keyed items per row: row r owns items[ptr[r]:ptr[r+1]] with counts."""

    __slots__ = ("ptr", "items", "counts", "n_items")

    def __init__(self, ptr, items, counts, n_items):
        self.ptr, self.items, self.counts, self.n_items = ptr, items, counts, n_items

    def gather(self, rows: np.ndarray):
        """(row position, item, count) for the given rows, rows may repeat."""
        rows = np.asarray(rows, dtype=np.int64)
        starts = self.ptr[rows]
        lens = self.ptr[rows + 1] - starts
        total = int(lens.sum())
        pos = np.repeat(np.arange(len(rows)), lens)
        if total:
            offsets = np.repeat(starts - np.concatenate(([0], np.cumsum(lens)[:-1])), lens)
            idx = np.arange(total) + offsets
        else:
            idx = np.zeros(0, dtype=np.int64)
        return pos, self.items[idx], self.counts[idx]


def _csr_from_pairs(n_rows: int, rows: np.ndarray, codes: np.ndarray) -> Csr:
    """Build a Csr from occurrence (row, code) pairs, counting duplicates.  Item ids
    index the sorted unique codes (np.unique order)."""
    if len(codes) == 0:
        return Csr(np.zeros(n_rows + 1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), 0)
    uniq_codes, dense = np.unique(codes, return_inverse=True, axis=0 if codes.ndim > 1 else None)
    dense = dense.reshape(-1)
    n_items = len(uniq_codes)
    comp = rows.astype(np.int64) * n_items + dense
    keys, counts = np.unique(comp, return_counts=True)
    krows = keys // n_items
    ptr = np.searchsorted(krows, np.arange(n_rows + 1), side="left").astype(np.int64)
    return Csr(ptr, keys % n_items, counts.astype(np.int64), n_items)


TABLE_VERSION = 1  # the binary form of a FeatureTable (to_bytes); part of its cache key
# what the counts are computed by
_CODE = ("metric/features.py", "lang/base.py", "annotation/pipeline.py", "annotation/common_words.py")


def table_key(texts: list[str], pack: LanguagePack, pipeline_id: str, lowercase: bool,
              fold: bool = False) -> bytes | None:
    """The disk cache's key of the feature table of these (sorted, prepared) texts: everything the counts
    depend on - the texts, the records' pipeline and lowercasing, the language pack's file and the source of
    the code that counts (so an edited pack or counting rule never reads an old table).  None when the pack
    has no file to fingerprint (a pack built in memory): such tables are not kept."""
    import hashlib
    from pathlib import Path

    from blonde_core.digest import texts_digest

    if not pack.source or not Path(pack.source).is_file():
        return None
    h = hashlib.blake2b(digest_size=20)
    h.update(f"table{TABLE_VERSION}\x00{pipeline_id}\x00{int(bool(lowercase))}\x00".encode())
    if fold:  # tagged as written, matched lowercased: other keys (the default's key stays as it was)
        h.update(b"fold\x00")
    root = Path(__file__).resolve().parent.parent
    for part in (Path(pack.source), *(root / c for c in _CODE)):
        h.update(part.read_bytes())
        h.update(b"\x00")
    h.update(texts_digest(texts))
    return h.digest()


def npz_bytes(arrays: dict) -> bytes:
    """Arrays as one numpy .npz file in memory (what the disk cache's binary tables hold; decode_table reads it)."""
    import io

    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def decode_table(v) -> dict | None:
    """Validator of the disk cache's table of feature tables: the arrays of FeatureTable.to_bytes (None when
    the bytes are not such a file)."""
    import io

    try:
        with np.load(io.BytesIO(bytes(v)), allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (ValueError, OSError, EOFError, KeyError):
        return None
    if "n_keyed" not in arrays:
        return None
    return arrays


class LazyTable:
    """A run's feature table when its statistics came from the disk cache: the texts, their rows and the
    layout at once; the counts and records (what the views that show spans read) from `load()` when first
    asked for."""

    _memo_shared = ("pack", "_load")

    def __init__(self, texts: list[str], pack: LanguagePack, load, fold: bool = False):
        self.pack, self.fold = pack, fold
        self.layout = make_layout(pack)
        self.texts = list(texts)
        self.index = {t: i for i, t in enumerate(self.texts)}
        self._load, self._table = load, None

    def rows(self, prepared_texts) -> np.ndarray:
        return FeatureTable.rows(self, prepared_texts)  # by the texts' index alone, as the table does

    def __getattr__(self, name):  # dense, keyed, records: the whole table, read once
        if name.startswith("__") or name in ("_load", "_table"):
            raise AttributeError(name)
        if self._table is None:
            self._table = self._load()
        return getattr(self._table, name)


def stats_key(table: bytes, counting: str, roles: list) -> bytes:
    """The disk cache's key of a run's sufficient statistics: its feature table's key, the counting settings,
    the source of the matching code, and every text's rows and units in order (roles: [(name, rows, units)]).
    It begins with the table key's first STATS_PREFIX bytes, so that the statistics of a table's texts are
    deleted with it (Engine.forget)."""
    import hashlib
    from pathlib import Path

    h = hashlib.blake2b(digest_size=20 - STATS_PREFIX)
    h.update(b"stats1\x00" + table + counting.encode() + b"\x00")
    h.update((Path(__file__).resolve().parent / "sufficient.py").read_bytes())
    for name, rows, units in roles:
        h.update(name.encode("utf-8", "surrogatepass") + b"\x00")
        h.update(np.ascontiguousarray(rows, dtype=np.int64).tobytes() + b"\x01")
        h.update(np.ascontiguousarray(units, dtype=np.int64).tobytes() + b"\x02")
    return table[:STATS_PREFIX] + h.digest()


STATS_PREFIX = 10


class FeatureTable:
    """Features of every distinct (prepared) sentence text of a run.  `records` (the analyser's, for the views
    that show spans) are read when first asked for when the table came from the disk cache (from_arrays)."""

    _memo_shared = ("_records", "_load_records", "pack")  # the annotator's records (its memo keeps them), the pack

    @property
    def records(self) -> list:
        if self._records is None:
            got = self._load_records(self.texts)
            self._records = [got[t] for t in self.texts]
        return self._records

    def to_bytes(self) -> bytes:
        """The counts in numpy's binary form (what the disk cache keeps: no text, no records)."""
        arrays = {"dense": self.dense.astype(np.int32), "n_keyed": np.array([len(self.keyed)], np.int64)}
        for k, c in enumerate(self.keyed):
            arrays[f"p{k}"], arrays[f"i{k}"], arrays[f"c{k}"] = c.ptr, c.items.astype(np.int32), \
                c.counts.astype(np.int32)
            arrays[f"n{k}"] = np.array([c.n_items], np.int64)
        return npz_bytes(arrays)

    @classmethod
    def from_arrays(cls, texts: list[str], arrays: dict, pack: LanguagePack, load_records,
                    fold: bool = False) -> "FeatureTable | None":
        """A table from its cached arrays (None when they do not fit these texts and this pack);
        load_records(texts) -> {text: record} gives the records when a view asks for them."""
        if "dense" not in arrays:
            return None
        self = cls.__new__(cls)
        self.pack, self.fold = pack, fold
        self.layout = make_layout(pack)
        self.texts = list(texts)
        n = len(self.texts)
        dense = arrays["dense"]
        n_keyed = int(arrays["n_keyed"][0])
        if dense.shape != (n, len(self.layout.dense_cols)) or n_keyed != len(pack.entity_groups) + len(NGRAM_ORDERS):
            return None
        self.index = {t: i for i, t in enumerate(self.texts)}
        self._records, self._load_records = None, load_records
        self.dense = dense.astype(np.int64)
        self.keyed = []
        for k in range(n_keyed):
            ptr = arrays[f"p{k}"].astype(np.int64)
            if len(ptr) != n + 1:
                return None
            self.keyed.append(Csr(ptr, arrays[f"i{k}"].astype(np.int64), arrays[f"c{k}"].astype(np.int64),
                                  int(arrays[f"n{k}"][0])))
        return self

    def __init__(self, texts: list[str], records: dict[str, dict], pack: LanguagePack, fold: bool = False):
        """fold: the texts were tagged as written and are matched lowercased (entity strings, n-grams)."""
        self.pack, self.fold = pack, fold
        self.layout = make_layout(pack)
        self.texts = list(texts)
        self.index = {t: i for i, t in enumerate(self.texts)}
        n = len(self.texts)
        recs = [records[t] for t in self.texts]
        self._records, self._load_records = recs, None
        self.dense = np.array([dense_counts(r, pack) for r in recs], dtype=np.int64).reshape(
            n, len(self.layout.dense_cols))
        # entities, one Csr per group
        ent_rows, ent_groups, ent_keys = [], [], []
        for i, (t, r) in enumerate(zip(self.texts, recs)):
            for g, key, _, _ in entities(r, t, pack, fold):
                ent_rows.append(i)
                ent_groups.append(g)
                ent_keys.append(key)
        ent_vocab: dict[str, int] = {}
        ent_ids = np.array([ent_vocab.setdefault(k, len(ent_vocab)) for k in ent_keys], dtype=np.int64)
        ent_rows_a = np.array(ent_rows, dtype=np.int64)
        ent_groups_a = np.array(ent_groups, dtype=np.int64)
        self.keyed: list[Csr] = []
        for g in range(len(pack.entity_groups)):
            m = ent_groups_a == g
            self.keyed.append(_csr_from_pairs(n, ent_rows_a[m], ent_ids[m]))
        # n-grams over token ids
        tok_vocab: dict[str, int] = {}
        lens = np.fromiter((len(r["w"]) for r in recs), dtype=np.int64, count=n)
        flat = np.fromiter((tok_vocab.setdefault(w.lower() if fold else w, len(tok_vocab)) for r in recs
                            for w in r["w"]),
                           dtype=np.int64, count=int(lens.sum()))
        sent_of = np.repeat(np.arange(n), lens)
        starts = np.concatenate(([0], np.cumsum(lens)[:-1])) if n else np.zeros(0, np.int64)
        pos_in = np.arange(len(flat)) - np.repeat(starts, lens)
        left = np.repeat(lens, lens) - pos_in  # tokens from here to sentence end
        V = max(len(tok_vocab), 1)
        for order in NGRAM_ORDERS:
            valid = np.nonzero(left >= order)[0]
            if V ** order < 2 ** 62:
                code = np.zeros(len(valid), dtype=np.int64)
                for j in range(order):
                    code = code * V + flat[valid + j]
            else:  # large vocabularies: unique rows of the id matrix
                code = np.stack([flat[valid + j] for j in range(order)], axis=1)
            self.keyed.append(_csr_from_pairs(n, sent_of[valid], code))

    def rows(self, prepared_texts) -> np.ndarray:
        idx = self.index
        return np.fromiter((idx[t] for t in prepared_texts), dtype=np.int64)
