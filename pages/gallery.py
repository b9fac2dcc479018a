"""Phenomenon gallery: short worked examples, each a tiny document where one discourse phenomenon goes wrong, chosen
by phenomenon and by language (the choice kept in the address, so a link opens the same selection)."""
import pandas as pd
import streamlit as st

from blonde_core.render import CSS, LABELS, legend, render_text
from blonde_core.study import CATALOG, Study
from blonde_core.render import shown_f1, spans_text
from studio.navigation import go_to
from studio.session import config
from studio.tables import styled
from studio.text import esc, md_escape
from studio.typed import evaluate_texts, gallery, lines_of, text_apt, text_companions
from studio.widgets import cliff_notes

# what each card teaches (its "category"): BlonDe's four discourse categories, then the companions and BlonD+
KINDS = {**LABELS, "ambiguity": "lexical ambiguity (BlonD+)", "otem_utem": "over-/under-translation (Otem/Utem)",
         "apt": "pronoun translation (APT)", "resegment": "merged and dropped sentences"}

st.title("Phenomenon gallery")
st.caption("Each example is a tiny document where one discourse phenomenon goes wrong. What do BlonDe and BLEU "
           "say? Choose a phenomenon or a language, or open any example in the Sandbox to edit it live.")
examples = gallery()
kinds = [k for k in KINDS if any(ex["category"] == k for ex in examples)]
langs = sorted({ex["lang"] for ex in examples})

# --- the choice, bound to the address (?phenomenon=pronoun&language=fr&language=zh): a link opens the same cards,
# the choice stays when the user comes back from another page, and Streamlit rewrites the address in place only
# when a pill changes (no history entry per rerun; values no card has are dropped from a hand-edited link)
# each on its own row, the whole width: twelve languages' pills beside eight phenomena's were cut off at 1280 px
c1, c2 = st.container(), st.container()
chosen_kinds = c1.pills("Phenomenon", kinds, selection_mode="multi", key="phenomenon", format_func=KINDS.get,
                        bind="query-params", width="stretch",
                        help="The cards that teach these phenomena; none chosen: every phenomenon")
chosen_langs = c2.pills("Language", langs, selection_mode="multi", key="language",
                        format_func=CATALOG.language_name, bind="query-params", width="stretch",
                        help="The cards whose texts are in these languages (each scored with its own language "
                             "pack); none chosen: every language")

shown = [ex for ex in examples if (not chosen_kinds or ex["category"] in chosen_kinds)
         and (not chosen_langs or ex["lang"] in chosen_langs)]
what = (", ".join(KINDS[k] for k in kinds if k in chosen_kinds) or "any phenomenon") + " in " + (
    ", ".join(CATALOG.language_name(c) for c in langs if c in chosen_langs) or f"any of {len(langs)} languages")
if not shown:
    st.info(f"No card teaches {md_escape(what)}: choose another phenomenon or language, or clear a choice.",
            icon=":material/filter_alt_off:")
    st.stop()
st.caption(f"{len(shown)} of {len(examples)} cards: {md_escape(what)}.")
st.html(CSS + "<style>.bl-doc{font-size:1.2rem;}</style>" + legend())
cfg = config()

for ex in shown:
    with st.container(border=True):
        st.subheader(f"{ex['phenomenon']}: {ex['title']}")
        st.caption(f"{CATALOG.language_name(ex['lang'])} · {KINDS[ex['category']]}")
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
            col.markdown(f"**{md_escape(n)}**")
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
        if ex["category"] == "otem_utem":  # the scores this example is about
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
                   + (" Otem and Utem: lower is better." if ex["category"] == "otem_utem" else "")
                   + (f" APT: source pronouns translated as in the reference ({ex['pair']}, the example's word "
                      "alignments)."
                      if ex.get("pair") else ""))
        if ex.get("caveat"):  # why the scores do not single out the candidate with the error, in the card's words
            st.warning(md_escape(ex["caveat"]), icon=":material/info:")
        for c in cliff_notes(res, res.names):  # a floored category explained under the numbers it moved
            st.html(f'<p style="font-size:.85rem;margin:0">&#9888; {c}</p>')
        if note:
            st.caption(note)
        if st.button("Open in sandbox", key=f"open_{ex['id']}", icon=":material/edit:"):
            st.session_state["sandbox"] = {"reference": ex["reference"], "A": ex["candidates"].get("A", ""),
                                           "B": ex["candidates"].get("B", ""), "annotation": ann,
                                           "title": ex["title"]}
            st.session_state["sandbox_top"] = True  # it opens at its top, the boxes and scores in view
            go_to("sandbox")
