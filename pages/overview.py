"""Overview: the leaderboard with confidence intervals and significance clusters."""
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from blonde_core.render import SHORT
from blonde_core.study import CATALOG
from blonde_core.study import frame_csv, latex_table, round_as_shown
from blonde_core.study import shown_digits as digits_of
from studio.compute import apt_scores, companions, leader_sentence, standard
from studio.gate import domain_caption, start_page
from studio.navigation import open_documents
from studio.plots import PATTERNS
from studio.session import config, data, scoped
from studio.tables import downloads, styled, system_column
from studio.text import first_clause, label, md_escape
from studio.widgets import (TAG_MARK, copyable, human_verdict_box, note_line, signature_box, tagging_marked,
                            tagging_note, thin_evidence)


def texts_only_board(d, cfg) -> None:
    """The Overview of a target language without a pack: the sentence that says so at the top, then what
    needs no pack (chrF and BLEU tokenized for the language, TER on request, metrics computed elsewhere, the
    human column), with 95% intervals over documents; no BlonDe number anywhere."""
    st.title("Overview")
    domain_caption(d)
    st.error(md_escape(d.no_pack(cfg)) + ".", icon=":material/translate:")
    c1, c2 = st.columns([1, 3])
    n_boot = c1.select_slider("Bootstrap resamples", [200, 500, 1000, 2000], value=1000)
    with_ter = c2.toggle("Compute TER", value=False, key="with_ter_nopack",
                         help="sacrebleu's TER takes minutes on thousands of long segments.")
    metrics = ("chrF", "BLEU") + (("TER",) if with_ter else ())
    standard(d, cfg, metrics)
    iv = d.standard_intervals(cfg.granularity, metrics, n_boot)
    hum = d.human_column(d.systems)
    ext = d.external_scores(d.systems, beside=metrics)
    rows = []
    for name in d.systems:
        row = {"system": name}
        if hum:
            h = hum["systems"][name]
            row[f"human ({hum['name']})"] = np.nan if h["score"] is None else h["score"]
            row["human rated segments"] = h["segments"]
        for m in metrics:
            v = iv[m][name]
            row[m] = np.nan if v["score"] is None else v["score"]
            row[f"{m} 95% CI"] = "-" if v["ci"][0] is None else f"[{v['ci'][0]:.2f}, {v['ci'][1]:.2f}]"
        for m in (ext or {}).get("metrics", {}):
            x = ext["systems"][name].get(m)
            row[m] = np.nan if x is None else x
        rows.append(row)
    rank = f"human ({hum['name']})" if hum else "chrF"
    df = pd.DataFrame(rows).sort_values(rank, ascending=False)
    st.dataframe(styled(df), hide_index=True, placeholder="-", column_config={"system": system_column()})
    st.caption(f"Ranked by {'the human score' if hum else 'chrF'}; intervals: {n_boot} bootstrap resamples over "
               f"documents (seed {CATALOG.seed}). No significance clusters here: they follow BlonDe's ranking.")
    downloads(df, "leaderboard_texts_only", latex=True)
    fig = go.Figure(go.Bar(x=df["system"], y=df["chrF"], name="chrF", marker_pattern_shape="/"))
    fig.update_layout(height=320, margin=dict(l=10, r=10, t=30, b=10), yaxis_title="chrF (0-100)",
                      title="chrF per system")
    st.plotly_chart(fig, use_container_width=True)
    st.caption("sacrebleu signatures (the tokenizer follows the target language):")
    for m in metrics:
        copyable(d.standards(cfg.granularity, [m]).signatures[m])
    signature_box(d.signature(cfg), command=("score", ["--metrics", ",".join(metrics)]))


_d0, _cfg0 = scoped(data()), config()
if _d0 is not None and not _cfg0.has_pack:
    texts_only_board(_d0, _cfg0)
    st.stop()

d, cfg, res = start_page("Overview", "the leaderboard")

# the controls in one row, so that the leaderboard's first rows are in view at 1280x800 (issue 50)
c1, c2, c3, c4 = st.columns([1.2, 1.3, 1, 1])
n_boot = c1.select_slider("Bootstrap resamples", [200, 500, 1000, 2000], value=1000)
with_ter = c4.toggle("Compute TER", value="TER" in d.default_standard_metrics()
                     or d.standard_ready(cfg.granularity, "TER"), key="with_ter",
                     help="sacrebleu's TER takes minutes on thousands of long segments; "
                          "it is computed last, after BlonDe, BLEU and chrF are shown. Switch it off to skip it."
                          + (f" Off by default here: {d.ter_left_out()}." if d.ter_left_out() else ""))
tops = res.leaderboard_tops()
marked = tagging_marked(cfg)  # categories whose tagging in this language is below the bar: headers carry †
# intervals and clusters under the one significance policy (the Significance page's defaults), computed by
# the core's leaderboard function that `score --ci` runs too
with st.spinner("Bootstrapping confidence intervals and testing every pair of systems..."):
    b = d.board(cfg, n_boot)
ci, clusters = b["intervals"], b["clusters"]
# the answer first: the leader against the runner-up, from the same cached test that makes the clusters
_, _said = leader_sentence(d, cfg, res, b, n_boot)
human_verdict_box(d, cfg, n_boot)  # whether the loaded human judgments agree with that leader
if _said:
    st.markdown(_said + " Every pair: **Significance**.")
# the core's one leaderboard (the report and score --ci render it too): the BlonDe family with intervals and
# clusters, the categories, the human column, the segments re-segmented systems left out, and the metrics
# computed elsewhere (COMET, MetricX, a WMT folder's metric-scores) with intervals over the same unit and their
# own clusters under the same policy; sacrebleu's and the companion metrics join it below as they finish
if d.external:
    with st.spinner("Intervals and clusters of the metrics computed elsewhere..."):
        lb = d.leaderboard(cfg, n_boot)
else:
    lb = d.leaderboard(cfg, n_boot)
ext, hum, moved = lb.external, lb.human, lb.resegmented
HUMAN = f"human ({hum['name']})" if hum else None


def ext_digits(m: str) -> int:
    """Decimals for a metric computed elsewhere: 3 on a 0-1 scale (COMET), 2 on a 0-100 one."""
    return lb.column(m).digits


def ext_col(df: pd.DataFrame, m: str) -> str:
    """The table's column of a metric computed elsewhere: its name, or "chrF (computed elsewhere)" once sacrebleu's
    chrF has joined the table beside a file's chrF (the core keeps the two apart)."""
    apart = f"{m} (computed elsewhere)"
    return apart if apart in df else m


RANKS = ["BlonDe"] + (["humans"] if hum else []) + list(ext)
rank_by = c2.segmented_control("Rank by", RANKS, default="BlonDe", key="rank_by",
                               help="The order of the rows and of the chart's bars: BlonDe F1, the human score "
                                    "(when judgments are loaded) or a metric computed elsewhere. The cluster column "
                                    "stays BlonDe's; each other metric has its own cluster column.") or "BlonDe"


def frame(rows: list[dict]) -> pd.DataFrame:
    if rank_by == "humans":
        col, up = HUMAN, not hum["direction"].startswith("higher")
    elif rank_by in ext:
        col, up = ext_col(pd.DataFrame(rows[:1]), rank_by), not ext[rank_by]["direction"].startswith("higher")
    else:
        col, up = "BlonDe F1", False
    df = pd.DataFrame(rows).sort_values(col, ascending=up, na_position="last", kind="stable").reset_index(drop=True)
    df.insert(1, "cluster", [clusters[s] for s in df["system"]])
    df.insert(0, "rank", np.arange(1, len(df) + 1))
    return df


st.session_state.setdefault("board_kind", "compact")
layout_kind = c3.segmented_control("Leaderboard", ["compact", "full"], key="board_kind",
                                   help="Compact: BlonDe F1 with its interval in one cell, BlonD-d, F1 per "
                                        "discourse category and BLEU; full: every column with intervals, chrF, TER "
                                        "and the companion metrics (what the downloads hold).") or "compact"


def compact(df: pd.DataFrame) -> pd.DataFrame:
    out = df[["system", "cluster"]].copy()  # rows in rank order; the full table has the rank column

    marks = df["CI mark"] if "CI mark" in df else [""] * len(df)  # ‡: categories vanish in resamples

    def with_ci(m, col):
        return [("-" if np.isnan(v) else f"{v:.2f}") + ("" if np.isnan(lo) else f" [{lo:.1f}, {hi:.1f}]")
                + (f" {k}" if k else "") for v, lo, hi, k in zip(df[col], df[f"{m} CI low"], df[f"{m} CI high"], marks)]
    out["BlonDe [95% CI]"] = with_ci("BlonDe", "BlonDe F1")
    for t in tops[1:]:
        out[t] = df[f"{t} F1"]
    # the metrics computed elsewhere and the human score next to BlonDe (what a researcher compares first),
    # the discourse categories and BLEU after them
    for m in ext:  # the value (intervals and clusters: the full table); system-level-only ones marked
        out[m if ext[m]["unit"] else f"{m} (sys)"] = df[ext_col(df, m)].round(ext_digits(m))
    if hum:  # the rated segments: the full table (the column's help says so)
        out["human"] = df[HUMAN]
    if "omitted" in df:
        out["omitted"] = df["omitted"]
    for c in res.discourse_categories():
        out[SHORT[c] + (TAG_MARK if c in marked else "")] = df[f"{SHORT[c]} F1"]
    if "BLEU" in df:
        out["BLEU"] = df["BLEU"]
    return out


def show(df: pd.DataFrame, status: str, final: bool = False) -> None:
    view = compact(df) if layout_kind == "compact" else df.rename(columns={
        col: SHORT[c] + TAG_MARK + col[len(SHORT[c]):] for col in df.columns for c in marked
        if col.startswith(SHORT[c] + " ")})
    # the compact table whole at 1280 px (no sideways scrolling): numbers in 66 px, the system's name in 125
    small = 66 if layout_kind == "compact" else None
    fmt = {c: st.column_config.NumberColumn(format="%.2f", width=small) for c in view.columns
           if c not in ("system", "rank", "cluster") and view[c].dtype.kind == "f"}
    fmt["system"] = system_column(**({"width": 125} if small else {}))
    fmt["rank"] = st.column_config.NumberColumn(help="Rank by BlonDe F1: sort by this column to sort by BlonDe.",
                                                width=small)
    fmt["cluster"] = st.column_config.NumberColumn(help="Systems of one cluster are not significantly different "
                                                        "from the cluster's best.", width=58 if small else None)
    if hum and "human" in view:
        fmt["human"] = st.column_config.NumberColumn(
            format="%.3f", width=small, help=f"{hum['name']} ({hum['direction']}), system level as the judgments "
                                             "define it (the full table gives the segments rated). Rank by: humans "
                                             "orders by it.")
        fmt["rated"] = st.column_config.NumberColumn(width=small, help="segments with a human score")
    if "omitted" in view:
        fmt["omitted"] = st.column_config.NumberColumn(
            width=small, help="Reference segments the re-segmented system left out (received nothing, or under a "
                              "fifth of their words); the Documents page lists them")
    for m in ext:  # the compact table names it as it is; the full one apart from a sacrebleu metric of its name
        c = m if layout_kind == "compact" else ext_col(view, m)
        if c in view:
            fmt[c] = st.column_config.NumberColumn(format=f"%.{ext_digits(m)}f", width=small,
                                                   help=f"{m}: computed elsewhere ({ext[m]['direction']}); its 95% "
                                                        "interval and its own cluster in the full table")
    if final:  # a row opens the system's weakest document on the Documents page
        ev = st.dataframe(view.style.format(na_rep="-", precision=2), hide_index=True, placeholder="-",
                          column_config=fmt, width="stretch", on_select="rerun", selection_mode="single-row",
                          key="board_rows",
                          height=min(38 + 35 * len(view), 800))  # every row visible up to about 20 systems
        if ev and ev.selection.rows:
            name = view["system"].iloc[ev.selection.rows[0]]
            per = res.doc_scores(name)
            worst = min(per, key=lambda k: -1 if per[k]["BlonD-d"]["F1"] is None else per[k]["BlonD-d"]["F1"])
            open_documents(doc=worst, systems=[name], only=[], origin="overview")
    else:
        st.dataframe(view.style.format(na_rep="-", precision=2), hide_index=True, placeholder="-", column_config=fmt,
                     width="stretch", height=min(38 + 35 * len(view), 800))
    st.caption(status + (" · Select a row to open the system's weakest document (lowest BlonD-d) on the Documents "
                         "page. - : no value (the category or metric is absent)." if final else ""))


rows = lb.records()


def _lower(metrics) -> list:
    return [m for m in metrics if not CATALOG.higher_is_better(m)]


def _listed(metrics) -> str:
    """ "BLEU, chrF and TER": the registry's names of a metric family, as a sentence lists them."""
    return ", ".join(metrics[:-1]) + " and " + metrics[-1] if len(metrics) > 1 else "".join(metrics)


# the first answer first: BlonDe-family scores now, sacrebleu's metrics as they finish (TER last); how to read
# the table, and what weakens it (one line each, the detail a click away), under it
board = st.empty()
if b.get("marked"):  # the one line under the table: why rows carry ‡ and which interval they show
    st.caption(md_escape(b["mark_line"]))
st.caption(f"BlonDe, BlonD-d, BlonD+ in points (F1 x 100) with 95% bootstrap intervals over {b['n_units']} units "
           f"({md_escape(b['unit_reason'])}); {_listed(CATALOG.sacrebleu)} from sacrebleu "
           f"({_listed(_lower(CATALOG.sacrebleu))}: lower is better; intervals over documents; "
           f"{_listed([m for m in CATALOG.standard if m not in CATALOG.sacrebleu])} in the full table: whole "
           "documents as units). The seed papers' companion metrics follow on the 0-100 scale, arrows giving their "
           f"direction (↓ lower is better: {', '.join(_lower(CATALOG.companions))}). "
           "Systems in the same **cluster** are not significantly different from the cluster's best "
           f"({b['cluster_rule']}; the Significance page's default). "
           "Click a column header to sort.")
if ext or hum:
    st.caption(("Metrics computed elsewhere (" + md_escape(", ".join(ext)) + ") on their own scales: in the full table "
                "with 95% intervals over the same units and each metric's own clusters under the same policy"
                + ("; system-level-only metrics marked (sys), without interval or cluster" if any(
                    not e["unit"] for e in ext.values()) else "") + ". " if ext else "")
               + (f"**human**: {md_escape(hum['name'])} ({hum['direction']}) at system level as the judgments "
                  "define it, **rated**: the segments with a human score; *Rank by humans* orders the rows by it."
                  if hum else ""))
if moved:
    st.caption(f"Re-segmented ({md_escape(d.seg_method)}): {md_escape(', '.join(moved))} did not keep the reference's "
               "segments and were cut into them by mwerSegmenter's alignment; **omitted**: the reference segments "
               "each left out. Their sentences are marked on the Documents page, their own text one click away.")
thin_evidence(res, cfg, "this is why the lower ends of the intervals sit far below the scores")
tagging_note(cfg)
if d.reference_gist():  # the reference checked like a system (issue 63): its problems under the numbers they shape
    note_line("Reference: " + md_escape(d.reference_gist()), "\n\n".join(md_escape(m[0].upper() + m[1:]) + "."
                                                                 for m in d.reference_warnings().values()))
if b["warning"] or b["note"]:  # its first clause on the line ("only 10 units"), the whole text when opened
    _why = b["warning"] or b["note"]
    note_line("Clusters and intervals: " + md_escape(first_clause(_why)), md_escape(_why[0].upper() + _why[1:]) + ".")
# d-BLEU and d-chrF: sacrebleu over whole documents (each document one unit), as document-level MT papers report
# them, whatever the matching (the full table and the downloads; issue 47)
std_metrics = [m for m in CATALOG.standard if m != "TER"] + (["TER"] if with_ter else [])  # the registry's


def status(done: int) -> str:
    parts = ["Shown: BlonDe family"] + [f"{m} ✓" for m in std_metrics[:done]]
    if done < len(std_metrics):
        parts.append(f"computing {', '.join(std_metrics[done:])} ...")
    elif not with_ter:
        parts.append("TER skipped (switch it on above)")
    return " · ".join(parts)


with board.container():
    show(frame(rows), status(0))
# BLEU and chrF in one step, then TER; each metric's intervals computed once. After the last
# step the final table follows at once (the companion metrics: 0.06-0.2 s on TED), so it is not
# drawn in between - unless APT (eflomal, slow) comes first. Each drawing of the table is
# browser CPU for every user: three drawings now where there were five.
steps = [[m for m in std_metrics if m != "TER"]] + ([["TER"]] if with_ter else [])
done = []
for k, step in enumerate(steps):
    done += step
    std = standard(d, cfg, done)
    rows = d.leaderboard(cfg, n_boot, std_metrics=done).records()  # over documents, the BlonDe intervals' seed
    if k < len(steps) - 1 or st.session_state.get("with_apt"):
        with board.container():
            show(frame(rows), status(len(done)))
companions(d, cfg, res)  # computed here with the page's spinner; the leaderboard takes them from the cache
pair = d.guess_pair()
with_apt = bool(pair) and c4.toggle(
    f"Add APT ({pair})", key="with_apt",
    help="Accuracy of pronoun translation. Word alignments come from eflomal, which reads the texts from temporary "
         "files it deletes afterwards. eflomal seeds itself from the system (it takes no seed), so APT can move "
         "slightly from run to run; for exact, repeatable APT give alignment files to the command line's apt "
         "--align-ref/--align-system.")
if with_apt:
    apt_scores(d, pair)
lb = d.leaderboard(cfg, n_boot, std_metrics=done, companions=True, apt_pair=pair if with_apt else None)
df = frame(lb.records())
with board.container():
    show(df, status(len(std_metrics)) + " · companion metrics ✓", final=True)


def shown_digits(col: str) -> int:
    """Decimals as the page shows a column: 3 on a 0-1 scale (COMET-like, MQM), else 2; counts whole."""
    if col in ("rank", "cluster", "human rank", "human rated segments") or col.endswith(" cluster"):
        return 0
    return digits_of(pd.to_numeric(df[col], errors="coerce").tolist())


# exports: every column of the full table (per-category F1 and span counts included); CSV rounded as shown,
# JSON at full precision, LaTeX with the columns chosen, the HTML report of everything
records = df.to_dict("records")
digits = {c: shown_digits(c) for c in df.columns if df[c].dtype.kind in "if"}
e1, e2, e3, e4 = st.columns(4)
e1.download_button("CSV", frame_csv(pd.DataFrame(round_as_shown(records, digits))),
                   "leaderboard.csv", "text/csv", key="csv_leaderboard", icon=":material/download:",
                   help="Every column of the full table, rounded as shown.")
e2.download_button("JSON", df.to_json(orient="records", force_ascii=False, indent=1, double_precision=15).encode(),
                   "leaderboard.json", "application/json", key="json_leaderboard", icon=":material/download:",
                   help="Every column of the full table at full precision.")
with e3.popover("LaTeX", icon=":material/download:"):
    score_cols = [c for c in df.columns if df[c].dtype.kind == "f" and not c.endswith((" CI low", " CI high"))
                  and not c.endswith(" cluster") and c not in ("human rank",)]
    default = [c for c in ["BlonDe F1", "BlonD-d F1", *[f"{SHORT[x]} F1" for x in res.discourse_categories()],
                           "BLEU", *ext, *([HUMAN] if hum else [])] if c in score_cols]
    chosen = st.multiselect("Columns", score_cols, default=default, key="tex_cols")
    style = st.radio("Intervals", ["[lo, hi]", "+a / -b", "none"], horizontal=True, key="tex_style",
                     help="Bootstrap intervals are asymmetric: [lo, hi] or the distances up and down "
                          "(value^{+a}_{-b}); never a symmetric ± that would misstate one bound.")
    ups = {c: lb.column(c).higher_is_better for c in chosen}  # the core table's column directions
    tex = latex_table(records, ["system", "cluster", *chosen],
                        intervals={c: (f"{c.replace(' F1', '')} CI low", f"{c.replace(' F1', '')} CI high")
                                   for c in chosen if f"{c.replace(' F1', '')} CI low" in df},
                        style={"+a / -b": "asym", "[lo, hi]": "brackets"}.get(style, "none"), higher=ups,
                        digits=digits, cluster="cluster",
                        caption=f"Systems ranked by {rank_by}; best per column in bold; clusters (BlonDe's, "
                                f"{b['cluster_rule']}) separated by rules; 95% bootstrap intervals over "
                                f"{b['n_units']} units."
                                + (f" Tagging below the bar in {cfg.lang} (precision 0.90, recall 0.80, 30 gold "
                                   "spans; docs/languages.md): " + "; ".join(
                                       f"{c} {v}" for c, v in marked.items()) + "."
                                   if marked else ""))
    st.download_button("Download leaderboard.tex", tex.encode("ascii"), "leaderboard.tex", "text/x-tex",
                       key="tex_leaderboard", icon=":material/download:")
e4.download_button("HTML report", lambda: d.report_html(cfg, n_boot).encode("utf-8"), "blonde-report.html",
                   "text/html", key="html_report", icon=":material/description:", on_click="ignore",
                   help="One self-contained file (no request leaves it when opened offline): leaderboard with "
                        "intervals and clusters, category heatmap, significance matrix, correlation with humans, "
                        "the documents where the top two systems differ most, the signature. The command line's "
                        "report command makes the same file.")
# under the table whose clusters it qualifies (the table stays where the first answer is expected)
if b.get("absent_warning"):
    note_line("Clusters: " + md_escape(first_clause(b["absent_warning"])),
              md_escape(b["absent_warning"]) + ". The Significance page gives the same test with absent categories "
              "left out of the mean beside it; the setting *Leave absent categories out of the mean* (More settings) "
              "scores that way everywhere.")

ext_shown = {ext_col(df, m): m for m in ext}  # the table's name of each metric computed elsewhere -> its own
metric = st.segmented_control("Chart", tops + std.metrics + list(ext_shown) + ([HUMAN] if hum else []),
                              default="BlonDe")
metric = metric or "BlonDe"
col = f"{metric} F1" if metric in tops else metric
if metric in ext_shown:
    higher, unit = ext[ext_shown[metric]]["direction"].startswith("higher"), "its own scale"
elif metric == HUMAN:
    higher, unit = hum["direction"].startswith("higher"), f"{hum['name']}, system level"
else:
    higher = CATALOG.higher_is_better(metric)
    unit = "points, F1 x 100" if metric in tops else "sacrebleu, 0-100" if metric in std.metrics else "0-100"
ccol = f"{metric} cluster" if metric in ext_shown and ext[ext_shown[metric]]["clusters"] else "cluster"
order = df.sort_values(col, ascending=not higher, na_position="last", kind="stable")
OKABE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
fig = go.Figure()
has_ci = f"{metric} CI high" in order
for k in sorted(order[ccol].dropna().unique()):  # one trace per cluster: a legend, a colour and a pattern each
    k = int(k)
    sub = order[order[ccol] == k]
    fig.add_bar(x=[label(x) for x in sub["system"]], y=sub[col], name=f"cluster {k}",
                error_y=dict(type="data", symmetric=False, array=sub[f"{metric} CI high"] - sub[col],
                             arrayminus=sub[col] - sub[f"{metric} CI low"]) if has_ci else None,
                marker=dict(color=OKABE[(k - 1) % len(OKABE)], pattern_shape=PATTERNS[(k - 1) % len(PATTERNS)]),
                text=[f"c{k}"] * len(sub), textposition="inside", insidetextanchor="start",  # at the foot of the bar,
                hovertemplate="%{x}: %{y:.3f}<extra>cluster " + str(k) + "</extra>")  # clear of the error bar
which = "BlonDe's clusters" if ccol == "cluster" else f"{metric}'s own clusters"
fig.update_layout(
    title=dict(text=label(f"{metric} by system, {which}" + (", 95% bootstrap intervals" if has_ci else "")),
               x=0, xanchor="left", font=dict(size=15)),
    yaxis_title=label(f"{metric} ({unit}; {'higher' if higher else 'lower'} is better)"), height=460,
    margin=dict(t=90, b=10, l=70, r=20), xaxis_tickangle=-35, legend_title_text=label(which),
    legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="right", x=1), showlegend=True,
    xaxis=dict(categoryorder="array", categoryarray=[label(x) for x in order["system"]], automargin=True),
    yaxis=dict(automargin=True))
# the PNG export (the camera icon): the title, axis and legend as shown, at twice the resolution, wide
# enough that no system name is cut
st.plotly_chart(fig, width="stretch", config={"toImageButtonOptions": {
    "format": "png", "filename": f"leaderboard-{metric}", "scale": 2, "width": 1200, "height": 560}})
if d.human is None:
    st.caption("Upload human judgments on the Data page to see metric-human correlation.")
# the command: every column of the full table (BlonDe family, sacrebleu, companion metrics), intervals, clusters
signature_box(b["signature"], command=("score", ["--metrics", ",".join(std_metrics + list(CATALOG.companions)),
                                                 "--ci", str(n_boot)]))
if st.session_state.get("with_apt"):
    st.caption("APT is not part of this command: the `apt` command gives it (with alignment files for repeatable "
               "numbers).")
with st.expander("sacrebleu signatures"):
    for m, s in std.signatures.items():
        copyable(s)
