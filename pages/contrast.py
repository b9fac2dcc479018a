"""Contrast: two systems side by side - where, over the corpus, they differ most per category,
and the sentences of one document where they differ, both versions highlighted."""
from functools import partial

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from blonde_core.render import CSS, LABELS, counts_line, legend, render_text
from studio.gate import start_page
from studio.navigation import open_documents, take_pending
from studio.plots import clicked
from studio.tables import downloads, styled
from studio.text import esc, md_escape
from studio.widgets import ranked, signature_box

d, cfg, res = start_page("Contrast", "a two-system contrast")
names = ranked(res)  # the leaderboard's order: best first
if len(names) < 2:
    st.info("The contrast needs at least two systems.")
    st.stop()
take_pending("ct")  # the Significance matrix picked the pair
for k, default in (("ct_a", names[0]), ("ct_b", names[1])):  # the top two unless a pair was picked
    if st.session_state.get(k) not in names:
        st.session_state[k] = default
c1, c2, c3 = st.columns([1, 1, 1])
a = c1.selectbox("System A", names, key="ct_a")
b = c2.selectbox("System B", names, key="ct_b")
cats = res.discourse_categories()
if a == b:
    st.warning("Pick two different systems.")
    st.stop()
if not cats:
    st.info("No discourse category is selected (sidebar: Categories).")
    st.stop()
cat = c3.selectbox("Category", cats, format_func=LABELS.get, key="ct_cat")
out = res.contrast(a, b)  # what the command line's `contrast --pair A B` prints too
summary = pd.DataFrame(out["categories"])
summary["category"] = summary["category"].map(LABELS)
st.subheader(f"{md_escape(a)} (A) vs {md_escape(b)} (B), whole corpus")
st.dataframe(styled(summary), hide_index=True, placeholder="-")
st.caption("F1 in points over the corpus; the last columns count the sentences where A makes fewer errors than B "
           "in the category, B fewer than A, or both the same (errors = missed + extra spans, counted as the "
           "score counts them)." if out["sentence_level"] else "F1 in points over the corpus.")



def pick_doc(key: str, documents: list[str]) -> None:  # once per selection: that document below
    rows = st.session_state[key].selection.rows
    if rows:
        st.session_state["ct_doc"] = documents[rows[0]]


docs_df = pd.DataFrame([r for r in out["documents"] if r["category"] == cat])
left, right = st.columns(2)
with left:
    st.markdown(f"**Documents where A and B differ most in {LABELS[cat]}**")
    if docs_df.empty:
        st.write("No document has this category.")
    else:
        st.dataframe(styled(docs_df.drop(columns="category")), hide_index=True, placeholder="-",
                     on_select=partial(pick_doc, f"ct_docs_{cat}", list(docs_df["document"])),
                     selection_mode="single-row", key=f"ct_docs_{cat}",
                     height=min(300, 38 + 35 * len(docs_df)))  # no empty rows under a few documents
        downloads(pd.DataFrame(out["documents"]), f"contrast_documents_{a}_vs_{b}", key="ctd")
sent_df = pd.DataFrame([r for r in out["sentences"] if r["category"] == cat])
with right:
    st.markdown(f"**Sentences where A and B differ most in {LABELS[cat]}**")
    if not out["sentence_level"]:
        st.write("Document-level matching: no per-sentence counts.")
    elif sent_df.empty:
        st.write("A and B make the same number of errors in every sentence.")
    else:
        st.dataframe(sent_df.drop(columns="category"), hide_index=True, placeholder="-",
                     on_select=partial(pick_doc, f"ct_sents_{cat}", list(sent_df["document"])),
                     selection_mode="single-row", key=f"ct_sents_{cat}", height=min(300, 38 + 35 * len(sent_df)))
        downloads(pd.DataFrame(out["sentences"]), f"contrast_sentences_{a}_vs_{b}", key="cts")
st.caption("Select a row to show that document below. errors A - B > 0: A makes more errors there. "
           "The downloads hold every category.")

disagree = None
if d.external:  # metrics computed elsewhere: where they and BlonDe disagree about A and B
    st.subheader("Where BlonDe and another metric disagree about A and B")
    disagree = st.selectbox("Metric computed elsewhere", [m for m, e in d.external.items() if e.resamplable()],
                            key="ct_disagree")
    if disagree:
        dis = d.disagreement(cfg, a, b, disagree)
        st.caption(f"A - B per unit: BlonDe in points, {md_escape(disagree)} on its own scale "
                   f"({md_escape(dis['direction'])}). "
                   "Rows where the two differences point opposite ways come first, ranked by disagreement = "
                   "-(z_BlonDe x z_metric), each difference divided by its standard deviation over the units.")
        dl, dr = st.columns(2)
        for col, unit in ((dl, "documents"), (dr, "sentences")):
            with col:
                part = dis.get(unit)
                st.markdown(f"**{unit.capitalize()}**" + (f": {part['opposite']} of {len(part['rows'])} point "
                                                          "opposite ways" if part and part["rows"] else ""))
                if part is None:
                    st.write("No per-sentence scores (document scores only, or document-level matching).")
                elif not part["rows"]:
                    st.write(md_escape(part.get("note", "no unit has a value on both sides")))
                else:
                    df_dis = pd.DataFrame(part["rows"])
                    st.dataframe(styled(df_dis), hide_index=True, placeholder="-", key=f"ct_dis_{unit}",
                                 on_select=partial(pick_doc, f"ct_dis_{unit}", list(df_dis["document"])),
                                 selection_mode="single-row", height=min(300, 38 + 35 * len(df_dis)))
                    downloads(df_dis, f"disagreement_{unit}_{disagree}_{a}_vs_{b}", key=f"ctdis{unit}")

if out["sentence_level"]:
    st.subheader("Buckets, n-grams and every sentence (as compare-mt)")
    bk = d.buckets(cfg, a, b)  # what `contrast --pair A B --buckets` prints
    tabs = st.tabs(["Sentence length", "Sentence score", "Word frequency", "N-grams and spans", "A vs B per sentence"])

    def bars(df, x, ys, title, names_=("A", "B")):
        fig = go.Figure([go.Bar(name=f"{k}: {n}", x=df[x], y=df[y], text=[("-" if pd.isna(v) else f"{v:.1f}")
                                                                        for v in df[y]], textposition="outside",
                                cliponaxis=False, marker_pattern_shape=pat)
                         for (y, k, n, pat) in zip(ys, names_, (a, b), ("", "/"))])
        fig.update_layout(barmode="group", height=300, margin=dict(t=30, b=10), yaxis_title=title,
                          legend=dict(orientation="h", y=1.12))
        return fig

    def bucket_tab(tab, part: str, x: str, ys: list[str], title: str, caption: str, below: str | None = None):
        """One bucket table (sortable, downloadable) beside its grouped bars, A plain and B hatched."""
        with tab:
            df = pd.DataFrame(bk[part])
            st.plotly_chart(bars(df, x, ys, title), width="stretch")
            left_, right_ = st.columns([3, 2]) if below else (st.container(), None)
            left_.dataframe(styled(df), hide_index=True, placeholder="-")
            if below:
                right_.dataframe(pd.DataFrame(bk[below]), hide_index=True, placeholder="-")
            downloads(df, f"buckets_{part}_{a}_vs_{b}", key=f"bk{part}")
            st.caption(caption)

    bucket_tab(tabs[0], "length", "bucket", ["BlonDe A", "BlonDe B"], "BlonDe (points)",
               f"Sentences grouped by the length of the reference sentence ({md_escape(bk['reference'])}, words as "
               "sacrebleu's 13a tokenizer splits them); each bucket's BlonDe is its sentences scored together "
               "from their summed counts, as the corpus score is of all of them.")
    bucket_tab(tabs[1], "score", "bucket", ["sentences A", "sentences B"], "sentences",
               "How many sentences of each system fall in each band of their own sentence-level BlonDe (points); "
               "beside the table, how the sentence-level differences A - B spread. undefined: a sentence with no "
               "span on either side in every category.", below="score_difference")
    bucket_tab(tabs[2], "frequency", "frequency", ["F A", "F B"], "word F-measure (points)",
               f"Word accuracy: F-measure of each system's words against the reference's, clipped per sentence, "
               f"for words grouped by how often they occur in {md_escape(bk['reference'])}. Rare words are where "
               "names and terms live.")
    with tabs[3]:
        g1, g2 = st.columns(2)
        for col, key, who in ((g1, "ngrams_a_better", f"A ({a})"), (g2, "ngrams_b_better", f"B ({b})")):
            col.markdown(f"**Reference n-grams {md_escape(who)} matches more often**")
            ng = pd.DataFrame(bk[key])
            if ng.empty:
                col.write("None.")
            else:
                col.dataframe(styled(ng), hide_index=True, placeholder="-", height=min(400, 38 + 35 * len(ng)))
        st.caption(f"{bk['ngrams_differing']} reference n-grams (1 to 4 words) are matched a different number of "
                   "times; ranked by the ratio (matched A + 1) / (matched B + 1). The downloads hold the top 20 of "
                   "each side.")
        downloads(pd.DataFrame(bk["ngrams_a_better"] + bk["ngrams_b_better"]), f"ngrams_{a}_vs_{b}", key="bkn")
        st.markdown("**Discourse features and entity strings one matches more often than the other**")
        sp = pd.DataFrame(bk["spans"])
        if sp.empty:
            st.write("A and B match every discourse feature equally often.")
        else:
            st.dataframe(styled(sp), hide_index=True, placeholder="-", height=min(400, 38 + 35 * len(sp)))
            downloads(sp, f"spans_{a}_vs_{b}", key="bksp")
    with tabs[4]:
        sn = pd.DataFrame(bk["sentences"])
        ok = sn.dropna(subset=["BlonDe A", "BlonDe B"])
        fig = go.Figure(go.Scatter(
            x=ok["BlonDe A"], y=ok["BlonDe B"], mode="markers", marker=dict(size=7, opacity=0.6),
            customdata=ok[["document", "sentence", "reference words"]].values,
            hovertemplate="%{customdata[0]} sentence %{customdata[1]} (%{customdata[2]} words)<br>A %{x:.1f}, "
                          "B %{y:.1f}<br>click to open it in Documents<extra></extra>"))
        fig.add_shape(type="line", x0=0, y0=0, x1=100, y1=100, line=dict(color="#888", dash="dot"))
        fig.update_layout(height=460, margin=dict(t=10), xaxis_title=f"BlonDe of A ({a}), points",
                          yaxis_title=f"BlonDe of B ({b}), points", clickmode="event+select", dragmode=False)
        pt = clicked(st.plotly_chart(fig, width="stretch", on_select="rerun", selection_mode="points",
                                     key="ct_scatter"))
        if pt and pt.get("point_index") is not None and pt["point_index"] < len(ok):
            row = ok.iloc[pt["point_index"]]
            open_documents(doc=row["document"], systems=[a, b], sentence=int(row["sentence"]),
                           origin="contrast")
        st.caption(f"One point per sentence ({len(ok)} with a score on both sides); above the dotted line B scores "
                   "higher. Click a point to open that sentence for A and B on the Documents page.")
        downloads(sn, f"sentences_{a}_vs_{b}", key="bkst")

docs = res.doc_ids
if st.session_state.get("ct_doc") not in docs:
    st.session_state["ct_doc"] = docs_df["document"].iloc[0] if not docs_df.empty else docs[0]
doc = st.selectbox("Document", docs, key="ct_doc")
di = docs.index(doc)
st.subheader(f"{md_escape(doc)}: category by category")
dc = pd.DataFrame(res.document_contrast(di, a, b))
dc["category"] = dc["category"].map(LABELS)
st.dataframe(styled(dc), hide_index=True, placeholder="-")
st.caption("A dash (-): the category has no span in this document on that side.")
downloads(dc, f"contrast_{doc}_{a}_vs_{b}", key="ctdoc")
if st.button("Open this document for A and B in Documents", key="ct_open"):
    open_documents(doc=doc, systems=[a, b], categories=[cat], only=[cat], origin="contrast")

if out["sentence_level"]:
    ea, eb = res.sentence_errors(di, a)[cat], res.sentence_errors(di, b)[cat]
    differ = [i for i, (x, y) in enumerate(zip(ea, eb)) if sum(x) != sum(y)]
    ref = res.references[0]
    view = res.sentence_view(di, [a, b], ref)
    moved = d.resegmentation()  # re-segmented systems (issue 47)
    cut = {n: moved.get(n, {}).get(doc) for n in (a, b)}
    st.markdown(f"**Sentences of {md_escape(doc)} where A and B differ in {LABELS[cat]}: {len(differ)} of {len(ea)}**")
    html = [CSS, legend([cat]), '<table style="width:100%;border-collapse:collapse;table-layout:fixed"><thead><tr>'
            "<th style='width:2.5em'>#</th>"
            + "".join(f"<th style='text-align:left'>{esc(h)}</th>" for h in
                      (f"reference: {ref}", f"A: {a}", f"B: {b}")) + "</tr></thead><tbody>"]
    for i in differ:
        cells = []
        for name, errs in ((ref, None), (a, ea), (b, eb)):
            r = view["rows"][name][i]
            spans = [dict(s, status="neutral") for s in r["spans"]] if errs is None else r["spans"]
            note = "" if errs is None else f"<div class='bl-counts'>missed {errs[i][0]} · extra {errs[i][1]}</div>"
            c = cut.get(name) if errs is not None else None
            mark = "" if not c else (
                "<span title='re-segmented: cut from the system&#39;s own segments (Documents shows them)' "
                "style='color:#666'>&#9986; " + ("omitted " if i + 1 in c["omitted"] else "") + "</span>")
            cells.append(f"<td><div class='bl-doc'>{mark}{render_text(r['text'], spans, [cat])}</div>"
                         f"{counts_line(r['counts'], [cat], r.get('features'))}{note}</td>")
        html.append(f"<tr class='bl-row' style='border-top:1px solid #ddd;vertical-align:top'><td>{i + 1}</td>"
                    f"{''.join(cells)}</tr>")
    html.append("</tbody></table>")
    st.html("".join(html))
    st.caption("Reference spans without status; in A and B, filled spans match the reference and hatched ones are "
               "extra. missed/extra: the sentence's counts of the category as the score counts them."
               + (" ✂: a re-segmented system's sentence, cut from its own segments by mwerSegmenter's alignment "
                  "(omitted: nothing of it aligned to this reference sentence)." if any(cut.values()) else ""))
signature_box(out["signature"], command=("contrast", ["--pair", a, b, "--document", doc]
                                         + (["--disagree", disagree] if disagree else [])
                                         + (["--buckets"] if out["sentence_level"] else [])))
