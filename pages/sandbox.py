"""Sandbox: type a reference and one or two candidates and watch every category react."""
import time

import pandas as pd
import streamlit as st
from sacrebleu.metrics import BLEU

from blonde_core.study import sentence_view
from blonde_core.render import COLORS, CSS, counts_line, legend, render_text
from pages._views import pronoun_threads_view, tense_timeline_view
from pages._shared import (config, downloads, evaluate_texts, lines_of, md, pct, shown_f1, signature_box,
                           spans_text)

st.title("Sandbox")
st.caption("One sentence per line. Change one word - 'she' to 'he', 'was' to 'is', drop 'However' - and see "
           "which category moves. Preset and weights come from the sidebar.")


@st.fragment
def sandbox() -> None:
    """The whole editor is one fragment: an edit re-runs only this part of the page
    (not the sidebar or navigation), so the server and the browser redo little per keystroke."""
    box = st.session_state.setdefault("sandbox", {
        "reference": "Mary walked into the room.\nShe saw a letter on the table.\nHowever, it was not for her.",
        "A": "Mary walked into the room.\nHe saw a letter on the table.\nIt was not for him.",
        "B": "", "annotation": None, "title": None})
    if box.get("title"):
        st.info(f"Gallery example: **{md(box['title'])}**. Edit freely.")
    c1, c2, c3 = st.columns(3)
    ref = c1.text_area("Reference", box["reference"], height=200, key=f"sb_ref_{box.get('title')}")
    a = c2.text_area("Candidate A", box["A"], height=200, key=f"sb_a_{box.get('title')}")
    b = c3.text_area("Candidate B (optional)", box.get("B", ""), height=200, key=f"sb_b_{box.get('title')}")
    box.update(reference=ref, A=a, B=b)
    cfg = config()
    ann = box.get("annotation")
    t0 = time.perf_counter()
    res, note = evaluate_texts(ref, {"A": a, "B": b}, ann.split("\n") if ann else None, cfg)
    if res is None:
        st.info(note)
        return
    if note:
        st.caption(note)
    names = res.names
    rows = []
    bleu = BLEU()
    for n in names:
        s = res.scores(n)
        row = {"candidate": n, "BlonDe": pct(s["BlonDe"]["F1"]), "BlonD-d": pct(s["BlonD-d"]["F1"])}
        if "BlonD+" in s:
            row["BlonD+"] = pct(s["BlonD+"]["F1"])
        for c, v in s["categories"].items():
            row[f"{c} F1"] = 100 * shown_f1(v)
            if c in ("tense", "pronoun", "entity", "dm", "ambiguity", "ellipsis"):
                row[f"{c} spans"] = spans_text(v)
        row["BLEU"] = bleu.corpus_score(lines_of(box[n]) if cfg.granularity == "sentence" and
                                        len(lines_of(box[n])) == len(lines_of(ref)) else [" ".join(lines_of(box[n]))],
                                        [lines_of(ref) if cfg.granularity == "sentence" and
                                         len(lines_of(box[n])) == len(lines_of(ref)) else [" ".join(lines_of(ref))]]
                                        ).score
        rows.append(row)
    table = pd.DataFrame(rows)
    # a static table (two rows at most): far lighter for the browser to redraw on every edit than a data grid
    st.table(table.set_index("candidate").map(lambda v: v if isinstance(v, str) else
                                              ("-" if pd.isna(v) else f"{v:.2f}")))
    downloads(table, "sandbox_scores", key="sb")
    st.caption("Scores in points, 0-100 (100 = identical), as on every page; BLEU from sacrebleu. "
               "'-' means the category has no span on either side; 0 means nothing matched. Spans: matched / in "
               "the candidate / in the reference (° fewer than 5: thin evidence).")
    cats = list(COLORS)
    st.html(CSS + legend(cats))
    view = sentence_view(res, 0, names, "reference")
    cols = st.columns(1 + len(names))
    for col, n in zip(cols, ["reference"] + names):
        col.markdown(f"**{md(n)}**")
        html = []
        for i, r in enumerate(view["rows"][n]):
            html.append(f'<div class="bl-doc"><b>{i + 1}</b> {render_text(r["text"], r["spans"], cats)}</div>'
                        f'{counts_line(r["counts"], cats)}')
        col.html("".join(html))
    if st.toggle("Tense timeline and pronoun threads of this text", key="sb_threads",
                 help="The dominant tense of every sentence (tense drift shows as a change across a row) and the "
                      "pronouns of every sentence, reference and candidates."):
        tense_timeline_view(res, 0, names, "reference", focus=False, key="sb_timeline")
        pronoun_threads_view(res, 0, names, "reference", focus=False, key="sb_pronouns")
    with st.expander("Per-category precision, recall and span counts"):
        det = []
        for n in names:
            for c, v in res.scores(n)["categories"].items():
                det.append({"candidate": n, "category": c, "R": pct(v["R"]), "P": pct(v["P"]), "F1": pct(v["F1"]),
                            "matched": v["spans"]["matched"], "in system": v["spans"]["system"],
                            "in reference": v["spans"]["reference"], "thin": "yes" if v["thin"] else ""})
        st.table(pd.DataFrame(det).set_index(["candidate", "category"]).map(
            lambda v: "-" if pd.isna(v) else (f"{v:.2f}" if isinstance(v, float) else v)))
        st.caption("R, P, F1 in points; counts are spans (n-grams for 1-4) of the features that carry weight.")
    st.caption(f"Scored on the server in {1000 * (time.perf_counter() - t0):.0f} ms "
               "(annotation of new sentences, counts, scores, BLEU, spans).", help="server time per edit")
    signature_box(res.signature, sandbox=box)


sandbox()
