"""Command line: `python -m blonde_core score ...` (also `blonde-studio score ...`).

Bad input exits with status 2 and one line on stderr naming the file and the
problem; never a traceback.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import sys

from .config import CATEGORY_NAMES, PRESETS, SMOOTH_DEFAULTS, ScoreConfig
from .errors import InputError

COMPANION_NAMES = ("Otem", "Utem", "BlonD-recall", "dBlonD-recall", "BlonD-dist", "dBlonD-dist", "RC")
PKG_CATEGORY = {"n-gram": "ngram", "ngram": "ngram", "tense": "tense", "pronoun": "pronoun",
                "entity": "entity", "dm": "dm"}


def parse_bool(v: str) -> bool:
    s = str(v).strip().lower()
    if s in ("1", "true", "yes", "y", "on"):
        return True
    if s in ("0", "false", "no", "n", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected yes/no or true/false, got '{v}'")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump on stderr noise
        raise InputError(f"{self.prog}: {message} (see --help)")


def add_corpus_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("-r", "--reference", nargs="+", metavar="FILE",
                   help="reference file(s), one segment per line")
    p.add_argument("-s", "--system", nargs="+", metavar="FILE",
                   help="system output file(s); a system's name is its file stem")
    p.add_argument("--input", metavar="FILE",
                   help="one structured file carrying references and systems: WMT XML, MQM TSV, "
                        "a TSV/CSV table or JSON Lines (doc_id, seg_id, text, system, ref... columns)")
    p.add_argument("--reference-systems", nargs="+", metavar="NAME", default=[],
                   help="with --input: which systems of the file are human references")
    p.add_argument("--docids", metavar="FILE",
                   help="one document id per line; consecutive equal ids form a document")
    p.add_argument("--blank-line-docs", action="store_true",
                   help="without --docids: a blank line ends a document (default: one document)")


def add_config_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("BlonDe settings (same flags as the blonde package)")
    g.add_argument("--preset", choices=list(PRESETS), default="blonde-0.1.4",
                   help="blonde-0.1.4 reproduces the published package (default); paper: uniform weights")
    g.add_argument("--granularity", choices=("sentence", "document"), default="sentence",
                   help="sentence: sentence i against sentence i (package); document: counts summed per "
                        "document before matching, for systems that split or merge sentences")
    g.add_argument("--aggregation", choices=("max", "sum"), default="max",
                   help="over several references: element-wise max (package) or sum")
    g.add_argument("-c", "--categories", nargs="+", metavar="CAT",
                   help="categories: tense pronoun entity dm n-gram (default: all)")
    g.add_argument("-aver", "--average-method", choices=("geometric", "arithmetic"), default="geometric")
    g.add_argument("-sm", "--smooth-method", choices=list(SMOOTH_DEFAULTS), default="exp",
                   help="n-gram smoothing (default exp)")
    g.add_argument("-sv", "--smooth-value", type=float, default=None,
                   help="value for floor (default 0.1) and add-k (default 1)")
    g.add_argument("-lc", "--lowercase", nargs="?", const=True, default=True, type=parse_bool,
                   metavar="yes|no", help="lowercase before annotation (default yes, as the package CLI)")
    g.add_argument("--case-sensitive", action="store_true", help="same as -lc no")
    g.add_argument("-w", "--override-weights", action="store_true",
                   help="use the -wt/-wp/-we/-wdm weights instead of the preset's")
    g.add_argument("-rw", "--reweight", action="store_true", help="normalise each category's weights to sum 1")
    g.add_argument("-wt", "--weight-tense", type=float, nargs=7, metavar="W",
                   help="VBD VBN VBP VBZ VBG VB MD")
    g.add_argument("-wp", "--weight-pronoun", type=float, nargs=4, metavar="W",
                   help="masculine feminine neuter epicene")
    g.add_argument("-we", "--weight-entity", type=float, nargs=2, metavar="W", help="PERSON NON-PERSON")
    g.add_argument("-wdm", "--weight-discourse-marker", type=float, nargs=5, metavar="W",
                   help="comparison cause conjunction asynchronous synchronous")
    g.add_argument("-wng", "--weight-ngram", type=float, nargs=4, metavar="W", help="orders 1 2 3 4")
    g.add_argument("--zero", choices=("floor", "delta"), default=None,
                   help="discourse categories with no match: floor at 1e-5 (package) or delta/total (paper)")
    pg = p.add_argument_group("BlonD+ (human annotation)")
    pg.add_argument("-p", "--plus", action="store_true", help="add the BlonD+ categories (needs -an)")
    pg.add_argument("-an", "--annotation", metavar="FILE", help="BlonD+ annotation file, one line per segment")
    pg.add_argument("-ner", "--ner-refined", metavar="FILE",
                    help="human-refined named entities, used instead of the automatic ones")
    pg.add_argument("-pc", "--plus-categories", nargs="+", default=["ambiguity", "ellipsis"],
                    help="BlonD+ categories (ambiguity ellipsis)")
    pg.add_argument("-pw", "--plus-weights", type=float, nargs="+", default=[1.0, 1.0])
    rg = p.add_argument_group("running")
    rg.add_argument("--no-cache", action="store_true", help="do not read or write the annotation cache")
    rg.add_argument("--cache-dir", metavar="DIR", help="annotation cache directory (default $BLONDE_CACHE_DIR "
                                                        "or the user cache directory)")
    rg.add_argument("-j", "--jobs", type=int, default=None, help="annotation processes (default: up to 2)")
    rg.add_argument("--lang", default="en", help="language pack name or JSON file (default en)")


def config_from_args(a) -> ScoreConfig:
    cats = CATEGORY_NAMES
    if a.categories:
        bad = [c for c in a.categories if c not in PKG_CATEGORY]
        if bad:
            raise InputError(f"unknown category {bad[0]!r}; choose from tense pronoun entity dm n-gram")
        cats = tuple(PKG_CATEGORY[c] for c in a.categories)
    given = {"tense": a.weight_tense, "pronoun": a.weight_pronoun, "entity": a.weight_entity,
             "dm": a.weight_discourse_marker, "ngram": a.weight_ngram}
    weights = None
    if any(v is not None for v in given.values()):
        if not a.override_weights:
            raise InputError("weights (-wt/-wp/-we/-wdm/-wng) only apply with -w/--override-weights, "
                             "as in the blonde package")
    if a.override_weights:
        weights = {k: tuple(v) for k, v in given.items() if v is not None}
    if a.reweight:
        from .config import PRESETS as _P

        base = {k: tuple(v) for k, v in _P[a.preset]["weights"].items()}
        base.update(weights or {})
        weights = {}
        for k, v in base.items():
            s = sum(v)
            weights[k] = tuple(x / s for x in v) if s else v
    pw = [1.0, 1.0]
    if a.plus:
        bad = [c for c in a.plus_categories if c not in ("ambiguity", "ellipsis")]
        if bad:
            raise InputError(f"unknown BlonD+ category {bad[0]!r}; choose from ambiguity ellipsis")
        if len(a.plus_weights) != len(a.plus_categories):
            raise InputError("-pw needs one weight per -pc category")
        d = dict(zip(a.plus_categories, a.plus_weights))
        pw = [d.get("ambiguity", 0.0), d.get("ellipsis", 0.0)]
    return ScoreConfig(preset=a.preset, categories=cats, weights=weights, plus_weights=tuple(pw),
                       average=a.average_method, smooth=a.smooth_method, smooth_value=a.smooth_value,
                       zero=a.zero, lowercase=False if a.case_sensitive else a.lowercase,
                       aggregation=a.aggregation, granularity=a.granularity, lang=a.lang)


def _progress(stream):
    state = {"last": -1}

    def cb(done, total):
        if not stream.isatty() or total == 0:
            return
        pct = int(100 * done / total)
        if pct != state["last"]:
            state["last"] = pct
            stream.write(f"\rannotating {done}/{total} distinct sentences ({pct}%)")
            if done >= total:
                stream.write("\n")
            stream.flush()
    return cb


def load_corpus(a):
    from .readers import plain_corpus

    if a.input:
        from .readers import read_structured

        if a.reference or a.system:
            raise InputError("give either --input or -r/-s, not both")
        return read_structured(a.input, a.reference_systems)
    if not a.reference:
        raise InputError("no reference given (-r FILE ... or --input FILE)")
    if not a.system:
        raise InputError("no system output given (-s FILE ...)")
    if not a.docids and not a.blank_line_docs:
        a.notes = ["no --docids and no --blank-line-docs: every file is one document"]
    return plain_corpus(a.reference, a.system, docids=a.docids,
                        boundaries="blank-lines" if a.blank_line_docs else None)


def evaluate(a):
    from .readers import read_lines
    from .study import Engine, Study

    cfg = config_from_args(a)
    corpus = load_corpus(a)
    annotation = ner = None
    if a.plus and not a.annotation:
        raise InputError("-p/--plus needs an annotation file (-an FILE)")
    if a.annotation:
        if not a.plus:
            raise InputError("-an is given without -p/--plus; add -p to compute BlonD+")
        annotation = read_lines(a.annotation, allow_empty=True)
    if a.ner_refined:
        ner = read_lines(a.ner_refined, allow_empty=True)
    study = Study(corpus, "command line", annotation=annotation, ner=ner,
                  annotation_file=a.annotation or "annotation", ner_file=a.ner_refined or "ner")
    engine = Engine(cache_mode="off" if a.no_cache else "disk", cache_dir=a.cache_dir, n_process=a.jobs,
                    pool="fork")
    return study.result(cfg, engine=engine, progress=_progress(sys.stderr))


def dump_json(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _wanted(a) -> list[str]:
    return [m.strip() for m in a.metrics.split(",") if m.strip()] if a.metrics else []


def standard_for(a, res):
    from .companion import COMPANIONS
    from .standard import STANDARD, StandardResult

    wanted = _wanted(a)
    bad = [m for m in wanted if m not in STANDARD and m not in COMPANIONS]
    if bad:
        raise InputError(f"unknown metric '{bad[0]}' (choose from {', '.join(STANDARD + COMPANIONS)}; LC needs "
                         "WordNet, which no registry package here ships)")
    wanted = [m for m in wanted if m in STANDARD]
    if not wanted:
        return None
    return StandardResult(res.corpus, wanted, res.config.granularity, cache=not a.no_cache, cache_dir=a.cache_dir)


def run_score(a) -> str:
    res = evaluate(a)
    data = res.to_dict(per_doc=a.per_doc)
    if a.per_feature:
        from .diagnostics import feature_breakdown

        def clean(v):
            return None if isinstance(v, float) and v != v else v
        for name in res.names:
            feats = {}
            for row in feature_breakdown(res, name):
                feats.setdefault(row["category"], {})[row["feature"]] = {
                    k: clean(row[k]) for k in ("R", "P", "F1", "matched", "system", "reference", "weight")}
            data["systems"][name]["features"] = feats
    std = standard_for(a, res)
    extra = {}
    if std is not None:
        data["metric_signatures"] = std.signatures
        extra = std.to_dict(per_doc=a.per_doc)
    comp = [m for m in _wanted(a) if m in COMPANION_NAMES]
    if comp:
        from .companion import LOWER_IS_BETTER, companion_scores

        for name, vals in companion_scores(res, metrics=comp, per_doc=a.per_doc, otem_n=a.otem_n,
                                           utem_n=a.utem_n, alpha=a.alpha).items():
            docs = vals.pop("documents", {})
            extra.setdefault(name, {}).update(vals)
            for d, v in docs.items():
                extra[name].setdefault("documents", {}).setdefault(d, {}).update(v)
        data["metric_directions"] = {m: "lower is better" if LOWER_IS_BETTER[m] else "higher is better"
                                     for m in comp}
        data["metric_settings"] = {"Otem": f"n<={a.otem_n}", "Utem": f"n<={a.utem_n}", "alpha": a.alpha,
                                   "scale": "0-100"}
    if std is not None:
        data.setdefault("metric_directions", {}).update(
            {m: "higher is better" if m != "TER" else "lower is better" for m in std.metrics})
    for name, vals in extra.items():
        docs = vals.pop("documents", {})
        data["systems"][name].update(vals)
        for d, v in docs.items():
            data["systems"][name]["documents"][d].update(v)
    if a.format == "json":
        return dump_json(data)
    if a.format == "csv":
        return to_csv(data)
    return to_text(data)


def run_compare(a) -> str:
    from .stats import compare

    from .standard import STANDARD, StandardResult

    res = evaluate(a)
    if len(res.names) < 2:
        raise InputError("compare needs at least two systems (-s A B ...)")
    std = None
    if a.metric in STANDARD:
        std = StandardResult(res.corpus, [a.metric], res.config.granularity, cache=not a.no_cache,
                             cache_dir=a.cache_dir)
    out = compare(res, metric=a.metric, test=a.test, unit=a.unit, n=a.n, seed=a.seed, standard=std)
    sig = f"{res.signature}|test:{a.test}|unit:{a.unit}|metric:{out['metric']}|seed:{a.seed}"
    if a.test in ("bootstrap", "ar"):
        sig += f"|n:{a.n or (1000 if a.test == 'bootstrap' else 10000)}"
    out = {"signature": sig, **out}
    if a.format == "json":
        return dump_json(out)
    lines = [f"{'A':<16} {'B':<16} {'diff':>9} {'95% CI':>21} {'p':>8} {'p_holm':>8} {'p_bh':>8}  units"]
    for q in out["pairs"]:
        ci = q["ci"]
        cis = "-" if ci[0] is None else f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"
        diff = q["corpus_diff"] if a.test in ("bootstrap", "ar") else q["mean_diff"]
        lines.append(f"{q['a'][:16]:<16} {q['b'][:16]:<16} {_num(diff, '+.4f'):>9} {cis:>21} "
                     f"{_num(q['p'], '.4f'):>8} {_num(q['p_holm'], '.4f'):>8} {_num(q['p_bh'], '.4f'):>8}  "
                     f"{q['n_units']}")
    lines += ["", f"{out['metric']} ({out['direction']}) per {a.unit}, {a.test}; diff = A - B "
              + ("(corpus level)" if a.test in ("bootstrap", "ar") else "(mean over units)"), sig]
    return "\n".join(lines) + "\n"


def _num(x, spec):
    return "-" if x is None else format(x, spec)


def run_correlate(a) -> str:
    from .human import read_human
    from .stats import correlate

    res = evaluate(a)
    from .standard import STANDARD, StandardResult

    human = read_human(a.human, a.score_column, not a.lower_is_better)
    metrics = [m.strip() for m in a.metrics.split(",") if m.strip()] if a.metrics else None
    from .companion import COMPANIONS

    std_names = [m for m in (metrics or STANDARD) if m in STANDARD]
    comp_names = [m for m in (metrics or COMPANIONS) if m in COMPANIONS]
    blonde_names = [m for m in metrics if m not in STANDARD and m not in COMPANIONS] if metrics else None
    from .companion import companion_scores
    from .stats import oriented_tables

    std = StandardResult(res.corpus, std_names, res.config.granularity, cache=not a.no_cache,
                         cache_dir=a.cache_dir) if std_names else None
    comp = companion_scores(res, metrics=comp_names, per_doc=True) if comp_names else None
    extra = oriented_tables(a.level, res.names, std, comp)
    out = correlate(res, human, a.level, blonde_names if metrics else None, extra or None)
    if a.format == "json":
        return dump_json(out)
    lines = [f"{'metric':<12} {'pearson':>8} {'95% CI':>18} {'spearman':>9} {'kendall':>8}"]
    for m, v in out["metrics"].items():
        ci = v["pearson_ci"]
        cis = "-" if ci[0] is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"
        lines.append(f"{m:<12} {_num(v['pearson'], '+.4f'):>8} {cis:>18} {_num(v['spearman'], '+.4f'):>9} "
                     f"{_num(v['kendall'], '+.4f'):>8}")
    lines += ["", f"{a.level} level, n = {out['n']}, human: {out['human']} ({out['human_direction']})",
              out["signature"]]
    return "\n".join(lines) + "\n"


def run_apt(a) -> str:
    from pathlib import Path

    from .apt import PAIRS, apt_cases, apt_score, auto_align, parse_links, tokenize
    from .readers import read_lines

    pair = PAIRS[a.pair]
    bad = [c for c in a.discard if c not in range(1, 7)]
    if bad:
        raise InputError(f"--discard takes case numbers 1-6, not {bad[0]}")
    src = read_lines(a.source)
    ref = read_lines(a.reference)
    if len(ref) != len(src):
        raise InputError(f"has {len(ref)} lines but the source has {len(src)}", file=a.reference)
    given = a.align_ref is not None
    if given != bool(a.align_system):
        raise InputError("give both --align-ref and --align-system (one per system), or neither for automatic "
                         "alignment")
    if given and len(a.align_system) != len(a.system):
        raise InputError(f"{len(a.align_system)} --align-system files for {len(a.system)} systems")
    if given:  # the links refer to whitespace tokens
        tok_src = [tokenize(x, "whitespace") for x in src]
        tok_ref = [tokenize(x, "whitespace") for x in ref]
    else:
        tok_src = [tokenize(x, pair.source_tokenizer, pair.source_pronouns) for x in src]
        tok_ref = [tokenize(x, pair.target_tokenizer) for x in ref]

    def links_of(path, n):
        lines = read_lines(path, allow_empty=True)
        if len(lines) != n:
            raise InputError(f"has {len(lines)} lines but the source has {n}", file=path)
        return [parse_links(line, path, i + 1) for i, line in enumerate(lines)]

    ref_links = links_of(a.align_ref, len(src)) if given else auto_align(tok_src, tok_ref)
    out = {"pair": a.pair, "weights": a.weights, "discard": a.discard,
           "alignment": "given" if given else "eflomal (forward links)", "heuristics": not a.no_heuristics,
           "systems": {}}
    for k, sys_file in enumerate(a.system):
        hyp = read_lines(sys_file)
        if len(hyp) != len(src):
            raise InputError(f"has {len(hyp)} lines but the source has {len(src)}", file=sys_file)
        tok_hyp = [tokenize(x, "whitespace" if given else pair.target_tokenizer) for x in hyp]
        hyp_links = links_of(a.align_system[k], len(src)) if given else auto_align(tok_src, tok_hyp)
        cases = apt_cases(tok_src, tok_ref, tok_hyp, ref_links, hyp_links, pair, not a.no_heuristics)
        counts = {str(c): sum(1 for x in cases if x["case"] == c) for c in range(1, 7)}
        score = apt_score({int(c): n for c, n in counts.items()}, a.weights, a.discard)
        out["systems"][Path(sys_file).stem] = {"APT": None if score != score else score, "cases": counts}
    if a.format == "json":
        return dump_json(out)
    lines = [f"{'system':<20} {'APT':>7}  cases 1..6 (identical, equivalent, different, candidate missing, "
             "reference missing, both missing)"]
    for name, v in out["systems"].items():
        lines.append(f"{name[:20]:<20} {_num(v['APT'], '.4f'):>7}  " + " ".join(str(v["cases"][str(c)]) for c in range(1, 7)))
    lines.append(f"pair {a.pair}; alignment: {out['alignment']}; weights {a.weights}; discard {a.discard or 'none'}")
    return "\n".join(lines) + "\n"


def run_human(a) -> str:
    from .human import read_human, read_mqm

    if a.mqm:
        hs = read_mqm(a.mqm).scores
    elif a.file:
        hs = read_human(a.file, a.score_column, not a.lower_is_better)
    else:
        raise InputError("give a judgments file or --mqm FILE")
    data = hs.to_dict()
    if a.format == "json":
        return dump_json(data)
    better = "higher" if hs.higher_is_better else "lower"
    lines = [f"{'system':<20} {hs.name:>10} {'segments':>9}"]
    for s, v in sorted(hs.system_scores.items(), key=lambda kv: kv[1], reverse=hs.higher_is_better):
        lines.append(f"{s[:20]:<20} {v:>10.3f} {hs.n_segments.get(s, 0):>9}")
    lines.append(f"({better} is better)")
    return "\n".join(lines) + "\n"


def _rows(data: dict):
    for name, entry in data["systems"].items():
        yield name, "", entry
        for doc, d in entry.get("documents", {}).items():
            yield name, doc, d


def _extras(first: dict) -> list[str]:
    """The extra metrics of a system entry (BLEU, Otem, ...): plain numbers."""
    return [k for k, v in first.items() if not isinstance(v, dict)]


def to_csv(data: dict) -> str:
    buf = io.StringIO()
    rows = list(_rows(data))
    header = ["system", "document"]
    first = rows[0][2]
    tops = [k for k in ("BlonDe", "BlonD-d", "BlonD+") if k in first]
    cats = list(first["categories"])
    extras = _extras(first)
    for k in tops + cats:
        header += [f"{k}.R", f"{k}.P", f"{k}.F1"]
    header += extras
    header.append("signature")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for name, doc, e in rows:
        row = [name, doc]
        for k in tops:
            row += ["" if e[k][m] is None else repr(e[k][m]) for m in ("R", "P", "F1")]
        for k in cats:
            v = e["categories"].get(k, {})
            row += ["" if v.get(m) is None else repr(v[m]) for m in ("R", "P", "F1")]
        row += ["" if e.get(k) is None else repr(e[k]) for k in extras]
        row.append(data["signature"])
        w.writerow(row)
    return buf.getvalue()


def _pct(x):
    return "   -  " if x is None else f"{100 * x:6.2f}"


def to_text(data: dict) -> str:
    out = []
    rows = list(_rows(data))
    first = rows[0][2]
    tops = [k for k in ("BlonDe", "BlonD-d", "BlonD+") if k in first]
    cats = list(first["categories"])
    extras = _extras(first)
    head = f"{'system':<20} {'document':<12} " + " ".join(f"{k + '.F1':>10}" for k in tops) + \
        " " + " ".join(f"{k:>8}" for k in cats) + "".join(f" {k[:13]:>13}" for k in extras)
    out.append(head)
    out.append("-" * len(head))
    for name, doc, e in rows:
        line = f"{name[:20]:<20} {doc[:12]:<12} " + " ".join(f"{_pct(e[k]['F1']):>10}" for k in tops)
        line += " " + " ".join(f"{_pct(e['categories'][k]['F1']):>8}" for k in cats)
        line += "".join(f" {'-' if e.get(k) is None else format(e[k], '.2f'):>13}" for k in extras)
        out.append(line)
    out.append("")
    out.append("Scores are F1 x 100; categories show F1 per category.")
    if extras:
        dirs = data.get("metric_directions", {})
        out.append("Other metrics on their own scales: " + ", ".join(
            f"{k} ({dirs.get(k, '')})" if dirs.get(k) else k for k in extras) + ".")
    out.append(data["signature"])
    return "\n".join(out) + "\n"


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="blonde-studio", description="BlonDe Studio: document-level MT evaluation.")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    s = sub.add_parser("score", help="BlonDe / BlonD-d / BlonD+ scores of systems against references")
    add_corpus_args(s)
    add_config_args(s)
    s.add_argument("--per-doc", action="store_true", help="also score every document on its own")
    s.add_argument("--per-feature", action="store_true",
                   help="add unweighted counts and P/R/F1 of every feature (tense tag, pronoun gender, entity group, "
                        "marker type, n-gram order) under 'features'")
    s.add_argument("--metrics", default="",
                   help="comma-separated extra metrics: BLEU,chrF,TER (sacrebleu), Otem,Utem (lower is better), "
                        "BlonD-recall,dBlonD-recall, BlonD-dist,dBlonD-dist (lower is better), RC")
    s.add_argument("--otem-n", type=int, default=2, help="Otem: largest n-gram order (default 2)")
    s.add_argument("--utem-n", type=int, default=4, help="Utem: largest n-gram order (default 4)")
    s.add_argument("--alpha", type=float, default=2.0, help="BlonD-dist: the alpha of the alpha-norm (default 2)")
    s.add_argument("--format", choices=("text", "json", "csv"), default="text")
    s.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    c = sub.add_parser("compare", help="paired significance tests between every pair of systems")
    add_corpus_args(c)
    add_config_args(c)
    c.add_argument("--test", choices=("ttest", "wilcoxon", "bootstrap", "ar"), default="ttest")
    c.add_argument("--unit", default="doc", help="doc (default), block:N (N consecutive segments) or segment")
    c.add_argument("--metric", default="BlonDe",
                   help="BlonDe, BlonD-d, BlonD+ or a category (tense, pronoun, entity, dm, 1-4), F1 unless "
                        "suffixed .R or .P; or Otem, Utem, BlonD-recall, dBlonD-recall, BlonD-dist, dBlonD-dist, "
                        "RC; or BLEU, chrF, TER (document units)")
    c.add_argument("--n", type=int, default=None, help="bootstrap resamples (1000) or AR trials (10000)")
    c.add_argument("--seed", type=int, default=12345)
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("-o", "--output", metavar="FILE")
    r = sub.add_parser("correlate", help="correlation of the metrics with human judgments")
    add_corpus_args(r)
    add_config_args(r)
    r.add_argument("--human", required=True, metavar="FILE", help="MQM TSV or a judgments table")
    r.add_argument("--score-column", help="judgments table: the score column (default: the only other column)")
    r.add_argument("--lower-is-better", action="store_true", help="judgments table: lower scores are better")
    r.add_argument("--level", choices=("system", "document"), default="system")
    r.add_argument("--metrics", help="comma-separated metric names (default: BlonDe, BlonD-d, every category)")
    r.add_argument("--format", choices=("text", "json"), default="text")
    r.add_argument("-o", "--output", metavar="FILE")
    h = sub.add_parser("human", help="human scores per system and document (MQM or a judgments table)")
    h.add_argument("file", nargs="?", help="judgments table (TSV/CSV) or MQM TSV")
    h.add_argument("--mqm", metavar="FILE", help="Google's MQM TSV")
    h.add_argument("--score-column")
    h.add_argument("--lower-is-better", action="store_true")
    h.add_argument("--format", choices=("text", "json"), default="text")
    h.add_argument("-o", "--output", metavar="FILE")
    ap = sub.add_parser("apt", help="APT: accuracy of pronoun translation (needs the source)")
    ap.add_argument("--source", required=True, metavar="FILE", help="source text, one segment per line")
    ap.add_argument("--reference", "-r", required=True, metavar="FILE")
    ap.add_argument("--system", "-s", required=True, nargs="+", metavar="FILE")
    ap.add_argument("--align-ref", metavar="FILE", help="source-reference links, Pharaoh 'i-j' per line")
    ap.add_argument("--align-system", nargs="+", metavar="FILE", help="source-system links, one file per system")
    ap.add_argument("--pair", choices=("en-fr", "zh-en"), required=True)
    ap.add_argument("--weights", type=float, nargs=6, default=[1.0, 0.5, 0, 0, 0, 0], metavar="W",
                    help="weights of cases 1-6 (default 1 0.5 0 0 0 0)")
    ap.add_argument("--discard", type=int, nargs="*", default=[], metavar="CASE", help="cases left out (e.g. 5 6)")
    ap.add_argument("--no-heuristics", action="store_true", help="plain alignments, without the paper's heuristics")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    ap.add_argument("-o", "--output", metavar="FILE")
    from . import __version__
    p.add_argument("-V", "--version", action="version", version=f"%(prog)s {__version__}")
    return p


def main(argv=None) -> int:
    parser = build_parser()
    try:
        a = parser.parse_args(argv)
        if a.command is None:
            parser.print_help()
            return 0
        runners = {"score": run_score, "compare": run_compare, "correlate": run_correlate, "human": run_human,
                   "apt": run_apt}
        text = runners[a.command](a)
        if getattr(a, "output", None):
            try:
                with open(a.output, "w", encoding="utf-8", newline="") as f:
                    f.write(text)
            except OSError as exc:
                raise InputError(f"cannot write output ({exc.strerror})", file=a.output) from None
        else:
            sys.stdout.write(text)
        for note in getattr(a, "notes", []):  # after success only: an error stays one line
            print(f"blonde-studio: note: {note}", file=sys.stderr)
        return 0
    except InputError as exc:
        print(f"blonde-studio: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("blonde-studio: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        print(f"blonde-studio: internal error: {type(exc).__name__}: {exc} "
              "(please report this with the command you ran)", file=sys.stderr)
        return 3
