"""Contrast: two systems side by side - where, over the corpus, they differ most per category,
and the sentences of one document where they differ, both versions highlighted."""
from functools import partial

import pandas as pd
import streamlit as st

from blonde_core.render import CSS, LABELS, counts_line, legend, render_text
from pages._shared import downloads, esc, md, open_documents, signature_box, start_page, styled, take_pending

d, cfg, res = start_page("Contrast", "a two-system contrast")
names = res.names
if len(names) < 2:
    st.info("The contrast needs at least two systems.")
    st.stop()
take_pending("ct")  # the Significance matrix picked the pair
for k, default in (("ct_a", names[0]), ("ct_b", names[1])):
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
st.subheader(f"{md(a)} (A) vs {md(b)} (B), whole corpus")
st.dataframe(styled(summary), hide_index=True)
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
        st.dataframe(styled(docs_df.drop(columns="category")), hide_index=True,
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
        st.dataframe(sent_df.drop(columns="category"), hide_index=True,
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
        st.caption(f"A - B per unit: BlonDe in points, {md(disagree)} on its own scale ({md(dis['direction'])}). "
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
                    st.write(md(part.get("note", "no unit has a value on both sides")))
                else:
                    df_dis = pd.DataFrame(part["rows"])
                    st.dataframe(styled(df_dis), hide_index=True, key=f"ct_dis_{unit}",
                                 on_select=partial(pick_doc, f"ct_dis_{unit}", list(df_dis["document"])),
                                 selection_mode="single-row", height=min(300, 38 + 35 * len(df_dis)))
                    downloads(df_dis, f"disagreement_{unit}_{disagree}_{a}_vs_{b}", key=f"ctdis{unit}")

docs = res.corpus.doc_ids
if st.session_state.get("ct_doc") not in docs:
    st.session_state["ct_doc"] = docs_df["document"].iloc[0] if not docs_df.empty else docs[0]
doc = st.selectbox("Document", docs, key="ct_doc")
di = docs.index(doc)
st.subheader(f"{md(doc)}: category by category")
dc = pd.DataFrame(res.document_contrast(di, a, b))
dc["category"] = dc["category"].map(LABELS)
st.dataframe(styled(dc), hide_index=True)
st.caption("A dash (-): the category has no span in this document on that side.")
downloads(dc, f"contrast_{doc}_{a}_vs_{b}", key="ctdoc")
if st.button("Open this document for A and B in Documents", key="ct_open"):
    open_documents(doc=doc, systems=[a, b], categories=[cat], only=[cat], origin="pages/contrast.py")

if out["sentence_level"]:
    ea, eb = res.sentence_errors(di, a)[cat], res.sentence_errors(di, b)[cat]
    differ = [i for i, (x, y) in enumerate(zip(ea, eb)) if sum(x) != sum(y)]
    ref = next(iter(res.corpus.references))
    view = res.sentence_view(di, [a, b], ref)
    st.markdown(f"**Sentences of {md(doc)} where A and B differ in {LABELS[cat]}: {len(differ)} of {len(ea)}**")
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
            cells.append(f"<td><div class='bl-doc'>{render_text(r['text'], spans, [cat])}</div>"
                         f"{counts_line(r['counts'], [cat])}{note}</td>")
        html.append(f"<tr class='bl-row' style='border-top:1px solid #ddd;vertical-align:top'><td>{i + 1}</td>"
                    f"{''.join(cells)}</tr>")
    html.append("</tbody></table>")
    st.html("".join(html))
    st.caption("Reference spans without status; in A and B, filled spans match the reference and hatched ones are "
               "extra. missed/extra: the sentence's counts of the category as the score counts them.")
signature_box(out["signature"], command=("contrast", ["--pair", a, b, "--document", doc]
                                         + (["--disagree", disagree] if disagree else [])))
