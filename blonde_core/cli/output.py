"""Output of the commands: JSON, CSV, text tables, progress on stderr."""
from __future__ import annotations

from blonde_core.study import CATALOG, Study
from blonde_core import study as door  # its tools (json_safe, csv_text, ...) imported when first called


def _progress(stream):
    import time

    state = {"last": -1, "since": None, "start": 0}

    def cb(done, total):
        if not stream.isatty() or total == 0:
            return
        now = time.monotonic()
        if state["since"] is None:
            state["since"], state["start"] = now, done
        pct = int(100 * done / total)
        if pct != state["last"]:
            state["last"] = pct
            eta = door.time_left(done, total, state["since"], state["start"], now)
            stream.write(f"\rannotating {done}/{total} distinct sentences ({pct}%{', ' + eta if eta else ''})   ")
            if done >= total:
                stream.write("\n")
            stream.flush()
    return cb


def dump_json(data) -> str:
    """Strict JSON (no NaN, no Infinity: null where a statistic has no value)."""
    return door.json_text(data) + "\n"


def _num(x, spec):
    return "-" if x is None else format(x, spec)


def _rows(data: dict):
    for name, entry in data["systems"].items():
        yield name, "", entry
        for doc, d in entry.get("documents", {}).items():
            yield name, doc, d


def _extras(first: dict) -> list[str]:
    """The extra metrics of a system entry (BLEU, Otem, ...): plain numbers."""
    return [k for k, v in first.items() if not isinstance(v, (dict, list))]


def to_csv(data: dict) -> str:
    """score's CSV: one row per system (and document), every text cell safe in a spreadsheet."""
    rows = list(_rows(data))
    header = ["system", "document"]
    first = rows[0][2]
    tops = [k for k in CATALOG.tops if k in first]
    cats = list(first["categories"])
    extras = _extras(first)
    for k in tops:
        header += [f"{k}.R", f"{k}.P", f"{k}.F1"]
    for k in cats:
        header += [f"{k}.R", f"{k}.P", f"{k}.F1", f"{k}.ref_spans", f"{k}.sys_spans", f"{k}.matched", f"{k}.thin"]
    tagged = (data.get("tagging") or {}).get("categories", {})
    tag_cats = [k for k in cats if k in tagged]
    for k in tag_cats:  # the pack's tagging measured against its gold, the same on every row
        header += [f"{k}.tagging_P", f"{k}.tagging_R", f"{k}.tagging_gold_spans", f"{k}.tagging_marked"]
    header += extras
    lb = data.get("leaderboard")
    if lb:  # score --ci: on the system rows (document empty)
        header.append("cluster")
        for m in lb["intervals"]:
            header += [f"{m}.ci_low", f"{m}.ci_high"]
    header.append("signature")
    table = []
    for name, doc, e in rows:
        row = [name, doc]
        for k in tops:
            row += ["" if e[k][m] is None else repr(e[k][m]) for m in ("R", "P", "F1")]
        for k in cats:
            v = e["categories"].get(k, {})
            row += ["" if v.get(m) is None else repr(v[m]) for m in ("R", "P", "F1")]
            sp = v.get("spans", {})
            row += ["" if sp.get(m) is None else repr(sp[m]) for m in ("reference", "system", "matched")]
            row.append("yes" if v.get("thin") else "no")
        for k in tag_cats:
            t = tagged[k]
            row += ["" if t["precision"] is None else repr(t["precision"]),
                    "" if t["recall"] is None else repr(t["recall"]), repr(t["gold_spans"]),
                    "yes" if t["marked"] else "no"]
        row += ["" if e.get(k) is None else repr(e[k]) for k in extras]
        if lb:
            row.append("" if doc else lb["clusters"][name])
            for per in lb["intervals"].values():
                ci = [None, None] if doc else per.get(name, [None, None])
                row += ["" if x is None else repr(x) for x in ci]
        row.append(data["signature"])
        table.append(row)
    return door.csv_text(table, header)


def rows_text(rows: list[dict]) -> list[str]:
    """Rows of one kind as an aligned text table: scores with two decimals, counts whole
    (integers, or whole floats in a column whose name does not say F1 or A - B), - for no value."""
    if not rows:
        return ["(none)"]
    cols = list(rows[0])
    whole = {c: all(r.get(c) is None or isinstance(r[c], int) for r in rows)
             or (all(r.get(c) is None or (isinstance(r[c], float) and r[c].is_integer()) for r in rows)
                 and "F1" not in c and "A - B" not in c) for c in cols}

    def cell(c, v):
        if v is None:
            return "-"
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return f"{v:.0f}" if whole[c] else f"{v:.2f}"
        return str(v)
    table = [[cell(c, r.get(c)) for c in cols] for r in rows]
    width = [max(len(c), *(len(t[i]) for t in table)) for i, c in enumerate(cols)]
    left = [all(isinstance(r.get(c), str) for r in rows) for c in cols]

    def line(vals):
        return "  ".join(v.ljust(width[i]) if left[i] else v.rjust(width[i]) for i, v in enumerate(vals)).rstrip()
    return [line(cols)] + [line(t) for t in table]


def _pct(x):
    return "   -  " if x is None else f"{100 * x:6.2f}"


def to_text(data: dict) -> str:
    out = []
    verdict = data.get("human_verdict")
    if verdict:  # the answer before the table: whether the human judgments agree with BlonDe's leader
        out += [verdict["sentence"], ""]
    rows = list(_rows(data))
    first = rows[0][2]
    tops = [k for k in CATALOG.tops if k in first]
    cats = list(first["categories"])
    extras = _extras(first)
    nw = max([20] + [len(n) for n, _, _ in rows])  # whole names: two long ones must not look alike
    dw = max([12] + [len(d) for _, d, _ in rows])
    tagged = (data.get("tagging") or {}).get("categories", {})
    marked = [k for k in cats if tagged.get(k, {}).get("marked")]
    head = f"{'system':<{nw}} {'document':<{dw}} " + " ".join(f"{k + '.F1':>10}" for k in tops) + \
        " " + " ".join(f"{k + ('†' if k in marked else ''):>8}" for k in cats) + "".join(f" {k[:13]:>13}" for k in extras)
    out.append(head)
    out.append("-" * len(head))
    for name, doc, e in rows:
        line = f"{name:<{nw}} {doc:<{dw}} " + " ".join(f"{_pct(e[k]['F1']):>10}" for k in tops)
        # * = thin evidence; a category with no span on either side (or one the pack declares empty) is "-" alone
        line += " " + " ".join(f"{_pct(c['F1']) + ('*' if c.get('thin') and c['F1'] is not None else ''):>8}"
                               for c in (e["categories"][k] for k in cats))
        line += "".join(f" {'-' if e.get(k) is None else format(e[k], '.2f'):>13}" for k in extras)
        out.append(line)
    out.append("")
    out.append("Scores are F1 x 100; categories show F1 per category; * = thin evidence (fewer than "
               f"{CATALOG.thin} reference spans; counts in --format json/csv).")
    if marked:
        lang = data["tagging"]["language"]
        out.append(f"† = {lang} tagging below the bar (precision 0.90, recall 0.80, 30 gold spans): "
                   + door.marked_figures(data["tagging"]) + " (docs/languages.md#tagging-accuracy).")
    if extras:
        dirs = data.get("metric_directions", {})
        out.append("Other metrics on their own scales: " + ", ".join(
            f"{k} ({dirs.get(k, '')})" if dirs.get(k) else k for k in extras) + ".")
    out.append(data["signature"])
    if data.get("leaderboard"):
        out += ["", *_leaderboard_text(data)]
    for name, e in data["systems"].items():  # score --entity-strings
        if "entity_strings" in e:
            ents = e["entity_strings"]
            out += ["", f"{name}: entity strings, the ten most missed of {len(ents)} (all in --format json):"]
            keys = {"group": "group", "as written": "as written", "entity": "matching key", "reference": "reference",
                    "system": "system", "matched": "matched", "missed": "missed", "extra": "extra"}
            out += rows_text([{v: r[k] for k, v in keys.items()} for r in ents[:10]])
    return "\n".join(out) + "\n"


def _leaderboard_text(data: dict) -> list[str]:
    """score --ci: every system's cluster and 95% intervals (BlonDe family in points, as above); a BlonDe-family
    interval resting on resamples where categories vanish carries the board's mark (‡), explained in one line."""
    lb = data["leaderboard"]
    metrics = list(lb["intervals"])
    marked = set(lb.get("marked", ()))
    nw = max([20] + [len(n) for n in lb["clusters"]])
    head = f"{'system':<{nw}} {'cluster':>7} " + " ".join(f"{m + ' 95% CI':>19}" for m in metrics)
    out = [head, "-" * len(head)]
    for name in lb["clusters"]:  # best first (ranked by BlonDe F1)
        cells = []
        for m in metrics:
            lo, hi = lb["intervals"][m].get(name, [None, None])
            k = CATALOG.points_factor(m)
            mark = f" {lb['mark']}" if name in marked and m in lb["alternatives"]["percentile"] else ""  # BlonDe family
            cells.append(f"{'-' if lo is None else f'[{k * lo:.2f}, {k * hi:.2f}]{mark}':>19}")
        out.append(f"{name:<{nw}} {lb['clusters'][name]:>7} " + " ".join(cells))
    if marked:
        out.append(lb["mark_line"])
    std = [m for m in metrics if CATALOG.points_factor(m) == 1]
    out += ["", f"Intervals: {lb['resamples']} bootstrap resamples, seed {lb['seed']}; BlonDe family over "
            f"{lb['n_units']} units ({lb['unit']}: {lb['unit_reason']}), {lb.get('ci_method_name', 'percentile')}"
            + (f", {'/'.join(std)} over documents" if std else "")
            + f". Clusters: {lb['cluster_rule']}; ranked by BlonDe F1."]
    if lb["warning"]:
        out.append(f"warning: {lb['warning']}")
    if lb.get("absent_warning"):
        out.append(f"warning: clusters: {lb['absent_warning']} (compare --skip-absent tests without them)")
    out.append(lb["signature"])
    return out


def _task_columns(out: dict) -> tuple[list, list]:
    """The task's tables as (title, [(header, {metric: (value, rank)})]) per pair and overall."""
    tables = []
    for lp, p in out["pairs"].items():
        stats = door.meta_task_statistics  # each statistic's column (analysis/stats/statistics.py)
        cols = [(stats[st["statistic"]].short, {m: (v, st["ranks"][m]) for m, v in st["values"].items()})
                for st in p["statistics"]]
        cols.append(("average", {m: (v, p["average"]["ranks"][m]) for m, v in p["average"]["values"].items()}))
        tables.append((f"{lp}: {len(p['systems'])} systems; {p['segments_rated']} of {p['segments']} segments rated "
                       f"({p['cells_rated']} cells, every ranked metric evaluated on all of them), "
                       f"{p['segments_every_system']} for every system (SPA: {p['spa_segments']}); human: "
                       f"{p.get('human', '-')}", cols))
    cols = []
    if out.get("global"):
        g = out["global"]
        cols.append(("accuracy (all pairs)", {m: (v, g["ranks"][m]) for m, v in g["values"].items()}))
    cols += [(f"{lp} avg", {m: (v, p["average"]["ranks"][m]) for m, v in p["average"]["values"].items()})
             for lp, p in out["pairs"].items()]
    cols.append(("overall", {m: (v, out["overall"]["ranks"][m]) for m, v in out["overall"]["values"].items()}))
    tables.append((f"{out['task']} across {len(out['pairs'])} language pair{'s' if len(out['pairs']) > 1 else ''} "
                   "(each task's value on [0, 1], tasks weighted alike" +
                   (", global accuracy by the number of pairs" if out.get("global") else "") + ")", cols))
    return tables, list(out["overall"]["values"])


def task_text(out: dict) -> str:
    """correlate --task as text: one table per pair and one across pairs, value and cluster (rank) per cell."""
    tables, order = _task_columns(out)
    s = out["settings"]
    lines = []
    for title, cols in tables:
        lines.append(title)
        width = max(12, *(len(m) for m in order))
        lines.append(f"{'metric':<{width}}" + "".join(f" {h:>16}" for h, _ in cols))
        rows = sorted(order, key=lambda m: -(cols[-1][1].get(m, (0, 0))[0] or 0))
        for m in rows:
            cells = []
            for _, c in cols:
                v = c.get(m)
                cells.append("-" if v is None or v[0] is None else f"{v[0]:.4f} ({v[1]})")
            lines.append(f"{m:<{width}}" + "".join(f" {x:>16}" for x in cells))
        lines.append("")
    lines.append(f"(n): the metric's significance cluster (1 = top; a new cluster starts at the first metric "
                 f"significantly below one of the current cluster, p <= {s['p_value']}), by permutation tests of "
                 f"at most {s['draws']} draws in blocks of {s['block']} (early stop below {s['early_stop'][0]} or "
                 f"above {s['early_stop'][1]}), seed {s['seed']}; SPA: {s['spa_permutations']} permutations, "
                 f"seed {s['spa_seed']}")
    for lp, p in out["pairs"].items():
        for w in p.get("warnings", []):
            lines.append(f"warning: {lp}: {w}")
    for n in out.get("notes", []):
        lines.append(f"note: {n}")
    lines.append(out["signature"])
    return "\n".join(lines) + "\n"


def task_latex(out: dict) -> str:
    """correlate --task as LaTeX tables (booktabs): value and cluster per cell, the first cluster in bold."""
    latex_text = door.latex_text
    tables, order = _task_columns(out)
    parts = [r"% needs \usepackage{booktabs}"]
    for title, cols in tables:
        rows = sorted(order, key=lambda m: -(cols[-1][1].get(m, (0, 0))[0] or 0))
        lines = [r"\begin{table}[t]", r"\centering", r"\begin{tabular}{l" + "r" * len(cols) + "}", r"\toprule",
                 "metric & " + " & ".join(latex_text(h) for h, _ in cols) + r" \\", r"\midrule"]
        for m in rows:
            cells = []
            for _, c in cols:
                v = c.get(m)
                if v is None or v[0] is None:
                    cells.append("--")
                else:
                    x = f"{v[0]:.3f} ({v[1]})"
                    cells.append(r"\textbf{" + x + "}" if v[1] == 1 else x)
            lines.append(latex_text(m) + " & " + " & ".join(cells) + r" \\")
        lines += [r"\bottomrule", r"\end{tabular}", r"\caption{" + latex_text(title) + r". (n): significance "
                  r"cluster.}", r"\end{table}", ""]
        parts.append("\n".join(lines))
    parts.append("% " + latex_text(out["signature"]))
    return "\n".join(parts) + "\n"
