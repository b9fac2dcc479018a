"""Benchmark: hostile uploads (issue 49) and hostile input, second pass (issue 63 points 1-4, 8 and 9).

Prints, measured in one run on this machine:
  bomb     `score --wmt-dir BOMB.zip` on a WMT-layout zip of ~60 KB whose system file inflates to 60 MB of
           lines (the review's case): exit status, seconds and the process's peak memory (target: refused,
           at most 400 MB; before the change it peaked at 1.58 GB);
  baseline `python -c "import blonde_core.cli"` peak memory, for scale;
  jsonl    a 1,000,000-line JSON Lines file read under a server's limits (500,000 segments): seconds until it
           is refused (before: 47-54 s and ~2 GB), in this process;
  cases    issue 63: every hostile file of points 1 (human scores outside their scale, duplicate judgments),
           2 (segment ids that differ from the reference's) and 4 (hostile JSON wherever JSON is read), made in
           a temporary folder and given to the command line (`python -m blonde_core ...`, one process each):
           a table of case -> exit status -> the line of stderr that says it (else the first).  No case may
           exit 3 (an internal error); the cases marked "ok" must exit 0 (the same data, read right).  Then
           points 3 (a reference with an empty document, emoji only, German, homoglyphs, Latin gibberish under a
           Ukrainian target - warned, exit 0 - and a system of that gibberish), 8 (a line of 1.2 million
           characters, --max-line-chars, a system too long to re-segment) and 9 (ESA judged on disjoint segments,
           a lone CR, a zip's system-outputs/refA.txt, members named '.txt' or with a newline)
           (more_issue63_cases; bench/bench_resegment_long.py measures re-segmenting one long document).

    .venv/bin/python bench/bench_hostile.py            # all
    .venv/bin/python bench/bench_hostile.py --cases    # the issue-63 table only

The case builders (`issue63_cases`) are the ones tests/test_hostile.py runs through the command line's main().
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def peak_of(argv: list[str]) -> tuple[int, float, float, str]:
    """(exit status, seconds, peak MB, last stderr line) of a command run as a child: its own peak from
    GNU time's %M when there, else the children's largest so far."""
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", *argv], capture_output=True, text=True, cwd=ROOT)
    secs = time.perf_counter() - t0
    lines = p.stderr.strip().splitlines()
    peak = int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else \
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    said = next((x for x in lines if "error" in x), "")
    return p.returncode, secs, peak, said[:200]


def bomb_zip() -> bytes:
    """A WMT-layout zip of ~124 KB whose system output inflates to 60 MB of lines."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("wmt/documents/en-de.docs", "news d1\n" * 3)
        z.writestr("wmt/references/en-de.refA.txt", "a\nb\nc\n")
        z.writestr("wmt/system-outputs/en-de/bomb.txt", ("x" * 999 + "\n") * 60_000)
    return buf.getvalue()


def million_lines() -> bytes:
    """A JSON Lines file of 1,000,000 one-segment rows (twice a server's default segment limit)."""
    return "".join(json.dumps({"system": "s", "doc_id": f"d{i // 10}", "text": "x"}) + "\n"
                   for i in range(1_000_000)).encode()


def layout_zip(member: bytes, extra=(), system: str = "sys") -> bytes:
    """A WMT-layout zip (en-de, two segments of one document) whose one system output is `member`, with
    `extra` members (name, data) beside it."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("wmt/documents/en-de.docs", "news d1\nnews d1\n")
        z.writestr("wmt/references/en-de.refA.txt", "One line.\nTwo lines.\n")
        z.writestr(f"wmt/system-outputs/en-de/{system}.txt", member)
        for name, data in extra:
            z.writestr(name, data)
    return buf.getvalue()


SAMPLE = ROOT / "sample_data"
SAMPLE_ARGS = ["-r", str(SAMPLE / "reference.txt"), "-s", str(SAMPLE / "consistent.txt"), str(SAMPLE / "names.txt"),
               "--docids", str(SAMPLE / "docids.txt")]
BIG_INT = "1" + "0" * 4999  # 5,000 digits: past Python's int-to-string limit (4,300)
DEEP = "[" * 50_000 + "]" * 50_000  # json's parser recursed into RecursionError
LONE = "\\ud800"  # a lone surrogate, as JSON writes it
NUL = "\\u0000"


@dataclass
class Case:
    name: str
    point: int  # of issue 63
    argv: list  # the command line after `python -m blonde_core`
    expect: str  # a phrase stderr must hold
    code: int = 2  # 2: refused with a message; 0: read (an "ok" case)


def _esa_row(system: str, seg: int, overall: str, doc: str, spans: str = "[]", rater: str = "r1",
             end: str = "2.0") -> list:
    return [rater, system, str(seg), "TGT", "eng", "deu", overall, doc, "False", spans, "1.0", end]


def _csv(rows: list) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def _rows(ids_of: dict, sysname: str = "A") -> list:
    """--input rows: the reference 'ref' with segments 1-4 of document d1, and `sysname` with the ids given."""
    ref = ["The cat sat on the mat.", "It was very happy that day.", "Then it slept for a long time.",
           "In the evening it ate fish."]
    rows = [{"doc_id": "d1", "seg_id": i, "system": "ref", "text": t} for i, t in enumerate(ref, 1)]
    rows += [{"doc_id": "d1", "seg_id": i, "system": sysname, "text": ref[i - 1] if i <= 4 else "An extra line."}
             for i in ids_of[sysname]]
    return rows


def _xml(hyp_ids: list) -> str:
    ref = ["The cat sat.", "It was happy.", "Then it slept.", "It ate fish."]
    seg = "".join(f'<seg id="{i}">{t}</seg>' for i, t in enumerate(ref, 1))
    hyp = "".join(f'<seg id="{i}">{ref[i - 1] if i <= 4 else "More."}</seg>' for i in hyp_ids)
    return (f'<?xml version="1.0"?>\n<dataset>\n<collection>\n<doc id="d1">\n<src lang="de"><p>{seg}</p></src>\n'
            f'<ref lang="en" translator="A"><p>{seg}</p></ref>\n<hyp system="S"><p>\n{hyp}\n</p></hyp>\n</doc>\n'
            '</collection>\n</dataset>\n')


def issue63_cases(d: Path) -> list:
    """Every hostile case of issue 63 points 1, 2 and 4 (and the ok cases beside them), its files written in
    `d`: [Case]."""
    d.mkdir(parents=True, exist_ok=True)
    docs = (SAMPLE / "docids.txt").read_text(encoding="utf-8").split()
    cases = []

    def write(name: str, text: str) -> str:
        (d / name).write_text(text, encoding="utf-8")
        return str(d / name)

    # point 4: hostile JSON wherever JSON is read
    comet = '{"translations": [{"name": "consistent.txt", "scores": [%s]}]}'
    for what, body, expect in (("integer of 5,000 digits", comet % BIG_INT, "5,000 digits"),
                               ("50,000 levels", comet % DEEP, "levels deep"),
                               ("lone surrogate", comet % ('"x' + LONE + '"'), "lone surrogate")):
        f = write(f"comet-{len(cases)}.json", body)
        cases.append(Case(f"COMET JSON scores: {what}", 4, ["score", *SAMPLE_ARGS, "--metric-scores", f,
                                                            "--metrics", "chrF"], expect))
    row = '{"doc_id": "d1", "seg_id": %s, "system": "%s", "text": "%s"}'
    for what, lines, expect in (
            ("integer of 5,000 digits", [row % (BIG_INT, "ref", "a")], "5,000 digits"),
            ("50,000 levels", ['{"doc_id": "d1", "system": "ref", "text": "a", "x": %s}' % DEEP], "levels deep"),
            ("lone surrogate in a text", [row % (1, "ref", "a" + LONE)], "lone surrogate"),
            ("NUL in a text", [row % (1, "ref", "a"), row % (1, "A", "b" + NUL)], "NUL")):
        f = write(f"rows-{len(cases)}.jsonl", "\n".join(lines) + "\n")
        cases.append(Case(f"--input JSON Lines: {what}", 4, ["score", "--input", f, "--reference-systems", "ref",
                                                             "--metrics", "chrF", "--no-cache"], expect))
    for what, spans, expect in (("integer of 5,000 digits", '[{"start_i": %s, "end_i": 1}]' % BIG_INT, "digits"),
                                ("50,000 levels", DEEP, "levels deep"),
                                ("lone surrogate", '[{"severity": "x%s"}]' % LONE, "lone surrogate")):
        f = write(f"esa-{len(cases)}.csv", _csv([_esa_row("consistent", 0, "80", docs[0], spans)]))
        cases.append(Case(f"ESA error_spans: {what}", 4, ["correlate", *SAMPLE_ARGS, "--human", f, "--metrics", "chrF"],
                          expect))
    meta = '{"domain": "news", "docid": "d1%s"}\n{"domain": "news", "docid": "d1"}\n' % NUL
    z = d / "wmt-meta.zip"
    z.write_bytes(layout_zip(b"Eins.\nZwei.\n", [("wmt/metadata/en-de.jsonl", meta)]))
    cases.append(Case("WMT folder metadata .jsonl: NUL", 4, ["score", "--wmt-dir", str(z), "--metrics", "chrF"], "NUL"))
    head = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata\n"
    f = write("mqm-meta.tsv", head + "A\td1\t1\t1\trater1\tsrc\ttgt\tNo-error\tNo-error\t{\"x\": %s}\n" % DEEP)
    cases.append(Case("MQM metadata column: 50,000 levels", 4, ["human", "--mqm", f], "levels deep"))

    # point 1: human scores in their scale, one duplicate rule
    for v in ("-1000", "5000", "1e11"):
        f = write(f"esa-overall{v}.csv", _csv([_esa_row("consistent", 0, v, docs[0])]))
        cases.append(Case(f"ESA overall {v}", 1, ["correlate", *SAMPLE_ARGS, "--human", f, "--metrics", "chrF"],
                          "outside the scale of ESA"))
    da = "SYS SID RAW.SCR Z.SCR N\n" + "".join(f"consistent.1 {i} {70 + i} 0.1 1\nnames.2 {i} {60 + i} -0.1 1\n"
                                               for i in range(1, 11))
    f = write("da-minus300.csv", da.replace("consistent.1 3 73", "consistent.1 3 -300"))
    cases.append(Case("DA RAW.SCR -300", 1, ["correlate", *SAMPLE_ARGS, "--human", f, "--metrics", "chrF"],
                      "outside the scale of WMT's raw direct assessment"))
    f = write("da-twice.csv", da + "consistent.1 3 10 -1.5 1\n")
    cases.append(Case("DA table: a row twice", 1, ["correlate", *SAMPLE_ARGS, "--human", f, "--metrics", "chrF"],
                      "appears again (first on line 6)"))
    f = write("da.csv", da)
    cases.append(Case("DA table as released (ok)", 1, ["correlate", *SAMPLE_ARGS, "--human", f, "--metrics", "chrF"],
                      "", 0))
    mqm = "system\tdoc_id\tseg_id\tmqm\n" + "".join(f"{s}\t{docs[i]}\t{i + 1}\t{p}\n" for i in range(10)
                                                  for s, p in (("consistent", 1.0), ("names", 5.0)))
    f = write("mqm-penalties.tsv", mqm)
    cases.append(Case("MQM penalties (>= 0) read higher-is-better", 1,
                      ["correlate", *SAMPLE_ARGS, "--human", f, "--metrics", "chrF"], "outside the scale of MQM"))
    cases.append(Case("MQM penalties with --lower-is-better (ok)", 1,
                      ["correlate", *SAMPLE_ARGS, "--human", f, "--lower-is-better", "--metrics", "chrF"], "", 0))
    z = d / "wmt-esa.zip"
    z.write_bytes(layout_zip(b"Eins.\nZwei.\n", [("wmt/human-scores/en-de.esa.seg.score", "sys 5000\nsys 50\n")]))
    cases.append(Case("WMT layout human-scores esa 5000", 1, ["score", "--wmt-dir", str(z), "--metrics", "chrF"],
                      "outside the scale of ESA"))
    two = [_esa_row("consistent", 0, "80", docs[0]), _esa_row("consistent", 0, "20", docs[0])]
    f = write("esa-same-time.csv", _csv(two))
    cases.append(Case("ESA: two judgments, one end_time", 1, ["correlate", *SAMPLE_ARGS, "--human", f, "--metrics",
                                                               "chrF"], "appears again (first on line 1)"))
    rows = [_esa_row(s, k, str(50 + k + (10 if s == "consistent" else 0)), docs[k]) for s in ("consistent", "names")
            for k in range(10)]
    f = write("esa-repeated.csv", _csv(rows + rows[:3]))
    cases.append(Case("ESA: rows exported twice as they were (ok)", 1,
                      ["correlate", *SAMPLE_ARGS, "--human", f, "--metrics", "chrF"], "", 0))

    # point 2: segment ids respected
    for what, ids, gran, expect, code in (
            ("1,2,3,5 against 1-4", [1, 2, 3, 5], "sentence", "paired by id, never by position", 2),
            ("1,2,4 against 1-4, sentence level", [1, 2, 4], "sentence", "by segment id it lacks '3'", 2),
            ("1,2,4 against 1-4, document level (ok)", [1, 2, 4], "document", "", 0),
            ("4,3,2,1 against 1-4 (ok)", [4, 3, 2, 1], "sentence", "", 0)):
        f = write(f"ids-{len(cases)}.jsonl", "".join(json.dumps(r) + "\n" for r in _rows({"A": ids})))
        cases.append(Case(f"--input rows: ids {what}", 2, ["score", "--input", f, "--reference-systems", "ref",
                                                           "--granularity", gran, "--metrics", "chrF", "--no-cache"],
                          expect, code))
    tsv = "doc_id\tseg_id\tsystem\ttext\n" + "".join(f"{r['doc_id']}\t{r['seg_id']}\t{r['system']}\t{r['text']}\n"
                                                     for r in _rows({"A": [1, 2, 3, 5]}))
    f = write("ids.tsv", tsv)
    cases.append(Case("--input TSV: ids 1,2,3,5 against 1-4", 2, ["score", "--input", f, "--reference-systems", "ref",
                                                                   "--metrics", "chrF", "--no-cache"],
                      "paired by id, never by position"))
    for what, ids, expect, code in (("1,2,3,5 against 1-4", [1, 2, 3, 5], "paired by id, never by position", 2),
                                    ("4,3,2,1 against 1-4 (ok)", [4, 3, 2, 1], "", 0)):
        f = write(f"ids-{len(cases)}.xml", _xml(ids))
        cases.append(Case(f"WMT XML: seg ids {what}", 2, ["score", "--input", f, "--metrics", "chrF", "--no-cache"],
                          expect, code))
    return cases


WMT24 = Path(__import__("os").environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared")) / "data" / "wmt24"
GERMAN = ["Die Forscher haben im Labor am Montag einen neuen Versuch mit drei Proben begonnen.",
          "Sie messen die Temperatur jeden Morgen sehr genau und schreiben alles auf.",
          "Niemand weiss bisher, was am Ende dabei herauskommen wird."]
GIBBERISH = ["Xyvrq plomt zarquon vebbel strunk moorv tadlix.", "Quorvex brindal smeeth oxtrapol vinnick drob.",
             "Flemmod yarblox triskan pedwurt ombrilax sneep."]


def _reference_with(lines_of: dict) -> str:
    """The sample reference with some of its documents (lab 1-4, market 5-7, trip 8-10) replaced: {document:
    lines}."""
    ref = (SAMPLE / "reference.txt").read_text(encoding="utf-8").splitlines()
    ids = (SAMPLE / "docids.txt").read_text(encoding="utf-8").split()
    out = []
    for doc in dict.fromkeys(ids):
        k = [i for i, x in enumerate(ids) if x == doc]
        new = lines_of.get(doc)
        out += [ref[i] for i in k] if new is None else [new[j % len(new)] for j in range(len(k))]
    return "\n".join(out) + "\n"


def ukrainian_texts(n_docs: int = 3, per_doc: int = 6) -> tuple[list, list]:
    """(lines, document ids) of WMT24 en-uk's reference: its first documents' first segments (after the canary)."""
    lines = (WMT24 / "references" / "en-uk.refA.txt").read_text(encoding="utf-8").splitlines()[1:]
    docs = (WMT24 / "documents" / "en-uk.docs").read_text(encoding="utf-8").splitlines()[1:]
    out, ids = [], []
    for doc in list(dict.fromkeys(d.split("\t")[-1] for d in docs))[:n_docs]:
        k = [i for i, x in enumerate(docs) if x.split("\t")[-1] == doc][:per_doc]
        out += [lines[i] for i in k]
        ids += [f"d{len(set(ids)) + 1}"] * len(k)
    return out, ids


def more_issue63_cases(d: Path) -> list:
    """Issue 63 points 3 (the reference checked like a system), 8 (long input bounded) and 9 (messages that say what
    happened), their files written in `d`: [Case].  Point 3's cases run (exit 0) and warn: the phrase is in stderr."""
    d.mkdir(parents=True, exist_ok=True)
    cases = []
    sys_args = ["-s", str(SAMPLE / "consistent.txt"), str(SAMPLE / "names.txt"), "--docids", str(SAMPLE / "docids.txt")]

    def write(name: str, text: str) -> str:
        (d / name).write_text(text, encoding="utf-8", newline="")
        return str(d / name)

    # point 3: the reference checked like a system (warned on stderr and in JSON, the numbers computed)
    for what, docs, expect in (
            ("one document empty", {"trip": [""]}, "1 of 3 document(s) empty: 'trip'"),
            ("one document emoji only", {"trip": ["\U0001F600\U0001F389", "\U0001F44D \U0001F680"]},
             "with no letters (emoji, symbols or digits only): 'trip'"),
            ("one document in German", {"market": GERMAN}, "not in English: 'market' (German)"),
            ("one document Latin homoglyphs", {"trip": [x.replace("o", "\u043e").replace("a", "\u0430") for x in
                                                        (SAMPLE / "reference.txt").read_text().splitlines()[7:10]]},
             "(homoglyphs): 'trip'")):
        f = write(f"ref-{len(cases)}.txt", _reference_with(docs))
        cases.append(Case(f"reference: {what}", 3, ["score", "-r", f, *sys_args, "--metrics", "chrF", "--lang", "en"],
                          expect, 0))
    uk, ids = ukrainian_texts()
    refu = list(uk)
    refu[ids.index("d2"):ids.index("d3")] = [GIBBERISH[k % 3] for k in range(ids.count("d2"))]
    ref, hyp, docids = write("uk-ref.txt", "\n".join(refu) + "\n"), write("uk-sys.txt", "\n".join(uk) + "\n"), \
        write("uk.docids", "\n".join(ids) + "\n")
    cases.append(Case("reference: Latin gibberish under a Ukrainian target", 3,
                      ["score", "-r", ref, "-s", hyp, "--docids", docids, "--metrics", "chrF"],
                      "in no language recognised, written in another script than Ukrainian's: 'd2' (Latin)", 0))
    sysu = list(uk)
    sysu[:len(GIBBERISH)] = GIBBERISH
    hyp2 = write("uk-gibberish.txt", "\n".join(sysu) + "\n")
    cases.append(Case("system: Latin gibberish under a Ukrainian target", 3,
                      ["score", "-r", hyp, "-s", hyp2, "--docids", docids, "--metrics", "chrF"],
                      "3 in no language recognised, in another script (Latin 3)", 0))

    # point 8: long input bounded
    long = (SAMPLE / "consistent.txt").read_text(encoding="utf-8").splitlines()
    long[4] = "word " * 240_000  # 1.2 million characters on one line
    f = write("long-line.txt", "\n".join(long) + "\n")
    cases.append(Case("a line of 1.2 million characters", 8, ["score", "-r", str(SAMPLE / "reference.txt"), "-s", f,
                                                              "--docids", str(SAMPLE / "docids.txt"), "--metrics",
                                                              "chrF"],
                      "line 5: 'long-line': a segment of 1,200,000 characters; the command line reads at most 10,000"))
    long[4] = "word " * 2_400  # 12,000 characters
    f = write("long-12k.txt", "\n".join(long) + "\n")
    cases.append(Case("a line of 12,000 characters with --max-line-chars 20000 (ok)", 8,
                      ["score", "-r", str(SAMPLE / "reference.txt"), "-s", f, "--docids", str(SAMPLE / "docids.txt"),
                       "--metrics", "chrF", "--max-line-chars", "20000"], "", 0))
    ref_doc = ["The cat sat on the mat and looked at the birds in the old garden."] * 150  # 2,250 tokens
    f_ref = write("reseg-ref.txt", "\n".join(ref_doc) + "\n")
    f_sys = write("reseg-huge.txt", "\n".join(["word " * 1_900] * 130) + "\n")  # 247,000 tokens: 118 times
    cases.append(Case("re-segmenting a system 118 times its reference's length", 8,
                      ["score", "-r", f_ref, "-s", f_sys, "--blank-line-docs", "--resegment", "--metrics", "chrF"],
                      "system 'reseg-huge', document 'doc1': too long to re-segment"))

    # point 9: messages that say what happened
    docs = (SAMPLE / "docids.txt").read_text(encoding="utf-8").split()
    rows = [_esa_row("consistent", k, "70", docs[k]) for k in range(0, 5)] + \
        [_esa_row("names", k, "60", docs[k]) for k in range(5, 10)]
    f = write("esa-disjoint.csv", _csv(rows))
    cases.append(Case("ESA judged on disjoint segments per system", 9,
                      ["correlate", *SAMPLE_ARGS, "--human", f, "--metrics", "chrF"],
                      "no segment is judged for all 2 systems"))
    lines = (SAMPLE / "consistent.txt").read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace(" ", "\r", 1)
    f = write("lone-cr.txt", "\n".join(lines) + "\n")
    cases.append(Case("a lone CR splitting a line", 9, ["score", "-r", str(SAMPLE / "reference.txt"), "-s", f,
                                                       "--docids", str(SAMPLE / "docids.txt"), "--metrics", "chrF"],
                      "line 4 of it holds a carriage return (CR, \\r) alone"))
    z = d / "wmt-refA-system.zip"
    z.write_bytes(layout_zip(b"Eins.\nZwei.\n", [("wmt/system-outputs/en-de/refA.txt", "Eins.\nZwei.\n")]))
    cases.append(Case("zip: system-outputs/refA.txt that differs from the reference", 9,
                      ["score", "--wmt-dir", str(z), "--metrics", "chrF"],
                      "not loaded as a system: its name is that of the reference 'refA'", 0))
    for what, member, expect in (("named '.txt'", ".txt", "gives a text no name"),
                                 ("with a newline in its name", "sys\nB.txt", "a line break")):
        z = d / f"wmt-name-{len(cases)}.zip"
        z.write_bytes(layout_zip(b"Eins.\nZwei.\n", [(f"wmt/system-outputs/en-de/{member}", "Drei.\nVier.\n")]))
        cases.append(Case(f"zip: a system member {what}", 9, ["score", "--wmt-dir", str(z), "--metrics", "chrF"],
                          expect))
    return cases


def run_cases(d: Path) -> int:
    """Each case through the command line in its own process: the table; the number of cases that went wrong
    (exit 3, another status than expected, or stderr without its phrase)."""
    wrong = 0
    rows = []
    for c in issue63_cases(d) + more_issue63_cases(d / "more"):
        p = subprocess.run([sys.executable, "-m", "blonde_core", *c.argv], capture_output=True, text=True, cwd=ROOT)
        lines = [x for x in p.stderr.splitlines() if x.strip()]
        first = next((x for x in lines if c.expect and c.expect in x), lines[0] if lines else "")  # the line said
        ok = p.returncode == c.code and p.returncode != 3 and c.expect in p.stderr
        wrong += not ok
        rows.append((c.point, c.name, p.returncode, "" if ok else "  <- WRONG", first))
    for point, name, code, flag, first in rows:
        print(f"{point}  {name:<52} exit {code}{flag}  {first[:160]}")
    return wrong


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", action="store_true", help="the issue-63 table only")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-hostile-"))
    if args.cases:
        sys.exit(1 if run_cases(tmp / "cases") else 0)
    bomb = tmp / "bomb.zip"
    bomb.write_bytes(bomb_zip())
    code, secs, peak, msg = peak_of([sys.executable, "-m", "blonde_core", "score", "--wmt-dir", str(bomb),
                                     "--metrics", "chrF"])
    print(f"bomb      {bomb.stat().st_size / 1024:.0f} KB zip -> 60 MB: exit {code}, {secs:.2f} s, peak {peak:.0f} MB")
    print(f"          {msg}")
    code, secs, peak, _ = peak_of([sys.executable, "-c", "import blonde_core.cli"])
    print(f"baseline  import blonde_core.cli: peak {peak:.0f} MB")
    big = tmp / "big.jsonl"
    big.write_bytes(million_lines())
    from blonde_core.errors import InputError
    from blonde_core.study import Study, reading_limits

    t0 = time.perf_counter()
    try:
        with reading_limits(10_000, 500_000):
            Study.from_structured(big)
        print("jsonl     read (not refused!)")
    except InputError as exc:
        print(f"jsonl     1,000,000 lines refused in {time.perf_counter() - t0:.2f} s: {exc}"[:200])

    print("cases     issue 63 points 1-4, 8, 9: point, case, exit status, the line of stderr that says it")
    if run_cases(tmp / "cases"):
        sys.exit(1)


if __name__ == "__main__":
    main()
