"""Documents: one document sentence by sentence, spans highlighted as in the paper's Figure 3."""
import pandas as pd
import streamlit as st

from blonde_core.diagnostics import collapse_notes, sentence_view
from blonde_core.render import COLORS, CSS, LABELS, legend, render_text
from blonde_core.scoring import score
from pages._shared import config, esc, need_data, result, signature_box

st.title("Documents")
d = need_data("highlighted documents")
if d is None:
    st.stop()
cfg = config()
res = result(d, cfg)
if res is None:
    st.stop()
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

# per-document scores of the chosen systems
rows = []
for n in systems:
    per = score(res.doc_stats(n)[di], res.config, res.layout, res.plus)
    row = {"system": n, "BlonDe F1": per["BlonDe"]["F1"] * 100, "BlonD-d F1": per["BlonD-d"]["F1"] * 100}
    for c, v in per["categories"].items():
        row[f"{c} F1"] = v["F1"] * 100
    rows.append(row)
if rows:
    st.dataframe(pd.DataFrame(rows), hide_index=True,
                 column_config={k: st.column_config.NumberColumn(format="%.1f") for k in rows[0] if k != "system"})
for n in systems:
    for note in collapse_notes(res, n).get(doc, []):
        st.warning(f"{n}: {note}", icon=":material/warning:")

st.html(CSS + legend(cats))
if not res.config.granularity == "sentence":
    st.caption("Document-level matching: a span is matched when the same feature occurs anywhere in the "
               "reference document.")
src = res.corpus.source[di] if res.corpus.source else None
cols = (["source"] if src else []) + [f"reference: {ref}"] + [f"system: {s}" for s in systems]
n_rows = max(len(view["rows"][ref]), *(len(view["rows"][s]) for s in systems)) if systems else \
    len(view["rows"][ref])


def cell(rows, i):
    if i >= len(rows):
        return ""
    r = rows[i]
    counts = " ".join(f'<span style="color:{COLORS[c]}">{esc(LABELS[c].split()[-1][:6])} {r["counts"].get(c, 0)}'
                      f"</span>" for c in cats)
    return (f'<div class="bl-doc">{render_text(r["text"], r["spans"], cats)}</div>'
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
        tds.append(f"<td>{cell(view['rows'][s], i)}</td>")
    html.append(f"<tr style='border-top:1px solid #ddd;vertical-align:top'><td>{i + 1}</td>{''.join(tds)}</tr>")
html.append("</tbody></table>")
st.html("".join(html))
st.caption("Matched spans are filled; spans the system missed (in the reference) or added (in a system) are "
           "hatched with a dashed outline. Reference spans are marked against the first chosen system. Hover a "
           "span for its feature.")
signature_box(res.signature)
