"""Human correlation: metric vs human judgments at system and document level."""
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from blonde_core.study import InputError
from pages._shared import config, downloads, label, md, need_data, result, signature_box, standard

st.title("Human correlation")
d = need_data("metric-human correlation")
if d is None:
    st.stop()
if d.human is None:
    st.info("No human judgments loaded. On the **Data** page upload an MQM TSV (Google's WMT MQM release) or a "
            "table with columns system, doc_id, optional seg_id and a score.")
    st.page_link("pages/data.py", label="Go to Data", icon=":material/folder_open:")
    st.stop()
cfg = config()
res = result(d, cfg)
if res is None:
    st.stop()
# TER joins once it has been computed (on the Overview): it can take minutes on long segments
std_metrics = ("BLEU", "chrF") + (("TER",) if d.standard_ready(cfg.granularity, "TER") else ())
standard(d, cfg, std_metrics)
level = st.segmented_control("Level", ["system", "document"], default="system", key="corr_level") or "system"
pair = d.guess_pair()
apt_pair = pair if pair and st.session_state.get("with_apt") else None  # switched on in Overview
try:
    with st.spinner("Correlating..."):
        out, (keys, vals, hum) = d.correlate(cfg, level, std_metrics, apt_pair)
except InputError as exc:
    st.error(md(str(exc)))
    st.stop()
direction = out["human_direction"]
st.caption(f"Human score: **{md(out['human'])}** ({direction}). n = {out['n']} "
           f"{'systems' if level == 'system' else '(system, document) pairs'}. Metrics where lower is better "
           "(TER, Otem, Utem, BlonD-dist) are negated (-TER, -Otem, ...) so that higher is better for every metric.")
names = list(out["metrics"])
metric = st.selectbox("Metric for the scatter plot", names, key="corr_metric")
x, y = vals[metric], hum
ok = ~(np.isnan(x) | np.isnan(y))
fig = go.Figure(go.Scatter(x=x[ok], y=y[ok], mode="markers", text=[label(k) for k in np.array(keys)[ok]],
                           hovertemplate="%{text}<br>metric %{x:.4f}<br>human %{y:.3f}<extra></extra>",
                           marker=dict(size=10 if level == "system" else 7, opacity=.8)))
if ok.sum() >= 2 and np.ptp(x[ok]) > 0:
    slope, icpt = np.polyfit(x[ok], y[ok], 1)
    xs = np.linspace(x[ok].min(), x[ok].max(), 50)
    fig.add_trace(go.Scatter(x=xs, y=slope * xs + icpt, mode="lines", name="least squares",
                             line=dict(dash="dash"), hoverinfo="skip"))
m = out["metrics"][metric]
title = f"Pearson {m['pearson']:.3f}" if m["pearson"] is not None else "Pearson n/a"
fig.update_layout(xaxis_title=label(metric), yaxis_title=label(f"human ({'-' if not d.human.higher_is_better else ''}"
                                                             f"{out['human']})"), height=440, showlegend=False, title=title, margin=dict(t=40))
st.plotly_chart(fig, width="stretch")

rows = []
for name, v in out["metrics"].items():
    rows.append({"metric": name, "pearson": v["pearson"], "pearson_low": v["pearson_ci"][0],
                 "pearson_high": v["pearson_ci"][1], "spearman": v["spearman"], "spearman_low": v["spearman_ci"][0],
                 "spearman_high": v["spearman_ci"][1], "kendall": v["kendall"], "kendall_low": v["kendall_ci"][0],
                 "kendall_high": v["kendall_ci"][1], "n": v["n"]})
table = pd.DataFrame(rows)
st.subheader("Correlations with 95% confidence intervals")
st.dataframe(table, hide_index=True, column_config={c: st.column_config.NumberColumn(format="%.3f")
                                                    for c in table.columns if c not in ("metric", "n")})
downloads(table, f"correlation_{level}", latex=True, key="corr")

st.subheader("Williams tests between metrics")
st.caption("Is metric a's Pearson correlation with the human score higher than metric b's, given their "
           "correlation with each other? One-sided p (psych::r.test formula, df = n - 3).")
wt = pd.DataFrame(out["williams"])
if wt.empty:
    st.write("Not enough data for Williams tests (needs n > 3 and defined correlations).")
else:
    st.dataframe(wt.sort_values("p"), hide_index=True,
                 column_config={c: st.column_config.NumberColumn(format="%.4f") for c in wt.columns
                                if c not in ("a", "b", "n")})
    downloads(wt, f"williams_{level}", key="wil")

st.subheader("Metric-metric correlation (Pearson)")
mm = pd.DataFrame(out["matrix"]).reindex(index=names, columns=names).astype(float)
fig = go.Figure(go.Heatmap(z=mm.values, x=names, y=names, zmin=-1, zmax=1, colorscale="RdBu",
                           text=np.round(mm.values, 2), texttemplate="%{text}",
                           hovertemplate="%{y} / %{x}: %{z:.3f}<extra></extra>"))
fig.update_layout(height=120 + 30 * len(names), margin=dict(t=10), yaxis_autorange="reversed")
st.plotly_chart(fig, width="stretch")
downloads(mm.reset_index(names="metric"), f"metric_matrix_{level}", key="mm")
signature_box(out["signature"], f"|corr:{level}|human:{out['human']}")
