"""Annotation on a Dask cluster: the backend behind `--scheduler ADDRESS` (command line)
and BLONDE_SCHEDULER (the dashboard's server).

Imported (with dask.distributed) only when a scheduler is named: without one the local
processes (backends.py) annotate and Dask is never imported.  The workers import this
module by name, so they need this project importable (README: "On a Dask cluster").

    client (this process)                     each Dask worker process
    ---------------------                     ------------------------
    connects to the scheduler (one Client     a worker plugin loads the language's spaCy
    per address and process)                  pipeline once, when the run first meets it
    checks every worker's pipeline id    ->   reports "<pipeline>-<version>/spacy-<version>"
    submits batches of distinct texts    ->   annotate_batch: refuses a batch if its own pipeline
    (a bounded window of them)                id differs from the client's, else the records
    hands each finished batch to the     <-   (the same doc_to_record as every backend)
    Annotator, which stores it at once

The records are the ones every backend makes (pipeline.py) and the cache keys carry the
client's pipeline id, so a store is warm whichever backend filled it.  A worker lost in the
middle of a run: the scheduler runs its batches again elsewhere (Dask's `allowed-failures`),
and each batch still reaches the store once, when its result first comes back.  A worker
whose spaCy or pipeline version differs from the client's: the run is refused with a
message naming it, before any of its records could reach the store.  A run that stops
(its caller's progress callback raised, e.g. a session left) cancels what it had queued.
"""
from __future__ import annotations

import os
import threading

from distributed import Client, as_completed, get_worker
from distributed.diagnostics.plugin import WorkerPlugin

from blonde_core.errors import InputError
from blonde_core.lang.base import LanguagePack

from .backends import Backend, batches_of
from .pipeline import pipeline_id

CONNECT_TIMEOUT = float(os.environ.get("BLONDE_SCHEDULER_TIMEOUT", "10"))  # seconds to reach a scheduler
WINDOW_PER_THREAD = 4  # batches in flight per worker thread: enough to keep workers busy, few to cancel


class PipelineMismatch(RuntimeError):
    """Raised on a worker whose pipeline is not the client's (never retried: the batch is refused);
    args: (the worker's address, its pipeline id)."""


# -- the worker side ----------------------------------------------------------
# spaCy does not run in the Dask worker process itself but in a plain child process of
# it (workers.py's WorkerPool, as in the dashboard's server), started once by the plugin.
# A worker process runs threads (its event loop, its task threads), and once a process
# has started a thread spaCy runs about 25% slower in it for good, and in its forked
# children too (500 TED sentences: 0.58 s before the first thread, 0.72-0.74 s after it,
# in the main thread, in the thread or in a child forked after it; a freshly started
# process: 0.58 s); the child is started fresh and never runs a thread.  It ends with
# its worker (its pipe closes).
_WORKER_IDS: dict[str, str] = {}  # pack name -> this process's pipeline id
_WORKER_POOLS: dict[str, object] = {}  # pack name -> the WorkerPool of this Dask worker
_WORKER_LOCK = threading.Lock()


def worker_pipeline_id(pack: LanguagePack) -> str:
    """This process's pipeline id for the pack (read once per process)."""
    got = _WORKER_IDS.get(pack.name)
    if got is None:
        got = _WORKER_IDS[pack.name] = pipeline_id(pack)
    return got


def _worker_pool(pack: LanguagePack):
    """The annotation processes of this Dask worker for the pack (one per worker thread),
    started once; they load the pipeline as they start."""
    from .workers import WorkerPool

    with _WORKER_LOCK:
        pool = _WORKER_POOLS.get(pack.name)
        if pool is None:
            try:
                threads = get_worker().state.nthreads
            except (ValueError, AttributeError):
                threads = 1
            pool = _WORKER_POOLS[pack.name] = WorkerPool(pack.name, max(1, int(threads)))
        return pool


def annotate_batch(pack: LanguagePack, expected: str, batch: list[str]) -> list[dict]:
    """One task: the records of a batch of texts, or PipelineMismatch."""
    got = worker_pipeline_id(pack)
    if got != expected:
        raise PipelineMismatch(_worker_address(), got)
    return _worker_pool(pack).submit(batch).result()


def _worker_address() -> str:
    try:
        return get_worker().address
    except ValueError:
        return "(not a Dask worker)"


class PipelinePlugin(WorkerPlugin):
    """Starts the annotation process that loads the language's pipeline once on every worker
    (those that join later too), unless the worker's pipeline is not the client's (its tasks
    then refuse)."""

    def __init__(self, pack: LanguagePack, expected: str):
        self.pack, self.expected = pack, expected
        self.name = f"blonde-pipeline-{pack.name}-{expected}"

    def setup(self, worker) -> None:
        if worker_pipeline_id(self.pack) == self.expected:
            _worker_pool(self.pack)


# -- the client side ----------------------------------------------------------
_CLIENTS: dict[str, object] = {}
_PLUGINS: set[tuple[str, str]] = set()  # (scheduler address, plugin name) registered by this process
_CLIENTS_LOCK = threading.Lock()


def client_for(address: str, timeout: float | None = None):
    """The process's Client of a scheduler (made once), or InputError naming the address."""
    with _CLIENTS_LOCK:
        client = _CLIENTS.get(address)
        if client is not None and client.status in ("running", "connecting"):
            return client
        try:
            client = Client(address, timeout=CONNECT_TIMEOUT if timeout is None else timeout,
                            set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise InputError(f"cannot reach the Dask scheduler at {address} ({_first_line(exc)}); start one with "
                             "`dask scheduler` and workers with `dask worker ADDRESS`, or run without a "
                             "scheduler", code=InputError.Codes.SCHEDULER) from None
        _CLIENTS[address] = client
        return client


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def close_clients() -> None:
    with _CLIENTS_LOCK:
        for c in _CLIENTS.values():
            c.close()
        _CLIENTS.clear()
        _PLUGINS.clear()


class Dask(Backend):
    """Annotation on the workers of a Dask scheduler (see the module's text)."""

    def __init__(self, pack: LanguagePack, n_process: int = 1, address: str = "", timeout: float | None = None):
        super().__init__(pack, n_process)
        self.address = address
        self.timeout = timeout
        self._ready: set = set()  # worker addresses checked (and given the plugin)
        self._check_lock = threading.Lock()  # the server's sessions share one backend

    def _check_workers(self, client) -> int:
        """Every worker's pipeline id is the client's, or InputError naming the first that is not;
        the plugin that loads the pipeline registered once. Returns the number of worker threads."""
        info = client.scheduler_info(n_workers=-1)["workers"]
        if not info:
            raise InputError(f"the Dask scheduler at {self.address} has no workers; start some with "
                             f"`dask worker {self.address}`", code=InputError.Codes.SCHEDULER)
        new = set(info) - self._ready
        if new:
            ids = client.run(worker_pipeline_id, self.pack, workers=sorted(new))
            bad = sorted((w, i) for w, i in ids.items() if i != self.pipeline_id)
            if bad:
                raise InputError(_mismatch_text(self.address, bad[0][0], bad[0][1], self.pipeline_id),
                                 code=InputError.Codes.SCHEDULER)
            plugin = PipelinePlugin(self.pack, self.pipeline_id)
            with _CLIENTS_LOCK:  # once per scheduler and process (every annotator has a backend of its own)
                if (self.address, plugin.name) not in _PLUGINS:
                    client.register_plugin(plugin)
                    _PLUGINS.add((self.address, plugin.name))
            self._ready |= new
        return sum(int(w.get("nthreads", 1)) for w in info.values())

    def run(self, texts, on_batch, on_late=None) -> None:
        client = client_for(self.address, self.timeout)
        with self._check_lock:
            threads = self._check_workers(client)
        self.loaded_pipeline = True
        queue = batches_of(texts)
        queue.reverse()  # pop() from the end: first batches first
        window = max(2, WINDOW_PER_THREAD * threads)
        pending: dict = {}

        def submit():
            b = queue.pop()
            f = client.submit(annotate_batch, self.pack, self.pipeline_id, b, pure=False)
            pending[f] = b
            return f

        try:
            while queue and len(pending) < window:
                submit()
            done = as_completed(list(pending), loop=client.loop)
            for f in done:
                b = pending.pop(f)
                try:
                    recs = f.result()
                except PipelineMismatch as exc:
                    raise InputError(_mismatch_text(self.address, *exc.args, self.pipeline_id),
                                     code=InputError.Codes.SCHEDULER) from None
                except Exception as exc:  # noqa: BLE001 - the scheduler lost, a batch failed too often, ...
                    raise InputError(f"annotation on the Dask scheduler at {self.address} failed "
                                     f"({type(exc).__name__}: {_first_line(exc)}); the batches finished before "
                                     "are kept", code=InputError.Codes.SCHEDULER) from None
                f.release()
                on_batch(b, recs)
                if queue:
                    done.add(submit())
        finally:
            if pending:  # stopped early (an error, or the caller's progress callback): cancel the rest
                try:
                    client.cancel(list(pending))
                except Exception:  # noqa: BLE001 - the scheduler may be gone already
                    pass


def _mismatch_text(address: str, worker: str, theirs: str, ours: str) -> str:
    return (f"refused: Dask worker {worker} (scheduler {address}) annotates with {theirs}, this process with {ours}; "
            "records of another pipeline are never mixed into the cache - install the same spaCy and pipeline "
            "versions on every worker (pip install -r requirements.txt -r requirements-model.txt)")


def backend_factory(address: str, timeout: float | None = None):
    """What Engine(pool=...) takes: (pack, n_process) -> a Dask backend of this scheduler."""
    def make(pack: LanguagePack, n_process: int = 1) -> Dask:
        return Dask(pack, n_process, address=address, timeout=timeout)
    make.describe = f"Dask scheduler at {address}"
    return make
