"""A whole WMT release at once (issue 65): systems x language pairs, as WMT's findings lay results out - each
pair's BlonDe (in the pair's own language pack), chrF, the human score where judged and the significance
cluster of BlonDe there - and an across-pair summary of each system over the pairs it entered.

The summary (WMT's findings rank systems per pair, by human clusters, and give no single ranking across pairs,
so the tool counts what it can say plainly): the pairs a system entered, its mean rank by BlonDe over those
of them with a language pack, and in how many of them it is in BlonDe's top significance cluster. A pair
without a pack has chrF and the human score but no BlonDe rank; it is said, never counted as a rank."""
from __future__ import annotations

SUMMARY_RULE = ("over the pairs a system entered: the mean of its rank by BlonDe (1 = best) in the pairs with a "
                "language pack, and the number of those pairs where it is in BlonDe's top significance cluster")


def release_table(pairs: dict) -> dict:
    """pairs: {lp: {"lang", "no_pack" (the sentence, or None), "signature", "systems": {system: {"BlonDe",
    "cluster", "chrF", "human", "human_rank"}}}} in the order to show them. Returns {"pairs", "systems":
    {system: {"pairs_entered", "pairs_ranked", "mean_rank", "top_cluster", "per_pair": {lp: {... "rank"}}}},
    "summary_rule", "order"} - systems ordered by pairs in the top cluster, then mean rank, then name."""
    per: dict = {}
    for lp, p in pairs.items():
        scored = [s for s, v in p["systems"].items() if v.get("BlonDe") is not None]
        ranked = sorted(scored, key=lambda s: -p["systems"][s]["BlonDe"])
        for s, v in p["systems"].items():
            row = dict(v, rank=ranked.index(s) + 1 if s in scored else None, of=len(ranked))
            per.setdefault(s, {})[lp] = row
    systems = {}
    for s, by in per.items():
        ranks = [v["rank"] for v in by.values() if v["rank"] is not None]
        systems[s] = {"pairs_entered": len(by), "pairs_ranked": len(ranks),
                      "mean_rank": sum(ranks) / len(ranks) if ranks else None,
                      "top_cluster": sum(1 for v in by.values() if v.get("cluster") == 1),
                      "per_pair": by}
    order = sorted(systems, key=lambda s: (-systems[s]["top_cluster"],
                                           systems[s]["mean_rank"] if systems[s]["mean_rank"] is not None else 1e9,
                                           s.lower()))
    return {"pairs": {lp: {k: v for k, v in p.items() if k != "systems"} for lp, p in pairs.items()},
            "systems": {s: systems[s] for s in order}, "order": order, "summary_rule": SUMMARY_RULE}
