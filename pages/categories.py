"""Categories: BlonD-d broken down per category, per feature, per entity string and per document."""
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from blonde_core.study import THIN, collapse_notes, entity_strings, feature_breakdown, score
from pages._shared import downloads, label, md, shown_f1, signature_box, start_page, unlabel

d, cfg, res = start_page("Categories", "the category breakdown")
names = res.names
part = st.segmented_control("Measure", ["F1", "R", "P"], default="F1", key="cat_part") or "F1"

# systems x categories
cats = list(res.scores(names[0])["categories"])


def cell(block):
    if part == "F1":
        return 100 * shown_f1(block)
    return np.nan if block[part] is None else 100 * block[part]


blocks = {n: res.scores(n)["categories"] for n in names}
z = [[cell(blocks[n][c]) for c in cats] for n in names]
heat = pd.DataFrame(z, index=names, columns=cats)
spans = {n: {c: blocks[n][c]["spans"] for c in cats} for n in names}
thin = np.array([[blocks[n][c]["thin"] for c in cats] for n in names])
st.subheader(f"Systems x categories ({part} x 100)")
st.caption(f"Blank: the category has no span in reference or system. F1 is 0 where nothing matched "
           f"(the blonde package reports NaN there). Each cell shows the score over its span counts "
           f"(matched / in system / in reference); **°** marks thin evidence: fewer than {THIN} reference spans.")
cell_text = [[("" if np.isnan(heat.values[i, j]) else f"{heat.values[i, j]:.1f}{'°' if thin[i, j] else ''}")
              + f"<br>{spans[n][c]['matched']:g}/{spans[n][c]['system']:g}/{spans[n][c]['reference']:g}"
              for j, c in enumerate(cats)] for i, n in enumerate(names)]
custom = [[[spans[n][c]["matched"], spans[n][c]["system"], spans[n][c]["reference"]] for c in cats] for n in names]
fig = go.Figure(go.Heatmap(z=heat.values, x=[c if not c.isdigit() else f"{c}-gram" for c in cats],
                           y=[label(n) for n in names], customdata=custom,
                           colorscale="RdYlGn", zmin=0, zmax=100, text=cell_text, texttemplate="%{text}",
                           textfont=dict(size=11),
                           hovertemplate="%{y} / %{x}: %{z:.2f}<br>spans matched %{customdata[0]:g}, in system "
                                         "%{customdata[1]:g}, in reference %{customdata[2]:g}<extra></extra>"))
fig.update_layout(height=80 + 40 * len(names), margin=dict(t=10, b=10), yaxis_autorange="reversed",
                  xaxis_side="top")
st.plotly_chart(fig, width="stretch")
heat_table = heat.reset_index(names="system")
for c in cats:
    heat_table[f"{c} ref spans"] = [spans[n][c]["reference"] for n in names]
    heat_table[f"{c} sys spans"] = [spans[n][c]["system"] for n in names]
    heat_table[f"{c} matched"] = [spans[n][c]["matched"] for n in names]
    heat_table[f"{c} thin"] = [bool(blocks[n][c]["thin"]) for n in names]
with st.expander("As a table", expanded=False):
    st.dataframe(heat_table, hide_index=True,
                 column_config={c: st.column_config.NumberColumn(format="%.2f") for c in cats})
downloads(heat_table, "categories", key="cat")

# per feature
st.subheader("Per feature")
c1, c2 = st.columns([1, 2])
cat = c1.selectbox("Category", [c for c in ("tense", "pronoun", "entity", "dm", "ngram") if c in cfg.categories],
                   format_func={"tense": "verb tense (tags)", "pronoun": "pronoun gender", "entity": "entity group",
                                "dm": "discourse-marker type", "ngram": "n-gram order"}.get)
chosen = c2.multiselect("Systems", names, default=names[: min(5, len(names))], key="feat_systems")
frames = []
for n in chosen:
    fb = pd.DataFrame([r for r in feature_breakdown(res, n) if r["category"] == cat])
    fb = fb.rename(columns={"system": "in system", "reference": "in reference"})
    fb.insert(0, "system", n)
    frames.append(fb)
if frames:
    feats = pd.concat(frames, ignore_index=True)
    fig = go.Figure()
    for n in chosen:
        sub = feats[feats.system == n]
        fig.add_bar(x=sub["feature"], y=sub[part] * 100, name=n,
                    customdata=np.stack([sub["matched"], sub["in system"], sub["in reference"]], -1),
                    hovertemplate="%{x}: %{y:.1f}<br>matched %{customdata[0]:.0f}, system %{customdata[1]:.0f}, "
                                  "reference %{customdata[2]:.0f}<extra>" + n.replace("<", "&lt;") + "</extra>")
    fig.update_layout(barmode="group", yaxis_title=f"{part} x 100", height=380, margin=dict(t=10))
    st.plotly_chart(fig, width="stretch")
    st.caption("Unweighted counts per feature. Features with weight 0 in the current preset (e.g. neuter and "
               "epicene pronouns, NON-PERSON entities in blonde-0.1.4) are shown but do not enter the score.")
    st.dataframe(feats, hide_index=True, column_config={
        c: st.column_config.NumberColumn(format="%.3f") for c in ("R", "P", "F1", "weight")})
    downloads(feats, f"features_{cat}", key="feat")

# entity strings
st.subheader("Entity strings")
who = st.selectbox("System", names, key="ent_system")
ents = pd.DataFrame(entity_strings(res, who))
if ents.empty:
    st.info("No named entity of the counted groups in this system or the reference.")
else:
    ents["documents"] = ents["documents"].map(", ".join)
    st.caption("How often each entity string occurs in the reference and in the system, and how many "
               "occurrences match in the same sentence; strings the system renders differently show up as "
               "missed (reference side) and extra (system side).")
    st.dataframe(ents[["group", "entity", "reference", "system", "matched", "missed", "extra", "documents"]],
                 hide_index=True)
    downloads(ents, f"entities_{who}", key="ent")

# systems x documents
st.subheader("Systems x documents")
doc_metric = st.selectbox("Score", ["BlonD-d", "BlonDe"] + cats, key="doc_metric")
vals, marks, hover = [], [], []
for n in names:
    per = score(res.doc_stats(n), res.config, res.layout, res.plus)
    block = per[doc_metric] if doc_metric in ("BlonD-d", "BlonDe") else per["categories"][doc_metric]
    vals.append(np.asarray(block[part], dtype=float) * 100)
    if doc_metric in per["categories"]:  # a category: its counts per document, thin cells marked
        c_ = per["categories"][doc_metric]
        ref_n = np.asarray(c_["reference"], dtype=float)
        marks.append(["°" if r < THIN else "" for r in ref_n])
        hover.append([f"spans matched {m:g}, in system {sy:g}, in reference {r:g}" for m, sy, r in
                      zip(np.asarray(c_["matched"]), np.asarray(c_["system"]), ref_n)])
    else:
        marks.append([""] * len(res.corpus.doc_ids))
        hover.append([""] * len(res.corpus.doc_ids))
docs = res.corpus.doc_ids
fig = go.Figure(go.Heatmap(z=vals, x=[label(x) for x in docs], y=[label(n) for n in names], colorscale="RdYlGn",
                           zmin=0, zmax=100, text=marks, texttemplate="%{text}", customdata=hover,
                           hovertemplate="%{y} / %{x}: %{z:.2f}<br>%{customdata}<extra>click to open</extra>"))
fig.update_layout(height=60 + 28 * len(names), margin=dict(t=10, b=10), yaxis_autorange="reversed")
event = st.plotly_chart(fig, width="stretch", on_select="rerun", selection_mode="points", key="doc_heat")
pts = (event or {}).get("selection", {}).get("points", []) if event else []
if pts:
    st.session_state["doc_pick"] = unlabel(pts[0]["x"])
    st.session_state["sys_pick"] = [unlabel(pts[0]["y"])]
    st.switch_page("pages/documents.py")
st.caption("Click a cell to open that document for that system on the Documents page."
           + (f" ° marks thin evidence (fewer than {THIN} reference spans of {doc_metric} in that document)."
              if doc_metric in cats else ""))
pick_doc = st.selectbox("...or open a document", docs, key="open_doc")
if st.button("Open in Documents"):
    st.session_state["doc_pick"] = pick_doc
    st.switch_page("pages/documents.py")

notes = {n: collapse_notes(res, n) for n in names}
flat = [{"system": n, "document": doc, "note": msg} for n, nd in notes.items() for doc, msgs in nd.items()
        for msg in msgs]
st.subheader(f"Collapsed document scores ({len(flat)})")
if flat:
    by_doc = pd.DataFrame(flat).groupby(["document", "note"])["system"].apply(list).reset_index()
    lines = [f"- **{md(r.document)}** — {md(r.note)} ({len(r.system)} system{'s' if len(r.system) > 1 else ''}"
             f": {md(', '.join(r.system[:6]))}{' ...' if len(r.system) > 6 else ''})" for r in by_doc.itertuples()]
    st.warning("A category that matched nothing enters the geometric mean as 0, floored at 1e-5, so the "
               "document's BlonDe collapses towards 0 (blank-looking heatmap cells above):\n\n" + "\n".join(lines)
               + ("\n\nThe sidebar's *Leave absent categories out of the mean* (More settings) changes that where "
                  "one side has no span at all; the default is the package's behaviour."
                  if cfg.absent == "keep" else ""), icon=":material/warning:")
    with st.expander("As a table"):
        st.dataframe(pd.DataFrame(flat), hide_index=True)
        downloads(pd.DataFrame(flat), "collapsed_documents", key="coll")
else:
    st.write("No document has a category that matched nothing.")
signature_box(res.signature)
