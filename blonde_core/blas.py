"""One BLAS thread in each process of ours that runs spaCy.

The command line and the server annotate with one spaCy process per core (the
CLI's fork pool, the server's worker processes).  numpy's OpenBLAS, which spaCy's
layers call, would by default also run a thread per core in every one of them:
more threads than cores, and on TED zh-en (2 cores, empty cache) `score
--per-doc` took 9.4 s and 16.4 CPU s with it, 8.4 s and 14.3 CPU s without
(spaCy alone: 11% less CPU per sentence; the statistics' matrix products were
not slower).  OpenBLAS reads the variable once, when numpy is first imported, so
it is set before that.  A value already set (by whoever runs the server) wins.
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
