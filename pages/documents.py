"""Documents: one document sentence by sentence, spans highlighted as in the paper's Figure 3."""
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from blonde_core.render import COLORS, CSS, LABELS, legend, render_errors, render_text
from blonde_core.study import (THIN, GROUP_ORDER, MIN_SIMILARITY, collapse_notes, document_errors, entity_threads,
                               error_overlap, pronoun_threads, score, sentence_view, tense_timeline)
from pages._shared import downloads, esc, label, md, shown_f1, signature_box, spans_text, start_page

d, cfg, res = start_page("Documents", "highlighted documents")
docs = res.corpus.doc_ids
c1, c2, c3 = st.columns([1, 2, 1])
default_doc = st.session_state.get("doc_pick", docs[0])
doc = c1.selectbox("Document", docs, index=docs.index(default_doc) if default_doc in docs else 0, key="doc_sel")
default_sys = [s for s in st.session_state.get("sys_pick", res.names[:2]) if s in res.names] or res.names[:1]
systems = c2.multiselect("Systems", res.names, default=default_sys, key="doc_systems")
ref = c3.selectbox("Reference", list(res.corpus.references), key="doc_ref")
cats = st.pills("Categories", list(COLORS), default=list(COLORS), selection_mode="multi", format_func=LABELS.get,
                key="doc_cats")
di = docs.index(doc)
view = sentence_view(res, di, systems, ref)
# human (MQM) error spans of the chosen systems in this document, filterable
human_errors = {}
if d.human is not None and d.human.error_spans:
    human_errors = {s: document_errors(res, d.human, di, s) for s in systems}
    every = [e for rows in human_errors.values() if rows for errs in rows for e in errs]
    with st.expander(f"Human error spans (MQM): {len(every)} in this document for the chosen systems",
                     expanded=bool(every)):
        f1_, f2_, f3_ = st.columns(3)
        raters = sorted({e["rater"] for e in every})
        mqm_cats = sorted({e["category"] for e in every})
        sevs = sorted({e["severity"] for e in every})
        pick_r = f1_.multiselect("Raters", raters, default=raters, key=f"mqm_r_{doc}")
        pick_c = f2_.multiselect("MQM categories", mqm_cats, default=mqm_cats, key=f"mqm_c_{doc}")
        pick_s = f3_.multiselect("Severities", sevs, default=sevs, key=f"mqm_s_{doc}")
        st.caption("Under each system sentence, after a double bar: the rated text with every human error "
                   "underlined (wavy) and its severity in brackets ([Maj], [Min], ...); hover for category and "
                   "rater. BlonDe's own spans keep their colours in the line above.")
        keep = (lambda e: e["rater"] in pick_r and e["category"] in pick_c and e["severity"] in pick_s)
        human_errors = {s: (None if rows is None else [[e for e in errs if keep(e)] for errs in rows])
                        for s, rows in human_errors.items()}
        missing = [s for s, rows in human_errors.items() if rows is None]
        if missing:
            st.caption("Not paired with the judgments (not judged, or other segment counts): "
                       f"{md(', '.join(missing))}")
        ov = error_overlap(res, d.human, systems, ref, doc_ids=[doc])
        ov_rows = [{"system": s, "category": c, "BlonDe unmatched (system)": x["unmatched"],
                    "overlapped by a human error": x["overlapped"],
                    "share": x["share_overlapped"], "their MQM categories": ", ".join(
                        f"{k} {n}" for k, n in x["mqm_categories"].items()),
                    "BlonDe missed (reference)": x["missed"],
                    "in segments with a human error": x["missed_in_flagged_segments"]}
                   for s, v in ov["systems"].items() for c, x in v["categories"].items()]
        if ov_rows:
            st.dataframe(pd.DataFrame(ov_rows), hide_index=True,
                         column_config={"share": st.column_config.NumberColumn(format="%.2f")})
            alone = {s: v["human_error_spans_where_blonde_saw_no_discourse_mismatch"]
                     for s, v in ov["systems"].items()}
            st.caption("Human error spans in sentences where BlonDe saw no discourse mismatch: "
                       + ", ".join(f"{md(s)} {n}" for s, n in alone.items()) + ". All filters apply to the text only; "
                       "the table counts every rater.")
            downloads(pd.DataFrame(ov_rows), f"overlap_{doc}", key="ovl")

# per-document scores of the chosen systems
rows = []
for n in systems:
    per = score(res.doc_stats(n)[di], res.config, res.layout, res.plus)
    row = {"system": n, "BlonDe F1": per["BlonDe"]["F1"] * 100, "BlonD-d F1": per["BlonD-d"]["F1"] * 100}
    for c, v in per["categories"].items():
        row[f"{c} F1"] = shown_f1(v) * 100
        row[f"{c} spans"] = spans_text(v)
    rows.append(row)
if rows:
    st.dataframe(pd.DataFrame(rows), hide_index=True,
                 column_config={k: st.column_config.NumberColumn(format="%.1f") for k in rows[0]
                                if k != "system" and not k.endswith(" spans")})
    st.caption(f"Spans: matched / in system / in reference for this document; ° = thin evidence (fewer than {THIN} "
               "reference spans).")
    downloads(pd.DataFrame(rows), f"document_{doc}_scores", key="docsc")
collapsed = [(n, note) for n in systems for note in collapse_notes(res, n).get(doc, [])]
if collapsed:
    st.warning("Collapsed geometric means in this document (a category that matched nothing enters as 0, floored "
               "at 1e-5):\n\n" + "\n".join(f"- **{md(n)}**: {md(note)}" for n, note in collapsed),
               icon=":material/warning:")

tab_hl, tab_ent, tab_pron, tab_tense = st.tabs(["Highlighted spans", "Entity threads", "Pronoun threads",
                                                 "Tense timeline"])
tab_hl.html(CSS + legend(cats))
if not res.config.granularity == "sentence":
    tab_hl.caption("Document-level matching: a span is matched when the same feature occurs anywhere in the "
               "reference document.")
src = res.corpus.source[di] if res.corpus.source else None
cols = (["source"] if src else []) + [f"reference: {ref}"] + [f"system: {s}" for s in systems]
n_rows = max(len(view["rows"][ref]), *(len(view["rows"][s]) for s in systems)) if systems else \
    len(view["rows"][ref])


def cell(rows, i, errors=None):
    if i >= len(rows):
        return ""
    r = rows[i]
    counts = " ".join(f'<span style="color:{COLORS[c]}">{esc(LABELS[c].split()[-1][:6])} {r["counts"].get(c, 0)}'
                      f"</span>" for c in cats)
    mqm = ""
    if errors is not None and i < len(errors) and errors[i]:
        mqm = f'<div class="bl-mqm-line">{render_errors(r["text"], errors[i])}</div>'
    return (f'<div class="bl-doc">{render_text(r["text"], r["spans"], cats)}</div>{mqm}'
            f'<div style="font-size:.75rem;opacity:.8">{counts}</div>')


html = ['<table style="width:100%;border-collapse:collapse;table-layout:fixed">',
        "<thead><tr><th style='width:2.5em'>#</th>" + "".join(f"<th style='text-align:left'>{esc(c)}</th>"
                                                                for c in cols) + "</tr></thead><tbody>"]
for i in range(n_rows):
    tds = []
    if src:
        tds.append(f"<td>{esc(src[i]) if i < len(src) else ''}</td>")
    tds.append(f"<td>{cell(view['rows'][ref], i)}</td>")
    for s in systems:
        tds.append(f"<td>{cell(view['rows'][s], i, human_errors.get(s))}</td>")
    html.append(f"<tr style='border-top:1px solid #ddd;vertical-align:top'><td>{i + 1}</td>{''.join(tds)}</tr>")
html.append("</tbody></table>")
tab_hl.html("".join(html))
tab_hl.caption("Matched spans are filled; spans the system missed (in the reference) or added (in a system) are "
           "hatched with a dashed outline. Reference spans are marked against the first chosen system. Hover a "
           "span for its feature.")

with tab_ent:
    st.caption("Each entity of the reference and the string each system used for it, sentence by sentence. "
               "Alignment is heuristic: in the same sentence (the whole document under document-level matching), "
               "an identical entity of the same group, else the most similar system entity (word overlap or "
               f"character similarity of at least {MIN_SIMILARITY}); none means missing.")
    for n in systems:
        ths = entity_threads(res, di, n, ref)
        st.markdown(f"**{md(n)}**")
        if not ths:
            st.write("No counted entity in the reference of this document.")
            continue
        out = ["<table style='width:100%;border-collapse:collapse'><tr><th style='text-align:left'>reference entity"
               "</th><th style='text-align:left'>system, sentence by sentence</th><th>renderings</th></tr>"]
        for th in ths:
            chips = []
            for o in th["occurrences"]:
                if o["system"] is None:
                    chips.append(f"<span style='background:#eee;color:#777;padding:1px 5px;border-radius:3px'>"
                                 f"s{o['sentence']}: missing</span>")
                else:
                    colour = "#dff0d8" if o["exact"] else "#f8d7da"
                    chips.append(f"<span style='background:{colour};padding:1px 5px;border-radius:3px'>"
                                 f"s{o['sentence']}: {esc(o['system'])}</span>")
            flag = "" if th["consistent"] else " &#9888;"
            out.append(f"<tr style='border-top:1px solid #ddd'><td>{esc(th['entity'])} <small>({esc(th['group'])})"
                       f"</small>{flag}</td><td>{' '.join(chips)}</td><td style='text-align:center'>"
                       f"{len(th['renderings'])}</td></tr>")
        out.append("</table>")
        st.html("".join(out))

with tab_pron:
    rows_p = pronoun_threads(res, di, systems, ref)
    gender_colour = {"masculine": "#4a6fa5", "feminine": "#bc4b51", "neuter": "#888", "epicene": "#5b8e7d"}
    names_p = [ref] + [s for s in systems if s != ref]
    out = ["<table style='width:100%;border-collapse:collapse'><tr><th>#</th>" +
           "".join(f"<th style='text-align:left'>{esc(x)}</th>" for x in names_p) + "</tr>"]
    for row in rows_p:
        tds = []
        for x in names_p:
            items = " ".join(f"<span style='color:{gender_colour[c]};font-weight:600'>{esc(w)}</span>"
                             f"<small style='color:{gender_colour[c]}'> {esc(c[:4])}</small>"
                             for w, c in row["pronouns"][x]) or "<span style='color:#bbb'>-</span>"
            bad = row["mismatch"].get(x, False)
            tds.append(f"<td style='background:{'#f8d7da' if bad else 'transparent'}'>{items}</td>")
        out.append(f"<tr style='border-top:1px solid #ddd'><td>{row['sentence']}</td>{''.join(tds)}</tr>")
    out.append("</table>")
    st.caption("Gendered pronouns per sentence; red cells: the masculine/feminine pronouns differ from the "
               "reference's.")
    st.html("".join(out))

with tab_tense:
    tl = tense_timeline(res, di, systems, ref)
    labels = GROUP_ORDER[:3] + ["base form", "gerund", "other verbs", "no verb"]
    codes = {g: i for i, g in enumerate(["past", "present", "modal/future", "other verbs", "no verb"])}
    palette = ["#5b8e7d", "#f4a259", "#4a6fa5", "#d9d9d9", "#ffffff"]
    ys = list(tl)
    n_max = max(len(v) for v in tl.values())
    z = [[codes.get(seq[i]["dominant"], 3) if i < len(seq) else None for i in range(n_max)] for seq in tl.values()]
    hover = [[(", ".join(f"{k} {v}" for k, v in seq[i]["counts"].items()) or "no verb") if i < len(seq) else ""
              for i in range(n_max)] for seq in tl.values()]
    scale = []
    for i, col in enumerate(palette):
        scale += [[i / len(palette), col], [(i + 1) / len(palette), col]]
    fig = go.Figure(go.Heatmap(z=z, x=list(range(1, n_max + 1)), y=[label(y) for y in ys], zmin=-0.5, zmax=len(palette) - 0.5,
                               colorscale=scale, text=hover, xgap=2, ygap=2,
                               hovertemplate="%{y}, sentence %{x}: %{text}<extra></extra>",
                               colorbar=dict(tickvals=list(range(len(palette))),
                                             ticktext=["past", "present", "modal/future", "other verbs", "no verb"])))
    fig.update_layout(height=120 + 40 * len(ys), xaxis_title="sentence", yaxis_autorange="reversed",
                      margin=dict(t=10))
    st.caption("Dominant tense of every sentence (past: VBD/VBN, present: VBP/VBZ, modal/future: MD); "
               "a colour change across a row is tense drift.")
    st.plotly_chart(fig, width="stretch")

signature_box(res.signature)
