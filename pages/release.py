"""Release: a whole WMT release at once - systems x language pairs, each pair in its own language pack, with
BlonDe's significance cluster per pair, chrF and the human score, and the across-pair summary (issue 65)."""
import shlex
import time
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from blonde_core.study import DEFAULT_SEED, Study, release_html, release_latex, release_notes, release_rows, time_left
from blonde_core.study import frame_csv, json_text
from studio import release
from studio.compute import Progress
from studio.session import SHARED, config, set_data
from studio.text import md_escape
from studio.widgets import copyable
from studio.state import server_engine

st.title("Release")
rel = release.current()
if rel is None:
    st.markdown("A **release** is several language pairs of one WMT folder loaded together: this page then shows "
                "every system x pair - BlonDe in each pair's own language pack with its significance cluster, chrF, "
                "the human score where judged - and which systems lead across pairs.")
    st.info("Load one on **Data** > *A WMT folder*: give the folder (or its zip) and **all** (or several pairs "
            "separated by commas) as the language pair. The sidebar then switches between the pairs.",
            icon=":material/info:")
    wmt24 = SHARED / "data" / "wmt24"
    if wmt24.is_dir():
        pairs = Study.wmt_pairs(wmt24)
        if st.button(f"Load WMT24 as released ({len(pairs)} pairs: {', '.join(pairs)})", type="primary",
                     icon=":material/table_view:"):
            with st.spinner("Reading the first pair..."):
                release.start(wmt24, pairs, str(wmt24), gold=None, lower=[], esa_common=True, roots=None,
                              engine=server_engine(), set_data=set_data)
            st.rerun()
    st.stop()

cfg = config()
c1, c2, _ = st.columns([1, 1, 2])
n = c1.selectbox("Bootstrap resamples (clusters)", [1000, 200], key="release_n",
                 help="BlonDe's significance clusters in each pair come from the leaderboard's paired bootstrap "
                      "(1,000 resamples as the Overview; 200 is quicker and coarser).")
seed = int(c2.number_input("Seed", 0, 2**31 - 1, DEFAULT_SEED, key="release_seed"))

said = st.empty()
bar = Progress("Annotating (distinct sentences)")
started = time.monotonic()


def pair_step(lp, k, total):
    eta = time_left(k, total, started, 0, time.monotonic()) if k else None
    said.caption(f"Pair {k + 1} of {total}: **{md_escape(lp)}**" + (f" · about {eta} for the rest" if eta else ""))


def work(lp, done, of):
    bar.what = f"{lp}: annotating (distinct sentences)"
    bar(done, of)


try:
    data = release.table(cfg, n, seed, server_engine(), progress=pair_step, work=work)
finally:
    bar.close()
    said.empty()

pairs = list(data["pairs"])
order = data["order"]
systems = data["systems"]
if not order:
    st.warning("No system in any pair of this release.")
    st.stop()

# the answer first: who leads across pairs, counted over the pairs each system entered
lead = systems[order[0]]
no_pack = [lp for lp, p in data["pairs"].items() if p.get("no_pack")]
ranked_pairs = len(pairs) - len(no_pack)
st.markdown(f"**{md_escape(order[0])}** leads across the release: in BlonDe's top significance cluster in "
            f"**{lead['top_cluster']} of the {lead['pairs_ranked']}** pairs it entered that have a language pack "
            + (f"(mean rank {lead['mean_rank']:.2f})" if lead["mean_rank"] is not None else "")
            + f"; {len(order)} systems over {len(pairs)} pairs.")
ties = [s for s in order[1:] if systems[s]["top_cluster"] == lead["top_cluster"]]
if ties:
    st.caption("Also in the top cluster of as many pairs: " + ", ".join(md_escape(s) for s in ties[:6])
               + (" ..." if len(ties) > 6 else "") + " (then ordered by mean rank).")
if no_pack:
    st.warning("No BlonDe number in " + ", ".join(md_escape(lp) for lp in no_pack) + ": "
               + "; ".join(md_escape(data["pairs"][lp]["no_pack"]) for lp in no_pack)
               + ". Those pairs show chrF and the human score and count in no rank.", icon=":material/translate:")
if ranked_pairs == 0:
    st.stop()

show = st.segmented_control("Under each pair", ["BlonDe", "chrF", "human"], default=["BlonDe"],
                            selection_mode="multi", key="release_show",
                            help="Which numbers each pair's columns show; BlonDe's cluster is always there.")
rows = release_rows(data)
table = []
for r in rows:
    row = {"system": r["system"], "pairs": r["pairs"], "mean rank": r["mean rank"], "top cluster": r["top cluster"]}
    for lp in pairs:
        if "BlonDe" in (show or []):
            row[f"{lp} BlonDe"] = r[f"{lp} BlonDe"]
        row[f"{lp} cl."] = r[f"{lp} cluster"]
        if "chrF" in (show or []):
            row[f"{lp} chrF"] = r[f"{lp} chrF"]
        if "human" in (show or []):
            row[f"{lp} human"] = r[f"{lp} human"]
    table.append(row)
df = pd.DataFrame(table)
cols = {"system": st.column_config.TextColumn("system", pinned=True),
        "pairs": st.column_config.NumberColumn("pairs", help="pairs the system entered", format="%d"),
        "mean rank": st.column_config.NumberColumn("mean rank", help="by BlonDe, over the pairs it entered that "
                                                   "have a language pack (1 = best)", format="%.2f"),
        "top cluster": st.column_config.NumberColumn("top cluster", help="pairs where it is in BlonDe's top "
                                                     "significance cluster", format="%d")}
for c in df.columns:
    if c.endswith(" cl."):
        cols[c] = st.column_config.NumberColumn(c, help="BlonDe's significance cluster in this pair (1 = top)",
                                                format="%d")
    elif c.endswith((" BlonDe", " chrF", " human")):
        cols[c] = st.column_config.NumberColumn(c, format="%.2f")
st.dataframe(df, hide_index=True, column_config=cols, width="stretch",
             height=min(38 + 35 * len(df), 640))
st.caption(md_escape(release_notes(data)[0].replace("an empty cell", "None")) + " Click a header to sort.")

# systems x pairs: the rank in each pair (text in every cell: colour is never the only cue)
z, text, hover = [], [], []
for s in order:
    zr, tr, hr = [], [], []
    for lp in pairs:
        r = systems[s]["per_pair"].get(lp)
        if r is None or r.get("rank") is None:
            zr.append(None)
            tr.append("" if r is None else "-")
            hr.append(f"{s} · {lp}: " + ("did not enter" if r is None else "no BlonDe (no pack)"))
            continue
        zr.append(r["rank"] / max(r["of"], 1))
        tr.append(f"{r['rank']} ({r['cluster']})" if r.get("cluster") is not None else str(r["rank"]))
        hr.append(f"{s} · {lp}<br>BlonDe {100 * r['BlonDe']:.2f}, rank {r['rank']} of {r['of']}, cluster "
                  f"{r.get('cluster')}<br>chrF " + (f"{r['chrF']:.2f}" if r.get("chrF") is not None else "-")
                  + (f"<br>human {r['human']:.2f}" if r.get("human") is not None else ""))
    z.append(zr)
    text.append(tr)
    hover.append(hr)
fig = go.Figure(go.Heatmap(z=z, x=pairs, y=order, text=text, texttemplate="%{text}", hovertext=hover,
                           hoverinfo="text", colorscale="Viridis_r", zmin=0, zmax=1, showscale=True,
                           colorbar={"title": "rank / systems", "tickvals": [0, 0.5, 1],
                                     "ticktext": ["best", "middle", "last"]}))
fig.update_layout(title="Rank by BlonDe in each pair (cluster in brackets)", height=max(320, 26 * len(order) + 120),
                  margin={"l": 10, "r": 10, "t": 50, "b": 10}, yaxis={"autorange": "reversed"})
st.plotly_chart(fig, width="stretch", key="release_heat")

st.subheader("Downloads")
flat = pd.DataFrame(rows)
b1, b2, b3, b4, b5 = st.columns(5)
b1.download_button("CSV", lambda: frame_csv(flat), "release.csv", "text/csv", key="release_csv",
                   icon=":material/download:", on_click="ignore")
b2.download_button("JSON", lambda: json_text(data).encode(), "release.json", "application/json", key="release_json",
                   icon=":material/download:", on_click="ignore", help="every number, the notes and each pair's "
                                                                      "signature")
b3.download_button("LaTeX", lambda: release_latex(data).encode(), "release.tex", "text/x-tex", key="release_tex",
                   icon=":material/download:", on_click="ignore")
b4.download_button("HTML report", lambda: release_html(data).encode(), "release.html", "text/html",
                   key="release_html", icon=":material/download:", on_click="ignore")
with st.expander("Each pair's signature, and the command line"):
    for line in release_notes(data)[1:]:
        copyable(line)
    src = rel["source"]
    if isinstance(src, Path):
        args = cfg.cli_args()
        drop = {"--lang", "-lc"}  # each pair in its own language pack, with that pack's case
        keep = [a for i, a in enumerate(args) if a not in drop and (i == 0 or args[i - 1] not in drop)]
        cmd = ["python", "-m", "blonde_core", "score", "--wmt-dir", str(src), "--lp", *pairs, "--ci", str(n),
               "--seed", str(seed)] + (["--gold", rel["gold"]] if rel["gold"] else []) + keep + ["--format", "json"]
        copyable(" ".join(shlex.quote(x) for x in cmd))
    else:
        st.caption("The release came from an uploaded zip: give its folder as --wmt-dir.")
