"""Results ready for a paper and for a colleague: a leaderboard as a LaTeX table (booktabs, ASCII only,
best per column in bold, clusters marked, intervals as +-half-width or [lo, hi]) and one self-contained
HTML report (no request leaves the file; readable at 1280 px and printable).  Every number comes from a
Study's answers; this module only lays them out.  Reached through Study.report_html and blonde_core.study.latex_table."""
from __future__ import annotations

import html
import math
import unicodedata

from blonde_core.metric.registry import DEFAULT_SEED

LATEX_SPECIAL = (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                 ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ("~", r"\textasciitilde{}"), ("^", r"\^{}"))
ASCII_WORDS = {"↑": r"$\uparrow$", "↓": r"$\downarrow$", "±": r"$\pm$", "–": "--", "—": "---", "°": r"$^\circ$",
               "✓": "yes"}


def latex_text(s) -> str:
    """A cell's text for LaTeX: special characters escaped, then ASCII only (arrows as math, accents
    dropped by their NFKD decomposition, anything else as '?')."""
    special = dict(LATEX_SPECIAL)
    s = "".join(special.get(ch, ch) for ch in str(s))  # one pass: the backslash's own braces stay braces
    out = []
    for ch in s:
        if ord(ch) < 128:
            out.append(ch)
        elif ch in ASCII_WORDS:
            out.append(ASCII_WORDS[ch])
        else:
            base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
            out.append(base or "?")
    return "".join(out)


def _isnum(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and not (isinstance(v, float) and math.isnan(v))


def latex_table(rows: list[dict], columns: list[str], *, intervals: dict | None = None, style: str = "brackets",
                higher: dict | None = None, digits: dict | None = None, cluster: str | None = None,
                caption: str = "", label: str = "tab:leaderboard") -> str:
    """rows: dicts; columns: which of their keys, in order.  intervals: {column: (low key, high key)} shown
    with the value as "[lo, hi]" (style "brackets", the default), as "^{+a}_{-b}" (style "asym"), as
    "+-half-width" (style "pm": only where the interval is symmetric as printed; an asymmetric one is written
    "^{+a}_{-b}" instead, never a symmetric +- that misstates a bound), or not at all ("none").  higher: {column: True / False}: the best value of the column in
    bold (higher or lower is better).  digits: decimals per column (default 2).  cluster: the column holding
    the significance cluster: a rule between clusters and the cluster number in its own column.  The table
    is scaled to the text width (one table per page width); needs booktabs and graphicx."""
    intervals, higher, digits = intervals or {}, higher or {}, digits or {}
    best = {}
    for c, up in higher.items():
        vals = [r.get(c) for r in rows if _isnum(r.get(c))]
        if vals:
            best[c] = max(vals) if up else min(vals)

    def num(c, v):
        return f"{v:.{digits.get(c, 2)}f}"

    def cell(r, c):
        v = r.get(c)
        if not _isnum(v):
            return "--" if v is None or (isinstance(v, float) and math.isnan(v)) else latex_text(v)
        text = num(c, v)
        if c in best and v == best[c]:
            text = r"\textbf{" + text + "}"
        if c in intervals and style != "none":
            lo, hi = (r.get(k) for k in intervals[c])
            if _isnum(lo) and _isnum(hi):
                up, down = num(c, hi - v), num(c, v - lo)
                if style == "pm" and up == down:  # symmetric as printed
                    text += r" {\scriptsize $\pm$" + up + "}"
                elif style in ("pm", "asym"):
                    text += r" {\scriptsize $^{+" + up + "}_{-" + down + "}$}"
                else:
                    text += r" {\scriptsize [" + num(c, lo) + ", " + num(c, hi) + "]}"
        return text

    align = "".join("l" if all(not _isnum(r.get(c)) for r in rows) and c != cluster else "r" for c in columns)
    lines = [r"% needs \usepackage{booktabs,graphicx}", r"\begin{table}[t]", r"\centering",
             r"\resizebox{\linewidth}{!}{%", r"\begin{tabular}{" + align + "}", r"\toprule",
             " & ".join(latex_text(c) for c in columns) + r" \\", r"\midrule"]
    prev = None
    for r in rows:
        if cluster and prev is not None and r.get(cluster) != prev:
            lines.append(r"\midrule")
        prev = r.get(cluster) if cluster else None
        lines.append(" & ".join(cell(r, c) for c in columns) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}}"]
    if caption:
        lines.append(r"\caption{" + latex_text(caption) + "}")
    lines += [r"\label{" + latex_text(label) + "}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def shown_digits(values) -> int:
    """Decimals a column of scores is shown with: 3 on a 0-1 scale (COMET-like metrics, MQM), 2 otherwise;
    missing values do not count."""
    vals = [abs(v) for v in values if _isnum(v)]
    return 3 if vals and max(vals) <= 1.5 else 2


def round_as_shown(rows: list[dict], digits: dict) -> list[dict]:
    """The rows with each numeric column rounded to the decimals the page shows (CSV)."""
    out = []
    for r in rows:
        out.append({k: (round(v, digits.get(k, 2)) if _isnum(v) and isinstance(v, float) else v)
                    for k, v in r.items()})
    return out


# --- the HTML report ---------------------------------------------------------------------------------

REPORT_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;max-width:1200px;margin:1.5rem auto;
padding:0 1rem;color:#222;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ccc}
table.r{border-collapse:collapse;font-size:.85rem;margin:.4rem 0 1rem 0}
table.r th,table.r td{border:1px solid #ccc;padding:3px 7px;text-align:right;font-variant-numeric:tabular-nums}
table.r th{background:#f2f2f2;position:sticky;top:0}
table.r td.t,table.r th.t{text-align:left}
table.r td.n{white-space:nowrap}
table.r .ci{font-size:.72rem;color:#555}
.wide{overflow-x:auto;max-width:100%}
.verdict{border-left:4px solid #b8860b;background:#fff8e1;padding:.4rem .7rem}.note{font-size:.8rem;color:#555}.sig{font-family:ui-monospace,monospace;font-size:.75rem;word-break:break-all;
background:#f4f4f4;padding:.4rem .6rem;border-radius:4px}
.best{font-weight:700}
@media print{body{max-width:none;margin:0}h2{break-after:avoid}table.r{break-inside:auto}
tr{break-inside:avoid}.noprint{display:none}}
"""


def esc(s) -> str:
    return html.escape(str(s), quote=True)


def _fmt(v, k=2) -> str:
    return "-" if not _isnum(v) else f"{v:.{k}f}"


def _viridis(t: float) -> str:
    """A colour of the viridis scale for t in [0, 1] (a few anchors, linear between them)."""
    stops = [(68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37)]
    t = min(max(t, 0.0), 1.0) * (len(stops) - 1)
    i = min(int(t), len(stops) - 2)
    f = t - i
    r, g, b = (round(stops[i][j] + f * (stops[i + 1][j] - stops[i][j])) for j in range(3))
    return f"rgb({r},{g},{b})"


def _text_on(t: float) -> str:
    return "#000" if t > 0.55 else "#fff"


def svg_bars(names: list[str], vals: list, lo: list, hi: list, clusters: list, title: str, unit: str) -> str:
    """A bar chart with error bars as inline SVG: every system's name whole (rotated), a title and the unit."""
    w_bar, gap, left, top, h = 46, 14, 60, 40, 260
    longest = max((len(n) for n in names), default=4)
    bottom = 14 + 6.2 * min(longest, 40)
    width = max(left + len(names) * (w_bar + gap) + 20, left + 7.5 * len(title))
    nums = [v for v in vals + lo + hi if _isnum(v)]
    vmax = max(nums) if nums else 1.0
    vmax = vmax * 1.08 if vmax > 0 else 1.0

    def y(v):
        return top + h - h * max(v, 0) / vmax

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{top + h + bottom:.0f}" '
           f'role="img" aria-label="{esc(title)}" style="max-width:100%;height:auto" font-family="sans-serif">',
           f'<text x="{left}" y="18" font-size="14" font-weight="600">{esc(title)}</text>',
           f'<text x="14" y="{top + h / 2}" font-size="11" transform="rotate(-90 14 {top + h / 2})" '
           f'text-anchor="middle">{esc(unit)}</text>',
           f'<line x1="{left}" y1="{top + h}" x2="{width - 10}" y2="{top + h}" stroke="#333"/>']
    for k in range(5):
        v = vmax * k / 4
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" font-size="10" text-anchor="end">{v:.1f}</text>'
                   f'<line x1="{left}" y1="{y(v):.1f}" x2="{width - 10}" y2="{y(v):.1f}" stroke="#ddd"/>')
    palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
    for i, (n, v, a, b, c) in enumerate(zip(names, vals, lo, hi, clusters)):
        x = left + gap / 2 + i * (w_bar + gap)
        if _isnum(v):
            col = palette[(int(c) - 1) % len(palette)] if _isnum(c) else "#888"
            out.append(f'<rect x="{x:.1f}" y="{y(v):.1f}" width="{w_bar}" height="{top + h - y(v):.1f}" '
                       f'fill="{col}"><title>{esc(n)}: {v:.2f}</title></rect>')
            if _isnum(c):
                out.append(f'<text x="{x + w_bar / 2:.1f}" y="{top + h - 5}" font-size="11" fill="#000" '
                           f'stroke="#fff" stroke-width="3" paint-order="stroke" text-anchor="middle">c{int(c)}</text>')
            if _isnum(a) and _isnum(b):
                cx = x + w_bar / 2
                out.append(f'<line x1="{cx:.1f}" y1="{y(a):.1f}" x2="{cx:.1f}" y2="{y(b):.1f}" stroke="#000"/>'
                           f'<line x1="{cx - 6:.1f}" y1="{y(a):.1f}" x2="{cx + 6:.1f}" y2="{y(a):.1f}" stroke="#000"/>'
                           f'<line x1="{cx - 6:.1f}" y1="{y(b):.1f}" x2="{cx + 6:.1f}" y2="{y(b):.1f}" stroke="#000"/>')
        tx, ty = x + w_bar / 2, top + h + 10
        out.append(f'<text x="{tx:.1f}" y="{ty:.1f}" font-size="11" text-anchor="end" '
                   f'transform="rotate(-45 {tx:.1f} {ty:.1f})">{esc(n)}</text>')
    out.append("</svg>")
    return "".join(out)


def html_table(header: list[str], rows: list[list], left: int = 1, cls: str = "r") -> str:
    """Cells given as text, or (text, style) pairs; the first `left` columns left-aligned."""
    def td(i, c):  # a second line (after a newline) is the value's interval, in small type under it
        text, style = c if isinstance(c, tuple) else (c, "")
        first, _, rest = str(text).partition("\n")
        return f'<td class={"t" if i < left else "n"}{f" style={chr(34)}{style}{chr(34)}" if style else ""}>' \
               f"{esc(first)}" + (f'<div class=ci>{esc(rest)}</div>' if rest else "") + "</td>"
    head = "".join(f'<th{" class=t" if i < left else ""}>{esc(h)}</th>' for i, h in enumerate(header))
    body = "".join("<tr>" + "".join(td(i, c) for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f'<div class="wide"><table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def build_report(study, cfg, n: int = 1000, seed: int = DEFAULT_SEED, std_metrics=("BLEU", "chrF"), top_docs: int = 3,
                 max_sentences: int = 12) -> str:
    """The one-file HTML report of a Study under cfg: leaderboard with intervals and clusters (and the
    metrics computed elsewhere, the human column), a bar chart, the systems x categories heatmap, the
    significance matrix of the policy's test, the correlation with humans when judgments are loaded, the
    documents where the top two systems differ most with their highlighted sentences, the signature."""
    from blonde_core.render import CSS as SPAN_CSS, LABELS, SHORT, counts_line, legend, render_text, shown_f1

    res = study.analysis(cfg)
    lb = study.leaderboard(cfg, n, seed, std_metrics)  # the one leaderboard the Overview and score --ci render
    b = lb.board
    ci, clusters = b["intervals"], b["clusters"]
    tops = [c.metric for c in lb.of("top")]
    ext, hum, ranked = lb.external, lb.human, lb.systems
    cats = res.discourse_categories()
    parts = [f"<h1>BlonDe Studio report</h1><p class=note>Data: {esc(study.origin)}; {len(study.corpus.references)} "
             f"reference(s), {len(res.names)} systems, {len(study.corpus.doc_ids)} documents, "
             f"{study.corpus.n_segments} segments. Scores in points (F1 x 100) unless said otherwise; "
             f"95% bootstrap intervals ({n} resamples, seed {seed}; BlonDe family: "
             f"{esc(b.get('ci_method_name', 'percentile'))}, docs/statistics.md) over {b['n_units']} units "
             f"({esc(b['unit_reason'])}).</p>"]
    verdict = study.human_verdict(cfg, n, seed)  # the answer weighs the humans in, as Home and score --human do
    if verdict:
        parts.append(f"<p class=verdict><b>{esc(verdict['headline'])}</b>"
                     f"{esc(verdict['sentence'][len(verdict['headline']):])}</p>")
    # leaderboard
    cols = lb.of("top", "category", "standard", "external")
    from blonde_core.analysis.tagging import marked_figures

    rep = study.tagging_report(cfg)
    tag = rep.get("categories", {})
    dag = {c: " †" if tag.get(c, {}).get("marked") else "" for c in ("tense", "pronoun", "entity", "dm")}
    tag_note = ("<p class=note>† tagging below the bar in " + esc(cfg.lang) + " (precision 0.90, recall 0.80, "
                "30 gold spans; docs/languages.md#tagging-accuracy): " + esc(marked_figures(rep))
                + ".</p>") if any(dag.values()) else ""
    header = ["rank", "system", "cluster"] + [SHORT.get(c.metric, c.metric) + dag.get(c.metric, "")
                                              if c.kind == "category" else
                                              c.metric if c.kind != "external" else c.key if ext[c.metric]["unit"]
                                              else f"{c.key} (system level)" for c in cols]
    if hum:
        header += [f"human ({hum['name']})", "rated", "human rank"]
    best = {c.key: max((lb.values[c.key][s] or -1) for s in ranked) for c in lb.of("top")}
    rows = []
    for k, s in enumerate(ranked, 1):
        row = [str(k), s, str(clusters[s])]
        for c in cols:
            v = lb.values[c.key].get(s)
            lo, hi = lb.intervals[c.key].get(s, (None, None)) if c.interval else (None, None)
            if c.kind == "top":
                mark = f" {b['mark']}" if s in b.get("marked", ()) else ""  # an interval where a category vanishes
                text = "-" if v is None else f"{100 * v:.2f}" + ("" if lo is None else
                                                                 f"\n[{100 * lo:.1f}, {100 * hi:.1f}]{mark}")
                row.append((text, "font-weight:700" if v is not None and v == best[c.key] else ""))
            elif c.kind == "category":
                row.append(_fmt(100 * v))  # as the Overview shows it
            elif c.kind == "standard":
                row.append(_fmt(v) + ("" if lo is None else f"\n[{lo:.1f}, {hi:.1f}]"))
            elif v is None:  # a metric computed elsewhere that did not score this system
                row.append("-")
            else:
                k3 = c.digits
                own = lb.clusters[c.key]
                row.append(f"{v:.{k3}f}" + (f" (c{own[s]})" if s in own else "")
                           + ("" if lo is None else f"\n[{lo:.{k3}f}, {hi:.{k3}f}]"))
        if hum:
            h = hum["systems"][s]
            row += [_fmt(h["score"], 3), str(h["segments"]), str(h.get("rank", "-"))]
        rows.append(row)
    parts.append("<h2>Leaderboard</h2>" + html_table(header, rows, left=2) +
                 f"<p class=note>Under each score its 95% interval. Clusters: {esc(b['cluster_rule'])}; ranked by "
                 "BlonDe F1 (bold: the best). "
                 + ("Metrics computed elsewhere: their own scale, intervals over the same units, (cN): the "
                    "metric's own cluster. " if ext else "")
                 + (f"Human: {esc(hum['name'])} ({esc(hum['direction'])}) at system level as the judgments define "
                    "it; rated: the segments with a human score. " if hum else "")
                 + (f"{esc(b['warning'])}. " if b.get("warning") else "")
                 + (esc(b["mark_line"]) if b.get("marked") else "") + "</p>" + tag_note)
    parts.append(svg_bars(ranked, [100 * (ci["BlonDe"][s]["score"] or 0) if ci["BlonDe"][s]["score"] is not None
                                   else None for s in ranked],
                          [None if ci["BlonDe"][s]["ci"][0] is None else 100 * ci["BlonDe"][s]["ci"][0] for s in ranked],
                          [None if ci["BlonDe"][s]["ci"][1] is None else 100 * ci["BlonDe"][s]["ci"][1] for s in ranked],
                          [clusters[s] for s in ranked], "BlonDe F1 by system, 95% intervals, coloured by cluster",
                          "BlonDe F1 (points)"))
    # category heatmap
    allcats = list(res.scores(ranked[0])["categories"])
    hrows = []
    for s in ranked:
        sc = res.scores(s)["categories"]
        row = [s]
        for c in allcats:
            v = shown_f1(sc[c])  # as the Categories page shows it
            sp = sc[c].get("spans") or {}
            if math.isnan(v):
                row.append(("-", ""))
            else:
                t = v
                row.append((f"{100 * v:.1f} ({sp.get('matched', '-')}/{sp.get('system', '-')})",
                            f"background:{_viridis(t)};color:{_text_on(t)}"))
        hrows.append(row)
    parts.append("<h2>Categories</h2>" + html_table(["system"] + [LABELS.get(c, c) + dag.get(c, "") for c in allcats],
                                                    hrows) +
                 "<p class=note>F1 in points per category (viridis: dark low, yellow high), in brackets the spans "
                 "matched / in the system.</p>" + tag_note)
    # what re-segmented systems left out or added (issue 47)
    moved = study.resegmentation()
    if moved:
        mrows_ = [[name, str(len(docs)), str(sum(len(v["omitted"]) for v in docs.values())),
                   "; ".join(f"{d}: {', '.join(map(str, v['omitted']))}" for d, v in docs.items() if v["omitted"]) or "-",
                   str(sum(len(v["added"]) for v in docs.values()))] for name, docs in moved.items()]
        parts.append("<h2>Re-segmented systems: what they left out</h2>" +
                     html_table(["system", "documents re-segmented", "omitted", "omitted (document: reference "
                                 "segments)", "added"], mrows_, left=1) +
                     f"<p class=note>Cut into the reference's segments by mwerSegmenter's alignment "
                     f"({esc(study.corpus.seg_method)}); omitted: a reference segment that received nothing, or "
                     "under a fifth of its tokens; added: system text over twice its reference segment's length "
                     "plus 10 tokens.</p>")
    # significance matrix
    from blonde_core.analysis.stats import policy as pol

    unit = study.significance_unit(cfg)["unit"]
    tested = study.compare(cfg, "BlonDe", pol.TEST, unit, n, seed)
    p = {}
    for q in tested["pairs"]:
        p[(q["a"], q["b"])] = (q[pol.CORRECTION], q["corpus_diff"])
        p[(q["b"], q["a"])] = (q[pol.CORRECTION], None if q["corpus_diff"] is None else -q["corpus_diff"])
    mrows = []
    for a in ranked:
        row = [a]
        for c in ranked:
            if a == c:
                row.append(("", "background:#eee"))
                continue
            pv, dv = p.get((a, c), (None, None))
            sig = pv is not None and pv < pol.ALPHA
            row.append((("-" if pv is None else f"{pv:.3g}{'*' if sig else ''}") +
                        ("" if dv is None else f" ({100 * dv:+.1f})"), "background:#cfe3f3" if sig else ""))
        mrows.append(row)
    parts.append("<h2>Significance</h2>" + html_table(["A \\ B"] + ranked, mrows) +
                 f"<p class=note>{esc(pol.describe(pol.TEST, unit, tested['n_units']))} on BlonDe; a cell: the "
                 "corrected p-value (* and shaded: significant) and A - B in points.</p>")
    # correlation with humans
    if study.human is not None:
        from blonde_core.analysis.stats.statistics import shown as meta_statistics

        try:
            out, _ = study.correlate(cfg, "system", tuple(std_metrics), bootstrap=min(n, 1000), seed=seed)
            shown = meta_statistics("report", "system", out["metrics"])  # the table's (analysis/stats/statistics.py)
            crow = [[m] + [_fmt(v.get(s.key), s.digits - 1) for s in shown] for m, v in out["metrics"].items()]
            parts.append("<h2>Correlation with humans (system level)</h2>" +
                         html_table(["metric"] + [s.label for s in shown], crow) +
                         f"<p class=note>Human: {esc(out['human'])} ({esc(out['human_direction'])}); "
                         f"{out['n_systems']} systems; {esc(out['signature'])}</p>")
        except Exception as exc:  # noqa: BLE001 - a report section that cannot be made says why
            parts.append(f"<h2>Correlation with humans</h2><p class=note>Not computed: {esc(exc)}</p>")
    # the documents where the top two differ most
    if len(ranked) >= 2 and cats:
        a, c2 = ranked[0], ranked[1]
        da, db = res.doc_scores(a), res.doc_scores(c2)
        diffs = []
        for di, d in enumerate(study.corpus.doc_ids):
            x, y = da[d]["BlonDe"]["F1"], db[d]["BlonDe"]["F1"]
            if x is not None and y is not None:
                diffs.append((abs(x - y), di, d, x, y))
        diffs.sort(reverse=True)
        ref = next(iter(res.corpus.references))
        parts.append(f"<h2>Where the top two differ most: {esc(a)} (A) and {esc(c2)} (B)</h2>" + SPAN_CSS +
                     legend(cats))
        for _, di, d, x, y in diffs[:top_docs]:
            view = res.sentence_view(di, [a, c2], ref)
            n_sent = len(view["rows"][ref])
            if res.sentence_level():
                ea, eb = res.sentence_errors(di, a), res.sentence_errors(di, c2)
                show = [i for i in range(n_sent) if any(sum(ea[k][i]) != sum(eb[k][i]) for k in cats)]
            else:
                show = list(range(n_sent))
            body = []
            for i in show[:max_sentences]:
                cells = []
                for name in (ref, a, c2):
                    r = view["rows"][name][i]
                    spans = [dict(s, status="neutral") for s in r["spans"]] if name == ref else r["spans"]
                    cells.append(f"<td class=t><div class=bl-doc>{render_text(r['text'], spans, cats)}</div>"
                                 f"{counts_line(r['counts'], cats, r.get('features'))}</td>")
                body.append(f"<tr><td>{i + 1}</td>{''.join(cells)}</tr>")
            parts.append(f"<h3>{esc(d)}: BlonDe A {100 * x:.1f}, B {100 * y:.1f}</h3>"
                         f"<p class=note>{len(show)} of {n_sent} sentences differ in a discourse category"
                         + (f"; the first {max_sentences} shown" if len(show) > max_sentences else "") + ".</p>"
                         f'<table class="r" style="table-layout:fixed;width:100%"><thead><tr><th style="width:2.5em">#</th>'
                         f"<th class=t>reference: {esc(ref)}</th><th class=t>A: {esc(a)}</th>"
                         f"<th class=t>B: {esc(c2)}</th></tr></thead><tbody>{''.join(body)}</tbody></table>")
    sig = b["signature"]
    parts.append(f"<h2>Signature</h2><div class=sig>{esc(sig)}</div>")
    cmd = study.command(cfg, "report", ["--ci", str(n)] + (["--metrics", ",".join(std_metrics)] if std_metrics else []))
    if cmd:
        import shlex

        parts.append("<p class=note>Reproduce:</p><div class=sig>" + esc(" ".join(shlex.quote(x) for x in cmd))
                     + "</div>")
    return _page("BlonDe Studio report", parts)


def release_latex(data: dict) -> str:
    """The systems x pairs table as booktabs LaTeX (ASCII only, names escaped): the summary columns, then per pair
    BlonDe with its significance cluster as a superscript, the pair's best BlonDe in bold; the first note as the
    caption. Needs booktabs and graphicx."""
    from blonde_core.analysis.release import release_notes

    pairs = list(data["pairs"])
    best = {lp: max((v["per_pair"][lp]["BlonDe"] for v in data["systems"].values()
                     if lp in v["per_pair"] and v["per_pair"][lp].get("BlonDe") is not None), default=None)
            for lp in pairs}
    lines = [r"% needs \usepackage{booktabs,graphicx}", r"\begin{table}[t]", r"\centering",
             r"\resizebox{\linewidth}{!}{%", r"\begin{tabular}{lrrr" + "r" * len(pairs) + "}", r"\toprule",
             " & ".join(["system", "pairs", "mean rank", "top cl."] + [latex_text(lp) for lp in pairs]) + r" \\",
             r"\midrule"]
    for s in data["order"]:
        v = data["systems"][s]
        cells = [latex_text(s), str(v["pairs_entered"]),
                 "--" if v["mean_rank"] is None else f"{v['mean_rank']:.2f}", str(v["top_cluster"])]
        for lp in pairs:
            r = v["per_pair"].get(lp)
            if r is None:
                cells.append("")
            elif r.get("BlonDe") is None:
                cells.append("--")
            else:
                t = f"{100 * r['BlonDe']:.2f}"
                if r["BlonDe"] == best[lp]:
                    t = r"\textbf{" + t + "}"
                if r.get("cluster") is not None:
                    t += r"$^{" + str(int(r["cluster"])) + "}$"
                cells.append(t)
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}}", r"\caption{" + latex_text(release_notes(data)[0]) + "}",
              r"\label{tab:release}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def _page(title: str, parts: list[str]) -> str:
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width, initial-scale=1'>"
            "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src 'unsafe-inline'; "
            "img-src data:\">"
            f"<title>{esc(title)}</title><style>{REPORT_CSS}</style></head><body>" + "".join(parts) + "</body></html>\n")


def release_html(data: dict) -> str:
    """The report of a WMT release (analysis/release.py): systems x pairs - BlonDe with its cluster (and rank)
    per pair, chrF and the human score under it - the across-pair summary first, the notes and each pair's
    signature after. Self-contained like build_report."""
    from blonde_core.analysis.release import release_notes

    pairs = list(data["pairs"])
    header = ["system", "pairs", "mean rank", "top cluster", *pairs]
    rows = []
    for s in data["order"]:
        v = data["systems"][s]
        row = [s, str(v["pairs_entered"]), "-" if v["mean_rank"] is None else f"{v['mean_rank']:.2f}",
               str(v["top_cluster"])]
        for lp in pairs:
            r = v["per_pair"].get(lp)
            if r is None:
                row.append("")
                continue
            first = "-" if r.get("BlonDe") is None else (
                f"{100 * r['BlonDe']:.2f}" + ("" if r.get("cluster") is None else f" ({r['cluster']})"))
            under = [f"chrF {r['chrF']:.2f}" if r.get("chrF") is not None else "",
                     f"human {r['human']:.2f}" if r.get("human") is not None else ""]
            cell = first + ("\n" + " · ".join(u for u in under if u) if any(under) else "")
            row.append((cell, "font-weight:700") if r.get("cluster") == 1 else cell)
        rows.append(row)
    notes = release_notes(data)
    parts = [f"<h1>BlonDe Studio: a WMT release</h1><p class=note>{len(pairs)} language pairs, "
             f"{len(data['systems'])} systems. {esc(notes[0])} Bold: the pair's top cluster.</p>",
             html_table(header, rows, left=1),
             "<h2>Each pair's settings</h2>" + "".join(f"<div class=sig>{esc(n)}</div>" for n in notes[1:])]
    return _page("BlonDe Studio release report", parts)


CORRECTION_WORDS = {"p": "uncorrected", "p_holm": "Holm-corrected", "p_bh": "Benjamini-Hochberg-corrected"}
TEST_WORDS = {"bootstrap": "paired bootstrap", "ar": "approximate randomization", "ttest": "paired t-test",
              "wilcoxon": "Wilcoxon signed-rank test"}


def significance_sentence(out: dict, a: str, b: str, correction: str = "p_bh", factor: float = 1.0,
                          alpha: float = 0.05, name=str) -> str:
    """The answer to "is A better than B?" from `compare`'s output, in one sentence (Markdown, names in bold):
    who leads, by how much in points with the interval, significant or not, the p-value with its correction,
    the test and its units.  A and B in either order of the pair; lower-is-better metrics read the right way.
    name: how a system's name is written into the Markdown (a page passes its escaping)."""
    from blonde_core.numbers import nan_to_none

    q = next((x for x in out["pairs"] if {x["a"], x["b"]} == {a, b}), None)
    if q is None or a == b:
        return ""
    flip = q["a"] != a
    diff = q["corpus_diff"] if q.get("corpus_diff") is not None else q.get("mean_diff")
    lo, hi = (q.get("ci") or [None, None])
    p = nan_to_none(q.get(correction))
    if diff is None:
        return f"**{name(a)}** and **{name(b)}** cannot be compared on {out['metric']}: no unit has a value for both."
    if flip:
        diff, lo, hi = -diff, (None if hi is None else -hi), (None if lo is None else -lo)
    lower = out.get("direction", "").startswith("lower")
    ahead, behind = (a, b) if (diff < 0 if lower else diff > 0) else (b, a)
    if ahead != a:  # said from the leader's side
        diff, lo, hi = -diff, (None if hi is None else -hi), (None if lo is None else -lo)
    unit = "points" if factor != 1 else "(its own scale)"
    amount = f"{factor * diff:+.2f} {out['metric']} {unit}"
    ci = "" if lo is None or hi is None else f", 95% CI [{factor * lo:+.2f}, {factor * hi:+.2f}]"
    how = (f"{TEST_WORDS.get(out.get('test'), out.get('test'))} over {out['n_units']} units ({out['unit']}), "
           f"p = {p:.3g} {CORRECTION_WORDS.get(correction, correction)}" if p is not None else "no p-value")
    if diff == 0:
        return f"**{name(a)}** and **{name(b)}** score the same on {out['metric']} ({how})."
    sig = p is not None and p < alpha
    verdict = "is significantly better than" if sig else "leads, but is not significantly better than"
    return f"**{name(ahead)}** {verdict} **{name(behind)}**: {amount}{ci} ({how})."
