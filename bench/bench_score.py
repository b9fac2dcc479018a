"""Benchmark: score the 13 TED zh-en MT systems and refB against ref (or, with --data wmt22-defr, the 6
WMT22 de-fr systems against refA in French; with --data wmt24 --lp en-xx, a WMT24 pair as released), cold
and warm.

Prints wall time, peak memory and sentences per second for
  floor  the analyser's floor: load the pipeline (same components) and annotate the
         distinct sentences once with nlp.pipe on both cores (n_process=2); for a pack whose analyser
         is not spaCy (jieba, MeCab, pymorphy3, HanTa), the analyser's own calls alone (no record built) in
         two forked processes;
  cold   `python -m blonde_core score ... --per-doc --format json` with an empty cache;
  warm   the same command again (every sentence cached).
Targets (2-core machine): cold <= 1.15 x floor, warm <= 1 s, peak memory <= 600 MB.

    .venv/bin/python bench/bench_score.py [--repeat N] [--data ted-zhen|wmt22-defr|wmt24 --lp en-zh]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))
TED = SHARED / "data" / "ted-zhen"

FLOOR = r"""
import sys, time
t0 = time.perf_counter()
from blonde_core.annotation.pipeline import find_pipeline, load_pipeline
from blonde_core.lang.base import load_pack
pack = load_pack(sys.argv[1])
files = sys.argv[2:]
texts = sorted({l.strip().lower() for f in files for l in open(f, encoding="utf-8").read().splitlines()})
n = 0
if pack.analyser == "spacy":
    nlp = load_pipeline(pack)
    for d in nlp.pipe(texts, n_process=2, batch_size=128):
        n += 1
else:  # the analyser's own calls, nothing of ours around them, on both cores
    import multiprocessing as mp
    import re
    if pack.analyser == "jieba":
        import jieba, jieba.posseg
        tok = jieba.posseg.POSTokenizer(jieba.Tokenizer()); tok.tokenizer.initialize()
        work = lambda t: len(tok.lcut(t))
    elif pack.analyser == "hanta":
        from HanTa import HanoverTagger as ht
        tagger = ht.HanoverTagger("morphmodel_ger.pgz")
        word = re.compile(r"\w+(?:[-'’ʼ]\w+)*|[^\w\s]")
        work = lambda t: len(tagger.tag_sent(word.findall(t), taglevel=3)) if t.strip() else 0
    elif pack.analyser == "mecab":
        import ipadic, MeCab
        tagger = MeCab.Tagger(ipadic.MECAB_ARGS)
        work = lambda t: len(tagger.parse(t))
    else:
        import pymorphy3
        morph = pymorphy3.MorphAnalyzer(lang=pack.name)
        word = re.compile(r"\w+(?:[-'’ʼ]\w+)*|[^\w\s]")
        work = lambda t: len([morph.parse(w)[0] for w in word.findall(t)])
    def _run(t):  # found by name in the forked children, which hold `work` already
        return work(t)

    with mp.get_context("fork").Pool(2) as pool:
        for _ in pool.imap(_run, texts, chunksize=128):
            n += 1
print(n, time.perf_counter() - t0)
"""


def tree_pids(pid: int) -> list[int]:
    """A process and all its descendants, from /proc (those that end meanwhile left out)."""
    out, stack = [], [pid]
    while stack:
        p = stack.pop()
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    stack.extend(int(c) for c in f.read().split())
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        out.append(p)
    return out


def _kb(path: str, field: str) -> int:
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    return 0


def tree_rss_kb(pid: int) -> int:
    """RSS of a process and all its descendants (kB), from /proc: a page shared between them (a forked worker's
    copy of its parent) is counted in each."""
    return sum(_kb(f"/proc/{p}/status", "VmRSS:") for p in tree_pids(pid))


def tree_pss_kb(pid: int) -> int:
    """PSS of a process and all its descendants (kB), from /proc/PID/smaps_rollup: each page's size divided among
    the processes that map it, so a page shared between them is counted once (slower to read than the RSS)."""
    return sum(_kb(f"/proc/{p}/smaps_rollup", "Pss:") for p in tree_pids(pid))


def measure(cmd, env, check: bool = True, every: float = 0.02, pss: bool = False) -> dict:
    """Run cmd: its wall time, its process tree's peak RSS (peak_mb; with pss, its peak PSS too: peak_pss_mb),
    sampled every `every` seconds, its output and exit code. check: a failed command ends the benchmark."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    peak = [0, 0]

    def sample():
        while proc.poll() is None:
            peak[0] = max(peak[0], tree_rss_kb(proc.pid))
            if pss:
                peak[1] = max(peak[1], tree_pss_kb(proc.pid))
            time.sleep(every)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    th.join()
    if check and proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {err.decode()[-2000:]}")
    got = {"wall": wall, "peak_mb": peak[0] / 1024, "out": out, "err": err, "code": proc.returncode}
    if pss:
        got["peak_pss_mb"] = peak[1] / 1024
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=1, help="repeat each measurement, report the best")
    ap.add_argument("--data", choices=("ted-zhen", "wmt22-defr", "wmt24"), default="ted-zhen",
                    help="ted-zhen (English target), wmt22-defr (French target, the French pipeline's floor) or "
                         "wmt24 (a pair as released, --lp)")
    ap.add_argument("--lp", default="en-zh", help="with --data wmt24: the language pair (en-zh, en-ja, en-cs, ...)")
    a = ap.parse_args()
    py = sys.executable
    if a.data == "ted-zhen":
        lang, label = "en", "TED zh-en: 13 systems + refB vs ref"
        systems = sorted(str(p) for p in (TED / "systems").glob("*.txt"))
        ref, refb = str(TED / "refs" / "ref.txt"), str(TED / "refs" / "refB.txt")
        all_files = systems + [ref, refb]
        score_cmd = [py, "-m", "blonde_core", "score", "-r", ref, "-s", *systems, refb,
                     "--docids", str(TED / "docids.txt"), "--format", "json", "--per-doc"]
    elif a.data == "wmt24":
        wmt = SHARED / "data" / "wmt24"
        lang = a.lp.split("-")[1]
        systems = sorted(str(p) for p in (wmt / "system-outputs" / a.lp).glob("*.txt"))
        ref = str(wmt / "references" / f"{a.lp}.refA.txt")
        all_files = systems + [ref]
        label = f"WMT24 {a.lp}: {len(systems)} systems vs refA"
        score_cmd = [py, "-m", "blonde_core", "score", "--wmt-dir", str(wmt), "--lp", a.lp, "--format", "json",
                     "--per-doc"]
    else:
        defr = SHARED / "data" / "wmt22-defr"
        lang, label = "fr", "WMT22 de-fr (French): 6 systems vs refA"
        systems = sorted(str(p) for p in (defr / "systems").glob("*.txt"))
        ref = str(defr / "refs" / "refA.txt")
        all_files = systems + [ref]
        score_cmd = [py, "-m", "blonde_core", "score", "-r", ref, "-s", *systems, "--docids", str(defr / "docids.txt"),
                     "--lang", "fr", "--format", "json", "--per-doc"]
    n_segments = sum(len(open(f, encoding="utf-8").read().splitlines()) for f in all_files)
    env = dict(os.environ)

    def best(fn):
        runs = [fn() for _ in range(a.repeat)]
        return min(runs, key=lambda r: r["wall"])

    floor = best(lambda: measure([py, "-c", FLOOR, lang, *all_files], env))
    n_distinct = int(floor["out"].split()[0])

    def cold():
        with tempfile.TemporaryDirectory() as d:
            return measure(score_cmd, dict(env, BLONDE_CACHE_DIR=d))

    cold_r = best(cold)
    with tempfile.TemporaryDirectory() as d:
        e = dict(env, BLONDE_CACHE_DIR=d)
        measure(score_cmd, e)
        warm_r = best(lambda: measure(score_cmd, e))

    print(f"{label}, {n_segments} segments in {len(all_files)} files, {n_distinct} distinct (lowercased) "
          f"sentences; {os.cpu_count()} cores; the floor: the {lang} pipeline alone")
    print(f"{'run':<8}{'wall s':>9}{'peak MB':>10}{'segments/s':>12}{'distinct/s':>12}")
    for name, r in (("floor", floor), ("cold", cold_r), ("warm", warm_r)):
        print(f"{name:<8}{r['wall']:>9.2f}{r['peak_mb']:>10.0f}{n_segments / r['wall']:>12.0f}"
              f"{n_distinct / r['wall']:>12.0f}")
    ratio = cold_r["wall"] / floor["wall"]
    print(f"cold / floor = {ratio:.3f} (target <= 1.15); warm = {warm_r['wall']:.2f} s (target <= 1); "
          f"peak = {max(cold_r['peak_mb'], warm_r['peak_mb']):.0f} MB (target <= 600)")


if __name__ == "__main__":
    main()
