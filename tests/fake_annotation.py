"""A deterministic stand-in for spaCy used only by the property tests, so that
hypothesis can explore thousands of corpora quickly.  The real pipeline is
exercised by test_real_pipeline.py on TED data."""
from blonde_core.annotation.annotator import Annotator
from blonde_core.lang import load_pack
from blonde_core.metric.blonde import BlonDe
from blonde_core.metric.settings import ScoreConfig

TAGS = {"ran": "VBD", "runs": "VBZ", "run": "VB", "can": "MD", "running": "VBG", "seen": "VBN", "go": "VBP"}
ENTS = {"Ann": "PERSON", "Bob": "PERSON", "Paris": "GPE", "Acme": "ORG", "Monday": "DATE"}
VOCAB = ["he", "she", "it", "they", "his", "her", "He", "She", "ran", "runs", "run", "can", "running", "seen",
         "go", "but", "so", "when", "then", "the", "cat", "Ann", "Bob", "Paris", "Acme", "Monday", "on",
         "other", "hand", "However", "else,"]


def fake_record(text: str) -> dict:
    words = text.split(" ") if text else []
    offs, pos = [], 0
    for w in words:
        offs.append(pos)
        pos += len(w) + 1
    ents = [[o, o + len(w), ENTS[w]] for w, o in zip(words, offs) if w in ENTS]
    return {"w": words, "i": offs, "t": [TAGS.get(w, "NN") for w in words], "e": ents}


class FakeBackend:
    """An annotation backend (blonde_core/annotation/backends.py's interface) that reads fake_record:
    no spaCy, no installed pipeline."""
    pipeline_id = "fake-0/none"
    loaded_pipeline = False

    def __init__(self, pack, n_process: int = 1):
        pass

    def run(self, texts, on_batch, on_late=None) -> None:
        on_batch(list(texts), [fake_record(t) for t in texts])


def fake_metric(config: ScoreConfig | None = None) -> BlonDe:
    cfg = config or ScoreConfig(lowercase=False)
    return BlonDe(cfg, annotator=Annotator(load_pack(cfg.lang), cfg.lowercase, None, pool=FakeBackend))


class _Tok:
    def __init__(self, text, tag):
        self.text, self.tag_ = text, tag


class _Ent:
    def __init__(self, text, label):
        self.text, self.label_ = text, label


class FakeDoc:
    """Just enough of a spaCy Doc for tests/package_oracle.py."""

    def __init__(self, text: str):
        rec = fake_record(text)
        self._toks = [_Tok(w, t) for w, t in zip(rec["w"], rec["t"])]
        self.ents = [_Ent(text[s:e], lab) for s, e, lab in rec["e"]]

    def __iter__(self):
        return iter(self._toks)
