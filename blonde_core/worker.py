"""Annotation worker processes for the dashboard's server.

The server is multi-threaded (one thread per script run), so it neither forks
itself nor lets multiprocessing re-import its main module (Streamlit makes the
app script `__main__`).  Instead each worker is a plain child process,
`python -m blonde_core.worker LANG`, that loads the spaCy pipeline once and
says it is ready, then answers one job per line: a JSON list of texts in, a
JSON list of annotation records out; or {"segstats": metric, "hyps": [...],
"refs": [[...]]} in, sacrebleu's per-segment statistics out (so that the
server's threads do no heavy work of their own).  A `WorkerPool` starts all its
workers at once and hands batches from any thread to the first free worker that
is ready (small jobs, such as a Sandbox edit, before the batches of large ones):
a job never waits for a worker that is still loading spaCy while another is
free.  A worker that died is replaced.
"""
from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
from concurrent.futures import Future
from pathlib import Path

from .blas import one_blas_thread


def main(argv=None) -> int:
    from .annotate import doc_to_record, load_pipeline
    from .langpack import load_pack

    argv = sys.argv[1:] if argv is None else argv
    out = sys.stdout
    try:
        pack = load_pack(argv[0] if argv else "en")
        nlp = load_pipeline(pack)  # before saying ready: no job waits on a loading worker
    except Exception as exc:  # e.g. no spaCy pipeline installed: the server says why
        out.write(json.dumps({"error": str(exc)}) + "\n")
        out.flush()
        return 1
    metrics: dict = {}
    out.write(READY + "\n")
    out.flush()
    for line in sys.stdin:
        job = json.loads(line)
        if isinstance(job, dict):
            from .standard import _metric

            m = metrics.get(job["segstats"]) or metrics.setdefault(job["segstats"], _metric(job["segstats"]))
            res = [[float(x) for x in row] for row in m._extract_corpus_statistics(job["hyps"], job["refs"])]
        else:
            res = [doc_to_record(d) for d in nlp.pipe(job, batch_size=64)]
        out.write(json.dumps(res, ensure_ascii=True) + "\n")
        out.flush()
    return 0


READY = '"ready"'


class _Worker:
    """One worker process; returns from __init__ once it has loaded its pipeline."""

    def __init__(self, lang: str):
        root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
        one_blas_thread(env)  # set before the worker imports numpy
        self.proc = subprocess.Popen([sys.executable, "-m", "blonde_core.worker", lang], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env, text=True, encoding="utf-8",
                                     errors="surrogatepass", bufsize=1)
        line = self.proc.stdout.readline()
        while line and line.strip() != READY and not line.startswith('{"error"'):  # a library's own output
            line = self.proc.stdout.readline()
        if line.strip() != READY:
            self.close()
            why = json.loads(line)["error"] if line else f"exited with status {self.proc.poll()}"
            raise RuntimeError(f"the annotation worker could not start: {why}")

    def run(self, job) -> list:
        self.proc.stdin.write(json.dumps(job, ensure_ascii=True) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"annotation worker exited (status {self.proc.poll()})")
        res = json.loads(line)
        n = len(job) if isinstance(job, list) else len(job["hyps"])
        if len(res) != n:
            raise RuntimeError("annotation worker answered a different number of records")
        return res

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


class WorkerPool:
    """n worker processes, all started at once; submit(batch) from any thread returns a
    Future.  `start(lang)` makes a ready worker (tests give their own)."""

    def __init__(self, lang: str, n: int, start=_Worker):
        self.lang, self.n, self._start = lang, max(1, n), start
        self._jobs: queue.PriorityQueue = queue.PriorityQueue()
        self._seq = itertools.count()
        self._threads = [threading.Thread(target=self._serve, name=f"blonde-annotator-{i}", daemon=True)
                         for i in range(self.n)]
        for t in self._threads:
            t.start()

    def submit(self, batch, priority: int = 1) -> Future:
        """batch: texts to annotate, or a segstats job.  Lower priorities go first
        (0: small annotation jobs, 1: annotation batches, 2: sacrebleu chunks);
        equal priorities in order of submission."""
        fut: Future = Future()
        self._jobs.put((priority, next(self._seq), batch, fut))
        return fut

    def _serve(self) -> None:
        """One thread per worker: start the worker, then take jobs only while it is ready
        (a job left in the queue goes to whichever worker is free first)."""
        worker, failed = None, None
        while True:
            if worker is None:
                try:
                    worker, failed = self._start(self.lang), None
                except Exception as exc:  # e.g. no pipeline: the next job is told why
                    failed = exc
            _, _, batch, fut = self._jobs.get()
            if not fut.set_running_or_notify_cancel():
                continue
            if worker is None:
                fut.set_exception(failed)
                continue
            try:
                fut.set_result(worker.run(batch))
            except BaseException as exc:  # a dead worker is replaced before the next job
                worker.close()
                worker = None
                fut.set_exception(exc)


if __name__ == "__main__":
    sys.exit(main())
