"""Categories: BlonD-d broken down per category, per feature, per entity string and per document."""
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from blonde_core.render import category_label
from blonde_core.study import CATALOG
from blonde_core.render import shown_f1
from studio.gate import start_page
from studio.navigation import open_documents
from studio.plots import PATTERNS, clickable, clicked
from studio.tables import downloads, number_columns, system_column
from studio.text import label, md_escape, unlabel
from studio.widgets import TAG_MARK, keep_choices, signature_box, system_order, tagging_marked, tagging_note

d, cfg, res = start_page("Categories", "the category breakdown")
DISCOURSE_CATS = res.discourse_categories()
o1, o2 = st.columns([1, 1])
part = o1.segmented_control("Measure", ["F1", "R", "P"], default="F1", key="cat_part") or "F1"
names = system_order(res, container=o2)  # the heatmaps' rows: rank order (or A-Z)

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
# The reference's span count is one number per column when every system is scored against the
# same reference spans (one reference, or several summed): it goes under the column's name, and a
# cell shows matched/in system - a cell with all three counts (10,293 1-grams) was wider than its
# column at 1280 px and plotly cut it off.
ref_col = {c: {spans[n][c]["reference"] for n in names} for c in cats}
ref_in_axis = all(len(v) == 1 for v in ref_col.values())
st.caption(f"Blank: the category has no span in reference or system (hover a cell: it says so). F1 is 0 where "
           f"nothing matched "
           f"(the blonde package reports NaN there). Each cell shows the score over its span counts "
           + ("(matched / in system; the reference's count is under the category's name)" if ref_in_axis
              else "(matched / in system / in reference)")
           + f"; **°** marks thin evidence: fewer than {CATALOG.thin} reference spans. Colour is relative to "
           "each column's own range - red (**▼**) the lowest score in that category, blue (**▲**) the highest; "
           "the numbers are on the 0-100 scale.")
# colour per column, relative to that column's range (issue 60): the n-gram columns' absolute level no longer
# makes them the darkest, and in every category the worst system is the red cell (▼; ▲ the best - the marks say
# it without the colour); a column whose systems all score alike is neutral
lo, hi = np.nanmin(np.where(np.isnan(heat.values), np.inf, heat.values), 0), \
    np.nanmax(np.where(np.isnan(heat.values), -np.inf, heat.values), 0)
spread = np.where(np.isfinite(hi - lo) & (hi - lo > 1e-9), hi - lo, np.nan)
with np.errstate(invalid="ignore"):
    rel = np.where(np.isnan(spread), 0.5, (heat.values - lo) / np.where(np.isnan(spread), 1, spread))
rel = np.where(np.isnan(heat.values), np.nan, rel)
ends = np.where(np.isnan(heat.values) | np.isnan(spread)[None, :], "",
                np.where(heat.values <= lo + 1e-9, "▼", np.where(heat.values >= hi - 1e-9, "▲", "")))
cell_text = [[("" if np.isnan(heat.values[i, j])
               else f"{ends[i, j]}{heat.values[i, j]:.1f}{'°' if thin[i, j] else ''}")
              + f"<br>{spans[n][c]['matched']:g}/{spans[n][c]['system']:g}"
              + ("" if ref_in_axis else f"/{spans[n][c]['reference']:g}")
              for j, c in enumerate(cats)] for i, n in enumerate(names)]
custom = [[[spans[n][c]["matched"], spans[n][c]["system"], spans[n][c]["reference"]] for c in cats] for n in names]
marked = tagging_marked(cfg)  # tagging below the bar in this language: the header carries † (never colour alone)
cat_x = [category_label(c) + (TAG_MARK if c in marked else "") + (f"<br>ref {next(iter(ref_col[c])):g}" if ref_in_axis
                                                                   else "") for c in cats]
fig = go.Figure(go.Heatmap(z=rel.tolist(), x=cat_x, y=[label(n) for n in names],
                           colorscale="RdYlBu", zmin=0, zmax=1, text=cell_text, texttemplate="%{text}",
                           textfont=dict(size=11),
                           colorbar=dict(title="within<br>column", tickvals=[0, 0.5, 1],
                                         ticktext=["lowest", "middle", "highest"])))
clickable(fig, cat_x, [label(n) for n in names],
          [[f"{label(n)} / {category_label(c)}: " + ("- (no span on either side)" if np.isnan(heat.values[i, j])
                                                      else f"{heat.values[i, j]:.2f}")
            + f"<br>spans matched {custom[i][j][0]:g}, in system {custom[i][j][1]:g}, in reference {custom[i][j][2]:g}"
            + ("<br>click: the system's documents for this category" if c in DISCOURSE_CATS else "")
            for j, c in enumerate(cats)] for i, n in enumerate(names)], size=30)
fig.update_layout(height=80 + 40 * len(names), margin=dict(t=10, b=10), yaxis_autorange="reversed",
                  xaxis_side="top")


def pick_category():  # once per click: the document heatmap below shows that category, the system marked
    pt = clicked(st.session_state["cat_heat"])
    if pt:
        c_ = cats[cat_x.index(pt["x"])]
        st.session_state["doc_metric"] = c_ if c_ in DISCOURSE_CATS else "BlonD-d"
        st.session_state["doc_heat_system"] = unlabel(pt["y"])
        st.session_state["cat_tab"] = "Systems x documents"


st.plotly_chart(fig, width="stretch", on_select=pick_category, selection_mode="points", key="cat_heat")
st.caption("Click a cell: the *Systems x documents* tab below opens on that category (the system marked); "
           "click a document cell there to open it.")
tagging_note(cfg)
heat_table = heat.rename(columns=category_label).reset_index(names="system")
for c in cats:
    heat_table[f"{category_label(c)} ref spans"] = [spans[n][c]["reference"] for n in names]
    heat_table[f"{category_label(c)} sys spans"] = [spans[n][c]["system"] for n in names]
    heat_table[f"{category_label(c)} matched"] = [spans[n][c]["matched"] for n in names]
    heat_table[f"{category_label(c)} thin"] = [bool(blocks[n][c]["thin"]) for n in names]
    if c in marked:  # the measured tagging travels with the download
        heat_table[f"{category_label(c)} tagging (below the bar)"] = "tagging " + marked[c]
with st.expander("As a table", expanded=False):
    shown, formats = number_columns(heat_table)
    st.dataframe(shown, hide_index=True, placeholder="-", column_config={**formats, "system": system_column()})
    st.caption("A dash (-): the category has no span in reference or system.")
downloads(heat_table, "categories", key="cat")


def per_feature():
    c1, c2 = st.columns([1, 2])
    cat = c1.selectbox("Category", [c for c in CATALOG.categories if c in cfg.categories], key="feat_cat",
                       format_func=lambda c: CATALOG.category_words[c]["features"])
    kept = st.session_state.get("feat_systems")
    if kept is None or not set(kept) <= set(names):  # first open, or systems of other data
        st.session_state["feat_systems"] = names[: min(5, len(names))]
    chosen = c2.multiselect("Systems", names, key="feat_systems")
    frames = []
    for n in chosen:
        fb = pd.DataFrame([r for r in res.feature_breakdown(n) if r["category"] == cat])
        fb = fb.rename(columns={"system": "in system", "reference": "in reference"})
        fb.insert(0, "system", n)
        frames.append(fb)
    if frames:
        feats = pd.concat(frames, ignore_index=True)
        fig = go.Figure()
        for k, n in enumerate(chosen):  # a pattern per system too: colour is not the only cue
            sub = feats[feats.system == n]
            fig.add_bar(x=sub["feature"], y=sub[part] * 100, name=label(n),
                        marker_pattern_shape=PATTERNS[k % len(PATTERNS)], marker_pattern_fillmode="overlay",
                        customdata=np.stack([sub["matched"], sub["in system"], sub["in reference"]], -1),
                        hovertemplate="%{x}: %{y:.1f}<br>matched %{customdata[0]:.0f}, system %{customdata[1]:.0f}, "
                                      "reference %{customdata[2]:.0f}<extra>" + label(n) + "</extra>")
        fig.update_layout(barmode="group", yaxis_title=f"{part} x 100", height=380, margin=dict(t=10))
        st.plotly_chart(fig, width="stretch")
        zero = list(dict.fromkeys(feats.loc[feats["weight"] == 0, "feature"].astype(str)))
        st.caption("Unweighted counts per feature, the feature names of the language pack. "
                   + (f"Weight 0 in the current preset (shown, not in the score): {md_escape(', '.join(zero))}."
                      if zero else "Every feature shown carries weight in the current preset."))
        shown, formats = number_columns(feats, precision=3)
        st.dataframe(shown, hide_index=True, placeholder="-", column_config=formats)
        st.caption("A dash (-): R, P or F1 undefined (no span in reference or system for that feature).")
        downloads(feats, f"features_{cat}", key="feat")
    else:
        st.info("Choose one or more systems above.")


def entity_strings():
    who = st.selectbox("System", names, key="ent_system")
    ents = pd.DataFrame(res.entity_strings(who))
    if ents.empty:
        st.info("No named entity of the counted groups in this system or the reference.")
    else:
        ents["documents"] = ents["documents"].map(", ".join)
        tagger = int(ents["by the tagger"].sum())
        st.caption("How often each entity string occurs in the reference and in the system, and how many "
                   "occurrences match in the same sentence; strings the system renders differently show up as "
                   "missed (reference side) and extra (system side). **by the tagger**: of those, the occurrences "
                   "where the same string stands in the other text and the analyser did not tag it there - the "
                   f"tagger's miss, not the translation's ({tagger} in all)."
                   + (" *Document-consistent entities* is on (sidebar, More settings; ent:doc): a string tagged "
                      "anywhere in a document counts wherever it occurs there." if cfg.entities == "document" else
                      (" *Document-consistent entities* (sidebar, More settings) counts a string tagged anywhere in a "
                       "document wherever it occurs there." if tagger else "")))
        st.dataframe(ents[["group", "as written", "entity", "reference", "system", "matched", "missed", "extra",
                           "by the tagger", "documents"]].rename(columns={"entity": "matching key"}), hide_index=True,
                     placeholder="-")
        if cfg.tag_lowercase:
            st.caption("**as written**: the entity's most frequent form in the texts; **matching key**: what is "
                       "matched. *Lowercase before annotation* is on (sidebar; the blonde package's default, kept for "
                       "exact scores): the analyser sees lowercased text, which makes it miss some names (e.g. "
                       "'galileo') and can change the ranking. *Tag the text as written, compare lowercased* "
                       "(sidebar) keeps the lowercased matching and lets the analyser see capitals (tag:written in "
                       "the signature); switching lowercasing off annotates and matches the text as written "
                       "(case:mixed).")
        downloads(ents, f"entities_{who}", key="ent")


def systems_by_documents():
    doc_metric = st.selectbox("Score", ["BlonD-d", "BlonDe"] + cats, key="doc_metric",
                              format_func=category_label)
    vals, marks, hover = [], [], []
    for n in names:
        per = res.score_stats(res.doc_stats(n))
        block = per[doc_metric] if doc_metric in ("BlonD-d", "BlonDe") else per["categories"][doc_metric]
        vals.append(np.asarray(block[part], dtype=float) * 100)
        if doc_metric in per["categories"]:  # a category: its counts per document, thin cells marked
            c_ = per["categories"][doc_metric]
            ref_n = np.asarray(c_["reference"], dtype=float)
            marks.append(["°" if r < CATALOG.thin else "" for r in ref_n])
            hover.append([f"spans matched {m:g}, in system {sy:g}, in reference {r:g}" for m, sy, r in
                          zip(np.asarray(c_["matched"]), np.asarray(c_["system"]), ref_n)])
        else:
            marks.append([""] * len(res.doc_ids))
            hover.append([""] * len(res.doc_ids))
    docs = res.doc_ids
    xd, yd = [label(x) for x in docs], [label(n) for n in names]
    mark_sys = st.session_state.get("doc_heat_system")
    fig = go.Figure(go.Heatmap(z=vals, x=xd, y=yd, colorscale="Viridis", zmin=0, zmax=100, text=marks,
                               texttemplate="%{text}", colorbar=dict(title=f"{part} x 100")))
    clickable(fig, xd, yd, [[f"{yd[i]} / {xd[j]}: " + ("- (absent on both sides)" if np.isnan(vals[i][j]) else
                                                      f"{vals[i][j]:.2f}")
                             + (f"<br>{hover[i][j]}" if hover[i][j] else "")
                             + "<br>click to open this document for this system" for j in range(len(docs))]
                            for i in range(len(names))], size=16)
    if mark_sys in names:  # the system picked in the heatmap above, outlined
        fig.add_shape(type="rect", xref="paper", x0=0, x1=1, yref="y", y0=names.index(mark_sys) - 0.5,
                      y1=names.index(mark_sys) + 0.5, line=dict(color="#d62728", width=3))
    fig.update_layout(height=60 + 28 * len(names), margin=dict(t=10, b=10), yaxis_autorange="reversed")
    pt = clicked(st.plotly_chart(fig, width="stretch", on_select="rerun", selection_mode="points", key="doc_heat"))
    if pt:
        open_documents(doc=unlabel(pt["x"]), systems=[unlabel(pt["y"])],
                       categories=[doc_metric] if doc_metric in DISCOURSE_CATS else None,
                       only=[doc_metric] if doc_metric in DISCOURSE_CATS else [], origin="categories")
    st.caption("Click a cell to open that document for that system on the Documents page"
               + (f", showing only the sentences where {category_label(doc_metric)} mismatches"
                  if doc_metric in DISCOURSE_CATS else "") + "."
               + (f" ° marks thin evidence (fewer than {CATALOG.thin} reference spans of {doc_metric} "
                  "in that document)." if doc_metric in cats else ""))
    pick_doc = st.selectbox("...or open a document", docs, key="open_doc")
    if st.button("Open in Documents"):
        open_documents(doc=pick_doc, origin="categories")


def collapsed_documents():
    notes = {n: res.collapse_notes(n) for n in names}
    flat = [{"system": n, "document": doc, "note": msg} for n, nd in notes.items() for doc, msgs in nd.items()
            for msg in msgs]
    if flat:
        by_doc = pd.DataFrame(flat).groupby(["document", "note"])["system"].apply(list).reset_index()
        SHOWN = 8  # a long list (1,092 notes on WMT22) is counted and folded: the first few here, all in the table
        lines = [f"- **{md_escape(r.document)}** — {md_escape(r.note)} "
                 f"({len(r.system)} system{'s' if len(r.system) > 1 else ''}"
                 f": {md_escape(', '.join(r.system[:6]))}{' ...' if len(r.system) > 6 else ''})"
                 for r in by_doc.itertuples()]
        more = len(lines) - SHOWN
        st.warning("A category that matched nothing enters the geometric mean as 0, floored at 1e-5, so the "
                   "document's BlonDe collapses towards 0 (blank-looking heatmap cells above):\n\n"
                   + "\n".join(lines[:SHOWN])
                   + (f"\n\n... and {more} more (document, reason) pairs: all of them in the table below." if more > 0
                      else "")
                   + ("\n\nThe sidebar's *Leave absent categories out of the mean* (More settings) changes that where "
                      "one side has no span at all; the default is the package's behaviour."
                      if cfg.absent == "keep" else ""), icon=":material/warning:")
        with st.expander(f"As a table ({len(flat)} rows)", expanded=False):
            st.dataframe(pd.DataFrame(flat), hide_index=True, placeholder="-", height=min(38 + 35 * len(flat), 400))
            downloads(pd.DataFrame(flat), "collapsed_documents", key="coll")
    else:
        st.write("No document has a category that matched nothing.")


# the details, one tab at a time: only the open tab's content is computed and drawn (a click on a cell of the
# heatmap above opens "Systems x documents")
SECTIONS = {"Per feature": per_feature, "Systems x documents": systems_by_documents, "Entity strings": entity_strings,
            "Collapsed document scores": collapsed_documents}
keep_choices("feat_cat", "feat_systems", "doc_metric", "ent_system", "open_doc")  # a closed tab's too
for tab, draw in zip(st.tabs(list(SECTIONS), key="cat_tab", on_change="rerun"), SECTIONS.values()):
    if tab.open:
        with tab:
            draw()
# the per-feature counts and the entity strings too (the systems x documents scores: --per-doc, always there)
signature_box(res.signature, command=("score", ["--per-feature", "--entity-strings"]))
