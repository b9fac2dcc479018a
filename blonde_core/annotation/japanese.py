"""Japanese: UniDic (the `unidic-lite` package, read by the same MeCab) as a second lexicon for the katakana nouns of
IPAdic's analysis.  IPAdic (1990s newspaper vocabulary, what sacrebleu's ja-mecab segments with) lacks most
later loanwords - ブラウザ, ウェブページ, タブレット are unknown words to it, exactly like a foreign name - while UniDic
knows them as common nouns and knows many foreign given names and surnames as 固有名詞-人名.  The adapter
(MecabAnalyser) keeps IPAdic's words and tags and only adds UniDic's verdict on each katakana noun to its
morphology (`Uni=...`); the entity rule (metric/features.py, `_katakana_names`) reads it.
"""
from __future__ import annotations

KATAKANA = frozenset(chr(c) for c in range(0x30A1, 0x30FB)) | {"ー", "ヴ"}


def katakana_word(w: str) -> bool:
    """A word of two or more katakana (the long-vowel mark not first): where a foreign name or a loanword is."""
    return len(w) > 1 and w[0] != "ー" and all(ch in KATAKANA for ch in w)


class UniDicLexicon:
    """What UniDic says a katakana word is, as one of
        人名  a person's name (every proper-noun part of it a UniDic 名詞-固有名詞-人名: ニコラス, ケヴィン)
        地名  a place name (one word, UniDic 名詞-固有名詞-地名)
        固有  another proper noun, or parts of several kinds (a 地名 part beside a common noun)
        普通  one word UniDic knows, not a proper noun (a common noun, adverb, interjection: ブラウザ, ピカピカ), or
              loanwords of two or more characters each, common nouns (語種 外: ウェブ + ページ)
        未知  a part UniDic does not know either, or a cut no compound loanword has: a one-character part, a part
              not a noun or a native word in katakana (アク + イロ, "lye" + "colour":
              UniDic forcing its words on a name)
    Each distinct word is looked up once per process (`memo`); the word is analysed on its own, so UniDic's
    segmentation of the sentence never enters the record."""

    def __init__(self):
        import os

        import MeCab
        import unidic_lite

        d = unidic_lite.DICDIR
        self.tagger = MeCab.Tagger(f'-r "{os.path.join(d, "mecabrc")}" -d "{d}"')
        self.memo: dict[str, str] = {}

    def verdict(self, word: str) -> str:
        got = self.memo.get(word)
        if got is None:
            got = self._verdict(word)
            if len(self.memo) < 200_000:
                self.memo[word] = got
        return got

    def _verdict(self, word: str) -> str:
        proper, parts, odd = [], 0, False
        node = self.tagger.parseToNode(word)
        while node is not None:
            if node.surface:
                parts += 1
                if node.stat == 1:  # MECAB_UNK_NODE: not in UniDic
                    return "未知"
                f = node.feature.split(",")
                if f[0] == "名詞" and f[1] == "固有名詞":
                    proper.append(f[2])
                elif f[0] != "名詞" or len(node.surface) < 2 or (len(f) > 12 and f[12] != "外"):
                    odd = True
            node = node.next
        if not proper:
            return "未知" if parts > 1 and odd else "普通"
        if all(p == "人名" for p in proper):
            return "人名"
        if parts == 1 and proper[0] == "地名":
            return "地名"
        return "固有"
