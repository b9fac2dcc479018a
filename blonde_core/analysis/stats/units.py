"""Units (documents, blocks of N segments, segments) and the metric functions evaluated over them."""
from __future__ import annotations

import numpy as np

from blonde_core.errors import InputError
from blonde_core.metric.registry import DEFAULT_SEED
from blonde_core.metric.scoring import score


TESTS = ("ttest", "wilcoxon", "bootstrap", "ar")


def parse_unit(unit: str) -> tuple[str, int]:
    if unit in ("doc", "document"):
        return "doc", 0
    if unit in ("segment", "seg", "sentence"):
        return "segment", 0
    if unit.startswith("block:"):
        try:
            n = int(unit.split(":", 1)[1])
        except ValueError:
            n = 0
        if n < 1:
            raise InputError(f"unit '{unit}': block size must be a whole number >= 1 (e.g. block:5)", code=InputError.Codes.SETTING)
        return "block", n
    raise InputError(f"unknown unit '{unit}' (choose doc, block:N or segment)", code=InputError.Codes.SETTING)


def unit_groups(result, unit: str) -> tuple[list[str], np.ndarray]:
    """(unit ids, group index of every scoring unit of the result)."""
    kind, n = parse_unit(unit)
    doc_ids = result.corpus.doc_ids
    ud = result.unit_doc
    if kind == "doc":
        return list(doc_ids), ud.copy()
    if result.config.granularity == "document":
        raise InputError(f"unit '{unit}' needs sentence granularity (scores were matched per document)", code=InputError.Codes.SENTENCE_COUNTS)
    # position of every segment inside its document
    starts = np.searchsorted(ud, np.arange(len(doc_ids)))
    pos = np.arange(len(ud)) - starts[ud]
    if kind == "segment":
        ids = [f"{doc_ids[d]}#{p + 1}" for d, p in zip(ud, pos)]
        return ids, np.arange(len(ud))
    block = pos // n
    keys = list(dict.fromkeys(zip(ud.tolist(), block.tolist())))
    index = {k: i for i, k in enumerate(keys)}
    ids = [f"{doc_ids[d]}#block{b + 1}" for d, b in keys]
    return ids, np.array([index[k] for k in zip(ud.tolist(), block.tolist())], dtype=np.int64)


def unit_stats(result, name: str, unit: str = "doc") -> tuple[list[str], np.ndarray]:
    ids, groups = unit_groups(result, unit)
    st = result.stats[name]
    out = np.zeros((len(ids),) + st.shape[1:])
    np.add.at(out, groups, st)
    return ids, out


def metric_fn(result, metric: str):
    """A function stats (..., F, 3) -> values (...) for 'BlonDe', 'BlonD-d',
    'BlonD+', or a category ('tense', 'entity', '2', ...), F1 unless suffixed .R / .P."""
    base, _, part = metric.rpartition(".")
    if part not in ("R", "P", "F1"):
        base, part = metric, "F1"
    cfg, lay, plus = result.config, result.layout, result.plus
    tops = ("BlonDe", "BlonD-d") + (("BlonD+",) if plus else ())
    probe = score(np.zeros((lay.n, 3)), cfg, lay, plus)
    if base not in tops and base not in probe["categories"]:
        raise InputError(f"unknown metric '{metric}' (choose from {', '.join(tops + tuple(probe['categories']))}, "
                         "optionally with .R or .P)", code=InputError.Codes.SETTING)

    def fn(S):
        res = score(S, cfg, lay, plus, counts=False)
        block = res[base] if base in tops else res["categories"][base]
        v = np.asarray(block[part], dtype=float)
        if part == "F1":
            # The package's F1 is NaN when R = P = 0 (0/0); for per-unit statistics
            # that unit scored zero, it is not missing.
            v = np.where((np.asarray(block["R"]) == 0) & (np.asarray(block["P"]) == 0), 0.0, v)
        return v

    fn.name = f"{base}.{part}" if part != "F1" else base
    return fn


def align(ids_a: list[str], ids_b: list[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Index arrays pairing units by id (never by position), in the order of ids_a."""
    ib = {u: i for i, u in enumerate(ids_b)}
    common = [u for u in ids_a if u in ib]
    ia = {u: i for i, u in enumerate(ids_a)}
    return (np.array([ia[u] for u in common], dtype=np.int64),
            np.array([ib[u] for u in common], dtype=np.int64), common)
