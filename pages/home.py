"""Home: what BlonDe Studio is, what is loaded, and the answer - the top of the leaderboard with its
significance clusters and whether the leader is significantly ahead - then a link for each next question."""
import numpy as np
import pandas as pd
import streamlit as st

from blonde_core.study import CATALOG
from studio.compute import leader_sentence, result
from studio.gate import domain_caption, gone_link
from studio.navigation import page
from studio.session import config, data, load_sample, scoped
from studio.tables import styled, system_column
from studio.text import md_escape
from studio.widgets import human_verdict_box

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
    c2.page_link(page("data"), label="Upload files (Data)", icon=":material/folder_open:")
    st.stop()

cfg = config()
st.markdown(f"**Loaded:** {md_escape(d.origin)} - {len(d.references)} reference(s), {len(d.systems)} systems, "
            f"{len(d.doc_ids)} documents, {d.reference_segments} segments; target language "
            f"{md_escape(cfg.lang)} ({md_escape(CATALOG.language_name(cfg.lang))}).")
domain_caption(d)
msg = d.no_pack(cfg)
if msg:  # no BlonDe number with another language's pack: what is computed is on the Overview
    st.error(md_escape(msg) + ".", icon=":material/translate:")
    st.page_link(page("overview"), label="Overview: chrF, BLEU, TER and the human scores",
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
    st.caption(md_escape(b["mark_line"]))
st.caption(f"BlonDe F1 in points (0-100), 95% interval by {b['resamples']} bootstrap resamples over "
           f"{b['n_units']} units ({md_escape(b['unit'])}); "
           + (f"the top {TOP} of {len(best)}; " if len(best) > TOP else "")
           + "the whole leaderboard, every category and other metrics: **Overview**.")
st.subheader("Next questions")
links = [("overview", "The whole leaderboard, with BLEU, chrF and every category?"),
         ("categories", "Which categories - entities, tense, pronouns, markers?"),
         ("documents", "Which documents and sentences, with the spans highlighted?"),
         ("significance", "Which differences are significant?"),
         ("contrast", "How do two systems differ?"),
         ("correlation", "Do human judgments agree?"),
         ("sandbox", "Teaching: type sentences and watch the scores")]
cols = st.columns(2)
for k, (name, question) in enumerate(links):
    cols[k % 2].page_link(page(name), label=question)  # the page's own icon (studio/navigation.py)
