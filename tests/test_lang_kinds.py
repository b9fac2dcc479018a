"""The kinds of analyser a language pack may name: the adapter registry's (annotation/adapters.py, read from its
modules' decorator lines); a pack.json naming any other kind is refused, naming its file, as soon as a
configuration hands the pack on (ScoreConfig.pack) or its analyser is looked up - lang/, below annotation/, only
refuses a kind that is not a name; a pack, or a language's name, passes wherever a `lang` is taken."""
import json

import pytest

from blonde_core.errors import InputError
from blonde_core.lang.base import as_pack, available, load_pack


def test_every_shipped_pack_names_a_registered_kind():
    from blonde_core.annotation import adapters

    assert len(adapters.kinds()) >= 9 and "spacy" in adapters.kinds()
    for code in available():
        assert adapters.checked(load_pack(code)).analyser in adapters.kinds(), code


def write_pack(folder, kind) -> str:
    """A copy of the French pack in `folder` whose analyser is of `kind` (None: the key left out)."""
    data = json.loads(open(load_pack("fr").source, encoding="utf-8").read())
    data.pop("analyser", None)
    if kind is not None:
        data["analyser"] = {"kind": kind, "packages": ["fr_core_news_sm"]}
    folder.mkdir()
    (folder / "pack.json").write_text(json.dumps(data), encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize("kind", ["", "  ", ["spacy"], 3])
def test_a_pack_whose_kind_is_no_name_is_refused_when_read(tmp_path, kind):
    folder = write_pack(tmp_path / "odd", kind)
    with pytest.raises(InputError) as e:
        load_pack(folder)
    assert e.value.file == str(tmp_path / "odd" / "pack.json") and e.value.code == InputError.Codes.LANGUAGE
    assert f"not {kind!r}" in str(e.value)


@pytest.mark.parametrize("kind", ["treetagger", "Spacy"])
def test_a_pack_naming_an_unknown_kind_is_refused_before_any_work(tmp_path, kind):
    """Refused by the configuration that would score with it and by the analyser's lookup, each naming the file
    and listing the kinds there are."""
    from blonde_core.annotation import adapters
    from blonde_core.annotation.pipeline import find_pipeline
    from blonde_core.metric.settings import ScoreConfig

    folder = write_pack(tmp_path / "odd", kind)
    pack = load_pack(folder)  # a name: read
    for ask in (lambda: ScoreConfig(lang=folder).pack, lambda: find_pipeline(pack), lambda: adapters.checked(pack)):
        with pytest.raises(InputError) as e:
            ask()
        assert e.value.file == str(tmp_path / "odd" / "pack.json") and e.value.code == InputError.Codes.LANGUAGE
        assert f"not {kind!r}" in str(e.value) and all(k in str(e.value) for k in adapters.kinds())


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
