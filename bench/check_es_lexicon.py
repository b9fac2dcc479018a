"""What the Spanish verb check (blonde_core/annotation/lexicon.py) changes on real text: the model's mood and
tense of each finite verb before and after the check, on a random sample of WMT24 en-es reference paragraphs.

Prints how many finite verbs the check changed, by kind, and each change with its context, for reading by hand.

    .venv/bin/python bench/check_es_lexicon.py [--n 300] [--seed 1] [--show 40]
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))


def main() -> int:
    from blonde_core.annotation.lexicon import load_lexicon
    from blonde_core.annotation.pipeline import doc_to_record, load_pipeline
    from blonde_core.lang.base import load_pack

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=300, help="paragraphs sampled")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=40, help="changes printed (a random sample of them)")
    a = ap.parse_args()
    pack = load_pack("es")
    nlp, lexicon = load_pipeline(pack), load_lexicon(pack.lexicon[0], pack.name)
    lines = (SHARED / "data" / "wmt24" / "references" / "en-es.refA.txt").read_text(encoding="utf-8").splitlines()
    random.seed(a.seed)
    lines = random.sample(lines, min(a.n, len(lines)))

    def cell(m: str) -> tuple:
        f = dict(x.split("=", 1) for x in m.split("|") if "=" in x)
        return f.get("Mood"), f.get("Tense")

    finite, changes, kinds = 0, [], collections.Counter()
    for doc in nlp.pipe(lines):
        before = doc_to_record(doc)
        after = lexicon.check(before)
        for k, (m0, m1) in enumerate(zip(before.get("m", []), after.get("m", []))):
            finite += before["p"][k] in ("VERB", "AUX") and "VerbForm=Fin" in m0
            if m0 != m1:
                kinds[(cell(m0), cell(m1))] += 1
                w = before["w"]
                changes.append(f"{' '.join(w[max(0, k - 6):k])} [{w[k]}] {' '.join(w[k + 1:k + 4])}: "
                               f"{cell(m0)} -> {cell(m1)}")
    print(f"{len(lines)} WMT24 en-es reference paragraphs: the check changed {len(changes)} of {finite} finite verbs")
    for (c0, c1), n in kinds.most_common():
        print(f"  {n:4d}  {c0} -> {c1}")
    random.seed(a.seed + 1)
    for line in random.sample(changes, min(a.show, len(changes))):
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
