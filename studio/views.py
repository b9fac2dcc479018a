"""Views of one document shared by the Documents page and the Sandbox: entity threads,
pronoun threads and the tense timeline.  With `focus` (the Documents page), a selected
row or a clicked cell shows that sentence in the highlighted view."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from blonde_core.study import CATALOG
from studio.navigation import focus_sentence
from studio.plots import clickable
from studio.text import label

TENSES = ["past", "present", "modal/future", "other verbs", "no verb"]
# cividis-like steps, told apart without hue; each cell also names its tense on hover
TENSE_COLOURS = ["#00204D", "#7C7B78", "#FFEA46", "#C9C9C9", "#FFFFFF"]


def _focus_from_table(key: str, sentences: list[int]) -> None:
    rows = st.session_state[key].selection.rows
    if rows:
        st.session_state.update(focus_sentence(sentences[rows[0]]))


def resegmented_note(res, di, systems) -> None:
    """Under a view of sentences: which shown systems were re-segmented in this document (their sentence numbers
    are the reference's; issue 47)."""
    moved = res.resegmented
    cut = [s for s in systems if di in moved.get(s, {})]
    if cut:
        st.caption("✂ " + ", ".join(label(s) for s in cut) + ": re-segmented in this document, their sentences "
                   "cut into the reference's by mwerSegmenter's alignment (the Documents page shows their own text)"
                   + ("; omitted: " + "; ".join(f"{label(s)} s{', s'.join(str(i + 1) for i in moved[s][di]['omitted'])}"
                                                for s in cut if moved[s][di]["omitted"])
                      if any(moved[s][di]["omitted"] for s in cut) else "") + ".")


def entity_threads_view(res, di, systems, ref, focus: bool, key: str) -> None:
    resegmented_note(res, di, systems)
    st.caption("Each entity of the reference and the string each system used for it, sentence by sentence "
               "(sN: sentence N; = same string, ≠ another string, missing). Alignment is heuristic: in the same "
               "sentence (the whole document under document-level matching), an identical entity of the same "
               "group, else the most similar system entity (word overlap or character similarity of at least "
               f"{CATALOG.min_similarity})."
               + (" Select a row to see its first inconsistent sentence." if focus else ""))
    rows, first = [], []
    for n in systems:
        for th in res.entity_threads(di, n, ref):
            occ = th["occurrences"]
            bad = [o for o in occ if o["system"] is None or not o["exact"]]
            rows.append({"system": n, "reference entity": th.get("entity_shown", th["entity"]), "group": th["group"],
                         "consistent": "yes" if th["consistent"] else "no ⚠",
                         "renderings": len(th["renderings"]),
                         "sentence by sentence": " · ".join(
                             f"s{o['sentence']} " + ("missing" if o["system"] is None else
                                                     ("= " if o["exact"] else "≠ ")
                                                     + o.get("system_shown", o["system"]))
                             for o in occ)})
            first.append((bad or occ)[0]["sentence"])
    if not rows:
        st.write("No counted entity in the reference of this document.")
        return
    kw = dict(on_select=lambda: _focus_from_table(key, first), selection_mode="single-row") if focus else {}
    st.dataframe(pd.DataFrame(rows), hide_index=True, placeholder="-", key=key, **kw)


def pronoun_threads_view(res, di, systems, ref, focus: bool, key: str) -> None:
    resegmented_note(res, di, systems)
    rows_p = res.pronoun_threads(di, systems, ref)
    names = [ref] + [s for s in systems if s != ref]
    rows = []
    for row in rows_p:
        r = {"sentence": row["sentence"]}
        for x in names:
            r[x] = ", ".join(f"{w} ({c})" for w, c in row["pronouns"][x]) or "-"
        r["differs from the reference"] = ", ".join(x for x in names if row["mismatch"].get(x)) or ""
        rows.append(r)
    st.caption("Pronouns per sentence with their gender; the last column names the systems whose masculine/"
               "feminine pronouns differ from the reference's (those cells are shaded)."
               + (" Select a row to see the sentence." if focus else ""))
    if not rows:
        st.write("No pronoun in this document.")
        return
    df = pd.DataFrame(rows)
    bad = {(i, x) for i, row in enumerate(rows_p) for x in names if row["mismatch"].get(x)}
    styled = df.style.apply(lambda col: ["background-color:#f3d6e4" if (i, col.name) in bad else ""
                                         for i in range(len(col))], axis=0)
    kw = dict(on_select=lambda: _focus_from_table(key, [r["sentence"] for r in rows]),
              selection_mode="single-row") if focus else {}
    st.dataframe(styled, hide_index=True, placeholder="-", key=key, **kw)


def tense_timeline_view(res, di, systems, ref, focus: bool, key: str) -> None:
    resegmented_note(res, di, systems)
    tl = res.tense_timeline(di, systems, ref)
    codes = {g: i for i, g in enumerate(TENSES)}
    ys = list(tl)
    n_max = max(len(v) for v in tl.values())
    z = [[codes.get(seq[i]["dominant"], 3) if i < len(seq) else None for i in range(n_max)] for seq in tl.values()]
    hover = [[(f"{label(name)}, sentence {i + 1}: <b>{TENSES[z[r][i]]}</b><br>"
               + (", ".join(f"{k} {v}" for k, v in seq[i]["counts"].items()) or "no verb")) if i < len(seq) else ""
              for i in range(n_max)] for r, (name, seq) in enumerate(tl.items())]
    scale = []
    for i, col in enumerate(TENSE_COLOURS):
        scale += [[i / len(TENSE_COLOURS), col], [(i + 1) / len(TENSE_COLOURS), col]]
    xs, yl = list(range(1, n_max + 1)), [label(y) for y in ys]
    fig = go.Figure(go.Heatmap(z=z, x=xs, y=yl, zmin=-0.5, zmax=len(TENSES) - 0.5, colorscale=scale, xgap=2, ygap=2,
                               colorbar=dict(tickvals=list(range(len(TENSES))), ticktext=TENSES)))
    if focus:
        clickable(fig, xs, yl, hover, size=10)
    else:
        fig.data[0].text = hover
        fig.data[0].hovertemplate = "%{text}<extra></extra>"
    fig.update_layout(height=120 + 40 * len(ys), xaxis_title="sentence", yaxis_autorange="reversed",
                      margin=dict(t=10), xaxis=dict(dtick=1 if n_max <= 20 else None))
    legend = "; ".join(f"{g}: " + ", ".join(f"{f} ({d})" for f, d in feats)
                       for g, feats in res.tense_legend().items() if g in TENSES)
    st.caption(f"Dominant tense of every sentence ({legend}); "
               "a change of shade across a row is tense drift." + (" Click a cell to see that sentence." if focus
                                                                   else ""))
    if focus:
        def go_to():
            pts = st.session_state[key].selection.points
            if pts:
                st.session_state.update(focus_sentence(int(pts[0]["x"])))
        st.plotly_chart(fig, width="stretch", on_select=go_to, selection_mode="points", key=key)
    else:
        st.plotly_chart(fig, width="stretch", key=key)
