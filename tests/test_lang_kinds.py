"""The kinds of analyser a language pack may name: lang/base.py's ANALYSER_KINDS (read below annotation/, which
it cannot import) is the adapter registry's list (annotation/adapters.py), and a pack.json naming any other kind is
refused when it is read, with its file; a pack, or a language's name, passes wherever a `lang` is taken."""
import json

import pytest

from blonde_core.errors import InputError
from blonde_core.lang.base import ANALYSER_KINDS, as_pack, available, load_pack


def test_the_kinds_lang_knows_are_the_registered_adapters():
    from blonde_core.annotation import adapters

    assert tuple(sorted(ANALYSER_KINDS)) == adapters.kinds()
    assert len(set(ANALYSER_KINDS)) == len(ANALYSER_KINDS)
    for code in available():  # every shipped pack reads, and names one of them
        assert load_pack(code).analyser in ANALYSER_KINDS, code


def write_pack(folder, kind) -> str:
    """A copy of the French pack in `folder` whose analyser is of `kind` (None: the key left out)."""
    data = json.loads(open(load_pack("fr").source, encoding="utf-8").read())
    data.pop("analyser", None)
    if kind is not None:
        data["analyser"] = {"kind": kind, "packages": ["fr_core_news_sm"]}
    folder.mkdir()
    (folder / "pack.json").write_text(json.dumps(data), encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize("kind", ["treetagger", "Spacy", "", ["spacy"], 3])
def test_a_pack_naming_an_unknown_kind_is_refused_when_read(tmp_path, kind):
    folder = write_pack(tmp_path / "odd", kind)
    with pytest.raises(InputError) as e:
        load_pack(folder)
    assert e.value.file == str(tmp_path / "odd" / "pack.json") and e.value.code == InputError.Codes.LANGUAGE
    assert f"not {kind!r}" in str(e.value) and all(k in str(e.value) for k in ANALYSER_KINDS)


def test_a_known_kind_and_the_default_read(tmp_path):
    assert load_pack(write_pack(tmp_path / "sp", "spacy")).analyser == "spacy"
    assert load_pack(write_pack(tmp_path / "none", None)).analyser == "spacy"  # no analyser: spaCy's


def test_a_pack_travels_where_a_language_did():
    """as_pack gives the pack it is given, else load_pack's; the places that take `lang` take either, and a
    config hands on its pack (ScoreConfig.pack), the one load_pack keeps."""
    from blonde_core.metric.settings import ScoreConfig
    from blonde_core.study import CATALOG

    fr = load_pack("fr")
    assert as_pack(fr) is fr and as_pack("fr") is fr
    assert CATALOG.language(fr) is fr and CATALOG.language("fr") is fr
    assert ScoreConfig(lang="fr").pack is fr
    with pytest.raises(InputError):
        as_pack("xx-no-such-pack")


def test_the_engine_shares_one_annotator_per_language_given_either_way():
    from blonde_core.engine import Engine

    engine = Engine(cache_mode="memory", pool="inline", n_process=1)
    by_name = engine.annotator(True, "fr")
    assert engine.annotator(True, load_pack("fr")) is by_name and by_name.pack is load_pack("fr")
    assert engine.annotator(False, load_pack("fr")) is not by_name
