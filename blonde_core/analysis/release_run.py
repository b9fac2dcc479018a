"""A release's pair computed in a process of its own (issue 65, the command line's `score --lp all`).

One process that scores WMT24's eight pairs one after another keeps what each pair left: the modules of its
analyser (jieba, LAC, slovnet, HanTa cannot be unloaded), the fragments of its records in the allocator, and the
command line's fork pool for sacrebleu, forked once from the process as it was during the first pair. Each later
pair's annotation processes are forked from that grown process, and the release's peak (resident memory of the
process tree) was 1.63 x the largest pair's alone. So the command line computes each pair in a child forked for it
from the parent, which loads no analyser: the child sends its row back and exits, and the parent holds the table
only. A fork carries the caller's settings (closures, the engine's options) as they are, and costs nothing to
start; the child's messages (its annotation progress) are passed to the parent as they come, so the parent's
stderr shows them where it shows everything else.

Where the platform cannot fork (Windows: available() False), the caller computes the pairs itself."""
from __future__ import annotations

import pickle
import sys


def available() -> bool:
    """Whether this platform forks (a child that inherits the caller's settings as they are)."""
    import multiprocessing as mp

    return "fork" in mp.get_all_start_methods()


def apart(compute, on_message=None):
    """compute(tell) run in a child process forked for it; each tell(*args) there is on_message(*args) here, as it
    comes; compute's value comes back (pickled), or its exception is raised here. A child that ends without an
    answer (killed: out of memory?) raises RuntimeError with its exit status."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    answers, ours = ctx.Pipe(duplex=False)
    for stream in (sys.stdout, sys.stderr):  # nothing buffered here is written twice (once by the child)
        stream.flush()
    proc = ctx.Process(target=_child, args=(ours, compute), name="blonde-release-pair")
    proc.start()
    ours.close()  # the child's end only: its exit is then the pipe's end
    try:
        while True:
            try:
                kind, value = answers.recv()
            except EOFError:
                proc.join()
                raise RuntimeError(f"the process computing a pair ended without its answer (exit status "
                                   f"{proc.exitcode}{': killed, out of memory?' if proc.exitcode == -9 else ''})")
            if kind == "tell":
                if on_message is not None:
                    on_message(*value)
            elif kind == "done":
                return value
            else:
                raise _rebuilt(value)
    finally:
        answers.close()
        proc.join(timeout=30)
        if proc.is_alive():  # interrupted here (Ctrl-C): the child goes too
            proc.terminate()
            proc.join()


def _child(conn, compute) -> None:
    """The forked child: compute's value or its exception sent back, then nothing more."""
    try:
        got = ("done", compute(lambda *args: conn.send(("tell", args))))
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent, which raises it
        got = ("error", _portable(exc))
    try:
        conn.send(got)
    except (pickle.PicklingError, TypeError, AttributeError) as exc:  # a value that does not pickle: said
        conn.send(("error", _portable(RuntimeError(f"a pair's answer could not be sent back ({exc})"))))
    finally:
        conn.close()


def _portable(exc: BaseException) -> tuple:
    """An exception as (class, args, attributes), which pickle (InputError's code, file and line kept: its own
    pickling would make it anew from its message alone); one that does not, as a RuntimeError naming it."""
    got = (type(exc), exc.args, dict(vars(exc)))
    try:
        pickle.dumps(got)
        return got
    except Exception:  # noqa: BLE001 - a class or attribute pickle cannot carry
        return RuntimeError, (f"{type(exc).__name__}: {exc}",), {}


def _rebuilt(value: tuple) -> BaseException:
    cls, args, attrs = value
    exc = cls.__new__(cls, *args)
    exc.args = args
    exc.__dict__.update(attrs)
    return exc
