"""Language packs: everything language-specific, as data.

A pack is a JSON file in `blonde_core/langpacks/` (or any path) holding the
tense tags, pronoun classes and word lists, discourse-marker lexicon with
types, entity label groups and the spaCy pipeline names to try.  Adding a
language means adding a file, not code.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from blonde_core.errors import InputError

PACK_DIR = Path(__file__).parent  # one folder per language: lang/<name>/pack.json


@dataclass(frozen=True)
class LanguagePack:
    name: str
    spacy_pipelines: tuple[str, ...]
    spacy_components: tuple[str, ...]
    tense_tags: tuple[str, ...]
    tense_descriptions: dict
    pronoun_classes: tuple[str, ...]
    pronoun_words: dict  # class -> tuple of exact token texts
    entity_groups: tuple[str, ...]
    entity_labels: dict  # group -> tuple of spaCy labels
    entity_strip_suffixes: tuple[str, ...]
    dm_types: tuple[str, ...]
    dm_markers: dict  # type -> tuple of markers (space-separated token runs)
    # derived look-ups
    pronoun_of: dict = field(default_factory=dict, compare=False)
    group_of_label: dict = field(default_factory=dict, compare=False)
    tag_index: dict = field(default_factory=dict, compare=False)
    dm_patterns: tuple = field(default=(), compare=False)  # ((type_index, (tok, ...)), ...)


def _build(data: dict, source: str) -> LanguagePack:
    try:
        pron = {k: tuple(v) for k, v in data["pronoun"]["words"].items()}
        labels = {k: tuple(v) for k, v in data["entity"]["labels"].items()}
        markers = {k: tuple(v) for k, v in data["dm"]["markers"].items()}
        pack = LanguagePack(
            name=data["name"],
            spacy_pipelines=tuple(data["spacy_pipelines"]),
            spacy_components=tuple(data.get("spacy_components", ())),
            tense_tags=tuple(data["tense"]["features"]),
            tense_descriptions=dict(data["tense"].get("descriptions", {})),
            pronoun_classes=tuple(data["pronoun"]["features"]),
            pronoun_words=pron,
            entity_groups=tuple(data["entity"]["features"]),
            entity_labels=labels,
            entity_strip_suffixes=tuple(data["entity"].get("strip_suffixes", ())),
            dm_types=tuple(data["dm"]["features"]),
            dm_markers=markers,
        )
    except (KeyError, TypeError) as exc:
        raise InputError(f"language pack is missing or malformed field {exc}", file=source) from None
    # A word listed under two classes counts for each (as the package does).
    pronoun_of: dict[str, list[int]] = {}
    for ci, cls in enumerate(pack.pronoun_classes):
        for w in pack.pronoun_words.get(cls, ()):
            pronoun_of.setdefault(w, []).append(ci)
    object.__setattr__(pack, "pronoun_of", {k: tuple(v) for k, v in pronoun_of.items()})
    object.__setattr__(pack, "group_of_label", {
        lab: gi for gi, g in enumerate(pack.entity_groups) for lab in pack.entity_labels.get(g, ())})
    object.__setattr__(pack, "tag_index", {t: i for i, t in enumerate(pack.tense_tags)})
    object.__setattr__(pack, "dm_patterns", tuple(
        (ti, tuple(m.split(" "))) for ti, t in enumerate(pack.dm_types) for m in pack.dm_markers.get(t, ())))
    return pack


@lru_cache(maxsize=None)
def load_pack(name_or_path: str = "en") -> LanguagePack:
    """Load a pack by name (`en`) or from a JSON file path."""
    path = Path(name_or_path)
    if not path.suffix:
        path = PACK_DIR / name_or_path / "pack.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("no such language pack", file=str(path)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"language pack is not valid JSON ({exc})", file=str(path)) from None
    return _build(data, str(path))
