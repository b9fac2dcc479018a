"""Hindi: words cut by a regular expression over Devanagari, each word's part of speech from the lexicon of the
`hindiPOS` package (SLP Lab, Banasthali Vidyapith; MIT), and the tense and aspect of each verb group read off
its auxiliaries by rule.

hindiPOS ships `wdpos.csv`, a table of (word, BIS tag, P(word | tag)) for 187,000 word forms, and `bipos.csv`,
a tag-transition table; its own tagger (`hmm.postag`) needs polars, rereads both tables on every call and
scans them row by row, and its transitions are all near 0.25, so what it picks is each word's tag of highest
P(word | tag) - a word it does not know is NN.  This adapter reads the same table once (without polars, not
importing the package) and makes the same choice in a dictionary look-up.  The tags are the BIS tag set of
the Indian languages' POS standard: VM main verb, VAUX auxiliary, NN noun, NNP proper noun, PRP pronoun, PSP
postposition, CCD/CCS coordinating/subordinating conjunction, RPD particle, NEG, QTC number, SYM, PUNC.

Tense and aspect (Kachru, *Hindi*, 2006, ch. 5-7; McGregor, *Outline of Hindi Grammar*, 1995): a verb group is
a run of words the lexicon tags VM or VAUX (कर रहा है, गया था, जाएगा); its tense sits in its auxiliaries and
endings, read in this order:
  progressive   रहा / रही / रहे / रहीं after the first word (कर रहा है, जा रही थी), or first after a
                verb stem the lexicon calls a noun (खोज रहे हैं: खोजना is a verb)      Aspect=Prog
  future        a word ending in -गा / -गी / -गे / -गीं (करेगा, होगी, जाएँगे)        Tense=Fut
  past          था / थी / थे / थीं in the group (गया था, करता था, था)              Tense=Past
  present       है / हैं / हूँ / हूं, or हो after the first word (करता है, किया है, है)  Tense=Pres
  modal         चाहिए; a last word in -ें / -ूँ / -ओ / -ो / -िए / -िये / -इए / -इये (करें, जाओ,
                कीजिए: subjunctive, imperative); हो alone (subjunctive)          Mood=Sub
  past          a last word in a perfective ending -ा / -ी / -े / -ीं / -या / -यी / -ये / -ई / -ए /
                -ईं / -आ (किया, गई, आए) that is not an infinitive (-ना / -ने / -नी)  Tense=Past
  present       a bare imperfective participle (-ता / -ती / -ते) after नहीं: the negated present drops
                है (मैं नहीं जानता)                                            Tense=Pres
The group's morphology goes on its last word; the other words carry none, so a group counts once.  A lone
participle -ता / -ती / -ते, an infinitive, a conjunct participle (कर, करके) carry no tense: not counted.

Names (Devanagari has no capital letters; there is no recogniser): a word the lexicon tags NNP ("NNP"), except
the closed classes it also tags so - month and weekday names (dates are not entities), titles and honorifics
before a name (श्रीमती, कप्तान, राजकुमारी: the name after them counts), the four directions - and a word it also
lists as an adjective, adverb or verb (लाल "red", तेज़ी, पी "drank": the lexicon's NNP is its noisiest tag) or
whose spelling variant (nukta dropped, a doubled vowel sign undone) it knows and never as a name; a Devanagari
word the lexicon does not know ("UNK": mostly transliterated foreign names - थसालीन, केरेन्स्की), unless it is
inflected as a noun's oblique plural (-ों, -ओं), written like a future or participle verb form, followed by a
verb (the host of a conjunct verb: रीहायड्रेट करना), a hyphenated pair whose last part is known (कभी-कभी), a
spelling variant of a known word, or a known word with a derivational suffix (गाढ़ा + पन, रूपक + ात्मक); a word
of Latin script that begins with a capital letter ("LATN": YouTube, Signal), unless it carries Hindi's plural
ending (MEPओं); and any noun right after an honorific (लेडी कारी, मिस्टर शॉ), whatever the lexicon says of it.
Neighbours with nothing but spaces between make one name (नरेंद्र मोदी, कबूम सिटी).
"""
from __future__ import annotations

import csv
import importlib.util
import re
import unicodedata
from pathlib import Path

from .adapters import adapter

# A Devanagari word (letters, vowel signs, nukta, virama, the zero-width joiners; hyphenated words whole), a word
# of another script or a number, or one other character.  The danda । and ॥ are punctuation.
_DEV = "[\u0900-\u0963\u0966-\u096f\u0971-\u097f\ua8e0-\ua8ff\u200c\u200d]+"
WORD = re.compile(rf"{_DEV}(?:-{_DEV})*|[^\W_]+(?:[-'’.][^\W_]+)*|\S")

PAST = frozenset({"था", "थी", "थे", "थीं"})
PRESENT = frozenset({"है", "हैं", "हूँ", "हूं"})
PROGRESSIVE = frozenset({"रहा", "रही", "रहे", "रहीं"})
MODAL_ENDS = ("ें", "ूँ", "ूं", "ओ", "ो", "िए", "िये", "इए", "इये", "एँ", "एं")
PERFECTIVE_ENDS = ("ा", "ी", "े", "ीं", "या", "यी", "ये", "ई", "ए", "ईं", "आ")
INFINITIVE_ENDS = ("ना", "ने", "नी", "नीं")
IMPERFECTIVE_ENDS = ("ता", "ती", "ते", "तीं")
VERB_TAGS = frozenset({"VM", "VAUX"})
FUTURE = re.compile("(?:[ेोू]|[एओऊ])[ंँ]?(?:गा|गी|गे|गीं)$")  # करेगा, होगी, करूँगा, जाएंगे; not मांगा, भागा (past)
PARTICIPLE_HU = frozenset({"हुआ", "हुए", "हुई", "हुईं"})
KARNA_PERFECTIVE = frozenset({"की", "किया", "किए", "किये"})  # करना's perfective, which the lexicon may tag PSP
# closed classes the lexicon tags NNP that are no names here (GOLD.md: dates are not entities; a title is not part
# of the name it precedes)
NOT_NAMES = frozenset("""जनवरी फ़रवरी फरवरी मार्च अप्रैल मई जून जुलाई अगस्त सितंबर सितम्बर अक्टूबर अक्तूबर नवंबर नवम्बर
    दिसंबर दिसम्बर सोमवार मंगलवार बुधवार गुरुवार बृहस्पतिवार शुक्रवार शनिवार रविवार श्री श्रीमती सुश्री कुमारी डॉ डॉक्टर
    प्रोफेसर प्रोफ़ेसर मिस्टर मिसेज़ मिसेज मिस सर लेडी लॉर्ड कप्तान कैप्टन जनरल कर्नल मेजर सार्जेंट राजा रानी राजकुमार
    राजकुमारी महाराजा महारानी राष्ट्रपति प्रधानमंत्री मंत्री सांसद उत्तर दक्षिण पूर्व पश्चिम""".split())
OBLIQUE_PLURAL = ("ों", "ओं")
NEGATION = frozenset({"नहीं", "न", "मत"})
# honorifics before a personal name: the word after one is a name (Kachru 2006, ch. 4 on titles and address)
TITLES = frozenset("श्री श्रीमती सुश्री डॉ डॉक्टर प्रोफेसर प्रोफ़ेसर मिस्टर मिसेज़ मिसेज सर लेडी लॉर्ड कप्तान कैप्टन"
                   .split())
# derivational suffixes of abstract nouns and adjectives (McGregor 1995, § on word formation): a word the lexicon
# lacks that is a known word with one of them (गाढ़ा + पन, रूपक + ात्मक) is no name
DERIVATIONAL = ("पन", "पना", "ता", "त्व", "ात्मक", "पूर्ण", "हीन", "दार", "कार")
# the lexicon's tags of a word that is no name: a word it lists as an adjective, adverb or verb too (लाल, तेज़ी, पी)
NOT_NAME_TAGS = frozenset({"JJ", "RB", "VM", "VAUX"})
DOUBLE_SIGN = re.compile("([\u093e-\u094c])[\u093e-\u094c]")


def lexicon_path() -> Path:
    """hindiPOS's wdpos.csv, found without importing the package (its __init__ imports polars)."""
    spec = importlib.util.find_spec("hindiPOS")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("hindiPOS")
    return Path(next(iter(spec.submodule_search_locations))) / "wdpos.csv"


def load_lexicon(path: Path, every: dict | None = None) -> dict[str, str]:
    """{word (NFC): its tag of highest P(word | tag)} from hindiPOS's wdpos.csv (rows: index, Word, POS, Prob;
    a few rows lack a probability: left out); `every`, when given, is filled with {word: {tag: P(word | tag)}}."""
    best: dict[str, tuple[float, str]] = {}
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = csv.reader(f)
        next(rows, None)
        for row in rows:
            if len(row) < 4 or row[2].startswith("<") or not row[2]:
                continue
            try:
                p = float(row[3])
            except ValueError:
                continue
            w = unicodedata.normalize("NFC", row[1].lstrip("\ufeff"))
            if every is not None:
                every.setdefault(w, {})[row[2]] = p
            if p > best.get(w, (-1.0, ""))[0]:
                best[w] = (p, row[2])
    return {w: t for w, (_, t) in best.items()}


def group_morphology(words: list[str], before: str, after_stem: bool = False) -> str:
    """The tense, aspect or mood of a verb group (its words in order; `before`: the word before it; `after_stem`:
    that word, or the one before नहीं, is a verb stem the lexicon tags as a noun - खोज रहे हैं, हिल नहीं रहा था),
    as "Key=Value", or "" (no finite form: a lone participle, an infinitive).  The module's docstring has the
    rules and their order."""
    rest = words[1:]
    last = words[-1]
    if any(w in PROGRESSIVE for w in rest) or (after_stem and len(words) > 1 and words[0] in PROGRESSIVE):
        return "Aspect=Prog"
    if any(FUTURE.search(w) for w in words):
        return "Tense=Fut"
    if any(w in PAST for w in words):
        return "Tense=Past"
    if any(w in PRESENT for w in words) or "हो" in rest:
        return "Tense=Pres"
    if last in PARTICIPLE_HU and (len(words) > 1 or before in KARNA_PERFECTIVE):
        return ""  # की हुई, करते हुए: a participle used as an adjective or adverb (की: the lexicon's postposition)
    if "चाहिए" in words or "चाहिये" in words or words == ["हो"]:
        return "Mood=Sub"
    if last.endswith(MODAL_ENDS):
        return "Mood=Sub"
    if last.endswith(INFINITIVE_ENDS):
        return ""
    if last.endswith(IMPERFECTIVE_ENDS):
        return "Tense=Pres" if before in NEGATION else ""
    if last.endswith(PERFECTIVE_ENDS):
        return "Tense=Past"
    return ""


@adapter("hindipos", version=3)
class HindiPosAnalyser:
    """Hindi through hindiPOS's lexicon and the verb-group rules above (records(texts) -> [record])."""

    def __init__(self):
        self.tags: dict[str, dict[str, float]] = {}
        self.lexicon = load_lexicon(lexicon_path(), self.tags)

    def known(self, word: str) -> str | None:
        """The lexicon's tag of a word (also with candrabindu written as anusvara, हूँ/हूं), or None."""
        lex = self.lexicon
        return lex.get(word) or lex.get(word.replace("ँ", "ं")) or lex.get(word.replace("ं", "ँ"))

    def tag(self, word: str) -> str:
        """A word's BIS tag: the lexicon's, NN when it does not know the word (as hindiPOS), SYM/PUNC for a sign,
        QTC for a number."""
        got = self.known(word)
        if got:
            return got
        if word.isdigit():
            return "QTC"
        if not any(ch.isalpha() for ch in word):
            return "PUNC" if word in "।॥.,!?;:\"'()-–—…" else "SYM"
        return "NN"

    def record(self, text: str) -> dict:
        found = list(WORD.finditer(text))
        words, offs = [m.group() for m in found], [m.start() for m in found]
        norm = [unicodedata.normalize("NFC", w) for w in words]  # looked up as the lexicon is keyed (ज़ = ज + ़)
        tags = [self.tag(w) for w in norm]
        morph = [""] * len(words)
        k, n = 0, len(words)
        while k < n:
            if tags[k] not in VERB_TAGS:
                k += 1
                continue
            j = k + 1
            while j < n and tags[j] in VERB_TAGS:
                j += 1
            b = k - 2 if k >= 2 and norm[k - 1] in NEGATION else k - 1
            stem = b >= 0 and tags[b] != "VM" and self.known(norm[b] + "ना") in VERB_TAGS
            morph[j - 1] = group_morphology(norm[k:j], norm[k - 1] if k else "", stem)
            k = j
        ents = []
        for k, (w, o, t) in enumerate(zip(words, offs, tags)):
            label = self.name_label(norm[k], t, tags[k + 1] if k + 1 < n else "", norm[k - 1] if k else "")
            if label is not None:
                if ents and not text[ents[-1][1]:o].strip():
                    ents[-1][1] = o + len(w)
                else:
                    ents.append([o, o + len(w), label])
        pos = [_COARSE.get(t, "X") for t in tags]
        return {"w": words, "i": offs, "t": tags, "e": ents, "p": pos, "m": morph}

    def name_label(self, word: str, tag: str, next_tag: str, prev: str = "") -> str | None:
        """NNP, UNK or LATN for a word that is (part of) a name, else None (the module's docstring: Names);
        prev: the word before it (a title: the name after it counts whatever the lexicon says)."""
        if prev in TITLES and tag in ("NN", "NNP") and "\u0900" <= word[:1] <= "\u097f":
            return "NNP"  # लेडी कारी, मिस्टर शॉ: कारी, शॉ the lexicon knows as common nouns
        if tag == "NNP":
            if word in NOT_NAMES or self.tags.get(word, {}).keys() & NOT_NAME_TAGS or self.variant_common(word):
                return None
            return "NNP"
        if "a" <= word[:1].lower() <= "z":
            if word.endswith(OBLIQUE_PLURAL + ("ओ",)):
                return None  # MEPओं: a Latin word with Hindi's plural ending is a common noun
            return "LATN" if word[:1].isupper() else None
        if tag != "NN" or not "\u0900" <= word[:1] <= "\u097f" or self.known(word):
            return None
        if "-" in word and self.known(word.rsplit("-", 1)[1]):
            return None
        if word.endswith(OBLIQUE_PLURAL) or FUTURE.search(word) or word.endswith(IMPERFECTIVE_ENDS[:3]):
            return None
        if self.variant_common(word) or any(word.endswith(x) and self.common(word[:-len(x)]) for x in DERIVATIONAL):
            return None
        return None if next_tag in VERB_TAGS else "UNK"

    def common(self, word: str) -> bool:
        """The lexicon knows the word, and not as a proper noun."""
        t = self.known(word)
        return bool(t) and t != "NNP"

    def variant_common(self, word: str) -> bool:
        """A spelling variant of the word (nukta dropped, or a doubled vowel sign, a typo) is a word the lexicon
        knows, and never as a name: तेज़ी = तेजी."""
        v = word.replace("\u093c", "")
        v = DOUBLE_SIGN.sub(r"\1", v)
        return v != word and self.common(v) and "NNP" not in self.tags.get(v, {})

    def records(self, texts):
        return [self.record(t) for t in texts]


# BIS tags -> Universal Dependencies' coarse part of speech (what rules and barriers read)
_COARSE = {"NN": "NOUN", "NNP": "PROPN", "NST": "NOUN", "PRP": "PRON", "DMD": "DET", "DMR": "PRON", "DMQ": "PRON",
           "DMI": "PRON", "VM": "VERB", "VAUX": "AUX", "JJ": "ADJ", "RB": "ADV", "PSP": "ADP", "CCD": "CCONJ",
           "CCS": "SCONJ", "RPD": "PART", "NEG": "PART", "INTF": "ADV", "INJ": "INTJ", "QTC": "NUM", "QTO": "ADJ",
           "QTF": "DET", "RDF": "X", "ECH": "X", "SYM": "SYM", "PUNC": "PUNCT"}

