"""What a study answers when its target language has no language pack: the texts, their
names and documents, and no BlonDe-family count.  The meta-evaluation (stats.correlate,
metric_table) reads systems and documents from it and correlates only the metrics that
need no pack (sacrebleu's, metrics computed elsewhere); it never asks it for a BlonDe
statistic (metrics=[]), and the signature says which language had no pack."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class _Config:
    granularity: str
    lang: str


class TextsOnly:
    plus = False
    no_pack = True  # stats.correlation.metric_names: no BlonDe metric

    def __init__(self, corpus, granularity: str, lang: str):
        self.corpus = corpus
        self.config = _Config(granularity, lang)
        self.names = list(corpus.systems)
        self.signature = f"texts|lang:{lang}|pack:none|gran:{'sent' if granularity == 'sentence' else 'doc'}"

    def total(self, name: str):
        return None  # no BlonDe statistic: nothing asks for one (no BlonDe metric is correlated)

    def doc_stats(self, name: str):
        return None


__all__ = ["TextsOnly"]
