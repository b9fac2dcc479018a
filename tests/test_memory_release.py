"""Memory back after sessions close (issue 63 point 10): what a closed session held is let go by the server's own
cleanup, and an annotation worker that worked and then sat idle is replaced by a fresh one. bench/
bench_sessions_memory.py measures the server's memory with five real WMT24 en-zh sessions; these tests check
the mechanisms it rests on, without a browser."""
import gc
import os
import sys
import time
import weakref

import pytest
from streamlit.testing.v1 import AppTest

from conftest import ROOT, wmt22_layout


def _result_keys(engine) -> set:
    """The content keys the engine's results memo holds results for."""
    return {k[0] for k in list(engine.results._data) if isinstance(k, tuple) and k}


def test_a_closed_sessions_study_and_its_one_domain_form_are_released_by_the_sweep(tmp_path):
    """A session (AppTest running app.py) holds a WMT folder and the sidebar's Domain set to news: the pages score
    the one-domain form, whose results are stored under a key of its own. Once the session is gone, the server's
    sweep (studio.state.presence().sweep, as its sweeper thread calls it) closes it and releases both: no result
    of either key is left in the engine's memo, none of their sentences in the annotation memo, and nothing keeps
    either study alive."""
    from blonde_core.study import Study
    from studio.state import presence, server_engine

    engine = server_engine()
    study = Study.from_wmt(wmt22_layout(tmp_path, 20)["root"], "zh-en", engine=engine)
    assert set(study.domain_counts()) == {"news", "social"}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["data"] = study
    at.session_state[f"domain_{study.key}"] = "news"
    at.run()
    at.switch_page("pages/overview.py").run()
    assert not at.exception, [e.value for e in at.exception]
    sub = at.session_state["scoped_study"][1]
    assert sub.domain == "news" and sub.key != study.key
    keys = {study.key, sub.key}
    assert sub.key in _result_keys(engine), "the Overview scored the one-domain form"
    held = presence().holding()["test session id"]
    assert [s.key for s in held] == [study.key, sub.key]
    ann = engine.annotator(at.session_state["config"].tag_lowercase, "en")
    texts = sub.distinct_texts(at.session_state["config"].tag_lowercase)  # what the pages annotated: news only
    assert ann.known(texts) == len(texts)
    gone = [weakref.ref(study), weakref.ref(sub)]
    del at, study, sub, held  # the browser tab closed: Streamlit drops the session's state
    gc.collect()
    assert all(r() is not None for r in gone), "the server still holds them until its sweep"

    closed = []
    assert presence().sweep(lambda sid: False, engine, close=closed.append, grace=0) >= 2
    assert "test session id" in closed and "test session id" not in presence().holding()
    assert not keys & _result_keys(engine)
    assert ann.known(texts) == 0
    assert all(r() is None for r in gone), [type(r()).__name__ for r in gone if r() is not None]


def _children(pid: int) -> set[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return {int(c) for c in f.read().split()}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server is Linux only; reads /proc")
def test_a_worker_that_worked_and_sat_idle_is_replaced_by_a_fresh_fork():
    """Real workers of the fork server: the one that annotated is closed after `idle` seconds without a job and a
    fresh fork takes its place (the one that never worked stays); the pool answers as before."""
    from blonde_core.annotation.workers import WorkerPool

    pool = WorkerPool("en", 2, idle=1.0)
    first = pool.submit(["The cat sat on the mat."]).result(timeout=180)
    zygote = pool._forks.proc.pid
    before = _children(zygote)
    assert len(before) == 2 and pool.recycled == 0
    deadline = time.monotonic() + 30
    while pool.recycled == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert pool.recycled == 1
    after = _children(zygote)
    while not (len(after) == 2 and len(before & after) == 1) and time.monotonic() < deadline:
        time.sleep(0.05)  # the old worker reads the end of its socket and exits; the fresh fork comes in milliseconds
        after = _children(zygote)
    assert len(after) == 2 and len(before & after) == 1, (before, after)
    assert pool.submit(["The cat sat on the mat."]).result(timeout=60) == first


def test_share_strings_keeps_one_object_per_distinct_string_and_every_value():
    """The records as json.loads gives them (a string object per occurrence) come out equal, with one object per
    distinct string across records and batches (words, tags, entity labels); numbers untouched."""
    import json

    from blonde_core.annotation.workers import share_strings

    line = json.dumps([{"w": ["北京", "的", "北京"], "i": [0, 2, 3], "t": ["ns", "uj", "ns"], "e": [[0, 2, "LOC"]]},
                       {"w": ["北京", "人"], "i": [0, 2], "t": ["ns", "n"], "e": [[0, 2, "LOC"], [3, 300, "PER"]]}])
    strings: dict = {}
    got = share_strings(json.loads(line), strings)
    later = share_strings(json.loads(line), strings)  # a second batch of the same run
    assert got == json.loads(line) == later
    words = [w for r in got + later for w in r["w"] if w == "北京"]
    assert len(words) == 6 and all(w is words[0] for w in words)
    labels = [s[2] for r in got + later for s in r["e"] if s[2] == "LOC"]
    assert len(labels) == 4 and all(x is labels[0] for x in labels)
    assert all(t is strings[t] for r in later for t in r["t"])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc like the worker test above")
def test_the_pools_records_share_their_strings_until_it_sits_idle():
    """A real worker's records reach the caller with one string object per distinct word and tag (across
    batches), equal to what the analyser itself gives; once the worker sat idle the pool keeps no string."""
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.annotation.workers import WorkerPool
    from blonde_core.lang.base import load_pack

    texts = [["The cat sat on the mat.", "The cat ran home."], ["The dog sat on the cat."]]
    pool = WorkerPool("en", 1, idle=1.0)
    got = [pool.submit(t).result(timeout=180) for t in texts]
    nlp = load_analyser(load_pack("en"))
    assert got == [nlp.records(t) for t in texts]
    cats = [w for recs in got for r in recs for w in r["w"] if w == "cat"]
    assert len(cats) == 3 and all(w is cats[0] for w in cats)
    tags = [t for recs in got for r in recs for t in r["t"] if t == "NN"]
    assert len(tags) >= 4 and all(t is tags[0] for t in tags)
    assert pool._strings
    deadline = time.monotonic() + 30
    while pool.recycled == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert pool.recycled == 1 and pool._strings == {}


def test_releasing_the_last_study_empties_the_language_packs_sentence_memos():
    """The zh pack's tense rules memoise their verdict per token context (LanguagePack._verdicts) while sentences
    are counted; the engine empties it when the last study in use is released (the sweep after every session
    closed), not while another study is kept - and the counts are the same before and after."""
    from blonde_core.engine import Engine
    from blonde_core.study import Study

    engine = Engine(cache_mode="off", pool="inline")
    pack = engine.annotator(False, "zh").pack
    rec = {"w": ["他", "明天", "会", "来", "，", "我们", "已经", "吃", "了", "饭", "。"],
           "i": [0, 1, 3, 4, 5, 6, 8, 10, 11, 12, 13], "t": ["r", "t", "v", "v", "x", "r", "d", "v", "ul", "n", "x"],
           "e": []}
    first = pack.tense_tokens(rec)
    assert pack._verdicts, "the rules memoised their verdicts"
    a = Study.from_texts(["我们吃了饭。"], {"A": ["我们吃饭了。"]}, engine=engine)
    b = Study.from_texts(["他会来。"], {"B": ["他来了。"]}, engine=engine)
    engine.release(a, keep=[b])
    assert pack._verdicts, "a study still in use: kept"
    engine.release(b, keep=[])
    assert pack._verdicts == {} and pack._parsed == {}
    assert pack.tense_tokens(rec) == first
