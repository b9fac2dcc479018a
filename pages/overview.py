"""Overview: the leaderboard of the bundled sample data (the full dashboard is issue #5)."""
import html
from pathlib import Path

import pandas as pd
import streamlit as st

from blonde_core.config import ScoreConfig
from blonde_core.metric import BlonDe
from blonde_core.readers import plain_corpus

SAMPLE = Path(__file__).resolve().parent.parent / "sample_data"
SYSTEMS = ["consistent", "names", "tense", "pronouns", "markers"]


@st.cache_data(show_spinner=False)
def sample_scores(lowercase: bool) -> tuple[pd.DataFrame, str]:
    corpus = plain_corpus([SAMPLE / "reference.txt"], [SAMPLE / f"{s}.txt" for s in SYSTEMS],
                          docids=SAMPLE / "docids.txt")
    ann = (SAMPLE / "blonde_plus_annotation.txt").read_text(encoding="utf-8").splitlines()
    res = BlonDe(ScoreConfig(lowercase=lowercase)).evaluate(corpus, annotation=ann)
    rows = []
    for name in res.names:
        s = res.scores(name)
        row = {"system": name}
        for key in ("BlonDe", "BlonD-d", "BlonD+"):
            for m in ("F1", "R", "P"):
                row[f"{key} {m}"] = s[key][m]
        for cat, v in s["categories"].items():
            row[f"{cat} F1"] = v["F1"]
        rows.append(row)
    return pd.DataFrame(rows), res.signature


st.title("BlonDe Studio")
st.caption("Document-level MT evaluation: named entities, tense, gendered pronouns and discourse markers.")
lc = st.sidebar.toggle("Lowercase before annotation", value=True,
                       help="The blonde package's command line lowercases by default.")
with st.spinner("Scoring the sample data..."):
    df, signature = sample_scores(lc)
st.subheader("Sample data leaderboard")
st.dataframe(df.sort_values("BlonDe F1", ascending=False), hide_index=True,
             column_config={c: st.column_config.NumberColumn(format="%.4f") for c in df.columns if c != "system"})
st.download_button("Download CSV", df.to_csv(index=False), file_name="blonde_leaderboard.csv", mime="text/csv")
st.code(signature, language=None)
st.caption(html.escape("Each system of the sample differs from the reference in one phenomenon; "
                       "see sample_data/README.md."))
