"""Shared UI helpers for the pages (Streamlit only; every number comes from blonde_core)."""
from __future__ import annotations

import html
import json
import os
import threading
import time
from pathlib import Path

import streamlit as st
from studio import internals


def route_through_app() -> None:
    """Every page is routed by st.navigation in app.py. Streamlit decides once per server
    process, when the first session starts, to treat a pages/ folder as legacy
    auto-discovered pages, and drops that only once st.navigation has run. A first visitor
    who opened a page's own address (or clicked a page before app.py got that far) had that
    page file run on its own - no settings sidebar - and the legacy list of file names
    (_shared and _views among them) in the sidebar. app.py clears the flag itself first
    thing (its own first run needs no rerun); a page run on its own gets here through this
    module's import and starts over through app.py."""
    if internals.legacy_pages_on():
        internals.legacy_pages_off()
        if internals.in_script_run() and not st.session_state.get("_routing_rerun"):
            st.session_state["_routing_rerun"] = True  # once per session: never a rerun loop
            st.rerun()


route_through_app()

import numpy as np  # noqa: E402 - after the routing check, which must come before anything slow
import pandas as pd  # noqa: E402

from blonde_core.render import shown_f1, spans_text  # noqa: F401 - the pages' F1 and span counts, one rule with the report
from blonde_core.study import CATALOG, DEFAULT_SEED, InputError, ScoreConfig, Study
from blonde_core.study import apt_of_links, frame_csv, latex_table, significance_sentence, text_lines, text_script, time_left
from studio.state import STARTED, server_engine, study_store

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data"
SAMPLE_SYSTEMS = ["consistent", "names", "tense", "pronouns", "markers"]
# the shared data folder (BLONDE_SHARED_DIR, as the tests read it; default ../shared beside the project)
SHARED = Path(os.environ.get("BLONDE_SHARED_DIR") or ROOT.parent / "shared")
TED = SHARED / "data" / "ted-zhen"


LoadedData = Study  # everything one user loaded (blonde_core.study)
TOKEN_PARAM = "s"  # the URL parameter that brings a session's data back after a reload


def browser_id() -> str | None:
    """Who loaded the data, as far as the server can tell: a hash of the secret in Streamlit's
    XSRF cookie. That cookie lives as long as the browser session and is never in the address
    bar, so a reload of the same tab (or another tab of the same browser) has it and a link
    opened in another browser has not. Its value is masked anew in every response
    ("2|mask|masked secret|time"); the secret under the mask stays. None when the browser sends
    no such cookie (XSRF protection off; AppTest): then every holder of a token is its owner."""
    import hashlib

    try:
        raw = st.context.cookies.get(internals.XSRF_COOKIE)
    except Exception:  # noqa: BLE001 - no request context (AppTest)
        return None
    if not isinstance(raw, str) or not raw:
        return None
    return hashlib.sha256(b"blonde-studio-owner|" + internals.xsrf_secret(raw)).hexdigest()


def data() -> Study | None:
    """This session's data; after a browser reload, restored from the server's store
    through the unguessable token in the URL. A token that another browser loaded opens a
    copy under a new token of this session's own: whatever this session then loads or
    clears leaves the other browser's data as it was."""
    d = st.session_state.get("data")
    if d is None:
        token = st.query_params.get(TOKEN_PARAM)
        d, mine, shared = study_store().open(token, browser_id())
        if d is not None:
            st.session_state["data"] = d
            st.session_state["data_token"] = mine
            st.session_state["shared_copy"] = shared
            if mine != token:
                st.query_params[TOKEN_PARAM] = mine
    return d


def _annotate_ahead(study: Study) -> None:
    """Start annotating the loaded data at once, in the background (the core's
    Study.prefetch): the workers are busy while the user is still reading the Data page,
    and the Overview then waits only for what is left. It stops when this session loads
    other data, clears it, or leaves (its browser tab is closed)."""
    stop = st.session_state["annotate_ahead_stop"] = threading.Event()
    sid = internals.session_id()
    runtime = internals.runtime()

    def keep_going() -> bool:
        return not stop.is_set() and (runtime is None or sid is None or internals.session_is_live(runtime, sid))
    cfg = config()
    guess = study.guess_language()["language"]  # the sidebar's default for the new data: its own language
    if guess is not None and guess != cfg.lang:  # and the case that language's pack reads text in
        cfg = cfg.with_(lang=guess, weights=None, lowercase=Study.pack_lowercase(guess))
    st.session_state["annotating_ahead"] = study.prefetch(cfg, keep_going) is not None


def set_data(study: Study | None) -> None:
    """Make study this session's data (None clears it, and what was computed from it)."""
    old, token = st.session_state.get("data"), st.session_state.get("data_token")
    store, me = study_store(), browser_id()
    ahead = st.session_state.pop("annotate_ahead_stop", None)
    if ahead is not None:
        ahead.set()  # the previous data's background annotation sends nothing more
    st.session_state.pop("shared_copy", None)
    if study is None:
        from studio import release

        release.forget(server_engine())
        store.drop(token, me)
        if old is not None and not store.holds(old):  # another session's copy keeps what it uses
            server_engine().forget(old)
            held = st.session_state.pop("scoped_study", None)
            if held is not None and held[1] is not old:  # its re-segmented or one-domain form, too
                server_engine().forget(held[1])
        st.session_state.pop("data", None)
        st.session_state.pop("data_token", None)
        st.query_params.pop(TOKEN_PARAM, None)
        return
    from studio import release

    if not release.holds(study):  # other data than the release's pairs: the release is forgotten
        release.forget(server_engine())
    if study.engine is not server_engine():  # every study of this server computes through its one engine
        study = study.with_engine(server_engine())
    study = store.intern(study)  # the same files loaded by another session: one copy for both
    st.session_state["data"] = study
    st.session_state["data_token"] = store.put(study, token, me)
    st.query_params[TOKEN_PARAM] = st.session_state["data_token"]
    if old is not None and old.key != study.key and not store.holds(old) and not release.holds(old):
        server_engine().release(old)  # replaced: its computed results go (its cached sentences stay; a release's
        # other pairs keep theirs for a switch back)
    _annotate_ahead(study)


def keep_token() -> None:
    """Keep the token in the URL (Streamlit clears query parameters on page changes)."""
    token = st.session_state.get("data_token")
    if token and st.session_state.get("data") is not None and st.query_params.get(TOKEN_PARAM) != token:
        st.query_params[TOKEN_PARAM] = token


def sidebar_nav(box, pages: dict) -> None:
    """The sidebar's page links, section by section, each with this session's data token in its query: a page
    change is then one history entry, with the token already in the address (app.py says why)."""
    q = token_query()
    with box:
        for section, items in pages.items():
            st.caption(section)
            for p in items:
                st.page_link(p, query_params=q)


def start_page(title: str, what: str):
    """Title, then the loaded data, the settings and the core's Analysis (the Result and what
    a page asks of it); stops the page with a message saying what to do when something is missing."""
    st.title(title)
    d = need_data(what)
    if d is None:
        st.stop()
    cfg = config()
    no_pack_stop(d, cfg, what)
    res = result(d, cfg)
    if res is None:
        st.stop()
    return d, cfg, res


def no_pack_stop(d, cfg: ScoreConfig, what: str) -> None:
    """Where a BlonDe number would be, for a target language without a pack: the one sentence that says so,
    where to go for what is computed, and the page stops."""
    msg = d.no_pack(cfg)
    if msg is None:
        return
    st.error(md(msg) + f": {md(what)} needs the BlonDe family.", icon=":material/translate:")
    c1, c2, c3 = st.columns(3)
    c1.page_link("pages/overview.py", label="Overview (chrF, BLEU)", icon=":material/leaderboard:")
    c2.page_link("pages/correlation.py", label="Human correlation", icon=":material/scatter_plot:")
    c3.page_link("pages/judgments.py", label="Human judgments", icon=":material/rule:")
    st.stop()


GONE = {
    "restart": "The data this link pointed to is gone: the server was restarted since it was loaded (at {started}), "
               "and uploads are kept in its memory only. Load the files again on **Data** (the link then changes).",
    "expired": "This link has expired: its data was cleared, or unused for longer than {hours:g} hours, and is "
               "deleted. Load the files again on **Data**.",
    "unknown": "This link is not known to this server: it was never made here, or newer uploads pushed its data "
               "out (the server keeps the {items} most recently used). Load the files again on **Data**.",
}


def gone_link() -> str | None:
    """When the address holds a token that opens nothing: why, in plain words (None otherwise)."""
    import datetime

    token = st.query_params.get(TOKEN_PARAM)
    if not token or st.session_state.get("data") is not None:
        return None
    store = study_store()
    why = store.why(token)
    if why is None:
        return None
    started = datetime.datetime.fromtimestamp(STARTED, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return GONE[why].format(started=started, hours=store.ttl / 3600, items=store.max_items)


def scoped(d: Study | None) -> Study | None:
    """The loaded data as the pages score it: re-segmented when the sidebar's Re-segment is on (Study.resegmented)
    and restricted to the sidebar's domain when one is chosen (Study.in_domain); kept for this session, so it is
    built once per choice.  The loaded data itself stays as uploaded."""
    dom = st.session_state.get("domain")
    if d is None:
        return d
    dom = dom if dom in d.domain_counts() else None
    uneven = d.corpus.misaligned() if st.session_state.get("resegment") and not d.corpus.seg_method else []
    cut = bool(uneven)
    if dom is None and not cut:
        return d
    held = st.session_state.get("scoped_study")
    if held is not None and held[0] == (d.key, dom, cut):
        return held[1]
    sub = d
    if cut:  # the sidebar's Re-segment (the Data page's checkbox does it when loading)
        with st.spinner(f"Re-segmenting {len(uneven)} system(s) into the reference's sentences..."):
            try:
                sub = sub.resegmented()
            except InputError as exc:
                st.sidebar.error(md(exc.for_page()))
    sub = sub.in_domain(dom)
    st.session_state["scoped_study"] = ((d.key, dom, cut), sub)
    return sub


def domain_caption(d: Study | None) -> None:
    """One line under a page's title when the sidebar restricts the pages to a domain, and one when
    re-segmentation set human segment judgments aside."""
    for msg in (d.messages.get("resegment", []) if d is not None else []):
        note_line("Human judgments: " + md(first_clause(msg)), md(msg[0].upper() + msg[1:]) + ".")
    if d is not None and d.domain:
        st.caption(f":material/filter_alt: Domain **{md(d.domain)}** only (the sidebar's Domain): "
                   f"{len(d.corpus.doc_ids)} of {len(data().corpus.doc_ids)} documents, {d.corpus.n_segments} "
                   "segments." + ("".join(f" {md(x[0].upper() + x[1:])}." for x in d.messages.get("domain", []))))


def need_data(what: str = "this page") -> LoadedData | None:
    d = scoped(data())
    domain_caption(d)
    if d is None:
        gone = gone_link()
        if gone:
            st.warning(gone, icon=":material/link_off:")
        else:
            st.info(f"No data yet. Open **Data** to upload references and system outputs, or load the "
                    f"bundled sample, to see {what}.")
        st.page_link("pages/data.py", label="Go to Data", icon="📂")
    return d


# --- settings (sidebar, apply everywhere) --------------------------------------

def _weights_input(cat: str, preset: str, lang: str) -> tuple | None:
    default = ScoreConfig(preset=preset, lang=lang).resolved_weights[cat]
    names = ", ".join(str(f) for f in CATALOG.language(lang).feature_names(cat))
    txt = st.text_input(f"{cat} weights", value=", ".join(f"{x:.10g}" for x in default),
                        key=f"w_{cat}_{preset}_{lang}", help=f"{len(default)} comma-separated numbers: {names}")
    try:
        vals = tuple(float(x) for x in txt.split(","))
    except ValueError:
        st.error(f"{cat} weights: numbers separated by commas, please")
        return None
    if len(vals) != len(default):
        st.error(f"{cat} needs {len(default)} weights")
        return None
    return None if np.allclose(vals, default, rtol=1e-6, atol=1e-9) else vals


def _setting(name: str):
    return next(s for f, s in CATALOG.settings if f.name == name)


def sidebar_settings() -> ScoreConfig:
    """The sidebar's settings: labels, help and choices from their one declaration (ScoreConfig's fields)."""
    sb = st.sidebar
    sb.header("Settings")
    words = CATALOG.category_words
    s = _setting("preset")
    preset = sb.selectbox(s.label, list(s.choices), key="preset", help=s.help)
    s = _setting("categories")
    cats = sb.multiselect(s.label, list(s.choices), default=list(s.choices), key="categories",
                          format_func=lambda c: words[c]["label"])
    s = _setting("aggregation")
    agg = sb.radio(s.label, list(s.choices), horizontal=True, key="aggregation", help=s.help)
    s = _setting("granularity")
    gran = sb.radio(s.label, list(s.choices), horizontal=True, key="granularity", help=s.help)
    d = data()
    guess = d.guess_language()["language"] if d is not None else None
    packs = CATALOG.languages
    # the guessed language is offered even without a pack (then the BlonDe family is off, and every page says so)
    langs = packs + ([guess] if guess and guess not in packs else [])
    s = _setting("lang")
    lang = sb.selectbox(s.label, langs, index=langs.index(guess) if guess in langs else langs.index("en"),
                        key=f"lang_{d.key if d is not None else 'none'}",
                        format_func=lambda c: f"{c} - {CATALOG.language_name(c)}" + ("" if c in packs else
                                                                                    " (no pack: BlonDe off)"),
                        help="The language pack the target texts are scored with (tenses, gendered pronouns, "
                             "discourse markers, entity labels, analyser); the default is guessed from the "
                             "reference" + (f": {guess}" if guess else "") + ". A language without a pack gets "
                             "chrF, BLEU and TER (tokenized for it), metrics computed elsewhere and human judgments, "
                             "no BlonDe number.")
    counts = d.domain_counts() if d is not None else {}
    if len(counts) > 1:  # a WMT folder's domains: every page can look at one of them
        doms = [None] + sorted(counts)
        st.session_state["domain"] = sb.selectbox(
            "Domain", doms, key=f"domain_{d.key}",
            format_func=lambda x: f"all ({len(d.corpus.doc_ids)} documents)" if x is None else
            f"{x} ({counts[x]} documents)",
            help="Score only the documents of one domain (the WMT folder's documents file gives each document's): "
                 "texts, human judgments (each system's score the mean of its segments in the domain) and "
                 "metrics computed elsewhere. Enters the signature (domain:NAME) and the command line (--domain).")
    else:
        st.session_state["domain"] = None
    uneven = d.corpus.misaligned() if d is not None and not d.corpus.seg_method else []
    if uneven:  # systems whose sentences do not line up: re-segment them here as well as on the Data page
        st.session_state["resegment"] = sb.toggle(
            f"Re-segment {len(uneven)} system(s) whose sentences do not line up", key=f"reseg_{d.key}",
            help="Each system document with another number of segments than its reference document is cut into "
                 "exactly the reference's segments by mwerSegmenter's alignment (mweralign), so that sentence-level "
                 "matching and every sentence view work; what a system left out is reported (Overview: omitted; "
                 "Documents: marked). Systems: " + ", ".join(uneven) + ". Enters the signature (seg:mwer-2) and "
                 "the command line (--resegment).")
    else:
        st.session_state["resegment"] = False
    s = _setting("lowercase")
    lc_default = Study.pack_lowercase(lang)  # the pack's: yes for en/fr (the package's), no where case is read
    lc = sb.toggle(s.label, value=lc_default, key=f"lowercase_{lang}",
                   help=s.help + (" The default follows the language pack: " + ("on" if lc_default else "off, the "
                                  "analyser reads names and forms from the text as written") + "."))
    s = _setting("tag_as_written")  # only where an analyser tags lowercased text (a pack, lowercasing on)
    tag_written = sb.toggle(s.label, value=False, key=f"tag_as_written_{lang}",
                            help=s.help + ". Enters the signature (tag:written) and the command line "
                                          "(--tag-as-written).") if lc and lang in packs else False
    with sb.expander("More settings"):
        s = _setting("average")
        avg = st.radio(s.label, list(s.choices), horizontal=True, key="average")
        s = _setting("smooth")
        smooth = st.selectbox(s.label, list(s.choices), key="smooth")
        s = _setting("absent")
        skip = st.toggle(s.label, value=False, key="skip_absent",
                         help=s.help + ". Enters the signature (absent:skip) and the command line (--skip-absent).")
        s = _setting("entities")
        whole_doc = st.toggle(s.label, value=False, key="doc_entities",
                              help=s.help + ". Enters the signature (ent:doc) and the command line (--entities "
                                            "document).")
        weights = {}
        for c in CATALOG.categories if lang in packs else ():
            w = _weights_input(c, preset, lang)
            if w is not None:
                weights[c] = w
    try:
        cfg = ScoreConfig(preset=preset, categories=tuple(cats) or CATALOG.categories, weights=weights or None,
                          aggregation=agg, granularity=gran, lowercase=lc, tag_as_written=tag_written,
                          average=avg, smooth=smooth,
                          absent="skip" if skip else "keep", lang=lang,
                          entities="document" if whole_doc else "tagged")
    except InputError as exc:
        sb.error(exc.for_page())
        cfg = ScoreConfig(lang=lang)
    note = d.language_note(cfg) if d is not None else None
    if note:
        sb.warning(md(note[0].upper() + note[1:]) + ".", icon=":material/translate:")
    said = Study.pack_notes(cfg)
    for c in said["caveats"]:
        sb.warning(md(c), icon=":material/report:")
    marked = tagging_marked(cfg)
    if marked:
        sb.warning(f"† {md(cfg.lang)} tagging below the bar: " + "; ".join(
            f"{md(c)} {md(v)}" for c, v in marked.items()) + f" ({TAGGING_DOC})",
            icon=":material/rule:")
    for n in said["notes"]:
        sb.caption(md(n))
    st.session_state["config"] = cfg
    return cfg


def config() -> ScoreConfig:
    return st.session_state.get("config") or ScoreConfig()


# --- results, through the study (every cache is keyed by the study's content key + settings)

class _Progress:
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
    bar = _Progress("Annotating (distinct sentences)")
    try:
        return d.analysis(cfg, progress=bar)
    except InputError as exc:
        st.error(md(exc.for_page()))
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
            bar = _Progress(f"{m} with sacrebleu (segments)")
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


# --- output helpers ------------------------------------------------------------

COPY_STYLE = ("font-family:'Source Code Pro',ui-monospace,monospace;font-size:.8rem;line-height:1.5;"
              "white-space:pre-wrap;word-break:break-all;user-select:all;-webkit-user-select:all;cursor:text;"
              "background:rgba(128,128,128,.1);border-radius:.5rem;padding:.6rem .9rem;margin:0 0 .5rem 0")


def copyable(text: str) -> None:
    """A signature or a command, as escaped text in a code block that one click selects
    whole (CSS user-select: all; then Ctrl+C).  Not st.code: its syntax highlighter is the
    heaviest thing a page draws after its numbers (~0.27 s of a browser's CPU for its first
    code block, measured in Chromium), and every evaluation page ends with these blocks."""
    st.html(f'<pre class="bl-copy" title="One click selects it all; then copy (Ctrl+C)" style="{COPY_STYLE}">'
            f'{esc(text)}</pre>')


def signature_box(sig: str, extra: str = "", command: tuple[str, list[str]] = ("score", []),
                  study: Study | None = None) -> None:
    """The signature, and the command line that reproduces the page's numbers from the
    loaded files (command: the subcommand and its own arguments; study: the data the page
    scored, when not the loaded study itself; the Sandbox shows its own text's command:
    sandbox_script)."""
    import shlex

    cfg = config()
    st.caption("Signature of the settings that made these numbers (a click selects it whole):")
    copyable(sig + extra)
    d = study or scoped(data())
    cmd = d.command(cfg, command[0], command[1]) if d is not None else None
    if cmd is None:
        return
    with st.expander("Reproduce on the command line"):
        copyable(" ".join(shlex.quote(x) for x in cmd))
        if d.corpus.boundaries == "structured":
            st.caption("The data came from one structured file: use `--input FILE` instead of -r/-s.")


def sandbox_script(box: dict, cfg: ScoreConfig) -> str:
    """Shell lines that write the sandbox texts to files and score them (the core's rules: text_script)."""
    return text_script(box, cfg)


def to_latex(df: pd.DataFrame, caption: str = "") -> str:
    """A table as booktabs LaTeX, ASCII only (the core's report.latex_table: arrows as math, accents dropped)."""
    return latex_table(df.to_dict("records"), [str(c) for c in df.columns], caption=caption,
                             label="tab:" + "-".join(str(c) for c in df.columns[:1]))


def keep_choices(*keys: str) -> None:
    """Keep these widgets' values through runs where the widgets are not drawn (a closed lazy tab's): Streamlit
    forgets the value of a widget a run did not draw, unless the run sets it."""
    for k in keys:
        if k in st.session_state:
            st.session_state[k] = st.session_state[k]


def system_order(res, names=None, key: str = "sys_order", container=None) -> list[str]:
    """The systems on a page's axes: in the leaderboard's rank order (BlonDe F1, best first) or A-Z, as the
    user chose with the switch this draws (one preference for every page)."""
    names = list(names if names is not None else res.names)
    pref = st.session_state.get("pref_sys_order", "rank")

    def keep():
        st.session_state["pref_sys_order"] = st.session_state[key]

    if st.session_state.get(key) not in ("rank", "A-Z"):
        st.session_state[key] = pref
    (container or st).segmented_control("Systems in", ["rank", "A-Z"], key=key, on_change=keep,
                                        format_func={"rank": "rank order (BlonDe)", "A-Z": "A-Z"}.get,
                                        help="The order of the systems on this page's axes and tables: the "
                                             "leaderboard's (BlonDe F1, best first) or alphabetical.")
    if st.session_state.get(key) == "A-Z":
        return sorted(names, key=str.lower)
    return ranked(res, names)


def leader_sentence(d: Study, cfg: ScoreConfig, res, b: dict, n: int = 1000) -> tuple[list, str | None]:
    """(systems by BlonDe F1, best first; the sentence that says whether the leader is significantly better
    than the runner-up) from the leaderboard's own cached test (b: Study.board): the Home page and the Overview."""
    ci = b["intervals"]["BlonDe"]
    best = sorted((x for x in res.names if ci[x]["score"] is not None), key=lambda x: -ci[x]["score"])
    if len(best) < 2:
        return best, None
    tested = d.compare(cfg, "BlonDe", CATALOG.policy.TEST, b["unit"], n)
    return best, significance_sentence(tested, best[0], best[1], CATALOG.policy.CORRECTION, 100, name=md)


def human_verdict_box(d: Study, cfg: ScoreConfig, n: int = 1000) -> dict | None:
    """Whether the loaded human judgments agree with BlonDe's leader (Study.human_verdict), said before the
    leaderboard - a disagreement as the headline, in a warning box; the words carry the verdict, the box's
    colour only repeats it. Home and the Overview; `score --human` prints the same sentence."""
    if d.human is None:
        return None
    with st.spinner("Weighing the human judgments..."):
        v = d.human_verdict(cfg, n)
    if v is None:
        return None
    icon = {"agree": ":material/thumb_up:", "partly": ":material/balance:", "disagree": ":material/warning:",
            "too few": ":material/info:"}[v["state"]]
    box = {"agree": st.success, "partly": st.info, "disagree": st.warning, "too few": st.info}[v["state"]]
    head, _, rest = v["sentence"].partition(": ")
    box(f"**{md(head)}:** {md(rest)}", icon=icon)
    return v


def ranked(res, names=None) -> list[str]:
    """The systems in the leaderboard's order: BlonDe F1, best first (a system without a score last)."""
    names = list(names if names is not None else res.names)
    f1 = {n: res.scores(n)["BlonDe"]["F1"] for n in names}
    return sorted(names, key=lambda n: (f1[n] is None, -(f1[n] or 0.0)))


def downloads(df: pd.DataFrame, name: str, latex: bool = False, key: str = "") -> None:
    """A table's CSV, JSON (and LaTeX) buttons.  Each file is made when its button is clicked (Streamlit calls
    the function then; a click does not rerun the page), not on every run of the page: three tables' files
    were a fifth of the Categories page's time."""
    cols = st.columns(3 if latex else 2)
    cols[0].download_button("CSV", lambda: frame_csv(df), f"{name}.csv", "text/csv", key=f"csv_{key}{name}",
                            icon=":material/download:", on_click="ignore")
    cols[1].download_button("JSON", lambda: df.to_json(orient="records", force_ascii=False, indent=1).encode(),
                            f"{name}.json", "application/json", key=f"json_{key}{name}", icon=":material/download:",
                            on_click="ignore")
    if latex:
        cols[2].download_button("LaTeX", lambda: to_latex(df).encode(), f"{name}.tex", "text/x-tex",
                                key=f"tex_{key}{name}", icon=":material/download:", on_click="ignore")


def esc(s) -> str:
    """For HTML (st.html, span rendering)."""
    return html.escape(str(s), quote=True)


SUMMARY_CSS = ("<style>.bl-sum{border-collapse:collapse;font-size:.88rem;margin:.1rem 0 .5rem 0;}"
               ".bl-sum th,.bl-sum td{border:1px solid rgba(49,51,63,.18);padding:2px 10px;text-align:left;}"
               ".bl-sum th{background:rgba(49,51,63,.05);position:sticky;top:0;}"
               ".bl-sum td.bl-num{text-align:right;font-variant-numeric:tabular-nums;}"
               ".bl-sum-box{overflow:auto;}</style>")


def summary_table(df: pd.DataFrame, max_height: int | None = None) -> str:
    """A short summary table as plain HTML for st.html: every header and cell escaped,
    numbers right-aligned; taller than max_height px it scrolls. For what a page states
    (what was understood of an upload), not for data to sort: st.dataframe's grid costs
    a browser tab ~0.4 s of CPU the first time it is drawn, and the Data page drew two of
    them right after Analyse - with eight people analysing at once on the server's machine
    that was CPU taken from the annotation they were all waiting for."""
    head = "".join(f"<th>{esc(c)}</th>" for c in df.columns)
    num = [' class="bl-num"' if df[c].dtype.kind in "iuf" else "" for c in df.columns]
    body = "".join("<tr>" + "".join(f"<td{n}>{esc(v)}</td>" for v, n in zip(row, num)) + "</tr>"
                   for row in df.itertuples(index=False, name=None))
    style = f' style="max-height:{int(max_height)}px"' if max_height else ""
    return (f'<div class="bl-sum-box"{style}><table class="bl-sum"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


_MD_SPECIAL = set("\\`*_[]<>#~$:|&")


def md(s) -> str:
    """Text shown literally inside Markdown (messages, captions, headers): the characters
    that make links, emphasis, code, HTML, math, emoji codes, colour directives and
    tables are backslash-escaped (and a leading list marker), so a file named
    [x](y).txt or **b**.txt shows as written, never as a link or bold."""
    import re

    out = "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in str(s)).replace("\n", " ")
    return re.sub(r"^(\s*)([-+]|\d+(?=\.))", lambda m: m.group(1) + "\\" + m.group(2)
                  if m.group(2) in "-+" else m.group(1) + m.group(2) + "\\", out, count=1)


def label(s) -> str:
    """Text for plotly labels and hover text (plotly renders some HTML tags)."""
    return html.escape(str(s), quote=False)


def unlabel(s) -> str:
    """The name behind a plotly label (what a chart selection reports)."""
    return html.unescape(str(s))


def pct(x) -> float:
    return float("nan") if x is None else 100.0 * x


# --- sandbox and gallery ----------------------------------------------------------

GALLERY_FILE = SAMPLE / "gallery.json"


@st.cache_data(show_spinner=False)
def gallery() -> list[dict]:
    return json.loads(GALLERY_FILE.read_text(encoding="utf-8"))


def lines_of(text: str) -> list[str]:
    return text_lines(text)


def evaluate_texts(reference: str, candidates: dict, annotation: list | None, cfg: ScoreConfig,
                   resegment: bool = False, line_by_line: bool = False):
    """Score free text through the server's engine by the core's rules (Study.score_texts): (result, note,
    BLEU per candidate)."""
    return Study.score_texts(reference, candidates, annotation, cfg, engine=server_engine(), resegment=resegment,
                             line_by_line=line_by_line)


def text_apt(source: str, reference: str, candidates: dict, pair: str, alignment: dict) -> dict:
    """APT of free text (one document, a sentence per line) with given word alignments
    ({"reference": [Pharaoh links per line], candidate: [...]}): the same every time."""
    return apt_of_links(lines_of(source), lines_of(reference), {k: lines_of(v) for k, v in candidates.items()},
                        pair, alignment)


def text_companions(reference: str, candidates: dict, cfg: ScoreConfig) -> dict:
    """The companion metrics (the registry's) of free text (0-100)."""
    return Study.from_texts(lines_of(reference), {k: lines_of(v) for k, v in candidates.items()}, origin="text",
                            engine=server_engine()).companions(cfg)


def companions(d: Study, cfg, res=None) -> dict:
    """{system: {metric: value, "documents": {doc: {metric: value}}}} on the 0-100 scale."""
    with st.spinner(f"Computing {', '.join(CATALOG.companions)}..."):  # the registry's companion metrics
        return d.companions(cfg)


def apt_scores(d: Study, pair: str) -> dict:
    with st.spinner("Aligning with eflomal and computing APT..."):
        return d.apt(pair)


def load_sample() -> None:
    """Load the bundled sample data (with its human judgments and BlonD+ annotation) into the session."""
    set_data(Study.from_files([SAMPLE / "reference.txt"], [SAMPLE / f"{s}.txt" for s in SAMPLE_SYSTEMS],
                              docids=SAMPLE / "docids.txt", human=SAMPLE / "human_judgments.tsv",
                              annotation=SAMPLE / "blonde_plus_annotation.txt",
                              origin="bundled sample data (sample_data/)", engine=server_engine()))


def human_mapping(human, study: Study | None = None) -> None:
    """The judgments' system names as matched to the loaded texts, with how much of each was rated
    (Data page and Human correlation page show the same table).  With `study` (the Data page) the
    matches can be corrected here: the judgments are bound again with the corrected names."""
    hm = human.mapping
    st.caption("System names of the judgments file, as matched to the loaded texts (segment ids are line numbers "
               "of the test set; scores use only the rated segments):")
    left_out = "- (not matched, left out)"
    total = max((c.get("segments", 0) for c in human.coverage.values()), default=0)  # lines of the test set
    df = pd.DataFrame([{"name in the file": k, "loaded text": v or left_out,
                        "segments rated": human.coverage.get(v, {}).get("segments_rated", 0) if v else 0,
                        "of": total}
                       for k, v in sorted(hm.items())])
    if study is None:
        st.dataframe(df, hide_index=True, placeholder="-")
        st.caption("A wrong match? Correct it in the table on the Data page.")
        return
    loaded = list(study.corpus.references) + list(study.corpus.systems)
    edited = st.data_editor(df, hide_index=True, placeholder="-", key=f"human_map_{study.key}", disabled=["name in the file",
                            "segments rated", "of"], column_config={"loaded text": st.column_config.SelectboxColumn(
                                options=loaded + [left_out], required=True,
                                help="The loaded text these judgments are about; left out: not used")})
    wanted = {k: (None if v == left_out else v) for k, v in zip(edited["name in the file"], edited["loaded text"])}
    if wanted != dict(hm):
        if st.button("Apply this mapping", type="primary", key="human_map_apply",
                     help="Bind the judgments again with these names; scores and correlations follow."):
            try:
                set_data(study.with_human_mapping(wanted))
            except InputError as exc:
                st.error(md(exc.for_page()))
            else:
                st.rerun()
        st.caption("Changed, not applied yet.")
    else:
        st.caption("A wrong match? Pick the right loaded text in the table, then apply (the command line's "
                   "--map FILE_NAME=NAME does the same).")


# --- click-through between pages ------------------------------------------------------

def take_pending(prefix: str) -> None:
    """Apply the widget values another page (or a click) left for this page, before its widgets exist."""
    for k, v in st.session_state.pop(f"pending_{prefix}", {}).items():
        st.session_state[k] = v


PAGE_TITLES = {"pages/overview.py": "Overview", "pages/categories.py": "Categories", "pages/contrast.py": "Contrast",
               "pages/significance.py": "Significance", "pages/correlation.py": "Human correlation"}


def open_documents(doc=None, systems=None, categories=None, only=None, sentence=None, origin: str | None = None) -> None:
    """Go to the Documents page with this document, these systems and categories selected (only: the
    mismatch filter), or to one sentence of it; origin: the page the click came from (Documents offers the
    way back to it)."""
    pend = {}
    if doc is not None:
        pend["doc_sel"] = doc
        pend["doc_page"] = 1
    if systems is not None:
        pend["doc_systems"] = list(systems)
    if categories is not None:
        pend["doc_cats"] = list(categories)
    if only is not None:
        pend["doc_only"] = list(only)
    pend.update(focus_sentence(sentence) if sentence else {"doc_focus_row": None})
    st.session_state["pending_doc"] = pend
    st.session_state["doc_origin"] = origin
    # the data's token goes with the switch: one history entry (a switch clears the query and keep_token then
    # put the token back, a second entry, so the browser's Back needed two presses to leave Documents)
    st.switch_page("pages/documents.py", query_params=token_query())


def token_query() -> dict | None:
    """The query that keeps this session's data token in the URL, for a page switch or link (None: no data)."""
    token = st.session_state.get("data_token")
    return {TOKEN_PARAM: token} if token else None


def focus_sentence(n: int) -> dict:
    """Widget values that show sentence n (1-based) of the current document: its page, the highlighted view,
    the row marked and scrolled to.  The mismatch filter stays on; the Documents page switches it off (and
    says so) only when it hides that sentence."""
    return {"doc_goto": int(n), "doc_focus_row": int(n), "doc_tab": "Highlighted spans", "doc_scroll": int(n)}


def scroll_to(element_id: str) -> None:
    """Scroll the page to the element with this id (a row of an st.html block), once: a script in a component
    frame of height 0 that reaches the page it sits in (same origin) and waits for the row to be drawn."""
    safe = "".join(ch for ch in element_id if ch.isalnum() or ch in "-_")
    _in_page("const el=window.parent.document.getElementById('" + safe + "');"
             "if(el){el.scrollIntoView({block:'center'});return;}", 50)


def _in_page(step: str, tries: int) -> None:
    """Run a script step in the page itself, every 0.1 s until it returns or `tries` runs: a zero-height component
    frame (same origin) whose script reaches the page it sits in, which may not be drawn yet."""
    import streamlit.components.v1 as components

    components.html("<script>(function(){let n=0;const go=()=>{" + step + "if(++n<" + str(tries) +
                    ")setTimeout(go,100);};go();})();</script>", height=0)


def scroll_top() -> None:
    """Scroll the page to its top, once it is drawn (a page opened from a button far down another page keeps
    that page's scroll position otherwise), for 1.5 s while it draws."""
    _in_page(internals.scroll_main_to_top(), 15)


def first_clause(text: str) -> str:
    """A warning's gist for its one line: up to its first colon or parenthesis ("only 10 units")."""
    return text.split(":")[0].split(" (")[0].strip()


def note_line(summary: str, detail: str, icon: str = ":material/warning:") -> None:
    """A warning as one line (an icon and its gist, so colour is not the cue) that opens to the whole text:
    pages stay short and no paragraph repeats from page to page."""
    with st.expander(summary, icon=icon):
        st.markdown(detail)


def thin_evidence(res, cfg, consequence: str) -> None:
    """The core's thin-evidence note (the one every command prints) as one line, opening to what it does to this
    page's numbers (consequence) and what to do about it with the page's controls."""
    thin = res.thin_evidence()
    if thin is None:
        return
    gist = ", ".join(f"**{md(c)}** rests on {n:g} reference span{'s' if n != 1 else ''}"
                     for c, n in thin["categories"].items())
    note_line("Thin evidence: " + gist, "A resample (or a unit of a test) in which such a category matches nothing "
              f"enters the geometric mean as 0, floored at 1e-5, and collapses its score: {consequence}. The "
              "Categories page shows every count; leaving the category out (sidebar Categories), the arithmetic "
              "mean or leaving absent categories out of the mean (More settings) avoids the collapse.",
              icon=":material/info:")


TAG_MARK = " †"  # a category whose tagging in this language is below the bar (lang/GOLD.md): never colour alone
TAGGING_DOC = "docs/languages.md#tagging-accuracy"


def tagging_marked(cfg) -> dict:
    """{category: its measured tagging in words} of the discourse categories marked in this language
    (Study.tagging_report: precision < 0.90, recall < 0.80 or fewer than 30 gold spans, or never measured)."""
    rep = Study.tagging_report(cfg)
    return {c: v["figures"] for c, v in rep.get("categories", {}).items() if v["marked"]}


def tagging_note(cfg, where: str = "") -> None:
    """One line under a table whose category headers carry †: which categories, their measured precision and
    recall, opening to what the bar is and where the table is."""
    marked = tagging_marked(cfg)
    if not marked:
        return
    gist = "; ".join(f"**{md(c)}** {md(v)}" for c, v in marked.items())
    note_line(f"† Tagging below the bar in {md(cfg.lang)}{where}: " + gist,
              "These categories' spans were measured against hand-labelled gold spans of this language "
              "(the pack's gold.jsonl, labelled by reading) and fall below precision 0.90 or recall 0.80, or rest on "
              "fewer than 30 gold spans: their numbers may reflect the tagger's errors as much as the systems'. "
              f"The whole table, per class, with the command that measures it: {TAGGING_DOC}.",
              icon=":material/rule:")


# Bar fills besides colour, so that series stay apart in grey, in print and for colour-blind
# readers (plotly's marker.pattern.shape).
PATTERNS = ["", "/", ".", "x", "\\", "-", "+", "|"]
SYMBOLS = ["circle", "square", "diamond", "triangle-up", "x", "triangle-down", "star", "cross", "hexagon",
           "pentagon", "triangle-left", "triangle-right", "hourglass", "bowtie", "star-diamond", "circle-open",
           "square-open", "diamond-open"]  # marker shapes, for the same reason


def clickable(fig, xs, ys, hover=None, size=18) -> None:
    """Plotly heatmaps report no selection when clicked; an invisible square marker on every cell
    does, and carries the cell's hover text.  The heatmap traces stop answering hover."""
    import plotly.graph_objects as go

    for tr in fig.data:
        tr.hoverinfo = "skip"
        tr.hovertemplate = None
    px, py, txt = [], [], []
    for i, y in enumerate(ys):
        for j, x in enumerate(xs):
            px.append(x)
            py.append(y)
            txt.append(hover[i][j] if hover is not None else f"{y} / {x}")
    fig.add_trace(go.Scatter(x=px, y=py, mode="markers", text=txt, hovertemplate="%{text}<extra></extra>",
                             marker=dict(symbol="square", size=size, opacity=0), showlegend=False,
                             selected=dict(marker=dict(opacity=0)), unselected=dict(marker=dict(opacity=0))))
    fig.update_layout(clickmode="event+select", dragmode=False)


def clicked(event) -> dict | None:
    """The first point a chart selection reports, or None."""
    pts = (event or {}).get("selection", {}).get("points", []) if event else []
    return pts[0] if pts else None


def cliff_notes(res, names) -> list[str]:
    """HTML sentences (escaped) explaining a score cliff where it happens: a category that matched nothing (or
    has spans on one side only) enters the geometric mean as 0, floored at 1e-5, and pulls BlonDe and BlonD-d
    down with it; what leaving absent categories out of the mean would give."""
    skip = res.with_config(res.config.with_(absent="skip")) if res.config.absent == "keep" else None
    out = []
    for n in names:
        msgs = [m for notes in res.collapse_notes(n).values() for m in notes]
        if not msgs:
            continue
        now = res.scores(n)
        alt = skip.scores(n) if skip is not None else None

        def pts(s, k):
            return "-" if s[k]["F1"] is None else f"{100 * s[k]['F1']:.2f}"
        tail = ("; leaving absent categories out would not change them (both sides have spans)"
                if alt is None or all(alt[k]["F1"] == now[k]["F1"] for k in ("BlonDe", "BlonD-d"))
                else f"; with <i>Leave absent categories out of the mean</i> (sidebar, More settings) they would be "
                     f"{pts(alt, 'BlonDe')} and {pts(alt, 'BlonD-d')}")
        out.append(f"<b>{esc(n)}</b>: {esc('; '.join(msgs))}. That is why BlonDe is {pts(now, 'BlonDe')} and "
                   f"BlonD-d {pts(now, 'BlonD-d')}{tail}.")
    return out


def system_column(**kw):
    """The system column of a table: wide enough for whole names (WMT's "JDExploreAcademy"), pinned so it stays
    in view when the table scrolls sideways."""
    return st.column_config.TextColumn(**{"width": "medium", "pinned": True, **kw})


def _decimals(df: pd.DataFrame, precision: int) -> tuple[pd.DataFrame, dict]:
    """(a copy with number-like object columns made numeric, {column: decimals}): whole-number columns 0,
    the others `precision` (a column named F1 or A - B always has decimals)."""
    df = df.copy()
    out = {}
    for c in df.columns:
        if df[c].dtype == object and df[c].map(lambda v: v is None or isinstance(v, (int, float))).all() \
                and df[c].notna().any():
            df[c] = pd.to_numeric(df[c])
        if df[c].dtype.kind in "fi":
            vals = df[c].dropna()
            counts = df[c].dtype.kind == "i" or (bool((vals == vals.round()).all()) and "F1" not in c
                                                 and "A - B" not in c)
            out[c] = 0 if counts else precision
    return df, out


def number_columns(df: pd.DataFrame, precision: int = 2) -> tuple[pd.DataFrame, dict]:
    """styled()'s rules as the grid's own column formats, for st.dataframe(..., column_config=...,
    placeholder="-"). No pandas Styler, which computed a style for every cell on every run (the Categories
    page's two largest tables: 15 ms)."""
    df, dec = _decimals(df, precision)
    return df, {c: st.column_config.NumberColumn(format=f"%.{k}f") for c, k in dec.items()}


def styled(df: pd.DataFrame, precision: int = 2):
    """A table for st.dataframe: None/NaN shown as "-", whole-number columns without decimals,
    the others with `precision` decimals (sorting still uses the numbers)."""
    df, dec = _decimals(df, precision)
    return df.style.format({c: f"{{:.{k}f}}" for c, k in dec.items()}, na_rep="-")
