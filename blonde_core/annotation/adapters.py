"""The kinds of analyser a language pack may name (pack.json's analyser.kind), one registry: each adapter - the
class that runs an analyser and turns its output into the one record (pipeline.py) - registers itself where it is
written, with the decorator `adapter`, at the start of a line:

    @adapter("kiwi", version=1)
    class KiwiAnalyser:
        def records(self, texts): ...

declaring its kind, its version and how it is made for a pack (its class method `for_pack(pack)` when it has
one, else the class called with nothing).  The version is part of the pipeline id (pipeline.py), and so of every
cache key and signature: bump it whenever what the adapter writes changes, and the records it wrote before are
never read again.  spaCy's kind has no version: its pipeline's and spaCy's own versions name its records.  The
packages whose versions enter the pipeline id are the pack's (analyser.packages: what it needs installed).

`declared()` reads the decorator lines of this folder's modules (as data, nothing imported), and a module is
imported when its kind is first asked for.  The language packs below this floor cannot import it, so a pack naming
a kind no module declares is refused here (`checked`, naming its pack.json) when a configuration first hands the
pack on (metric/settings.py ScoreConfig.pack) or its adapter is looked up.  Adding an analyser kind is its module
here and the language's folder."""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from blonde_core.errors import InputError
from blonde_core.lang.base import LanguagePack

_DECLARATION = re.compile(r'^@adapter\("([^"]+)"', re.M)
_REGISTRY: dict[str, "Adapter"] = {}


@dataclass(frozen=True)
class Adapter:
    """One kind of analyser: its adapter class and version."""

    kind: str
    version: int | None  # None: spaCy (the pipeline's and spaCy's versions name the records)
    cls: type

    def load(self, pack: LanguagePack):
        """The adapter made for a pack (an object with `records(texts) -> [record]`)."""
        make = getattr(self.cls, "for_pack", None)
        return make(pack) if make is not None else self.cls()


def adapter(kind: str, version: int | None):
    """Class decorator: the class is the adapter of analyser `kind`, writing records of this version."""
    if version is not None and (not isinstance(version, int) or version < 1):
        raise ValueError(f"adapter {kind!r}: version must be a positive integer, not {version!r}")

    def register(cls):
        got = _REGISTRY.get(kind)
        if got is not None and got.cls.__qualname__ != cls.__qualname__:  # the same class again: a reload
            raise ValueError(f"analyser kind {kind!r} registered twice ({got.cls.__qualname__}, {cls.__qualname__})")
        _REGISTRY[kind] = Adapter(kind, version, cls)
        return cls

    return register


@lru_cache(maxsize=1)
def declared() -> dict[str, str]:
    """{kind: the module of this folder that declares its adapter}, read from the modules' text."""
    out: dict[str, str] = {}
    for f in sorted(Path(__file__).parent.glob("*.py")):
        for kind in _DECLARATION.findall(f.read_text(encoding="utf-8")):
            if kind in out:
                raise ValueError(f"analyser kind {kind!r} declared in {out[kind]}.py and {f.stem}.py")
            out[kind] = f.stem
    return out


def kinds() -> tuple[str, ...]:
    """Every kind of analyser a pack may name."""
    return tuple(sorted(declared()))


def checked(pack: LanguagePack) -> LanguagePack:
    """The pack, when a module of this folder declares its analyser kind; else the pack's error, naming its file."""
    if pack.analyser not in declared():
        raise InputError(f"analyser.kind must be one of {', '.join(kinds())}, not {pack.analyser!r}",
                         file=pack.source or None, code=InputError.Codes.LANGUAGE)
    return pack


def adapter_of(pack: LanguagePack) -> Adapter:
    """The registered adapter of the pack's analyser kind; a kind no module declares is the pack's error."""
    got = _REGISTRY.get(pack.analyser)
    if got is not None:
        return got
    module = declared()[checked(pack).analyser]
    importlib.import_module(f"{__package__}.{module}")
    got = _REGISTRY.get(pack.analyser)
    if got is None:  # pragma: no cover - a decorator line the import did not run (inside a function, say)
        raise ImportError(f"{module}.py declares the analyser kind {pack.analyser!r} but registers no adapter for it")
    return got
