"""A toy target language for tests, with a stand-in for its spaCy pipeline.

The language itself is data (pack.json); `ToyBackend` is an annotation backend
(blonde_core/annotation/backends.py's interface) whose "pipeline" reads words
of the form STEM/FEATURE: `kam/past` is a verb in the past (morphology
Tense=Past|VerbForm=Fin), `Ola/PER` a name.  Nothing outside this folder knows
about the language."""
from __future__ import annotations

from pathlib import Path

FOLDER = str(Path(__file__).parent)
TENSE = {"past": "Past", "present": "Pres", "future": "Fut"}


def toy_record(text: str) -> dict:
    words, offs, morph, pos, ents, at = [], [], [], [], [], 0
    for raw in text.split(" ") if text else []:
        stem, _, mark = raw.partition("/")
        words.append(stem)
        offs.append(at)
        if mark in TENSE:
            morph.append(f"Tense={TENSE[mark]}|VerbForm=Fin")
            pos.append("VERB")
        elif mark == "part":  # a participle: a tense in morphology, but not finite
            morph.append("Tense=Past|VerbForm=Part")
            pos.append("VERB")
        else:
            morph.append("")
            pos.append("PROPN" if mark == "PER" else "X")
        if mark == "PER":
            ents.append([at, at + len(stem), "PER"])
        at += len(raw) + 1
    return {"w": words, "i": offs, "t": ["X"] * len(words), "e": ents, "p": pos, "m": morph}


class ToyBackend:
    pipeline_id = "toy_core_test_sm-0.0.1/none"
    loaded_pipeline = False

    def __init__(self, pack, n_process: int = 1):
        self.pack = pack

    def run(self, texts, on_batch, on_late=None) -> None:
        for i in range(0, len(texts), 3):  # small batches, as a real backend streams them
            batch = texts[i:i + 3]
            on_batch(batch, [toy_record(t) for t in batch])
