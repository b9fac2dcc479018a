"""The language part: what a target language *is* to the metric.

Contract: `load_pack(name)` gives a `LanguagePack` (lang/base.py) read from
`lang/<name>/pack.json` (or a JSON file path): which spaCy pipelines to try and
which of their components to run, each category's feature names in column order,
the word lists and labels that map an annotation record to those features, and
the words' descriptions.  Adding a language is adding a folder; no code outside
it changes.  Nothing here imports spaCy.
"""
from .base import LanguagePack, as_pack, available, guess_language, has_pack, load_pack, no_pack_message

__all__ = ["LanguagePack", "as_pack", "available", "guess_language", "has_pack", "load_pack", "no_pack_message"]
