"""Documents as systems write them (issue 47): re-segmentation by mwerSegmenter's alignment (mweralign, in a
child process), what a system left out, and document-level sacrebleu - on TED zh-en and WMT24 en-zh."""
import json

import pytest

from conftest import SHARED

TED = SHARED / "data" / "ted-zhen"
WMT24 = SHARED / "data" / "wmt24"


_CACHE: list = []


@pytest.fixture(scope="module", autouse=True)
def _one_cache(tmp_path_factory):
    """One annotation cache for the module's command runs: TED's sentences are annotated by the first run and read
    by the others (each test annotating them again took 7-10 s of the fast tier); a fresh folder per module run."""
    _CACHE[:] = [tmp_path_factory.mktemp("reseg-cache")]
    yield
    _CACHE.clear()


def cache_dir():
    return _CACHE[0]


def run(capsys, *args):
    from blonde_core.cli import main

    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def ted_docs(tmp_path_factory):
    return blank_line_ted(tmp_path_factory.mktemp("reseg"))


def join_every_third(segs: list[str]) -> list[str]:
    """A document as a system that merges sentences writes it: every third sentence joined to the next."""
    cut, k = [], 0
    while k < len(segs):
        if k % 3 == 0 and k + 1 < len(segs):
            cut.append(segs[k] + " " + segs[k + 1])
            k += 2
        else:
            cut.append(segs[k])
            k += 1
    return cut


def joined_with_own_ids() -> tuple[list[str], list[str]]:
    """TED's Online-W with every third sentence joined to the next inside each document, and the document id
    of each of its lines (its own document-id file)."""
    ids = (TED / "docids.txt").read_text(encoding="utf-8").splitlines()
    sys_ = (TED / "systems" / "Online-W.txt").read_text(encoding="utf-8").splitlines()
    docs: dict = {}
    for d, s in zip(ids, sys_):
        docs.setdefault(d, []).append(s)
    lines, own = [], []
    for d, segs in docs.items():
        cut = join_every_third(segs)
        lines += cut
        own += [d] * len(cut)
    return lines, own


def blank_line_ted(out):
    """TED zh-en as blank-line documents in folder out: the reference, Online-W, Online-W with every third
    sentence joined to the next inside each document, and Online-W with the 6th sentence of its 2nd document
    deleted."""
    ref = (TED / "refs" / "ref.txt").read_text(encoding="utf-8").splitlines()
    sys_ = (TED / "systems" / "Online-W.txt").read_text(encoding="utf-8").splitlines()
    ids = (TED / "docids.txt").read_text(encoding="utf-8").splitlines()
    docs: dict = {}
    for i, d in enumerate(ids):
        docs.setdefault(d, []).append(i)

    def write(name, per_doc):
        (out / name).write_text("\n\n".join("\n".join(x) for x in per_doc) + "\n", encoding="utf-8")
        return out / name

    by_doc = [[sys_[i] for i in idx] for idx in docs.values()]
    joined = [join_every_third(segs) for segs in by_doc]
    dropped = [list(s) for s in by_doc]
    del dropped[1][5]
    return {"ref": write("ref.txt", [[ref[i] for i in idx] for idx in docs.values()]),
            "Online-W": write("Online-W.txt", by_doc), "joined": write("joined.txt", joined),
            "dropped": write("dropped.txt", dropped), "n_joined": sum(map(len, joined)), "n": len(ids)}


def test_joined_sentences_score_as_the_aligned_original(capsys, ted_docs):
    assert ted_docs["n_joined"] < 0.7 * ted_docs["n"]  # a third of the sentences really were joined
    code, out, err = run(capsys, "score", "-r", ted_docs["ref"], "-s", ted_docs["Online-W"], ted_docs["joined"],
                         "--blank-line-docs", "--resegment", "--format", "json", "--cache-dir", cache_dir())
    assert code == 0, err
    data = json.loads(out)
    assert "|seg:mwer-2|" in data["signature"]
    a, b = data["systems"]["Online-W"]["BlonDe"]["F1"], data["systems"]["joined"]["BlonDe"]["F1"]
    assert abs(a - b) * 100 < 0.5, (a, b)
    moved = data["systems"]["joined"]["resegmented"]
    assert len(moved) == 5 and "resegmented" not in data["systems"]["Online-W"]  # aligned: left as it is
    assert all(v["omitted"] == [] for v in moved.values())
    assert "re-segmented 5 document(s) of 1 system(s)" in err
    # without --resegment the same files are refused at sentence level, naming the document
    code, _, err = run(capsys, "score", "-r", ted_docs["ref"], "-s", ted_docs["joined"], "--blank-line-docs",
                       "--cache-dir", cache_dir())
    assert code == 2 and "[E" in err and "segments in document" in err


def test_a_deleted_sentence_is_reported_as_omitted(capsys, ted_docs):
    code, out, err = run(capsys, "score", "-r", ted_docs["ref"], "-s", ted_docs["dropped"], "--blank-line-docs",
                         "--resegment", "--format", "json", "--cache-dir", cache_dir())
    assert code == 0, err
    data = json.loads(out)
    assert data["systems"]["dropped"]["resegmented"] == {"doc2": {"segments": 30, "omitted": [6], "added": []}}
    assert data["resegmentation"]["method"] == "mwer-2"
    assert "system 'dropped' left out 1 reference segment(s)" in err


def test_nothing_to_resegment_is_said_and_signed_as_usual(capsys, ted_docs):
    code, out, err = run(capsys, "score", "-r", ted_docs["ref"], "-s", ted_docs["Online-W"], "--blank-line-docs",
                         "--resegment", "--format", "json", "--cache-dir", cache_dir())
    assert code == 0 and "nothing re-segmented" in err
    assert "seg:" not in json.loads(out)["signature"]


def test_chinese_paragraphs_are_cut_by_characters():
    """WMT24 en-zh, GPT-4's first documents with every two paragraphs joined without a space (as Chinese
    writes them): re-segmented back into the reference's paragraphs, most come out exactly as GPT-4 wrote
    them, and the others with a boundary moved by a few characters (a quotation mark, a clause): the alignment
    is to the reference, character by character (19 of 25 exact here on 2026-11-26, every one >= 0.93 alike)."""
    import difflib

    from blonde_core.io.resegment import gaps, resegment

    ids = [x.split("\t")[1] for x in (WMT24 / "documents" / "en-zh.docs").read_text(encoding="utf-8").splitlines()[1:]]
    ref = (WMT24 / "references" / "en-zh.refA.txt").read_text(encoding="utf-8").splitlines()[1:]
    hyp = (WMT24 / "system-outputs" / "en-zh" / "GPT-4.txt").read_text(encoding="utf-8").splitlines()[1:]
    first = list(dict.fromkeys(ids))[:4]
    jobs, originals = [], []
    for d in first:
        idx = [i for i, x in enumerate(ids) if x == d]
        r, h = [ref[i] for i in idx], [hyp[i] for i in idx]
        jobs.append((r, ["".join(h[k:k + 2]) for k in range(0, len(h), 2)]))
        originals.append(h)
    cut = resegment(jobs, "zh")
    same = sum(a.strip() == b.strip() for c, o in zip(cut, originals) for a, b in zip(c, o))
    total = sum(map(len, originals))
    assert [len(c) for c in cut] == [len(o) for o in originals]
    assert same >= 0.7 * total, (same, total)
    alike = [difflib.SequenceMatcher(None, a, b).ratio() for c, o in zip(cut, originals) for a, b in zip(c, o)]
    assert min(alike) >= 0.9, alike
    assert all(gaps(r, c, "zh")["omitted"] == [] for (r, _), c in zip(jobs, cut))


def test_document_level_sacrebleu_is_sacrebleu_on_whole_documents(capsys):
    import sacrebleu

    code, out, _ = run(capsys, "score", "-r", TED / "refs" / "ref.txt", "-s", TED / "systems" / "Online-W.txt",
                       TED / "systems" / "SMU.txt", "--docids", TED / "docids.txt", "--metrics", "d-BLEU,d-chrF",
                       "--format", "json", "--cache-dir", cache_dir())
    assert code == 0
    data = json.loads(out)
    ids = (TED / "docids.txt").read_text(encoding="utf-8").splitlines()
    ref = (TED / "refs" / "ref.txt").read_text(encoding="utf-8").splitlines()

    def docs(lines):
        out: dict = {}
        for d, s in zip(ids, lines):
            out.setdefault(d, []).append(s.strip())
        return [" ".join(v) for v in out.values()]

    for name in ("Online-W", "SMU"):
        hyp = (TED / "systems" / f"{name}.txt").read_text(encoding="utf-8").splitlines()
        assert data["systems"][name]["d-BLEU"] == pytest.approx(sacrebleu.corpus_bleu(docs(hyp), [docs(ref)]).score,
                                                                abs=1e-9)
        assert data["systems"][name]["d-chrF"] == pytest.approx(sacrebleu.corpus_chrf(docs(hyp), [docs(ref)]).score,
                                                                abs=1e-9)
    assert data["metric_signatures"]["d-BLEU"].startswith("d-BLEU|nrefs:1|")


def test_documents_that_do_not_pair_are_refused(tmp_path):
    from blonde_core.errors import InputError
    from blonde_core.study import Study

    (tmp_path / "ref.txt").write_text("a b c.\nd e f.\n\ng h i.\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("a b c. d e f.\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        Study.from_files([str(tmp_path / "ref.txt")], [str(tmp_path / "sys.txt")], blank_line_docs=True).resegmented()
    assert "documents" in str(e.value)


def test_the_pages_work_on_a_re_segmented_system(ted_docs):
    """Issue 47 on the pages (AppTest): blank-line documents uploaded with 'Re-segment' ticked and TED's MQM
    judgments; the Overview counts what each system left out, Documents marks the cut sentences and the
    omitted one and keeps the system's own text one click away, Contrast and Human correlation work."""
    from streamlit.testing.v1 import AppTest

    from blonde_core.study import ScoreConfig
    from conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.session_state["board_kind"] = "compact"
    at.run()
    at.switch_page("pages/data.py").run()
    read = lambda p: p.read_bytes()  # noqa: E731
    at.file_uploader(key="up_refs").set_value([("ref.txt", read(ted_docs["ref"]), "text/plain")])
    at.file_uploader(key="up_sys").set_value([(f"{n}.txt", read(ted_docs[n]), "text/plain")
                                              for n in ("Online-W", "joined", "dropped")])
    at.file_uploader(key="up_human").set_value([("mqm_seg_scores.tsv", read(TED / "mqm_seg_scores.tsv"),
                                                 "text/plain")])
    at.checkbox(key="up_blank").check()
    at.checkbox(key="up_reseg").check()
    at.button(key="FormSubmitter:files-Analyse these files").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    study = at.session_state["data"]
    assert study.corpus.seg_method == "mwer-2" and set(study.resegmentation()) == {"joined", "dropped"}
    at.session_state["config"] = ScoreConfig()  # what the sidebar gives (AppTest runs the page alone)
    at.switch_page("pages/overview.py").run()
    assert not at.exception and not at.error
    board = at.dataframe[0].value.set_index("system")
    assert board.loc["dropped", "omitted"] == 1 and board.loc["joined", "omitted"] == 0
    assert board.loc["Online-W", "omitted"] == 0
    at.session_state["board_kind"] = "full"
    at.run()
    full = at.dataframe[0].value.set_index("system")
    # d-BLEU beside BlonDe with its interval: the same as the command line's (whole documents as units)
    std = study.standards("sentence", ["d-BLEU"])
    for name in ("Online-W", "joined", "dropped"):
        assert full.loc[name, "d-BLEU"] == pytest.approx(std.score("d-BLEU", name), abs=1e-9)
        assert full.loc[name, "d-BLEU CI low"] <= full.loc[name, "d-BLEU"] <= full.loc[name, "d-BLEU CI high"]
    assert any("Re-segmented (mwer-2)" in c.value for c in at.caption)
    # Documents: the second document, the dropped system: its own 30 segments one click away, segment 6 omitted
    at.session_state["doc_sel"] = "doc2"
    at.session_state["doc_systems"] = ["joined", "dropped"]
    at.switch_page("pages/documents.py").run()
    assert not at.exception and not at.error
    names = [e.label for e in at.expander]
    assert any(x.startswith("dropped: re-segmented from its own 30 segments into the reference's 31; reference "
                            "segment(s) 6 left out") for x in names), names
    body = " ".join(h.proto.body for h in at.html)
    assert "&#9986; omitted" in body or "\u2702 omitted" in body
    assert "re-segmented: cut from the system" in body
    for tab in ("Entity threads", "Pronoun threads", "Tense timeline"):  # the sentence numbers are the reference's
        at.session_state["doc_tab"] = tab
        at.run()
        assert not at.exception and not at.error, tab
        assert any("dropped: re-segmented in this document" in c.value and "omitted: dropped s6" in c.value
                   for c in at.caption), tab
    for page in ("pages/contrast.py", "pages/correlation.py", "pages/significance.py"):
        at.switch_page(page).run()
        assert not at.exception and not at.error, (page, [e.value for e in at.error])
    # Contrast of the dropped system against Online-W in doc2: its sentences marked as cut, the omitted one said
    at.session_state["ct_a"], at.session_state["ct_b"] = "dropped", "Online-W"
    at.session_state["ct_doc"] = "doc2"
    at.switch_page("pages/contrast.py").run()
    assert not at.exception and not at.error
    body = " ".join(h.proto.body for h in at.html)
    assert "re-segmented: cut from the system" in body


def test_each_documents_cut_is_kept_in_the_disk_cache(ted_docs, tmp_path, monkeypatch):
    """A second re-segmentation of the same texts reads every cut from the disk cache (no aligner run); another
    system text is aligned again."""
    from blonde_core.io import resegment as R
    from blonde_core.study import Engine, Study

    def load():
        return Study.from_files([str(ted_docs["ref"])], [str(ted_docs["joined"])], blank_line_docs=True,
                                engine=Engine(cache_mode="disk", cache_dir=str(tmp_path)))

    first = load().resegmented()
    monkeypatch.setattr(R, "_resegment", lambda *a, **k: pytest.fail("aligned again despite the cache"))
    again = load().resegmented()
    assert again.corpus.systems == first.corpus.systems and again.resegmentation() == first.resegmentation()
    with pytest.raises(pytest.fail.Exception):
        Study.from_files([str(ted_docs["ref"])], [str(ted_docs["dropped"])], blank_line_docs=True,
                         engine=Engine(cache_mode="disk", cache_dir=str(tmp_path))).resegmented()
    # "Clear loaded data" (Engine.forget) deletes the cuts with the rest of the study's texts
    engine = Engine(cache_mode="disk", cache_dir=str(tmp_path))
    engine.forget(again)
    with pytest.raises(pytest.fail.Exception):
        load().resegmented()


def test_a_system_brings_its_own_document_ids(capsys, tmp_path):
    """Issue 47 point 1: TED's Online-W with every third sentence joined and its own document-id file (one
    document dropped as a whole): documents matched to the reference's by id, the missing one named and
    scored as empty, re-segmented, every omission reported; a document the reference lacks is refused."""
    ids = (TED / "docids.txt").read_text(encoding="utf-8").splitlines()
    sys_ = (TED / "systems" / "Online-W.txt").read_text(encoding="utf-8").splitlines()
    docs: dict = {}
    for d, s in zip(ids, sys_):
        docs.setdefault(d, []).append(s)
    order = list(docs)
    kept = order[:2] + order[3:]  # the third document left out
    lines, own_ids = [], []
    for d in kept:
        cut = join_every_third(docs[d])
        lines += cut
        own_ids += [d] * len(cut)
    (tmp_path / "joined.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "joined.docids").write_text("\n".join(own_ids) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "score", "-r", TED / "refs" / "ref.txt", "-s", tmp_path / "joined.txt",
                         "--docids", TED / "docids.txt", "--system-docids", tmp_path / "joined.docids", "--resegment",
                         "--format", "json", "--cache-dir", cache_dir())
    assert code == 0, err
    data = json.loads(out)
    assert f"system 'joined' has no document '{order[2]}'" in err
    moved = data["systems"]["joined"]["resegmented"]
    assert set(moved) == set(order)  # every document re-segmented, the missing one too
    n_missing = ids.count(order[2])
    assert moved[order[2]] == {"segments": 0, "omitted": list(range(1, n_missing + 1)), "added": []}
    assert all(moved[d]["omitted"] == [] for d in kept)
    # a document the reference does not have
    (tmp_path / "bad.docids").write_text("\n".join(own_ids[:-1] + ["talk.999"]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "score", "-r", TED / "refs" / "ref.txt", "-s", tmp_path / "joined.txt",
                       "--docids", TED / "docids.txt", "--system-docids", tmp_path / "bad.docids", "--cache-dir", cache_dir())
    assert code == 2 and "talk.999" in err and "bad.docids" in err


def test_the_report_lists_what_a_system_left_out(capsys, ted_docs, tmp_path):
    code, _, err = run(capsys, "report", "-r", ted_docs["ref"], "-s", ted_docs["Online-W"], ted_docs["dropped"],
                       "--blank-line-docs", "--resegment", "--ci", "100", "-o", tmp_path / "r.html", "--cache-dir", cache_dir())
    assert code == 0, err
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<h2>Re-segmented systems: what they left out</h2>" in html and "doc2: 6" in html


def test_the_data_page_takes_each_systems_own_document_ids(tmp_path):
    """The Data page's 'Each system's own document ids' (named after the system) with Re-segment ticked: the
    system's documents are matched by id and re-segmented (AppTest); a file named after no system is refused
    with a message naming it."""
    from streamlit.testing.v1 import AppTest

    from conftest import ROOT

    lines, own = joined_with_own_ids()
    up = lambda name, text: (name, text.encode("utf-8"), "text/plain")  # noqa: E731
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300).run()
    at.switch_page("pages/data.py").run()
    at.file_uploader(key="up_refs").set_value([up("ref.txt", (TED / "refs" / "ref.txt").read_text(encoding="utf-8"))])
    at.file_uploader(key="up_docids").set_value(up("docids.txt", (TED / "docids.txt").read_text(encoding="utf-8")))
    at.file_uploader(key="up_sys").set_value([up("joined.txt", "\n".join(lines) + "\n"), up(
        "Online-W.txt", (TED / "systems" / "Online-W.txt").read_text(encoding="utf-8"))])
    # issue 60: the line-count error says where to go - the system's own ids and the Re-segment switch, by name
    at.button(key="FormSubmitter:files-Analyse these files").click().run()
    err = [e.value for e in at.error]
    assert any("joined.txt" in e and f"has {len(lines)} lines" in e and "joined.docids.txt" in e and
               "Re-segment systems whose sentences do not line up with the reference" in e for e in err), err
    at.checkbox(key="up_reseg").check()
    at.file_uploader(key="up_sys_docids").set_value([up("other.docids", "\n".join(own) + "\n")])
    at.button(key="FormSubmitter:files-Analyse these files").click().run()
    assert any("other.docids is named like no system output" in e.value for e in at.error)
    # named NAME.docids.txt, for the joined system only: the aligned Online-W takes the reference's ids
    at.file_uploader(key="up_sys_docids").set_value([up("joined.docids.txt", "\n".join(own) + "\n")])
    at.button(key="FormSubmitter:files-Analyse these files").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    study = at.session_state["data"]
    assert study.corpus.system_docids == {"joined": "joined.docids.txt"}
    assert set(study.resegmentation()["joined"]) == set(own) and set(study.resegmentation()) == {"joined"}
    # the Data page lists the re-segmented system, with what it left out (nothing: it only joined sentences)
    assert any("Re-segmented (mwer-2)" in i.value and "joined" in i.value for i in at.info), [i.value for i in at.info]
    listed = " ".join(h.proto.body for h in at.html)
    assert f'<td>joined</td><td class="bl-num">{len(set(own))}</td><td class="bl-num">{len(lines)}</td>' in listed


def test_joined_sentences_are_cut_on_the_systems_own_sentence_ends(capsys, tmp_path):
    """Issue 60 point 4: an output that only joined sentences (every third with the next), loaded beside its
    aligned original with its own document ids (`--system-docids FILE -`: the original takes --docids),
    re-segmented scores within 0.5 BlonDe points of the original and reports no omission; the line-count error
    without them names --system-docids and --resegment."""
    lines, own = joined_with_own_ids()
    (tmp_path / "joined.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "joined.docids.txt").write_text("\n".join(own) + "\n", encoding="utf-8")
    base = ["score", "-r", TED / "refs" / "ref.txt", "-s", tmp_path / "joined.txt", TED / "systems" / "Online-W.txt",
            "--docids", TED / "docids.txt"]
    code, _, err = run(capsys, *base)
    assert code == 2 and f"has {len(lines)} lines" in err and "--system-docids FILE" in err and "--resegment" in err
    code, out, err = run(capsys, *base, "--system-docids", tmp_path / "joined.docids.txt", "-", "--resegment",
                         "--format", "json", "--cache-dir", cache_dir())
    assert code == 0, err
    data = json.loads(out)
    a, b = data["systems"]["Online-W"]["BlonDe"]["F1"], data["systems"]["joined"]["BlonDe"]["F1"]
    assert abs(a - b) * 100 < 0.5, (a, b)
    assert all(v["omitted"] == [] for v in data["systems"]["joined"]["resegmented"].values())
    assert "resegmented" not in data["systems"]["Online-W"]


def test_a_cut_moves_onto_the_nearest_sentence_end():
    """resegment.snap by hand: the aligner's cut one or two words off a sentence end moves onto it; a cut on a
    line end stays; one farther than the window stays; a segment the aligner left empty takes the short
    sentence that ends within the window before it; nothing is emptied."""
    from blonde_core.io.resegment import snap

    toks = "He came home . Then he slept . Next day rain".split()
    # 0:He 1:came 2:home 3:. 4:Then 5:he 6:slept 7:. 8:Next 9:day 10:rain - sentence ends after 4 and 8
    assert snap([5, 3, 3], toks, set(), window=4) == [4, 4, 3]  # one word too late
    assert snap([3, 5, 3], toks, set(), window=4) == [4, 4, 3]  # one word too early
    assert snap([5, 3, 3], toks, {5}, window=4) == [5, 3, 3]  # on the system's own line end: kept
    assert snap([6, 2, 3], toks, set(), window=1) == [6, 2, 3]  # two away, window 1: kept
    assert snap([8, 0, 3], toks, set(), window=4) == [4, 4, 3]  # the empty segment takes "Then he slept ."
    assert snap([3, 1, 7], toks, set(), window=4) == [3, 1, 7]  # onto the end would empty the second: kept
    assert snap([4, 4, 3], toks, set(), window=0) == [4, 4, 3]


def test_an_empty_segment_takes_the_reference_s_own_words_from_its_neighbour():
    """resegment.fill_by_words by hand: the aligner left segment 2 empty and put "Hello" at the end of segment 1;
    the reference's segment 2 is "Hello," - the word moves; a word that is not the reference's stays; the
    neighbour keeps at least one word."""
    from blonde_core.io.resegment import fill_by_words

    toks = "Wrong address Hello Thanks a lot".split()
    ref = [["Wrong", "address!"], ["Hello,"], ["Thanks", "a", "lot."]]
    assert fill_by_words([3, 0, 3], toks, ref) == [2, 1, 3]
    assert fill_by_words([3, 0, 3], toks, [["Wrong", "address!"], ["Goodbye"], ["Thanks", "a", "lot."]]) == [3, 0, 3]
    assert fill_by_words([1, 0, 2], ["Hello", "Thanks", "lot"], [["Hi"], ["Hello"], ["Thanks"]]) == [1, 0, 2]
    # from the segment after when the words open it
    assert fill_by_words([2, 0, 4], toks, [["Wrong", "address"], ["hello"], ["Thanks"]]) == [2, 1, 3]


def test_document_id_files_by_their_conventions():
    from blonde_core.study import Study

    for name in ("GPT-4.docids", "GPT-4.docids.txt", "GPT-4.txt.docids", "GPT-4.doc_ids.txt", "GPT-4.DOCIDS"):
        assert Study.docids_owner(name) == "GPT-4", name
    assert Study.docids_owner("GPT-4.txt") is None and Study.docids_owner(".docids") is None


def test_json_lines_rows_per_system_are_re_segmented(capsys, tmp_path):
    """A JSON Lines file whose system row sets have their own segments (one row joins two of the reference's)
    is re-segmented like plain files; a document a system lacks is named."""
    ref = ["The cat sat on the mat.", "It was very happy that day.", "Then it slept for a long time."]
    rows = [{"doc_id": "d1", "seg_id": i, "system": "ref", "text": t} for i, t in enumerate(ref, 1)]
    rows += [{"doc_id": "d1", "seg_id": 1, "system": "A", "text": ref[0] + " " + ref[1]},
             {"doc_id": "d1", "seg_id": 2, "system": "A", "text": ref[2]}]
    f = tmp_path / "rows.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "score", "--input", f, "--reference-systems", "ref", "--resegment", "--format",
                         "json", "--cache-dir", cache_dir())
    assert code == 0, err
    data = json.loads(out)
    assert data["systems"]["A"]["resegmented"] == {"d1": {"segments": 2, "omitted": [], "added": []}}
    assert data["systems"]["A"]["BlonDe"]["F1"] == 1.0
    f.write_text("\n".join(json.dumps(r) for r in rows + [{"doc_id": "d2", "seg_id": 1, "system": "ref",
                                                            "text": "A second document."}]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "score", "--input", f, "--reference-systems", "ref", "--cache-dir", cache_dir())
    assert code == 2 and "system 'A' has no segment of document 'd2'" in err


def test_the_sidebar_re_segments_loaded_data(ted_docs):
    """Data loaded without re-segmentation, a system's sentences not lining up: the sidebar offers Re-segment
    (issue 47 point 2, naming the systems), and once on, the pages score the re-segmented study - the same
    BlonDe as --resegment, seg:mwer-2 in the signature - while the loaded data stays as uploaded."""
    from streamlit.testing.v1 import AppTest

    from blonde_core.study import ScoreConfig, Study
    from conftest import ROOT

    study = Study.from_files([ted_docs["ref"]], [ted_docs["Online-W"], ted_docs["joined"]], blank_line_docs=True)
    want = study.resegmented().analysis(ScoreConfig()).scores("joined")["BlonDe"]["F1"]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.session_state["data"] = study
    at.run()
    toggle = at.sidebar.toggle(key=f"reseg_{study.key}")
    assert "1 system(s)" in toggle.label and "joined" in toggle.help and toggle.value is False
    assert any("Re-segment" in i.value for i in at.info)  # Home: the sentences do not line up, and what to do
    # switched on (AppTest reruns a page without app.py's sidebar, so a new session starts with it on)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.session_state["data"] = study
    at.session_state[f"reseg_{study.key}"] = True
    at.run()
    assert at.sidebar.toggle(key=f"reseg_{study.key}").value is True
    assert not at.exception and not at.error, [e.value for e in at.exception] + [e.value for e in at.error]
    top = at.dataframe[0].value.set_index("system")
    assert top.loc["joined", "BlonDe F1"] == pytest.approx(100 * want, abs=1e-9)
    assert "seg:mwer-2" in " ".join(h.proto.body for h in at.sidebar.get("html"))
    assert at.session_state["data"] is study and not study.corpus.seg_method  # the upload as it was


def test_judgments_of_a_re_segmented_document_leave_what_pairs_segments(capsys, tmp_path):
    """A human judgment of a re-segmented document rates the system's own k-th segment, not the k-th
    segment of the cut: after re-segmentation it is left out of segment-level correlation and the error
    spans (said on stderr, in the JSON's warnings and on the pages), while the system's document and system
    scores, made of its own segments, stay."""
    from blonde_core.study import Study

    lines, own = joined_with_own_ids()
    (tmp_path / "joined.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "joined.docids").write_text("\n".join(own) + "\n", encoding="utf-8")
    rows = (TED / "mqm_seg_scores.tsv").read_text(encoding="utf-8").splitlines()
    mine = [r for r in rows[1:] if r.split("\t")[0] == "Online-W"]
    (tmp_path / "mqm.tsv").write_text("\n".join(rows[:1] + mine + [r.replace("Online-W", "joined", 1) for r in mine])
                                      + "\n", encoding="utf-8")
    study = Study.from_files([TED / "refs" / "ref.txt"], [TED / "systems" / "Online-W.txt", tmp_path / "joined.txt"],
                             docids=TED / "docids.txt", system_docids=[TED / "docids.txt", tmp_path / "joined.docids"],
                             human=tmp_path / "mqm.tsv")
    before = study.human
    assert sum(1 for k in before.segments if k[0] == "joined") == len(mine)
    cut = study.resegmented()
    assert set(cut.resegmentation()) == {"joined"}
    after = cut.human
    assert not [k for k in after.segments if k[0] == "joined"]  # every document of it was re-segmented
    assert {k: v for k, v in after.segments.items() if k[0] == "Online-W"} == \
        {k: v for k, v in before.segments.items() if k[0] == "Online-W"}
    assert after.system_scores == before.system_scores and after.doc_scores == before.doc_scores
    assert cut.messages["resegment"] == [
        f"{len(mine)} segment judgment(s) of re-segmented documents (joined) left out of segment-level "
        "correlation and the error spans' overlap: they rate the system's own segments, not the re-segmented "
        "ones; its document and system scores are kept"]
    code, out, err = run(capsys, "correlate", "-r", TED / "refs" / "ref.txt", "-s", TED / "systems" / "Online-W.txt",
                         tmp_path / "joined.txt", "--docids", TED / "docids.txt", "--system-docids",
                         TED / "docids.txt", tmp_path / "joined.docids", "--human", tmp_path / "mqm.tsv",
                         "--resegment", "--level", "system", "--format", "json", "--cache-dir", cache_dir())
    assert code == 0, err
    assert "segment judgment(s) of re-segmented documents (joined) left out" in err, err
    assert cut.messages["resegment"][0] in json.loads(out)["warnings"]
