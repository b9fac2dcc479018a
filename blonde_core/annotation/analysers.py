"""The analysers behind the language packs, each turning its own output into the one record
(pipeline.py) that the metric reads: words, their character offsets, a fine tag, entity spans,
and, where the analyser has them, a coarse part of speech and morphology "Key=Value|...".
Each adapter registers its kind and version where it is written (adapters.py); those of this module,
and those of their own modules:

    spacy       spaCy pipelines (en, fr, cs, es): doc_to_record; Spanish's finite verbs then checked against
                verbecc's conjugation tables (lexicon.py)
    jieba       Chinese: jieba's HMM segmenter with its part-of-speech dictionary (ICTCLAS tags:
                v verb, ul 了, ug 过, uz 着, nr person, ns place, nt organisation, nz other proper noun)
    mecab       Japanese: MeCab with IPAdic, the dictionary sacrebleu's ja-mecab tokenizer uses
                (tags 品詞-細分類1-2-3, e.g. 名詞-固有名詞-人名-姓; 活用型/活用形/原形 as morphology)
    pymorphy3   Russian and Ukrainian: pymorphy3's dictionary analysis of each word (OpenCorpora
                grammemes: POS, aspect, tense, mood, gender; Name/Surn/Patr/Geox/Orgn/Trad), names by rules over it
                (slavic.py)
    pymorphy3+slovnet  Russian: the same, and slovnet's named-entity recogniser (PER, LOC, ORG; slavic.py)
    hanta       German: the Hannover Tagger (STTS tags with its morphological segmentation); the
                tense of a finite verb is read off its morphemes (HantaAnalyser.tense)
    hindipos    Hindi: each word's part of speech from hindiPOS's lexicon (BIS tags: VM, VAUX, NNP ...), a verb
                group's tense and aspect from its auxiliaries by rule (hindi.py)
    kiwi        Korean: Kiwi (kiwipiepy with kiwipiepy-model; Sejong tags: EP 었/겠, EF, NNP), its morphemes grouped
                into the text's words, a word's tense read off its endings (korean.py)
    islenska    Icelandic: each word's readings in BÍN (islenska, islenska-data), one chosen by rules of context (a
                verb beside its subject, an infinitive after að); names by capital letter and BÍN's domains (icelandic.py)

`load_analyser(pack)` gives an object with `records(texts) -> [record]`, loaded once per process.
An adapter's version is part of the pipeline id (and so of every cache key and signature):
bump it whenever what the adapter writes changes.
"""
from __future__ import annotations

import re

from blonde_core.lang.base import LanguagePack

from .adapters import adapter, adapter_of
from .german import german_expletives, german_names
from .japanese import katakana_word
from .pipeline import doc_to_record, load_pipeline

_LOADED: dict[str, object] = {}


@adapter("spacy", version=None)
class SpacyAnalyser:
    """A spaCy pipeline; with a lexicon (lexicon.py), each record's finite verbs checked against it."""

    def __init__(self, nlp, lexicon=None):
        self.nlp = nlp
        self.lexicon = lexicon

    @classmethod
    def for_pack(cls, pack: LanguagePack) -> "SpacyAnalyser":
        from .lexicon import load_lexicon

        return cls(load_pipeline(pack), load_lexicon(pack.lexicon[0], pack.name) if pack.lexicon else None)

    def records(self, texts):
        recs = [doc_to_record(d) for d in self.nlp.pipe(texts, batch_size=64)]
        return recs if self.lexicon is None else [self.lexicon.check(r) for r in recs]


class _PerText:
    """An analyser that reads one text at a time: `records` is its `record` of each."""

    def record(self, text: str) -> dict:  # pragma: no cover - every adapter has its own
        raise NotImplementedError

    def records(self, texts):
        return [self.record(t) for t in texts]


def _offsets(text: str, words: list[str]) -> list[int]:
    """Each word's character offset in text (the analysers give the words in order, spaces left out)."""
    out, pos = [], 0
    for w in words:
        k = text.find(w, pos)
        k = pos if k < 0 else k
        out.append(k)
        pos = k + len(w)
    return out


def _merged(spans: list[tuple[int, int, str]], text: str) -> list[list]:
    """Adjacent spans with the same label (nothing but spaces between) as one (田中 太郎, Пётр Иванов)."""
    out: list[list] = []
    for s, e, lab in spans:
        if out and out[-1][2] == lab and not text[out[-1][1]:s].strip():
            out[-1][1] = e
        else:
            out.append([s, e, lab])
    return out


@adapter("jieba", version=2)
class JiebaAnalyser(_PerText):
    """jieba.posseg with its own dictionary (inside the package), HMM on for unknown words; the entity spans are
    LAC's, mended by rules over jieba's words (chinese.py: jieba's dictionary tags give a word one tag whatever
    its context, and invent as many names as they find)."""

    def __init__(self):
        import logging

        import jieba
        import jieba.posseg

        from .chinese import ChineseEntities

        jieba.setLogLevel(logging.WARNING)
        self.tok = jieba.posseg.POSTokenizer(jieba.Tokenizer())
        self.tok.tokenizer.initialize()
        self.names = ChineseEntities(self.tok.word_tag_tab)

    def record(self, text: str) -> dict:
        pairs = [(p.word, p.flag) for p in self.tok.lcut(text) if p.word.strip()]
        words = [w for w, _ in pairs]
        offs = _offsets(text, words)
        tags = [f for _, f in pairs]
        return {"w": words, "i": offs, "t": tags, "e": self.names.spans(text, words, offs)}


@adapter("mecab", version=2)
class MecabAnalyser(_PerText):
    """MeCab with IPAdic (the dictionary inside the `ipadic` package; sacrebleu's ja-mecab uses it); a katakana
    common noun also carries UniDic's verdict on it in its morphology (`Uni=人名|地名|固有|普通|未知`, japanese.py):
    IPAdic lacks most loanwords, which then look like the foreign names it lacks."""

    PROPER = ("人名", "地域", "組織", "一般")

    def __init__(self):
        import ipadic
        import MeCab

        from .japanese import UniDicLexicon

        self.tagger = MeCab.Tagger(ipadic.MECAB_ARGS)
        self.memo: dict = {}  # MeCab's feature string -> (tag, POS, morphology, entity label)
        self.unidic = UniDicLexicon()

    def record(self, text: str) -> dict:
        """One call of MeCab's parse (a line "surface<TAB>features" per word): three times faster than
        walking its nodes from Python."""
        words, got_all = [], []
        memo = self.memo
        for line in self.tagger.parse(text).split("\n"):
            w, tab, feat = line.partition("\t")
            if not tab:
                continue  # EOS and the empty last line
            got = memo.get(feat)
            if got is None:  # each distinct analysis read once per process
                f = feat.split(",")
                if len(f) < 7:
                    f += ["*"] * (7 - len(f))
                got = ("-".join(f[:f.index("*")] if "*" in f[:4] else f[:4]), f[0],
                       "|".join(f"{k}={v}" for k, v in (("ConjType", f[4]), ("ConjForm", f[5]), ("Lemma", f[6]))
                                if v != "*"),
                       f[2] if f[1] == "固有名詞" and f[2] in self.PROPER else None)
                if len(memo) < 500_000:
                    memo[feat] = got
            words.append(w)
            got_all.append(got)
        offs = _offsets(text, words)
        ents = [(o, o + len(w), g[3]) for w, o, g in zip(words, offs, got_all) if g[3] is not None]
        morph = [g[2] for g in got_all]
        for k, (w, g) in enumerate(zip(words, got_all)):
            if g[0].startswith("名詞-一般") and katakana_word(w):
                morph[k] = f"{morph[k]}|Uni={self.unidic.verdict(w)}" if morph[k] else f"Uni={self.unidic.verdict(w)}"
        return {"w": words, "i": offs, "t": [g[0] for g in got_all], "e": _merged(ents, text),
                "p": [g[1] for g in got_all], "m": morph}


_WORD = re.compile(r"\w+(?:[-'’ʼ]\w+)*|[^\w\s]", re.UNICODE)


# STTS -> Universal Dependencies' coarse part of speech (what barriers and rules read)
_STTS_POS = {"NN": "NOUN", "NE": "PROPN", "ADJA": "ADJ", "ADJD": "ADJ", "ADV": "ADV", "APPR": "ADP", "APPRART": "ADP",
             "APPO": "ADP", "APZR": "ADP", "ART": "DET", "CARD": "NUM", "KON": "CCONJ", "KOKOM": "CCONJ",
             "KOUS": "SCONJ", "KOUI": "SCONJ", "PPER": "PRON", "PRF": "PRON", "PPOSAT": "DET", "PDAT": "DET",
             "PIAT": "DET", "PDS": "PRON", "PIS": "PRON", "PRELS": "PRON", "PWS": "PRON", "PTKNEG": "PART",
             "PTKZU": "PART", "PTKVZ": "ADP", "ITJ": "INTJ"}


@adapter("hanta", version=2)
class HantaAnalyser(_PerText):
    """HanTa 1.2.1 (its German model inside the package) over words cut by a regular expression.  A finite
    verb's tense comes from its morphemes: a weak past suffix (-te, -test, -ten, -tet, -ete ...) or a stem
    that differs from the lemma's by more than the present's umlaut or e -> i (kam/komm, ging/geh, war/sei,
    hatte/hab) is Präteritum; a closed list of irregular present forms (ist, hat, wird, kann, weiß ...) stays
    Präsens.  Konjunktiv II forms, built on the past stem (käme, hätte, würde), count as Präteritum."""

    WEAK_PAST = frozenset({"te", "test", "ten", "tet", "ete", "etest", "eten", "etet"})
    PRESENT = frozenset("""ist bist bin sind seid sei seist seien hat hast habe haben habt wird wirst werde werden
        werdet kann kannst können könnt muss musst müssen müsst will willst wollen wollt darf darfst dürfen dürft
        mag magst mögen mögt weiß weißt wissen wisst tut tust""".split())

    def __init__(self):
        from HanTa import HanoverTagger as ht

        self.tagger = ht.HanoverTagger("morphmodel_ger.pgz")

    @staticmethod
    def _norm(stem: str) -> str:  # the present's stem changes undone: umlaut, e -> i / ie
        return stem.replace("äu", "au").replace("ä", "a").replace("ö", "o").replace("ü", "u").replace(
            "ie", "e").replace("i", "e")

    @classmethod
    def tense(cls, word: str, stem: str, morphs) -> str:
        """Past or Pres of a finite verb (HanTa's stem and morphemes)."""
        w = word.lower()
        if w in cls.PRESENT:
            return "Pres"
        sufs = [m for m, t in morphs if t == "SUF_FIN"]
        if sufs and sufs[-1] in cls.WEAK_PAST:
            return "Past"
        var = [m for m, t in morphs if t.endswith(("_VAR", "_IRR"))]
        if var and cls._norm(var[0]) != cls._norm(stem):
            return "Past"
        return "Pres"

    def record(self, text: str) -> dict:
        words = _WORD.findall(text)
        offs = _offsets(text, words)
        tagged = self.tagger.tag_sent(words, taglevel=3) if words else []
        tags, pos, morph = [], [], []
        for (w, stem, morphs, tag), o in zip(tagged, offs):
            stts = tag.replace("(", "").replace(")", "")  # VV(FIN) -> VVFIN, as STTS writes it
            tags.append(stts)
            if stts.startswith("V"):
                pos.append("AUX" if stts[1] in "AM" else "VERB")
                form = stts[2:]
                if form == "FIN":
                    morph.append(f"Tense={self.tense(w, stem, morphs)}|VerbForm=Fin")
                elif form == "PP":
                    morph.append("VerbForm=Part")
                elif form in ("INF", "IZU"):
                    morph.append("VerbForm=Inf")
                elif form == "IMP":
                    morph.append("Mood=Imp|VerbForm=Fin")
                else:
                    morph.append("")
            else:
                pos.append("PUNCT" if stts.startswith("$") else _STTS_POS.get(stts, "X"))
                morph.append("")
        cased = any(c.isupper() for c in text)
        for k in german_expletives(words, tags):
            morph[k] = "Expl=Yes"
        if cased:
            ents = [(offs[a], offs[b - 1] + len(words[b - 1]), "NE")
                    for a, b in german_names(words, tags, text, offs)]
        else:  # lowercased text: HanTa's NE tags alone, adjacent ones as one name
            ents = _merged([(o, o + len(w), "NE") for w, t, o in zip(words, tags, offs) if t == "NE"], text)
        return {"w": words, "i": offs, "t": tags, "e": ents, "p": pos, "m": morph}


def unload_analyser(pack: LanguagePack) -> None:
    """Forget the pack's analyser (and its spaCy pipeline) in this process: the next load_analyser loads it again
    (Engine.unload: a release's pairs one after another on the command line)."""
    _LOADED.pop(f"{pack.analyser}:{pack.name}", None)
    if pack.analyser == "spacy":
        from .pipeline import forget_pipeline

        forget_pipeline(pack)


def load_analyser(pack: LanguagePack):
    """The pack's analyser, loaded once per process (its kind's adapter: adapters.py)."""
    key = f"{pack.analyser}:{pack.name}"
    got = _LOADED.get(key)
    if got is None:
        got = _LOADED[key] = adapter_of(pack).load(pack)
    return got
