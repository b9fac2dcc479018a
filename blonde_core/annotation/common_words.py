"""The words a spaCy pipeline's own lemmatizer tables know, for the entity rule `entity.initial_lexicon`
(metric/features.py entities): a capitalised word opening a sentence that the language's lexicon knows in lower
case is a common word written with a capital (French *Bonjour*, *Regardez*, *Désolé*, *Noël*), no name.

The tables are the pipeline package's `lemmatizer/lookups/lookups.bin` (fr_core_news_sm: 216,849 word forms
with their lemmas, and the lemmas its rule lemmatizer knows per part of speech), read with srsly (spaCy's own
serialiser) without loading spaCy, once per process and pipeline (about 0.6 s). The forms are stored as spaCy's
string hashes (MurmurHash64A of the UTF-8 bytes, seed 1: `hash_string`, re-stated here so that a cached run does
not import spaCy; tests/test_french.py checks it against spaCy's). A pipeline without such tables knows no word:
the rule then drops nothing."""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

from blonde_core.lang.base import LanguagePack

_M, _MASK = 0xC6A4A7935BD1E995, (1 << 64) - 1


def string_hash(s: str) -> int:
    """spaCy's hash of a string (spacy.strings.hash_string): MurmurHash64A of its UTF-8 bytes, seed 1."""
    data = s.encode("utf-8")
    n = len(data)
    h = (1 ^ (n * _M)) & _MASK
    full = n - n % 8
    for i in range(0, full, 8):
        k = (int.from_bytes(data[i:i + 8], "little") * _M) & _MASK
        k = ((k ^ (k >> 47)) * _M) & _MASK
        h = ((h ^ k) * _M) & _MASK
    if full < n:
        h = ((h ^ int.from_bytes(data[full:], "little")) * _M) & _MASK
    h = ((h ^ (h >> 47)) * _M) & _MASK
    return h ^ (h >> 47)


def knows(pack: LanguagePack, word: str) -> bool:
    """Does the lexicon of the pack's installed pipeline know this word in lower case (a form or a lemma)?"""
    from .pipeline import find_pipeline

    forms, lemmas = _tables(*find_pipeline(pack))
    w = word.lower()
    return w in lemmas or (bool(forms) and string_hash(w) in forms)


@lru_cache(maxsize=4)
def _tables(name: str, version: str) -> tuple[frozenset, frozenset]:
    """(hashes of the word forms, lemmas) of a pipeline's lemmatizer tables; both empty without them."""
    spec = importlib.util.find_spec(name)
    roots = list(spec.submodule_search_locations or ()) if spec is not None else []
    files = sorted(f for r in roots for f in Path(r).glob("*/lemmatizer/lookups/lookups.bin"))
    if not files:
        return frozenset(), frozenset()
    import srsly

    tables = srsly.msgpack_loads(files[0].read_bytes())
    lookup = tables.get("lemma_lookup") or {}  # hash of a form -> its lemma(s)
    lemmas = {x.lower() for ls in lookup.values() for x in (ls if isinstance(ls, list) else [ls]) if isinstance(x, str)}
    for ls in (tables.get("lemma_index") or {}).values():  # hash of a part of speech -> its lemmas
        lemmas.update(x.lower() for x in ls if isinstance(x, str))
    return frozenset(k for k in lookup if isinstance(k, int)), frozenset(lemmas)
