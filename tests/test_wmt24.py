"""WMT24 as released (issue 44): the target language known whatever it is, no BlonDe number for a
language without a pack, sacrebleu's tokenizer per language, the canary line, metadata, and the
ESA judgments of Appraise's export - all on the real files of shared/data/wmt24."""
import csv
import json
import re
from collections import defaultdict

import pytest

from conftest import SHARED

WMT24 = SHARED / "data" / "wmt24"
ESA = [WMT24 / "human" / "esa_generalMT2024_wave2.csv", WMT24 / "human" / "esa_generalMT2024_wave3.csv"]


def run(capsys, *args):
    from blonde_core.cli import main

    code = main(list(map(str, args)))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("lp,code,name", [("en-cs", "cs", "Czech"), ("en-de", "de", "German"), ("en-es", "es", "Spanish"),
                                          ("en-hi", "hi", "Hindi"), ("en-ja", "ja", "Japanese"),
                                          ("en-ru", "ru", "Russian"), ("en-uk", "uk", "Ukrainian"),
                                          ("en-zh", "zh", "Chinese")])
def test_every_wmt24_target_language_is_recognised(lp, code, name):
    from blonde_core.lang import guess_language

    lines = (WMT24 / "references" / f"{lp}.refA.txt").read_text(encoding="utf-8").splitlines()[1:]
    g = guess_language(lines)
    assert (g["language"], g["name"]) == (code, name)
    # the pack of that very language (issue 46; Hindi since issue 64): never en or fr
    assert g["pack"] == code


def test_scripts_and_short_texts():
    from blonde_core.lang.detect import identify

    assert identify("彼女は昨日東京に行きました。")["language"] == "ja"  # Han with Kana: Japanese, by script
    assert identify("她昨天去了北京。")["language"] == "zh"
    assert identify("안녕하세요, 반갑습니다.")["language"] == "ko"
    assert identify("Il y a un chat dans le jardin, et il faut partir.")["language"] == "fr"
    assert identify("Góðan daginn, hvernig hefur þú það í dag?")["language"] == "is"
    # too little to tell: not recognised (English is then the default, as before), never a wrong language
    assert identify("The Cat sat")["language"] is None
    assert identify("12345 !!!")["language"] is None


def test_en_hi_scores_with_its_pack_and_without_one_names_the_language(capsys):
    """en-hi has a pack since issue 64 (lang:hi, Hindi's pronoun category declared empty); the same texts under a
    language without one (Marathi, same script) give no BlonDe number and name the language."""
    code, out, err = run(capsys, "score", "--wmt-dir", WMT24, "--lp", "en-hi", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert "|lang:hi|analyser:hindiPOS" in data["signature"] and len(data["systems"]) == 19
    assert all(v["categories"]["pronoun"]["F1"] is None for v in data["systems"].values())
    # an empty system is named, not silently scored 0 among the others
    assert any("'ONLINE-empty' is empty" in w for w in data["warnings"])
    code, out, err = run(capsys, "score", "--wmt-dir", WMT24, "--lp", "en-hi", "--lang", "mr")
    assert code == 2 and "[E043]" in err and "Marathi (mr)" in err and out == ""
    code, out, err = run(capsys, "score", "--wmt-dir", WMT24, "--lp", "en-hi", "--lang", "mr", "--metrics",
                         "chrF,BLEU", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["blonde"] is None and data["language"]["language"] == "hi"  # what the text is written in
    assert any("Marathi (mr)" in w and "no language pack" in w for w in data["warnings"])
    assert all("BlonDe" not in v and set(v) >= {"chrF", "BLEU"} for v in data["systems"].values())  # no BlonDe value


@pytest.mark.parametrize("lp,tok,systems", [("en-zh", "zh", ["GPT-4", "ONLINE-B", "Claude-3.5"]),
                                            ("en-ja", "ja-mecab", ["GPT-4", "ONLINE-B", "Team-J"])])
def test_bleu_follows_the_target_language(capsys, lp, tok, systems):
    import sacrebleu

    code, out, _ = run(capsys, "score", "--wmt-dir", WMT24, "--lp", lp, "--metrics", "BLEU,chrF", "--format", "json",
                       "--no-cache")
    assert code == 0
    data = json.loads(out)
    assert f"|tok:{tok}" in data["metric_signatures"]["BLEU"] and f"lang:{lp[3:]}|" in data["signature"]
    ref = (WMT24 / "references" / f"{lp}.refA.txt").read_text(encoding="utf-8").splitlines()[1:]
    for s in systems:
        hyp = (WMT24 / "system-outputs" / lp / f"{s}.txt").read_text(encoding="utf-8").splitlines()[1:]
        want = sacrebleu.corpus_bleu(hyp, [ref], tokenize=tok).score
        assert data["systems"][s]["BLEU"] == pytest.approx(want, abs=1e-9), s
        assert data["systems"][s]["chrF"] == pytest.approx(sacrebleu.corpus_chrf(hyp, [ref]).score, abs=1e-9)


def test_the_canary_is_left_out_and_metadata_checked():
    from blonde_core.study import Study

    s = Study.from_wmt(WMT24, lp="en-cs")
    assert s.corpus.n_segments == 997 and s.corpus.line_offset == 1
    assert not any("CANARY" in x for d in s.corpus.systems["GPT-4"] for x in d)
    assert "canary" not in s.domains.values()
    assert any("canary" in x for x in s.messages["wmt"]["left out"])  # its own key: not "read, not used"
    assert not any("canary" in x for x in s.messages["wmt"]["not used"])
    # the folder's ESA exports are read for the pair (en-cs is in wave 2)
    assert s.human is not None and s.human.name == "esa"


def _by_hand(pair3: tuple, systems: list[str], keep: set | None = None, among: set | None = None) -> dict:
    """The task's rules, written out: TGT rows below 1,000,000, the later judgment of a rater, the raters'
    mean per segment, then each system's mean over the segments judged for every judged system (of the
    segments at the lines in `keep` only, when given: a domain; of the systems `among` only, when given: the
    loaded ones)."""
    latest = {}
    for f in ESA:
        for r in csv.reader(f.open(encoding="utf-8")):
            if (r[4], r[5]) != pair3 or r[3] != "TGT" or int(r[2]) >= 1_000_000:
                continue
            if keep is not None and int(r[2]) not in keep or among is not None and r[1] not in among:
                continue
            key = (r[0], r[1], int(r[2]))
            if key not in latest or float(r[11]) >= latest[key][1]:
                latest[key] = (float(r[6]), float(r[11]))
    seg = defaultdict(list)
    for (rater, system, sid), (v, _) in latest.items():
        seg[(system, sid)].append(v)
    judged = defaultdict(set)
    for system, sid in seg:
        judged[system].add(sid)
    common = set.intersection(*judged.values())
    return {s: sum(sum(seg[(s, i)]) / len(seg[(s, i)]) for i in common) / len(common) for s in systems}


def test_esa_system_means_by_hand():
    from blonde_core.study import Study

    s = Study.from_wmt(WMT24, lp="en-zh").with_files(human=[str(p) for p in ESA])
    hs = s.human
    want = _by_hand(("eng", "zho"), ["GPT-4", "IKUN-C", "refA"])
    for name, v in want.items():
        assert hs.system_scores[name] == pytest.approx(v, abs=1e-9), name
    assert hs.details["segments_common"] == 634 and hs.details["systems_judged"] == 13
    assert hs.details["dropped"]["tutorial rows"] > 0 and hs.details["dropped"]["quality-control (BAD) rows"] > 0
    # error spans are human spans over the system's own text
    key, spans = next((k, v) for k, v in hs.error_spans.items() if any(x["start"] is not None for x in v))
    sp = next(x for x in spans if x["start"] is not None)
    assert hs.targets[key][sp["start"]:sp["end"]] == sp["text"] and sp["severity"] in ("Minor", "Major")


def test_esa_rules_on_a_small_file(tmp_path, capsys):
    """Tutorial and BAD rows dropped, a rater's later judgment wins, two raters averaged, systems compared on
    the segments judged for all of them - counted by hand."""
    from blonde_core.io.esa import bind_esa, read_esa
    from blonde_core.study import ScoreConfig, Study

    (tmp_path / "ref.txt").write_text("canary\nUn.\nDeux.\nTrois.\n", encoding="utf-8")
    (tmp_path / "A.txt").write_text("canary\nun\ndeux\ntrois\n", encoding="utf-8")
    (tmp_path / "B.txt").write_text("canary\nuno\ndos\ntres\n", encoding="utf-8")
    rows = [
        ["r1", "A", "1", "TGT", "eng", "fra", "80", "d", "False", "[]", "1", "2"],
        ["r1", "A", "1", "TGT", "eng", "fra", "60", "d", "False", "[]", "3", "4"],  # later: 60 wins
        ["r2", "A", "1", "TGT", "eng", "fra", "100", "d", "False", "[]", "1", "2"],  # mean (60 + 100) / 2 = 80
        ["r1", "A", "2", "TGT", "eng", "fra", "50", "d", "False",
         '[{"start_i": 0, "end_i": 4, "severity": "major", "error_type": null}]', "1", "2"],
        ["r1", "A", "3", "TGT", "eng", "fra", "10", "d", "False", "[]", "1", "2"],  # B never judged seg 3
        ["r1", "B", "1", "TGT", "eng", "fra", "40", "d", "False", "[]", "1", "2"],
        ["r1", "B", "2", "TGT", "eng", "fra", "20", "d", "False", "[]", "1", "2"],
        ["r1", "B", "2", "BAD", "eng", "fra", "0", "d#bad", "False", "[]", "1", "2"],
        ["r1", "A", "1000001", "TGT", "eng", "fra", "0", "tutorial", "False", "[]", "1", "2"],
    ]
    with (tmp_path / "esa.csv").open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    corpus = Study.from_files([str(tmp_path / "ref.txt")], [str(tmp_path / "A.txt"), str(tmp_path / "B.txt")]).corpus
    corpus.line_offset = 0  # these files keep the canary as line 0, as the release: segment_id k is line k
    esa = read_esa([tmp_path / "esa.csv"])
    assert esa.dropped == {"tutorial rows": 1, "quality-control (BAD) rows": 1, "earlier judgments of the same rater": 1}
    hs = bind_esa(esa, corpus, "en-fr")
    assert hs.system_scores["A"] == pytest.approx((80 + 50) / 2)  # segments 1 and 2 only: B has no 3
    assert hs.system_scores["B"] == pytest.approx((40 + 20) / 2)
    assert hs.details["segments_common"] == 2
    assert bind_esa(esa, corpus, "en-fr", common=False).system_scores["A"] == pytest.approx((80 + 50 + 10) / 3)
    (key, spans), = hs.error_spans.items()
    assert key[0] == "A" and key[2] == "3" and spans[0]["text"] == "deux" and spans[0]["severity"] == "Major"
    # the command line: WMT's way by default, every judged segment with --esa-every-judged (in its command too)
    from blonde_core.cli import main

    for flag, want in (([], (80 + 50) / 2), (["--esa-every-judged"], (80 + 50 + 10) / 3)):
        assert main(["score", "-r", str(tmp_path / "ref.txt"), "-s", str(tmp_path / "A.txt"), str(tmp_path / "B.txt"),
                     "--human", str(tmp_path / "esa.csv"), "--metrics", "chrF", "--format", "json", *flag]) == 0
        got = json.loads(capsys.readouterr().out)["systems"]["A"]["human:esa"]
        assert got == pytest.approx(want)
    # the option with judgments that are not ESA is said, not silently ignored
    (tmp_path / "h.tsv").write_text("system\tdoc\tscore\nA\tdoc1\t1\nB\tdoc1\t2\n", encoding="utf-8")
    assert main(["score", "-r", str(tmp_path / "ref.txt"), "-s", str(tmp_path / "A.txt"), str(tmp_path / "B.txt"),
                 "--human", str(tmp_path / "h.tsv"), "--metrics", "chrF", "--esa-every-judged"]) == 0
    assert "--esa-every-judged changes nothing: the loaded human scores are not ESA judgments" in \
        capsys.readouterr().err
    study = Study.from_files([str(tmp_path / "ref.txt")], [str(tmp_path / "A.txt"), str(tmp_path / "B.txt")]) \
        .with_files(human=[str(tmp_path / "esa.csv")], human_common=False)
    assert "--esa-every-judged" in study.command(ScoreConfig())


def test_correlate_en_ja_against_esa(capsys):
    code, out, err = run(capsys, "correlate", "--wmt-dir", WMT24, "--lp", "en-ja", "--human", *ESA, "--level", "system",
                         "--metrics", "chrF", "--format", "json", "--bootstrap", "0")
    assert code == 0, err
    data = json.loads(out)
    # every system the ESA of waves 2-3 judged in en-ja (12 and refA, the reference)
    # the Japanese pack (issue 46) scores BlonDe too: the research answer of docs/languages.md
    assert data["n_systems"] == 12 and {"chrF", "BlonDe", "BlonD-d", "tense", "pronoun"} <= set(data["metrics"])
    assert not any("no language pack" in w for w in data.get("warnings", []))
    assert data["human_details"]["segments_common"] == 634
    assert data["metrics"]["chrF"]["pearson"] > 0.5


def test_a_forced_pack_warns_with_every_number(capsys, tmp_path):
    lines = (WMT24 / "references" / "en-zh.refA.txt").read_text(encoding="utf-8").splitlines()[1:4]
    hyp = (WMT24 / "system-outputs" / "en-zh" / "GPT-4.txt").read_text(encoding="utf-8").splitlines()[1:4]
    (tmp_path / "ref.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "GPT-4.txt").write_text("\n".join(hyp) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "score", "-r", tmp_path / "ref.txt", "-s", tmp_path / "GPT-4.txt", "--lang", "en",
                         "--format", "json", "--no-cache")
    assert code == 0
    data = json.loads(out)
    assert "lang:en" in data["signature"]
    assert any("looks like 'zh' (Chinese)" in w for w in data["warnings"])


def test_esa_that_does_not_line_up_with_the_texts_is_refused(tmp_path):
    """The released files without their canary line but loaded as plain texts (no line left out): every
    segment_id points one line off, which the document ids give away - refused naming the file and line,
    never bound one segment off. And judgments of another language pair are never bound to these texts."""
    from blonde_core.errors import InputError
    from blonde_core.study import Study

    def strip_canary(src, dst):
        dst.write_text("\n".join(src.read_text(encoding="utf-8").splitlines()[1:]) + "\n", encoding="utf-8")

    strip_canary(WMT24 / "references" / "en-zh.refA.txt", tmp_path / "refA.txt")
    strip_canary(WMT24 / "system-outputs" / "en-zh" / "GPT-4.txt", tmp_path / "GPT-4.txt")
    strip_canary(WMT24 / "sources" / "en-zh.txt", tmp_path / "source.txt")
    docs = [line.split("\t")[1] for line in (WMT24 / "documents" / "en-zh.docs").read_text(encoding="utf-8").splitlines()]
    (tmp_path / "docids.txt").write_text("\n".join(docs[1:]) + "\n", encoding="utf-8")
    s = Study.from_files([str(tmp_path / "refA.txt")], [str(tmp_path / "GPT-4.txt")],
                         docids=str(tmp_path / "docids.txt"), source=str(tmp_path / "source.txt"))
    assert s.language_pair() == "en-zh"
    with pytest.raises(InputError) as e:
        s.with_files(human=[str(p) for p in ESA])
    assert e.value.code == "E013" and "do not line up" in str(e.value) and e.value.line is not None
    # the same texts as French: the ESA files hold no en-fr judgment, and none is bound
    (tmp_path / "fr.txt").write_text("Il y a un chat dans le jardin, et il faut partir avant la nuit.\n" * len(docs[1:]),
                                     encoding="utf-8")
    fr = Study.from_files([str(tmp_path / "fr.txt")], [str(tmp_path / "GPT-4.txt")],
                          docids=str(tmp_path / "docids.txt"), source=str(tmp_path / "source.txt"))
    assert fr.language_pair() == "en-fr"
    only_zh = tmp_path / "esa-en-zh.csv"  # one pair only: it must not be taken for the texts' en-fr either
    with ESA[0].open(encoding="utf-8") as f, only_zh.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows(r for r in csv.reader(f) if r[5] == "zho")
    with pytest.raises(InputError) as e:
        fr.with_files(human=[str(only_zh)])
    assert "holds no ESA judgment of en-fr" in str(e.value)


def test_a_language_set_against_the_text_is_said(capsys, tmp_path):
    """--lang mr on English text: no BlonDe (mr has no pack) and a warning that the text looks English, not a
    silent 'the target texts are in Marathi'; --lang zh (a pack since issue 46) scores, the warning with it."""
    ted = SHARED / "data" / "ted-zhen" / "refs"
    lines = (ted / "ref.txt").read_text(encoding="utf-8").splitlines()[:20]
    (tmp_path / "ref.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "score", "-r", tmp_path / "ref.txt", "-s", tmp_path / "sys.txt", "--lang", "mr",
                         "--metrics", "chrF", "--format", "json", "--no-cache")
    assert code == 0
    data = json.loads(out)
    assert data["blonde"] is None
    assert any("looks like 'en' (English) but the target language was set to 'mr'" in w for w in data["warnings"])
    code, out, err = run(capsys, "score", "-r", tmp_path / "ref.txt", "-s", tmp_path / "sys.txt", "--lang", "zh",
                         "--format", "json", "--no-cache")
    assert code == 0
    data = json.loads(out)
    assert "lang:zh|" in data["signature"] and data["systems"]["sys"]["BlonDe"]["F1"] == 1.0
    assert any("looks like 'en' (English) but is scored with the 'zh' language pack" in w for w in data["warnings"])


def test_esa_in_two_files_uploaded_on_the_data_page():
    """The Data page takes both ESA waves at once beside plain en-ja files: the pair told from the texts, the
    names matched and shown, the canary line judged nowhere; the Human judgments page slices the ESA score by
    system (equal to the CSV by hand over the loaded systems) and by domain-free scope, with spans weighted."""
    from streamlit.testing.v1 import AppTest

    from conftest import ROOT

    lp, systems = "en-ja", ["GPT-4", "Team-J", "CycleL"]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("pages/data.py").run()
    docs = (WMT24 / "documents" / f"{lp}.docs").read_text(encoding="utf-8").splitlines()
    at.file_uploader(key="up_refs").set_value([("refA.txt", (WMT24 / "references" / f"{lp}.refA.txt").read_bytes(),
                                                "text/plain")])
    at.file_uploader(key="up_sys").set_value([(f"{s}.txt", (WMT24 / "system-outputs" / lp / f"{s}.txt").read_bytes(),
                                               "text/plain") for s in systems])
    at.file_uploader(key="up_docids").set_value(("docids.txt", ("\n".join(r.split("\t")[1] for r in docs) + "\n")
                                                 .encode(), "text/plain"))
    at.file_uploader(key="up_src").set_value(("source.txt", (WMT24 / "sources" / f"{lp}.txt").read_bytes(),
                                              "text/plain"))
    at.file_uploader(key="up_human").set_value([(p.name, p.read_bytes(), "text/csv") for p in ESA])
    at.button(key="FormSubmitter:files-Analyse these files").click().run()
    assert not at.exception and not at.error, [e.value for e in at.exception] + [e.value for e in at.error]
    summary = [m.value for m in at.markdown if "understood as" in m.value][0]
    assert "ESA" in summary and "en-ja" in summary
    mapping = [df.value for df in at.dataframe if "name in the file" in df.value.columns][0]
    got = dict(zip(mapping["name in the file"], mapping["loaded text"]))
    assert got["GPT-4"] == "GPT-4" and got["Team-J"] == "Team-J" and got["refA"] == "refA"
    assert got["Aya23"].startswith("- (not matched")
    hs = at.session_state["data"].human
    want = _by_hand(("eng", "jpn"), ["GPT-4", "Team-J", "refA"], among={"GPT-4", "Team-J", "refA"})
    for name, v in want.items():
        assert hs.system_scores[name] == pytest.approx(v, abs=1e-9), name
    at.switch_page("pages/judgments.py").run()
    assert not at.exception and not at.error, [e.value for e in at.exception] + [e.value for e in at.error]
    at.multiselect(key="mqm_by").set_value(["system"]).run()
    sl = [df.value for df in at.dataframe if "penalty" in df.value.columns][0].set_index("system")
    for name, v in want.items():
        assert sl.loc[name, "esa"] == pytest.approx(v, abs=1e-9), name
    assert sl.loc["GPT-4", "MQM per 100 chars"] > 0  # the source's characters are known
    assert any("weighted as MQM" in h.value for h in at.subheader)
    at.session_state["annotate_ahead_stop"].set()  # the background annotation of the upload ends with the test


def test_a_system_that_copies_the_source_is_named_on_the_data_page_and_the_command_line(capsys, tmp_path):
    """A mixed corpus: a Chinese reference, GPT-4's Chinese and a 'system' that is the English source. The
    copy is named (with its counts) in the command's warnings and on the Data page right after loading; GPT-4
    is not; the copy is still scored."""
    from streamlit.testing.v1 import AppTest

    from conftest import ROOT

    def lines(path):
        return "\n".join(path.read_text(encoding="utf-8").split("\n")[1:61]) + "\n"  # past the canary
    files = {"refA.txt": lines(WMT24 / "references" / "en-zh.refA.txt"),
             "GPT-4.txt": lines(WMT24 / "system-outputs" / "en-zh" / "GPT-4.txt"),
             "copy.txt": lines(WMT24 / "sources" / "en-zh.txt")}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "score", "-r", tmp_path / "refA.txt", "-s", tmp_path / "GPT-4.txt",
                         tmp_path / "copy.txt", "--metrics", "chrF", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    flagged = [w for w in data["warnings"] if w.startswith("system ")]
    assert len(flagged) == 1 and re.match(r"system 'copy': of 60 segments checked, 5\d in another language \(en 5\d\)",
                                          flagged[0]), flagged  # one short line may read as another language
    assert data["systems"]["copy"]["chrF"] < data["systems"]["GPT-4"]["chrF"]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("pages/data.py").run()
    at.file_uploader(key="up_refs").set_value([("refA.txt", files["refA.txt"].encode(), "text/plain")])
    at.file_uploader(key="up_sys").set_value([(n, files[n].encode(), "text/plain") for n in ("GPT-4.txt", "copy.txt")])
    at.button(key="FormSubmitter:files-Analyse these files").click().run()
    assert not at.exception, [e.value for e in at.exception]
    said = [w.value for w in at.warning if "partly not in Chinese" in w.value]
    assert len(said) == 1 and "**copy**" in said[0] and "GPT-4" not in said[0]
    box = [e for e in at.expander if e.label == "Which segments, per system"][0]
    assert any(c.value.startswith("System 'copy'") and "of 60 segments checked" in c.value for c in box.caption)
    at.session_state["annotate_ahead_stop"].set()


@pytest.mark.pipeline
def test_esa_spans_without_a_position_are_whole_segment_errors(capsys):
    """WMT24 en-zh wave 2 has ESA spans whose position Appraise did not record (start "missing"): on Documents
    they are errors of the whole segment, marked so; `score --overlap` counts them and never fails (issue 63: the
    document and system of the report)."""
    from blonde_core.analysis.overlap import document_errors
    from blonde_core.cli import main
    from blonde_core.study import ScoreConfig, Study

    doc = "test-en-news_scotsman.87445"
    st = Study.from_wmt(WMT24, "en-zh").with_files(human=[str(p) for p in ESA])
    res = st.analysis(ScoreConfig(lang="zh", lowercase=False))
    di = list(res.corpus.doc_ids).index(doc)
    errs = document_errors(res, st.human, di, "IKUN-C")
    whole = [e for seg in errs for e in seg if e.get("whole_segment")]
    assert whole, "the document has a span without a position"
    texts = [t.strip() for t in res.corpus.systems["IKUN-C"][di]]
    for seg, t in zip(errs, texts):
        for e in seg:
            assert 0 <= e["start"] < e["end"] <= len(t)
            if e.get("whole_segment"):
                assert (e["start"], e["end"]) == (0, len(t))
    code = main(["score", "--wmt-dir", str(WMT24), "--lp", "en-zh", "--human", *map(str, ESA), "--overlap",
                 "--overlap-documents", doc, "--format", "json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out)["overlap"]["segments_compared"] > 0
