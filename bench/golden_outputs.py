"""Golden outputs: what every command prints on the shared data, written to a folder so two commits can be compared
byte for byte (issue 61: a change of shape must not move a number or a word).

    .venv/bin/python bench/golden_outputs.py write DIR          # every command's output, one file each
    .venv/bin/python bench/golden_outputs.py compare DIR1 DIR2  # which files differ (exit 1 if any)

The commands: `score` with every metric, --ci and --human (JSON, text, CSV), `compare`, `contrast`, `correlate`
on TED zh-en (MQM) and WMT22 zh-en (DA, blocks of ten segments as documents), and the TED HTML report. Seeds are
fixed; the disk cache may be warm (it never changes a number: its keys hold everything a value depends on).
Run it at the commit before a change and at the commit after; the run takes a few minutes warm."""
from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR") or ROOT.parent / "shared") / "data"


def corpora() -> dict:
    ted, w22 = SHARED / "ted-zhen", SHARED / "wmt22-zhen"
    return {
        "ted": {"files": ["-r", str(ted / "refs" / "ref.txt"),
                          "-s", *sorted(str(p) for p in (ted / "systems").glob("*.txt")),
                          "--docids", str(ted / "docids.txt")],
                "human": ["--human", str(ted / "mqm_seg_scores.tsv")], "pair": ["Online-W", "Facebook-AI"]},
        "wmt22": {"files": ["-r", str(w22 / "refs" / "refA.txt"),
                            "-s", *sorted(str(p) for p in (w22 / "systems").glob("*.txt")),
                            "--docids", str(w22 / "docids.blk10.txt")],
                  "human": ["--human", str(w22 / "human" / "ad-seg-scores-zh-en.csv")],
                  "pair": ["JDExploreAcademy", "Online-W"]},
    }


def commands() -> dict:
    out = {}
    for name, c in corpora().items():
        f, h = c["files"], c["human"]
        every = ["--metrics", "BLEU,chrF,TER,Otem,Utem,BlonD-recall,dBlonD-recall,BlonD-dist,dBlonD-dist"]
        for fmt in ("json", "text", "csv"):
            out[f"{name}-score-{fmt}"] = ["score", *f, *every, "--ci", "200", *h, "--format", fmt]
        for fmt in ("json", "text"):
            out[f"{name}-compare-{fmt}"] = ["compare", *f, "--format", fmt]
            out[f"{name}-contrast-{fmt}"] = ["contrast", *f, "--pair", *c["pair"], "--format", fmt]
            out[f"{name}-correlate-{fmt}"] = ["correlate", *f, *h, "--format", fmt]
    out["ted-report"] = ["report", *corpora()["ted"]["files"], *corpora()["ted"]["human"], "--ci", "200"]
    mqm = str(SHARED / "ted-zhen" / "mqm_seg_scores.tsv")
    out["ted-human-json"] = ["human", mqm, "--format", "json"]
    out["ted-human-text"] = ["human", mqm, "--format", "text"]
    return out


def write(folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    bad = 0
    for name, argv in commands().items():
        got = subprocess.run([sys.executable, "-m", "blonde_core", *argv], cwd=ROOT, capture_output=True)
        (folder / f"{name}.out").write_bytes(got.stdout)
        (folder / f"{name}.rc").write_text(f"{got.returncode}\n")
        print(f"{name}: exit {got.returncode}, {len(got.stdout):,} bytes", flush=True)
        if got.returncode != 0:
            bad += 1
            print(got.stderr.decode(errors="replace")[-800:], file=sys.stderr)
    return 1 if bad else 0


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
    differ = []
    for n in names:
        x, y = a / n, b / n
        if not x.exists() or not y.exists() or x.read_bytes() != y.read_bytes():
            differ.append(n)
            if x.exists() and y.exists():
                diff = difflib.unified_diff(x.read_text(errors="replace").splitlines(),
                                            y.read_text(errors="replace").splitlines(), lineterm="", n=0)
                print(f"--- {n}\n" + "\n".join(list(diff)[:12]))
            else:
                print(f"--- {n}: only in {a if x.exists() else b}")
    print(f"{len(names) - len(differ)} of {len(names)} files byte-identical" + (f"; differ: {', '.join(differ)}"
                                                                                if differ else ""))
    return 1 if differ else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("write").add_argument("folder", type=Path)
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    a = ap.parse_args()
    return write(a.folder) if a.cmd == "write" else compare(a.a, a.b)


if __name__ == "__main__":
    sys.exit(main())
