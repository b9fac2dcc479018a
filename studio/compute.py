"""Results, through the study (every cache is keyed by the study's content key + settings), with a progress bar
or a spinner while they are computed."""
from __future__ import annotations

import time

import streamlit as st

from blonde_core.study import CATALOG, DEFAULT_SEED, InputError, ScoreConfig, Study
from blonde_core.study import significance_sentence, time_left
from studio.session import config, data, scoped
from studio.text import md_escape


class Progress:
    """A progress bar that appears only when there is work to show, redrawn at most once a
    second (each redraw costs every waiting browser tab ~20 ms of CPU; eight tabs on the
    server's machine took that from the annotation they were waiting for), with an estimate of
    the time left once it has seen a few seconds of progress."""

    EVERY = 1.0

    def __init__(self, what: str):
        self.what, self.bar, self.last = what, None, 0.0
        self.since, self.done_at_start = 0.0, 0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.bar is None:
            if total == 0 or done >= total:
                return
            self.bar = st.progress(0.0)
            self.since, self.done_at_start = now, done
        elif done < total and now - self.last < self.EVERY:
            return
        self.last = now
        eta = time_left(done, total, self.since, self.done_at_start, now)
        self.bar.progress(min(done / max(total, 1), 1.0),
                          text=f"{self.what}: {done:,} of {total:,}" + (f" · {eta}" if eta else ""))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.empty()


def result(d: Study | None = None, cfg: ScoreConfig | None = None):
    """The core's Analysis for the loaded data and current settings (None after showing an error).
    Counts are cached per counting settings; weights, preset, categories, mean and
    smoothing only re-score them."""
    d = d or scoped(data())
    cfg = cfg or config()
    bar = Progress("Annotating (distinct sentences)")
    try:
        return d.analysis(cfg, progress=bar)
    except InputError as exc:
        st.error(md_escape(exc.for_page()))
        if exc.code == InputError.Codes.SENTENCE_COUNTS:
            st.info("Switch on **Re-segment** in the sidebar to cut such systems' documents into the reference's "
                    "sentences (every sentence view then works, and what a system left out is reported), or set "
                    "**Matching** to *document* to score whole documents.")
        return None
    finally:
        bar.close()


def standard(d: Study, cfg: ScoreConfig, metrics=CATALOG.sacrebleu):
    """sacrebleu's metrics, one at a time with a progress bar each (cached per study)."""
    for m in metrics:
        if not d.standard_ready(cfg.granularity, m):
            bar = Progress(f"{m} with sacrebleu (segments)")
            try:
                d.standard(cfg.granularity, m, progress=bar)
            finally:
                bar.close()
    return d.standards(cfg.granularity, metrics)


def compare(d: Study, cfg, res=None, metric="BlonDe", test="bootstrap", unit="doc", n=1000, seed=DEFAULT_SEED,
            std_metrics=(), cis: bool = True) -> dict:
    with st.spinner("Testing every pair of systems..."):
        return d.compare(cfg, metric=metric, test=test, unit=unit, n=n, seed=seed, std_metrics=tuple(std_metrics),
                         cis=cis)


def companions(d: Study, cfg, res=None) -> dict:
    """{system: {metric: value, "documents": {doc: {metric: value}}}} on the 0-100 scale."""
    with st.spinner(f"Computing {', '.join(CATALOG.companions)}..."):  # the registry's companion metrics
        return d.companions(cfg)


def apt_scores(d: Study, pair: str) -> dict:
    with st.spinner("Aligning with eflomal and computing APT..."):
        return d.apt(pair)


def leader_sentence(d: Study, cfg: ScoreConfig, res, b: dict, n: int = 1000) -> tuple[list, str | None]:
    """(systems by BlonDe F1, best first; the sentence that says whether the leader is significantly better
    than the runner-up) from the leaderboard's own cached test (b: Study.board): the Home page and the Overview."""
    ci = b["intervals"]["BlonDe"]
    best = sorted((x for x in res.names if ci[x]["score"] is not None), key=lambda x: -ci[x]["score"])
    if len(best) < 2:
        return best, None
    tested = d.compare(cfg, "BlonDe", CATALOG.policy.TEST, b["unit"], n)
    return best, significance_sentence(tested, best[0], best[1], CATALOG.policy.CORRECTION, 100, name=md_escape)
