"""Significance: paired tests between every pair of systems over documents, blocks or segments."""
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from blonde_core.study import CATALOG, InputError, Study
from blonde_core.study import significance_sentence

policy = CATALOG.policy
from studio.compute import compare, standard
from studio.gate import start_page
from studio.navigation import go_to
from studio.plots import clickable, clicked
from studio.session import config, data, scoped
from studio.tables import downloads, styled, system_column
from studio.text import first_clause, label, md_escape, unlabel
from studio.widgets import note_line, ranked, signature_box, system_order, thin_evidence

_d0, _cfg0 = scoped(data()), config()
if _d0 is not None and not _cfg0.has_pack:
    # a language without a pack: sacrebleu's metrics and those computed elsewhere are tested all the same, on the
    # texts alone (Study.scores_or_texts); the page says so first, and offers no BlonDe-family metric
    st.title("Significance")
    d, cfg = _d0, _cfg0
    st.warning(md_escape(d.no_pack(cfg)) + ". The tests below use chrF, BLEU, TER and the metrics computed elsewhere, "
               "which need no pack.", icon=":material/translate:")
    res = d.scores_or_texts(cfg)
else:
    d, cfg, res = start_page("Significance", "significance tests")
PACK = cfg.has_pack
if len(res.names) < 2:
    st.info("Significance needs at least two systems.")
    st.stop()
metrics = res.metric_names() if PACK else []
c1, c2, c3, c4 = st.columns(4)
external = [m for m, e in d.external.items() if e.resamplable()]  # metrics computed elsewhere with unit scores
offered = metrics + (list(CATALOG.companions) if PACK else []) + list(CATALOG.sacrebleu) + external
if st.session_state.get("sig_metric") not in offered:  # a choice this data does not offer (no pack: no BlonDe)
    st.session_state.pop("sig_metric", None)
metric = c1.selectbox("Metric", offered, key="sig_metric", index=0 if PACK else offered.index("chrF"),
                      help=", ".join(m for m in offered if m not in external and not CATALOG.higher_is_better(m))
                           + ": lower is better. "
                           + ", ".join(m for m in offered if m not in external and CATALOG.metric(m) is not None
                                       and CATALOG.metric(m).units == ("doc",)) + ": document units only. "
                           + ("Metrics computed elsewhere (" + ", ".join(external) + "): their segment scores "
                              "averaged per unit (document scores only: document units). " if external else "")
                           + "A metric given at system level only has no units to test.")
part = c1.radio("Measure", ["F1", "R", "P"], horizontal=True, key="sig_part",
                disabled=metric not in metrics)
if metric not in metrics:
    part = "F1"
tests = ["bootstrap", "ttest", "wilcoxon", "ar"]
test = c2.selectbox("Test", tests, index=tests.index(policy.TEST), key="sig_test", format_func=policy.TEST_NAMES.get)
pol = d.significance_unit(cfg)
unit_kind = c3.selectbox("Units", ["automatic", "documents", "blocks of N segments", "segments"], key="sig_unit",
                         disabled=cfg.granularity == "document",
                         help=f"Automatic (the Overview's): documents when there are at least {policy.MIN_UNITS}, "
                              f"else blocks of consecutive segments sized to give at least {policy.MIN_UNITS} units. "
                              f"Here: {pol['reason']}.")
block = c3.number_input("N", 1, 100, 5, key="sig_block") if unit_kind.startswith("blocks") else None
unit = {"automatic": pol["unit"], "documents": "doc"}.get(unit_kind) or (f"block:{block}" if block else "segment")
if cfg.granularity == "document":
    unit = "doc"
spec = CATALOG.metric(metric)  # the registry: which units a metric may be tested over
if spec is not None and not spec.tested_over(unit):
    st.caption(f"{metric} is tested over documents.")
    unit = "doc"
if metric in d.external and not d.external[metric].seg and unit != "doc":
    st.caption(f"{md_escape(metric)} has document scores only: it is tested over documents.")
    unit = "doc"
n = c4.select_slider("Resamples / trials", [200, 500, 1000, 2000, 5000, 10000],
                     value=1000 if test != "ar" else 2000, key="sig_n", disabled=test in ("ttest", "wilcoxon"))
corrections = ["p_bh", "p_holm", "p"]
corr = c4.radio("p-values", corrections, index=corrections.index(policy.CORRECTION), horizontal=True,
                key="sig_corr", format_func={"p": "raw", "p_holm": "Holm", "p_bh": "Benjamini-Hochberg"}.get)
full = metric if part == "F1" else f"{metric}.{part}"
try:
    std_metrics = (metric,) if metric in CATALOG.sacrebleu else ()
    if std_metrics:
        standard(d, cfg, std_metrics)
    out = compare(d, cfg, res, full, test, unit, n, std_metrics=std_metrics)
except InputError as exc:
    st.error(md_escape(exc.for_page()))
    st.stop()
# the answer first: is the leader significantly better than the runner-up (or the two chosen)?
if PACK:
    best_first = ranked(res, out["systems"])
else:  # no BlonDe ranking: the tested metric's own, best first
    up = out["direction"] == "higher is better"
    best_first = sorted(out["systems"], key=lambda s_: (out["systems"][s_]["score"] is None,
                                                       -(out["systems"][s_]["score"] or 0) if up
                                                       else (out["systems"][s_]["score"] or 0)))
q1, q2, _ = st.columns([1, 1, 2])
sa = q1.selectbox("Is", best_first, index=0, key="sig_qa")
sb = q2.selectbox("better than", best_first, index=1 if len(best_first) > 1 else 0, key="sig_qb")
sentence = significance_sentence(out, sa, sb, corr, CATALOG.points_factor(metric), name=md_escape)
if sentence:
    st.markdown(sentence)
elif sa == sb:
    st.caption("Choose two different systems.")
names = system_order(res, list(out["systems"]), container=c1) if PACK else best_first  # the matrix's axes
scale = CATALOG.points_factor(metric)  # every number here in points (0-100), as on every page
k = len(names)
mat = np.full((k, k), np.nan)
diff = np.full((k, k), np.nan)
for q in out["pairs"]:
    i, j = names.index(q["a"]), names.index(q["b"])
    p = q[corr]
    mat[i, j] = mat[j, i] = np.nan if p is None else p
    dv = q["corpus_diff"] if test in ("bootstrap", "ar") else q["mean_diff"]
    if dv is not None:
        diff[i, j], diff[j, i] = dv, -dv
text = [["" if i == j or np.isnan(mat[i, j]) else
         f"{mat[i, j]:.3f}{'*' if mat[i, j] < 0.05 else ''}<br>{scale * diff[i, j]:+.2f}" for j in range(k)]
        for i in range(k)]
st.subheader(f"All pairs: {md_escape(out['metric'])} over {out['n_units']} units ({unit}); {out['direction']}")
is_policy = (test, unit, corr, metric) == (policy.TEST, pol["unit"], policy.CORRECTION, "BlonDe") and part == "F1"
st.caption(f"{policy.describe(test, unit, out['n_units'], corr)}"
           + (f" — the policy that makes the Overview's clusters ({md_escape(pol['reason'])})." if is_policy else
              f". The Overview's clusters use {policy.describe(policy.TEST, pol['unit'], pol['n_units'])} on "
              + ("BlonDe." if PACK else "each metric.")))
if out.get("warning"):
    note_line("Units: " + md_escape(first_clause(out["warning"])), f"{md_escape(out['warning'])}. " + (
        "" if unit_kind == "automatic"
        else f"The automatic unit gives {pol['n_units']} units ({md_escape(pol['reason'])})."))
elif pol["note"] and unit == pol["unit"]:
    note_line("Units: " + md_escape(first_clause(pol["note"])), md_escape(pol["note"]))
# the table of every category below tests BlonDe and BlonD-d whatever the metric chosen here
if PACK:
    thin_evidence(res, cfg, "the differences of BlonDe, BlonD-d and BlonD+ spread wide, which weakens their tests "
                            "(few significant pairs, corrected p-values alike); the tests of single categories are "
                            "not affected this way")
if out.get("absent_warning"):
    note_line("Resamples where a category vanishes: " + md_escape(first_clause(out["absent_warning"])),
              md_escape(out["absent_warning"]) + ". The same test with the setting *Leave absent categories out of the "
              "mean* (More settings) is under the pairs table.")
st.caption("Cell (row A, column B): corrected p-value and difference A - B in points; **\\*** and blue: "
           "significant at 0.05. Click a cell to open the contrast of A and B.")
xs = [label(x) for x in names]
fig = go.Figure(go.Heatmap(z=mat, x=xs, y=xs, text=text, texttemplate="%{text}", zmin=0, zmax=0.1,
                           colorscale=[[0, "#0072B2"], [0.5, "#9ecae1"], [0.5001, "#f5f5f5"], [1, "#eeeeee"]],
                           showscale=False))
clickable(fig, xs, xs, [[f"{xs[i]} vs {xs[j]}: " + ("-" if np.isnan(mat[i, j]) else f"p = {mat[i, j]:.4f}")
                         + "<br>click: contrast of the two" for j in range(k)] for i in range(k)], size=26)
fig.update_layout(height=120 + 34 * k, margin=dict(t=10), yaxis_autorange="reversed")
pt = clicked(st.plotly_chart(fig, width="stretch", on_select="rerun", selection_mode="points", key="sig_matrix"))
if pt and pt["x"] != pt["y"]:
    st.session_state["pending_ct"] = {"ct_a": unlabel(pt["y"]), "ct_b": unlabel(pt["x"])}
    go_to("contrast")
POINTS = ("score_a", "score_b", "mean_diff", "corpus_diff", "ci_low", "ci_high")  # in points, as the matrix
PAIR_WORDS = {"a": "system A", "b": "system B", "score_a": "A (points)", "score_b": "B (points)",
              "corpus_diff": "A - B (points)", "mean_diff": "mean of the units' A - B (points)",
              "ci_low": "95% CI low (points)", "ci_high": "95% CI high (points)", "t": "t statistic", "p": "p (raw)",
              "p_holm": "p (Holm)", "p_bh": "p (Benjamini-Hochberg)", "n_units": "units",
              "n_nan_units": "units without a score", "ci_of": "interval of", "n_resamples": "resamples",
              "ranks": "leaderboard ranks"}
pairs = pd.DataFrame([{**{kk: v for kk, v in q.items() if kk not in ("ci", "absent", "ci_method")},
                       "ci_low": q["ci"][0], "ci_high": q["ci"][1],
                       **({"absent in resamples": ", ".join(f"{c} {100 * s:.0f}%" for c, s in q["absent"].items())
                           or "-"} if "absent" in q else {})} for q in out["pairs"]])
for col in POINTS:
    if col in pairs:
        pairs[col] = pairs[col].astype(float) * scale
# leaderboard order (the pair of the top two first), each column named in words with its unit
rank = {s: i + 1 for i, s in enumerate(best_first)}


def pair_order(a: str, b: str) -> tuple:
    """A pair's place in the leaderboard's order: the better rank first, then the other."""
    return min(rank[a], rank[b]), max(rank[a], rank[b])


if not pairs.empty:
    pairs.insert(0, "ranks", [f"{rank[a]} vs {rank[b]}" for a, b in zip(pairs["a"], pairs["b"])])
    pairs = pairs.assign(_k=[pair_order(a, b) for a, b in zip(pairs["a"], pairs["b"])]) \
        .sort_values("_k", kind="stable").drop(columns="_k").rename(columns=PAIR_WORDS)
st.dataframe(styled(pairs, precision=4), hide_index=True, placeholder="-")
downloads(pairs, f"significance_{full}_{test}", latex=True, key="sig")
sysdf = pd.DataFrame([{"system": s, "score": v["score"], "ci_low": v["ci"][0], "ci_high": v["ci"][1]}
                      for s, v in out["systems"].items()])
sysdf[["score", "ci_low", "ci_high"]] = sysdf[["score", "ci_low", "ci_high"]].astype(float) * scale
st.caption("Scores, differences and intervals in points (0-100), as on every page. "
           + ("Intervals: " + md_escape(out["pairs"][0]["ci_method"])
              + (" (the interval excludes 0 exactly when the raw p is below 0.05)." if test == "bootstrap" else ".")
              if out["pairs"] and out["pairs"][0].get("ci_method") else ""))
with st.expander("Scores and bootstrap intervals (points)"):
    st.dataframe(styled(sysdf), hide_index=True, placeholder="-", column_config={"system": system_column()})
if out.get("absent_warning"):
    st.markdown("**The same test with absent categories left out of the mean** (the setting *Leave absent "
                "categories out of the mean*; its signature: `absent:skip`)")
    left = pd.DataFrame([{"pair": f"{q['a']} vs {q['b']}", PAIR_WORDS["corpus_diff"]: None if q["corpus_diff"] is None
                          else scale * q["corpus_diff"],
                          PAIR_WORDS["ci_low"]: None if q["ci"][0] is None else scale * q["ci"][0],
                          PAIR_WORDS["ci_high"]: None if q["ci"][1] is None else scale * q["ci"][1],
                          PAIR_WORDS[corr]: q[corr]} for q in out["absent_left_out"]["pairs"]])
    st.dataframe(styled(left, precision=3), hide_index=True, placeholder="-")

# the `compare` command that reproduces this page's numbers (its signature: out["signature"])
cmd = ("compare", ["--metric", full, "--test", test, "--unit", unit, "--seed", str(out["seed"])]
       + (["--n", str(n)] if test in ("bootstrap", "ar") else []))
if not PACK:  # no category without a pack
    signature_box(out["signature"], command=cmd)
    st.stop()
st.subheader("Every category at once")
cats = [m for m in metrics]
rows = []
if test == "ar" and not st.toggle("Run the randomization test for every category (about 3 s per category on "
                                  "15 systems)", key="sig_all_ar"):
    signature_box(out["signature"], command=cmd)
    st.stop()
with st.spinner("Testing every category..."):
    for m in cats:
        o = compare(d, cfg, res, m if part == "F1" else f"{m}.{part}", test, unit, n, cis=False)
        for q in o["pairs"]:
            rows.append({"pair": f"{q['a']} vs {q['b']}", "metric": m, corr: q[corr], "_k": pair_order(q["a"], q["b"])})
order = [p for p, _ in sorted({r["pair"]: r["_k"] for r in rows}.items(), key=lambda x: x[1])]  # leaderboard order
words = CATALOG.category_words
named = {m: words[m]["name"] if m in words else m for m in cats}  # tense -> verb tense, dm -> discourse marker
allcat = pd.DataFrame(rows).pivot(index="pair", columns="metric", values=corr).loc[order, cats].reset_index() \
    .rename(columns=named)
st.caption(f"{PAIR_WORDS[corr]} per pair (in the leaderboard's order) and metric; count of significant pairs (< 0.05) "
           "per metric: " + ", ".join(f"{named[m]}: {int((allcat[named[m]] < 0.05).sum())}" for m in cats))
st.dataframe(styled(allcat, precision=3), hide_index=True, placeholder="-")
downloads(allcat, f"significance_all_{test}", latex=True, key="sigall")
signature_box(out["signature"], command=cmd)
st.caption("The command reproduces the matrix and the pairs table of the metric chosen above (its JSON on the "
           "core's scale: BlonDe-family scores 0-1); `--metric` with another category gives that column of the "
           "table of every category.")
