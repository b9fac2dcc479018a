"""Data: upload references, system outputs and extras, or load the bundled sample."""
from pathlib import Path

import pandas as pd
import streamlit as st

from blonde_core.study import CATALOG, InputError, Study
from blonde_core.study import reading_limits
from studio.gate import gone_link
from studio.navigation import page
from studio.session import TED, config, data, load_sample, scoped, set_data
from studio.tables import SUMMARY_CSS, summary_table
from studio.text import md_escape
from studio.widgets import human_mapping
from studio import release
from studio.state import server_engine, study_store, upload_limits

st.title("Data")
_gone = gone_link() if data() is None else None
if _gone:  # opened from a link whose data is gone: why, before anything else
    st.warning(_gone, icon=":material/link_off:")
if data() is not None and st.session_state.get("shared_copy"):
    st.info("You opened a link someone shared: this is your own copy of their data. Loading or clearing data "
            "here leaves theirs as it was.", icon=":material/share:")
limit = st.get_option("server.maxUploadSize")
# what each uploader takes - its formats' names, what they look like, the file types - is the core's table
# (io/formats.py), as the command line's --input, --human and --metric-scores say it
TEXTS, JUDGED, SCORED, FOLDERS = (CATALOG.input_formats(role) for role in ("texts", "judgments", "metric scores",
                                                                            "folders"))


ESA_ALL_HELP = ("ESA judgments (Appraise's export): by default each system's score is its mean over the segments "
                "judged for every system, as WMT24 compared them (the number is said under What was understood); on: "
                "over every segment judged for it (--esa-every-judged).")


def privacy_note() -> str:
    """What this server keeps, where and for how long (from its actual settings)."""
    info = server_engine().info()
    store = study_store()
    hours = store.ttl / 3600
    if store.disk is None:
        kept = (f"Uploaded files are never written to disk: they stay in this server's memory, for this browser tab "
                f"(a reload brings them back through the token in the address bar) for up to {hours:g} hours after "
                f"their last use; a restart of the server loses them. ")
    else:
        kept = (f"Uploaded files stay in this server's memory and, as this server is set up (BLONDE_UPLOADS=disk), "
                f"on its disk ({store.disk}), so that the link in the address bar survives a restart; for up to "
                f"{hours:g} hours after their last use, then deleted; **Clear loaded data** deletes them at once. ")
    mode = info["cache_mode"]
    if mode == "disk" and not info.get("cache_writable", True):
        kept += (f"The annotation cache on this server's disk ({info['cache_file']}) cannot be written (read-only), "
                 "so the analyser's annotations and sacrebleu's statistics of your text are kept in this server's "
                 "memory only, as with the cache in memory. ")
    elif mode == "disk":
        kept += (f"The analyser's annotations of the sentences (tokens, tags, entities of your text) and sacrebleu's "
                 f"per-segment statistics go into the annotation cache on this server's disk "
                 f"({info['cache_file']}) and stay there until deleted. ")
    elif mode == "memory":
        kept += ("The analyser's annotations are kept in this server's memory only (at most "
                 f"{info['memo_limit_sentences']:,} sentences, least recently used out; gone when it restarts). ")
    else:
        kept += "The analyser's annotations are not kept after each computation (annotation cache off). "
    import tempfile

    kept += (f"With *Add APT* (Overview), the word aligner (eflomal) writes the source and system texts to temporary "
             f"files in {tempfile.gettempdir()} while it aligns (readable by this server's user only) and deletes them "
             "when the alignment ends, whatever the cache mode. ")
    if info.get("scheduler"):
        kept += (f"Sentences to annotate are sent to the workers of the Dask scheduler at {info['scheduler']}, "
                 "which keep nothing; their annotations come back to this server. ")
    kept += (f"Computed scores are kept in memory (at most {info['results']['max_bytes'] // 2 ** 20} MB over all "
             "users, least recently used out). **Clear loaded data** removes your data and everything computed "
             "from it, including its sentences in the annotation cache.")
    return kept


max_line, max_segments = upload_limits()
with st.expander("Where your files go: storage, privacy and upload limits", icon=":material/lock:"):
    st.caption(privacy_note() + f" Upload limits: {limit} MB per file, {max_line:,} characters per line, "
               f"{max_segments:,} segments per upload (all files together).")
with st.expander("This server's annotation work"):
    info = server_engine().info()
    st.write(f"Annotation (spaCy or the language's analyser) runs on: **{info['backend']}**"
             + (" (set BLONDE_SCHEDULER=tcp://HOST:8786 before starting "
                "the server to annotate on a Dask cluster)" if not info.get("scheduler") else "") + ".")
    st.write(f"Since it started, this server annotated **{info['sentences_annotated']:,}** sentences with the "
             f"language's analyser and read **{info['sentences_from_disk']:,}** from the annotation cache; "
             f"{info['sentences_in_memory']:,} are in memory; computed results use "
             f"{info['results']['bytes'] / 2 ** 20:.1f} of {info['results']['max_bytes'] / 2 ** 20:.0f} MB.")


def load_ted():
    systems = sorted((TED / "systems").glob("*.txt")) + [TED / "refs" / "refB.txt"]
    set_data(Study.from_files([TED / "refs" / "ref.txt"], systems, docids=TED / "docids.txt",
                              source=TED / "source.zh.txt", human=TED / "raw" / "mqm_ted_zhen.tsv",
                              origin="TED zh-en (shared/data/ted-zhen) with MQM", engine=server_engine()))


c1, c2, c3, _ = st.columns([1, 1, 1, 1])
# Every way of loading data is a callback: it runs before the app draws the sidebar, which
# then says what is loaded, in the one run the click starts. (Loading in the page and then
# st.rerun() drew everything twice: a second run's worth of the browser's CPU per click.)
c1.button("Load sample data", type="primary", icon=":material/science:", on_click=load_sample)
if TED.exists():
    c2.button("Load TED zh-en demo", icon=":material/record_voice_over:", on_click=load_ted)
if data() is not None:
    c3.button("Clear loaded data", icon=":material/delete:", on_click=set_data, args=(None,),
              help="removes your data from this server: the session, the reload store, "
                   "computed scores and its sentences in the annotation cache")


def nb(f) -> tuple[str, bytes]:
    """An upload as the core reads it: its name and its bytes (never written to disk)."""
    return f.name, f.getvalue()


tab_files, tab_struct, tab_wmt = st.tabs(["Plain-text files", "One structured file", "A WMT folder"])
upload_errors: dict = st.session_state.setdefault("upload_errors", {})


def show_errors(label: str, container=st) -> None:
    """Messages of the last analysis that concern this uploader's file(s)."""
    for msg in upload_errors.get(label, []):
        container.error(md_escape(msg), icon=":material/error:")


def owner(exc: InputError, uploads: dict) -> str:
    """The uploader whose file the message names (else the form as a whole)."""
    for label, files in uploads.items():
        for f in files:
            if f is not None and exc.file is not None and exc.file == f.name:
                return label
    return "_form"


def within_limits(read) -> Study:
    """read() -> the study, read under this server's limits per upload (a file past them is refused as soon as it
    is seen, before it is split or parsed), or InputError naming the file and line past them."""
    with reading_limits(*upload_limits()):
        study = read()
    study.check_limits(*upload_limits())
    return study


def analyse_files() -> None:
    """The plain-text form's callback (the uploads are in session state by now)."""
    ss = st.session_state
    refs, syss = ss.get("up_refs") or [], ss.get("up_sys") or []
    docids, source, human, plus, ner = (ss.get(k) for k in ("up_docids", "up_src", JUDGED.uploader, "up_plus",
                                                            "up_ner"))
    sys_ids = list(ss.get("up_sys_docids") or [])
    uploads = {"refs": refs, "syss": syss, "docids": [docids], "source": [source],
               "human": list(human or []), "plus": [plus], "ner": [ner]}
    upload_errors.clear()
    try:
        if not refs:
            raise InputError("upload at least one reference")
        if not syss:
            raise InputError("upload at least one system output")
        # a system's own document ids: the file named like the system (GPT-4.txt -> GPT-4.docids, GPT-4.docids.txt,
        # GPT-4.txt.docids: Study.docids_owner); the systems without one take the reference's document ids
        own = {Study.docids_owner(f.name) or Study.file_stem(f.name): f for f in sys_ids}
        system_names = {Study.file_stem(x.name) for x in syss}
        unknown = [f.name for f in sys_ids if (Study.docids_owner(f.name) or Study.file_stem(f.name))
                   not in system_names]
        if unknown:
            raise InputError(f"the document-id file {unknown[0]} is named like no system output: name it after its "
                             "system (GPT-4.docids or GPT-4.docids.txt for GPT-4.txt)")
        # the readers take (name, bytes) exactly like files on disk
        study = within_limits(lambda: Study.from_files([nb(f) for f in refs], [nb(f) for f in syss],
                              docids=nb(docids) if docids else None, blank_line_docs=bool(ss.get("up_blank")),
                              system_docids=[nb(own[Study.file_stem(f.name)]) if Study.file_stem(f.name) in own
                                             else None for f in syss] if own else None,
                              source=nb(source) if source is not None else None,
                              human=[nb(f) for f in human] if human else None,
                              human_higher_is_better=not ss.get("up_lower"),
                              annotation=nb(plus) if plus is not None else None,
                              ner=nb(ner) if ner is not None else None, origin="uploaded files",
                              engine=server_engine(), human_common=not ss.get("up_esa_all")))
        set_data(study.resegmented() if ss.get("up_reseg") else study)
    except InputError as exc:
        upload_errors.setdefault(owner(exc, uploads), []).append(exc.for_page())


def analyse_structured() -> None:
    """The structured form's callback."""
    sf = st.session_state.get(TEXTS.uploader)
    upload_errors.clear()
    try:
        if sf is None:
            raise InputError("upload a file first")
        names = [x.strip() for x in (st.session_state.get("up_refsys") or "").split(",") if x.strip()]
        set_data(within_limits(lambda: Study.from_structured(nb(sf), names, engine=server_engine())))
    except InputError as exc:
        upload_errors.setdefault("struct", []).append(exc.for_page())


def wmt_roots() -> list:
    """Folders of this server whose WMT-layout folders a user may load by path: BLONDE_WMT_ROOTS (separated by
    the system's path separator) where it is set - a shared server's allow-list; else, on a server started by
    scripts/run.sh on one's own machine (BLONDE_LOCAL_FOLDERS=1, which run.sh sets unless BLONDE_WMT_ROOTS is
    given), every folder of the machine; else the shared data folder. A path elsewhere is refused."""
    import os
    from pathlib import Path

    given = os.environ.get("BLONDE_WMT_ROOTS", "")
    if given.strip():
        roots = [Path(p) for p in given.split(os.pathsep) if p.strip()]
    elif os.environ.get("BLONDE_LOCAL_FOLDERS") == "1":
        roots = [Path(Path.cwd().anchor or "/")]
    else:
        roots = [TED.parent]
    return [p.resolve() for p in roots if p.exists()]


def roots_said() -> str:
    """Which folders the path field reads, in words (its help and the refusal)."""
    roots = wmt_roots()
    if any(r == Path(r.anchor) for r in roots):
        return "any folder of this machine (a server of your own, started by scripts/run.sh)"
    return ("folders under " + ", ".join(map(str, roots)) if roots else "no folder") + \
        " only - a server's allow-list, set by its administrator: BLONDE_WMT_ROOTS=DIR1:DIR2 (scripts/run.sh " \
        "on your own machine reads any folder)"


def release_pairs(src, lp: str | None, roots) -> list[str]:
    """The pairs of a release when the form asks for several ("all", or pairs separated by commas or spaces), else
    [] (one pair: the usual study). A pair the folder lacks is refused, naming the ones it has (Study.release_pairs:
    WMT25's short forms, en-cs for en-cs_CZ, taken)."""
    import re

    asked = [x for x in re.split(r"[,\s]+", lp or "") if x]
    if not asked or (len(asked) == 1 and asked[0].lower() != "all"):
        return []
    return Study.release_pairs(src, asked)


def analyse_wmt() -> None:
    """The WMT form's callback: an uploaded zip, or a folder under one of wmt_roots()."""
    from pathlib import Path

    ss = st.session_state
    upload_errors.clear()
    z, folder = ss.get("up_wmt_zip"), (ss.get("up_wmt_dir") or "").strip()
    lp, gold = (ss.get("up_wmt_lp") or "").strip() or None, (ss.get("up_wmt_gold") or "").strip() or None
    lower = [x.strip() for x in (ss.get("up_wmt_lower") or "").split(",") if x.strip()]
    try:
        if z is not None and folder:
            raise InputError("give either a zip or a folder, not both")
        if z is not None:
            src = nb(z)
        elif folder:
            p = Path(folder).expanduser().resolve()
            if not any(p == r or r in p.parents for r in wmt_roots()):
                raise InputError(f"this server loads {roots_said()}; upload a zip of the folder instead",
                                 file=folder)
            src = p
        else:
            raise InputError("upload a zip of a WMT folder or give the folder's path on this server")
        roots = None if z is not None else wmt_roots()
        pairs = release_pairs(src, lp, roots)
        if pairs:  # several pairs, or all: one study per pair, a pair selector in the sidebar, the Release page
            release.start(src, pairs, z.name if z is not None else str(src), gold=gold, lower=lower,
                          esa_common=not ss.get("up_wmt_esa_all"), roots=roots, engine=server_engine(),
                          set_data=set_data)
        else:
            set_data(within_limits(lambda: Study.from_wmt(src, lp, gold, lower, engine=server_engine(),
                                                          esa_common=not ss.get("up_wmt_esa_all"), roots=roots)))
    except InputError as exc:
        upload_errors.setdefault("wmt", []).append(exc.for_page())


def add_metric_scores() -> None:
    """Scores of metrics computed elsewhere, added to the loaded data (a new study: a new key)."""
    ss = st.session_state
    files = ss.get(SCORED.uploader) or []
    lower = [x.strip() for x in (ss.get("up_metrics_lower") or "").split(",") if x.strip()]
    upload_errors.pop("metrics", None)
    try:
        if not files:
            raise InputError("upload one or more metric-score files first")
        set_data(data().with_metric_files([nb(f) for f in files], lower))
    except InputError as exc:
        upload_errors.setdefault("metrics", []).append(exc.for_page())


with tab_files:
    with st.form("files"):
        a, b = st.columns(2)
        a.file_uploader("References", accept_multiple_files=True, key="up_refs",
                        help="one segment per line; several files = several references")
        b.file_uploader("System outputs", accept_multiple_files=True, key="up_sys",
                        help="one segment per line; a system's name is its file name")
        a.file_uploader("Document ids (optional)", key="up_docids",
                        help="one id per line; consecutive equal ids form a document")
        a.file_uploader("Systems' own document-id files (optional)", key="up_sys_docids", accept_multiple_files=True,
                        help="for systems whose sentences do not line up with the reference's: a file named after "
                             "the system (GPT-4.docids or GPT-4.docids.txt for GPT-4.txt), one id per line of that "
                             "system; its documents are matched to the reference's by id (the reference's document "
                             "ids needed too). The systems without one take the reference's document ids, so an "
                             "aligned system and a re-segmented one load side by side. Then tick Re-segment. The "
                             "command line: --system-docids (- for a system that takes --docids)")
        a.checkbox("Without document ids, a blank line ends a document", key="up_blank")
        a.checkbox("Re-segment systems whose sentences do not line up with the reference", key="up_reseg",
                   help="Each system document with another number of segments than its reference document is cut "
                        "into exactly the reference's segments by mwerSegmenter's alignment (mweralign), so "
                        "sentence-level views work; what a system left out is reported (Overview: omitted; "
                        "Documents: marked). Each file's documents come from its own blank lines. The signature "
                        "says seg:mwer-2; the command line: --resegment.")
        b.file_uploader("Source (optional)", key="up_src",
                        help="the text that was translated, shown beside the reference on the Documents page and "
                             "used by APT: one line per reference segment (the reference's document split applies), "
                             "or, with blank-line boundaries, its documents separated by blank lines too")
        a.file_uploader(f"Human judgments (optional): {md_escape(JUDGED.label)}", key=JUDGED.uploader,
                        type=JUDGED.types, help=md_escape(JUDGED.help), accept_multiple_files=True)
        a.checkbox("In the judgments table, lower scores are better", key="up_lower")
        a.checkbox("ESA: each system over every segment judged for it", key="up_esa_all", help=ESA_ALL_HELP)
        b.file_uploader("BlonD+ annotations (optional)", key="up_plus",
                        help="the blonde package's annotation format, one line per reference segment")
        b.file_uploader("Refined named entities (optional)", key="up_ner")
        for label, col in (("refs", a), ("syss", b), ("docids", a), ("source", b), ("human", a), ("plus", b),
                           ("ner", b), ("_form", st)):
            show_errors(label, col)
        st.form_submit_button("Analyse these files", type="primary", on_click=analyse_files)
with tab_struct:
    with st.form("structured"):
        st.file_uploader(md_escape(TEXTS.label), key=TEXTS.uploader, type=TEXTS.types, help=md_escape(TEXTS.help))
        st.text_input("Systems of the file that are human references (comma-separated)", key="up_refsys",
                      help="e.g. ref for the TED MQM file; XML <ref> blocks are references already")
        show_errors("struct")
        st.form_submit_button("Analyse this file", type="primary", on_click=analyse_structured)
with tab_wmt:
    with st.form("wmt"):
        st.caption("Everything in the folder is loaded: texts, document ids with their domains, the human scores "
                   "and every metric's scores. " + md_escape(FOLDERS.help) + ".")
        a, b = st.columns(2)
        a.file_uploader("A zip of the folder", type=FOLDERS.types, key=FOLDERS.uploader)
        b.text_input("or the folder's path on this server", key="up_wmt_dir",
                     help="This server reads " + roots_said() + ".")
        a.text_input("Language pair (when the folder has several)", key="up_wmt_lp", placeholder="zh-en",
                     help="One pair (zh-en), or a release: several pairs separated by commas (en-cs, en-ja) or "
                          "**all** - then the sidebar switches between the pairs and the Release page shows "
                          "systems x pairs.")
        b.text_input("Human scores to use (default: mqm, esa, esa-human1, da-sqm, wmt-appraise, wmt-z, wmt-raw, first "
                     "found)",
                     key="up_wmt_gold")
        a.text_input("Metrics whose lower scores are better (comma-separated; the layout's convention is higher)",
                     key="up_wmt_lower")
        b.checkbox("ESA: each system over every segment judged for it", key="up_wmt_esa_all", help=ESA_ALL_HELP)
        show_errors("wmt")
        st.form_submit_button("Load this folder", type="primary", on_click=analyse_wmt)

d = data()
st.divider()
if d is None:
    st.info("Nothing loaded yet. Upload files above or press **Load sample data**.")
    st.stop()

st.subheader("What was understood")
target = d.guess_language()
if target["language"] and target["pack"] is None:  # said right after loading, before anything else is read
    st.error(md_escape(d.no_pack(config().with_(lang=target["language"], weights=None)))
             + ". Choose a pack in the sidebar's *Target language* only if the texts really are in that language.",
             icon=":material/translate:")
ref_gist = d.reference_gist()  # the reference checked like a system: every number is scored against it as it is
if ref_gist:
    st.warning(f"The reference has problems every score inherits - {md_escape(ref_gist)}.", icon=":material/report:")
    with st.expander("Which documents, per reference"):
        for msg in d.reference_warnings().values():
            st.caption(md_escape(msg[0].upper() + msg[1:]) + ".")
off_target = d.off_target_warnings()
empty = d.empty_systems()
if empty:  # a system that wrote nothing at all is called empty, not "partly not in" the language
    st.warning(f"{len(empty)} system(s) empty - every segment: **{md_escape(', '.join(empty))}**. Their scores are "
               "computed as for any system (nothing matches).", icon=":material/block:")
off_target = {n: m for n, m in off_target.items() if n not in empty}
if off_target:  # systems that refused, copied the source or wrote nothing: named at once, details a click away
    st.warning(f"{len(off_target)} system(s) partly not in {md_escape(target['name'] or 'the target language')}: "
               f"**{md_escape(', '.join(off_target))}**. Their scores are computed as for any system.",
               icon=":material/translate:")
    with st.expander("Which segments, per system"):
        for msg in off_target.values():
            st.caption(md_escape(msg[0].upper() + msg[1:]) + ".")
st.write(f"Loaded from **{md_escape(d.origin)}**.")
boundary_note = {"docids": "documents from the document-id file", "blank-lines": "documents separated by blank lines",
                 "single": "no document ids: the whole file is **one document**",
                 "structured": "documents from the structured file"}[d.boundaries]
if d.wmt:
    boundary_note = f"documents from the folder's documents/{md_escape(d.wmt[1])}.docs"
st.write(f"{len(d.references)} reference(s), {len(d.systems)} system(s), {len(d.doc_ids)} document(s), "
         f"{d.reference_segments} segments; {boundary_note}.")
if st.session_state.get("annotating_ahead"):
    st.caption("The language's analyser started annotating these sentences in the background when they were loaded: "
               "the other pages wait only for what is not done yet, with a progress bar.")


def guess_language(docs) -> str:
    """The language a text is written in, whatever it is (the core's guess: script, then py3langid)."""
    g = CATALOG.guess_language(s for d in docs[:3] for s in d[:40])
    return f"{g['language']} ({g['name']})" if g["language"] else "?"


rows = [{"name": n, "role": role, "language (guess)": guess_language(d.texts(n)), "segments": sum(d.doc_lengths(n))}
        for role, names in (("reference", d.references), ("system", d.systems)) for n in names]
if d.source:
    rows.append({"name": "source", "role": "source", "language (guess)": guess_language(d.source),
                 "segments": sum(map(len, d.source))})
# plain tables, not st.dataframe: see summary_table (a file name shows as text, escaped)
st.html(SUMMARY_CSS + '<div style="display:flex;flex-wrap:wrap;gap:.5rem 2.5rem;align-items:flex-start">'
        + summary_table(pd.DataFrame(rows), max_height=440)
        + summary_table(pd.DataFrame({"document": d.doc_ids, "segments": d.doc_lengths(d.references[0])}),
                        max_height=440)
        + "</div>")
st.caption(f"Target language: **{md_escape(target['name'] or 'not recognised')}**"
           + (f" ({md_escape(target['language'])}, guessed from the reference by its script "
              f"({md_escape(target['script'])})"
              + (", then py3langid" if target["method"] == "py3langid" else "") + ")" if target["language"] else
              " (the reference has no letters to go by; scored as English unless chosen otherwise)")
           + ". The sidebar's *Target language* chooses the language pack; packs installed: "
           + ", ".join(CATALOG.languages) + ".")
for n in Study.pack_notes(config())["notes"]:
    st.caption(md_escape(n))
shown = scoped(d)  # as the pages score it: re-segmented when the sidebar's Re-segment is on
try:
    shown.check("sentence")
    st.success("Every system has as many segments as the reference in every document: sentence-level matching works.",
               icon=":material/check_circle:")
except InputError as exc:
    st.warning(f"{md_escape(exc)}. Switch on **Re-segment** in the sidebar (one click: each such system is cut into "
               "the reference's sentences, what it left out is reported), or switch **Matching** to *document*.",
               icon=":material/warning:")
moved = shown.resegmentation()
if moved:  # which systems were cut into the reference's segments, and what each left out or added
    ref_lengths = dict(zip(shown.doc_ids, shown.doc_lengths(shown.references[0])))  # segments per document
    st.info(f"**Re-segmented ({md_escape(shown.seg_method)})**: {len(moved)} system(s) cut into the reference's "
            "segments - "
            f"**{md_escape(', '.join(moved))}**. Everything sentence-level works for them; the Documents page keeps "
            "each one's own segments a click away.", icon=":material/content_cut:")
    st.html(SUMMARY_CSS + summary_table(pd.DataFrame([
        {"system": n, "documents cut": len(docs), "own segments": sum(v["segments"] for v in docs.values()),
         "reference segments": sum(ref_lengths[doc] for doc in docs),
         "omitted (document: segment)": "; ".join(f"{doc}: {', '.join(map(str, v['omitted']))}"
                                                  for doc, v in docs.items() if v["omitted"]) or "none",
         "added (document: segment)": "; ".join(f"{doc}: {', '.join(map(str, v['added']))}"
                                                for doc, v in docs.items() if v["added"]) or "none"}
        for n, docs in moved.items()]), max_height=300))
extras = []
if d.human is not None:
    extras.append(f"human judgments ({md_escape(d.human.name)}, "
                  f"{'higher' if d.human.higher_is_better else 'lower'} is better) for "
                  f"{len(d.human.system_scores)} systems")
if d.human is not None:
    hs_ = d.human
    names_ = d.references + d.systems
    matched = [n for n in names_ if n in hs_.system_scores]
    total_ = d.reference_segments
    rated_ = [hs_.n_segments.get(n, 0) for n in matched]
    raters_ = sorted({r[3] for r in hs_.errors}) if hs_.errors else []
    st.markdown(
        f"**Human judgments understood as:** {md_escape(hs_.kind or hs_.name)}; "
        f"{len(matched)} of {len(names_)} loaded texts judged"
        + (f" (not judged: {md_escape(', '.join(n for n in names_ if n not in matched))})" if len(matched) < len(names_)
           else "")
        + (f"; segments rated per text: {min(rated_)}-{max(rated_)} of {total_}"
           if rated_ and min(rated_) != max(rated_) else
           (f"; segments rated per text: {rated_[0]} of {total_}" if rated_ else ""))
        + (f"; {len(raters_)} raters" if raters_ else "") + ". Missing is not zero: scores use the rated segments.")
if d.human is not None and d.human.mapping:
    human_mapping(d.human, d)
if d.annotation is not None:
    extras.append(f"BlonD+ annotations ({len(d.annotation)} lines)")
if d.ner is not None:
    extras.append(f"refined named entities ({len(d.ner)} lines)")
if extras:
    st.write("Also loaded: " + "; ".join(extras) + ".")
if d.wmt:
    u = d.messages.get("wmt", {})
    st.markdown(f"**WMT folder understood as:** {md_escape(u.get('layout', 'WMT'))}, "
                f"language pair {md_escape(d.wmt[1])}; "
                f"{len(d.doc_ids)} documents in "
                f"{len(u.get('domains', {}))} domains ("
                + md_escape(", ".join(f"{k} {v}" for k, v in u.get("domains", {}).items())) + "); human scores found: "
                + md_escape(", ".join(f"{k} ({'/'.join(v)})" for k, v in u.get("human scores", {}).items()) or "none")
                + (f", used: **{md_escape(d.wmt[2])}**" if d.wmt[2] else "") + ".")
    hurt = d.damage()
    if hurt:  # damage in the release, contained: each damaged system named with its file and lines
        st.warning(f"**Damaged in this release ({len(hurt)}):** the rest loaded; each of these was read with its bad "
                   "bytes replaced or set aside, as said.\n\n" + "\n".join(f"- {md_escape(x)}" for x in hurt),
                   icon=":material/broken_image:")
    for line in u.get("left out", []):
        st.caption("Left out: " + md_escape(line))
    for line in u.get("not used", []):
        st.caption("Read, not used: " + md_escape(line))
if d.external:
    st.markdown("**Metrics computed elsewhere** (columns on the Overview, Significance, Human correlation, "
                "Contrast and Documents):")
    read = [m.describe() for m in d.external.values()]
    st.html(SUMMARY_CSS + summary_table(pd.DataFrame([
        {"metric": r["metric"], "levels": ", ".join(r["levels"]), "systems": r["systems"], "direction": r["direction"],
         "missing segment scores": sum(r["missing"].values()),
         "file": ", ".join(f.rsplit("/", 1)[-1] for f in r["files"])} for r in read]), max_height=300))
with st.expander("Add scores of metrics computed elsewhere (COMET, MetricX, BLEURT, ...)", expanded=bool(
        upload_errors.get("metrics"))):
    with st.form("metrics"):
        st.caption(md_escape(SCORED.help) + ". Each file's systems and segment count must match the loaded texts.")
        st.file_uploader("Metric-score files", accept_multiple_files=True, key=SCORED.uploader, type=SCORED.types)
        st.text_input("Metrics whose lower scores are better (comma-separated)", key="up_metrics_lower")
        show_errors("metrics")
        st.form_submit_button("Add these scores", on_click=add_metric_scores)
st.page_link(page("overview"), label="See the leaderboard", icon=":material/leaderboard:")
