"""Home: what BlonDe Studio is, what is loaded, and the answer - the top of the leaderboard with its
significance clusters and whether the leader is significantly ahead - then a link for each next question."""
import numpy as np
import pandas as pd
import streamlit as st

from blonde_core.study import CATALOG
from studio.shared import (config, data, domain_caption, gone_link, human_verdict_box, leader_sentence, load_sample,
                           md, result, scoped, styled, system_column)

TOP = 5  # rows of the leaderboard shown here; the Overview has them all

st.title("BlonDe Studio")
st.markdown("Document-level evaluation of machine translation. **BlonDe** finds what sentence-level metrics miss "
            "across sentences - a name translated two ways, a tense that drifts, a wrong *he* or *she*, a dropped "
            "*however* - by counting named entities, verb tenses, gendered pronouns, discourse markers and n-grams in "
            "each system's documents against the references, with precision, recall and F1 per category.")
d = scoped(data())
if d is None:
    gone = gone_link()
    if gone:
        st.warning(gone, icon=":material/link_off:")
    else:
        st.info("Nothing is loaded yet: try the bundled sample (five systems, each with one kind of discourse error), "
                "or upload your references and system outputs.", icon=":material/info:")
    c1, c2, _ = st.columns([1, 1, 2])
    c1.button("Load sample data", type="primary", icon=":material/science:", on_click=load_sample)
    c2.page_link("pages/data.py", label="Upload files (Data)", icon=":material/folder_open:")
    st.stop()

c = d.corpus
cfg = config()
st.markdown(f"**Loaded:** {md(d.origin)} - {len(c.references)} reference(s), {len(c.systems)} systems, "
            f"{len(c.doc_ids)} documents, {c.n_segments} segments; target language "
            f"{md(cfg.lang)} ({md(CATALOG.language_name(cfg.lang))}).")
domain_caption(d)
msg = d.no_pack(cfg)
if msg:  # no BlonDe number with another language's pack: what is computed is on the Overview
    st.error(md(msg) + ".", icon=":material/translate:")
    st.page_link("pages/overview.py", label="Overview: chrF, BLEU, TER and the human scores",
                 icon=":material/leaderboard:")
    st.stop()
res = result(d, cfg)
if res is None:
    st.stop()
with st.spinner("Bootstrapping intervals and testing every pair of systems..."):
    b = d.board(cfg, 1000)
ci, clusters = b["intervals"]["BlonDe"], b["clusters"]
best, said = leader_sentence(d, cfg, res, b)
st.subheader("The answer")
human_verdict_box(d, cfg)  # the humans first when they disagree with the leader named below
if said:
    st.markdown(said)
marked = set(b.get("marked", ()))  # ‡: categories vanish in resamples (the line under the table says so)
rows = [{"rank": k + 1, "system": n, "BlonDe F1": 100 * ci[n]["score"],
         "95% CI": ("-" if ci[n]["ci"][0] is None else f"[{100 * ci[n]['ci'][0]:.2f}, {100 * ci[n]['ci'][1]:.2f}]")
         + (f" {b['mark']}" if n in marked else ""),
         "cluster": clusters.get(n, np.nan)} for k, n in enumerate(best[:TOP])]
st.dataframe(styled(pd.DataFrame(rows)), hide_index=True, placeholder="-", column_config={
    "system": system_column(), "cluster": st.column_config.NumberColumn(
        help="Significance cluster: systems in one cluster are not significantly different (" + b["cluster_rule"]
        + ")")})
if marked & set(best[:TOP]):
    st.caption(md(b["mark_line"]))
st.caption(f"BlonDe F1 in points (0-100), 95% interval by {b['resamples']} bootstrap resamples over "
           f"{b['n_units']} units ({md(b['unit'])}); " + (f"the top {TOP} of {len(best)}; " if len(best) > TOP else "")
           + "the whole leaderboard, every category and other metrics: **Overview**.")
st.subheader("Next questions")
links = [("pages/overview.py", "The whole leaderboard, with BLEU, chrF and every category?", ":material/leaderboard:"),
         ("pages/categories.py", "Which categories - entities, tense, pronouns, markers?", ":material/category:"),
         ("pages/documents.py", "Which documents and sentences, with the spans highlighted?", ":material/article:"),
         ("pages/significance.py", "Which differences are significant?", ":material/functions:"),
         ("pages/contrast.py", "How do two systems differ?", ":material/compare_arrows:"),
         ("pages/correlation.py", "Do human judgments agree?", ":material/scatter_plot:"),
         ("pages/sandbox.py", "Teaching: type sentences and watch the scores", ":material/edit_note:")]
cols = st.columns(2)
for k, (page, label, icon) in enumerate(links):
    cols[k % 2].page_link(page, label=label, icon=icon)
