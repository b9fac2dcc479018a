"""French through the real pipeline (fr_core_news_sm): worked examples fix each category's counts,
including compound tenses counted once on the auxiliary and a feminine pronoun chain."""
import json

import pytest

from blonde_core.annotation.pipeline import doc_to_record, load_pipeline
from blonde_core.lang import load_pack
from blonde_core.study import Engine, ScoreConfig, Study

FR = load_pack("fr")


def tenses(text: str) -> list[tuple[str, str]]:
    rec = doc_to_record(load_pipeline(FR)(text))
    return [(rec["w"][i], FR.tense_tags[f]) for i, f in FR.tense_tokens(rec)]


def test_simple_and_compound_tenses_by_hand():
    # the auxiliary carries the compound tense, the participle is not counted apart
    assert tenses("elle est partie hier et il a mangé une pomme .") == [("est", "passé composé"),
                                                                     ("a", "passé composé")]
    assert tenses("il n'a pas encore mangé .") == [("a", "passé composé")]  # negation between
    assert tenses("elle avait fini quand ils mangeront demain .") == [("avait", "plus-que-parfait"),
                                                                      ("mangeront", "futur")]
    assert tenses("nous aurions aimé qu'elle soit venue .") == [("aurions", "conditionnel passé"),
                                                               ("soit", "subjonctif passé")]
    assert tenses("elle sera arrivée , puis il mangera .") == [("sera", "futur antérieur"), ("mangera", "futur")]
    assert tenses("il mangeait pendant que je lisais .") == [("mangeait", "imparfait"), ("lisais", "imparfait")]


def counted_pronouns(text: str) -> list[str]:
    from blonde_core.metric.features import pronoun_tokens

    words = doc_to_record(load_pipeline(FR)(text))["w"]
    return [words[k] for k, _ in pronoun_tokens(words, FR)]


def test_impersonal_il_is_not_a_masculine_pronoun():
    """Issue 50: impersonal il (il y a, il faut, il s'agit, il est + adjective + de/que, weather verbs) has no
    referent; counted as masculine it collapsed documents' BlonDe (LT22 on WMT22 de-fr). Through the real
    French pipeline's tokens; sources of the patterns in lang/fr/README.md."""
    for text in ("Il y a un chat dans le jardin.", "Il n'y a rien.", "Il faut partir.", "Il s'agit d'un problème.",
                 "Il est important de lire.", "Il est très difficile de dire.", "Il pleut.", "Il fait froid ce soir.",
                 "Il semble que tout va bien.", "Il vaut mieux attendre.", "Il suffit de demander."):
        assert counted_pronouns(text) == [], text
    # a referent: counted
    assert counted_pronouns("Il mange une pomme.") == ["Il"]
    assert counted_pronouns("Il fait ses devoirs.") == ["Il"]  # faire with an object, not the weather
    assert counted_pronouns("Il est fier de son fils.") == ["Il"]  # fier: not an impersonal adjective
    assert counted_pronouns("Il est possible qu'il vienne.") == ["il"]  # the second il has a referent
    assert counted_pronouns("S'il y a un problème, elle le dira.") == ["elle"]
    # scored: an impersonal il in the system against none in the reference is no extra masculine pronoun
    rec_ref = doc_to_record(load_pipeline(FR)("Il faut partir, dit Marie ; elle a raison."))
    rec_sys = doc_to_record(load_pipeline(FR)("Il faut partir, dit Marie ; il a raison."))
    from blonde_core.metric.features import dense_counts

    nt = len(FR.tense_tags)
    masc, fem = FR.pronoun_classes.index("masculine"), FR.pronoun_classes.index("feminine")
    ref, sys = dense_counts(rec_ref, FR), dense_counts(rec_sys, FR)
    assert (ref[nt + masc], ref[nt + fem]) == (0, 1) and (sys[nt + masc], sys[nt + fem]) == (1, 0)


def test_a_french_document_scored_by_hand(tmp_path):
    """Reference and system of two sentences: a passé composé against an imparfait, and a feminine
    pronoun chain (elle ... elle) the system breaks with il."""
    ref = ["Marie est partie à Paris parce qu'elle avait peur.", "Ensuite elle a mangé."]
    sys = ["Marie partait à Paris parce qu'il avait peur.", "Ensuite elle a mangé."]
    (tmp_path / "ref.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("\n".join(sys) + "\n", encoding="utf-8")
    study = Study.from_files([tmp_path / "ref.txt"], [tmp_path / "sys.txt"],
                             engine=Engine(cache_mode="off", n_process=1))
    res = study.analysis(ScoreConfig(lang="fr"))
    cats = res.scores("sys")["categories"]
    # tense: reference passé composé (est partie, once), imparfait (avait: no participle follows, so not
    # a plus-que-parfait), passé composé (a mangé); the system: imparfait (partait), imparfait (avait), passé
    # composé (a mangé) - matched: imparfait 1 (sentence 1) and passé composé 1 (sentence 2)
    rows = {(r["category"], r["feature"]): r for r in res.feature_breakdown("sys")}
    assert rows[("tense", "passé composé")]["reference"] == 2 and rows[("tense", "passé composé")]["system"] == 1
    assert rows[("tense", "imparfait")]["system"] == 2 and rows[("tense", "imparfait")]["matched"] == 1
    assert cats["tense"]["spans"] == {"reference": 3, "system": 3, "matched": 2}
    # pronouns: reference elle, elle (feminine); system il (masculine), elle
    assert rows[("pronoun", "feminine")]["reference"] == 2 and rows[("pronoun", "feminine")]["matched"] == 1
    assert rows[("pronoun", "masculine")]["system"] == 1 and rows[("pronoun", "masculine")]["matched"] == 0
    # discourse markers: parce qu' (cause, elided before a vowel), ensuite (asynchronous) on both sides
    assert cats["dm"]["spans"] == {"reference": 2, "system": 2, "matched": 2}
    # the entity Marie (PER) and Paris (LOC; NON-PERSON weighs 0 in the package preset)
    assert rows[("entity", "PERSON")]["matched"] == 1
    assert "lang:fr" in res.signature and "fr_core_news_sm-3.8.0" in res.signature
    # the same from the command line
    from blonde_core.cli import main

    out = tmp_path / "out.json"
    assert main(["score", "-r", str(tmp_path / "ref.txt"), "-s", str(tmp_path / "sys.txt"), "--lang", "fr",
                 "--no-cache", "--format", "json", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["systems"]["sys"]["categories"]["tense"]["spans"] == cats["tense"]["spans"]


def test_french_weights_per_feature_count():
    cfg = ScoreConfig(lang="fr")
    assert len(cfg.resolved_weights["tense"]) == 13 and cfg.resolved_weights["pronoun"] == (0.25,) * 4
    with pytest.raises(Exception, match="needs 13 weights"):
        ScoreConfig(lang="fr", weights={"tense": (1.0,) * 7})


def test_wmt22_de_fr_on_the_pages(tmp_path):
    """A slice of WMT22 de-fr (French target) uploaded on the Data page: the target language is guessed as
    French, the Overview scores it with the French pack (signature lang:fr) through the server's French
    workers, the Documents page highlights French spans (a compound tense on its auxiliary), and Categories,
    Significance and Contrast work in French."""
    from conftest import SHARED
    from test_app import assert_clean, copyables, new_app

    defr = SHARED / "data" / "wmt22-defr"
    n = 60
    head = lambda p: "".join(p.read_text(encoding="utf-8").splitlines(True)[:n]).encode("utf-8")  # noqa: E731
    at = new_app()
    at.file_uploader(key="up_refs").set_value([("refA.txt", head(defr / "refs" / "refA.txt"), "text/plain")])
    at.file_uploader(key="up_sys").set_value([(f"{s}.txt", head(defr / "systems" / f"{s}.txt"), "text/plain")
                                              for s in ("Online-A", "LT22")])
    at.file_uploader(key="up_docids").set_value(("docids.txt", head(defr / "docids.txt"), "text/plain"))
    at.button(key="FormSubmitter:files-Analyse these files").click().run()
    assert_clean(at, "de-fr upload")
    assert any("Target language: **French**" in c.value for c in at.caption)
    # the sidebar (app.py) chooses the guessed language; under st.navigation AppTest re-runs the page scripts
    # only, so the settings it would give are set here (the browser test drives the sidebar itself)
    from blonde_core.study import ScoreConfig

    assert at.session_state["data"].guess_language()["language"] == "fr"
    at.session_state["config"] = ScoreConfig(lang="fr")
    at.switch_page("pages/overview.py").run()
    assert_clean(at, "overview in French")
    assert any("lang:fr" in c for c in copyables(at)), "the signature names the French pack"
    board = at.dataframe[0].value
    assert set(board["system"]) == {"Online-A", "LT22"}
    at.switch_page("pages/documents.py").run()
    assert_clean(at, "documents in French")
    body = "".join(h.proto.body for h in at.get("html"))
    assert "bl-g-tense" in body and "passé composé" in body
    # the other pages in French: Categories' per-feature table names French tenses; Significance; Contrast
    at.switch_page("pages/categories.py").run()
    assert_clean(at, "categories in French")
    feats = " ".join(str(x) for df in at.dataframe for x in df.value.astype(str).values.ravel())
    assert "présent" in feats or "passé composé" in feats
    for page in ("pages/significance.py", "pages/contrast.py"):
        at.switch_page(page).run()
        assert_clean(at, f"{page} in French")


def test_companion_metrics_a_language_cannot_give_are_left_out_or_refused(tmp_path, capsys):
    """Otem and Utem work in French; the early BlonD needs English's tuned weights and RC English's word
    lists: the dashboard leaves them empty, the command line refuses them by name with a code."""
    from blonde_core.cli import main
    from blonde_core.study import CATALOG

    assert CATALOG.companions_for("fr") == ("Otem", "Utem") and "RC" in CATALOG.companions_for("en")
    (tmp_path / "ref.txt").write_text("Elle est partie.\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("Il est parti.\n", encoding="utf-8")
    study = Study.from_files([tmp_path / "ref.txt"], [tmp_path / "sys.txt"], engine=Engine(cache_mode="off"))
    comp = study.companions(ScoreConfig(lang="fr"))["sys"]
    assert comp["Otem"] is not None and comp["BlonD-recall"] is None and comp["RC"] is None
    args = ["score", "-r", str(tmp_path / "ref.txt"), "-s", str(tmp_path / "sys.txt"), "--no-cache", "--lang", "fr"]
    assert main(args + ["--metrics", "Otem"]) == 0
    capsys.readouterr()
    assert main(args + ["--metrics", "RC"]) == 2
    assert "not available for the 'fr' language pack" in capsys.readouterr().err


def test_the_command_line_guesses_french_and_warns_on_a_mismatch(tmp_path, capsys):
    from blonde_core.cli import main
    from conftest import SHARED

    defr = SHARED / "data" / "wmt22-defr"
    for name, src in (("refA", defr / "refs" / "refA.txt"), ("LT22", defr / "systems" / "LT22.txt")):
        (tmp_path / f"{name}.txt").write_text("".join(src.read_text(encoding="utf-8").splitlines(True)[:30]),
                                              encoding="utf-8")
    args = ["score", "-r", str(tmp_path / "refA.txt"), "-s", str(tmp_path / "LT22.txt"), "--no-cache", "--format",
            "json"]
    assert main(args) == 0
    out = capsys.readouterr()
    assert "lang:fr" in json.loads(out.out)["signature"]
    assert "target language guessed from the reference: fr" in out.err
    assert main(args + ["--lang", "en"]) == 0
    out = capsys.readouterr()
    assert "lang:en" in json.loads(out.out)["signature"]
    assert "warning: the reference looks like 'fr' (French) but is scored with the 'en' language pack" in out.err
    # the forced pack's warning travels with the numbers (issue 44)
    assert any("scored with the 'en' language pack" in w for w in json.loads(out.out)["warnings"])


def test_wmt22_de_fr_same_json_from_the_text_files_and_from_the_xml(tmp_path, capsys):
    """The release's XML alone and the three kinds of text file (reference, systems, document ids) give the
    same corpus (documents, segments, texts) and the same `score --per-doc` JSON, scored in French."""
    from blonde_core.cli import main
    from conftest import SHARED

    defr = SHARED / "data" / "wmt22-defr"
    files = ["-r", str(defr / "refs" / "refA.txt"), "-s", *map(str, sorted((defr / "systems").glob("*.txt"))),
             "--docids", str(defr / "docids.txt")]
    common = ["--per-doc", "--format", "json", "--cache-dir", str(tmp_path)]
    assert main(["score", *files, *common]) == 0
    from_text = json.loads(capsys.readouterr().out)
    assert main(["score", "--input", str(defr / "wmttest2022.de-fr.all.xml"), *common]) == 0
    from_xml = json.loads(capsys.readouterr().out)
    assert "lang:fr" in from_text["signature"] and len(from_text["systems"]) == 6
    assert len(next(iter(from_text["systems"].values()))["documents"]) == 271
    assert from_xml == from_text


def _entities_as_written(text: str) -> tuple[list, list]:
    """(the recogniser's spans, the counted entities) of a text tagged as written and compared lowercased."""
    from blonde_core.metric.features import entities

    rec = doc_to_record(load_pipeline(FR)(text))
    return [text[s:e] for s, e, _ in rec["e"]], [text[s:e] for _, _, s, e in entities(rec, text, FR, fold=True)]


@pytest.mark.parametrize("text, dropped, kept", [
    # a capitalised word opening a sentence that the pipeline's lexicon knows in lower case: a greeting, an
    # imperative, an adjective, a holiday (entity.initial_lexicon)
    ("Bonjour, je voudrais parler à Marie Dupont.", "Bonjour", ["Marie Dupont"]),
    ("Regardez le tableau à la fin de l'offre de Renault.", "Regardez", ["Renault"]),
    ("Désolé, mais Pierre n'est pas là.", "Désolé", ["Pierre"]),  # inside the sentence a known word stays a name
    ("Noël approche et Jean part à Lyon.", "Noël", ["Jean", "Lyon"]),
    # a span without a capital letter in a text written with them (entity.require_capital)
    ("Si vous êtes enceinte, veuillez consulter un médecin à Lyon.", "veuillez", ["Lyon"]),
    ("Le traîneau est tiré par des rennes, raconte Hans.", "rennes", ["Hans"]),
])
def test_common_words_the_recogniser_calls_names_are_not_counted(text, dropped, kept):
    raw, counted = _entities_as_written(text)
    assert dropped in raw  # what the recogniser says, before the pack's rules
    assert counted == kept


def test_the_case_rules_leave_lowercased_text_alone():
    """Lowercased (the package's default) there is no capital to read: the recogniser's spans stand."""
    from blonde_core.metric.features import entities

    text = "bonjour, je voudrais parler à marie dupont à paris."
    rec = doc_to_record(load_pipeline(FR)(text))
    assert [text[s:e] for _, _, s, e in entities(rec, text, FR)] == [
        text[s:e] for s, e, label in rec["e"] if label in FR.group_of_label]


def test_the_lexicon_is_the_pipelines_own():
    """annotation/common_words.py reads fr_core_news_sm's lemmatizer tables without spaCy: its string hash is
    spaCy's, and it knows inflected forms (regardez), lemmas (désolé) and not names (Allemagne, Renault)."""
    from spacy.strings import hash_string

    from blonde_core.annotation.common_words import knows, string_hash

    for w in ("", "a", "regardez", "abcdefgh", "abcdefghi", "désolé", "ça", "œuvre", "漢字"):
        assert string_hash(w) == hash_string(w)
    assert all(knows(FR, w) for w in ("Regardez", "regardez", "Désolé", "Bonjour", "Maisons"))
    assert not any(knows(FR, w) for w in ("Allemagne", "Renault", "Lahnstein"))
