"""The commands: score, compare, correlate, apt, human (each returns its output text)."""
from __future__ import annotations

import csv
import json
import sys

from blonde_core.errors import InputError
from .output import _num, _progress, dump_json, rows_text, to_csv, to_text
from .parser import COMPANION_NAMES, config_from_args


def load_corpus(a):
    """The corpus of -r/-s or --input; a -r value that is no file but the name of a loaded
    text picks the one reference that scores the systems (Corpus.scored_against)."""
    from pathlib import Path

    from blonde_core.io.readers import plain_corpus

    refs = list(a.reference or [])
    names = [x for x in refs if not Path(x).exists() and "/" not in x and "\\" not in x and "." not in x]
    files = [x for x in refs if x not in names]
    if len(names) > 1:
        raise InputError(f"-r names two texts to score against ({names[0]}, {names[1]}); give one")
    if a.input:
        from blonde_core.io.structured import read_structured

        if files or a.system:
            raise InputError("give either --input or -r/-s, not both (with --input, -r NAME picks the reference)")
        corpus = read_structured(a.input, a.reference_systems)
    else:
        if not files:
            raise InputError("no reference file given (-r FILE ... or --input FILE)")
        if not a.system:
            raise InputError("no system output given (-s FILE ...)")
        if not a.docids and not a.blank_line_docs:
            a.notes = ["no --docids and no --blank-line-docs: every file is one document"]
        corpus = plain_corpus(files, a.system, docids=a.docids,
                              boundaries="blank-lines" if a.blank_line_docs else None)
    if names:
        corpus = corpus.scored_against(names[0])
    return corpus


def evaluate(a):
    from blonde_core.io.readers import read_lines
    from blonde_core.study import Engine, Study

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


def _wanted(a) -> list[str]:
    return [m.strip() for m in a.metrics.split(",") if m.strip()] if a.metrics else []


def standard_for(a, res):
    from blonde_core.analysis.companion import COMPANIONS
    from blonde_core.analysis.standard import STANDARD, StandardResult

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
    if a.ci is not None and a.ci < 1:
        raise InputError("--ci needs a number of resamples of at least 1 (the dashboard uses 1000)")
    if a.entity_strings and a.format == "csv":
        raise InputError("--entity-strings is a table of its own: use --format json (or text for the ten most "
                         "missed per system)")
    res = evaluate(a)
    data = res.to_dict(per_doc=a.per_doc)
    if a.per_feature:
        from blonde_core.analysis.diagnostics import feature_breakdown
        from blonde_core.numbers import nan_to_none

        for name in res.names:
            feats = {}
            for row in feature_breakdown(res, name):
                feats.setdefault(row["category"], {})[row["feature"]] = {
                    k: nan_to_none(row[k]) for k in ("R", "P", "F1", "matched", "system", "reference", "weight")}
            data["systems"][name]["features"] = feats
    if a.entity_strings:
        from blonde_core.analysis.diagnostics import entity_strings

        for name in res.names:
            data["systems"][name]["entity_strings"] = entity_strings(res, name)
    std = standard_for(a, res)
    extra = {}
    if std is not None:
        data["metric_signatures"] = std.signatures
        extra = std.to_dict(per_doc=a.per_doc)
    comp = [m for m in _wanted(a) if m in COMPANION_NAMES]
    if comp:
        from blonde_core.analysis.companion import LOWER_IS_BETTER, companion_scores

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
    if a.ci is not None:
        data["leaderboard"] = leaderboard(res, std, a.ci, a.seed)
    if a.overlap or a.human:
        if not (a.overlap and a.human):
            raise InputError("--overlap and --human go together (score ... --human MQM.tsv --overlap)")
        from blonde_core.io.human import read_human
        from blonde_core.analysis.overlap import error_overlap

        human = read_human(a.human, corpus=res.corpus)
        if not human.error_spans:
            raise InputError("marks no error spans (<v>...</v>): --overlap needs an MQM file", file=a.human)
        docs, ref = a.overlap_documents, a.overlap_reference
        bad = [x for x in docs or [] if x not in res.corpus.doc_ids]
        if bad:
            raise InputError(f"--overlap-documents: no document {bad[0]!r} (there are {len(res.corpus.doc_ids)})")
        if ref is not None and ref not in res.corpus.references:
            raise InputError(f"--overlap-reference: no reference {ref!r} (references: "
                             f"{', '.join(res.corpus.references)})")
        data["overlap"] = error_overlap(res, human, reference=ref, doc_ids=docs)
        if docs:
            data["overlap"]["documents"] = list(docs)
        if a.format != "json":
            return _overlap_text(data["overlap"])
    if a.format == "json":
        return dump_json(data)
    if a.format == "csv":
        return to_csv(data)
    return to_text(data)


def leaderboard(res, std, n: int, seed: int) -> dict:
    """`score --ci`: the Overview's intervals (BlonDe family over the policy's unit, sacrebleu's
    metrics over documents) and significance clusters, from the same core functions."""
    from blonde_core.analysis.stats import board, standard_intervals

    b = board(res, n=n, seed=seed)
    intervals = dict(b.pop("intervals"))
    if std is not None:
        intervals.update(standard_intervals(std, std.metrics, res.names, n, seed))
    b["intervals"] = {m: {s: v["ci"] for s, v in per.items()} for m, per in intervals.items()}
    b["scale"] = "BlonDe, BlonD-d, BlonD+: 0-1 as the scores above; BLEU, chrF, TER: their own 0-100 scales"
    return b


def _overlap_text(ov: dict) -> str:
    lines = [f"{'system':<18} {'category':<9} {'unmatched':>9} {'overlapped':>10} {'missed':>7} {'flagged':>8}  "
             "MQM categories at unmatched spans"]
    for s, v in ov["systems"].items():
        for c, x in v["categories"].items():
            top = ", ".join(f"{k} {n}" for k, n in list(x["mqm_categories"].items())[:3])
            lines.append(f"{s[:18]:<18} {c:<9} {x['unmatched']:>9} {x['overlapped']:>10} {x['missed']:>7} "
                         f"{x['missed_in_flagged_segments']:>8}  {top}")
        lines.append(f"{'':<18} human error spans {v['human_error_spans']}, in segments where BlonDe saw no "
                     f"discourse mismatch {v['human_error_spans_where_blonde_saw_no_discourse_mismatch']}")
    if ov.get("documents"):
        lines.append(f"documents: {', '.join(ov['documents'])}")
    lines.append(f"segments compared {ov['segments_compared']}, text differs {ov['segments_text_differs']}, "
                 f"not rated {ov['segments_without_rating']}; overlapped = unmatched system spans overlapping a "
                 "human error span; flagged = missed reference spans in segments with a human error")
    return "\n".join(lines) + "\n"


def run_compare(a) -> str:
    from blonde_core.analysis.stats import compare

    from blonde_core.analysis.standard import STANDARD, StandardResult

    res = evaluate(a)
    if len(res.names) < 2:
        raise InputError("compare needs at least two systems (-s A B ...)")
    std = None
    if a.metric in STANDARD:
        std = StandardResult(res.corpus, [a.metric], res.config.granularity, cache=not a.no_cache,
                             cache_dir=a.cache_dir)
    out = compare(res, metric=a.metric, test=a.test, unit=a.unit, n=a.n, seed=a.seed, standard=std)
    if a.format == "json":
        return dump_json(out)
    from blonde_core.analysis.stats import points_factor

    scale = points_factor(a.metric)  # in points, as `score` prints them and the pages show them (JSON: the core's)
    lines = [f"{'A':<16} {'B':<16} {'diff':>9} {'95% CI':>21} {'p':>8} {'p_holm':>8} {'p_bh':>8}  units"]
    for q in out["pairs"]:
        ci = q["ci"]
        cis = "-" if ci[0] is None else f"[{scale * ci[0]:+.2f}, {scale * ci[1]:+.2f}]"
        diff = q["corpus_diff"] if a.test in ("bootstrap", "ar") else q["mean_diff"]
        diff = None if diff is None else scale * diff
        lines.append(f"{q['a'][:16]:<16} {q['b'][:16]:<16} {_num(diff, '+.2f'):>9} {cis:>21} "
                     f"{_num(q['p'], '.4f'):>8} {_num(q['p_holm'], '.4f'):>8} {_num(q['p_bh'], '.4f'):>8}  "
                     f"{q['n_units']}")
    if out["unit_reason"]:
        lines += ["", f"unit: {out['unit']} ({out['unit_reason']})"]
    if out["warning"]:
        lines += [f"warning: {out['warning']}"]
    lines += ["", f"{out['metric']} ({out['direction']}) per {out['unit']}, {a.test}; diff = A - B "
              + ("(corpus level)" if a.test in ("bootstrap", "ar") else "(mean over units)")
              + (", in points (F1 x 100; 0-1 in --format json)" if scale == 100 else ", on the metric's own scale"),
              out["signature"]]
    return "\n".join(lines) + "\n"


def run_contrast(a) -> str:
    """Two systems side by side, as the Contrast page shows them."""
    from blonde_core.analysis.contrast import contrast, discourse_categories, document_contrast

    res = evaluate(a)
    x, y = a.pair
    for n in (x, y):
        if n not in res.names:
            raise InputError(f"--pair: no system named {n!r} (systems: {', '.join(res.names)})")
    if x == y:
        raise InputError("--pair needs two different systems")
    if not discourse_categories(res):
        raise InputError("contrast needs a discourse category (tense, pronoun, entity or dm in -c)")
    out = contrast(res, x, y)
    if a.document is not None:
        docs = res.corpus.doc_ids
        if a.document not in docs:
            raise InputError(f"--document: no document {a.document!r} (there are {len(docs)}: "
                             f"{', '.join(docs[:5])}{', ...' if len(docs) > 5 else ''})")
        out["document"] = {"id": a.document, "categories": document_contrast(res, docs.index(a.document), x, y)}
    if a.format == "json":
        return dump_json(out)
    top = a.top
    lines = [f"A = {x}, B = {y}: F1 in points over the corpus"
             + ("; sentences where A / B makes fewer errors (missed + extra spans, as the score counts them)"
                if out["sentence_level"] else ""), ""]
    lines += rows_text(out["categories"])
    lines += ["", f"Documents where A and B differ most ({min(top, len(out['documents']))} of "
              f"{len(out['documents'])}; --top N for more, --format json for all):"]
    lines += rows_text(out["documents"][:top])
    if out["sentence_level"]:
        lines += ["", f"Sentences where A and B make different numbers of errors ({min(top, len(out['sentences']))} "
                  f"of {len(out['sentences'])}; errors A - B > 0: A makes more):"]
        lines += rows_text(out["sentences"][:top])
    else:
        lines += ["", "Document-level matching: no per-sentence counts."]
    if "document" in out:
        lines += ["", f"Document {out['document']['id']}, category by category:"]
        lines += rows_text(out["document"]["categories"])
    lines += ["", out["signature"]]
    return "\n".join(lines) + "\n"


def run_correlate(a) -> str:
    from blonde_core.analysis.companion import COMPANIONS, companion_scores
    from blonde_core.io.human import read_human
    from blonde_core.analysis.standard import STANDARD, StandardResult
    from blonde_core.analysis.stats import correlate, oriented_tables

    res = evaluate(a)
    pairs = dict(m.split("=", 1) for m in a.map if "=" in m)
    bad = [m for m in a.map if "=" not in m]
    if bad:
        raise InputError(f"--map takes FILE_NAME=NAME pairs, not '{bad[0]}'")
    human = read_human(a.human, a.score_column, not a.lower_is_better, corpus=res.corpus, mapping=pairs)
    if human.mapping:
        unmatched = sorted(k for k, v in human.mapping.items() if v is None)
        a.notes = getattr(a, "notes", []) + [
            "names of the judgments file: " + ", ".join(f"{k} -> {v}" for k, v in sorted(human.mapping.items())
                                                        if v is not None)
            + (f"; not matched (left out): {', '.join(unmatched)}" if unmatched else "")]
    metrics = [m.strip() for m in a.metrics.split(",") if m.strip()] if a.metrics else None
    std_names = [m for m in (metrics or STANDARD) if m in STANDARD]
    comp_names = [m for m in (metrics or COMPANIONS) if m in COMPANIONS]
    blonde_names = [m for m in metrics if m not in STANDARD and m not in COMPANIONS] if metrics else None
    std = StandardResult(res.corpus, std_names, res.config.granularity, cache=not a.no_cache,
                         cache_dir=a.cache_dir) if std_names else None
    comp = companion_scores(res, metrics=comp_names, per_doc=True) if comp_names else None
    extra = oriented_tables(a.level, res.names, std, comp)
    extra_docs = oriented_tables("document", res.names, std, comp) if a.spa or a.compare else None
    out = correlate(res, human, a.level, blonde_names if metrics else None, extra or None, grouping=a.grouping,
                    exclude=a.exclude, spa=a.spa, permutations=a.permutations, seed=a.seed, bootstrap=a.bootstrap,
                    compare=tuple(a.compare) if a.compare else None, extra_docs=extra_docs)
    if human.mapping:
        out["human_mapping"] = human.mapping
        out["human_coverage"] = human.coverage
    if a.format == "json":
        return dump_json(out)
    system = a.level == "system"

    def ci(v, fmt="+.3f"):
        return "-" if not v or v[0] is None else f"[{v[0]:{fmt}}, {v[1]:{fmt}}]"

    # (header, width, cell of a metric's values)
    cols = [("pearson", 8, lambda v: _num(v["pearson"], "+.4f")), ("95% CI", 18, lambda v: ci(v["pearson_ci"])),
            ("spearman", 9, lambda v: _num(v["spearman"], "+.4f")), ("kendall", 8, lambda v: _num(v["kendall"], "+.4f"))]
    if system:
        cols.append(("95% CI", 18, lambda v: ci(v.get("kendall_ci"))))
        if a.accuracy:
            cols += [("accuracy", 8, lambda v: _num(v.get("accuracy"), ".4f")),
                     ("95% CI", 16, lambda v: ci(v.get("accuracy_ci"), ".3f"))]
        if a.spa:
            cols += [("SPA", 7, lambda v: _num(v.get("spa"), ".4f")),
                     ("95% CI", 16, lambda v: ci(v.get("spa_ci"), ".3f"))]
    lines = [f"{'metric':<12}" + "".join(f" {h:>{w}}" for h, w, _ in cols)]
    for m, v in out["metrics"].items():
        lines.append(f"{m:<12}" + "".join(f" {fn(v):>{w}}" for _, w, fn in cols))
    used = (f"{out['n_systems']} systems" + (f" (excluded: {', '.join(out['excluded'])})" if out["excluded"] else "")
            + f", {out['cells_rated']} of {out['cells']} (system, document) cells rated")
    lines += ["", f"{a.level} level" + ("" if system else f", grouping {a.grouping}") + f", n = {out['n']}; {used}; "
              f"scored against {', '.join(res.corpus.references)}; human: {out['human']} ({out['human_direction']})"]
    if system:
        lines.append(f"intervals: {next(iter(out['metrics'].values()))['ci_method']} for the BlonDe family, "
                     "Fisher-z for the others")
    if out.get("compare"):
        c = out["compare"]
        w = c["williams"]
        lines.append(f"{c['b']} vs {c['a']}: PERM-BOTH p = {_num(c['perm_both']['p_b_better'], '.4f')} "
                     f"(delta {_num(c['perm_both']['delta_b_minus_a'], '+.4f')}, {c['perm_both']['resamples']} "
                     "resamples)" + (f"; Williams p = {_num(w['p_b_better'], '.4f')}" if w else ""))
    lines.append(out["signature"])
    return "\n".join(lines) + "\n"


def run_apt(a) -> str:
    from pathlib import Path

    from blonde_core.analysis.apt import PAIRS, apt_cases, apt_score, auto_align, case_counts, parse_links, tokenize
    from blonde_core.io.readers import read_lines

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
        counts = {str(c): n for c, n in case_counts(cases).items()}
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
    from blonde_core.io.human import read_human, read_mqm

    if a.mqm:
        hs = read_mqm(a.mqm).scores
    elif a.file:
        hs = read_human(a.file, a.score_column, not a.lower_is_better)
    else:
        raise InputError("give a judgments file or --mqm FILE")
    from ..analysis.stats import judgments_summary, rater_agreement

    data = judgments_summary(hs)
    if a.by:
        by = [b.strip() for b in a.by.split(",") if b.strip()]
        rows = hs.mqm_slices(by)
        data = {"by": by, "slices": rows, "rater_agreement": rater_agreement(hs) if hs.rater_scores else []}
        if a.format != "json":
            lines = ["  ".join(f"{b:<16}" for b in by) + f"  {'errors':>7} {'penalty':>9} {'rated':>6} {'MQM':>8}"]
            lines += ["  ".join(f"{str(r[b])[:16]:<16}" for b in by)
                      + f"  {r['errors']:>7} {r['penalty']:>9.1f} {r['rated']:>6} {_num(r['MQM'], '.3f'):>8}"
                      for r in rows]
            lines.append("")
            lines += [f"kappa {x['a']} / {x['b']}: {x['kappa']:.3f} over {x['segments']} segments (linear "
                      f"{x['kappa_linear']:.3f}, quadratic {x['kappa_quadratic']:.3f})" for x in data["rater_agreement"]]
            if not data["rater_agreement"]:
                lines.append("no two raters share a segment: no agreement to compute")
            return "\n".join(lines) + "\n"
        return dump_json(data)
    if a.spans:
        if not hs.error_spans:
            raise InputError("the file marks no error spans (<v>...</v>): --spans needs an MQM file")
        data = {"name": hs.name, "spans": [{"system": k[0], "doc": k[1], "seg_id": k[2], **sp}
                                           for k, v in hs.error_spans.items() for sp in v]}
        if a.format != "json":
            lines = [f"{'system':<16} {'doc':<10} {'seg':>5} {'rater':<8} {'severity':<8} {'category':<28} text"]
            lines += [f"{r['system'][:16]:<16} {r['doc'][:10]:<10} {r['seg_id']:>5} {r['rater'][:8]:<8} "
                      f"{r['severity'][:8]:<8} {r['category'][:28]:<28} {r['side']}: {r['text']}"
                      for r in data["spans"]]
            return "\n".join(lines) + "\n"
    if a.format == "json":
        return dump_json(data)
    better = "higher" if hs.higher_is_better else "lower"
    lines = [f"{'system':<20} {hs.name:>10} {'segments':>9}"]
    for s, v in sorted(hs.system_scores.items(), key=lambda kv: kv[1], reverse=hs.higher_is_better):
        lines.append(f"{s[:20]:<20} {v:>10.3f} {hs.n_segments.get(s, 0):>9}")
    lines.append(f"({better} is better)")
    return "\n".join(lines) + "\n"
