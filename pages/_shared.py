"""Shared UI helpers for the pages (Streamlit only; every number comes from blonde_core)."""
from __future__ import annotations

import hashlib
import html
import io
import json
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from blonde_core.annotate import Annotator
from blonde_core.cache import AnnotationCache
from blonde_core.config import CATEGORY_NAMES, N_FEATURES, PRESETS, SMOOTH_DEFAULTS, ScoreConfig
from blonde_core.corpus import Corpus
from blonde_core.errors import InputError
from blonde_core.langpack import load_pack
from blonde_core.metric import BlonDe, prepare

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data"
SAMPLE_SYSTEMS = ["consistent", "names", "tense", "pronouns", "markers"]
TED = ROOT.parent / "shared" / "data" / "ted-zhen"
CAT_LABELS = {"tense": "tense", "pronoun": "pronoun", "entity": "entity", "dm": "discourse marker",
              "ngram": "n-grams"}


@dataclass
class LoadedData:
    corpus: Corpus
    origin: str
    human: object | None = None
    annotation: list | None = None
    ner: list | None = None
    messages: dict = field(default_factory=dict)  # uploader label -> list of messages
    key: str = ""
    annotation_file: str = "annotation.txt"  # for the command-line equivalent

    def __post_init__(self):
        h = hashlib.sha256()
        c = self.corpus
        h.update(json.dumps([c.doc_ids, c.references, c.systems], ensure_ascii=False).encode())
        h.update(json.dumps([self.annotation, self.ner], ensure_ascii=False).encode())
        if self.human is not None:
            h.update(json.dumps(sorted((k, v) for k, v in self.human.system_scores.items())).encode())
        self.key = h.hexdigest()[:20]


def data() -> LoadedData | None:
    return st.session_state.get("data")


def start_page(title: str, what: str):
    """Title, then the loaded data, the settings and the core's Result; stops the page
    with a message saying what to do when something is missing."""
    st.title(title)
    d = need_data(what)
    if d is None:
        st.stop()
    cfg = config()
    res = result(d, cfg)
    if res is None:
        st.stop()
    return d, cfg, res


def need_data(what: str = "this page") -> LoadedData | None:
    d = data()
    if d is None:
        st.info(f"No data yet. Open **Data** to upload references and system outputs, or load the "
                f"bundled sample, to see {what}.")
        st.page_link("pages/data.py", label="Go to Data", icon="📂")
    return d


# --- settings (sidebar, apply everywhere) --------------------------------------

def _weights_input(cat: str, preset: str) -> tuple | None:
    default = PRESETS[preset]["weights"][cat]
    txt = st.text_input(f"{cat} weights", value=", ".join(f"{x:.10g}" for x in default), key=f"w_{cat}_{preset}",
                        help=f"{N_FEATURES[cat]} comma-separated numbers")
    try:
        vals = tuple(float(x) for x in txt.split(","))
    except ValueError:
        st.error(f"{cat} weights: numbers separated by commas, please")
        return None
    if len(vals) != N_FEATURES[cat]:
        st.error(f"{cat} needs {N_FEATURES[cat]} weights")
        return None
    return None if np.allclose(vals, default, rtol=1e-6, atol=1e-9) else vals


def sidebar_settings() -> ScoreConfig:
    sb = st.sidebar
    sb.header("Settings")
    preset = sb.selectbox("Preset", list(PRESETS), key="preset",
                          help="blonde-0.1.4 reproduces the published package; paper uses uniform weights")
    cats = sb.multiselect("Categories", list(CATEGORY_NAMES), default=list(CATEGORY_NAMES), key="categories",
                          format_func=lambda c: CAT_LABELS[c])
    agg = sb.radio("Several references", ["max", "sum"], horizontal=True, key="aggregation",
                   help="max: element-wise maximum over references (package); sum: matched per reference, summed")
    gran = sb.radio("Matching", ["sentence", "document"], horizontal=True, key="granularity",
                    help="sentence i against sentence i (package), or counts summed per document "
                         "(for systems that split or merge sentences)")
    lc = sb.toggle("Lowercase before annotation", value=True, key="lowercase",
                   help="the blonde package's command line lowercases by default")
    with sb.expander("More settings"):
        avg = st.radio("Mean over categories", ["geometric", "arithmetic"], horizontal=True, key="average")
        smooth = st.selectbox("n-gram smoothing", list(SMOOTH_DEFAULTS), key="smooth")
        weights = {}
        for c in CATEGORY_NAMES:
            w = _weights_input(c, preset)
            if w is not None:
                weights[c] = w
    try:
        cfg = ScoreConfig(preset=preset, categories=tuple(cats) or CATEGORY_NAMES, weights=weights or None,
                          aggregation=agg, granularity=gran, lowercase=lc, average=avg, smooth=smooth)
    except InputError as exc:
        sb.error(str(exc))
        cfg = ScoreConfig()
    st.session_state["config"] = cfg
    return cfg


def config() -> ScoreConfig:
    return st.session_state.get("config") or ScoreConfig()


# --- annotation and results (shared by every session of this server) ------------

@st.cache_resource(show_spinner=False)
def shared_annotator(lowercase: bool, lang: str = "en") -> Annotator:
    # one process: forking a multi-threaded server is unsafe
    return Annotator(load_pack(lang), lowercase, AnnotationCache(), n_process=1)


@st.cache_resource(show_spinner=False)
def annotation_lock() -> threading.Lock:
    return threading.Lock()


def ensure_annotated(d: LoadedData, cfg: ScoreConfig) -> None:
    """Annotate what is new, with a progress bar (sentences done of total)."""
    ann = shared_annotator(cfg.lowercase, cfg.lang)
    texts = {prepare(s, cfg.lowercase) for g in (d.corpus.references, d.corpus.systems)
             for docs in g.values() for doc in docs for s in doc}
    missing = [t for t in texts if t not in ann._memo]
    if not missing:
        return
    bar = st.progress(0.0, text=f"Annotating {len(missing)} new sentences with spaCy...")

    def progress(done, total):
        bar.progress(min(done / max(total, 1), 1.0), text=f"Annotating: {done} of {total} distinct sentences")

    with annotation_lock():
        ann.progress = progress
        try:
            ann.annotate(sorted(texts))
        finally:
            ann.progress = None
    bar.empty()


@st.cache_resource(show_spinner=False, max_entries=16)
def _evaluate(data_key: str, counting_key: str, _d: LoadedData, _cfg: ScoreConfig):
    metric = BlonDe(_cfg, annotator=shared_annotator(_cfg.lowercase, _cfg.lang))
    with annotation_lock():
        return metric.evaluate(_d.corpus, annotation=_d.annotation, ner_refined=_d.ner)


def counting_key(cfg: ScoreConfig) -> str:
    return repr(tuple(getattr(cfg, f) for f in ("lowercase", "granularity", "aggregation", "lang")))


def result(d: LoadedData | None = None, cfg: ScoreConfig | None = None):
    """The core's Result for the loaded data and current settings (None after showing an error).
    Counts are cached per counting settings; weights, preset, categories, mean and
    smoothing only re-score them."""
    d = d or data()
    cfg = cfg or config()
    try:
        d.corpus.check(cfg.granularity)
        ensure_annotated(d, cfg)
        base = _evaluate(d.key, counting_key(cfg), d, cfg)
        return base if base.config == cfg else base.with_config(cfg)
    except InputError as exc:
        st.error(str(exc))
        if "document-level matching" in str(exc):
            st.info("Set **Matching** to *document* in the sidebar to score systems that split or merge sentences.")
        return None


@st.cache_resource(show_spinner="Computing BLEU, chrF and TER with sacrebleu (cached on disk after the first time)...",
                   max_entries=8)
def _standard(data_key: str, granularity: str, _d: LoadedData):
    from blonde_core.standard import StandardResult

    return StandardResult(_d.corpus, granularity=granularity)


def standard(d: LoadedData, cfg: ScoreConfig):
    return _standard(d.key, cfg.granularity, d)


@st.cache_data(show_spinner="Testing every pair of systems...", max_entries=64)
def _compare(data_key: str, config_key: str, metric: str, test: str, unit: str, n: int, seed: int, cis: bool,
             _res, _std) -> dict:
    from blonde_core.stats import compare

    return compare(_res, metric=metric, test=test, unit=unit, n=n, seed=seed, standard=_std, system_cis=cis)


def compare(d, cfg, res, metric="BlonDe", test="bootstrap", unit="doc", n=1000, seed=12345, std=None,
            cis: bool = True) -> dict:
    return _compare(d.key, repr(cfg), metric, test, unit, n, seed, cis, res, std)


# --- output helpers ------------------------------------------------------------

def signature_box(sig: str, extra: str = "") -> None:
    st.caption("Signature of the settings that made these numbers:")
    st.code(sig + extra, language=None, wrap_lines=True)
    d, cfg = data(), config()
    if d is not None and d.origin not in ("sandbox",):
        import shlex

        c = d.corpus
        files = ["-r"] + [c.files.get(n, f"{n}.txt") for n in c.references] + \
            ["-s"] + [c.files.get(n, f"{n}.txt") for n in c.systems]
        if c.boundaries == "docids":
            files += ["--docids", c.docids_file or "docids.txt"]
        elif c.boundaries == "blank-lines":
            files += ["--blank-line-docs"]
        if d.annotation is not None:
            files += ["-p", "-an", d.annotation_file]
        cmd = ["python", "-m", "blonde_core", "score", *files, *cfg.cli_args(), "--per-doc", "--format", "json"]
        with st.expander("Reproduce on the command line"):
            st.code(" ".join(shlex.quote(x) for x in cmd), language="bash", wrap_lines=True)
            if c.boundaries == "structured":
                st.caption("The data came from one structured file: use `--input FILE` instead of -r/-s.")


def to_latex(df: pd.DataFrame, caption: str = "") -> str:
    """A booktabs table (no jinja2 dependency)."""
    def cell(v):
        if isinstance(v, float):
            return "--" if np.isnan(v) else f"{v:.2f}"
        s = str(v)
        for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                     ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ("~", r"\textasciitilde{}"), ("^", r"\^{}")):
            s = s.replace(a, b)
        return s
    cols = list(df.columns)
    lines = [r"\begin{table}[t]", r"\centering", r"\begin{tabular}{l" + "r" * (len(cols) - 1) + "}", r"\toprule",
             " & ".join(cell(c) for c in cols) + r" \\", r"\midrule"]
    for _, row in df.iterrows():
        lines.append(" & ".join(cell(v) for v in row.tolist()) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        lines.append(r"\caption{" + cell(caption) + "}")
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def downloads(df: pd.DataFrame, name: str, latex: bool = False, key: str = "") -> None:
    cols = st.columns(3 if latex else 2)
    cols[0].download_button("CSV", df.to_csv(index=False).encode(), f"{name}.csv", "text/csv", key=f"csv_{key}{name}",
                            icon=":material/download:")
    cols[1].download_button("JSON", df.to_json(orient="records", force_ascii=False, indent=1).encode(),
                            f"{name}.json", "application/json", key=f"json_{key}{name}", icon=":material/download:")
    if latex:
        cols[2].download_button("LaTeX", to_latex(df).encode(), f"{name}.tex", "text/x-tex", key=f"tex_{key}{name}",
                                icon=":material/download:")


def esc(s) -> str:
    return html.escape(str(s), quote=True)


def pct(x) -> float:
    return float("nan") if x is None else 100.0 * x


# --- sandbox and gallery ----------------------------------------------------------

GALLERY_FILE = SAMPLE / "gallery.json"


@st.cache_data(show_spinner=False)
def gallery() -> list[dict]:
    return json.loads(GALLERY_FILE.read_text(encoding="utf-8"))


def lines_of(text: str) -> list[str]:
    return [ln for ln in text.replace("\r\n", "\n").split("\n") if ln.strip()]


def evaluate_texts(reference: str, candidates: dict, annotation: list | None, cfg: ScoreConfig):
    """Score free text (one document, a sentence per line) with the shared annotator.
    Returns (result, note); document-level matching when line counts differ."""
    ref = lines_of(reference)
    cands = {k: lines_of(v) for k, v in candidates.items() if lines_of(v)}
    if not ref or not cands:
        return None, "Type a reference and at least one candidate, one sentence per line."
    note = ""
    if cfg.granularity == "sentence" and any(len(v) != len(ref) for v in cands.values()):
        cfg = cfg.with_(granularity="document")
        note = ("The candidates do not have one line per reference line, so sentences are matched within the "
                "whole document (document-level matching).")
    if annotation is not None and len(annotation) != len(ref):
        annotation = None
        note += " The BlonD+ annotation does not have one line per reference sentence; BlonD+ is off."
    corpus = Corpus(["sandbox"], {"reference": [ref]}, {k: [v] for k, v in cands.items()}, boundaries="single")
    tmp = LoadedData(corpus, "sandbox", annotation=annotation)
    ensure_annotated(tmp, cfg)
    metric = BlonDe(cfg, annotator=shared_annotator(cfg.lowercase, cfg.lang))
    with annotation_lock():
        return metric.evaluate(corpus, annotation=annotation), note.strip()


def shown_f1(block: dict) -> float:
    """F1 for display: the package reports NaN when nothing matched (R = P = 0);
    the pages show that as 0 (and NaN only where the category is absent)."""
    r, p, f = block.get("R"), block.get("P"), block.get("F1")
    if r == 0 and p == 0:
        return 0.0
    return float("nan") if f is None else float(f)


@st.cache_resource(show_spinner="Computing Otem, Utem, the early BlonD variants and RC...", max_entries=16)
def _companions(data_key: str, counting: str, _res) -> dict:
    from blonde_core.companion import companion_scores

    return companion_scores(_res, per_doc=True)


def companions(d, cfg, res) -> dict:
    """{system: {metric: value, "documents": {doc: {metric: value}}}} on the 0-100 scale
    (they depend only on the counting settings)."""
    return _companions(d.key, counting_key(cfg), res)


def guess_pair(d: LoadedData) -> str | None:
    """The APT language pair from the texts: Chinese source and English target, or English to French."""
    import re as _re

    if not d.corpus.source:
        return None
    src = " ".join(s for doc in d.corpus.source[:2] for s in doc[:20])
    tgt = " ".join(s for doc in next(iter(d.corpus.references.values()))[:2] for s in doc[:20])
    if _re.search(r"[\u4e00-\u9fff]", src) and _re.search(r"\b(the|and)\b", tgt, _re.I):
        return "zh-en"
    if _re.search(r"\b(the|and)\b", src, _re.I) and _re.search(r"\b(le|la|les|et)\b", tgt, _re.I):
        return "en-fr"
    return None


@st.cache_resource(show_spinner="Aligning with eflomal and computing APT...", max_entries=4)
def _apt(data_key: str, pair: str, _d: LoadedData) -> dict:
    from blonde_core.apt import corpus_apt

    return corpus_apt(_d.corpus, pair)


def apt_scores(d: LoadedData, pair: str) -> dict:
    return _apt(d.key, pair, d)


def load_sample() -> None:
    """Load the bundled sample data (with its human judgments and BlonD+ annotation) into the session."""
    from blonde_core.human import read_human
    from blonde_core.readers import plain_corpus, read_lines

    corpus = plain_corpus([SAMPLE / "reference.txt"], [SAMPLE / f"{s}.txt" for s in SAMPLE_SYSTEMS],
                          docids=SAMPLE / "docids.txt")
    human = read_human(SAMPLE / "human_judgments.tsv")
    ann = read_lines(SAMPLE / "blonde_plus_annotation.txt")
    st.session_state["data"] = LoadedData(corpus, "bundled sample data (sample_data/)", human=human, annotation=ann,
                                          annotation_file=str(SAMPLE / "blonde_plus_annotation.txt"))
