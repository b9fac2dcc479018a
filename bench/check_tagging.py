"""How well each language pack's tagging agrees with its hand-labelled gold spans.

For every pack with `blonde_core/lang/<code>/gold.jsonl` (lang/GOLD.md), the real analyser annotates the gold
paragraphs under the settings the tool scores with by default (the pack's lowercasing: English and French
lowercased as the blonde package does, the others as written) - or `--as-written` / `--lowercase` - and its
spans (Study.spans_of_lines, what `spans` and the Documents page show) are matched against the gold:
precision and recall per language x category, per class, class accuracy of the matched spans, and how many
tempting non-spans it marked.

    .venv/bin/python bench/check_tagging.py                  # every pack with gold, the table
    .venv/bin/python bench/check_tagging.py --lang zh -v     # one pack, with its misses and extras
    .venv/bin/python bench/check_tagging.py --write          # also write lang/<code>/tagging.json
    .venv/bin/python bench/check_tagging.py --json out.json  # everything as JSON
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from blonde_core.analysis.tagging import DISCOURSE, is_weak, tagging_table  # noqa: E402
from blonde_core.lang import load_pack  # noqa: E402
from blonde_core.lang.base import PACK_DIR  # noqa: E402
from blonde_core.lang.gold import load_gold  # noqa: E402
from blonde_core.study import Engine, ScoreConfig, Study  # noqa: E402


def packs_with_gold() -> list[str]:
    return sorted(p.name for p in PACK_DIR.iterdir() if (p / "gold.jsonl").is_file() and (p / "pack.json").is_file())


def measure(lang: str, lowercase: bool | None = None, engine: Engine | None = None) -> dict:
    """The tagging table of one pack against its gold (lowercase None: the pack's default)."""
    pack = load_pack(lang)
    lc = pack.lowercase if lowercase is None else lowercase
    items = load_gold(lang)
    # as written, in a pack that lowercases by default (en, fr): --tag-as-written, the setting that tags the text as
    # written (English's entity rules apply only under it: the package's own settings stay exact)
    cfg = ScoreConfig(lang=lang, lowercase=lc) if lc or not pack.lowercase else \
        ScoreConfig(lang=lang, lowercase=True, tag_as_written=True)
    texts = [it["text"] for it in items]
    spans = Study.spans_of_lines(texts, cfg, engine or Engine(cache_mode="memory", pool="inline"))
    per = [[] for _ in items]
    for s in spans:
        per[s["line"]].append(s)
    table = tagging_table(items, per, pack)
    table["lowercase"] = lc
    return table


def _f(x) -> str:
    return "   -" if x is None else f"{x:.2f}"


def print_table(results: dict, verbose: bool = False) -> None:
    print(f"{'lang':<5} {'case':<5} {'category':<8} {'gold':>5} {'tool':>5} {'P':>5} {'R':>5} {'F1':>5} "
          f"{'class':>5} {'exact':>5} {'traps':>7}  mark")
    for lang, t in results.items():
        for c in DISCOURSE:
            r = t["categories"][c]
            mark = "MARKED" if is_weak(r) else ""
            exact = r["exact"] / r["matched"] if r["matched"] else None
            print(f"{lang:<5} {'lc' if t['lowercase'] else 'as-is':<5} {c:<8} {r['gold']:>5} {r['tool']:>5} "
                  f"{_f(r['precision']):>5} {_f(r['recall']):>5} {_f(r['f1']):>5} {_f(r['class_accuracy']):>5} "
                  f"{_f(exact):>5} {r['trap_hits']:>3}/{r['traps']:<3}  {mark}")
        if verbose:
            for c in DISCOURSE:
                for k, v in t["categories"][c]["classes"].items():
                    print(f"      {c:<8} {k[:28]:<28} gold {v['gold']:>4} tool {v['tool']:>4} P {_f(v['precision'])} "
                          f"R {_f(v['recall'])} class {_f(v['class_accuracy'])}")
                for k, n in sorted(t["confusions"][c].items(), key=lambda kv: -kv[1])[:8]:
                    print(f"      {c:<8} confused {k}: {n}")
            for m in t["misses"]:
                print(f"      miss  {m['category']:<8} {m['class'][:20]:<20} {m['text']!r}  ({m['id']})")
            for m in t["extras"]:
                print(f"      extra {m['category']:<8} {m['class'][:20]:<20} {m['text']!r}  ({m['id']})")


def _cells(t: dict) -> dict:
    keep = ("gold", "tool", "matched", "same_class", "exact", "traps", "trap_hits", "precision", "recall", "f1",
            "class_accuracy")
    cats = {}
    for c in DISCOURSE:
        r = t["categories"][c]
        cats[c] = {k: r[k] for k in keep}
        cats[c]["classes"] = {k: {kk: v[kk] for kk in keep if kk in v} for k, v in r["classes"].items()}
    return cats


def markdown(lang: str, t: dict, before: dict | None = None) -> str:
    """One pack's table in Markdown (its README, docs/languages.md): per category gold spans, tool spans,
    precision, recall, class accuracy and whether it is marked; before: an earlier table to show beside."""
    rows = ["| category | gold spans | tool spans | precision | recall | class accuracy | marked |",
            "|---|---|---|---|---|---|---|"]
    for c in DISCOURSE:
        r = t["categories"][c]
        was = ""
        if before is not None:
            b = before["categories"][c]
            was = f" (was {_f(b['precision'])} / {_f(b['recall'])})"
        rows.append(f"| {c} | {r['gold']} | {r['tool']} | {_f(r['precision'])} | {_f(r['recall'])}{was} | "
                    f"{_f(r['class_accuracy'])} | {'yes' if is_weak(r) else 'no'} |")
    return "\n".join(rows)


def tagging_json(lang: str, lc: dict, as_written: dict, command: str) -> dict:
    """What lang/<code>/tagging.json keeps: per lowercasing ("lc", "as-written") and category the counts and
    rates, classes included (analysis/tagging.py tagging_block reads it)."""
    return {"language": lang, "measured": datetime.date.today().isoformat(), "command": command,
            "gold_paragraphs": lc["paragraphs"],
            "bar": "marked below precision 0.90 or recall 0.80 or with fewer than 30 gold spans (lang/GOLD.md)",
            "by_case": {"lc": _cells(lc), "as-written": _cells(as_written)}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lang", nargs="+", help="these packs only (default: every pack with gold.jsonl)")
    case = ap.add_mutually_exclusive_group()
    case.add_argument("--as-written", action="store_true",
                      help="annotate the text as written (no lowercasing; in en, fr --tag-as-written)")
    case.add_argument("--lowercase", action="store_true", help="lowercase before annotation (the blonde package)")
    ap.add_argument("-v", "--verbose", action="store_true", help="per class, confusions, every miss and extra")
    ap.add_argument("--write", action="store_true",
                    help="write lang/<code>/tagging.json (measured lowercased and as written)")
    ap.add_argument("--json", metavar="FILE", help="write every table as JSON")
    ap.add_argument("--markdown", action="store_true", help="also each pack's table in Markdown (its README)")
    a = ap.parse_args(argv)
    langs = a.lang or packs_with_gold()
    lc = False if a.as_written else True if a.lowercase else None
    engine = Engine(cache_mode="memory", pool="inline")
    results, t0 = {}, time.perf_counter()
    for lang in langs:
        results[lang] = measure(lang, lc, engine)
    print_table(results, a.verbose)
    if a.markdown:
        for lang, t in results.items():
            print(f"\n{lang} ({'lowercased' if t['lowercase'] else 'as written'}, {t['paragraphs']} gold paragraphs)\n")
            print(markdown(lang, t))
    print(f"\n{len(langs)} pack(s), {sum(t['paragraphs'] for t in results.values())} gold paragraphs, "
          f"{time.perf_counter() - t0:.1f} s")
    if a.json:
        Path(a.json).write_text(json.dumps(results, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    if a.write:  # both lowercasings, whatever was printed
        for lang in langs:
            both = {lc_: results[lang] if results[lang]["lowercase"] == lc_ else measure(lang, lc_, engine)
                    for lc_ in (True, False)}
            out = PACK_DIR / lang / "tagging.json"
            out.write_text(json.dumps(tagging_json(lang, both[True], both[False], "bench/check_tagging.py --write"),
                                      ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
