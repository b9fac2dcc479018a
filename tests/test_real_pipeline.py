"""The real spaCy pipeline on real TED zh-en text (read in place from ../shared)."""
import json
import math

import pytest

import package_oracle as oracle
from blonde_core.annotation.annotator import Annotator
from blonde_core.annotation.pipeline import load_pipeline
from blonde_core.annotation.store import AnnotationCache
from blonde_core.cli import main
from blonde_core.metric.features import dense_counts, spans
from blonde_core.lang.base import load_pack
from blonde_core.io.readers import read_docids, read_lines

PACK = load_pack("en")


def annotate(text, lowercase=False):
    a = Annotator(PACK, lowercase, AnnotationCache())
    t = text.strip().lower() if lowercase else text.strip()
    return t, a.annotate([t])[t]


def counts_by_name(rec):
    vals = dense_counts(rec, PACK)
    names = [("tense", t) for t in PACK.tense_tags] + [("pronoun", p) for p in PACK.pronoun_classes] + \
        [("dm", d) for d in PACK.dm_types]
    return {k: v for k, v in zip(names, vals) if v}


def test_hand_checked_counts_on_ted_reference_sentences(ted):
    ref = read_lines(ted / "refs" / "ref.txt")
    # "I want to ask you all to consider ... most of what we know about the universe comes to us from light."
    _, r0 = annotate(ref[0])
    assert counts_by_name(r0) == {("tense", "VBP"): 2, ("tense", "VB"): 2, ("tense", "VBZ"): 1}
    # "And while we've never heard the sounds from space, we really should, in the next few years, ..."
    t10, r10 = annotate(ref[10])
    assert counts_by_name(r10) == {
        ("tense", "VBN"): 1, ("tense", "VBP"): 2, ("tense", "VBZ"): 1, ("tense", "VBG"): 1, ("tense", "VB"): 1,
        ("tense", "MD"): 1, ("dm", "comparison"): 1, ("dm", "asynchronous"): 1}
    dm = [(s["text"], s["feature"]) for s in spans(r10, t10, PACK) if s["category"] == "dm"]
    assert dm == [("while", "comparison"), ("next", "asynchronous")]
    # "The light from the Earth, some of it falls in, but some of it gets lensed around and brought back to us."
    _, r40 = annotate(ref[40])
    assert counts_by_name(r40) == {("tense", "VBZ"): 2, ("tense", "VBN"): 1, ("tense", "VBD"): 1,
                                   ("pronoun", "neuter"): 2, ("dm", "comparison"): 1}


def test_spans_point_at_their_text(ted):
    for line in read_lines(ted / "refs" / "refB.txt")[:60]:
        t, rec = annotate(line)
        for s in spans(rec, t, PACK):
            assert t[s["start"]:s["end"]] == s["text"]
            assert s["category"] in ("tense", "pronoun", "entity", "dm")


def test_minimal_components_match_the_package_pipeline(ted):
    """tok2vec+tagger+ner, multiplying with numpy's BLAS, give the tags and entities of the
    package's spacy.load + disable=['parser'], which multiplies with thinc's default BLIS."""
    import spacy

    from blonde_core.annotation.pipeline import doc_to_record, find_pipeline

    lines = [s.strip() for name in ("SMU.txt", "Online-W.txt", "DIDI-NLP.txt")
             for s in read_lines(ted / "systems" / name)[:120]]
    lines += [s.lower() for s in lines]
    full = spacy.load(find_pipeline(PACK)[0])
    ours = load_pipeline(PACK)
    assert set(ours.pipe_names) == {"tok2vec", "tagger", "ner"}
    for c in ours.pipe_names:  # the two really multiply differently
        assert ours.get_pipe(c).model.ops.use_blis is False
        assert full.get_pipe(c).model.ops.use_blis is True
    a = [doc_to_record(d) for d in full.pipe(lines, disable=["parser"])]
    b = [doc_to_record(d) for d in ours.pipe(lines)]
    # the full pipeline's attribute_ruler and lemmatizer add coarse POS and morphology (record keys p, m),
    # which English never reads and our three components do not set
    assert all("p" in r and "m" in r for r in a) and not any("p" in r or "m" in r for r in b)
    assert [{k: r[k] for k in ("w", "i", "t", "e")} for r in a] == b


@pytest.fixture(scope="module")
def oracle_counts(ted, ted_systems):
    """Package-style per-sentence counts of every TED file (full pipeline, lowercased as the package CLI)."""
    import spacy

    from blonde_core.annotation.pipeline import find_pipeline

    nlp = spacy.load(find_pipeline(PACK)[0])
    files = list(ted_systems) + [ted / "refs" / "ref.txt", ted / "refs" / "refB.txt"]
    texts = {f.stem: read_lines(f) for f in files}
    distinct = sorted({s.strip().lower() for v in texts.values() for s in v})
    by_text = dict(zip(distinct, (oracle.sentence_counts(d) for d in nlp.pipe(distinct, disable=["parser"]))))
    return {name: [by_text[s.strip().lower()] for s in v] for name, v in texts.items()}


def run_json(args, capsys):
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def assert_same(ours, want, tol=1e-4):
    for key in ("BlonDe", "BlonD-d"):
        for m in ("R", "P", "F1"):
            w = want[key][m]
            if math.isnan(w):
                assert ours[key][m] is None
            else:
                assert ours[key][m] == pytest.approx(w, abs=tol), (key, m)
    for cat, v in want["categories"].items():
        for m in ("R", "P", "F1"):
            if math.isnan(v[m]):
                assert ours["categories"][cat][m] is None, (cat, m)
            else:
                assert ours["categories"][cat][m] == pytest.approx(v[m], abs=tol), (cat, m)


@pytest.mark.parametrize("refs", [["ref"], ["refB"], ["ref", "refB"]])
def test_ted_scores_equal_the_package_algorithm(ted, ted_systems, oracle_counts, capsys, refs):
    """System and per-document scores of the 13 systems (and the other human
    translation) equal the package's algorithm to 1e-4 (in fact to ~1e-12)."""
    others = [r for r in ("ref", "refB") if r not in refs]
    systems = [str(p) for p in ted_systems] + [str(ted / "refs" / f"{o}.txt") for o in others]
    data = run_json(["score", "-r", *[str(ted / "refs" / f"{r}.txt") for r in refs], "-s", *systems,
                     "--docids", str(ted / "docids.txt"), "--format", "json", "--per-doc"], capsys)
    assert f"nrefs:{len(refs)}" in data["signature"]
    docids = read_docids(ted / "docids.txt")
    maxed = [oracle.max_refs(list(per)) for per in zip(*[oracle_counts[r] for r in refs])]
    assert set(data["systems"]) == {p.split("/")[-1][:-4] for p in systems}
    for name, entry in data["systems"].items():
        sc = oracle_counts[name]
        assert_same(entry, oracle.score(sc, maxed), tol=1e-9)
        for doc in dict.fromkeys(docids):
            idx = [i for i, d in enumerate(docids) if d == doc]
            assert_same(entry["documents"][doc], oracle.score([sc[i] for i in idx], [maxed[i] for i in idx]),
                        tol=1e-9)


def test_ted_entity_scores_worked_out_from_spacy_directly(ted, capsys):
    """The entity category of Online-W against ref, worked out here from spaCy's own
    entities: per sentence, PERSON entity strings (the 0.1.4 entity weights are 1 for
    PERSON, 0 for the rest) counted in the lowercased texts, clipped matches summed."""
    from collections import Counter

    data = run_json(["score", "-r", str(ted / "refs" / "ref.txt"), "-s", str(ted / "systems" / "Online-W.txt"),
                     "--docids", str(ted / "docids.txt"), "--format", "json", "--per-doc"], capsys)
    nlp = load_pipeline(PACK)
    ref = [s.strip().lower() for s in read_lines(ted / "refs" / "ref.txt")]
    hyp = [s.strip().lower() for s in read_lines(ted / "systems" / "Online-W.txt")]
    docids = read_docids(ted / "docids.txt")

    def persons(doc):
        return Counter(e.text for e in doc.ents if e.label_ == "PERSON")

    rc = [persons(d) for d in nlp.pipe(ref)]
    hc = [persons(d) for d in nlp.pipe(hyp)]

    def prf(idx):
        m = sum(sum((rc[i] & hc[i]).values()) for i in idx)
        r, h = sum(sum(rc[i].values()) for i in idx), sum(sum(hc[i].values()) for i in idx)
        return (m / r if r else None), (m / h if h else None)

    got = data["systems"]["Online-W"]
    R, P = prf(range(len(ref)))
    assert got["categories"]["entity"]["R"] == pytest.approx(R, abs=1e-12)
    assert got["categories"]["entity"]["P"] == pytest.approx(P, abs=1e-12)
    assert got["categories"]["entity"]["F1"] == pytest.approx(2 * R * P / (R + P), abs=1e-12)
    for doc in dict.fromkeys(docids):
        r, p = prf([i for i, d in enumerate(docids) if d == doc])
        assert got["documents"][doc]["categories"]["entity"]["R"] == (None if r is None else pytest.approx(r))
        assert got["documents"][doc]["categories"]["entity"]["P"] == (None if p is None else pytest.approx(p))


def test_entity_threads_show_the_texts_own_case():
    """spaCy sees lowercased text (the package's default) and the threads match on those keys, but show each
    entity as written in its own sentence: 'Paris', 'PARIS', 'paris', never only 'paris'."""
    from blonde_core.study import Engine, ScoreConfig, Study

    s = Study.from_texts(["Mary flew to Paris on Monday.", "In Paris, Mary met John Smith."],
                         {"A": ["MARY flew to PARIS on Monday.", "In paris, Mary met John Smith."]},
                         engine=Engine(cache_mode="off"))
    th = {t["entity"]: t for t in s.analysis(ScoreConfig()).entity_threads(0, "A")}
    assert th["paris"]["entity_shown"] == "Paris" and th["john smith"]["entity_shown"] == "John Smith"
    assert [o["system_shown"] for o in th["paris"]["occurrences"]] == ["PARIS", "paris"]
