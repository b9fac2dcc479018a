"""Sandbox: type a reference and one or two candidates and watch every category react."""
import time

import pandas as pd
import streamlit as st

from blonde_core.render import COLORS, CSS, category_label, counts_line, legend, render_text
from studio.views import pronoun_threads_view, tense_timeline_view
from studio.internals import stale_not_dimmed
from blonde_core.render import shown_f1, spans_text
from studio.session import config
from studio.tables import downloads, styled
from studio.text import esc, md_escape, pct
from studio.typed import evaluate_texts, sandbox_script
from studio.widgets import TAG_MARK, cliff_notes, scroll_top, tagging_marked

st.title("Sandbox")
if st.session_state.pop("sandbox_top", False):  # opened from a gallery card lower on its page
    scroll_top()
st.caption("One sentence per line. Change one word - 'she' to 'he', 'was' to 'is', drop 'However' - and see "
           "which category moves. An edit is scored when you click outside its box, press Tab or Ctrl+Enter "
           "(Streamlit sends a text box's value then, not at every key). Preset and weights come from the sidebar.")

# The last rule: while an edit reruns the fragment Streamlit marks its elements stale and
# starts fading them (an opacity transition with a delay). Even when the new scores come
# before the fade shows, the transition makes the browser composite and raster those
# layers again: with ten editors on one machine that was a fifth of the CPU per edit and
# most of the slowest edits (bench/bench_app.py). An edit takes ~0.1 s, and the line under
# the text says how long the server took for it.
SANDBOX_CSS = """<style>
.bl-table{border-collapse:collapse;font-size:.88rem;margin:.2rem 0 .4rem 0;display:block;overflow-x:auto;}
.bl-table th,.bl-table td{border:1px solid rgba(49,51,63,.18);padding:2px 7px;text-align:right;white-space:nowrap;}
.bl-table th{background:rgba(49,51,63,.05);white-space:normal;}
.bl-sp{font-size:.75rem;opacity:.75;}
.bl-table th.bl-nw{white-space:nowrap;}
.bl-table td:first-child,.bl-table th:first-child{text-align:left;font-weight:600;}
.bl-note{font-size:.85rem;opacity:.8;margin:.2rem 0;}
.bl-note code{word-break:break-all;white-space:normal;}
.bl-grid{display:grid;gap:1rem;margin-top:.5rem;}
""" + stale_not_dimmed() + "</style>"


def score_table(table: pd.DataFrame, marked=()) -> str:
    """The scores as a compact HTML table (escaped): one column per score, a category's
    span counts under its F1 (the downloads keep them in columns of their own); a category whose tagging is
    below the bar in this language (marked) carries † in its header."""
    cols = [c for c in table.columns if not c.endswith(" spans")]
    labels = [category_label(c[:-3]) + (TAG_MARK if c[:-3] in marked else "") + " F1" if c.endswith(" F1") else c
              for c in cols]
    head = "".join(f'<th{"" if " " in x else " class=bl-nw"}>{esc(x)}</th>' for x in labels)  # BlonD-d whole
    body = []
    for row in table.to_dict("records"):
        cells = []
        for c in cols:
            v = row[c]
            text = esc(v) if isinstance(v, str) else ("-" if pd.isna(v) else f"{v:.2f}")
            spans = row.get(c[:-3] + " spans") if c.endswith(" F1") else None
            if isinstance(spans, str):
                text += f'<br><span class="bl-sp">{esc(spans)}</span>'
            cells.append(f"<td>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table class="bl-table"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


@st.fragment
def sandbox() -> None:
    """The whole editor is one fragment: an edit re-runs only this part of the page
    (not the sidebar or navigation), so the server and the browser redo little per keystroke."""
    box = st.session_state.setdefault("sandbox", {
        # one phenomenon: A swaps two of the four feminine pronouns (BLEU prefers it), B rewords one verb
        "reference": "Mary Johnson walked into the kitchen.\nShe saw a letter from her brother on the table.\n"
                     "She opened it, but it was not for her.",
        "A": "Mary Johnson walked into the kitchen.\nShe saw a letter from his brother on the table.\n"
             "He opened it, but it was not for her.",
        "B": "Mary Johnson went into the kitchen.\nShe found a letter from her brother on the table.\n"
             "She opened it, but it was not for her.", "annotation": None, "title": None})
    if box.get("title"):
        st.info(f"Gallery example: **{md_escape(box['title'])}**. Edit freely.")
    c1, c2, c3 = st.columns(3)
    ref = c1.text_area("Reference", box["reference"], height=200, key=f"sb_ref_{box.get('title')}")
    a = c2.text_area("Candidate A", box["A"], height=200, key=f"sb_a_{box.get('title')}")
    b = c3.text_area("Candidate B (optional)", box.get("B", ""), height=200, key=f"sb_b_{box.get('title')}")
    box.update(reference=ref, A=a, B=b)
    cfg = config()
    ann = box.get("annotation")
    t0 = time.perf_counter()
    res, note, bleu = evaluate_texts(ref, {"A": a, "B": b}, ann.split("\n") if ann else None, cfg)
    if res is None:
        st.info(note)
        return
    names = res.names
    rows = []
    scores = {n: res.scores(n) for n in names}
    for n in names:
        s = scores[n]
        # BLEU beside BlonDe (the contrast the Sandbox is for, visible at 1280 px); the categories after them
        row = {"candidate": n, "BlonDe": pct(s["BlonDe"]["F1"]), "BlonD-d": pct(s["BlonD-d"]["F1"]), "BLEU": bleu[n]}
        if "BlonD+" in s:
            row["BlonD+"] = pct(s["BlonD+"]["F1"])
        for c, v in s["categories"].items():
            row[f"{c} F1"] = 100 * shown_f1(v)
            if c in ("tense", "pronoun", "entity", "dm", "ambiguity", "ellipsis"):
                row[f"{c} spans"] = spans_text(v)
        rows.append(row)
    table = pd.DataFrame(rows)
    # each candidate's headline scores right under its edit box: an edit and what it did, side by side
    for r in rows:
        {"A": c2, "B": c3}[r["candidate"]].html('<div class="bl-note" style="opacity:1">' + " · ".join(
            f"{k} <b>{'-' if pd.isna(r[k]) else f'{r[k]:.2f}'}</b>" for k in ("BlonDe", "BlonD-d", "BLEU"))
            + "</div>")
    # a score cliff explained where it happens: a category that matched nothing (or has no span on one side)
    # enters the geometric mean as 0, floored at 1e-5, and pulls BlonDe down with it
    cliffs = cliff_notes(res, names)
    marked = tagging_marked(res.config)
    cats = list(COLORS)
    columns = []
    # the reference marked for each candidate in turn (matched / missed against that candidate), beside it
    for n in names:
        view = res.sentence_view(0, [n], "reference")
        for head, who in ((f"reference, marked for {n}" if len(names) > 1 else "reference", "reference"), (n, n)):
            sents = "".join(f'<div class="bl-doc"><b>{i + 1}</b> {render_text(r["text"], r["spans"], cats)}</div>'
                            f'{counts_line(r["counts"], cats, r.get("features"))}'
                            for i, r in enumerate(view["rows"][who]))
            columns.append(f'<div><p><b>{esc(head)}</b></p>{sents}</div>')
    # What changes with every edit is one HTML block: scores, legend, highlighted text,
    # signature. One element for the browser to redraw instead of a dozen widgets - with
    # ten people editing at once on one machine, the browsers' redrawing was most of the work.
    st.html(
        (f'<p class="bl-note">{esc(note)}</p>' if note else "")
        + score_table(table, marked)
        + "".join(f'<p class="bl-note">&#9888; {c}</p>' for c in cliffs)
        + (f'<p class="bl-note">† tagging below the bar in {esc(res.config.lang)} (precision 0.90, recall 0.80, 30 '
           "gold spans; docs/languages.md#tagging-accuracy): " + esc("; ".join(
               f"{c} {v}" for c, v in marked.items())) + "</p>" if marked else "")
        + '<p class="bl-note">Scores in points, 0-100 (100 = identical), as on every page; BLEU from sacrebleu. '
          "'-' means the category has no span on either side; 0 means nothing matched. Under each category's F1 "
          "its spans: matched / in the candidate / in the reference (° fewer than 5: thin evidence).</p>"
        + f'<div class="bl-grid" style="grid-template-columns:repeat({len(columns)},minmax(0,1fr))">'
        + "".join(columns) + "</div>"
        + f'<p class="bl-note">Signature of the settings that made these numbers: <code>{esc(res.signature)}</code></p>'
        + f'<p class="bl-note">Scored on the server in {1000 * (time.perf_counter() - t0):.0f} ms (annotation of '
          "new sentences, counts, scores, BLEU, spans).</p>")
    if st.session_state.get("sb_more"):
        downloads(table, "sandbox_scores", key="sb")
        det = []
        for n in names:
            for c, v in scores[n]["categories"].items():
                det.append({"candidate": n, "category": c, "R": pct(v["R"]), "P": pct(v["P"]), "F1": pct(v["F1"]),
                            "matched": v["spans"]["matched"], "in system": v["spans"]["system"],
                            "in reference": v["spans"]["reference"], "thin": "yes" if v["thin"] else ""})
        # a plain sortable grid, one row per candidate and category (st.table drew its two-level index with
        # stray bullets)
        st.dataframe(styled(pd.DataFrame(det)), hide_index=True, placeholder="-",
                     height=38 + 35 * len(det))
        st.caption("R, P, F1 in points; counts are spans (n-grams for 1-4) of the features that carry weight.")
        tense_timeline_view(res, 0, names, "reference", focus=False, key="sb_timeline")
        pronoun_threads_view(res, 0, names, "reference", focus=False, key="sb_pronouns")
        st.caption("Reproduce on the command line: the Sandbox's own text, written to files, then scored with the "
                   "same settings (the signature above):")
        st.code(sandbox_script(box, cfg), language="bash", wrap_lines=True)

# Static parts outside the fragment: drawn once, not on every edit (a <style> element
# replaced on every edit restyles the whole page).
st.html(CSS + SANDBOX_CSS + legend(list(COLORS), compact=True))  # one line: the scores sit higher
st.toggle("Details: per-category precision and recall, downloads, tense timeline, pronoun threads and the command "
          "line that reproduces these scores", key="sb_more",
          help="Off, the Sandbox redraws only the scores and the highlighted text on every edit.")
sandbox()
