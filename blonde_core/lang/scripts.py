"""How a target language is written, where several parts need the same fact: each pack says it (pack.json's
"script"), and every part asks `script(lang)` instead of keeping its own list of language codes (issue 61: there
were three lists).

    unspaced        written without spaces between words (Chinese, Japanese): re-segmentation aligns characters
                    (io/resegment.py), and a name stands inside a longer string of characters (metric/features.py)
    bleu_tokenize   sacrebleu's tokenizer for BLEU into this language (analysis/standard.py): "zh", "ja-mecab",
                    "ko-mecab" (what sacrebleu itself picks for those targets), "13a" by default
    ter_asian_support  sacrebleu's TER is computed normalised with Asian support (every CJK character a token;
                    Korean is spaced, but its Hangul is split as WMT does it), and only when asked (the Study's
                    ter_left_out: about a second a paragraph)

A language with no pack is written as most are: spaced, "13a", plain TER (sacrebleu's own defaults)."""
from __future__ import annotations

from functools import lru_cache

from .base import Script, has_pack, load_pack

SPACED = Script()  # the facts of a language no pack describes


@lru_cache(maxsize=256)
def script(lang: str | None) -> Script:
    """The script facts of a target language (a pack's name, a pack's folder or file, or any language code)."""
    return load_pack(lang).script if lang and has_pack(lang) else SPACED
