"""Documents: one document sentence by sentence, spans highlighted as in the paper's Figure 3,
filtered to the sentences where a category mismatches, a page of sentences at a time."""
import numpy as np
import pandas as pd
import streamlit as st

from blonde_core.render import (COLORS, CSS, LABELS, category_label, counts_line, legend, render_errors,
                                render_text)
from blonde_core.study import CATALOG
from blonde_core.render import shown_f1, spans_text
from studio.gate import start_page
from studio.navigation import SPECS, page, take_pending, token_query
from studio.session import config, data, scoped
from studio.tables import downloads, styled
from studio.text import esc, md_escape
from studio.widgets import scroll_to, signature_box
from studio.views import entity_threads_view, pronoun_threads_view, tense_timeline_view


def texts_only_documents(d, cfg) -> None:
    """Documents for a target language without a pack: the sentence that says so, then one document side by
    side - source, reference, the chosen systems - with the human error spans (MQM, ESA) under each system's
    sentence; no BlonDe span."""
    st.title("Documents")
    st.warning(md_escape(d.no_pack(cfg)) + ". The texts and the human error spans are shown; no BlonDe span is marked.",
               icon=":material/translate:")
    names = d.systems
    a, b, r = st.columns([1, 2, 1])
    doc = a.selectbox("Document", list(d.doc_ids), key="doc_sel_np")
    chosen = b.multiselect("Systems", names, default=names[:2], key="doc_systems_np")
    ref = r.selectbox("Reference", d.references, key="doc_ref_np")
    di = list(d.doc_ids).index(doc)
    texts = d.document_texts(di, [ref, *chosen])
    errors = {s: d.human_errors(cfg, di, s) for s in chosen}
    cols = (["source"] if "source" in texts else []) + [ref, *chosen]
    n = max(len(texts[k]) for k in cols)
    head = "".join(f"<th>{esc(k)}</th>" for k in ["#", *cols])
    rows = []
    for i in range(n):
        cells = []
        for k in cols:
            seg = texts[k][i] if i < len(texts[k]) else ""
            errs = errors.get(k)
            cells.append(f"<td>{render_errors(seg.strip(), errs[i]) if errs and i < len(errs) else esc(seg)}</td>")
        rows.append(f"<tr><td>{i + 1}</td>{''.join(cells)}</tr>")
    st.html(CSS + "<style>.bl-np td,.bl-np th{border:1px solid rgba(49,51,63,.15);padding:4px 8px;"
            "vertical-align:top;text-align:left}.bl-np{border-collapse:collapse;width:100%}</style>"
            f'<table class="bl-np"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>')
    judged = [s for s in chosen if errors.get(s) is not None]
    if d.human is not None and d.human.error_spans:
        st.caption("Human error spans: a wavy underline and the severity letter after each; hover for the rater. "
                   + (f"Judged here: {md_escape(', '.join(judged))}." if judged else "None of these systems was judged "
                      "on this document."))
    downloads(pd.DataFrame({k: texts[k] + [""] * (n - len(texts[k])) for k in cols}), f"document_{doc}", key="np")

_d0, _cfg0 = scoped(data()), config()
if _d0 is not None and not _cfg0.has_pack:
    texts_only_documents(_d0, _cfg0)  # the texts and the human error spans; no BlonDe span without a pack
    st.stop()
d, cfg, res = start_page("Documents", "highlighted documents")
docs = res.doc_ids
if st.session_state.get("page_before") != "Documents" and "pending_doc" not in st.session_state:
    st.session_state.pop("doc_origin", None)  # opened from the sidebar, not by a click: no page to go back to
origin = st.session_state.get("doc_origin")
if origin in SPECS:  # a click on another page brought us here: the way back to it, in the page
    st.page_link(page(origin), label=f"Back to {SPECS[origin].title}", icon=":material/arrow_back:",
                 query_params=token_query())
# the document and systems last looked at, kept across pages (a widget's own value is dropped when the
# user opens another page from the sidebar, so reopening Documents started over at the first document)
for k in ("doc_sel", "doc_systems"):
    if k not in st.session_state and f"keep_{k}" in st.session_state:
        st.session_state[k] = st.session_state[f"keep_{k}"]
take_pending("doc")  # a click on another page (heatmap cell, leaderboard row, thread row) picked these
c1, c2, c3 = st.columns([1, 2, 1])
if st.session_state.get("doc_sel") not in docs:
    st.session_state["doc_sel"] = docs[0]
doc = c1.selectbox("Document", docs, key="doc_sel",
                   on_change=lambda: st.session_state.update(doc_page=1, doc_focus_row=None))
st.session_state["doc_systems"] = [s for s in st.session_state.get("doc_systems", []) if s in res.names]
if not st.session_state["doc_systems"]:  # nothing chosen yet, or the last choice was of other data
    st.session_state["doc_systems"] = res.names[:2]
systems = c2.multiselect("Systems", res.names, key="doc_systems")
st.session_state["keep_doc_sel"], st.session_state["keep_doc_systems"] = doc, list(systems)
ref = c3.selectbox("Reference", res.references, key="doc_ref")
if "doc_cats" not in st.session_state:
    st.session_state["doc_cats"] = list(COLORS)
pc1, pc2 = st.columns([3, 1], vertical_alignment="bottom")
cats = pc1.pills("Categories", list(COLORS), selection_mode="multi", format_func=LABELS.get, key="doc_cats") or []
di = docs.index(doc)
view = res.sentence_view(di, systems, ref)
if cfg.tag_lowercase and "entity" in cats and pc2.toggle(
        "Also show the entities lowercasing hides", key="doc_lost",
        help="The score annotates lowercased text (sidebar: Lowercase before annotation), where the analyser misses "
             "many names. On: this document is annotated as written too (once, then cached) and the entities "
             "found only there are drawn grey and dotted with E0 - not counted."):
    with st.spinner("Annotating this document as written..."):
        lost = d.lost_entities(cfg, di, [ref, *systems])
    for name, per in lost.items():
        for row, extra in zip(view["rows"][name], per):
            row["spans"] = sorted(row["spans"] + extra, key=lambda x: (x["start"], -x["end"]))
n_sent = max(len(view["rows"][ref]), *(len(view["rows"][s]) for s in systems)) if systems else \
    len(view["rows"][ref])

# which sentences: all, or only those where a category mismatches for the chosen systems; a page at a time
f1c, f2c, f3c = st.columns([2, 1, 1])
if res.sentence_level():
    only = f1c.multiselect("Only sentences where these categories mismatch", res.discourse_categories(),
                           format_func=LABELS.get, key="doc_only",
                           help="A sentence is kept when, for at least one chosen system, a span of the category "
                                "is missed or extra, counted exactly as the score counts it (features that carry "
                                "weight; against all references).")
else:
    only = []
    f1c.caption("Document-level matching: spans are matched anywhere in the document, so there is no "
                "per-sentence mismatch filter.")
shown = res.mismatching_sentences(di, systems, only) if only and systems else list(range(n_sent))
goto = st.session_state.pop("doc_goto", None)
if goto and goto - 1 not in shown and only:  # the clicked sentence is filtered out: show it, and say so
    st.session_state["doc_only_off"] = goto
    st.session_state["pending_doc"] = {"doc_only": [], "doc_goto": goto}
    st.rerun()
if st.session_state.get("doc_only_off"):
    st.info(f"The mismatch filter was switched off to show sentence {st.session_state.pop('doc_only_off')}, "
            "which it hid.", icon=":material/filter_alt_off:")
size = f2c.selectbox("Sentences per page", [25, 50, 100, 1000], key="doc_page_size")
pages = max(1, -(-len(shown) // size))
if goto and goto - 1 in shown:
    st.session_state["doc_page"] = shown.index(goto - 1) // size + 1
if st.session_state.get("doc_page", 1) > pages:
    st.session_state["doc_page"] = 1
page = f3c.number_input(f"Page (of {pages})", 1, pages, key="doc_page")
focus = st.session_state.get("doc_focus_row")
on_page = shown[(page - 1) * size: page * size]
hidden = n_sent - len(shown)
which = " or ".join(LABELS[c] for c in only)
names = md_escape(", ".join(systems))
if len(systems) == 1:
    gone, every = f"there {names} has no {which} mismatch", f"every sentence has a {which} mismatch for {names}"
else:
    gone = f"there none of {names} has a {which} mismatch"
    every = f"every sentence has a {which} mismatch for at least one of {names}"
st.caption(f"Sentences {on_page[0] + 1 if on_page else 0}-{on_page[-1] + 1 if on_page else 0} shown "
           f"({len(on_page)} on this page; {len(shown)} of {n_sent} sentences kept"
           + ((f", **{hidden} hidden**: {gone}" if hidden else f"; none hidden: {every}") if only else "") + ").")

# human (MQM) error spans of the chosen systems in this document, filterable
human_errors = {}
if d.human is not None and d.human.error_spans:
    human_errors = {s: res.document_errors(di, s) for s in systems}
    every = [e for rows in human_errors.values() if rows for errs in rows for e in errs]
    # ESA's spans: severity, no category
    kind = "MQM" if d.human.name.upper() == "MQM" else md_escape(d.human.name.upper())
    with st.expander(f"Human error spans ({kind}): {len(every)} in this document for the chosen systems",
                     expanded=False):
        f1_, f2_, f3_ = st.columns(3)
        raters = sorted({e["rater"] for e in every})
        mqm_cats = sorted({e["category"] for e in every})
        sevs = sorted({e["severity"] for e in every})
        # keyed by their options too: other systems or another document start with everything shown again
        pick_r = f1_.multiselect("Raters", raters, default=raters, key=f"mqm_r_{doc}_{hash(tuple(raters))}")
        pick_c = f2_.multiselect("MQM categories", mqm_cats, default=mqm_cats,
                                 key=f"mqm_c_{doc}_{hash(tuple(mqm_cats))}")
        pick_s = f3_.multiselect("Severities", sevs, default=sevs, key=f"mqm_s_{doc}_{hash(tuple(sevs))}")
        st.caption("Under each system sentence, after a double bar: the rated text with every human error "
                   "underlined (wavy) and its severity in brackets ([Maj], [Min], ...); hover for category and "
                   "rater. BlonDe's own spans keep their colours in the line above.")
        keep = (lambda e: e["rater"] in pick_r and e["category"] in pick_c and e["severity"] in pick_s)
        human_errors = {s: (None if rows is None else [[e for e in errs if keep(e)] for errs in rows])
                        for s, rows in human_errors.items()}
        missing = [s for s, rows in human_errors.items() if rows is None]
        if missing:
            st.caption("Not paired with the judgments (not judged, or other segment counts): "
                       f"{md_escape(', '.join(missing))}")
        ov = res.error_overlap(systems, ref, doc_ids=[doc])
        ov_rows = [{"system": s, "category": c, "BlonDe unmatched (system)": x["unmatched"],
                    "overlapped by a human error": x["overlapped"],
                    "share": x["share_overlapped"], "their MQM categories": ", ".join(
                        f"{k} {n}" for k, n in x["mqm_categories"].items()),
                    "BlonDe missed (reference)": x["missed"],
                    "in segments with a human error": x["missed_in_flagged_segments"]}
                   for s, v in ov["systems"].items() for c, x in v["categories"].items()]
        if ov_rows:
            st.dataframe(styled(pd.DataFrame(ov_rows)), hide_index=True, placeholder="-")
            alone = {s: v["human_error_spans_where_blonde_saw_no_discourse_mismatch"]
                     for s, v in ov["systems"].items()}
            st.caption("BlonDe's spans here are those that count (features with weight); share: - when nothing is "
                       "unmatched. Human error spans in sentences where BlonDe saw no discourse mismatch: "
                       + ", ".join(f"{md_escape(s)} {n}" for s, n in alone.items())
                       + ". All filters apply to the text only; the table counts every rater.")
            downloads(pd.DataFrame(ov_rows), f"overlap_{doc}", key="ovl")

# per-document scores of the chosen systems
rows = []
for n in systems:
    per = res.score_stats(res.doc_stats(n)[di])
    row = {"system": n, "BlonDe F1": per["BlonDe"]["F1"] * 100, "BlonD-d F1": per["BlonD-d"]["F1"] * 100}
    for c, v in per["categories"].items():
        row[f"{category_label(c)} F1"] = shown_f1(v) * 100
        row[f"{category_label(c)} spans"] = spans_text(v)
    for m, v in d.external_document(di, n).items():  # metrics computed elsewhere, this document
        row[m] = np.nan if v is None else v
    rows.append(row)
if rows:  # folded under a one-line summary, so the document's text starts above the fold at 1280x800
    summary = " · ".join(f"{r['system']} {'-' if pd.isna(r['BlonDe F1']) else format(r['BlonDe F1'], '.1f')}"
                         for r in rows)
    with st.expander(f"This document's scores, BlonDe F1: {md_escape(summary)} (per category and spans: open)"):
        st.dataframe(styled(pd.DataFrame(rows), precision=1), hide_index=True, placeholder="-")
        st.caption(f"A dash (-): the category has no span on either side. Spans: matched / in system / in reference "
                   f"for this document; ° = thin evidence (fewer than {CATALOG.thin} reference spans).")
        downloads(pd.DataFrame(rows), f"document_{doc}_scores", key="docsc")
collapsed = [(n, note) for n in systems for note in res.collapse_notes(n).get(doc, [])]
if collapsed:
    st.warning("Collapsed geometric means in this document (a category that matched nothing enters as 0, floored "
               "at 1e-5):\n\n" + "\n".join(f"- **{md_escape(n)}**: {md_escape(note)}" for n, note in collapsed),
               icon=":material/warning:")

# re-segmented systems (Data page / --resegment): their own text one click away, omitted segments marked
cut_here = d.resegmentation()
moved = {s: cut_here[s][doc] for s in systems if doc in cut_here.get(s, {})}
for s, v in moved.items():
    with st.expander(f"{s}: re-segmented from its own {v['segments']} segments into the reference's "
                     f"{len(view['rows'][ref])}" + (f"; reference segment(s) {', '.join(map(str, v['omitted']))} "
                                                    "left out" if v["omitted"] else "")
                     + (f"; material added at {', '.join(map(str, v['added']))}" if v["added"] else "")
                     + " (its own text: open)"):
        st.html("<ol>" + "".join(f"<li>{esc(x)}</li>" for x in d.original_segments(s, di)) + "</ol>")

TABS = ["Highlighted spans", "Entity threads", "Pronoun threads", "Tense timeline"]
src = res.source[di] if res.source else None


ext_sent = {s: d.external_sentences(di, s) for s in systems} if d.external else {}


def ext_line(name: str, i: int) -> str:
    """The sentence's scores from metrics computed elsewhere (COMET, ...), beside BlonDe's counts."""
    got = ext_sent.get(name) or {}
    if not got:
        return ""
    return '<div class="bl-counts">' + " · ".join(
        f"{esc(m)} {'-' if v[i] is None else format(v[i], '.3g')}" for m, v in got.items() if i < len(v)) + "</div>"


def cell(rows, i, errors=None, name=None):
    if i >= len(rows):
        return ""
    r = rows[i]
    cut = moved.get(name)
    if cut is not None:  # a re-segmented system: every sentence is a cut, an omitted one says so in words
        if i + 1 in cut["omitted"]:
            return ('<div class="bl-doc" style="border:1px dashed #b00;padding:2px 4px" title="nothing (or under a '
                    'fifth of its words) of the system aligned to this reference segment">&#9986; omitted: '
                    f'{render_text(r["text"], r["spans"], cats) if r["text"].strip() else "(no text)"}</div>')
        mark = ('<span title="re-segmented: cut from the system\'s own segments (its text: above the table)" '
                'style="color:#666">&#9986; </span>')
        if i + 1 in cut["added"]:
            mark += '<span title="more than twice the reference segment plus 10 words" style="color:#b00">added </span>'
    else:
        mark = ""
    mqm = ""
    if errors is not None and i < len(errors) and errors[i]:
        mqm = f'<div class="bl-mqm-line">{render_errors(r["text"], errors[i])}</div>'
    return (f'<div class="bl-doc">{mark}{render_text(r["text"], r["spans"], cats)}</div>{mqm}'
            f'{counts_line(r["counts"], cats, r.get("features"))}{ext_line(name, i) if name else ""}')


def highlighted() -> str:
    cols = (["source"] if src else []) + [f"reference: {ref}"] + [f"system: {s}" for s in systems]
    html = ['<table style="width:100%;border-collapse:collapse;table-layout:fixed">',
            "<thead><tr><th style='width:2.5em'>#</th>" + "".join(f"<th style='text-align:left'>{esc(c)}</th>"
                                                                    for c in cols) + "</tr></thead><tbody>"]
    for i in on_page:
        tds = [f"<td>{esc(src[i]) if i < len(src) else ''}</td>"] if src else []
        tds.append(f"<td>{cell(view['rows'][ref], i)}</td>")
        for s in systems:
            tds.append(f"<td>{cell(view['rows'][s], i, human_errors.get(s), s)}</td>")
        mark = ";background:rgba(255,220,0,.18);border-left:4px solid #b58900" if focus == i + 1 else ""
        html.append(f"<tr id='bl-s-{i + 1}' class='bl-row' style='border-top:1px solid #ddd;vertical-align:top"
                    f"{mark}'><td>{i + 1}{' &#9664;' if focus == i + 1 else ''}</td>{''.join(tds)}</tr>")
    html.append("</tbody></table>")
    return "".join(html)


# stateful tabs: only the open one is computed, and a click in a thread or the timeline can open the
# highlighted view at its sentence
tab_hl, tab_ent, tab_pron, tab_tense = st.tabs(TABS, key="doc_tab", on_change="rerun")
with tab_hl:
    if tab_hl.open:
        st.html(CSS + legend(cats, compact=True))  # one line: the text starts above the fold at 1280x800
        if not res.sentence_level():
            st.caption("Document-level matching: a span is matched when the same feature occurs anywhere in the "
                       "reference document.")
        if cfg.entities == "document" and "entity" in cats:
            st.caption("*Document-consistent entities* is on (ent:doc): the highlighted entities are the analyser's "
                       "tags; the scores also count a tagged string where it stands untagged elsewhere in the "
                       "document (Categories, Entity strings, gives the counts).")
        st.html(highlighted())
        target = st.session_state.pop("doc_scroll", None)
        if target and target - 1 in on_page:  # a click named this sentence: bring it into view
            scroll_to(f"bl-s-{target}")
        st.caption("Matched spans are filled; spans the system missed (in the reference) or added (in a system) "
                   "are hatched with a dashed outline. Reference spans are marked against the first chosen system. "
                   "Hover a span for its feature. Lowercasing (sidebar, the package's default) is what the analyser "
                   "saw; the text is shown in its original case.")
with tab_ent:
    if tab_ent.open:
        entity_threads_view(res, di, systems, ref, focus=True, key="doc_ent_threads")
with tab_pron:
    if tab_pron.open:
        pronoun_threads_view(res, di, systems, ref, focus=True, key="doc_pron_threads")
with tab_tense:
    if tab_tense.open:
        tense_timeline_view(res, di, systems, ref, focus=True, key="doc_timeline")

# the per-document scores (--per-doc); with MQM error spans, this document's overlap table too
extra = []
if d.human is not None and d.human.error_spans:
    extra = ["--human", d.human_file, "--overlap", "--overlap-documents", doc]
    if ref != res.references[0]:
        extra += ["--overlap-reference", ref]
signature_box(res.signature, command=("score", extra))
