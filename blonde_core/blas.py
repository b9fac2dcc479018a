"""One BLAS thread in each process of ours: those that run spaCy, and the dashboard's server.

The command line and the server annotate with one spaCy process per core (the
CLI's fork pool, the server's worker processes).  numpy's OpenBLAS, which spaCy's
layers call, would by default also run a thread per core in every one of them:
more threads than cores, and on TED zh-en (2 cores, empty cache) `score
--per-doc` took 9.4 s and 16.4 CPU s with it, 8.4 s and 14.3 CPU s without
(spaCy alone: 11% less CPU per sentence; all-pairs tests on TED took as long).
The server runs every session's statistics in threads of its one
process, beside the spaCy workers: eight sessions' bootstrap intervals and
pairwise tests at once, with two busy processes beside them, took 0.66-0.91 CPU s
(0.59-0.74 s) with a thread per core and 0.34-0.56 CPU s (0.39-0.63 s) with one;
alone on an idle machine a large meta-evaluation is slower with one (WMT22
`correlate --spa`, the statistics alone: 1.0-1.1 -> 1.4-1.5 s; the whole warm
command 3.3 -> 3.2-3.5 s).  OpenBLAS reads the variable once, when numpy is first
imported, so it is set before that (cli/__init__.py, app.py, the workers'
environment).  A value already set (by whoever runs the server) wins.
"""
from __future__ import annotations

import os
from typing import MutableMapping

VAR = "OPENBLAS_NUM_THREADS"


def one_blas_thread(env: MutableMapping[str, str] = os.environ) -> MutableMapping[str, str]:
    """Ask for one OpenBLAS thread in `env` (this process's environment by default)
    unless a value is set already; returns env."""
    env.setdefault(VAR, "1")
    return env
