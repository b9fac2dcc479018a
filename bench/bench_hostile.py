"""Benchmark: hostile uploads (issue 49).

Prints, measured in one run on this machine:
  bomb     `score --wmt-dir BOMB.zip` on a WMT-layout zip of ~60 KB whose system file inflates to 60 MB of
           lines (the review's case): exit status, seconds and the process's peak memory (target: refused,
           at most 400 MB; before the change it peaked at 1.58 GB);
  baseline `python -c "import blonde_core.cli"` peak memory, for scale;
  jsonl    a 1,000,000-line JSON Lines file read under a server's limits (500,000 segments): seconds until it
           is refused (before: 47-54 s and ~2 GB), in this process.

    .venv/bin/python bench/bench_hostile.py
"""
from __future__ import annotations

import io
import json
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
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


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-hostile-"))
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


if __name__ == "__main__":
    main()
