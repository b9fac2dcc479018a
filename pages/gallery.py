"""Phenomenon gallery: short worked examples, one per phenomenon, ready for a classroom."""
import pandas as pd
import streamlit as st

from blonde_core.render import CSS, legend, render_text
from blonde_core.study import Study
from studio.shared import (cliff_notes, config, esc, evaluate_texts, gallery, lines_of, md, shown_f1, spans_text, styled,
                           text_apt, text_companions)

st.title("Phenomenon gallery")
st.caption("Each example is a tiny document where one discourse phenomenon goes wrong. What do BlonDe and BLEU "
           "say? Open any example in the Sandbox to edit it live.")
st.html(CSS + "<style>.bl-doc{font-size:1.2rem;}</style>" + legend())
cfg = config()

for ex in gallery():
    with st.container(border=True):
        st.subheader(f"{ex['phenomenon']}: {ex['title']}")
        st.markdown(esc(ex["explanation"]))
        ann = ex.get("annotation")
        res, note, bleu = evaluate_texts(ex["reference"], ex["candidates"], ann.split("\n") if ann else None, cfg,
                                         resegment=bool(ex.get("resegment")))
        if res is None:
            st.warning(note)
            continue
        view = res.sentence_view(0, res.names, "reference")
        cols = st.columns((1 if ex.get("source") else 0) + 1 + len(res.names))
        k = 0
        if ex.get("source"):
            cols[0].markdown("**source**")
            cols[0].html("".join(f'<div class="bl-doc">{esc(s)}</div>' for s in lines_of(ex["source"])))
            k = 1
        ann_lines = ann.split("\n") if ann else []
        for col, n in zip(cols[k:], ["reference"] + res.names):
            col.markdown(f"**{md(n)}**")
            # a BlonD+ checkpoint boxed wherever the score finds it (the reference's line says which words)
            marks = [Study.plus_marks(ann_lines[i] if i < len(ann_lines) else None, r["text"])
                     for i, r in enumerate(view["rows"][n])]
            col.html("".join(f'<div class="bl-doc">{render_text(r["text"], r["spans"], marks=m)}</div>'
                             for r, m in zip(view["rows"][n], marks)))
        tenses = {s["feature"]: s.get("describe", s["feature"]) for rows in view["rows"].values() for r in rows
                  for s in r["spans"] if s["category"] == "tense"}  # each tag with its words (sentence_view's)
        if tenses:
            st.caption("Tense tags here: " + "; ".join(f"{f} = {tenses[f]}" for f in sorted(tenses))
                       + (". Boxed: the BlonD+ checkpoint, counted wherever it occurs." if ann else "."))
        rows = []
        for n in res.names:
            s = res.scores(n)
            row = {"candidate": n, "BLEU": bleu[n], "BlonDe": 100 * s["BlonDe"]["F1"],
                   "BlonD-d": 100 * s["BlonD-d"]["F1"]}
            if "BlonD+" in s:
                row["BlonD+"] = 100 * s["BlonD+"]["F1"]
            for c in ("entity", "tense", "pronoun", "dm", "ambiguity", "ellipsis"):
                if c in s["categories"] and s["categories"][c]["R"] is not None:
                    row[c] = 100 * shown_f1(s["categories"][c])
                    row[f"{c} spans"] = spans_text(s["categories"][c])
            rows.append(row)
        if ex.get("resegment"):  # what the raw line-by-line comparison would have said: lines paired as they come
            n_ref = len(lines_of(ex["reference"]))
            for n, text in ex["candidates"].items():
                lines = lines_of(text)
                if len(lines) == n_ref:
                    continue
                raw, _, raw_bleu = evaluate_texts(ex["reference"], {n: text}, None, cfg, line_by_line=True)
                s = raw.scores(n)
                rows.append({"candidate": f"{n}, line by line", "BLEU": raw_bleu[n], "BlonDe": 100 * s["BlonDe"]["F1"],
                             "BlonD-d": 100 * s["BlonD-d"]["F1"],
                             **{c: 100 * shown_f1(s["categories"][c]) for c in ("entity", "tense", "pronoun", "dm")
                                if s["categories"][c]["R"] is not None}})
        if ex["id"] == "over-under":  # the scores this example is about
            comp = text_companions(ex["reference"], ex["candidates"], res.config)  # the settings that scored it
            for row in rows:
                row["Otem ↓"] = comp[row["candidate"]]["Otem"]
                row["Utem ↓"] = comp[row["candidate"]]["Utem"]
        if ex.get("pair") and ex.get("source") and ex.get("alignment"):
            apt = text_apt(ex["source"], ex["reference"], ex["candidates"], ex["pair"], ex["alignment"])
            for row in rows:
                v = apt.get(row["candidate"])
                row["APT ↑"] = None if v is None else 100 * v
        st.dataframe(styled(pd.DataFrame(rows), precision=1), hide_index=True, placeholder="-")
        st.caption("Scores in points; spans: matched / in the candidate / in the reference (° fewer than 5)."
                   + (" Otem and Utem: lower is better." if ex["id"] == "over-under" else "")
                   + (f" APT: source pronouns translated as in the reference ({ex['pair']}, the example's word "
                      "alignments)."
                      if ex.get("pair") else ""))
        for c in cliff_notes(res, res.names):  # a floored category explained under the numbers it moved
            st.html(f'<p style="font-size:.85rem;margin:0">&#9888; {c}</p>')
        if note:
            st.caption(note)
        if st.button("Open in sandbox", key=f"open_{ex['id']}", icon=":material/edit:"):
            st.session_state["sandbox"] = {"reference": ex["reference"], "A": ex["candidates"].get("A", ""),
                                           "B": ex["candidates"].get("B", ""), "annotation": ann,
                                           "title": ex["title"]}
            st.session_state["sandbox_top"] = True  # it opens at its top, the boxes and scores in view
            st.switch_page("pages/sandbox.py")
