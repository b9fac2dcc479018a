"""Korean: Kiwi (kiwipiepy, its model inside the `kiwipiepy-model` package) turned into the one record.

Kiwi cuts a text into morphemes with Sejong-style tags (NNG common noun, NNP proper noun, NP pronoun, VV verb,
VA adjective, VX auxiliary predicate, VCP copula, EP pre-final ending, EF final ending, EC connective ending,
ETM adnominal ending, J* particles, S* symbols) and each morpheme's character offsets in the text.  The record's
words are the text's words as written (a run of letters or digits, or one punctuation mark): a Korean word
(eojeol) is a stem with its particles or endings, 그는 "he-TOPIC", 만났다 "met".  Each word's morphemes give
    t   the tag of its last morpheme (EF: the word ends a sentence, EC: a clause, JX/JKS...: a noun phrase)
    p   a coarse part of speech (VERB, ADJ, AUX where the word holds a predicate, else its first morpheme's)
    m   "Tense=..." of a word that carries tense (KiwiAnalyser.tense; lang/ko/README.md says what each counts)
and a proper noun (NNP) is an entity span of its own characters (카일 in 카일은), adjacent ones joined
(템바 바부마).  Words keep their particles so that the pronoun category, which reads words, counts 그는, 그의
(he, his) and never the determiner 그 of 그 남자 (that man).
"""
from __future__ import annotations

import re

from .adapters import adapter

_WORD = re.compile(r"\w+(?:-\w+)*|[^\w\s]", re.UNICODE)  # an apostrophe is a quotation mark: '말자'던
_PAST = frozenset({"었", "았", "였", "었었", "았었", "ㅆ"})  # the pre-final ending of the past (Kiwi writes 었/았)
_PROSPECTIVE_ETM = frozenset({"ᆯ", "을", "ㄹ"})  # the adnominal -(으)ㄹ before 것/거 + copula: 갈 것이다
_FINAL_PUNCT = frozenset(".!?…")
# a Latin-script name of a model, product or league: letters with digits, or a capital inside (SA20, N64, 8BitDo)
_MODEL_CODE = re.compile(r"(?=[A-Za-z\d]*[A-Z])(?:(?=[A-Za-z\d]*\d)[A-Za-z\d]+|[A-Za-z\d]*[a-z\d][A-Z][A-Za-z\d]*)")
_COARSE = {"NNG": "NOUN", "NNB": "NOUN", "NR": "NUM", "NNP": "PROPN", "NP": "PRON", "XR": "NOUN", "MM": "DET",
           "MAG": "ADV", "MAJ": "ADV", "IC": "INTJ", "SN": "NUM", "SL": "X", "SH": "X", "SW": "SYM"}
_PREDICATE = {"VV": "VERB", "XSV": "VERB", "VA": "ADJ", "XSA": "ADJ", "VX": "AUX", "VCP": "AUX", "VCN": "AUX"}


@adapter("kiwi", version=1)
class KiwiAnalyser:
    """Kiwi over the text; its morphemes grouped into the text's words (module docstring)."""

    def __init__(self):
        from kiwipiepy import Kiwi

        self.kiwi = Kiwi()  # the model of the kiwipiepy-model package, read from disk: nothing downloads

    def morphemes(self, text: str) -> list[tuple[str, str, int, int]]:
        """(form, tag, start, end) of each morpheme, offsets in text (a fused syllable, 했 = 하 + 었, gives both
        morphemes that syllable's offsets)."""
        return [(t.form, t.tag, t.start, t.start + t.len) for t in self.kiwi.tokenize(text)]

    def records(self, texts):
        return [self.record(t) for t in texts]

    @staticmethod
    def tense(morphs: list[tuple[str, str]], before: list[tuple[str, str]], final: bool) -> str | None:
        """The tense a word carries, from its morphemes (form, tag), the previous word's and whether a
        sentence ends right after it: Past with the pre-final -었-/-았-/-였- (in any clause: 만났다, 갔고,
        했던); else Fut with -겠- (떠나겠다); else Prosp on the copula of 것/거 after an -(으)ㄹ word (갈 것이다,
        할 겁니다); else Pres on a word with a final ending (EF: 간다, 있어요, 학생이다), or a connective ending
        that closes a sentence (있고요., 했는데.); else None (a non-final clause, an adnominal, a noun)."""
        eps = {f for f, t in morphs if t == "EP"}
        if eps & _PAST:
            return "Past"
        if "겠" in eps:
            return "Fut"
        tags = [t for _, t in morphs]
        if "VCP" in tags and any(f in ("것", "거") and t == "NNB" for f, t in morphs) and before \
                and before[-1][1] == "ETM" and before[-1][0] in _PROSPECTIVE_ETM:
            return "Prosp"
        if "EF" in tags:
            return "Pres"
        last = next((t for t in reversed(tags) if t != "JX"), None)
        if final and last == "EC" and any(t in _PREDICATE for t in tags):
            return "Pres"
        return None

    def record(self, text: str) -> dict:
        words = _WORD.findall(text)
        offs, pos = [], 0
        for w in words:
            k = text.find(w, pos)
            offs.append(k)
            pos = k + len(w)
        ms = self.morphemes(text)
        per: list[list[tuple[str, str]]] = [[] for _ in words]
        k = 0
        ents: list[list] = []
        for form, tag, s, e in ms:
            while k + 1 < len(words) and offs[k] + len(words[k]) <= s:
                k += 1
            if words and offs[k] <= s < offs[k] + len(words[k]):
                per[k].append((form, tag))
            if tag == "NNP" and e > s:
                if ents and not text[ents[-1][1]:s].strip():
                    ents[-1][1] = e  # 템바 바부마: one name
                else:
                    ents.append([s, e, "NNP"])
        for w, o in zip(words, offs):  # SA20, N64, 8BitDo: a model's or league's name Kiwi cuts into SL + SN
            m = _MODEL_CODE.match(w)
            if m and not (m.end() < len(w) and w[m.end()].isascii()) and not any(s < o + m.end() and o < e for s, e, _ in ents):
                ents.append([o, o + m.end(), "NNP"])
        ents.sort()
        tags, coarse, morph = [], [], []
        for j, (w, got) in enumerate(zip(words, per)):
            if not got:  # a symbol Kiwi left out
                tags.append("SW")
                coarse.append("PUNCT" if not w.isalnum() else "X")
                morph.append("")
                continue
            tags.append(got[-1][1])
            pred = next((_PREDICATE[t] for _, t in got if t in _PREDICATE), None)
            first = got[0][1]
            coarse.append(pred or _COARSE.get(first, "PUNCT" if first.startswith("S") else
                                              "ADP" if first.startswith("J") else "X"))
            nxt = words[j + 1] if j + 1 < len(words) else ""
            t = self.tense(got, per[j - 1] if j else [], nxt == "" or nxt in _FINAL_PUNCT or nxt in "\"”’'")
            morph.append(f"Tense={t}" if t else "")
        return {"w": words, "i": offs, "t": tags, "e": ents, "p": coarse, "m": morph}
