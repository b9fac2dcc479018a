"""Russian and Ukrainian: pymorphy3's dictionary analysis of each word (`Pymorphy3Analyser`), names found by rules
over it (`name_spans`), and for Russian slovnet's named-entity recogniser beside them (`SlovnetAnalyser`).

The dictionary alone knows the common first names, surnames, places and organisations (OpenCorpora's Name, Surn,
Patr, Geox, Orgn, Trad; the Ukrainian dictionary has no places or organisations).  Beyond it, what the spelling
of Russian and Ukrainian says (each rule measured on the packs' gold, lang/ru/README.md and lang/uk/README.md):

- a capitalised word inside a sentence is a name, a noun or a word the dictionary does not know (a foreign or
  invented name: *Тенук*, *Кохрена*); a word the dictionary does not know opening a sentence, when its guessed
  analysis is a noun, too; a guessed animate noun is a person;
- quotes and dashes do not open a sentence (*рота «Вихід»*, *місяця – Erebus*), a full stop, ! ? … and : do;
- a pronoun or function word is never a name, a guessed reading of an unknown word is no evidence of one, nor of a
  common noun (*Ретвік* is not *ретвіко*); expressive spellings are no names (*Пссс*, *Ха-ха-ха*);
- adjectives from names are written small, so a capitalised adjective inside a sentence opens a name that runs to
  its noun (*Шотландська національна партія*, *Верховного суда*);
- a capitalised word or words in quotes right after a noun are a name (*рота «Вихід»*, *танків «Кронос»*);
- neighbouring names are one (*Тауні Девіс*: a first name the dictionary lacks and a surname it knows, a person),
  and Latin words between Latin names join them (*Call of Duty*, *Wild ’n Out*).
"""
from __future__ import annotations

import importlib.util
import os
import re

from .adapters import adapter

_WORD = re.compile(r"\w+(?:[-'’ʼ]\w+)*|[^\w\s]", re.UNICODE)  # words (из-за, здоров’я whole) and punctuation
# OpenCorpora's proper-name grammemes -> the entity label (a first name, patronymic and surname in a row: one "Name")
_PROPER_SET = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"})
_FINAL = frozenset(".!?…:")  # a word after these opens a sentence
_TRANSPARENT = frozenset("«»“”„\"'‘’—–-")  # quotes and dashes: the word after them is where the one before was
_FUNCTION = frozenset({"NPRO", "PREP", "CONJ", "PRCL", "ADVB", "INTJ"})
_LATIN = re.compile(r"[A-Za-z]")
_LATIN_GAP = re.compile(r"^(?:\s+|\s*[a-z]+\s+|\s*[’'][a-z]+\s+|\s*&\s*)$")  # Call of Duty, Wild ’n Out, AT & T
_OPEN_Q, _CLOSE_Q = "«„“\"", "»“”\""


@adapter("pymorphy3", version=2)
class Pymorphy3Analyser:
    """pymorphy3 over words cut by a regular expression: each word's most probable analysis (the Ukrainian
    dictionary has no frequencies: its first), names by `name_spans`.  A text with no capital letter at all
    (BlonDe lowercases by default) leaves the dictionary alone to decide: a word whose first analysis is a proper
    name.  Each distinct word form is analysed once per process (`memo`)."""

    def __init__(self, lang: str):
        import pymorphy3

        self.morph = pymorphy3.MorphAnalyzer(lang=lang)
        self.memo: dict = {}  # word form -> (analyses, tag, POS, morphology)

    @classmethod
    def for_pack(cls, pack):
        """The analyser of the pack's language (pymorphy3's dictionary of that name: ru, uk)."""
        return cls(pack.name)

    def analysed(self, w: str) -> tuple:
        """(analyses, tag, coarse POS, morphology "Key=Value|...") of one word form."""
        got = self.memo.get(w)
        if got is None:
            parses = self.morph.parse(w)
            tag = parses[0].tag
            got = (parses, str(tag),  # plain str: pymorphy3's grammemes are str subclasses that do not pickle
                   str(tag.POS) if tag.POS else str(tag).split(",")[0].split(" ")[0],  # PNCT, LATN, NUMB, UNKN
                   "|".join(f"{k}={v}" for k, v in (
                       ("Aspect", tag.aspect), ("Tense", tag.tense), ("Mood", tag.mood), ("Gender", tag.gender),
                       ("Number", tag.number), ("Person", tag.person), ("Voice", tag.voice)) if v))
            if len(self.memo) < 500_000:
                self.memo[w] = got
        return got

    def records(self, texts):
        return [self.record(t) for t in texts]

    def record(self, text: str) -> dict:
        found = list(_WORD.finditer(text))
        words, offs = [m.group() for m in found], [m.start() for m in found]
        got = [self.analysed(w) for w in words]
        cased = any(c.isupper() for c in text)  # BlonDe lowercases by default: then the dictionary alone decides
        return {"w": words, "i": offs, "t": [g[1] for g in got],
                "e": name_spans(text, words, offs, [g[0] for g in got], cased),
                "p": [g[2] for g in got], "m": [g[3] for g in got]}


def sentence_starts(words: list[str]) -> list[bool]:
    """Whether each word opens a sentence: the first word, or one after . ! ? … : (quotes and dashes between
    change nothing: *рота «Вихід»* and *місяця – Erebus* are inside their sentence, *«Так!» – Він* is not)."""
    out, start = [], True
    for w in words:
        out.append(start)
        if w in _FINAL:
            start = True
        elif w not in _TRANSPARENT:
            start = False
    return out


_TRIPLE = re.compile(r"(\w)\1\1", re.IGNORECASE)


def _expressive(word: str) -> bool:
    """A word that is no name by its spelling: a letter written three times (*Пссс*, *Йеее*, *Ураааа*), a
    hyphenated repetition (*Ха-ха-ха*, *Тук-тук*) or a one-letter part (*Не-а*)."""
    if _TRIPLE.search(word):
        return True
    parts = word.split("-")
    return len(parts) > 1 and (len({p.lower() for p in parts}) < len(parts)
                               or any(len(p) == 1 and p.islower() for p in parts))


def name_label(word: str, parses, mid_sentence: bool) -> str | None:
    """The entity label of a capitalised word (or of any word of a lowercased text), or None: the dictionary's
    Geox, Orgn, Trad; "Name" for a person (a first name, surname or patronymic that is not also a common noun of
    another lemma: *Києві* is Київ's locative, not a person; or a guessed animate noun); "Unkn" for a name of
    unknown kind (module docstring)."""
    known = any(q.is_known for q in parses)
    if any(q.is_known and q.tag.POS in ("NPRO", "PREP", "CONJ", "PRCL", "ADVB") for q in parses):
        return None  # a pronoun or function word ("Вона", "Але") whatever else the dictionary has
    if not known and _expressive(word):
        return None
    gram = parses[0].tag.grammemes
    for g in ("Geox", "Orgn", "Trad"):
        if g in gram:
            return g
    lemma = parses[0].normal_form
    common = any(q.is_known and q.tag.POS == "NOUN" and "inan" in q.tag.grammemes
                 and not q.tag.grammemes & _PROPER_SET and q.normal_form != lemma for q in parses)
    if gram & {"Name", "Surn", "Patr"} and not common:
        return "Name"
    if word.isupper() or not word[:1].isupper():
        return None
    noun = parses[0].tag.POS == "NOUN"
    if mid_sentence and (noun or gram & {"UNKN", "LATN"} or not known):  # a capitalised word inside a sentence
        return "Name" if noun and not known and "anim" in gram else "Unkn"
    if not known and noun:  # opening a sentence: a word the dictionary lacks, guessed a noun
        return "Name" if "anim" in gram else "Unkn"
    return None


def name_spans(text: str, words: list[str], offs: list[int], parses: list, cased: bool) -> list[list]:
    """The names of one text as [start, end, label] (label: a pymorphy3 grammeme or Unkn), the module's rules."""
    start = sentence_starts(words)
    spans = [[o, o + len(w), lab] for w, o, p, st in zip(words, offs, parses, start)
             if w[:1].isalpha() and (w[:1].isupper() or not cased)
             and (lab := name_label(w, p, cased and not st)) is not None]
    if cased:
        spans = _adjective_names(words, offs, parses, start, spans)
        spans = _quoted_names(words, offs, parses, spans)
    return _joined(spans, text)


def _adjective_names(words, offs, parses, start, spans):
    """A capitalised adjective inside a sentence opens a name (adjectives from names are written small in
    Russian and Ukrainian: *шотландський*, but *Шотландська національна партія*): it, the small adjectives
    after it and the noun they lead to are one name."""
    n = len(words)
    out = list(spans)
    for k in range(n):
        w = words[k]
        if start[k] or not w[:1].isupper() or w.isupper() or parses[k][0].tag.POS != "ADJF":
            continue
        if any(s <= offs[k] < e for s, e, _ in out):
            continue
        j = k + 1
        while j < n and words[j][:1].islower() and parses[j][0].tag.POS == "ADJF":
            j += 1
        if j < n and words[j][:1].isalpha() and parses[j][0].tag.POS == "NOUN":
            out.append([offs[k], offs[j] + len(words[j]), "Unkn"])
    return sorted(out)


def _quoted_names(words, offs, parses, spans):
    """A name in quotation marks right after a noun (*рота «Вихід»*, *танків «Кронос»*, *газета «Правда»*): one to
    four words, the first capitalised, closed by the quote; not after a verb or conjunction (quoted speech)."""
    n = len(words)
    out = list(spans)
    for k in range(1, n - 2):
        if (words[k] not in _OPEN_Q or not words[k + 1][:1].isupper() or not words[k - 1][:1].isalpha()
                or parses[k - 1][0].tag.POS != "NOUN"):
            continue
        j = k + 1
        while j < n and j <= k + 4 and words[j] not in _CLOSE_Q and (words[j][:1].isalnum() or words[j] in "-’'&"):
            j += 1
        if j < n and j > k + 1 and words[j] in _CLOSE_Q:
            s, e = offs[k + 1], offs[j - 1] + len(words[j - 1])
            out = [x for x in out if not (s <= x[0] and x[1] <= e)]
            if not any(a < e and s < b for a, b, _ in out):
                out.append([s, e, "Unkn"])
    return sorted(out)


def _joined(spans, text):
    """Neighbouring names as one: nothing but spaces between (*Тауні Девіс*: a first name the dictionary lacks
    and a surname it knows, one person: a person's label wins), or Latin words between Latin names (*Call of
    Duty*)."""
    out: list[list] = []
    for s, e, lab in sorted(spans):
        if out:
            prev = out[-1]
            gap = text[prev[1]:s]
            if not gap.strip():
                prev[1] = e
                if lab == "Name":
                    prev[2] = "Name"
                continue
            if _LATIN.search(text[prev[0]:prev[1]]) and _LATIN.search(text[s:e]) and _LATIN_GAP.match(gap):
                prev[1] = e
                continue
        out.append([s, e, lab])
    return out


@adapter("pymorphy3+slovnet", version=1)
class SlovnetAnalyser(Pymorphy3Analyser):
    """Russian: pymorphy3 as above, and slovnet's named-entity recogniser (its `slovnet_ner_news_v1` model with
    the `navec_news_v1` embeddings, both shipped inside the natasha package and read from there; slovnet's numpy
    runtime, razdel's tokens).  Its PER, LOC, ORG spans win; the dictionary's and the rules' names outside them
    are kept (the recogniser misses invented and Latin-script names).  A recogniser span is dropped where the
    dictionary explains the capital letter: it opens a sentence and every word in it is a word the dictionary
    knows and not as a noun (*Подключите*, *Холодная дождливая ночь*) - unless a finite verb follows it, whose
    subject it is (*Кари кивнула*); it is only function words (*ДА. ОЧЕНЬ*); or it is one all-capital word the
    dictionary knows as an abbreviation of common words (*СМИ*).  A text without a capital letter (lowercased) is
    not given to the recogniser: it finds next to nothing there, and the dictionary decides as in Pymorphy3Analyser."""

    def __init__(self, lang: str = "ru"):
        super().__init__(lang)
        from navec import Navec
        from slovnet import NER

        data = os.path.join(os.path.dirname(importlib.util.find_spec("natasha").origin), "data")
        self.ner = NER.load(os.path.join(data, "model", "slovnet_ner_news_v1.tar"))
        self.ner.navec(Navec.load(os.path.join(data, "emb", "navec_news_v1_1B_250K_300d_100q.tar")))

    def explained(self, rec: dict, start: list[bool], s: int, e: int) -> bool:
        """Whether the dictionary explains the capital letters of the recogniser's span [s, e) (class docstring)."""
        words, offs = rec["w"], rec["i"]
        toks = [k for k, o in enumerate(offs) if s <= o < e and words[k][:1].isalnum()]
        if not toks:
            return True
        reads = [self.analysed(words[k])[0] for k in toks]
        if len(toks) == 1 and words[toks[0]].isupper() and len(words[toks[0]]) > 1:
            if all(p.is_known for p in reads[0]) and not any(p.tag.grammemes & _PROPER_SET for p in reads[0]):
                return True
        known = all(p.is_known for r in reads for p in r) and not any(
            "LATN" in r[0].tag or "UNKN" in r[0].tag for r in reads)
        if known and all(p.tag.POS in _FUNCTION for r in reads for p in r):
            return True
        if not (known and start[toks[0]] and not any(p.tag.POS == "NOUN" for r in reads for p in r)):
            return False
        k = toks[-1] + 1
        after = self.analysed(words[k])[0][0].tag if k < len(words) else None
        return not (after is not None and after.POS == "VERB" and "indc" in after)

    def records(self, texts):
        recs = [self.record(t) for t in texts]
        todo = [k for k, t in enumerate(texts) if any(c.isupper() for c in t)]
        for k, markup in zip(todo, self.ner.map([texts[k] for k in todo])):
            rec = recs[k]
            start = sentence_starts(rec["w"])
            found = [[x.start, x.stop, x.type] for x in markup.spans if not self.explained(rec, start, x.start, x.stop)]
            rec["e"] = sorted(found + [x for x in rec["e"] if not any(a < x[1] and x[0] < b for a, b, _ in found)])
        return recs
