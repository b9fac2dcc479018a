"""Which metric works for which target language: one fact, asked in one place.

Every metric the tool computes itself is registered with its family, direction, scale
and what it needs of the target language.  The BlonDe family counts discourse spans
with a language pack (lang/), so it exists only for a language with a pack; sacrebleu's
metrics need no pack, but BLEU's tokenizer follows the language (sacrebleu's own
choice: `zh` for Chinese, `ja-mecab` for Japanese, `ko-mecab` for Korean, `13a` for the
rest) and TER splits Chinese, Japanese and Korean characters (`asian_support`).
Metrics computed elsewhere are what their files say and are available whatever the
language.  Nothing here imports spaCy or sacrebleu.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MetricSpec:
    name: str
    family: str  # "blonde" (needs a pack), "companion" (needs a pack), "sacrebleu"
    higher_is_better: bool
    scale: str  # "0-1" (shown x 100 as points) or "0-100"
    needs_pack: bool
    what: str


_SPECS = [
    MetricSpec("BlonDe", "blonde", True, "0-1", True, "discourse spans and n-grams, F1 (Jiang et al. 2022)"),
    MetricSpec("BlonD-d", "blonde", True, "0-1", True, "discourse spans only"),
    MetricSpec("BlonD+", "blonde", True, "0-1", True, "with human-annotated checkpoints"),
    MetricSpec("BlonD", "companion", True, "0-100", True, "the early BlonD"),
    MetricSpec("BlonD-recall", "companion", True, "0-100", True, "the early BlonD, recall"),
    MetricSpec("dBlonD-recall", "companion", True, "0-100", True, "the early BlonD, discourse recall"),
    MetricSpec("BlonD-dist", "companion", True, "0-100", True, "the early BlonD, distance"),
    MetricSpec("dBlonD-dist", "companion", True, "0-100", True, "the early BlonD, discourse distance"),
    MetricSpec("RC", "companion", True, "0-100", True, "ratio of content words"),
    MetricSpec("Otem", "companion", False, "0-100", True, "over-translation (n-grams, via the pack's tokens)"),
    MetricSpec("Utem", "companion", False, "0-100", True, "under-translation (n-grams, via the pack's tokens)"),
    MetricSpec("APT", "companion", True, "0-100", True, "accuracy of pronoun translation"),
    MetricSpec("BLEU", "sacrebleu", True, "0-100", False, "sacrebleu BLEU, tokenizer by target language"),
    MetricSpec("chrF", "sacrebleu", True, "0-100", False, "sacrebleu chrF"),
    MetricSpec("TER", "sacrebleu", False, "0-100", False, "sacrebleu TER"),
]
REGISTRY = {m.name: m for m in _SPECS}
BLONDE_FAMILY = tuple(m.name for m in _SPECS if m.needs_pack)
CJK = ("zh", "ja", "ko")


def available(metric: str, lang: str) -> tuple[bool, str]:
    """(whether `metric` can be computed for target language `lang`, why not).  A metric not
    registered (computed elsewhere) is available: its file holds the numbers."""
    from blonde_core.lang import has_pack
    from blonde_core.lang.detect import language_name

    spec = REGISTRY.get(metric)
    if spec is None or not spec.needs_pack or has_pack(lang):
        return True, ""
    return False, f"{metric} needs a language pack and {language_name(lang)} ({lang}) has none"


def bleu_tokenizer(lang: str | None) -> str:
    """sacrebleu's tokenizer for BLEU in this target language (what `BLEU(trg_lang=lang)` chooses)."""
    return {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}.get(lang or "", "13a")


def sacrebleu_options(metric: str, lang: str | None) -> dict:
    """The keyword arguments of sacrebleu's metric class for this target language."""
    if metric == "BLEU":
        return {"trg_lang": lang or ""}
    if metric == "TER":
        return {"asian_support": (lang or "") in CJK}
    return {}


__all__ = ["BLONDE_FAMILY", "CJK", "MetricSpec", "REGISTRY", "available", "bleu_tokenizer", "sacrebleu_options"]
