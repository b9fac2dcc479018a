"""The research answer of issue 46: BlonDe, BlonD-d and each category against WMT24's ESA judgments at system
and segment level, beside chrF and BLEU, for the pairs with ESA and a language pack (en-zh, en-ja, en-cs, en-hi).
Prints the markdown table of docs/languages.md; each cell comes from `correlate` with these settings:

    .venv/bin/python -m blonde_core correlate --wmt-dir ../shared/data/wmt24 --lp LP \\
        --human ../shared/data/wmt24/human/esa_generalMT2024_wave2.csv ../shared/data/wmt24/human/esa_generalMT2024_wave3.csv \\
        --level system|segment --metrics BlonDe,BlonD-d,tense,pronoun,entity,dm,chrF,BLEU --format json

    .venv/bin/python scripts/esa_table.py [--pairs en-zh en-ja en-cs en-hi]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))
WMT24 = SHARED / "data" / "wmt24"
ESA = [WMT24 / "human" / "esa_generalMT2024_wave2.csv", WMT24 / "human" / "esa_generalMT2024_wave3.csv"]
METRICS = ["BlonDe", "BlonD-d", "tense", "pronoun", "entity", "dm", "chrF", "BLEU"]


def correlate(lp: str, level: str) -> dict:
    from blonde_core.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["correlate", "--wmt-dir", str(WMT24), "--lp", lp, "--human", *map(str, ESA), "--level", level,
                     "--metrics", ",".join(METRICS), "--format", "json"])
    if code != 0:
        sys.exit(f"correlate {lp} {level} failed: {err.getvalue()[-800:]}")
    return json.loads(out.getvalue())


def cell(m: dict) -> str:
    if m.get("pearson") is None:
        return "-"
    lo, hi = m.get("pearson_ci") or (None, None)
    ci = f" [{lo:+.2f}, {hi:+.2f}]" if lo is not None else ""
    return f"{m['pearson']:+.3f}{ci} / {m['kendall']:+.3f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", nargs="+", default=["en-zh", "en-ja", "en-cs", "en-hi"])
    a = ap.parse_args()
    for lp in a.pairs:
        sysl, seg = correlate(lp, "system"), correlate(lp, "segment")
        print(f"**{lp}** ({sysl['n_systems']} systems with ESA; {seg['n']} rated segments; "
              f"`case:{sysl['signature'].split('|case:')[1].split('|')[0]}`, "
              f"`lang:{sysl['signature'].split('|lang:')[1].split('|version')[0]}`)\n")
        print("| metric | system: Pearson [95% CI] / Kendall | segment: Pearson [95% CI] / Kendall |")
        print("|---|---|---|")
        from blonde_core.study import ScoreConfig, Study

        marked = Study.tagging_marks(ScoreConfig(lang=lp.split("-")[1], lowercase=False))
        for name in METRICS:
            shown = name + (" †" if name in marked else "")  # tagging below the bar in this language
            print(f"| {shown} | {cell(sysl['metrics'].get(name, {}))} | {cell(seg['metrics'].get(name, {}))} |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
