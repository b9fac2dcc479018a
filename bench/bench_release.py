"""Benchmark: a WMT release as one study against its pairs one at a time (issue 65).

    .venv/bin/python bench/bench_release.py [--lp en-cs en-ja ...] [--ci 1000]

For the chosen pairs of WMT24 as released (default: every pair of the folder):
  single  `score --wmt-dir DIR --lp P --ci N --format json` per pair, each with an empty cache: wall time and
          peak memory (the command's whole process tree);
  release `score --wmt-dir DIR --lp P1 --lp P2 ... --ci N --format json` once, with an empty cache;
  warm    in one process, Study.release over the same pairs twice with one engine (what a warm server's Release
          page computes after any session has shown those pairs): the second call's time.
Targets (issue 65): release <= the sum of the singles, its peak <= 1.5 x the largest single's, warm <= 2 s.
The machine is shared: compare ratios measured in one run."""
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
WMT24 = SHARED / "data" / "wmt24"


def tree_rss(pid: int) -> int:
    """Resident memory of a process and its descendants, in bytes (from /proc)."""
    kids: dict = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d.name))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
        todo.extend(kids.get(p, []))
    return total


def timed(argv: list[str], cache: str) -> tuple[float, int, int]:
    """(seconds, peak bytes of the process tree, exit code)."""
    env = dict(os.environ, BLONDE_CACHE_DIR=cache)
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "blonde_core", *argv], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0]

    def watch():
        while proc.poll() is None:
            peak[0] = max(peak[0], tree_rss(proc.pid))
            time.sleep(0.5)
    w = threading.Thread(target=watch, daemon=True)
    w.start()
    err = proc.stderr.read()
    proc.wait()
    w.join()
    if proc.returncode:
        print(err.decode(errors="replace")[-600:], file=sys.stderr)
    return time.perf_counter() - t0, peak[0], proc.returncode


WARM = r"""
import sys, time
from blonde_core.study import Engine, ScoreConfig, Study
src, lps, n = sys.argv[1], sys.argv[3:], int(sys.argv[2])
engine = Engine()
def cfg_of(st):
    g = st.guess_language()["language"]
    return ScoreConfig(lang=g, lowercase=Study.pack_lowercase(g))
studies = {}
Study.release(src, lps, cfg_of, n, engine=engine, studies=studies)
t0 = time.perf_counter()
Study.release(src, lps, cfg_of, n, engine=engine, studies=studies)
print(f"{time.perf_counter() - t0:.3f}")
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lp", nargs="+", help="pairs (default: every pair of WMT24)")
    ap.add_argument("--ci", type=int, default=1000)
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from blonde_core.study import Study

    lps = a.lp or Study.wmt_pairs(WMT24)
    rows = []
    for lp in lps:
        with tempfile.TemporaryDirectory() as cache:
            s, peak, rc = timed(["score", "--wmt-dir", str(WMT24), "--lp", lp, "--ci", str(a.ci), "--format", "json"],
                                cache)
        rows.append((lp, s, peak))
        print(f"single {lp}: {s:7.1f} s, peak {peak / 2**20:6.0f} MB, exit {rc}", flush=True)
    with tempfile.TemporaryDirectory() as cache:
        several = [x for lp in lps for x in ("--lp", lp)]
        s, peak, rc = timed(["score", "--wmt-dir", str(WMT24), *several, "--ci", str(a.ci), "--format", "json"], cache)
        print(f"release ({len(lps)} pairs): {s:7.1f} s, peak {peak / 2**20:6.0f} MB, exit {rc}", flush=True)
        env = dict(os.environ, BLONDE_CACHE_DIR=cache)
        warm = subprocess.run([sys.executable, "-c", WARM, str(WMT24), str(a.ci), *lps], cwd=ROOT, env=env,
                              capture_output=True, text=True)
    total, top = sum(r[1] for r in rows), max(r[2] for r in rows)
    print(f"sum of singles {total:.1f} s; release / sum = {s / total:.2f} (target <= 1.00)")
    print(f"largest single peak {top / 2**20:.0f} MB; release peak / largest = {peak / top:.2f} (target <= 1.50)")
    print(f"warm Release table: {warm.stdout.strip() or warm.stderr[-400:]} s (target <= 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
