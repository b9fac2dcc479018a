"""Whether the loaded human judgments agree with BlonDe's answer (issue 60): the leader BlonDe names, where
the humans rank it, the humans' own leader, and BlonDe's (and chrF's) system-level Pearson with the humans
and its interval - one verdict and one sentence, which Home, the Overview and `score --human` put before the
leaderboard when the humans disagree.

The rule (stated in docs/meta-evaluation.md#does-the-answer-agree-with-the-humans):
- *disagree*: BlonDe's Pearson with the humans is not above 0, or the humans rank BlonDe's leader in their
  lower half;
- *agree*: the humans put BlonDe's leader first, or in their top quarter while the lower end of BlonDe's
  Pearson interval is above 0;
- *partly*: anything between; *too few*: under three systems rated by humans and scored by BlonDe (no
  correlation is computed over fewer)."""
from __future__ import annotations

import math

MIN_SYSTEMS = 3


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st ..."""
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def _pearson(corr: dict | None, key: str) -> dict | None:
    m = (corr or {}).get("metrics", {}).get(key)
    if not m or m.get("pearson") is None or (isinstance(m["pearson"], float) and math.isnan(m["pearson"])):
        return None
    lo, hi = (m.get("pearson_ci") or [None, None])[:2]
    return {"r": float(m["pearson"]), "ci": [lo, hi], "kendall": m.get("kendall"), "n": m.get("n")}


def human_verdict(order: list[str], human: dict, corr: dict | None, metric: str = "BlonDe",
                  other: str = "chrF") -> dict:
    """order: the systems by the metric, best first; human: Study.human_column's block (score, rank per
    system); corr: Study.correlate's system-level output over the same systems (None: too few to correlate).
    Returns {state, leader, leader_rank, human_leader, human_leader_rank_by_metric, rated, human, pearson,
    other, sentence, headline}; state one of agree / partly / disagree / too few."""
    rows = human["systems"]
    rated = [s for s in order if rows.get(s, {}).get("rank") is not None]
    n = len(rated)
    leader = order[0] if order else None
    lr = rows.get(leader, {}).get("rank") if leader else None
    h_leader = min(rated, key=lambda s: rows[s]["rank"]) if rated else None
    h_by_metric = order.index(h_leader) + 1 if h_leader else None
    out = {"metric": metric, "human": human["name"], "rated": n, "leader": leader, "leader_rank": lr,
           "human_leader": h_leader, "human_leader_rank_by_metric": h_by_metric,
           "pearson": None, "other": None, "other_name": other}
    if n < MIN_SYSTEMS or leader is None:
        out["state"] = "too few"
        out["headline"] = "Too few systems rated by humans to weigh them"
        out["sentence"] = (f"The human judgments ({human['name']}) rate {n} of the {len(order)} systems scored: "
                           f"too few to say whether they agree (at least {MIN_SYSTEMS} are needed).")
        return out
    p, q = _pearson(corr, metric), _pearson(corr, other)
    out["pearson"], out["other"] = p, q
    r = p["r"] if p else None
    lo = p["ci"][0] if p else None
    if (r is not None and r <= 0) or (lr is not None and lr > n / 2):
        state = "disagree"
    elif lr == 1 or (lr is not None and lr <= math.ceil(n / 4) and lo is not None and lo > 0):
        state = "agree"
    else:
        state = "partly"
    out["state"] = state
    out["headline"] = {"agree": "The human judgments agree", "partly": "The human judgments agree only in part",
                       "disagree": "The human judgments disagree"}[state]

    def corr_text(x: dict | None) -> str:
        if x is None:
            return "not computable"
        ci = "" if x["ci"][0] is None else f" [95% {x['ci'][0]:.2f}, {x['ci'][1]:.2f}]"
        return f"{x['r']:.2f}{ci}"

    if lr is None:
        where = f"the humans did not rate {leader}, {metric}'s leader"
    elif lr == 1:
        where = f"the humans also put {leader} first of {n} rated systems"
    else:
        where = (f"the humans rank {leader}, {metric}'s leader, {ordinal(lr)} of {n} and put {h_leader} first "
                 f"({metric} ranks it {ordinal(h_by_metric)})")
    out["sentence"] = (f"{out['headline']} ({human['name']}): {where}; {metric}'s system-level Pearson with them "
                       f"is {corr_text(p)}, {other}'s {corr_text(q)}.")
    return out
