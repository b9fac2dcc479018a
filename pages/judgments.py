"""Human judgments: the loaded MQM sliced as Marot slices it - by system, document, rater, category,
severity and the file's metadata fields, under severity weights the user may change, per rated
segment or per 100 source characters - with the systems compared again on the slice.  The state
lives in the URL, so a slice can be shared."""
import shlex

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from blonde_core.study import InputError, Study
from blonde_core.study import mqm_fields
from studio.gate import need_data
from studio.navigation import page
from studio.session import config
from studio.tables import downloads, styled, system_column
from studio.text import md_escape
from studio.widgets import copyable

st.title("Human judgments")
d = need_data("human judgments sliced by system, document, rater, category and severity")
if d is None:
    st.stop()
hs = d.human
if hs is None or not hs.errors:
    what = "No human judgments are loaded." if hs is None else \
        (f"The loaded judgments ({md_escape(hs.kind or hs.name)}) are scores, not MQM error annotations: "
         "there is nothing to slice.")
    st.info(f"{what} On the **Data** page upload an MQM TSV (Google's WMT MQM release: one row per error, with "
            "rater, category and severity). Scores of any kind are correlated with the metrics on "
            "**Human correlation**.")
    st.page_link(page("data"), label="Go to Data", icon=":material/folder_open:")
    st.stop()

FIELDS = mqm_fields(hs)
DEFAULTS = Study.mqm_weights().rules
PER = Study.mqm_units()
values = {f: sorted({str(v) for v in vals}) for f, vals in
          {"system": {r[0] for r in hs.errors}, "doc": {r[1] for r in hs.errors}, "rater": {r[3] for r in hs.errors},
           "category": {r[4] for r in hs.errors}, "severity": {r[5] for r in hs.errors},
           **({"domain": {hs.domains.get(r[1], "") for r in hs.errors}} if hs.domains else {}),
           **{m: {e.get(m, "") for e in hs.error_meta} for m in hs.meta_fields}}.items()}


def rule_label(r) -> str:
    return r.severity if r.category == "*" else r.category if r.severity == "*" else f"{r.category} {r.severity}"


# --- the state in the URL: read when the page first shows this data (a shared link), kept in the session
# (Streamlit drops the values of widgets not drawn, so leaving the page would lose them) and written to the
# URL on every run ---------------------------------------------------------------------------------------------
QP = st.query_params
KEYS = ["mqm_by", "mqm_per", "mqm_rules"] + [f"mqm_f_{f}" for f in FIELDS] + [f"mqm_w{i}" for i in range(len(DEFAULTS))]
saved = st.session_state.get("mqm_saved")
if saved is None or saved.get("_data") != d.key:
    saved = {"_data": d.key, "mqm_by": [b for b in QP.get("by", "system,category").split(",") if b in FIELDS],
             "mqm_per": QP.get("per") if QP.get("per") in PER else "segment"}
    for f in FIELDS:
        saved[f"mqm_f_{f}"] = [v for v in QP.get_all(f"f.{f}") if v in values[f]]
    try:
        w0 = Study.mqm_weights(QP.get("w", ""))
    except InputError as exc:  # a link whose weights were edited by hand: say so, start from Google's
        st.warning(f"The address's weights were not understood, so Google's are used: {md_escape(exc.for_page())}")
        w0 = Study.mqm_weights()
    for i, r in enumerate(DEFAULTS):
        same = [x for x in w0.rules if (x.category, x.severity) == (r.category, r.severity)]
        saved[f"mqm_w{i}"] = same[0].weight if same else r.weight
    saved["mqm_rules"] = "; ".join(x.spec() for x in w0.rules
                                   if all((x.category, x.severity) != (r.category, r.severity) for r in DEFAULTS))
for k in KEYS:
    if k not in st.session_state:
        st.session_state[k] = saved[k]


def google_weights() -> None:
    for i, r in enumerate(DEFAULTS):
        st.session_state[f"mqm_w{i}"] = r.weight
    st.session_state["mqm_rules"] = ""


c1, c2 = st.columns([3, 2])
by = c1.multiselect("Slice by", FIELDS, key="mqm_by",
                    help="One row per combination of these fields' values. system, doc and rater say which rated "
                         "segments a slice covers; category, severity and metadata fields say which errors count.")
per = c2.segmented_control("Score", list(PER), key="mqm_per", format_func=PER.get,
                           help="MQM per rated segment (the mean over segments of the raters' mean penalty), or per "
                                "100 characters of the source (long segments weigh more)") or "segment"
score_col = "MQM" if per == "segment" else "MQM per 100 chars"

where = {}
n_active = sum(bool(st.session_state.get(f"mqm_f_{f}")) for f in FIELDS)
with st.expander(f"Filter ({n_active} active)" if n_active else "Filter", expanded=bool(n_active)):
    cols = st.columns(3)
    for i, f in enumerate(FIELDS):
        chosen = cols[i % 3].multiselect(f, values[f], key=f"mqm_f_{f}", placeholder="all")
        if chosen:
            where[f] = chosen

with st.expander("Severity weights", expanded=bool(QP.get("w"))):
    st.caption("The first rule that fits an error gives its weight; an error no rule fits weighs 0 (Neutral, "
               "No-error). Google's weights are the defaults.")
    wc = st.columns(4)
    changed = []
    for i, r in enumerate(DEFAULTS):
        w = wc[i % 4].number_input(rule_label(r), min_value=0.0, step=0.1, format="%g", key=f"mqm_w{i}")
        if w != r.weight:
            changed.append(f"{r.spec().rpartition('=')[0]}={w:g}")
    more = st.text_input("More rules, ahead of these", key="mqm_rules",
                         placeholder="e.g. Accuracy/*:Minor=2; Style/*:Major=1",
                         help="CATEGORY:SEVERITY=W or SEVERITY=W, separated by ';'; * stands for any text")
    wtext = "; ".join(([more.strip()] if more.strip() else []) + changed)
    try:
        weights = Study.mqm_weights(wtext)
    except InputError as exc:
        st.error(md_escape(exc.for_page()))
        st.stop()
    st.button("Google's weights", key="mqm_reset", on_click=google_weights,
              help="Back to Major 5, Minor 1, Minor punctuation 0.1, Non-translation 25")

st.session_state["mqm_saved"] = {"_data": d.key, **{k: st.session_state[k] for k in KEYS}}
# the address holds what differs from the defaults, written in one update and only when it changed: each
# write is a browser history entry, and writing the defaults on arrival made Back land here again (issue 60)
want = {k: v for k, v in QP.to_dict().items() if k not in ("by", "per", "w") and not k.startswith("f.")}
if ",".join(by) != "system,category":
    want["by"] = ",".join(by)
if per != "segment":
    want["per"] = per
if weights.changes():
    want["w"] = weights.changes()
have = {k: QP.get_all(k) for k in QP}
want_all = {**{k: [v] for k, v in want.items()}, **{f"f.{f}": list(where[f]) for f in FIELDS if f in where}}
if have != want_all:
    QP.from_dict({**want, **{f"f.{f}": where[f] for f in FIELDS if f in where}})

shown_w = weights.changes() or "Google's (Major 5, Minor 1, Minor Fluency/Punctuation 0.1, Non-translation 25)"
st.caption(f"Weights: {md_escape(shown_w)}. "
           + ("; ".join(f"{md_escape(f)} in {md_escape(', '.join(v))}" for f, v in where.items())
              if where else "All rows.") +
           " The address of this page holds the slice: copy it to share it (with the data).")

if by:
    try:
        sl = pd.DataFrame(Study.mqm_slices(hs, by, weights, where))
    except InputError as exc:
        st.error(md_escape(exc.for_page()))
        st.stop()
    if sl.empty:
        st.info("No errors in this slice.")
    else:
        sl = sl.sort_values(score_col, ascending=False, na_position="last")
        own = hs.name if hs.name in sl.columns else None  # ESA: the raters' own rating beside the spans' penalty
        st.subheader(f"{len(sl)} slices, MQM {PER[per]}" + (f" ({md_escape(hs.name)}'s error spans weighted as MQM)"
                                                            if own else ""))
        if own:
            st.caption(f"**{md_escape(hs.name)}**: the raters' own 0-100 score (higher is better), the mean over the "
                       "slice's rated segments of their raters' mean; shown when slicing by scope (system, doc, rater, "
                       "domain) only. MQM weighs the error spans they marked (Major 5, Minor 1), lower is better.")
        num = st.column_config.NumberColumn
        st.dataframe(sl, hide_index=True, placeholder="-", height=min(420, 38 + 35 * len(sl)), column_config={
            "penalty": num(format="%.1f", help="the errors' summed weights"),
            "MQM": num(format="%.3f", help="mean over the rated segments of the raters' mean penalty (lower is "
                                           "better)"),
            "MQM per 100 chars": num(format="%.3f", help="penalty per 100 characters of the rated segments' source"),
            "rated": num(help="rated segments in the slice's system / document / rater scope"),
            "chars": num(help="characters of the rated segments' source"),
            **({own: num(format="%.2f", help="the raters' own score, 0-100, higher is better")} if own else {})})
        downloads(sl, "mqm_slices", key="mqmsl")
        top = sl.dropna(subset=[score_col]).head(25)
        names = [" / ".join(str(r[b]) for b in by) for _, r in top.iterrows()]
        fig = go.Figure(go.Bar(x=top[score_col], y=names, orientation="h", text=[f"{v:.3f}" for v in top[score_col]],
                               textposition="outside", cliponaxis=False,
                               hovertemplate="%{y}: %{x:.3f}<extra></extra>"))
        fig.update_layout(height=90 + 24 * len(top), margin=dict(t=10, l=10, r=60), yaxis_autorange="reversed",
                          xaxis_title=f"MQM {PER[per]} (lower is better)")
        st.plotly_chart(fig, width="stretch")
        if len(sl) > len(top):
            st.caption(f"The chart shows the {len(top)} heaviest of {len(sl)} slices; the table has them all.")

st.subheader("Systems compared on this slice")
with st.spinner("Paired randomization over segments..."):
    sig = Study.mqm_significance(hs, weights, where, per=per)
sys_t = pd.DataFrame([{"system": s, score_col: v, "rated": sig["segments"][s]}
                      for s, v in sig["systems"].items()]).sort_values(score_col, na_position="last")
pairs = pd.DataFrame(sig["pairs"])
k1, k2 = st.columns([4, 5])
k1.dataframe(styled(sys_t, precision=3), hide_index=True, placeholder="-", height=38 + 35 * len(sys_t),
             column_config={"system": system_column()})
k2.caption(f"Each system's MQM {PER[per]} on the slice (lower is better), over the segments it has in the slice "
           "(rated: how many). Below, every pair compared on the segments both have: as a matrix, then as a table.")
if not pairs.empty:  # the pairs as a matrix: rows and columns in the slice's order (best first)
    order = [s for s in sys_t["system"] if s in set(pairs["a"]) | set(pairs["b"])]
    pos = {s: i for i, s in enumerate(order)}
    z = [[None] * len(order) for _ in order]
    txt = [[""] * len(order) for _ in order]
    for r in pairs.to_dict("records"):
        for x, y, sign in ((r["a"], r["b"], 1), (r["b"], r["a"], -1)):
            z[pos[x]][pos[y]] = sign * r["difference"]
            txt[pos[x]][pos[y]] = f"{sign * r['difference']:+.2f}" + ("*" if r["p (Holm)"] < 0.05 else "")
    heat = go.Figure(go.Heatmap(z=z, x=order, y=order, text=txt, texttemplate="%{text}", colorscale="RdBu_r",
                                zmid=0, colorbar=dict(title="row - column"),
                                hovertemplate="%{y} - %{x}: %{z:+.3f} (lower is better)<extra></extra>"))
    heat.update_layout(height=140 + 34 * len(order), margin=dict(t=10, b=10), yaxis_autorange="reversed",
                       xaxis=dict(tickangle=-40))
    st.plotly_chart(heat, width="stretch")
    st.caption("Each cell: the row system's MQM minus the column system's, on the segments both have (negative, "
               "blue: the row system is better); * marks a Holm-corrected p < 0.05.")
if pairs.empty:
    st.info("Fewer than two systems share rated segments in this slice: no pair to compare.")
else:
    pairs["significant"] = ["yes" if p < 0.05 else "no" for p in pairs["p (Holm)"]]
    st.dataframe(styled(pairs, precision=4), hide_index=True, placeholder="-", height=min(420, 38 + 35 * len(pairs)),
                 column_config={"difference": st.column_config.NumberColumn(format="%+.3f",
                                                                            help="MQM a - MQM b on the segments "
                                                                                 "both have (lower is better)")})
    st.caption(f"{md_escape(sig['test'])}. significant: Holm-corrected p < 0.05. "
               f"{int((pairs['p (Holm)'] < 0.05).sum())} of {len(pairs)} pairs differ significantly on this slice.")
    downloads(pairs, "mqm_slice_pairs", key="mqmsig")

two = d.annotator_agreement()
if two:  # two annotations of the same segments: how far the humans agree is the ceiling any metric is read against
    f1 = two["span_f1"]
    st.subheader("Two annotations of the same segments")
    st.markdown(f"On the **{two['items']:,}** segments two raters judged, their error spans agree at character-level "
                f"**F1 {f1['f1']:.3f}** (precision {f1['precision']:.3f}, recall {f1['recall']:.3f}: the second "
                "rater's spans against the first's, WMT25's scoring, half credit for a wrong severity) and their "
                "scores "
                + (f"correlate at Pearson **{two['pearson']:.3f}** (Kendall {two['kendall']:.3f}); mean absolute "
                   f"difference {two['mean_abs_difference']:.1f}." if two["pearson"] is not None else
                   f"differ by {two['mean_abs_difference']:.1f} on average."))
    iaa = pd.DataFrame([{"system": s_, "segments": v["items"], "span F1": v["f1"], "precision": v["precision"],
                         "recall": v["recall"]} for s_, v in two["systems"].items()])
    st.dataframe(styled(iaa, precision=3), hide_index=True, placeholder="-", column_config={"system": system_column()},
                 height=min(420, 38 + 35 * len(iaa)))
    st.caption("Rater A: the first of an item's raters by name, taken as gold (F1 is the same either way). A span "
               "without a position and a severity 'undecided' are left out, as WMT25's script does. "
               "`python -m blonde_core correlate ... --format json` gives the same under `annotator_agreement`.")
    downloads(iaa, "annotator_agreement", key="iaa")

if hs.error_spans and config().has_pack:  # BlonDe's mismatches read as error spans, beside the humans' own
    st.subheader("BlonDe's mismatches against these error spans")
    if st.toggle("Compare BlonDe's unmatched spans with the human error spans (scores every system with BlonDe "
                 "first)", key="jud_blonde_spans"):
        with st.spinner("Scoring every system with BlonDe and placing its mismatches on the rated text..."):
            ov = d.blonde_spans_vs_human(config())
        f1 = ov["span_f1"]
        st.markdown(f"Over **{ov['segments_compared']:,}** rated segments, BlonDe's unmatched system spans (a name, "
                    "tense, pronoun or marker the reference does not have) taken as predicted error spans agree with "
                    f"the human error spans at character-level **F1 {f1['f1']:.3f}** (precision {f1['precision']:.3f}: "
                    f"the share of BlonDe's mismatch characters a human marked; recall {f1['recall']:.3f}: the share "
                    "of the human's error characters BlonDe's mismatches cover)"
                    + (f" - two human raters agree at F1 {two['span_f1']['f1']:.3f}." if two else "."))
        bt = pd.DataFrame([{"system": s_, "span F1": v["span_f1"]["f1"], "precision": v["span_f1"]["precision"],
                            "recall": v["span_f1"]["recall"], "human error spans": v["human_error_spans"],
                            "where BlonDe saw no mismatch":
                                v["human_error_spans_where_blonde_saw_no_discourse_mismatch"]}
                           for s_, v in ov["systems"].items()])
        st.dataframe(styled(bt, precision=3), hide_index=True, placeholder="-",
                     column_config={"system": system_column()}, height=min(420, 38 + 35 * len(bt)))
        st.caption("WMT25's character-level scoring with severity set aside (a BlonDe mismatch has none); human spans "
                   "marked Neutral, no-error or undecided and spans without a position are left out; segments whose "
                   f"rated text differs from the loaded one are not compared ({ov['segments_text_differs']}). "
                   "`python -m blonde_core score ... --human FILE --overlap --format json` gives the same under "
                   "`overlap.span_f1`.")
        downloads(bt, "blonde_spans_vs_human", key="bsh")

agree = d.rater_agreement()
with st.expander("Raters' agreement"):
    if agree:
        st.dataframe(pd.DataFrame(agree), hide_index=True, placeholder="-")
        st.caption("Cohen's kappa over the segments both raters rated (penalties in bands 0 / <=1 / <=5 / >5).")
    else:
        st.caption("No two raters share a segment here, so there is no kappa to compute.")

cli = ["python", "-m", "blonde_core", "human", "--mqm", d.human_file] + (["--by", ",".join(by)] if by else []) + \
    (["--weights", weights.changes()] if weights.changes() else []) + \
    [x for f, v in where.items() for x in ("--where", f"{f}={','.join(v)}")] + \
    ["--significance"] + (["--per", "100chars"] if per != "segment" else [])
with st.expander("Reproduce on the command line"):
    copyable(" ".join(shlex.quote(x) for x in cli))
