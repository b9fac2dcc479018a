"""The leaderboard's intervals (issue 60 point 2): the BlonDe family's 95% interval is BCa (chosen by
bench/bench_intervals.py's subsampling, docs/statistics.md), a row whose discourse categories vanish in resamples
carries ‡ with one line under the table, and `score --ci`, the Overview and Home say the same.  Real pipeline on
TED zh-en and the bundled sample data."""
import json

import numpy as np
import pytest
from scipy import stats as sps

from blonde_core.analysis.stats import metric_fn, policy, resample_weights, unit_stats
from blonde_core.analysis.stats.intervals import ABSENT_WARN, bootstrap_cis
from blonde_core.analysis.stats.leaderboard import lopsided
from blonde_core.cli import main
from blonde_core.metric.registry import DEFAULT_SEED
from blonde_core.metric.settings import DISCOURSE
from blonde_core.study import ScoreConfig, Study
from conftest import SAMPLE, sample_paths


@pytest.fixture(scope="module")
def ted_study(ted):
    return Study.from_files([ted / "refs" / "ref.txt"], sorted((ted / "systems").glob("*.txt")),
                            docids=ted / "docids.txt")


def _ted_args(ted):
    return ["-r", str(ted / "refs" / "ref.txt"), "-s", *map(str, sorted((ted / "systems").glob("*.txt"))),
            "--docids", str(ted / "docids.txt")]


def _resamples(res, name: str, unit: str, n: int):
    """(the system's unit statistics, the summed statistics of the leaderboard's n resamples)."""
    st = unit_stats(res, name, unit)[1]
    w = resample_weights(len(st), n, DEFAULT_SEED)
    return st, (w @ st.reshape(len(st), -1)).reshape((n,) + st.shape[1:])


def _vanished(res, rs) -> dict:
    """{category: (n,) bool}: the resamples in which it has no span on one side, from the scorer's own recall and
    precision (0/0, NaN, exactly when the reference or the system has no weighted span)."""
    return {c: np.isnan(metric_fn(res, f"{c}.R")(rs)) | np.isnan(metric_fn(res, f"{c}.P")(rs))
            for c in DISCOURSE if c in res.config.categories}


def _absent_shares(res, name: str, unit: str, n: int) -> dict:
    """{category: share of the leaderboard's resamples in which it has no span on one side}."""
    return {c: float(v.mean()) for c, v in _vanished(res, _resamples(res, name, unit, n)[1]).items()}


def _scipy_bca(fn, st, n: int) -> list:
    """scipy.stats.bootstrap(method='BCa') from the units themselves (the statistic re-summed from the drawn units,
    scipy's own jackknife and quantiles); it draws the leaderboard's resamples from the same seed (Generator.choice
    with replacement is Generator.integers)."""
    def statistic(i, axis=-1):
        i = np.asarray(i).astype(np.int64)
        return fn(st[i].sum(i.ndim - 1))

    r = sps.bootstrap((np.arange(len(st)),), statistic, n_resamples=n, method="BCa", vectorized=True,
                      rng=np.random.default_rng(DEFAULT_SEED))
    return [float(r.confidence_interval.low), float(r.confidence_interval.high)]


def test_the_intervals_equal_an_independent_computation_on_ted(ted_study):
    """BCa equals scipy's; the leaderboard's interval (policy.CI_METHOD) of a TED row, where pronoun vanishes in
    about 12% of the resamples, is the 2.5th and 97.5th percentiles of the scores of the other resamples."""
    cfg = ScoreConfig()
    res = ted_study.result(cfg)
    unit = ted_study.significance_unit(cfg)["unit"]
    names, n = ["Online-W", "Facebook-AI", "SMU"], 400
    bca = bootstrap_cis(res, ["BlonDe", "BlonD-d"], n=n, unit=unit, method="bca", names=names)
    shown = bootstrap_cis(res, ["BlonDe", "BlonD-d"], n=n, unit=unit, method=policy.CI_METHOD, names=names)
    for m in ("BlonDe", "BlonD-d"):
        fn = metric_fn(res, m)
        for s in names:
            st, rs = _resamples(res, s, unit, n)
            assert bca[m][s]["ci"] == pytest.approx(_scipy_bca(fn, st, n), abs=1e-12), (m, s)
            gone = np.logical_or.reduce(list(_vanished(res, rs).values()))
            assert gone.mean() >= ABSENT_WARN
            kept = fn(rs)[~gone]
            assert shown[m][s]["ci"] == pytest.approx([np.quantile(kept, 0.025), np.quantile(kept, 0.975)], abs=1e-12)
            assert shown[m][s]["bca"] == bca[m][s]["ci"]
    # the example: Online-W's percentile interval hangs far below its score, the one shown does not
    e = shown["BlonDe"]["Online-W"]
    assert lopsided({"score": e["score"], "ci": e["percentile"]}) and not lopsided(e)


def test_unmarked_rows_show_bca():
    """The sample data: a row whose categories all stay in the resamples shows BCa (scipy's), on the board."""
    study = Study.from_files([SAMPLE / "reference.txt"], sample_paths(), docids=SAMPLE / "docids.txt")
    cfg = ScoreConfig()
    res = study.result(cfg)
    b = study.board(cfg, 300)
    unmarked = [s for s in res.names if s not in b["marked"]]
    assert unmarked
    for s in unmarked:
        st, _ = _resamples(res, s, b["unit"], 300)
        assert b["intervals"]["BlonDe"][s]["ci"] == pytest.approx(_scipy_bca(metric_fn(res, "BlonDe"), st, 300),
                                                                  abs=1e-12)


def _expected_marked(study, n: int) -> list:
    cfg = ScoreConfig()
    res = study.result(cfg)
    unit = study.significance_unit(cfg)["unit"]
    return [s for s in res.names if max(_absent_shares(res, s, unit, n).values()) >= ABSENT_WARN]


def test_the_mark_goes_to_the_systems_whose_categories_vanish(ted_study, ted, capsys):
    """TED: the reference's four pronoun spans sit in few blocks, so every system's resamples lose the category
    (about 12%): all thirteen rows marked.  The sample data: only the systems whose own resamples lose a
    category.  The board, the leaderboard's records and `score --ci` (text and JSON) mark the same rows."""
    n = 1000
    b = ted_study.board(ScoreConfig(), n)
    want = _expected_marked(ted_study, n)
    assert sorted(b["marked"]) == sorted(want) == sorted(b["clusters"])  # TED: all of them
    assert b["ci_method"] == policy.CI_METHOD and b["signature"].endswith(f"|method:{policy.CI_METHOD}")
    assert b["mark_line"].startswith("‡ pronoun has no span on one side") and "Shown for these rows: " in b["mark_line"]
    for s in b["marked"]:  # the interval over all resamples is offered beside the one shown
        assert b["alternatives"]["percentile"]["BlonDe"][s] == b["intervals"]["BlonDe"][s]["percentile"]
    sample = Study.from_files([SAMPLE / "reference.txt"], sample_paths(), docids=SAMPLE / "docids.txt")
    sb = sample.board(ScoreConfig(), n)
    want = _expected_marked(sample, n)
    assert sorted(sb["marked"]) == sorted(want) and 0 < len(want) < len(sb["clusters"])
    rec = {r["system"]: r["CI mark"] for r in sample.leaderboard(ScoreConfig(), n).records()}
    assert rec == {s: "‡" if s in want else "" for s in sb["clusters"]}
    # score --ci on TED: the JSON's fields and the text's rows and line
    assert main(["score", *_ted_args(ted), "--metrics", "BLEU", "--ci", str(n), "--format", "json"]) == 0
    lb = json.loads(capsys.readouterr().out)["leaderboard"]
    assert lb["marked"] == b["marked"] and lb["mark_line"] == b["mark_line"] and lb["signature"] == b["signature"]
    assert main(["score", *_ted_args(ted), "--metrics", "BLEU", "--ci", str(n)]) == 0
    text = capsys.readouterr().out.splitlines()
    head = next(k for k, line in enumerate(text) if "BlonDe 95% CI" in line)
    rows = text[head + 2:head + 2 + len(b["clusters"])]
    for row in rows:
        name, cells = row.split()[0], row.split("[")[1:]
        assert cells[0].rstrip().endswith("‡") == cells[1].rstrip().endswith("‡") == (name in b["marked"])
        assert not cells[2].rstrip().endswith("‡")  # BLEU's interval is not the BlonDe family's
    assert text[head + 2 + len(b["clusters"])] == b["mark_line"]


def test_the_overview_home_and_score_ci_show_the_same_intervals_and_marks(capsys):
    """The sample data as the app loads it: the Overview's compact cell and Home's "95% CI" carry the CLI's
    BlonDe interval and its mark, and the one line under each table is the CLI's."""
    from test_app import assert_clean, new_app

    args = ["score", "-r", str(SAMPLE / "reference.txt"), "-s", *sample_paths(), "--docids", str(SAMPLE / "docids.txt"),
            "-an", str(SAMPLE / "blonde_plus_annotation.txt"), "-p", "--ci", "1000", "--format", "json"]
    assert main(args) == 0
    lb = json.loads(capsys.readouterr().out)["leaderboard"]
    assert lb["marked"] and lb["signature"].endswith(f"|method:{policy.CI_METHOD}")
    iv = lb["intervals"]["BlonDe"]
    at = new_app(board="compact")
    at.button[0].click().run()  # Load sample data
    at.switch_page("pages/overview.py").run()
    assert_clean(at, "overview")
    board = at.dataframe[0].value
    for name, cell in zip(board["system"], board["BlonDe [95% CI]"]):
        lo, hi = iv[name]
        assert f"[{100 * lo:.1f}, {100 * hi:.1f}]" in cell
        assert cell.endswith(" ‡") == (name in lb["marked"]), (name, cell)
    captions = [c.value for c in at.caption]
    assert any(c.replace("\\", "") == lb["mark_line"] for c in captions), captions[:4]
    at.switch_page("pages/home.py").run()
    assert_clean(at, "home")
    top = at.dataframe[0].value
    for name, cell in zip(top["system"], top["95% CI"]):
        lo, hi = iv[name]
        assert cell == f"[{100 * lo:.2f}, {100 * hi:.2f}]" + (" ‡" if name in lb["marked"] else "")
    assert any(c.value.replace("\\", "") == lb["mark_line"] for c in at.caption)
