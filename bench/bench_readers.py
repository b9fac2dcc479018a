"""Reader speed on 20,000-segment files (tables: one long document with string segment ids, the case
that used to be quadratic), one file per layout the readers support today.

    .venv/bin/python bench/bench_readers.py [--segments 20000]

Prints seconds per layout (target: at most 2 s each for 20,000 segments).  The files are
written to a temporary folder first; their writing is not timed.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from blonde_core.io.formats import read_human, read_structured  # noqa: E402
from blonde_core.io.human import read_mqm  # noqa: E402


def write_files(d: Path, n: int) -> dict:
    seg = [f"s{i:06d}x" for i in range(n)]
    files = {}
    rows = ["doc_id\tseg_id\tsystem\ttext\tref"] + [f"talk\t{s}\tA\tHyp {i} of the talk.\tRef {i}." for i, s in
                                                   enumerate(seg)]
    files["TSV table (doc_id, seg_id, system, text, ref)"] = (d / "t.tsv", "\n".join(rows) + "\n", "structured")
    rows = ["doc_id,seg_id,system,text,ref"] + [f"talk,{s},A,Hyp {i},Ref {i}" for i, s in enumerate(seg)]
    files["CSV table"] = (d / "t.csv", "\n".join(rows) + "\n", "structured")
    lines = [json.dumps({"doc_id": "talk", "seg_id": s, "system": "A", "text": f"Hyp {i}.", "ref": f"Ref {i}."})
             for i, s in enumerate(seg)]
    files["JSON Lines"] = (d / "t.jsonl", "\n".join(lines) + "\n", "structured")
    segs = "".join(f'<seg id="{i + 1}">Hyp {i}.</seg>' for i in range(n))
    refs = "".join(f'<seg id="{i + 1}">Ref {i}.</seg>' for i in range(n))
    xml = (f'<?xml version="1.0"?><dataset><collection><doc id="talk"><src lang="zh"><p>{refs}</p></src>'
           f'<ref lang="en" translator="R"><p>{refs}</p></ref><hyp system="A"><p>{segs}</p></hyp>'
           '</doc></collection></dataset>')
    files["WMT XML"] = (d / "t.xml", xml, "structured")
    rows = ["system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"]
    for i in range(n):
        for who in ("A", "R"):
            rows.append(f"{who}\ttalk\t1\t{i + 1}\trater1\tsrc {i}\t{who} text {i}\tNo-error\tNo-error")
    files["Google MQM TSV (2020-21 layout), 2 systems"] = (d / "m.tsv", "\n".join(rows) + "\n", "mqm")
    rows = ["system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata\t# comment"]
    for i in range(n):
        for r in ("rater1", "rater2"):
            rows.append(f"A\tnews_{i // 20}:zh-en\t{i % 20 + 1}\t{i + 1}\t{r}\tsrc {i}\tA <v>text</v> {i}\t"
                        f"Accuracy/Mistranslation\tMinor\t{{\"segment_index\": {i}}}")
    files["Google MQM TSV (WMT22-24 layout), 2 raters, metadata"] = (d / "m22.tsv", "\n".join(rows) + "\n", "mqm1")
    rows = ["SYS SID RAW.SCR Z.SCR N"] + [f"A.3 {i + 1} {i % 100} 0.1 1" for i in range(n)]
    files["WMT DA segment scores (space-separated)"] = (d / "da.csv", "\n".join(rows) + "\n", "da")
    rows = ["system\tdoc_id\tseg_id\tscore"] + [f"A\ttalk\t{s}\t{i % 100}" for i, s in enumerate(seg)]
    files["judgments table (system, doc_id, seg_id, score)"] = (d / "j.tsv", "\n".join(rows) + "\n", "human")
    for path, text, _ in files.values():
        path.write_text(text, encoding="utf-8")
    return files


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--segments", type=int, default=20000)
    a = ap.parse_args()
    d = Path(tempfile.mkdtemp(prefix="bench-readers-"))
    files = write_files(d, a.segments)
    from blonde_core.io.corpus import Corpus

    lines = [f"line {i}" for i in range(a.segments)]
    corpus = Corpus(["all"], {"ref": [lines]}, {"A": [lines]})  # what a DA table is bound to
    print(f"== readers, {a.segments} segments in one document, string segment ids")
    for label, (path, _, kind) in files.items():
        t = time.perf_counter()
        if kind == "structured":
            c = read_structured(path, [])
            n = sum(len(x) for x in next(iter(c.systems.values())))
        elif kind == "mqm":
            n = len(read_mqm(path).scores.segments) // 2
        elif kind == "mqm1":
            n = len(read_mqm(path).scores.segments)
        elif kind == "da":
            n = len(read_human(path, corpus=corpus).segments)
        else:
            n = len(read_human(path).segments)
        dt = time.perf_counter() - t
        print(f"{label:<50} {dt:6.2f} s  ({n} segments read; target 2 s)")


if __name__ == "__main__":
    main()
