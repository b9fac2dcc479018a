"""Benchmark: annotation on a Dask cluster against the local pool, in one run.

Starts a dask.distributed LocalCluster of two worker processes (one thread each) on this
machine, then scores WMT22 zh-en (12 systems + refB against refA, --per-doc) cold:

  local   `python -m blonde_core score ...` with an empty cache: the local pool (2 processes)
  dask    the same command with --scheduler ADDRESS and another empty cache
  warm    the same command again on the dask run's cache (nothing annotated: what is left
          beyond annotation, the feature tables and statistics)

and checks that both cold runs print the same JSON.  Then it measures annotation alone
(the backends in this process, no scoring): the distinct sentences of --sentences texts
through the local pool and through the cluster, sentences per second per worker, and
what the client holds per annotated sentence (tracemalloc of the records).
Target (2-core machine): dask cold <= 1.15 x local cold.

    .venv/bin/python bench/bench_cluster.py [--data wmt22-zhen|ted-zhen] [--repeat N]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: the workers inherit it (blas.py)
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR", ROOT.parent / "shared"))

from bench_score import measure as _measure  # noqa: E402  (wall time and peak RSS of a command)


def measure(cmd, env) -> dict:
    """bench_score's measure plus the CPU seconds of the command's process tree (for the dask
    run: the client alone, the cluster's workers are not its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = _measure(cmd, env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    r["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return r


def command(data: str) -> tuple[str, list[str], list[str]]:
    py = sys.executable
    if data == "wmt22-zhen":
        d = SHARED / "data" / "wmt22-zhen"
        systems = sorted(str(p) for p in (d / "systems").glob("*.txt"))
        ref, refb, docids = d / "refs" / "refA.txt", d / "refs" / "refB.txt", d / "docids.blk10.txt"
        label = "WMT22 zh-en: 12 systems + refB vs refA"
    else:
        d = SHARED / "data" / "ted-zhen"
        systems = sorted(str(p) for p in (d / "systems").glob("*.txt"))
        ref, refb, docids = d / "refs" / "ref.txt", d / "refs" / "refB.txt", d / "docids.txt"
        label = "TED zh-en: 13 systems + refB vs ref"
    files = systems + [str(refb), str(ref)]
    cmd = [py, "-m", "blonde_core", "score", "-r", str(ref), "-s", *systems, str(refb), "--docids", str(docids),
           "--lang", "en", "--format", "json", "--per-doc"]
    return label, cmd, files


def annotation_alone(address: str, files: list[str], n: int) -> dict:
    """The first n distinct (lowercased) sentences of the files through each backend, in this process."""
    from blonde_core.annotation.backends import Forked
    from blonde_core.annotation.cluster import Dask
    from blonde_core.annotation.pipeline import prepare
    from blonde_core.lang.base import load_pack

    texts = sorted({prepare(line, True) for f in files for line in open(f, encoding="utf-8").read().splitlines()})
    texts = texts[:n]
    pack = load_pack("en")
    from blonde_core.annotation.pipeline import load_pipeline

    load_pipeline(pack)  # loaded before the clock, as the cluster's workers have it loaded by now
    out = {"sentences": len(texts)}
    for name, backend in (("local", Forked(pack, 2)), ("dask", Dask(pack, 2, address=address))):
        got: dict = {}
        t0 = time.perf_counter()
        backend.run(texts, lambda b, recs: got.update(zip(b, recs)))
        out[name] = time.perf_counter() - t0
        out[name + "_records"] = [got[t] for t in texts]
    out["same"] = json.dumps(out.pop("local_records")) == json.dumps(dask_recs := out.pop("dask_records"))
    tracemalloc.start()
    copy = json.loads(json.dumps(dask_recs))  # the client's records, as it holds them
    size, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    out["bytes_per_sentence"] = size / max(1, len(copy))
    out["tokens_per_sentence"] = sum(len(r["w"]) for r in copy) / max(1, len(copy))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", choices=("wmt22-zhen", "ted-zhen"), default="wmt22-zhen")
    ap.add_argument("--repeat", type=int, default=1, help="cold runs of each backend, alternating; the best is reported")
    ap.add_argument("--sentences", type=int, default=6000, help="sentences for the annotation-alone measure")
    a = ap.parse_args()
    from distributed import LocalCluster

    label, cmd, files = command(a.data)
    t0 = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    start = time.perf_counter() - t0
    env = dict(os.environ)
    runs: dict = {"local": [], "dask": []}
    outs: dict = {}
    try:
        for _ in range(a.repeat):
            for name in ("local", "dask"):
                extra = ["--scheduler", cluster.scheduler_address] if name == "dask" else []
                with tempfile.TemporaryDirectory() as d:
                    r = measure(cmd + extra, dict(env, BLONDE_CACHE_DIR=d))
                    if name == "dask":
                        outs["warm"] = measure(cmd + extra, dict(env, BLONDE_CACHE_DIR=d))
                runs[name].append(r)
                outs[name] = r["out"]
        alone = annotation_alone(cluster.scheduler_address, files, a.sentences)
    finally:
        cluster.close()
    n_segments = sum(len(open(f, encoding="utf-8").read().splitlines()) for f in files)
    local = min(runs["local"], key=lambda r: r["wall"])
    dask = min(runs["dask"], key=lambda r: r["wall"])
    print(f"{label}, {n_segments} segments; {os.cpu_count()} cores; LocalCluster of 2 worker processes "
          f"(1 thread each) started in {start:.2f} s")
    print(f"{'run':<22}{'wall s':>9}{'CPU s':>8}{'peak MB':>10}{'segments/s':>12}")
    for name, r in (("local pool, cold", local), ("dask cluster, cold", dask), ("warm (after dask)", outs["warm"])):
        print(f"{name:<22}{r['wall']:>9.2f}{r['cpu']:>8.2f}{r['peak_mb']:>10.0f}{n_segments / r['wall']:>12.0f}")
    print(f"identical JSON (local vs dask): {'yes' if outs['local'] == outs['dask'] else 'NO'}")
    print(f"dask / local cold = {dask['wall'] / local['wall']:.3f} (target <= 1.15); peak MB and CPU s are the "
          "command's process tree: for the dask run the client alone (the cluster's workers are not its children)")
    n = alone["sentences"]
    print(f"annotation alone, {n} distinct lowercased sentences ({alone['tokens_per_sentence']:.1f} tokens each): "
          f"local pool {alone['local']:.2f} s, dask {alone['dask']:.2f} s "
          f"(ratio {alone['dask'] / alone['local']:.3f}, identical records: {'yes' if alone['same'] else 'NO'})")
    distinct = len({line.strip().lower() for f in files for line in open(f, encoding="utf-8").read().splitlines()})
    if distinct:
        print(f"the dask run's client: {distinct} distinct sentences, {1e6 * dask['cpu'] / distinct:.0f} us of CPU per "
              f"distinct sentence (receiving, storing, feature tables, statistics, output); warm: "
              f"{1e6 * outs['warm']['cpu'] / distinct:.0f} us")
    print(f"sentences per second per worker: local {n / alone['local'] / 2:.0f}, dask {n / alone['dask'] / 2:.0f}; "
          f"the client holds {alone['bytes_per_sentence']:.0f} bytes per annotated sentence")


if __name__ == "__main__":
    main()
