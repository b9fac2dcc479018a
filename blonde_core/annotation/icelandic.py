"""Icelandic: each word looked up in BÍN, the Database of Icelandic Morphology (`islenska` with its data package
`islenska-data`), one reading chosen by a few rules of context, written as the one record (pipeline.py).

BÍN lists every inflected form of about 300,000 words with its word class (`ofl`: so verb, kk/kvk/hk noun, lo
adjective, ao adverb, fs preposition, st conjunction, pfn personal pronoun, fn pronoun ...), its domain (`hluti`:
alm general, ism/erm/föð/móð/ætt/gæl personal names, lönd/þor/örn/göt/erl places, fyr/stofn companies and
institutions ...) and its inflection (`mark`: GM-FH-ÞT-3P-ET is active voice, indicative, past, third person,
singular).  It has no frequencies and no context; its extended form (Kristínarsnið) marks the core vocabulary (`birting`
K) and rare, old or obsolete words (`malsnid` SJALD, GAM, URE ...), whose readings give way to the core's (*nýja*
is the adjective "new", not the rare verb "renew").  A form with several readings left gets one by these rules
(each a fact of the grammar, lang/is/README.md says which):

- a rare, old or obsolete reading gives way to the core vocabulary's;
- a finite verb reading (FH indicative, VH subjunctive, BH imperative) wins over a noun or adjective, except in a
  noun's place: after a preposition, an adjective that is no plural subject, an article, a numeral, or right after
  another finite verb (Icelandic is verb-second: *til jarðar*, *gekkst undir*); forms of vera, hafa, verða, munu,
  skulu, geta stay verbs (*er*, *væri*); a present subjunctive or bare-stem imperative alone gives way to the noun
  (*sinni*, *vel*);
- first- and second-person readings count only beside their pronoun or in a clitic form (*ég standi*, *viltu*),
  the verb agrees in number with a subject pronoun beside it (*hann sá*: sjá's past, not sá's plural present);
- an infinitive wins over a third-person plural present after *að*, after a verb taking a bare infinitive (*mun*,
  *vil*, *má*; a pronoun may stand between) and wherever no plural subject stands beside it; the supine wins over a
  second-person plural present (*hefur orðið*); an imperative counts only at the start of a clause;
- *á*, *sér*, *sá* are the preposition, reflexive and demonstrative unless a subject pronoun stands beside them;
  *sem* is always the relative particle; *mun* before a comparative is the adverb "much".

Entities: a word written with a capital letter inside a sentence is a name (Icelandic capitalises proper nouns
only: not nationalities, languages, months or days); a capitalised word that opens a sentence is a name only
when BÍN knows it solely as a name or not at all.  Neighbouring names are one span.  The label is the BÍN
domain of the name (person, place, company ...), "Unkn" when BÍN does not know the word as a name.
"""
from __future__ import annotations

import re

from .adapters import adapter

# words and punctuation, hyphenated words and words with an apostrophe kept whole (as the other per-word adapters)
_WORD = re.compile(r"\w+(?:[-'’ʼ]\w+)*|[^\w\s]", re.UNICODE)

# BÍN word classes -> the coarse part of speech (Universal Dependencies' names) the pack's rules read
_POS = {"so": "VERB", "kk": "NOUN", "kvk": "NOUN", "hk": "NOUN", "lo": "ADJ", "ao": "ADV", "fs": "ADP",
        "st": "CCONJ", "nhm": "PART", "pfn": "PRON", "fn": "PRON", "afn": "PRON", "abfn": "PRON", "gr": "DET",
        "to": "NUM", "töl": "NUM", "uh": "INTJ"}
_CLOSED = frozenset(("ao", "fs", "st", "nhm", "pfn", "fn", "afn", "abfn", "gr", "to"))
# function words with a rarer finite-verb homograph: the verb only beside a nominative subject pronoun
_FUNCTION_FIRST = frozenset(("á", "sér", "sá"))
_NEVER_VERB = frozenset(("sem",))  # the relative "sem", never "ég sem" (I compose) in running text
_SUBJECT = frozenset("ég þú hann hún það við þið þeir þær þau".split())
_SUBJECT_AFTER = frozenset("ég þú hann hún þeir þær þau".split())  # a verb before its subject ("sá hún")
_PLURAL_SUBJECT = frozenset("við þið þeir þær þau sem".split())  # before a plural verb: not an infinitive
_SINGULAR = frozenset("ég þú hann hún það".split())
_MUCH = frozenset(("mun",))  # the adverb "much" before a comparative (mun lengra), else munu's form
# lemmas whose finite forms are verbs whatever their homographs (er is no conjunction, væri no noun)
_ALWAYS_VERB = frozenset(("vera", "hafa", "verða", "munu", "skulu", "geta"))
_NAME_DOMAINS = frozenset(("ism", "erm", "föð", "móð", "ætt", "gæl", "lönd", "þor", "örn", "göt", "erl", "bær",
                           "fyr", "stofn", "mvirk", "heö", "bibl"))
# the order in which a span of several names takes its label (a person's name beats a place in "Jón Íslands")
_LABEL_ORDER = ("ism", "erm", "föð", "móð", "ætt", "gæl", "fyr", "stofn", "lönd", "þor", "erl", "örn", "göt",
                "bær", "heö", "mvirk", "bibl")
# BÍN's register marks of a rare, old or obsolete word or form: its readings give way to the core vocabulary's
_RARE = frozenset(("SJALD", "GAM", "URE", "FORN", "STAD"))
_CLAUSE_START = frozenset('.!?:;,"“”„«»—–-()')


def _verb_morph(mark: str) -> str:
    """The morphology of a verb reading from its BÍN inflection mark (GM-FH-ÞT-3P-ET, MM-VH-NT-1P-FT, GM-BH-ET,
    GM-NH, GM-SAGNB, LHÞT-SB-KK-NFET ...)."""
    parts = mark.split("-")
    if "FH" in parts or "VH" in parts:
        mood = "Ind" if "FH" in parts else "Sub"
        tense = "Past" if "ÞT" in parts else "Pres"
        return f"VerbForm=Fin|Mood={mood}|Tense={tense}"
    if "BH" in parts:
        return "VerbForm=Fin|Mood=Imp"
    if "NH" in parts:
        return "VerbForm=Inf"
    if "SAGNB" in parts:
        return "VerbForm=Sup"
    if mark.startswith(("LHÞT", "LH-NT")):
        return "VerbForm=Part"
    return ""


@adapter("islenska", version=2)
class IslenskaAnalyser:
    """BÍN through `islenska` over words cut by a regular expression; `records(texts)` gives one record a text
    (w, i, t: the chosen reading's word class with -MST for a comparative, e: names with their BÍN domain,
    p: coarse POS, m: verb morphology).  Each distinct (word, sentence-initial) look-up is made once per process."""

    def __init__(self):
        from islenska import Bin

        self.bin = Bin()
        self.memo: dict = {}  # (word, at a sentence start) -> readings as (ofl, hluti, mark, ord)

    def readings(self, word: str, start: bool) -> tuple:
        key = (word, start)
        got = self.memo.get(key)
        if got is None:
            _, found = self.bin.lookup_ksnid(word, at_sentence_start=start)
            core = [m for m in found if m.birting == "K" and m.malsnid not in _RARE and m.bmalsnid not in _RARE]
            got = tuple(dict.fromkeys((m.ofl, m.hluti, m.mark, m.ord) for m in core or found))
            if len(self.memo) < 500_000:
                self.memo[key] = got
        return got

    @staticmethod
    def plausible(mark: str, prev: str, nxt: str) -> bool:
        """Can a finite reading's person stand here?  The third person always; the first and second only beside
        their pronoun (ég standi, reyni ég, við erum, þið komuð), or in a clitic form (farðu, viltu, Ætlarðu)."""
        parts = mark.split("-")
        if "3P" in parts or "BH" in parts:
            return True
        near = {prev, nxt}
        if "1P" in parts:
            return ("ég" if "ET" in parts else "við") in near
        if "2P" in parts:
            return ("þú" if "ET" in parts else "þið") in near
        return True

    @classmethod
    def choose(cls, low: str, reads: tuple, prev: str, nxt: str, clause_start: bool, before: tuple,
               next_reads: tuple) -> tuple[str, str, str]:
        """(tag, coarse POS, morphology) of one word from its readings and its neighbours: prev and nxt lowercased,
        before the (word, POS, tag, morphology) of the two words before it (nearest first), next_reads the next
        word's readings (read for "mun" only)."""
        prev_pos, prev_tag, prev_m = before[0][1:] if before else ("", "", "")
        verbs = [r for r in reads if r[0] == "so"]
        other = [r for r in reads if r[0] != "so"]
        if low in _NEVER_VERB or (low in _FUNCTION_FIRST and other and prev not in _SUBJECT
                                  and nxt not in _SUBJECT_AFTER):
            verbs = []
        if low in _MUCH and any("MST" in r[2] for r in next_reads):
            verbs = []  # "mun lengra": much longer
        finite = [r for r in verbs if _verb_morph(r[2]).startswith("VerbForm=Fin") and cls.plausible(r[2], prev, nxt)]
        strong = any(r[3] in _ALWAYS_VERB for r in finite)
        infs = [r for r in verbs if r[2].endswith("NH")]
        plural = bool(finite) and all(r[2].endswith("3P-FT") for r in finite if "FH" in r[2].split("-"))
        aux_before = prev in _AUX_BEFORE_INF or (
            prev in _SUBJECT and len(before) > 1 and before[1][0] in _AUX_BEFORE_INF)
        if infs and (prev == "að" or aux_before or (plural and not (
                prev in _PLURAL_SUBJECT or nxt in _PLURAL_SUBJECT or prev_tag.endswith("-NFFT")))):
            return "so", "VERB", "VerbForm=Inf"
        if other and not strong:
            # a noun's place: after a preposition, adjective (not a plural subject: "Margir vinna"), article or
            # numeral, or right after a finite verb (Icelandic puts one finite verb in its clause's second place)
            nominal = (prev_pos in ("ADP", "DET", "NUM") or (prev_pos == "ADJ" and not prev_tag.endswith("-NFFT"))
                       or prev_m.startswith("VerbForm=Fin"))
            ind = [r for r in finite if "FH" in r[2].split("-") or r[2].endswith("BH-ET")]
            past_sub = [r for r in finite if "VH" in r[2].split("-") and "ÞT" in r[2].split("-")]
            if nominal or not (ind or past_sub):  # a subjunctive present or bare stem alone gives way
                finite = []
        if verbs:
            sups = [r for r in verbs if r[2].endswith("SAGNB")]
            if sups and not [r for r in finite if "2P-FT" not in r[2] and "BH-FT" not in r[2]]:
                return "so", "VERB", "VerbForm=Sup"
            if finite:
                ind = [r for r in finite if "FH" in r[2].split("-")]
                imp = [r for r in finite if "BH" in r[2].split("-") and not r[2].endswith("BH-ST")]
                if imp and (clause_start or not ind):
                    return "so", "VERB", "VerbForm=Fin|Mood=Imp"
                best = ind or [r for r in finite if "VH" in r[2].split("-")] or finite
                # the verb agrees in number with a subject pronoun beside it (hann sá: sjá's past, not sá's plural)
                num = "ET" if {prev, nxt} & _SINGULAR else "FT" if {prev, nxt} & (_PLURAL_SUBJECT - {"sem"}) else ""
                best = [r for r in best if r[2].split("-")[-1].startswith(num)] or best if num else best
                if best[0][2].endswith("BH-ST") and other:
                    finite = []
                else:
                    return "so", "VERB", _verb_morph(best[0][2])
            if infs and not other:
                return "so", "VERB", "VerbForm=Inf"
            if not other:
                return "so", "VERB", _verb_morph(verbs[0][2])
        if not other:
            return "x", "X", ""
        closed = [r for r in other if r[0] in _CLOSED]
        r = closed[0] if closed and (low in _FUNCTION_FIRST or low in _MUCH) else other[0]
        nom_pl = any(q[2].split("-")[-1] == "NFFT" for q in other)
        comparative = "MST" in r[2].split("-") or r[2].startswith("MST")
        tag = r[0] + ("-MST" if comparative else "") + ("-NFFT" if nom_pl else "")
        pos = "PROPN" if r[1] in _NAME_DOMAINS else _POS.get(r[0], "X")
        return tag, pos, ""

    def name_label(self, word: str, reads: tuple, start: bool) -> str | None:
        """The BÍN domain of a capitalised word that is a name ("Unkn": not known as a name), or None."""
        names = [r for r in reads if r[3][:1].isupper()]
        if start:  # a sentence's first word: a name only when it is nothing else
            if reads and (len(names) < len(reads) or not any(r[1] in _NAME_DOMAINS for r in names)):
                return None
        elif any(r[0] in _CLOSED for r in reads) and not names:
            return None  # a function word written with a capital (a title's "Og")
        doms = [r[1] for r in names if r[1] in _NAME_DOMAINS]
        return next((d for d in _LABEL_ORDER if d in doms), "Unkn")

    def record(self, text: str) -> dict:
        found = list(_WORD.finditer(text))
        words, offs = [m.group() for m in found], [m.start() for m in found]
        n = len(words)
        low = [w.lower() for w in words]
        tags, pos, morph, names = [], [], [], []
        start = True
        for k, w in enumerate(words):
            if not w[0].isalnum():
                tags.append("p")
                pos.append("PUNCT")
                morph.append("")
                start = w in '.!?…:"“„«»—–' or (start and w in "'‘’(")
                names.append(None)
                continue
            reads = self.readings(w, start)
            prev = low[k - 1] if k else ""
            nxt = low[k + 1] if k + 1 < n else ""
            clause = k == 0 or words[k - 1][-1:] in _CLAUSE_START
            nreads = self.readings(words[k + 1], False) if nxt and low[k] in _MUCH else ()
            before = tuple((low[j], pos[j], tags[j], morph[j]) for j in (k - 1, k - 2) if j >= 0)
            t, p, m = self.choose(low[k], reads, prev, nxt, clause, before, nreads)
            tags.append(t)
            pos.append(p)
            morph.append(m)
            names.append(self.name_label(w, reads, start) if w[0].isupper() and w[0].isalpha() else None)
            start = False
        ents: list[list] = []
        for k, lab in enumerate(names):
            if lab is None:
                continue
            s, e = offs[k], offs[k] + len(words[k])
            if ents and names[k - 1] is not None and not text[ents[-1][1]:s].strip():
                ents[-1][1] = e  # neighbouring names: one span, the label of its most telling word
                ents[-1][3].append(lab)
            else:
                ents.append([s, e, lab, [lab]])
        out = [[s, e, next((d for d in _LABEL_ORDER if d in labs), labs[0])] for s, e, _, labs in ents]
        return {"w": words, "i": offs, "t": tags, "e": out, "p": pos, "m": morph}

    def records(self, texts):
        return [self.record(t) for t in texts]


# forms of the verbs that take a bare infinitive (munu, skulu, vilja, geta...): an infinitive after them, not a
# plural present (mun gera, vil fara, gæti verið)
_AUX_BEFORE_INF = frozenset("""mun munt munum munuð munu myndi myndir myndum mynduð myndu mundi mundir mundum
    munduð mundu skal skalt skulum skuluð skulu skyldi skyldir skyldum skylduð skyldu vil vilt vill viljum viljið
    vilja vildi vildir vildum vilduð vildu má mátt megum megið mega mætti mættir mættum mættuð mættu
    ætti ættir ættum ættuð ættu muntu skaltu viltu máttu""".split())
