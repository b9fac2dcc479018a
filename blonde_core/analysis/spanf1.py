"""Error spans scored against error spans, character by character, as the WMT25 metrics task scores them
(its task 2: `wmt-conference/wmt25-mteval`, scripts/scoring/task2/scoring_esa.py), and the agreement of two
human annotations of the same segments.

Per character of a segment, each annotation counts how many of its major (major or critical) and minor errors
cover it; a character's matched count is min(gold, predicted) per severity, plus half (`partial_credit`) of
what is left on both sides under the other severity (an error found with the wrong severity). Precision =
matched / predicted characters, recall = matched / gold characters (1 when there are none), F1 their harmonic
mean; summed over every segment before dividing. A span without a position ("missing", None) and a severity
"undecided" are left out, as there.
"""
from __future__ import annotations

import numpy as np

MAJOR = ("major", "critical")


def _counts(errors, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(major, minor) errors covering each of n characters, by difference arrays."""
    d = np.zeros((2, n + 1), dtype=np.int64)
    for e in errors:
        a, b, sev = e.get("start"), e.get("end"), str(e.get("severity", "")).lower()
        if a is None or a == "missing" or sev == "undecided":
            continue
        if sev in MAJOR:
            row = 0
        elif sev == "minor":
            row = 1
        else:
            raise ValueError(f"unknown severity {e.get('severity')!r} (major, critical, minor, undecided)")
        a, b = max(0, int(a)), min(n, int(b))
        if b > a:
            d[row, a] += 1
            d[row, b] -= 1
    return tuple(np.cumsum(d[:, :n], axis=1))


def _length(gold, pred) -> int:
    ends = [int(e["end"]) for e in (*gold, *pred) if e.get("end") not in (None, "missing")]
    return max(ends, default=0)


def char_f1(segments, partial_credit: float = 0.5) -> dict:
    """segments: (gold errors, predicted errors) or (length, gold errors, predicted errors) per segment, each
    error a dict with start, end (character offsets) and severity; with a length, a span is cut at it (as the
    script's arrays of the hypothesis' length), without one the longest span's end is the segment's length.
    {"precision", "recall", "f1", "matched", "gold_chars", "pred_chars", "segments"}."""
    tp = gold_n = pred_n = 0.0
    k = 0
    for seg in segments:
        if len(seg) == 3:
            n, gold, pred = seg
        else:
            gold, pred = seg
            n = _length(gold, pred)
        k += 1
        gM, gm = _counts(gold, n)
        pM, pm = _counts(pred, n)
        gold_n += float(gM.sum() + gm.sum())
        pred_n += float(pM.sum() + pm.sum())
        left_g = np.maximum(gM - pM, 0) + np.maximum(gm - pm, 0)
        left_p = np.maximum(pM - gM, 0) + np.maximum(pm - gm, 0)
        tp += float(np.minimum(gM, pM).sum() + np.minimum(gm, pm).sum()
                    + partial_credit * np.minimum(left_g, left_p).sum())
    p = tp / pred_n if pred_n else 1.0
    r = tp / gold_n if gold_n else 1.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0, "matched": tp,
            "gold_chars": gold_n, "pred_chars": pred_n, "segments": k}


def annotator_agreement(rater_scores: dict, error_spans: dict) -> dict | None:
    """Agreement of two human annotations of the same items: every (system, document, segment) judged by at least
    two raters, the first two by name (A, B). Span F1 with A as gold (F1 is the same either way; precision and
    recall swap), per system and overall; Pearson and Kendall tau-b of their scores. None when no item has two."""
    from scipy import stats as sps

    pairs = []
    for key, by in rater_scores.items():
        if len(by) < 2:
            continue
        a, b = sorted(by)[:2]
        spans = error_spans.get(key, [])
        pairs.append((key, by[a], by[b], [e for e in spans if e.get("rater") == a],
                      [e for e in spans if e.get("rater") == b]))
    if not pairs:
        return None
    out = {"items": len(pairs), "rater_pairs": "the first two raters of an item by name; A as gold",
           "span_f1": char_f1([(g, p) for _, _, _, g, p in pairs]), "systems": {}}
    x = np.array([p[1] for p in pairs], float)
    y = np.array([p[2] for p in pairs], float)
    if len(pairs) >= 3 and x.std() > 0 and y.std() > 0:
        out["pearson"] = float(sps.pearsonr(x, y)[0])
        out["kendall"] = float(sps.kendalltau(x, y)[0])
    else:
        out["pearson"] = out["kendall"] = None
    out["mean_abs_difference"] = float(np.abs(x - y).mean())
    by_sys: dict = {}
    for key, _, _, g, p in pairs:
        by_sys.setdefault(key[0], []).append((g, p))
    out["systems"] = {s: {"items": len(v), **char_f1(v)} for s, v in sorted(by_sys.items())}
    return out
