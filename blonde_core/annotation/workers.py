"""Annotation worker processes for the dashboard's server.

The server is multi-threaded (one thread per script run), so it neither forks
itself nor lets multiprocessing re-import its main module (Streamlit makes the
app script `__main__`).  Instead a worker is a separate process that loads the
spaCy pipeline, says it is ready, then answers one job per line: a JSON list of
texts in, a JSON list of annotation records out; or {"call": "module:function",
"args": [...]} in, that function's JSON-able answer out (sacrebleu's per-segment
statistics: so that the server's threads do no heavy work of their own).

On Linux the workers come from a fork server: one plain child process,
`python -m blonde_core.annotation.workers LANG --fork-server FD`, imports spaCy and loads the
pipeline once, then forks a ready worker whenever the server asks (over a Unix
socket that also carries the new worker's own socket).  The fork server itself
runs no threads and never annotates, so forking it is safe, and the server never
forks.  Two workers then cost one pipeline load (~0.8-0.9 CPU s each, which eight
sessions starting at once paid twice while competing for the cores) and share the
pipeline's memory pages (each worker ~70 MB of its own instead of ~115 MB);
a worker that died is replaced in milliseconds.  Elsewhere (or if the fork server
cannot start) each worker is its own `python -m blonde_core.annotation.workers LANG` process.

A `WorkerPool` starts all its workers at once and hands batches from any thread
to the first free worker that is ready (small jobs, such as a Sandbox edit,
before the batches of large ones): a job never waits for a worker that is still
loading spaCy while another is free.  A worker that died is replaced, and so is one that
worked and then sat idle (idle_seconds): what it grew to goes back to the system.
"""
from __future__ import annotations

import itertools
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from concurrent.futures import Future
from pathlib import Path

from blonde_core.blas import one_blas_thread

READY = '"ready"'
ENCODING = dict(encoding="utf-8", errors="surrogatepass")


def call(job: dict):
    """A job that names a function of the core, {"call": "module:function", "args": [...], "rows": n}
    (e.g. sacrebleu's per-segment statistics, analysis/standard.py), run in the worker so
    that the server's threads do no heavy work of their own.  The worker knows no caller."""
    import importlib

    module, _, name = job["call"].partition(":")
    if not module.startswith("blonde_core."):
        raise ValueError(f"a worker runs functions of blonde_core only, not {job['call']!r}")
    return getattr(importlib.import_module(module), name)(*job.get("args", ()))


def _owner_gone(owner: int) -> bool:
    """The process that started the workers (the dashboard's server) has ended: no such process, or a zombie
    waiting to be reaped."""
    try:
        with open(f"/proc/{owner}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True
    except OSError:  # no /proc (macOS): whether the pid is still there
        try:
            os.kill(owner, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False


def end_with(owner: int, every: float = 0.5) -> None:
    """End this worker within `every` seconds of the server's end, even in the middle of a long job (sacrebleu's
    TER over thousands of segments): a daemon thread that watches the server's process.  Between jobs a worker
    also ends when its socket closes; a job in progress never reads it."""
    import time

    def watch() -> None:
        while True:
            time.sleep(every)
            if _owner_gone(owner):
                os._exit(0)
    threading.Thread(target=watch, name="blonde-owner-watch", daemon=True).start()


def serve(nlp, rfile, wfile) -> int:
    """Say ready, then answer one job per line of rfile until it ends."""
    wfile.write(READY + "\n")
    wfile.flush()
    for line in rfile:
        job = json.loads(line)
        if isinstance(job, dict):
            res = call(job)
        else:
            res = nlp.records(job)
        wfile.write(json.dumps(res, ensure_ascii=True) + "\n")
        wfile.flush()
    return 0


def fork_server(nlp, ctl: socket.socket, owner: int | None = None) -> int:
    """Fork a worker for each socket the server sends over ctl; answer with its pid.
    Ends when the server closes ctl (its workers end when their own sockets close, or when the server
    `owner` ends, even mid-job: end_with).  The fork server itself runs no thread."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the workers: no zombies
    while True:
        msg, fds, _, _ = socket.recv_fds(ctl, 16, 4)
        if not msg:
            return 0
        for fd in fds:
            pid = os.fork()
            if pid == 0:  # the worker: only its own socket open besides the standard streams
                code = 1
                try:
                    ctl.close()
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    if owner is not None:
                        end_with(owner)
                    with socket.socket(fileno=fd) as sock:
                        rfile = sock.makefile("r", newline="\n", **ENCODING)
                        wfile = sock.makefile("w", newline="\n", **ENCODING)
                        code = serve(nlp, rfile, wfile)
                except BaseException:  # e.g. the server went away mid-job
                    import traceback

                    traceback.print_exc()
                finally:
                    sys.stderr.flush()
                    os._exit(code)  # never the fork server's own exit handlers
            os.close(fd)
            ctl.sendall(f"{pid}\n".encode())


def main(argv=None) -> int:
    from .analysers import load_analyser
    from blonde_core.lang.base import load_pack

    argv = sys.argv[1:] if argv is None else argv
    out = sys.stdout
    owner = os.getppid()  # the server that started this process
    try:
        pack = load_pack(argv[0] if argv else "en")
        nlp = load_analyser(pack)  # before saying ready: no job waits on a loading worker
    except Exception as exc:  # e.g. no spaCy pipeline installed: the server says why
        out.write(json.dumps({"error": str(exc)}) + "\n")
        out.flush()
        return 1
    if argv[1:2] == ["--fork-server"]:
        out.write(READY + "\n")
        out.flush()
        os.dup2(2, 1)  # from now on a library's printing goes to the server's log, not a pipe nobody reads
        return fork_server(nlp, socket.socket(fileno=int(argv[2])), owner)
    end_with(owner)
    return serve(nlp, sys.stdin, out)


def _worker_env() -> dict:
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return one_blas_thread(env)  # set before the worker imports numpy


def _await_ready(rfile, status) -> None:
    """Read up to the ready line (skipping a library's own output) or fail with the reason."""
    line = rfile.readline()
    while line and line.strip() != READY and not line.startswith('{"error"'):
        line = rfile.readline()
    if line.strip() != READY:
        why = json.loads(line)["error"] if line else f"exited with status {status()}"
        raise RuntimeError(f"the annotation worker could not start: {why}")


def share_strings(records: list, strings: dict) -> list:
    """The records with every string of their lists (words, tags, entity labels) replaced by the one equal string
    in `strings` (added there when new): json.loads makes a string object of its own for every occurrence, and a
    Chinese word of one or two characters costs an 80-byte object. WMT24 en-zh's 20,150 distinct sentences came
    back from the workers as ~90 MB of small objects in the server, held until their sessions closed; freed, they
    left Python's allocator holding partly used 1 MB arenas it could not give back (bench/
    bench_sessions_memory.py, cold: +182 MB over the start 150 s after the closing). With the strings shared, the
    records of 3,867 WMT24 zh sentences take 7.2 MB instead of 17.3 MB. Not sys.intern: Python 3.12 keeps an
    interned string for ever. Records are changed in place and returned."""
    get = strings.setdefault
    for rec in records:
        if type(rec) is not dict:
            continue
        for k, v in rec.items():
            if type(v) is not list or not v:
                continue
            if type(v[0]) is str:
                rec[k] = [get(x, x) if type(x) is str else x for x in v]
            elif type(v[0]) is list:  # spans [start, end, label]
                for span in v:
                    if type(span) is list:
                        span[:] = [get(x, x) if type(x) is str else x for x in span]
    return records


SHARED_STRINGS_MAX = 400_000  # distinct strings a pool keeps for sharing at most (~40 MB); past it, a fresh start


class WorkerDied(RuntimeError):
    """The worker ended while it held a job (killed, out of memory): the job itself may be fine."""


RETRIES = 2  # a job whose worker dies goes to a fresh worker this many times more before it fails


def idle_seconds() -> float:
    """BLONDE_WORKER_IDLE (default 60; 0: never): a worker that annotated and then had no job for this many
    seconds is closed and a fresh one started in its place. A worker only grows: spaCy's string store keeps
    every new word it met, and the records it built leave its heap fragmented (WMT24 en-zh annotated cold: the zh
    fork server and its two workers still held ~720 MB 150 s after the sessions closed, bench/
    bench_sessions_memory.py). A fresh fork of the fork server costs milliseconds and shares the loaded
    pipeline's pages again; a worker of its own reloads the pipeline."""
    try:
        return max(0.0, float(os.environ.get("BLONDE_WORKER_IDLE", 60)))
    except ValueError:
        return 60.0


class _Channel:
    """A ready worker at the other end of a line-based text channel."""
    rfile = wfile = None

    def run(self, job) -> list:
        try:
            self.wfile.write(json.dumps(job, ensure_ascii=True) + "\n")
            self.wfile.flush()
            line = self.rfile.readline()
        except OSError:  # e.g. a broken pipe: the worker is gone
            line = ""
        if not line:
            status = self.status()
            raise WorkerDied("annotation worker exited" + ("" if status is None else f" (status {status})"))
        res = json.loads(line)
        n = len(job) if isinstance(job, list) else job.get("rows")  # a call job may say how many rows it answers
        if n is not None and len(res) != n:
            raise RuntimeError("annotation worker answered a different number of records")
        return res

    def status(self):
        return None

    def _ready_or_close(self, status) -> None:
        """Wait for the worker's ready line; on failure close the channel and say why."""
        try:
            _await_ready(self.rfile, status)
        except BaseException:
            self.close()
            raise


class _Worker(_Channel):
    """One worker process of its own; returns from __init__ once it has loaded its pipeline."""

    def __init__(self, lang: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "blonde_core.annotation.workers", lang], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=_worker_env(), text=True, bufsize=1, **ENCODING)
        self.rfile, self.wfile = self.proc.stdout, self.proc.stdin
        self._ready_or_close(self.proc.poll)

    def status(self):
        return self.proc.poll()

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


class _Forked(_Channel):
    """A worker forked by a ForkServer, talked to over its own socket."""

    def __init__(self, sock: socket.socket, pid: int):
        self.sock, self.pid = sock, pid
        self.rfile = sock.makefile("r", newline="\n", **ENCODING)
        self.wfile = sock.makefile("w", newline="\n", **ENCODING)
        self._ready_or_close(lambda: "unknown")  # not this process's child: no status

    def close(self) -> None:
        """The worker reads the end of its socket and exits (the fork server reaps it)."""
        for f in (self.wfile, self.rfile):
            try:
                f.close()
            except OSError:  # its buffer could not be flushed: the worker is gone
                pass
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class ForkServer:
    """The process that loads the pipeline once and forks ready workers (see the module's text)."""

    def __init__(self, lang: str):
        self._ctl, theirs = socket.socketpair()
        self._lock = threading.Lock()
        with theirs:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "blonde_core.annotation.workers", lang, "--fork-server", str(theirs.fileno())],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, pass_fds=(theirs.fileno(),), env=_worker_env(),
                text=True, **ENCODING)
        try:
            _await_ready(self.proc.stdout, self.proc.poll)
        except BaseException:
            self.close()
            raise
        self.proc.stdout.close()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def fork(self) -> _Forked:
        mine, theirs = socket.socketpair()
        with self._lock, theirs:
            socket.send_fds(self._ctl, [b"w"], [theirs.fileno()])
            answer = b""
            while not answer.endswith(b"\n"):
                got = self._ctl.recv(32)
                if not got:
                    mine.close()
                    raise RuntimeError(f"the annotation fork server exited (status {self.proc.poll()})")
                answer += got
        return _Forked(mine, int(answer))

    def close(self) -> None:
        """The fork server exits; its workers exit when their sockets close."""
        self._ctl.close()
        try:
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def fork_server_supported() -> bool:
    """Linux only: forking a process with numpy and spaCy loaded is well tried there (the
    CLI's fork pool does it); macOS's system libraries are not fork-safe."""
    return sys.platform.startswith("linux") and hasattr(socket, "send_fds") and hasattr(os, "fork")


class WorkerPool:
    """n worker processes, all started at once; submit(batch) from any thread returns a
    Future.  `start(lang)` makes a ready worker (default: forked by the pool's fork server
    where supported and n > 1; tests give their own)."""

    def __init__(self, lang: str, n: int, start=None, idle: float | None = None):
        self.lang, self.n, self._start = lang, max(1, n), start or self._fork_or_spawn
        # a worker that annotated and then waited this long for a job is replaced by a fresh one (idle_seconds)
        self.idle = idle_seconds() if idle is None else idle
        self.recycled = 0  # workers replaced after an idle spell so far
        # one string object per distinct string of the records this pool returns (share_strings), for as long as the
        # pool is busy: emptied when a worker sits idle (or past SHARED_STRINGS_MAX), so that nothing is kept for it
        self._strings: dict = {}
        self._forks: ForkServer | None = None
        self._forks_lock = threading.Lock()
        # one worker: a fork server would only add a process (~65 MB) that saves no load
        self._spawn_only = self.n < 2 or not fork_server_supported()
        self._jobs: queue.PriorityQueue = queue.PriorityQueue()
        self._seq = itertools.count()
        self._threads = [threading.Thread(target=self._serve, name=f"blonde-annotator-{i}", daemon=True)
                         for i in range(self.n)]
        for t in self._threads:
            t.start()

    def _fork_or_spawn(self, lang: str, retry: bool = True) -> _Channel:
        """A worker forked by the fork server (started by the first caller, the others wait
        for its one pipeline load); a worker process of its own if forking is not possible."""
        with self._forks_lock:
            if not self._spawn_only and (self._forks is None or not self._forks.alive()):
                try:  # its RuntimeError (no pipeline, no pack) reaches the job: a plain worker would fail alike
                    self._forks = ForkServer(lang)
                except OSError:  # no fork server here: plain workers
                    self._spawn_only = True
            forks = None if self._spawn_only else self._forks
        if forks is None:
            return _Worker(lang)
        try:
            return forks.fork()
        except (OSError, RuntimeError):  # the fork server died since: start a new one, once
            with self._forks_lock:
                if self._forks is forks:
                    self._forks = None
            forks.close()
            if not retry:
                raise
            return self._fork_or_spawn(lang, retry=False)

    def submit(self, batch, priority: float = 1) -> Future:
        """batch: texts to annotate, or a segstats job.  Lower priorities go first
        (0: small annotation jobs; 1 up to 2: annotation batches, by how many texts their
        run had sent before - least attained first; sacrebleu chunks as a run that sent
        2,000); equal priorities in order of submission."""
        fut: Future = Future()
        self._jobs.put((priority, next(self._seq), batch, fut))
        return fut

    def _serve(self) -> None:
        """One thread per worker: start the worker, then take jobs only while it is ready
        (a job left in the queue goes to whichever worker is free first)."""
        worker, failed, worked = None, None, False
        while True:
            if worker is None:
                try:
                    worker, failed, worked = self._start(self.lang), None, False
                except Exception as exc:  # e.g. no pipeline: the next job is told why
                    failed = exc
            try:
                _, _, batch, fut = self._jobs.get(timeout=self.idle if worked and self.idle > 0 else None)
            except queue.Empty:  # it worked, then waited: a fresh worker gives back what this one grew to
                worker.close()
                worker = None
                self.recycled += 1
                self._strings = {}  # no job for a while: the next run shares strings among its own records
                continue
            if not fut.set_running_or_notify_cancel():
                continue
            if worker is None:
                fut.set_exception(failed)
                continue
            for attempt in range(RETRIES + 1):
                try:
                    res = worker.run(batch)
                    if isinstance(batch, list):  # annotation records (a call job's answer is the function's)
                        if len(self._strings) > SHARED_STRINGS_MAX:
                            self._strings = {}
                        share_strings(res, self._strings)
                    fut.set_result(res)
                    worked = True
                    break
                except WorkerDied as exc:  # killed mid-job: the job goes to a fresh worker (a new one starts in ms)
                    worker.close()
                    worker = None
                    if attempt == RETRIES:
                        fut.set_exception(WorkerDied(f"{exc}; the job's worker died {RETRIES + 1} times in a row "
                                                     "(out of memory?), so it was given up"))
                        break
                    try:
                        worker = self._start(self.lang)
                    except Exception as start_exc:
                        failed = start_exc
                        fut.set_exception(start_exc)
                        break
                except BaseException as exc:  # any other failure is the job's: told to it; a fresh worker next
                    worker.close()
                    worker = None
                    fut.set_exception(exc)
                    break


if __name__ == "__main__":
    sys.exit(main())
