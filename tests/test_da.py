"""WMT direct-assessment segment tables: read, bound to the loaded texts by line number,
names mapped visibly; missing segments are missing, not zero."""
import json

import pytest

from blonde_core.cli import main
from blonde_core.io.corpus import Corpus
from blonde_core.io.da import guess_mapping, is_da, read_da
from blonde_core.errors import InputError
from blonde_core.io.formats import read_human
from blonde_core.analysis.mqm import slices as mqm_slices
from conftest import SHARED, WMT_SUBSET_SYSTEMS, wmt22_subset

WMT = SHARED / "data" / "wmt22-zhen"


def corpus():
    # two documents: lines 1-2 are d1, lines 3-5 are d2
    ref = [["a", "b"], ["c", "d", "e"]]
    return Corpus(["d1", "d2"], {"refA": ref, "refB": ref}, {"Sys-X": ref, "Other": ref})


def test_hand_made_da_table(tmp_path):
    f = tmp_path / "da.csv"
    f.write_text("SYS SID RAW.SCR Z.SCR N \n"
                 "Sys-X.3 1 80 0.5 2 \n"
                 "Sys-X.3 4 60 -0.1 1 \n"
                 "Sys-X.3 5 70 0.2 1 \n"
                 "HUMAN-B.7 2 90 0.9 1 \n"
                 "Mystery.1 3 10 -2 1 \n", encoding="utf-8")
    assert is_da(f)
    hs = read_human(f, corpus=corpus())
    assert hs.name == "RAW.SCR" and hs.higher_is_better
    assert hs.mapping == {"Sys-X.3": "Sys-X", "HUMAN-B.7": "refB", "Mystery.1": None}
    # line 1 -> d1 segment 1; lines 4 and 5 -> d2 segments 2 and 3
    assert hs.segments == {("Sys-X", "d1", "1"): 80, ("Sys-X", "d2", "2"): 60, ("Sys-X", "d2", "3"): 70,
                           ("refB", "d1", "2"): 90}
    assert hs.doc_scores["Sys-X"] == {"d1": 80, "d2": 65}  # rated segments only: d2 is (60 + 70) / 2
    assert hs.system_scores["Sys-X"] == pytest.approx(70) and hs.n_segments["Sys-X"] == 3
    assert hs.coverage["Sys-X"] == {"segments_rated": 3, "segments": 5}
    assert "Other" not in hs.system_scores  # not rated is not zero
    z = read_human(f, "Z.SCR", corpus=corpus(), mapping={"Mystery.1": "Other"})
    assert z.system_scores["Other"] == -2 and z.segments[("Sys-X", "d1", "1")] == 0.5
    with pytest.raises(InputError, match="read together with the texts"):
        read_human(f)


def test_da_errors_name_file_and_line(tmp_path):
    f = tmp_path / "bad.tsv"
    f.write_text("SYS\tSID\tscore\nA\tseven\t3\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 2.*'seven' is not a line number|not a line number"):
        read_da(f)
    f.write_text("SYS\tSID\tscore\nSys-X\t9\t3\n", encoding="utf-8")
    with pytest.raises(InputError, match="outside the loaded test set"):
        read_human(f, corpus=corpus())


def test_mapping_rules():
    loaded = ["refA", "refB", "Online-W", "JDExploreAcademy"]
    m = guess_mapping(["Online-W.1", "HUMAN-B.12", "jdexploreacademy.6", "X.2"], loaded, {"X.2": "refA"})
    assert m == {"Online-W.1": "Online-W", "HUMAN-B.12": "refB", "jdexploreacademy.6": "JDExploreAcademy",
                 "X.2": "refA"}


def test_real_wmt22_da_file():
    rows = (WMT / "human" / "ad-seg-scores-zh-en.csv").read_text().splitlines()[1:]
    t = read_da(WMT / "human" / "ad-seg-scores-zh-en.csv")
    assert t.name == "RAW.SCR" and len(t.rows) == len([r for r in rows if r.strip()])
    from blonde_core.io.readers import plain_corpus

    systems = sorted((WMT / "systems").glob("*.txt")) + [WMT / "refs" / "refB.txt"]
    c = plain_corpus([WMT / "refs" / "refA.txt"], systems, docids=WMT / "docids.blk10.txt")
    hs = read_human(WMT / "human" / "ad-seg-scores-zh-en.csv", corpus=c)
    assert hs.mapping["HUMAN-B.12"] == "refB" and hs.mapping["JDExploreAcademy.6"] == "JDExploreAcademy"
    assert all(v is not None for v in hs.mapping.values()) and len(hs.system_scores) == 13
    # worked out here: the mean RAW.SCR over JDExploreAcademy's rated lines (one row per line in the file)
    jd = [float(r.split()[2]) for r in rows if r.split()[0] == "JDExploreAcademy.6"]
    assert hs.system_scores["JDExploreAcademy"] == pytest.approx(sum(jd) / len(jd))
    assert hs.coverage["JDExploreAcademy"]["segments"] == 1875
    assert hs.coverage["JDExploreAcademy"]["segments_rated"] == len(jd) < 1875


def test_mqm_wmt22_layout_by_hand(tmp_path):
    """The WMT22-24 MQM layout: docSegId/globalSegId, a metadata JSON column, a comment cell in
    the header, several raters, a Source issue row and a quality-control probe (both weight 0),
    segments rated for some systems only."""
    from blonde_core.io.formats import read_structured_with_human
    from blonde_core.io.human import is_mqm, read_mqm

    head = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata\t# Docs: README"
    rows = [
        ("sysA", "docX", 1, 1, "rater1", "s1", "A <v>one</v>", "Accuracy/Mistranslation", "Major", '{"k": 1}'),
        ("sysA", "docX", 1, 1, "rater2", "s1", "A one", "No-error", "No-error", "{}"),
        ("sysA", "docX", 2, 2, "rater1", "s2", "A two", "Fluency/Punctuation", "Minor", "{}"),
        ("sysA", "docX", 2, 2, "rater1", "s2", "A two", "Source issue", "Major", "{}"),
        ("sysA", "docX", 2, 2, "rater2", "s2", "A two", "Found", "HOTW-test", "{}"),
        ("sysB", "docX", 1, 1, "rater1", "s1", "B one", "Non-translation!", "Major", "{}"),
        ("sysB", "docY", 1, 3, "rater3", "s3", "B three", "Fluency/Grammar", "Minor", '{"t": "a\\\\tb"}'),
    ]
    f = tmp_path / "mqm22.tsv"
    f.write_text(head + "\n" + "\n".join("\t".join(map(str, r)) for r in rows) + "\n", encoding="utf-8")
    assert is_mqm(f)
    m = read_mqm(f)
    hs = m.scores
    # sysA: segment 1 = (5 + 0) / 2 raters; segment 2 = (0.1 + 0 source issue) and 0 (probe) -> 0.05
    assert hs.segments[("sysA", "docX", "1")] == pytest.approx(2.5)
    assert hs.segments[("sysA", "docX", "2")] == pytest.approx(0.05)
    assert hs.system_scores["sysA"] == pytest.approx((2.5 + 0.05) / 2) and hs.n_segments["sysA"] == 2
    assert hs.doc_scores["sysA"] == {"docX": pytest.approx(1.275)}  # docY not rated: no score, not zero
    assert hs.system_scores["sysB"] == pytest.approx((25 + 1) / 2) and hs.doc_scores["sysB"]["docY"] == 1
    assert m.incomplete == {"sysA": 1, "sysB": 1} and m.doc_ids == ["docX", "docY"]
    assert hs.rater_scores[("sysA", "docX", "1")] == {"rater1": 5.0, "rater2": 0.0}
    with pytest.raises(InputError, match="rated on only some segments"):
        read_structured_with_human(f, ["sysA"])
    # the marked error, in the text without markers; No-error, the probe and the unmarked rows give none
    assert hs.error_spans[("sysA", "docX", "1")] == [
        {"side": "target", "start": 2, "end": 5, "text": "one", "category": "Accuracy/Mistranslation",
         "severity": "Major", "rater": "rater1"}]
    assert ("sysA", "docX", "2") not in hs.error_spans
    # sliced by rater (as Marot): rater1 made 4 annotations (5 + 0.1 + 0 source issue + 25) over 3 rated
    # (system, segment) units; rater2 found nothing (No-error, and a probe): MQM 0; rater3 one Minor
    by_rater = {r["rater"]: r for r in mqm_slices(hs, ["rater"])}
    assert (by_rater["rater1"]["errors"], by_rater["rater1"]["rated"]) == (4, 3)
    assert by_rater["rater1"]["MQM"] == pytest.approx(30.1 / 3)
    assert (by_rater["rater2"]["errors"], by_rater["rater2"]["MQM"]) == (0, 0)
    assert by_rater["rater3"]["MQM"] == pytest.approx(1.0)
    sev = {(r["system"], r["severity"]): r for r in mqm_slices(hs, ["system", "severity"])}
    assert sev[("sysA", "Major")]["penalty"] == 5 and sev[("sysA", "Major")]["errors"] == 2  # incl. source issue
    with pytest.raises(InputError, match="slice by"):
        mqm_slices(hs, ["colour"])


def test_mqm_slices_on_ted(ted, capsys):
    """One rater per TED segment: the system slice is the system's MQM (ref 5.52 ... refB 0.42)."""
    assert main(["human", "--mqm", str(ted / "raw" / "mqm_ted_zhen.tsv"), "--by", "system", "--format",
                 "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    from blonde_core.io.human import read_mqm

    hs = read_mqm(ted / "raw" / "mqm_ted_zhen.tsv").scores
    got = {r["system"]: r["MQM"] for r in d["slices"]}
    assert got == {s: pytest.approx(v) for s, v in hs.system_scores.items()}
    assert round(got["ref"], 2) == 5.52 and round(got["refB"], 2) == 0.42
    assert main(["human", "--mqm", str(ted / "raw" / "mqm_ted_zhen.tsv"), "--by", "rater,category"]) == 0
    assert "MQM" in capsys.readouterr().out


def test_mqm_spans_on_ted(ted, capsys):
    """`human --spans`: every span's offsets cut its text out of the target without markers;
    the first row of the release worked out here."""
    import re

    assert main(["human", "--mqm", str(ted / "raw" / "mqm_ted_zhen.tsv"), "--spans", "--format", "json"]) == 0
    spans = json.loads(capsys.readouterr().out)["spans"]
    first = (ted / "raw" / "mqm_ted_zhen.tsv").read_text(encoding="utf-8").splitlines()[1].split("\t")
    target = first[6]
    a = target.index("<v>")
    b = target.index("</v>") - len("<v>")
    clean = re.sub("</?v>", "", target)
    assert spans[0]["system"] == first[0] and spans[0]["seg_id"] == first[3] and spans[0]["rater"] == first[4]
    assert (spans[0]["start"], spans[0]["end"], spans[0]["text"]) == (a, b, clean[a:b])
    assert spans[0]["category"] == first[7] and spans[0]["severity"] == first[8]
    assert len(spans) > 1000 and {s["side"] for s in spans} <= {"target", "source"}


def one_document_with_mqm(tmp_path, ref_lines, hyp_lines, mqm_rows):
    """Files of one document "d": a reference, system sysA, document ids, and MQM rows
    (seg_id, rater, source, target, category, severity) of sysA."""
    ref, hyp, docids, mqm = (tmp_path / n for n in ("ref.txt", "sysA.txt", "docids.txt", "mqm.tsv"))
    ref.write_text("".join(x + "\n" for x in ref_lines), encoding="utf-8")
    hyp.write_text("".join(x + "\n" for x in hyp_lines), encoding="utf-8")
    docids.write_text("d\n" * len(ref_lines), encoding="utf-8")
    head = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
    mqm.write_text("".join(x + "\n" for x in [head] + ["sysA\td\t1\t" + r for r in mqm_rows]), encoding="utf-8")
    return ref, hyp, docids, mqm


def test_overlap_worked_by_hand(tmp_path, capsys):
    """One document, two segments, real pipeline.  Segment 1: 'She walked home.' rendered 'He walks
    home.': BlonDe's unmatched system spans are 'He' (pronoun) and 'walks' (tense), each covered by one
    human error span; the reference's 'She' and 'walked' are missed, in a flagged segment.  Segment 2 is
    identical to the reference, yet a rater marks 'late': one human error where BlonDe saw none."""
    ref, hyp, docids, mqm = one_document_with_mqm(
        tmp_path, ["She walked home.", "It was late."], ["He walks home.", "It was late."],
        ["1\trater1\tsrc\t<v>He</v> walks home.\tAccuracy/Mistranslation\tMajor",
         "1\trater2\tsrc\tHe <v>walks</v> home.\tFluency/Grammar\tMinor",
         "2\trater1\tsrc\tIt was <v>late</v>.\tStyle/Awkward\tMinor"])
    assert main(["score", "-r", str(ref), "-s", str(hyp), "--docids", str(docids), "--human", str(mqm),
                 "--overlap", "--format", "json"]) == 0
    ov = json.loads(capsys.readouterr().out)["overlap"]
    v = ov["systems"]["sysA"]
    p, t = v["categories"]["pronoun"], v["categories"]["tense"]
    assert (p["unmatched"], p["overlapped"], p["mqm_categories"]) == (1, 1, {"Accuracy/Mistranslation": 1})
    assert (t["unmatched"], t["overlapped"], t["mqm_categories"]) == (1, 1, {"Fluency/Grammar": 1})
    assert (p["missed"], p["missed_in_flagged_segments"]) == (1, 1)
    assert (t["missed"], t["missed_in_flagged_segments"]) == (1, 1)
    assert v["categories"]["entity"]["unmatched"] == 0 and v["categories"]["dm"]["unmatched"] == 0
    assert v["human_error_spans"] == 3
    assert v["human_error_spans_where_blonde_saw_no_discourse_mismatch"] == 1
    assert v["their_mqm_categories"] == {"Style/Awkward": 1}
    assert ov["segments_compared"] == 2 and ov["segments_text_differs"] == 0
    # one document by name (the Documents page's table); a name that is not there is one line naming it
    doc = docids.read_text(encoding="utf-8").split()[0]
    args = ["score", "-r", str(ref), "-s", str(hyp), "--docids", str(docids), "--human", str(mqm), "--overlap"]
    assert main(args + ["--overlap-documents", doc, "--format", "json"]) == 0
    one = json.loads(capsys.readouterr().out)["overlap"]
    assert one["documents"] == [doc] and one["systems"] == ov["systems"]
    assert main(args + ["--overlap-documents", "nope"]) == 2
    assert "--overlap-documents: no document 'nope'" in capsys.readouterr().err
    assert main(args + ["--overlap-reference", "nope"]) == 2
    assert "--overlap-reference: no reference 'nope'" in capsys.readouterr().err


def test_documents_page_and_overlap_table_place_error_spans_by_one_rule(tmp_path):
    """The Documents page (document_errors) and the overlap table (error_overlap) agree on
    which segments' error spans can be placed: a target that differs from the loaded text
    only in case and surrounding space is placed (shifted by its leading space), a target
    with other words is not (counted as differing). Before, the page compared case-exactly
    and the table case-insensitively, so the page showed no error where the table counted one."""
    from blonde_core.analysis.overlap import document_errors, error_overlap
    from blonde_core.io.readers import plain_corpus
    from blonde_core.study import ScoreConfig, Study

    ref, hyp, docids, mqm = one_document_with_mqm(
        tmp_path, ["She walked home.", "It was late.", "They slept."],
        ["He walks home.", "It was late.", "They slept."],
        ["1\trater1\tsrc\t  <v>he</v> walks home.\tAccuracy/Mistranslation\tMajor",
         "2\trater1\tsrc\tIt was <v>late</v> again.\tStyle/Awkward\tMinor",
         "3\trater1\tsrc\tThey slept.\tno-error\tno-error"])
    human = read_human(mqm)
    res = Study(plain_corpus([ref], [hyp], docids=docids), "test").result(ScoreConfig())
    errs = document_errors(res, human, 0, "sysA")
    # segment 1: 'he' in '  he walks home.' is 'He' at 0-2 of the loaded text; segment 2 is another text
    assert [(e["start"], e["end"], e["category"]) for e in errs[0]] == [(0, 2, "Accuracy/Mistranslation")]
    assert errs[1] == [] and errs[2] == []
    ov = error_overlap(res, human)
    assert (ov["segments_compared"], ov["segments_text_differs"]) == (2, 1)
    p = ov["systems"]["sysA"]["categories"]["pronoun"]
    assert (p["unmatched"], p["overlapped"]) == (1, 1)  # the same span the page underlines
    assert ov["systems"]["sysA"]["human_error_spans"] == 1


def test_real_da_file_correlates_through_the_cli(tmp_path, capsys):
    """WMT22 zh-en, first 80 segments (8 documents), five systems and the second reference, with the
    real DA rows of those segments: `correlate --human` maps the names (HUMAN-B -> refB, .K dropped,
    systems not loaded left out), averages only the rated segments, and its Pearson and pairwise
    accuracy are those worked out here from `score`'s BlonDe and the file's own rows."""
    from itertools import combinations

    from scipy.stats import pearsonr

    n = 80
    names = WMT_SUBSET_SYSTEMS
    sub = wmt22_subset(tmp_path, n)
    rows = sub["rows"]
    texts = [str(sub[s]) for s in names + ["refB"]]
    common = ["-r", str(sub["refA"]), "-s", *texts, "--docids", str(sub["docids"])]

    assert main(["score", *common, "--format", "json"]) == 0
    blonde = {s: v["BlonDe"]["F1"] for s, v in json.loads(capsys.readouterr().out)["systems"].items()}
    assert main(["correlate", *common, "--human", str(sub["da"]), "--metrics", "BlonDe",
                 "--accuracy", "--bootstrap", "0", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["human"] == "RAW.SCR" and out["human_direction"] == "higher is better"
    assert out["human_mapping"]["HUMAN-B.12"] == "refB" and out["human_mapping"]["NiuTrans.9"] is None
    human = {}
    for r in rows:  # the file's own rows: mean RAW.SCR over each system's rated segments
        human.setdefault(r[0].rsplit(".", 1)[0].replace("HUMAN-B", "refB"), []).append(float(r[2]))
    human = {s: sum(v) / len(v) for s, v in human.items()}
    order = names + ["refB"]
    assert out["systems"] == order and out["human_coverage"]["Online-A"] == {"segments_rated": 36, "segments": n}
    x, y = [blonde[s] for s in order], [human[s] for s in order]
    got = out["metrics"]["BlonDe"]
    assert got["pearson"] == pytest.approx(pearsonr(x, y)[0], abs=1e-12)
    agree = sum((x[i] - x[j]) * (y[i] - y[j]) > 0 for i, j in combinations(range(len(order)), 2))
    assert (got["agree"], got["pairs"]) == (agree, 15) and got["accuracy"] == pytest.approx(agree / 15)


def test_correcting_the_mapping_rebinds_the_judgments(tmp_path):
    """The Data page's corrected mapping: Mystery.1 is 'Other', HUMAN-B.7 left out - the study gets the
    judgments bound again (new content key, so nothing computed with the old mapping is reused)."""
    from blonde_core.study import Study

    f = tmp_path / "da.csv"
    f.write_text("SYS SID RAW.SCR Z.SCR N\nSys-X.3 1 80 0.5 2\nHUMAN-B.7 2 90 0.9 1\nMystery.1 3 10 -2 1\n"
                 "Mystery.1 4 30 -1 1\n")
    study = Study(corpus(), "t", human=read_human(f, corpus=corpus()))
    assert "Other" not in study.human.system_scores and "refB" in study.human.system_scores
    fixed = study.with_human_mapping({"Sys-X.3": "Sys-X", "HUMAN-B.7": None, "Mystery.1": "Other"})
    assert fixed.human.mapping == {"Sys-X.3": "Sys-X", "HUMAN-B.7": None, "Mystery.1": "Other"}
    assert fixed.human.system_scores == {"Sys-X": 80, "Other": 20}  # (10 + 30) / 2; refB no longer judged
    assert fixed.human.doc_scores["Other"] == {"d2": 20}  # lines 3 and 4 are d2's first two segments
    assert fixed.key != study.key and study.human.mapping["Mystery.1"] is None  # the old one is untouched
    with pytest.raises(InputError, match="DA / ESA table"):
        Study(corpus(), "t").with_human_mapping({})


def test_two_file_names_for_one_loaded_text_is_an_error(tmp_path):
    f = tmp_path / "da.csv"
    f.write_text("SYS SID RAW.SCR Z.SCR N\nSys-X.3 1 80 0.5 2\nMystery.1 3 10 -2 1\n")
    with pytest.raises(InputError, match="'Mystery.1' and 'Sys-X.3' are both mapped to the loaded text 'Sys-X'"):
        read_human(f, corpus=corpus(), mapping={"Mystery.1": "Sys-X"})
