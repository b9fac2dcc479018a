"""Human correlation: meta-evaluation as the WMT metrics task does it, steered by the user:
which reference scores the systems, which systems take part, level and grouping, and two
metrics compared head to head."""
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from blonde_core.study import CATALOG, InputError, meta_options, meta_statistics
from studio.compute import result, standard
from studio.gate import need_data
from studio.navigation import page
from studio.plots import SYMBOLS
from studio.session import config
from studio.tables import downloads, styled
from studio.text import label, md_escape
from studio.widgets import human_mapping, signature_box

st.title("Human correlation")
d0 = need_data("metric-human correlation")
if d0 is None:
    st.stop()
if d0.human is None:
    st.info("No human judgments loaded. On the **Data** page upload an MQM TSV (Google's WMT MQM release) or a "
            "table with columns system, doc_id, optional seg_id and a score.")
    st.page_link(page("data"), label="Go to Data", icon=":material/folder_open:")
    st.stop()
cfg = config()
texts = d0.references + d0.systems
c1, c2, c3, c4 = st.columns([1.5, 2.2, 1, 1.3])  # level (three options) and SPA labels whole at 1280 px
ref = c1.selectbox("Reference that scores the systems", texts, key="corr_ref",
                   help="Any loaded text can be the reference; the other references then become systems (and can "
                        "be left out below). Re-scored from the cached sentence annotations, no re-upload.")
level = c2.segmented_control("Level", ["system", "document", "segment"], default="system", key="corr_level",
                             help="segment: the BlonDe family, each segment scored on its own, against the "
                                  "segments' human scores") or "system"
grouping = c3.selectbox("Grouping", ["none", "sys", "item"], key="corr_grouping", disabled=level == "system",
                        help="Document and segment level: none = one correlation over all cells; sys = per system "
                             "across documents (segments), then the mean; item = per document (segment) across "
                             "systems, then the mean (WMT23/24's choice).") if level != "system" else "none"
# the statistics computed only when asked for (SPA), one switch per option, from the table (statistics.py)
asked = {opt: c4.toggle(name, key=f"corr_{opt}", disabled=level != "system",
                        help="; ".join(f"{s.label}: {s.help}" for s in stats) + ".") and level == "system"
         for opt, (name, stats) in meta_options("system").items()}
spa = asked.get("spa", False)
try:
    d = d0.scored_against(ref)
except InputError as exc:
    st.error(md_escape(exc.for_page()))
    st.stop()
former_refs = [n for n in d0.references if n != ref]
judged = [n for n in d.systems if n in d0.human.system_scores]
exclude = st.multiselect("Systems left out", judged, default=[], key=f"corr_exclude_{ref}",
                         format_func=lambda n: f"{n} (human translation)" if n in former_refs else n,
                         help="For example the human translations, which humans and metrics judge differently.")
if ref != texts[0] and d0.annotation is not None and d.annotation is None:
    st.caption("BlonD+ is off here: its annotation belongs to the first reference.")
if cfg.has_pack:
    res = result(d, cfg)
    if res is None:
        st.stop()
else:  # no pack: the metrics that need none against the judgments, and the sentence that says why
    st.warning(md_escape(d.no_pack(cfg)) + ".", icon=":material/translate:")
    if level == "segment" and cfg.granularity != "sentence" and not d.external_segments(d.systems):
        st.info("Segment level correlates the BlonDe family, sacrebleu's metrics (at sentence-level matching) and "
                "metrics computed elsewhere with segment scores; without a pack, matched per document and without "
                "such metrics there is nothing to correlate. Choose system or document level.")
        st.stop()
    res = d.scores_or_texts(cfg)
# TER joins once it has been computed for this reference (it can take minutes on long segments)
std_metrics = ("BLEU", "chrF") + (("TER",) if d.standard_ready(cfg.granularity, "TER") else ())
standard(d, cfg, std_metrics)
pair = d.guess_pair()
apt_pair = pair if pair and st.session_state.get("with_apt") and ref == texts[0] else None
blonde = set(res.metric_names()) if cfg.has_pack else set()
all_names = None
try:
    with st.spinner("Correlating..."):
        out, (keys, vals, hum) = d.correlate(cfg, level, std_metrics, apt_pair, grouping=grouping,
                                             exclude=tuple(exclude), spa=spa)
        all_names = list(out["metrics"])
except InputError as exc:
    st.error(md_escape(exc.for_page()))
    st.stop()
cell = "(system, segment)" if level == "segment" else "(system, document)"
rated = f"{out['cells_rated']} of {out['cells']} {cell} cells have a human score"
st.caption(f"Human score: **{md_escape(out['human'])}** ({out['human_direction']}). "
           f"Scored against **{md_escape(ref)}**; "
           f"{out['n_systems']} systems take part" + (f" ({md_escape(', '.join(exclude))} left out)" if exclude else "")
           + f"; {rated}; only rated cells take part. n = {out['n']} "
           f"{'systems' if level == 'system' else cell + ' cells'}"
           + (" (segment level: the BlonDe family, each segment scored on its own, sentence chrF and sentBLEU, "
              "and the metrics computed elsewhere that give segment scores)" if level == "segment" else "")
           + ". BlonDe-family scores are in points "
           "(0-100), as on every page; lower-is-better metrics are negated (-TER, -Otem, ...) so that higher is "
           "better everywhere.")
if d0.human.mapping:
    with st.expander(f"How the {len(d0.human.mapping)} system names of the judgments were matched "
                     f"({sum(v is not None for v in d0.human.mapping.values())} matched)"):
        human_mapping(d0.human)


def shown(metric: str, v: np.ndarray) -> np.ndarray:
    return 100 * v if metric in blonde else v


metric = st.selectbox("Metric for the scatter plot", all_names, key="corr_metric")
x, y = shown(metric, vals[metric]), hum
ok = ~(np.isnan(x) | np.isnan(y))
sys_of = [k.split("/", 1)[0] for k in keys]
fig = go.Figure()
if level == "system":
    fig.add_trace(go.Scatter(x=x[ok], y=y[ok], mode="markers+text", text=[label(k) for k in np.array(keys)[ok]],
                             textposition="top center", marker=dict(size=10, opacity=.8),
                             hovertemplate="%{text}<br>metric %{x:.2f}<br>human %{y:.3f}<extra></extra>"))
else:
    for i, s in enumerate(dict.fromkeys(sys_of)):  # a system: a colour and a marker shape
        sel = ok & (np.array(sys_of) == s)
        fig.add_trace(go.Scatter(x=x[sel], y=y[sel], mode="markers", name=label(s),
                                 text=[label(k) for k in np.array(keys)[sel]],
                                 marker=dict(size=8, opacity=.8, symbol=SYMBOLS[i % len(SYMBOLS)]),
                                 hovertemplate="%{text}<br>metric %{x:.2f}<br>human %{y:.3f}<extra></extra>"))
if ok.sum() >= 2 and np.ptp(x[ok]) > 0:
    slope, icpt = np.polyfit(x[ok], y[ok], 1)
    xs = np.linspace(x[ok].min(), x[ok].max(), 50)
    fig.add_trace(go.Scatter(x=xs, y=slope * xs + icpt, mode="lines", name="least squares",
                             line=dict(dash="dash", color="#555"), hoverinfo="skip"))
m = out["metrics"][metric]
shown = meta_statistics("page", level, out["metrics"])  # the level's statistics, as the table declares them
head = shown[0]  # the first (Pearson) titles the plot
title = f"{head.label} " + ("n/a" if m.get(head.key) is None else f"{m[head.key]:.{head.digits - 1}f}")
if level == "document":
    title += f" (grouping {grouping})"
fig.update_layout(xaxis_title=label(metric + (" (points)" if metric in blonde else "")),
                  yaxis_title=label(f"human ({'-' if not d.human.higher_is_better else ''}{out['human']})"),
                  height=460, showlegend=level == "document", title=title, margin=dict(t=40))
st.plotly_chart(fig, width="stretch")

rows = []
for name, v in out["metrics"].items():
    row = {"metric": name}
    for s in shown:
        row[s.short] = v.get(s.key)
        if s.interval:
            row[f"{s.short}_low"], row[f"{s.short}_high"] = v.get(s.interval) or [None, None]
        for b in s.beside:
            row.update(b.page(v))
    if level == "system":
        row["intervals"] = v["ci_method"]
    else:
        row.update({"groups used": v["groups_used"], "groups left out": v["groups_left_out"]})
    row["n"] = v["n"]
    rows.append(row)
table = pd.DataFrame(rows)
st.subheader("Correlations with 95% intervals")
st.caption(" ".join(f"**{md_escape(s.label)}**: {md_escape(s.help)}." for s in shown)
           + (" Document and segment level: the chosen grouping; groups that are constant or shorter than 2 are left "
              "out and counted." if level != "system" else ""))
st.dataframe(styled(table, precision=3), hide_index=True, placeholder="-",
             column_config={s.short: st.column_config.Column(help=s.describe()) for s in shown})
downloads(table, f"correlation_{level}", latex=True, key="corr")

st.subheader("Compare two metrics")
k1, k2 = st.columns(2)
a = k1.selectbox("Metric A", all_names, index=all_names.index("BLEU") if "BLEU" in all_names else 0, key="corr_a")
b = k2.selectbox("Metric B", all_names, index=next((i for i, n in enumerate(all_names) if n != a), 0), key="corr_b")
if a == b:
    st.caption("Choose two different metrics.")
elif level == "segment":
    st.caption("Two metrics are compared at system and document level (switch the level above).")
else:
    try:
        with st.spinner("PERM-BOTH permutations..."):
            cmp = d.compare_pair(cfg, (a, b), level, std_metrics, apt_pair, grouping=grouping, exclude=tuple(exclude))
    except InputError as exc:
        st.error(md_escape(exc.for_page()))
        st.stop()
    w = cmp["williams"]
    pb = cmp["perm_both"]
    ra, rb = out["metrics"][a]["pearson"], out["metrics"][b]["pearson"]
    st.markdown(f"Pearson: **{md_escape(b)}** {'n/a' if rb is None else f'{rb:.3f}'} vs **{md_escape(a)}** "
                f"{'n/a' if ra is None else f'{ra:.3f}'}.")
    cmp_rows = [{"test": "PERM-BOTH (Deutsch et al. 2021)", "p (B correlates better than A)": pb["p_b_better"],
                 "detail": f"difference B - A {pb['delta_b_minus_a']:+.3f} on z-scored metrics; "
                           f"{pb['resamples']} resamples over {pb['cells']} cells"}]
    if w:
        cmp_rows.append({"test": "Williams (dependent correlations)", "p (B correlates better than A)":
                         w["p_b_better"], "detail": f"t = {w['t']:.3f}, n = {w['n']}"})
    else:
        cmp_rows.append({"test": "Williams (dependent correlations)", "p (B correlates better than A)": None,
                         "detail": "only for ungrouped correlations with n > 3"})
    ct = pd.DataFrame(cmp_rows)
    st.dataframe(ct, hide_index=True, placeholder="-", column_config={"p (B correlates better than A)":
                                                     st.column_config.NumberColumn(format="%.4f")})
    downloads(ct, f"compare_{level}", key="cmp")

st.subheader("The WMT metrics task's ranking")
st.caption("How WMT24/25 rank metrics (mt-metrics-eval's tasks): system-level SPA over segments and segment-level "
           "acc_eq with item grouping, averaged with equal weights (WMT23: global pairwise accuracy, system and "
           "segment Pearson, acc_eq); metrics ranked into significance clusters by the task's permutation tests "
           "(seeded here). This page ranks the loaded language pair; across several pairs, the command line "
           "(below the table).")
t1, t2, t3 = st.columns([1, 1, 2])
task = t1.selectbox("Task", ["wmt24", "wmt25", "wmt23"], key="corr_task")
draws = t2.selectbox("Draws per test", [1000, 200, 0], key="corr_task_draws",
                     help="At most this many permutation draws per pair of metrics (blocks of 100, stopping early "
                          "below p 0.02 or above 0.5, as mt-metrics-eval); 0: ranked by value only.")
task_blonde = [m for m in ("BlonDe", "BlonD-d") if m in blonde]  # metrics computed elsewhere join by themselves
if t3.toggle("Rank the metrics", key="corr_task_on", help="Seconds for a WMT24 pair (sentence chrF and sentBLEU "
             "are computed for every segment once)."):
    try:
        with st.spinner("Ranking the metrics (permutation tests)..."):
            rk = d.task_ranking(cfg, task, ("chrF", "BLEU"), task_blonde, tuple(exclude), draws)
    except InputError as exc:
        st.error(md_escape(exc.for_page()))
        rk = None
    if rk is not None:
        lp, p = next(iter(rk["pairs"].items()))
        trows = []
        for m in rk["overall"]["values"]:
            row = {"metric": m}
            for stt in ([rk["global"]] if rk.get("global") else []) + p["statistics"]:
                row[stt["label"]] = stt["values"][m]
                row[f"{stt['statistic']} cluster"] = stt["ranks"][m]
            row["average"], row["average cluster"] = rk["overall"]["values"][m], rk["overall"]["ranks"][m]
            trows.append(row)
        tt = pd.DataFrame(trows)
        best = tt[tt["average cluster"] == 1]["metric"].tolist()
        st.markdown(f"**{md_escape(', '.join(best))}** {'is' if len(best) == 1 else 'are'} in the first cluster of "
                    f"{task}'s average on {md_escape(lp or 'the loaded pair')} ({len(p['systems'])} systems; "
                    f"{p['segments_rated']} segments rated, {p['segments_every_system']} for every system; every "
                    f"ranked metric evaluated on all {p['cells_rated']} rated cells).")
        for m_, per_ in rk.get("left_out", {}).items():  # the gold defines the cells: a metric missing one is out
            st.caption(f"**{md_escape(m_)}** is not ranked: " + md_escape("; ".join(v["why"] for v in per_.values()))
                       + " (mt-metrics-eval evaluates every metric on every rated cell and refuses missing scores; "
                         "the correlations above evaluate it on the cells it scores).")
        st.dataframe(styled(tt, precision=4), hide_index=True, placeholder="-")
        downloads(tt, f"task_{task}", latex=True, key="task")
        st.caption("cluster 1 = top; a new cluster starts at the first metric significantly below one of the "
                   f"current cluster (p <= 0.05); draws: at most {draws}, seed {CATALOG.seed}; SPA: 1000 permutations, "
                   "seed 4." + (" Without a pack only sacrebleu's metrics and metrics computed elsewhere take part."
                                if not cfg.has_pack else ""))
        if d0.wmt:  # the same numbers from the command line, and every pair of the folder without --lp
            st.code(f"python -m blonde_core correlate --wmt-dir {d0.wmt[0]} --lp {d0.wmt[1]} --task {task} "
                    f"--draws {draws}" + (f" -r {ref}" if ref != texts[0] else "")
                    + (f" --exclude {' '.join(exclude)}" if exclude else ""), language="bash")
        else:
            st.caption(f"From the command line: the `correlate` command at the bottom of the page with "
                       f"`--task {task} --draws {draws}`.")

with st.expander("Metric-metric correlation (Pearson)"):
    mm = pd.DataFrame(out["matrix"]).reindex(index=all_names, columns=all_names).astype(float)
    names_l = [label(n) for n in all_names]
    fig = go.Figure(go.Heatmap(z=mm.values, x=names_l, y=names_l, zmin=-1, zmax=1, colorscale="RdBu",
                               text=np.round(mm.values, 2), texttemplate="%{text}",
                               hovertemplate="%{y} / %{x}: %{z:.3f}<extra></extra>"))
    fig.update_layout(height=120 + 30 * len(all_names), margin=dict(t=10), yaxis_autorange="reversed")
    st.plotly_chart(fig, width="stretch")
    downloads(mm.reset_index(names="metric"), f"metric_matrix_{level}", key="mm")
if d0.human.errors:
    st.page_link(page("judgments"), label="Slice the MQM by system, document, rater, category and severity, with "
                 "your own weights and significance on the slice: Human judgments", icon=":material/rule:")
# The `correlate` command over the same files - the chosen reference as -r, every other text as -s - and
# the page's settings and metrics; the core's signature says them all.
hs0 = d0.human
# a WMT folder: its human scores come with --wmt-dir (and --gold)
cli = [] if d0.wmt and not d0.human_file else ["--human", *d0.human_file.split(", ")]
cli += ["--lower-is-better"] if not hs0.higher_is_better and hs0.name != "MQM" else []
mapped = [f"{k}={v}" for k, v in (hs0.mapping or {}).items() if v is not None and k != v]
cli += (["--map", *mapped] if mapped else []) + ["--level", level] + \
    (["--grouping", grouping] if level == "document" else []) + (["--exclude", *exclude] if exclude else []) + \
    [f"--{f}" for f in dict.fromkeys(s.flag for s in shown if s.flag)] + \
    (["--compare", a, b] if a != b and not a.startswith("-") and not b.startswith("-") else []) + \
    ["--metrics", ",".join(m.lstrip("-") for m in all_names if not m.startswith("APT"))]
if apt_pair:
    st.caption("APT is not part of the command line's `correlate` (`apt` computes it on its own).")
signature_box(out["signature"], command=("correlate", cli), study=d)
