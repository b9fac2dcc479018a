"""English entities through the real pipeline (en_core_web_sm): the rules on the recogniser's spans apply only
with --tag-as-written (the text tagged as written, compared lowercased); the package's own settings, lowercased
or not, stay the blonde 0.1.4 package's exactly."""
import pytest

from blonde_core.lang import load_pack
from blonde_core.study import Engine, ScoreConfig, Study

EN = load_pack("en")
ENGINE = Engine(cache_mode="memory", pool="inline")
WRITTEN, PACKAGE_MIXED = ScoreConfig(tag_as_written=True), ScoreConfig(lowercase=False)


def entity_texts(text: str, cfg: ScoreConfig) -> list[str]:
    return [r["text"] for r in Study.spans_of_lines([text], cfg, ENGINE) if r["category"] == "entity"]


@pytest.mark.pipeline
@pytest.mark.parametrize("text, dropped, kept", [
    # a capitalised one-word span opening a sentence whose tag is no proper noun (entity.initial_require_tag)
    ("Success! The team from Boston won.", "Success", ["Boston"]),
    ("Mom says you don't want to visit Paris.", "Mom", ["Paris"]),
    # a span without a capital letter in a text written with them (entity.require_capital)
    ("We were coming out of anesthesia when John called.", "anesthesia", ["John"]),
])
def test_common_words_the_recogniser_calls_names_are_not_counted_as_written(text, dropped, kept):
    assert dropped in entity_texts(text, PACKAGE_MIXED)  # the package's -lc no: every span of its labels
    assert entity_texts(text, WRITTEN) == kept


@pytest.mark.pipeline
def test_a_nationality_adjective_opening_a_sentence_stays():
    """NORP adjectives are tagged JJ wherever they stand (entity.initial_exempt_labels): a sentence-initial
    *German* counts as a mid-sentence one does."""
    text = "German farmers protested in Berlin. Many German farmers did."
    assert entity_texts(text, WRITTEN) == ["German", "Berlin", "German"]


@pytest.mark.pipeline
def test_the_package_settings_are_untouched():
    """Lowercased (the package's default) and as written without --tag-as-written (the package's -lc no), each
    span of the package's labels counts, as blonde 0.1.4 counts it."""
    from blonde_core.annotation.pipeline import doc_to_record, load_pipeline
    from blonde_core.metric.features import entities

    nlp = load_pipeline(EN)
    for text in ("Success! The team from Boston won.", "success! the team from boston won."):
        rec = doc_to_record(nlp(text))
        assert [text[s:e] for _, _, s, e in entities(rec, text, EN)] == [
            text[s:e] for s, e, label in rec["e"]
            if label in EN.group_of_label and any(ch.isalpha() for ch in text[s:e])]
