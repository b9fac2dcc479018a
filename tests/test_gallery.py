"""The Phenomenon gallery's cards (sample_data/gallery.json) run through the real pipeline the page uses
(Study.score_texts with the default ScoreConfig; each card scored with the pack of the language its reference
is written in): the candidate a card names as making its error ("worse") scores lower in the card's own
measure, or the card says plainly why not (its "caveat", which the page shows); every language with a pack has
a card in each of BlonDe's four categories; and the page, chosen by phenomenon and language through its pills
or a link, renders (issue 60, point 7)."""
import json

import pytest

from blonde_core.analysis.apt import apt_of_links
from blonde_core.study import CATALOG, ScoreConfig, Study
from conftest import SAMPLE

CARDS = json.loads((SAMPLE / "gallery.json").read_text(encoding="utf-8"))
CORE = ("entity", "tense", "pronoun", "dm")
KINDS = CORE + ("ambiguity", "otem_utem", "apt", "resegment")  # what the page's phenomenon pills offer


def lines(text: str) -> list[str]:
    return text.split("\n")


def score(ex: dict):
    """The card scored as the page scores it: (analysis, note)."""
    ann = ex.get("annotation")
    res, note, _ = Study.score_texts(ex["reference"], ex["candidates"], lines(ann) if ann else None, ScoreConfig(),
                                     resegment=bool(ex.get("resegment")))
    assert res is not None, (ex["id"], note)
    return res, note


def lesson_misses(ex: dict, res) -> list[str]:
    """Where the scores fail to single out the candidate with the card's error (empty: the lesson holds). A core
    card: the worse candidate's F1 in the card's category is strictly lower, and so is its BlonDe (one error of
    one kind, nothing else that BlonDe weighs more), and its other three categories score as the other
    candidate's (the error moves its own category alone). The companions: BlonD+'s ambiguity F1, APT (from the
    card's own alignments), the BlonDe of the re-segmented text; over-/under-translation has an error on each
    side: the worse candidate repeats (Otem higher), the other drops (Utem higher)."""
    worse = ex["worse"]
    other = next(n for n in ex["candidates"] if n != worse)
    s = {n: res.scores(n) for n in (worse, other)}
    cat, misses = ex["category"], []

    def f1(n, c):
        return s[n]["categories"][c]["F1"]

    if cat in CORE + ("ambiguity",):
        if f1(worse, cat) is None or f1(other, cat) is None or not f1(worse, cat) < f1(other, cat):
            misses.append(f"{cat} F1 {worse} {f1(worse, cat)} not below {other} {f1(other, cat)}")
    if cat in CORE:
        if not s[worse]["BlonDe"]["F1"] < s[other]["BlonDe"]["F1"]:
            misses.append(f"BlonDe {worse} {s[worse]['BlonDe']['F1']:.3f} not below {other} "
                          f"{s[other]['BlonDe']['F1']:.3f}")
        moved = [c for c in CORE if c != cat and f1(worse, c) != f1(other, c)]
        if moved:
            misses.append(f"other categories differ too: {moved}")
    if cat == "resegment" and not s[worse]["BlonDe"]["F1"] < s[other]["BlonDe"]["F1"]:
        misses.append("re-segmented BlonDe not lower")
    if cat == "apt":
        apt = apt_of_links(lines(ex["source"]), lines(ex["reference"]),
                           {k: lines(v) for k, v in ex["candidates"].items()}, ex["pair"], ex["alignment"])
        if not apt[worse] < apt[other]:
            misses.append(f"APT {worse} {apt[worse]} not below {other} {apt[other]}")
    if cat == "otem_utem":
        comp = Study.from_texts(lines(ex["reference"]), {k: lines(v) for k, v in ex["candidates"].items()},
                                origin="text").companions(res.config)
        if not (comp[worse]["Otem"] > comp[other]["Otem"] and comp[other]["Utem"] > comp[worse]["Utem"]):
            misses.append(f"Otem/Utem do not show the two errors: {comp}")
    return misses


def test_every_card_says_what_it_teaches():
    """Explicit fields for the page's choice and for the test below: the pack's language, the phenomenon, the
    candidate with the error; ids unique (the Sandbox's button keys and the tests name cards by them)."""
    assert len({ex["id"] for ex in CARDS}) == len(CARDS)
    for ex in CARDS:
        assert ex["lang"] in CATALOG.languages and ex["category"] in KINDS, ex["id"]
        assert len(ex["candidates"]) == 2 and ex["worse"] in ex["candidates"], ex["id"]
        assert all(ex.get(k, "").strip() for k in ("phenomenon", "title", "explanation", "reference")), ex["id"]
        assert "caveat" not in ex or (isinstance(ex["caveat"], str) and ex["caveat"].strip()), ex["id"]


def test_every_pack_language_has_a_card_in_each_category():
    """A category the pack declares empty (its reason in the pack's `<category>.empty`: Hindi's pronouns carry no
    gender) has nothing to teach, so no card; a card for one would fail, its F1 None on both sides."""
    have = {(ex["lang"], ex["category"]) for ex in CARDS}
    missing = [(lang, c) for lang in CATALOG.languages for c in CORE
               if (lang, c) not in have and c not in CATALOG.language(lang).empty]
    assert not missing, missing
    assert not [(lang, c) for lang, c in have if c in CORE and c in CATALOG.language(lang).empty]
    assert "pronoun" in CATALOG.language("hi").empty  # the rule above skips something
    assert set(CATALOG.languages) >= {"cs", "de", "en", "es", "fr", "ja", "ru", "uk", "zh"}


@pytest.mark.parametrize("ex", CARDS, ids=[ex["id"] for ex in CARDS])
def test_the_card_s_error_scores_lower_or_the_card_says_why_not(ex):
    """The worse candidate loses in the card's measure, in the pack of the card's language (guessed from its
    reference, as on the page); a caveat is kept only while a measure still misses the error."""
    res, _ = score(ex)
    assert res.config.lang == ex["lang"], (ex["id"], res.config.lang)
    misses = lesson_misses(ex, res)
    if ex.get("caveat"):
        assert misses, f"{ex['id']}: the scores now single out {ex['worse']}; its caveat is out of date"
    else:
        assert not misses, (ex["id"], misses)


def test_a_core_card_s_error_is_spans_the_pack_finds():
    """Each core card's reference has spans of its category that its language's pack finds, and the worse
    candidate's spans of that category differ from the reference's where the better candidate's do not (the
    spans as the page colours them: the sentence view of the core; what BlonDe matches: an entity by its words
    and class, the other categories by their class within the sentence)."""
    for ex in (e for e in CARDS if e["category"] in CORE):
        res, _ = score(ex)
        view = res.sentence_view(0, res.names, "reference")
        spans = {n: [sorted((s["text"].lower() if s["category"] == "entity" else "", s["feature"]) for s in r["spans"]
                            if s["category"] == ex["category"]) for r in rows] for n, rows in view["rows"].items()}
        other = next(n for n in ex["candidates"] if n != ex["worse"])
        assert any(spans["reference"]), (ex["id"], "no span of its category in the reference")
        assert spans[ex["worse"]] != spans["reference"], (ex["id"], spans)
        if ex["category"] != "tense" or ex["lang"] != "en":  # the English tense card's B rewords its verbs
            assert spans[other] == spans["reference"], (ex["id"], spans)


# --- the page --------------------------------------------------------------------------------------------------

def gallery_page(query: dict | None = None):
    from test_app import new_app

    at = new_app()
    at.query_params.update(query or {})
    return at.switch_page("pages/gallery.py").run()


def card_titles(at) -> list[str]:
    return [h.value for h in at.subheader]


def test_the_page_chooses_cards_by_phenomenon_and_language():
    """A link with a choice (the pills' words, as Streamlit's binding writes them) opens that choice; the pills
    change it and the cards and their count follow (the browser rewrites the address, which AppTest does not
    run); a choice no card fits says so; clearing both shows every card again; nothing raises."""
    from test_app import assert_clean

    want = [ex for ex in CARDS if ex["category"] == "pronoun" and ex["lang"] in ("fr", "zh")]
    at = gallery_page({"phenomenon": "pronoun", "language": ["Chinese", "French"]})  # as the pills say them
    assert_clean(at, "gallery from a link")
    assert at.button_group(key="phenomenon").value == ["pronoun"]
    assert sorted(at.button_group(key="language").value) == ["fr", "zh"]
    assert card_titles(at) == [f"{ex['phenomenon']}: {ex['title']}" for ex in want] and len(at.dataframe) == 2
    assert any(c.value.startswith(f"2 of {len(CARDS)} cards: pronoun in French, Chinese") for c in at.caption)
    # the pills: Japanese only, then discourse markers as well
    at.button_group(key="language").set_value(["ja"]).run()
    assert_clean(at, "gallery, Japanese pronouns")
    assert card_titles(at) == ["Gendered pronoun (Japanese): 彼女 が 彼 に"]
    at.button_group(key="phenomenon").select("dm").run()
    ja = [ex for ex in CARDS if ex["lang"] == "ja" and ex["category"] in ("pronoun", "dm")]
    assert len(at.dataframe) == len(ja) == 2
    # a table per card, its figures the core's: the Japanese pronoun card's pronoun F1 for its two candidates
    table = at.dataframe[[ex["category"] for ex in ja].index("pronoun")].value.set_index("candidate")
    res, _ = score(next(ex for ex in ja if ex["category"] == "pronoun"))
    for n in res.names:
        assert table.loc[n, "pronoun"] == pytest.approx(100 * res.scores(n)["categories"]["pronoun"]["F1"])
    # a choice no card fits
    at.button_group(key="phenomenon").set_value(["ambiguity"]).run()
    assert_clean(at, "gallery, nothing chosen fits")
    assert not at.dataframe and any("No card teaches lexical ambiguity (BlonD+) in Japanese" in i.value
                                    for i in at.info)
    # both cleared: every card, and the address holds no choice
    at.button_group(key="phenomenon").set_value([]).run()
    at.button_group(key="language").set_value([]).run()
    assert_clean(at, "gallery, everything")
    assert len(at.dataframe) == len(CARDS)
    assert any(c.value.startswith(f"{len(CARDS)} of {len(CARDS)} cards") for c in at.caption)


def test_the_choice_outlives_a_visit_to_another_page():
    """Chosen on the page (no link), then Home and back: the same cards, and the choice now in the address."""
    from test_app import assert_clean

    at = gallery_page()
    at.button_group(key="language").set_value(["ja"]).run()
    at.switch_page("pages/home.py").run()
    at.switch_page("pages/gallery.py").run()
    assert_clean(at, "gallery, back from Home")
    assert at.button_group(key="language").value == ["ja"] and at.query_params == {"language": "Japanese"}
    assert len(at.dataframe) == sum(ex["lang"] == "ja" for ex in CARDS)


def test_a_link_naming_what_no_card_has_is_mended_and_a_caveat_shows_on_its_card(tmp_path, monkeypatch):
    """A hand-edited link: the values no card has are left out of the choice and of the address. A card with a
    caveat shows it under its scores (the gallery file is the data here: a copy whose German tense card carries
    one, read in place of the real one)."""
    import studio.typed
    from test_app import assert_clean

    cards = json.loads(json.dumps(CARDS))
    card = next(ex for ex in cards if ex["id"] == "de-tense")
    card["caveat"] = "A caveat written for this test."
    path = tmp_path / "gallery.json"
    path.write_text(json.dumps(cards, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setattr(studio.typed, "GALLERY_FILE", path)
    studio.typed.gallery.clear()  # the page keeps the file it read (st.cache_data): read this one
    try:
        at = gallery_page({"phenomenon": ["verb tense", "mood"], "language": ["German", "xx"]})
    finally:
        studio.typed.gallery.clear()  # and the real file again after
    assert_clean(at, "gallery, edited link")
    assert at.button_group(key="phenomenon").value == ["tense"] and at.button_group(key="language").value == ["de"]
    assert at.query_params == {"phenomenon": "verb tense", "language": "German"}
    assert card_titles(at) == [f"{card['phenomenon']}: {card['title']}"]
    assert any(w.value == "A caveat written for this test." for w in at.warning)
