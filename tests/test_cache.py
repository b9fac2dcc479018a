"""The on-disk annotation cache: warm runs skip spaCy; corruption is rebuilt; concurrency."""
import json
import os
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conftest import ROOT, SAMPLE, sample_paths

CMD = [sys.executable, "-m", "blonde_core", "score", "-r", str(SAMPLE / "reference.txt"), "-s",
       *sample_paths(), "--docids", str(SAMPLE / "docids.txt"), "--format", "json", "--per-doc"]


def run(cache_dir, *extra, probe=False):
    env = dict(os.environ, BLONDE_CACHE_DIR=str(cache_dir))
    code = CMD + list(extra)
    if probe:  # report whether spaCy was imported, after the normal output
        code = [sys.executable, "-c",
                "import sys, runpy; sys.argv = ['blonde_core'] + sys.argv[1:];\n"
                "try:\n    runpy.run_module('blonde_core', run_name='__main__')\n"
                "except SystemExit: pass\n"
                "print('SPACY_LOADED=' + str('spacy' in sys.modules), file=sys.stderr)\n"
                "print('LANGID_LOADED=' + str('py3langid' in sys.modules), file=sys.stderr)", *CMD[3:], *extra]
    p = subprocess.run(code, capture_output=True, text=True, env=env, cwd=ROOT)
    return p


def test_warm_run_does_not_load_spacy(tmp_path):
    cold = run(tmp_path, probe=True)
    assert cold.returncode == 0, cold.stderr
    assert "SPACY_LOADED=True" in cold.stderr
    warm = run(tmp_path, probe=True)
    assert warm.returncode == 0, warm.stderr
    assert "SPACY_LOADED=False" in warm.stderr
    assert json.loads(warm.stdout) == json.loads(cold.stdout)
    # nor the language identifier: the texts' language guesses come from the cache too (issue 45, point 7)
    assert "LANGID_LOADED=True" in cold.stderr and "LANGID_LOADED=False" in warm.stderr


def test_language_guesses_are_cached_by_content_and_forgotten_with_the_data(tmp_path):
    from blonde_core.engine import Engine
    from blonde_core.study import Study

    def study():
        return Study.from_files([SAMPLE / "reference.txt"], sample_paths(), docids=SAMPLE / "docids.txt",
                                engine=Engine(cache_mode="disk", cache_dir=tmp_path))
    first = study()
    got = (first.guess_language(), first.source_language(), first.system_languages())
    table = first.engine.disk("langid", validate=bytes)  # the rows as stored
    keys = list(first.language_keys().values())
    assert len(table.get_many(keys)) == 3
    again = study()
    assert (again.guess_language(), again.source_language(), again.system_languages()) == \
        (json.loads(json.dumps(got[0])), got[1], got[2])
    first.engine.forget(first)
    assert table.get_many(keys) == {}


def test_corrupt_cache_file_is_rebuilt(tmp_path):
    first = run(tmp_path)
    db = tmp_path / "annotations.sqlite3"
    assert db.exists()
    db.write_bytes(b"this is not a database" * 100)
    for extra in ("-wal", "-shm"):
        Path(str(db) + extra).unlink(missing_ok=True)
    again = run(tmp_path)
    assert again.returncode == 0, again.stderr
    assert "corrupt" in again.stderr and "Traceback" not in again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)
    # the corrupt file (users' text) is deleted, not kept aside
    assert sorted(p.name for p in tmp_path.iterdir() if "corrupt" in p.name or p.name.endswith(".old")) == []
    # and the rebuilt cache is used by the next run
    third = run(tmp_path, probe=True)
    assert "SPACY_LOADED=False" in third.stderr


def test_truncated_cache_file_is_rebuilt(tmp_path):
    first = run(tmp_path)
    db = tmp_path / "annotations.sqlite3"
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 3])
    again = run(tmp_path)
    assert again.returncode == 0, again.stderr
    assert "Traceback" not in again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)


def test_bad_records_are_annotated_again(tmp_path):
    first = run(tmp_path)
    con = sqlite3.connect(tmp_path / "annotations.sqlite3")
    con.execute("UPDATE ann SET v = ?", (b'{"w": [1, 2], "i": [0]',))
    con.execute("DELETE FROM ftable")  # the run's counts and statistics, kept whole: without them the records
    con.execute("DELETE FROM fstats")  # are read
    con.commit()
    con.close()
    again = run(tmp_path, probe=True)
    assert again.returncode == 0, again.stderr
    assert "SPACY_LOADED=True" in again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)


def test_two_processes_at_once(tmp_path):
    with ThreadPoolExecutor(2) as ex:
        a, b = ex.map(lambda _: run(tmp_path), range(2))
    assert a.returncode == 0 and b.returncode == 0, (a.stderr, b.stderr)
    assert json.loads(a.stdout) == json.loads(b.stdout)
    con = sqlite3.connect(tmp_path / "annotations.sqlite3")
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()


def test_no_cache_writes_nothing(tmp_path):
    p = run(tmp_path / "c", "--no-cache")
    assert p.returncode == 0, p.stderr
    assert not (tmp_path / "c").exists()


def test_unwritable_cache_dir_degrades_to_no_cache(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    p = run(blocker / "sub")  # a directory below a file cannot be created
    assert p.returncode == 0, p.stderr
    assert "continuing without it" in p.stderr


def test_a_cache_opened_while_another_connection_switches_the_new_file_stays_on(tmp_path, capsys):
    """Switching a new cache file to WAL needs a lock SQLite does not wait for: while
    another connection writes to the file before it is in WAL mode (as one does for a
    moment when it switches the file itself), the switch fails at once with "database
    is locked". Eight sessions opening an empty cache together hit this, and the cache
    turned itself off for the whole server. It must wait for the other instead."""
    import threading
    import time

    from blonde_core.annotation.store import AnnotationCache

    path = tmp_path / "annotations.sqlite3"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE early (k)")
    other.execute("BEGIN IMMEDIATE")  # a writer on a file not yet in WAL mode
    threading.Timer(0.3, lambda: other.execute("COMMIT")).start()
    cache = AnnotationCache(tmp_path)
    t = time.monotonic()
    cache.put_many([(b"k", {"w": ["a"], "i": [0], "t": ["DT"], "e": []})])
    assert not cache.disabled and "warning" not in capsys.readouterr().err
    assert time.monotonic() - t >= 0.25  # it waited for the other writer
    assert cache.get_many([b"k"]) == {b"k": {"w": ["a"], "i": [0], "t": ["DT"], "e": []}}
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other.close()


def test_records_of_an_older_schema_are_annotated_again_not_misread(tmp_path, monkeypatch):
    """The record version is part of every cache key: a record stored under an older schema (here version 1,
    without coarse POS and morphology, and with a wrong tag planted in it) is never read as a current one; its
    sentence goes to spaCy again and the current record is stored beside it."""
    import blonde_core.annotation.pipeline as pipeline
    import blonde_core.annotation.store as store_mod
    from blonde_core.annotation.annotator import Annotator
    from blonde_core.annotation.store import AnnotationCache, cache_key
    from blonde_core.lang import load_pack

    pack = load_pack("en")
    text = "she walked home ."
    ann = Annotator(pack, True, AnnotationCache(tmp_path), n_process=1)
    monkeypatch.setattr(store_mod, "RECORD_VERSION", 1)
    old_key = cache_key(ann.pipeline_id, True, text)
    AnnotationCache(tmp_path).put_many([(old_key, {"w": ["she", "walked", "home", "."], "i": [0, 4, 11, 16],
                                                   "t": ["PRP", "VBZ", "NN", "."], "e": []})])
    monkeypatch.setattr(store_mod, "RECORD_VERSION", pipeline.RECORD_VERSION)
    assert cache_key(ann.pipeline_id, True, text) != old_key
    rec = ann.annotate([text])[text]
    assert ann.stats["annotated"] == 1 and ann.stats["cached"] == 0 and ann.loaded_pipeline
    assert rec["t"][1] == "VBD"  # spaCy's tag, not the planted one
    assert AnnotationCache(tmp_path).count() == 2
    again = Annotator(pack, True, AnnotationCache(tmp_path), n_process=1)
    assert again.annotate([text])[text] == rec and again.stats["cached"] == 1 and not again.loaded_pipeline


def test_a_one_megabyte_cap_holds_scoring_ted_and_wmt22(tmp_path, ted):
    """BLONDE_CACHE_MAX_MB=1 (the server's setting; the command line honours it too): TED with
    sacrebleu's statistics, then WMT22 zh-en, leave a cache file of at most 1.5 MB (issue 38)."""
    from conftest import WMT

    env = dict(os.environ, BLONDE_CACHE_DIR=str(tmp_path), BLONDE_CACHE_MAX_MB="1")
    ted_cmd = [sys.executable, "-m", "blonde_core", "score", "-r", str(ted / "refs" / "ref.txt"),
               "-s", *[str(p) for p in sorted((ted / "systems").glob("*.txt"))[:4]], "--docids",
               str(ted / "docids.txt"), "--metrics", "BLEU,chrF", "--format", "json"]
    wmt_cmd = [sys.executable, "-m", "blonde_core", "score", "-r", str(WMT / "refs" / "refA.txt"),
               "-s", str(WMT / "systems" / "Online-W.txt"), str(WMT / "refs" / "refB.txt"),
               "--docids", str(WMT / "docids.blk10.txt"), "--format", "json"]
    sizes = []
    for cmd in (ted_cmd, wmt_cmd):
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
        assert p.returncode == 0, p.stderr
        sizes.append(sum(f.stat().st_size for f in tmp_path.iterdir()))
    assert max(sizes) <= 1.5 * 2 ** 20, sizes
    con = sqlite3.connect(tmp_path / "annotations.sqlite3")
    assert con.execute("SELECT count(*) FROM ann").fetchone()[0] > 0  # the newest records are kept
    con.close()


def test_statistics_rows_decode_in_one_parse_and_a_bad_row_costs_only_itself():
    from blonde_core.annotation.store import decode_numbers

    good = [b"[1,2.5,3]", b"[0,0]"]
    assert decode_numbers.many(good) == [[1, 2.5, 3], [0, 0]]
    for bad in (b"[1,'x']", b"1],[2", b'{"a":1}', b'["x",1]', b"\xff\xfe"):
        got = decode_numbers.many(good + [bad])
        assert got[:2] == [[1, 2.5, 3], [0, 0]] and got[2] is None and got == [decode_numbers(v) for v in good + [bad]]


def test_a_warm_run_reads_the_feature_table_in_binary_form_and_no_record(tmp_path, ted):
    """Issue 45 point 7: the counts of a run's sentences are kept as one binary table; a warm run reads it
    instead of decoding every sentence's record, and gives the same numbers; a view that needs the records
    (document-consistent entities) reads them then, and agrees with a run that never cached a table."""
    from blonde_core.annotation.store import AnnotationCache
    from blonde_core.metric.blonde import BlonDe, table_store
    from blonde_core.metric.settings import ScoreConfig
    from blonde_core.io.readers import plain_corpus

    n = 120
    def head(p, name):
        out = tmp_path / name
        out.write_text("\n".join(p.read_text(encoding="utf-8").splitlines()[:n]) + "\n", encoding="utf-8")
        return out
    ref, smu = head(ted / "refs" / "ref.txt", "ref.txt"), head(ted / "systems" / "SMU.txt", "SMU.txt")
    ids = head(ted / "docids.txt", "docids.txt")
    corpus = plain_corpus([ref], [smu], docids=ids)
    cache = tmp_path / "cache"
    first = BlonDe(ScoreConfig(), cache_dir=cache, n_process=1).evaluate(corpus)
    store = table_store(AnnotationCache(cache))
    assert store is not None
    rows = store._open().execute("SELECT count(*) FROM ftable").fetchone()[0]
    assert rows == 1
    warm = BlonDe(ScoreConfig(), cache_dir=cache, n_process=1)
    reads = []
    get = warm.cache.get_many
    warm.cache.get_many = lambda keys: reads.append(len(keys)) or get(keys)
    again = warm.evaluate(corpus)
    assert reads == []  # no annotation record read
    assert again.table._table is None  # the statistics came whole from the cache: the counts not even read
    assert again.table._records is None  # reading them now (below) reads the binary table, still no record
    assert again.to_dict(per_doc=True) == first.to_dict(per_doc=True)
    assert (again.table.dense == first.table.dense).all()
    # the records come when a view asks for them, from the annotation cache
    assert again.table.records == first.table.records and sum(reads) > 0
    # another matching (two references summed) is its own cached statistics, equal to an uncached run
    two = plain_corpus([ref, head(ted / "refs" / "refB.txt", "refB.txt")], [smu], docids=ids)
    summed = ScoreConfig(aggregation="sum")
    for _ in range(2):  # computed and kept, then read
        got = BlonDe(summed, cache_dir=cache, n_process=1).evaluate(two)
        assert got.to_dict(per_doc=True) == BlonDe(summed, cache=False, n_process=1).evaluate(two).to_dict(per_doc=True)
    assert got.table._table is None
    # document-consistent entities (they read the records) agree with a run that has no cached table
    doc = ScoreConfig(entities="document")
    cached = BlonDe(doc, cache_dir=cache, n_process=1).evaluate(corpus)
    uncached = BlonDe(doc, cache=False, n_process=1).evaluate(corpus)
    assert cached.to_dict(per_doc=True) == uncached.to_dict(per_doc=True)


def test_a_feature_table_is_keyed_by_the_pack_and_the_counting_code(tmp_path):
    """An edited pack file or counting rule never reads an old table: both are in its key."""
    import shutil

    from blonde_core.lang import load_pack
    from blonde_core.metric import features
    from blonde_core.metric.features import table_key

    pack = load_pack("en")
    texts = ["He ran.", "She runs."]
    k = table_key(texts, pack, "pipe-1", True)
    assert k == table_key(list(texts), pack, "pipe-1", True)
    assert k != table_key(texts, pack, "pipe-2", True) and k != table_key(texts, pack, "pipe-1", False)
    assert k != table_key(texts + ["It did."], pack, "pipe-1", True)
    folder = tmp_path / "en2"
    shutil.copytree(Path(pack.source).parent, folder)
    copy = load_pack(str(folder))
    assert table_key(texts, copy, "pipe-1", True) == k  # the same bytes: the same table
    (folder / "pack.json").write_text((folder / "pack.json").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert table_key(texts, load_pack(str(folder)), "pipe-1", True) != k
    code = Path(features.__file__)
    saved = code.read_bytes()
    try:
        code.write_bytes(saved + b"\n# edited\n")
        assert table_key(texts, pack, "pipe-1", True) != k
    finally:
        code.write_bytes(saved)
    assert features.decode_table(b"not a table") is None


def test_clearing_the_data_deletes_its_feature_tables_and_statistics(tmp_path):
    from blonde_core.metric.blonde import table_store
    from blonde_core.study import Engine, ScoreConfig, Study

    eng = Engine(cache_dir=tmp_path)
    study = Study.from_files([SAMPLE / "reference.txt"], sample_paths(), docids=SAMPLE / "docids.txt", engine=eng)
    study.result(ScoreConfig())
    ann = next(iter(eng._annotators.values()))
    con = table_store(ann.cache)._open()
    assert con.execute("SELECT count(*) FROM ftable").fetchone()[0] == 1
    stats = table_store(ann.cache, "fstats")._open()
    assert stats.execute("SELECT count(*) FROM fstats").fetchone()[0] == 1
    eng.forget(study)
    assert con.execute("SELECT count(*) FROM ftable").fetchone()[0] == 0
    assert stats.execute("SELECT count(*) FROM fstats").fetchone()[0] == 0
