"""Agreement between raters: Cohen's kappa (unweighted, linear, quadratic)."""
from __future__ import annotations

import numpy as np

from blonde_core.errors import InputError


def cohen_kappa(a, b, weights: str | None = None) -> float:
    """Cohen's kappa between two raters; weights None, 'linear' or 'quadratic'."""
    a = list(a)
    b = list(b)
    if len(a) != len(b) or not a:
        raise InputError("kappa needs two equally long, non-empty rating lists", code=InputError.Codes.TOO_LITTLE)
    cats = sorted(set(a) | set(b))
    idx = {c: i for i, c in enumerate(cats)}
    k = len(cats)
    obs = np.zeros((k, k))
    for x, y in zip(a, b):
        obs[idx[x], idx[y]] += 1
    obs /= obs.sum()
    exp = np.outer(obs.sum(1), obs.sum(0))
    i, j = np.indices((k, k))
    if weights is None:
        w = (i != j).astype(float)
    elif weights == "linear":
        w = np.abs(i - j) / max(k - 1, 1)
    elif weights == "quadratic":
        w = ((i - j) / max(k - 1, 1)) ** 2
    else:
        raise InputError("kappa weights must be none, linear or quadratic", code=InputError.Codes.SETTING)
    denom = (w * exp).sum()
    if denom == 0:
        return 1.0
    return float(1 - (w * obs).sum() / denom)


def rater_agreement(human) -> list[dict]:
    """Cohen's kappa (unweighted, linear, quadratic) for every pair of raters of these
    judgments (io/judgments.py HumanScores) over the segments both rated, on penalties
    binned as 0 / <=1 / <=5 / >5."""
    out = []
    for (a, b), (x, y) in human.rater_bands().items():
        if len(x) >= 2:
            out.append({"a": a, "b": b, "segments": len(x), "kappa": cohen_kappa(x, y),
                        "kappa_linear": cohen_kappa(x, y, "linear"),
                        "kappa_quadratic": cohen_kappa(x, y, "quadratic")})
    return out


def judgments_summary(human) -> dict:
    """The judgments' scores (HumanScores.to_dict) with the raters' agreement when there are raters."""
    out = human.to_dict()
    if human.rater_scores:
        out["rater_agreement"] = rater_agreement(human)
        if not out["rater_agreement"]:
            out["rater_agreement_note"] = "every segment has a single rater: no agreement to compute"
    return out
