"""Annotation on a Dask cluster (blonde_core/annotation/cluster.py), on real TED text with
the real pipeline: a LocalCluster of two worker processes started here gives output
identical to the local backend, survives a worker killed mid-run with no batch stored
twice, refuses a worker with another pipeline, and names an unreachable scheduler."""
import collections
import json
import os
import signal
import socket
import subprocess
import sys
import time

import distributed  # pinned in requirements.txt: a missing install fails here, it is never skipped
import pytest

from blonde_core.annotation.annotator import Annotator
from blonde_core.annotation.backends import Forked
from blonde_core.annotation.pipeline import prepare
from blonde_core.annotation.store import AnnotationCache
from blonde_core.cli import main as cli
from blonde_core.errors import InputError
from blonde_core.lang.base import load_pack
from blonde_core.study import Engine
from conftest import ROOT, SHARED

TED = SHARED / "data" / "ted-zhen"
PACK = load_pack("en")


@pytest.fixture(scope="module")
def cluster():
    from blonde_core.annotation.cluster import close_clients

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    cl = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        yield cl
    finally:
        close_clients()
        cl.close()


def ted_args(*systems: str) -> list[str]:
    return ["score", "-r", str(TED / "refs" / "ref.txt"), "-s", *[str(TED / "systems" / f"{s}.txt") for s in systems],
            "--docids", str(TED / "docids.txt"), "--lang", "en", "--format", "json", "--per-doc"]


def ted_texts(n: int | None = None) -> list[str]:
    files = [TED / "refs" / "ref.txt", TED / "systems" / "MiSS.txt", TED / "systems" / "SMU.txt"]
    texts = sorted({prepare(line, True) for f in files for line in f.read_text(encoding="utf-8").splitlines()})
    return texts[:n] if n else texts


def local_records(texts: list[str]) -> dict:
    got: dict = {}
    Forked(PACK, 2).run(texts, lambda b, recs: got.update(zip(b, recs)))
    return got


def test_without_a_scheduler_dask_is_never_imported():
    code = ("import sys; from blonde_core.cli import main; "
            f"rc = main(['score', '-r', {str(ROOT / 'sample_data' / 'reference.txt')!r}, "
            f"'-s', {str(ROOT / 'sample_data' / 'consistent.txt')!r}, '--no-cache', '-o', '/dev/null']); "
            "print(rc, [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')] or 'none')")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert p.stdout.split() == ["0", "none"], p.stderr


def test_ted_through_two_dask_workers_equals_the_local_backend_and_the_store_is_then_warm(cluster, tmp_path):
    args = ted_args("MiSS", "SMU")
    local, dask_out = tmp_path / "local.json", tmp_path / "dask.json"
    assert cli(args + ["--no-cache", "-o", str(local)]) == 0
    assert cli(args + ["--cache-dir", str(tmp_path / "c"), "--scheduler", cluster.scheduler_address,
                       "-o", str(dask_out)]) == 0
    assert json.loads(dask_out.read_text()) == json.loads(local.read_text())
    assert dask_out.read_text() == local.read_text()

    # the store the cluster filled has the local backend's records under the same keys ...
    engine = Engine(cache_mode="disk", cache_dir=tmp_path / "c", pool="inline")
    ann = engine.annotator(True, "en")
    texts = ted_texts()
    got = ann.annotate(texts)
    assert not ann.loaded_pipeline and ann.stats["annotated"] == 0 and ann.stats["cached"] == len(texts)
    assert got == local_records(texts)
    # ... and a second run against it never reaches a scheduler (this one is closed)
    again = tmp_path / "again.json"
    assert cli(args + ["--cache-dir", str(tmp_path / "c"), "--scheduler", "tcp://127.0.0.1:9", "-o", str(again)]) == 0
    assert again.read_text() == local.read_text()


def test_a_worker_killed_mid_run_gives_identical_records_each_stored_once(cluster, tmp_path):
    from blonde_core.annotation.cluster import backend_factory, client_for

    texts = ted_texts()
    expected = local_records(texts)
    client = client_for(cluster.scheduler_address)
    victim, pid = sorted(client.run(os.getpid).items())[0]
    cache = AnnotationCache(tmp_path)
    puts: collections.Counter = collections.Counter()
    real_put = cache.put_many

    def counting_put(items):
        items = list(items)
        puts.update(k for k, _ in items)
        real_put(items)

    cache.put_many = counting_put
    killed = []

    def progress(done, total):
        if not killed and 0 < done < total // 2:
            busy = client.processing(workers=[victim]).get(victim, ())
            os.kill(pid, signal.SIGKILL)  # the worker process (its annotation process ends with it)
            killed.append(len(busy))

    ann = Annotator(PACK, True, cache, n_process=2, pool=backend_factory(cluster.scheduler_address))
    got = ann.annotate(texts, progress=progress)
    assert killed and killed[0] >= 1, "the worker was not killed while it held a batch"
    assert got == expected
    assert max(puts.values()) == 1 and len(puts) == len(texts)
    assert len(cache.get_many(list(puts))) == len(texts)
    # the nanny started a new worker in its place: the cluster has two again
    end = time.monotonic() + 60
    while len(client.scheduler_info()["workers"]) < 2 and time.monotonic() < end:
        time.sleep(0.2)
    assert victim not in client.scheduler_info()["workers"] and len(client.scheduler_info()["workers"]) == 2


def test_a_worker_with_another_pipeline_is_refused_and_nothing_of_it_is_stored(cluster, tmp_path):
    from blonde_core.annotation import cluster as dask_backend

    client = dask_backend.client_for(cluster.scheduler_address)
    workers = sorted(client.scheduler_info()["workers"])
    fake = "en_core_web_sm-9.9.9/spacy-9.9.9"

    def poison(pack_name=PACK.name, fake=fake):  # this worker now reports another pipeline
        from blonde_core.annotation import cluster as c
        c._WORKER_IDS[pack_name] = fake

    def heal(pack_name=PACK.name):
        from blonde_core.annotation import cluster as c
        c._WORKER_IDS.pop(pack_name, None)

    texts = ted_texts(600)
    expected = local_records(texts)
    client.run(poison, workers=[workers[1]])
    try:
        # checked before the run: refused, nothing annotated, nothing stored
        cache = AnnotationCache(tmp_path / "a")
        ann = Annotator(PACK, True, cache, pool=dask_backend.backend_factory(cluster.scheduler_address))
        with pytest.raises(InputError) as err:
            ann.annotate(texts)
        msg = str(err.value)
        assert err.value.code == InputError.Codes.SCHEDULER and workers[1] in msg and fake in msg and "refused" in msg
        assert cache.get_many([k for k in _keys(ann, texts)]) == {}

        # a worker that joined after the check (its batches refused one by one): what is stored is
        # only what the other worker made, and it equals the local records
        cache = AnnotationCache(tmp_path / "b")
        ann = Annotator(PACK, True, cache, pool=dask_backend.backend_factory(cluster.scheduler_address))
        ann.backend._ready = set(workers)  # as if both had been checked before one changed
        with pytest.raises(InputError, match="refused") as err:
            ann.annotate(texts)
        assert fake in str(err.value)
        stored = cache.get_many(list(_keys(ann, texts)))
        by_key = dict(zip(_keys(ann, texts), texts))
        assert all(rec == expected[by_key[k]] for k, rec in stored.items())
    finally:
        client.run(heal, workers=[workers[1]])


def _keys(ann, texts):
    from blonde_core.annotation.store import cache_key

    return [cache_key(ann.pipeline_id, True, t) for t in texts]


def test_an_unreachable_scheduler_is_named_without_a_traceback(tmp_path):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    p = subprocess.run([sys.executable, "-m", "blonde_core", *ted_args("MiSS"), "--cache-dir", str(tmp_path),
                        "--scheduler", address], capture_output=True, text=True, cwd=ROOT,
                       env=dict(os.environ, BLONDE_SCHEDULER_TIMEOUT="2"))
    assert p.returncode == 2
    assert address in p.stderr and "[E042]" in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert "cannot reach the Dask scheduler" in p.stderr


def test_the_dashboard_server_takes_its_scheduler_from_the_environment(monkeypatch):
    from studio import state as _state

    monkeypatch.setenv("BLONDE_SCHEDULER", "tcp://scheduler.example:8786")
    monkeypatch.setattr(_state, "_SERVER", None)
    engine = _state.server_engine()
    assert engine.scheduler == "tcp://scheduler.example:8786"
    assert engine.info()["backend"] == "Dask scheduler at tcp://scheduler.example:8786"
    monkeypatch.delenv("BLONDE_SCHEDULER")
    monkeypatch.setattr(_state, "_SERVER", None)
    assert _state.server_engine().scheduler is None
    assert "local worker process" in _state.server_engine().info()["backend"]


def test_the_data_page_says_where_spacy_runs(monkeypatch):
    from streamlit.testing.v1 import AppTest

    from studio import state as _state

    for scheduler, expected in (("tcp://scheduler.example:8786", "Dask scheduler at tcp://scheduler.example:8786"),
                                (None, "local worker process")):
        if scheduler:
            monkeypatch.setenv("BLONDE_SCHEDULER", scheduler)
        else:
            monkeypatch.delenv("BLONDE_SCHEDULER", raising=False)
        monkeypatch.setattr(_state, "_SERVER", None)
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
        at.switch_page("pages/data.py").run()
        assert not at.exception
        said = [m.value for m in at.markdown if m.value.startswith("Annotation (spaCy or the language's analyser) runs on")]
        assert said and expected in said[0], said
        privacy = " ".join(c.value for c in at.caption)
        assert ("workers of the Dask scheduler at " + scheduler in privacy) if scheduler else "Dask" not in privacy
