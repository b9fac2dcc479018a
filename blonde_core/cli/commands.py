"""The commands: score, compare, contrast, correlate, apt, human (each returns its output text).

Every number comes from a Study (blonde_core/study.py), the door the dashboard's pages use
too: the same caches, workers and policies; this module reads arguments and writes text."""
from __future__ import annotations

import copy
import os
import sys

from blonde_core.study import CATALOG, Engine, InputError, Study
from blonde_core import study as door  # its tools imported when first called

from .output import _num, _progress, dump_json, rows_text, to_csv, to_text
from .parser import config_from_args


DEFAULT_MAX_LINE_CHARS = 10_000  # the server's default (studio/state.py upload_limits, docs/server.md)


def max_line_chars(a) -> int:
    """The longest line (segment) a run reads: --max-line-chars, else $BLONDE_MAX_LINE_CHARS, else the server's
    default; an unreadable variable is refused, never ignored."""
    if getattr(a, "max_line_chars", None):
        return a.max_line_chars
    env = os.environ.get("BLONDE_MAX_LINE_CHARS", "").strip()
    if not env:
        return DEFAULT_MAX_LINE_CHARS
    if not env.isdigit() or int(env) < 1:
        raise InputError(f"BLONDE_MAX_LINE_CHARS={env!r} is not a whole number of characters (at least 1)",
                         code=InputError.Codes.SETTING)
    return int(env)


def line_limit_said(n: int) -> str:
    """Whose limit a line passed and how to raise it (the message of Corpus.check_line_length)."""
    whose = "the server's limit; " if n == DEFAULT_MAX_LINE_CHARS else ""
    return (f"the command line reads at most {n:,} characters per line ({whose}--max-line-chars N or "
            "BLONDE_MAX_LINE_CHARS=N raises it)")


def check_line_limit(a, study: Study) -> None:
    """Every text of the study within the run's line limit (max_line_chars), else an InputError naming the
    limit, the file and the line - before any analyser sees the text (spaCy refuses a million characters)."""
    n = max_line_chars(a)
    study.check_line_length(n, line_limit_said(n))


def run_engine(a) -> Engine:
    """The run's engine: its cache, processes and scheduler as the flags say."""
    cap = os.environ.get("BLONDE_CACHE_MAX_MB", "").strip()
    # one run: its results are kept without measuring them (results_mb None; a server caps its memo)
    return Engine(cache_mode="off" if a.no_cache else "disk", cache_dir=a.cache_dir, n_process=a.jobs,
                  pool="fork", scheduler=a.scheduler, disk_mb=int(cap) if cap.isdigit() else None, results_mb=None)


def load_study(a, human=None, **human_kw) -> Study:
    """The Study of -r/-s (or --input) with the run's engine; a -r value that is no file but
    the name of a loaded text picks the one reference that scores the systems
    (Study.scored_against); human: a judgments file read against the texts."""
    from pathlib import Path

    refs = list(a.reference or [])
    names = [x for x in refs if not Path(x).exists() and "/" not in x and "\\" not in x and "." not in x]
    files = [x for x in refs if x not in names]
    if len(names) > 1:
        raise InputError(f"-r names two texts to score against ({names[0]}, {names[1]}); give one", code=InputError.Codes.NAMES)
    if a.plus and not a.annotation:
        raise InputError("-p/--plus needs an annotation file (-an FILE)", code=InputError.Codes.OPTIONS)
    if a.annotation and not a.plus:
        raise InputError("-an is given without -p/--plus; add -p to compute BlonD+", code=InputError.Codes.OPTIONS)
    engine = run_engine(a)
    lps = list(a.lp or [])
    if len(lps) > 1:
        raise InputError(f"--lp given {len(lps)} times; one language pair (several only with correlate --task)",
                         code=InputError.Codes.OPTIONS)
    if a.wmt_dir:
        if files or a.system or a.input:
            raise InputError("give either --wmt-dir or -r/-s/--input, not both (with --wmt-dir, -r NAME picks the "
                             "reference)", code=InputError.Codes.OPTIONS)
        study = Study.from_wmt(a.wmt_dir, lps[0] if lps else None, a.gold, a.metric_lower_is_better,
                               origin="command line", engine=engine,
                               esa_common=not getattr(a, "esa_every_judged", False))
        # what of the test set is not scored (WMT24's canary line), said on stderr and in JSON (test_set_left_out)
        a.test_set_left_out = list(study.messages.get("wmt", {}).get("left out", []))
        a.notes = getattr(a, "notes", []) + [f"left out: {x}" for x in a.test_set_left_out]
        # damage in the release, contained (a system read with bad bytes replaced, or set aside): stderr and JSON
        a.damage = study.damage()
        a.notes += [f"warning: damaged: {x}" for x in a.damage]
        a.warnings = getattr(a, "warnings", []) + [f"damaged: {x}" for x in a.damage]
        a.notes += [f"warning: {x}" for x in study.messages.get("resegment", [])]
    elif a.lp or a.gold:
        raise InputError("--lp and --gold go with --wmt-dir", code=InputError.Codes.OPTIONS)
    elif a.input:
        if files or a.system:
            raise InputError("give either --input or -r/-s, not both (with --input, -r NAME picks the reference)", code=InputError.Codes.OPTIONS)
        study = Study.from_structured(a.input, a.reference_systems, origin="command line", engine=engine)
    else:
        if not files:
            raise InputError("no reference file given (-r FILE ... or --input FILE)", code=InputError.Codes.OPTIONS)
        if not a.system:
            raise InputError("no system output given (-s FILE ...)", code=InputError.Codes.OPTIONS)
        if not a.docids and not a.blank_line_docs:
            a.notes = ["no --docids and no --blank-line-docs: every file is one document"]
        study = Study.from_files(files, a.system, docids=a.docids, blank_line_docs=a.blank_line_docs,
                                 system_docids=getattr(a, "system_docids", None), origin="command line",
                                 engine=engine)
        for name, gone in study.missing_documents.items():
            a.notes = getattr(a, "notes", []) + [
                f"system '{name}' has no document {', '.join(repr(d) for d in gone[:5])}"
                f"{' ...' if len(gone) > 5 else ''} of the reference's ({len(gone)} in all): scored as empty"]
    check_line_limit(a, study)
    study = study.with_files(annotation=a.annotation, ner=a.ner_refined, human=human,
                             human_common=not getattr(a, "esa_every_judged", False), **human_kw)
    if getattr(a, "esa_every_judged", False) and (study.human is None or "common" not in study.human.details):
        a.notes = getattr(a, "notes", []) + ["--esa-every-judged changes nothing: the loaded human scores are not "
                                             "ESA judgments"]
    study = study.with_metric_files(a.metric_scores, a.metric_lower_is_better)
    if names:
        study = study.scored_against(names[0])
    if getattr(a, "domain", None):
        n_all = len(study.doc_ids)
        study = study.in_domain(a.domain)
        a.notes = getattr(a, "notes", []) + [
            f"domain '{a.domain}': {len(study.doc_ids)} of {n_all} documents, {study.reference_segments} "
            "segments"] + study.messages.get("domain", [])
    if getattr(a, "resegment", False):
        study = study.resegmented()
        moved = study.resegmentation()
        n_docs = sum(len(v) for v in moved.values())
        a.notes = getattr(a, "notes", []) + [
            f"re-segmented {n_docs} document(s) of {len(moved)} system(s) into the reference's segments" if moved
            else "--resegment: every system document already has the reference's segments; nothing re-segmented"]
        for msg in study.messages.get("resegment", []):
            a.notes.append(f"warning: {msg}")
            a.warnings = getattr(a, "warnings", []) + [msg]
        for name, docs in moved.items():
            om = sum(len(v["omitted"]) for v in docs.values())
            if om:
                a.notes.append(f"system '{name}' left out {om} reference segment(s) (in "
                               f"{sum(1 for v in docs.values() if v['omitted'])} document(s); JSON: resegmented)")
    return study


def pack_case(a, cfg):
    """The settings with the pack's lowercasing when -lc was not given (as written for the packs whose analysers
    read case), said in a note."""
    if getattr(a, "lowercase", True) is None and not getattr(a, "case_sensitive", False) and cfg.has_pack:
        if not Study.pack_lowercase(cfg.lang) and cfg.lowercase:
            cfg = cfg.with_(lowercase=False)
            a.notes = getattr(a, "notes", []) + [f"{cfg.lang}: text annotated as written (the pack's default; "
                                                 "-lc yes lowercases it, as the blonde package does)"]
    return cfg


def resolve_config(a, study: Study):
    """The run's settings: without --lang, the target language guessed from the reference (said on stderr
    when it is not English; a language without a pack included, then the BlonDe family is not computed),
    and a warning when a pack is forced onto texts of another language (it travels with every number:
    the notes on stderr, `warnings` in JSON)."""
    cfg = config_from_args(a)
    a.warnings = getattr(a, "warnings", [])
    if a.lang is None:
        g = study.guess_language()
        if g["language"] is not None and g["language"] != cfg.lang:
            cfg = cfg.with_(lang=g["language"])
            a.notes = getattr(a, "notes", []) + [f"target language guessed from the reference: {g['language']} "
                                                 f"({g['name']}; --lang to choose another)"]
    cfg = pack_case(a, cfg)
    said = study.pack_notes(cfg)
    a.notes = getattr(a, "notes", []) + [f"{cfg.lang}: {n}" for n in said["notes"]]
    for c in said["caveats"]:
        a.warnings.append(f"{cfg.lang}: {c}")
        a.notes.append(f"warning: {cfg.lang}: {c}")
    marks = Study.tagging_marks(cfg)
    if marks:
        a.warnings.extend(marks.values())
        a.notes.append(f"warning: {cfg.lang} tagging below the bar (marked †): "
                       + door.marked_figures(Study.tagging_report(cfg)) + " (docs/languages.md#tagging-accuracy)")
    note = study.language_note(cfg)
    if note:
        a.warnings.append(note)
        a.notes = getattr(a, "notes", []) + [f"warning: {note} (--lang {study.guess_language()['language']})"]
    for msg in [*study.reference_warnings().values(), *study.off_target_warnings().values()]:
        a.warnings.append(msg)
        a.notes = getattr(a, "notes", []) + [f"warning: {msg}"]
    return cfg


def evaluate(a, study: Study | None = None):
    """The scores of the run's settings (an Analysis: the Result and what is asked of it); an InputError
    (NO_PACK) naming the language when its target language has no pack."""
    study = study or load_study(a)
    cfg = resolve_config(a, study)
    if not cfg.has_pack:
        raise InputError(study.no_pack(cfg) + " (score --metrics chrF,BLEU gives those)", code=InputError.Codes.NO_PACK)
    return study.analysis(cfg, progress=_progress(sys.stderr))


def _wanted(a) -> list[str]:
    return [m.strip() for m in a.metrics.split(",") if m.strip()] if a.metrics else []


def _further(metrics) -> list[str]:
    """The metrics of a further family (analysis/families.py: neither BlonDe's, sacrebleu's nor the companions')."""
    return [m for m in metrics or () if m not in CATALOG.standard and m not in CATALOG.companions
            and getattr(CATALOG.metric_family(m), "score", False)]


def _metric_names(a) -> tuple[list[str], list[str], list[str]]:
    """--metrics split into sacrebleu's, the companion metrics and a further family's, checked: every metric of a
    family `score --metrics` takes (analysis/families.py)."""
    wanted = _wanted(a)
    known = [m for f in CATALOG.families if f.score for m in f.metrics]
    bad = [m for m in wanted if m not in known]
    if bad:
        raise InputError(f"unknown metric '{bad[0]}' (choose from {', '.join(known)}; "
                         "LC needs WordNet, which no registry package here ships)", code=InputError.Codes.SETTING)
    return [m for m in wanted if m in CATALOG.standard], [m for m in wanted if m in CATALOG.companions], \
        _further(wanted)


def run_release(a) -> str:
    """score --wmt-dir DIR --lp all (or several --lp): systems x pairs (analysis/release.py), each pair in its own
    language pack with BlonDe's significance clusters (--ci N resamples, default 1000; --seed), chrF and the
    human score, and the across-pair summary; text, CSV, JSON or LaTeX."""
    return _release_out(a, run_release_data(a))


def run_release_data(a) -> dict:
    """The release's table (Study.release) for score and report of several --lp."""
    if a.lang:
        raise InputError("--lang with several pairs: each pair is scored in its own language (leave --lang out)",
                         code=InputError.Codes.OPTIONS)
    if a.reference or a.system or a.input or a.human or getattr(a, "overlap", None) or getattr(a, "error_spans", None):
        raise InputError("several --lp (or --lp all) take a WMT folder alone: no -r/-s/--input/--human/--overlap/"
                         "--error-spans",
                         code=InputError.Codes.OPTIONS)
    lps = Study.release_pairs(a.wmt_dir, a.lp, "--lp")

    bars: dict = {}

    def progress(lp, k, total):
        print(f"blonde-studio: pair {k + 1} of {total}: {lp}", file=sys.stderr, flush=True)

    def work(lp, done, of):  # each pair's annotation, with its time left (on a terminal)
        bars.setdefault(lp, _progress(sys.stderr))(done, of)

    data = Study.release(a.wmt_dir, lps, lambda st: resolve_config(a, st), a.ci or 1000, a.seed, a.gold,
                         run_engine(a), progress=progress, work=work, apart=_pair_apart(a))
    a.notes = getattr(a, "notes", []) + [f"warning: {lp}: damaged: {x}" for lp, p in data["pairs"].items()
                                         for x in p.get("damage") or []]  # in JSON too, per pair
    return data


def _pair_apart(a):
    """Each pair of the release in a child process of its own (analysis/release_run.py: the release's peak memory
    is then one pair's, as `score --lp P` alone), its notes and warnings brought back with its row; None (the
    pairs in this process, each unloaded after its row) with a scheduler, whose workers hold the analysers, or
    where the platform cannot fork."""
    if a.scheduler or not door.forks():
        return None

    def apart(compute, on_message):
        def child(tell):  # resolve_config (cfg_of) says the pair's language and caveats on `a`, in the child
            return compute(tell), getattr(a, "notes", []), getattr(a, "warnings", [])

        block, a.notes, a.warnings = door.pair_apart(child, on_message)
        return block
    return apart


def _release_out(a, data) -> str:
    if a.format == "json":
        return dump_json(data)
    if a.format == "latex":
        return door.release_latex(data)
    if a.format == "csv":
        rows = door.release_rows(data)
        return door.csv_text([list(r.values()) for r in rows], header=list(rows[0]) if rows else ["system"])
    nw = max([20] + [len(s) for s in data["systems"]])
    head = f"{'system':<{nw}} {'pairs':>5} {'mean rank':>9} {'top c.':>6} " + " ".join(f"{lp:>12}" for lp in data["pairs"])
    out = [head, "-" * len(head)]
    for s, v in data["systems"].items():
        cells = []
        for lp in data["pairs"]:
            r = v["per_pair"].get(lp)
            if r is None:  # not entered
                cells.append(f"{'':>12}")
                continue
            f1 = "-" if r["BlonDe"] is None else f"{100 * r['BlonDe']:.2f}"
            cells.append(f"{f1 + ('' if r['cluster'] is None else ' (' + str(r['cluster']) + ')'):>12}")
        mr = "-" if v["mean_rank"] is None else f"{v['mean_rank']:.2f}"
        out.append(f"{s:<{nw}} {v['pairs_entered']:>5} {mr:>9} {v['top_cluster']:>6} " + " ".join(cells))
    out.append("")
    out.extend(door.release_notes(data))
    return "\n".join(out) + "\n"


def _several_pairs(a) -> bool:
    return bool(getattr(a, "wmt_dir", None) and a.lp and (len(a.lp) > 1 or a.lp == ["all"]))


def run_score(a) -> str:
    if _several_pairs(a):
        return run_release(a)
    if a.format == "latex":
        raise InputError("score --format latex is the release table of several --lp (one pair's leaderboard in LaTeX: "
                         "the Overview's download, or `report`)", code=InputError.Codes.OPTIONS)
    if a.entity_strings and a.format == "csv":
        raise InputError("--entity-strings is a table of its own: use --format json (or text for the ten most "
                         "missed per system)", code=InputError.Codes.OPTIONS)
    if a.overlap and not a.human:
        raise InputError("--overlap needs --human (score ... --human MQM.tsv --overlap)", code=InputError.Codes.OPTIONS)
    study = load_study(a, human=a.human)
    std_names, comp, more = _metric_names(a)
    cfg = resolve_config(a, study)
    if not cfg.has_pack:
        return score_without_pack(a, study, cfg, std_names, comp)
    res = study.analysis(cfg, progress=_progress(sys.stderr))
    data = res.to_dict(per_doc=a.per_doc)
    data["tagging"] = Study.tagging_report(cfg)
    if getattr(a, "test_set_left_out", None):
        data["test_set_left_out"] = a.test_set_left_out
    if getattr(a, "damage", None):
        data["damage"] = list(a.damage)
    if a.warnings:
        data["warnings"] = list(a.warnings)
    if a.per_feature:
        for name in res.names:
            feats = {}
            for row in res.feature_breakdown(name):
                feats.setdefault(row["category"], {})[row["feature"]] = {
                    k: CATALOG.plain(row[k]) for k in ("R", "P", "F1", "matched", "system", "reference", "weight")}
            data["systems"][name]["features"] = feats
    if a.entity_strings:
        for name in res.names:
            data["systems"][name]["entity_strings"] = res.entity_strings(name)
    std = study.standards(cfg.granularity, std_names)
    extra = {}
    if std is not None:
        data["metric_signatures"] = std.signatures
        extra = std.to_dict(per_doc=a.per_doc)
    lacking = [m for m in comp if m not in CATALOG.companions_for(cfg.lang)]
    if lacking:
        raise InputError(f"{lacking[0]} is not available for the '{cfg.lang}' language pack (the early BlonD needs its "
                         "'early' weights, RC its 'rc' word lists)", code=InputError.Codes.LANGUAGE)
    if comp:
        scores = study.companions(cfg, otem_n=a.otem_n, utem_n=a.utem_n, alpha=a.alpha)
        for name, vals in scores.items():
            extra.setdefault(name, {}).update({m: vals[m] for m in comp})
            if a.per_doc:
                for d, v in vals.get("documents", {}).items():
                    extra[name].setdefault("documents", {}).setdefault(d, {}).update({m: v[m] for m in comp})
        data["metric_directions"] = {m: CATALOG.direction(m)
                                     for m in comp}
        data["metric_settings"] = {"Otem": f"n<={a.otem_n}", "Utem": f"n<={a.utem_n}", "alpha": a.alpha,
                                   "scale": "0-100"}
    for f in CATALOG.families:  # a further family's metrics, from its scores hook
        ms = [m for m in more if m in f.metrics]
        if ms:
            for name, vals in f.scores(study, cfg, tuple(ms)).items():
                extra.setdefault(name, {}).update({m: vals[m] for m in ms})
                if a.per_doc:
                    for d, v in vals.get("documents", {}).items():
                        extra[name].setdefault("documents", {}).setdefault(d, {}).update({m: v[m] for m in ms})
            data.setdefault("metric_directions", {}).update({m: CATALOG.direction(m) for m in ms})
    if std is not None:
        data.setdefault("metric_directions", {}).update(
            {m: CATALOG.direction(m) for m in std.metrics})
    external = study.external_scores(res.names, per_doc=a.per_doc, beside=std.metrics if std is not None else ())
    if external:
        data["external_metrics"] = external["metrics"]
        data.setdefault("metric_directions", {}).update(external["directions"])
        for name, vals in external["systems"].items():
            vals = dict(vals)
            for d, v in vals.pop("documents", {}).items():  # beside the other metrics' documents, not instead
                extra.setdefault(name, {}).setdefault("documents", {}).setdefault(d, {}).update(v)
            extra.setdefault(name, {}).update(vals)
    human_col = study.human_column(res.names)
    if human_col:
        data["human"] = human_col
        for name, v in human_col["systems"].items():
            extra.setdefault(name, {}).update({f"human:{human_col['name']}": v["score"],
                                               "human segments": v["segments"]})
        # whether the humans agree with BlonDe's leader (Home and the Overview say the same sentence)
        data["human_verdict"] = study.human_verdict(cfg, a.ci or 1000, a.seed)
    for name, vals in copy.deepcopy(extra).items():
        docs = vals.pop("documents", {})
        data["systems"][name].update(vals)
        for d, v in docs.items():
            data["systems"][name]["documents"][d].update(v)
    if study.domain:
        data["domain"] = domain_block(study)
    moved = study.resegmentation()
    if moved:  # what each re-segmented system left out or added, per document (1-based reference segments)
        data["resegmentation"] = {"method": study.seg_method,
                                  "omitted": "reference segments that received nothing, or under a fifth of "
                                             "their tokens", "added": "system text over twice its reference "
                                                                      "segment's length plus 10 tokens"}
        for name, docs in moved.items():
            data["systems"][name]["resegmented"] = docs
    if a.ci is not None:
        data["leaderboard"] = leaderboard(study, cfg, std_names, a.ci, a.seed, more)
    span_text = error_spans_block(a, study, data)
    if a.overlap:
        if not study.human.error_spans:
            raise InputError("marks no error spans: --overlap needs MQM (<v>...</v>) or ESA error spans",
                             file=", ".join(a.human), code=InputError.Codes.JUDGMENTS)
        docs, ref = a.overlap_documents, a.overlap_reference
        bad = [x for x in docs or [] if x not in res.doc_ids]
        if bad:
            raise InputError(f"--overlap-documents: no document {bad[0]!r} (there are {len(res.doc_ids)})", code=InputError.Codes.NAMES)
        if ref is not None and ref not in res.references:
            raise InputError(f"--overlap-reference: no reference {ref!r} (references: "
                             f"{', '.join(res.references)})", code=InputError.Codes.NAMES)
        data["overlap"] = res.error_overlap(reference=ref, doc_ids=docs)
        if docs:
            data["overlap"]["documents"] = list(docs)
        if a.format != "json":
            return _overlap_text(data["overlap"])
    thin = res.thin_evidence()
    if a.format == "json":
        if thin:
            data["thin_evidence"] = thin
        return dump_json(data)
    if a.format == "csv":
        if thin:
            a.notes = getattr(a, "notes", []) + [thin["message"]]
        if data.get("human_verdict"):
            a.notes = getattr(a, "notes", []) + [data["human_verdict"]["sentence"]]
        return to_csv(data)
    return to_text(data) + (f"warning: {thin['message']}\n" if thin else "") + span_text


def error_spans_block(a, study: Study, data: dict) -> str:
    """score --error-spans FILE...: each metric's error spans against the human's (Study.metric_spans_vs_human) under
    `error_spans_f1` in JSON; the text lines that say the same ("" without the flag)."""
    if not getattr(a, "error_spans", None):
        return ""
    got = study.metric_spans_vs_human(a.error_spans)
    data["error_spans_f1"] = got
    out = ["", "Error spans against the human's (character-level, WMT25's scoring):"]
    for r in got:
        f = r["span_f1"]
        out.append(f"{r['metric']}: F1 {f['f1']:.3f} (P {f['precision']:.3f}, R {f['recall']:.3f}) on "
                   f"{r['segments_compared']} judged segments; not in the file {r['segments_not_in_file']}, text "
                   f"differs {r['segments_text_differs']}")
        out += [f"  {s:<24} F1 {v['f1']:.3f}  P {v['precision']:.3f}  R {v['recall']:.3f}  ({v['segments']} segments)"
                for s, v in r["systems"].items()]
    return "\n".join(out) + "\n"


def domain_block(study: Study) -> dict:
    """What a study restricted to one domain covers (JSON `domain`)."""
    return {"name": study.domain, "documents": len(study.doc_ids), "segments": study.reference_segments,
            "notes": list(study.messages.get("domain", []))}


def score_without_pack(a, study: Study, cfg, std_names: list[str], comp: list[str]) -> str:
    """`score` for a target language without a pack: no BlonDe-family number anywhere, the one sentence
    that says so first, and what needs no pack (sacrebleu's metrics with the language's tokenizer, metrics
    computed elsewhere, the human column).  Nothing of that asked for: exit 2 (NO_PACK)."""
    msg = study.no_pack(cfg)
    names = study.systems
    external = study.external_scores(names, per_doc=a.per_doc, beside=std_names)
    human_col = study.human_column(names)
    # nothing asked for that needs no pack
    if not std_names and not a.metric_scores and not a.human and not getattr(a, "error_spans", None):
        raise InputError(msg + "; ask for them with --metrics chrF,BLEU", code=InputError.Codes.NO_PACK)
    if a.per_feature or a.entity_strings or a.overlap:
        raise InputError(msg + "; --per-feature, --entity-strings and --overlap need the BlonDe family",
                         code=InputError.Codes.NO_PACK)
    warnings = [msg] + ([f"not computed without a pack: {', '.join(comp)}"] if comp else []) + list(a.warnings)
    g = study.guess_language()
    data: dict = {"blonde": None, "language": {k: g[k] for k in ("language", "name", "script", "confidence", "method",
                                                                "pack", "packs")},
                  "warnings": warnings, "systems": {s: {} for s in names}}
    if getattr(a, "test_set_left_out", None):
        data["test_set_left_out"] = a.test_set_left_out
    if getattr(a, "damage", None):
        data["damage"] = list(a.damage)
    if study.domain:
        data["domain"] = domain_block(study)
    std = study.standards(cfg.granularity, std_names)
    if std is not None:
        data["metric_signatures"] = std.signatures
        data["metric_directions"] = {m: CATALOG.direction(m)
                                     for m in std.metrics}
        for name, vals in std.to_dict(per_doc=a.per_doc).items():
            data["systems"][name].update(vals)
    if external:
        data["external_metrics"] = external["metrics"]
        data.setdefault("metric_directions", {}).update(external["directions"])
        for name, vals in external["systems"].items():
            docs = vals.pop("documents", None)
            data["systems"][name].update(vals)
            for d, v in (docs or {}).items():
                data["systems"][name].setdefault("documents", {}).setdefault(d, {}).update(v)
    if human_col:
        data["human"] = human_col
        for name, v in human_col["systems"].items():
            data["systems"][name].update({f"human:{human_col['name']}": v["score"], "human segments": v["segments"]})
    span_text = error_spans_block(a, study, data)
    data["signature"] = " ; ".join((data.get("metric_signatures") or {}).values()) or study.signature(cfg)
    if a.ci is not None and std is not None:
        ints = study.standard_intervals(cfg.granularity, std_names, a.ci, a.seed)
        data["leaderboard"] = {"intervals": {m: {s: v["ci"] for s, v in per.items()} for m, per in ints.items()},
                               "resamples": a.ci, "seed": a.seed, "unit": "doc",
                               "note": "95% bootstrap intervals over documents; no significance clusters without "
                                       "BlonDe (compare tests pairs)"}
    if a.format == "json":
        return dump_json(data)
    metrics = [k for k in next(iter(data["systems"].values()), {}) if k != "documents"]
    rows = []
    for name, e in data["systems"].items():
        rows.append({"system": name, "document": "", **{m: e.get(m) for m in metrics}})
        for d, v in e.get("documents", {}).items():
            rows.append({"system": name, "document": d, **{m: v.get(m) for m in metrics}})
    if a.format == "csv":
        a.notes = getattr(a, "notes", []) + [f"warning: {x}" for x in warnings]
        return door.csv_text([[r["system"], r["document"], *["" if r[m] is None else repr(r[m]) for m in metrics],
                                data["signature"]] for r in rows], ["system", "document", *metrics, "signature"])
    out = [f"warning: {x}" for x in warnings] + [""]
    out += rows_text([{k: v for k, v in r.items() if k != "document" or a.per_doc} for r in rows])
    dirs = data.get("metric_directions", {})
    out += ["", "Metrics on their own scales: " + ", ".join(f"{k} ({dirs[k]})" if k in dirs else k for k in metrics)
            + "."]
    if data.get("leaderboard"):
        lb = data["leaderboard"]
        out += ["", f"95% intervals ({lb['resamples']} bootstrap resamples over documents, seed {lb['seed']}):"]
        out += rows_text([{"system": s, **{f"{m} 95% CI": "-" if per.get(s, [None])[0] is None else
                                           f"[{per[s][0]:.2f}, {per[s][1]:.2f}]" for m, per in lb["intervals"].items()}}
                          for s in names])
    out += ["", *(data.get("metric_signatures") or {}).values()]
    return "\n".join(out) + "\n" + span_text


def leaderboard(study: Study, cfg, std_names: list[str], n: int, seed: int, more=()) -> dict:
    """`score --ci`: the Overview's intervals (BlonDe family over the policy's unit, sacrebleu's
    metrics over documents) and significance clusters, from the same Study answers."""
    return copy.deepcopy(study.leaderboard(cfg, n, seed, std_names, metrics=more).json_block())


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
    study = load_study(a)
    cfg = resolve_config(a, study)
    # a language without a pack: sacrebleu's metrics and those computed elsewhere are tested on the texts alone
    texts_only = not cfg.has_pack and study.tested_without_pack(a.metric)
    res = study.scores_or_texts(cfg) if texts_only else evaluate(a, study)
    if len(res.names) < 2:
        raise InputError("compare needs at least two systems (-s A B ...)", code=InputError.Codes.TOO_LITTLE)
    std = [a.metric] if a.metric in CATALOG.standard else []
    out = copy.deepcopy(study.compare(cfg if texts_only else res.config, metric=a.metric, test=a.test, unit=a.unit,
                                      n=a.n, seed=a.seed, std_metrics=std))
    if texts_only:
        a.notes = getattr(a, "notes", []) + [study.no_pack(cfg) + f" - {a.metric} needs none, so it is tested"]
    thin = None if texts_only else res.thin_evidence()
    if thin:
        out["thin_evidence"] = thin
    if a.format == "json":
        return dump_json(out)
    scale = CATALOG.points_factor(a.metric)  # in points, as `score` prints them and the pages show them (JSON: the core's)
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
    if thin and CATALOG.points_factor(a.metric) == 100:
        lines += [f"warning: {thin['message']}"]
    if out.get("absent_warning"):
        lines += [f"warning: {out['absent_warning']}",
                  "the same test with absent categories left out of the mean (--skip-absent; JSON: absent_left_out):"]
        for q in out["absent_left_out"]["pairs"]:
            ci = q["ci"]
            cis = "-" if ci[0] is None else f"[{scale * ci[0]:+.2f}, {scale * ci[1]:+.2f}]"
            lines.append(f"{q['a'][:16]:<16} {q['b'][:16]:<16} {_num(scale * q['corpus_diff'], '+.2f'):>9} {cis:>21} "
                         f"{_num(q['p'], '.4f'):>8} {_num(q['p_holm'], '.4f'):>8} {_num(q['p_bh'], '.4f'):>8}")
    lines += ["", f"{out['metric']} ({out['direction']}) per {out['unit']}, {a.test}; diff = A - B "
              + ("(corpus level)" if a.test in ("bootstrap", "ar") else "(mean over units)")
              + (", in points (F1 x 100; 0-1 in --format json)" if scale == 100 else ", on the metric's own scale"),
              out["signature"]]
    return "\n".join(lines) + "\n"


def run_contrast(a) -> str:
    """Two systems side by side, as the Contrast page shows them."""
    study = load_study(a)
    res = evaluate(a, study)
    x, y = a.pair
    for n in (x, y):
        if n not in res.names:
            raise InputError(f"--pair: no system named {n!r} (systems: {', '.join(res.names)})", code=InputError.Codes.NAMES)
    if x == y:
        raise InputError("--pair needs two different systems", code=InputError.Codes.OPTIONS)
    if not res.discourse_categories():
        raise InputError("contrast needs a discourse category (tense, pronoun, entity or dm in -c)", code=InputError.Codes.TOO_LITTLE)
    out = res.contrast(x, y)
    if a.document is not None:
        docs = res.doc_ids
        if a.document not in docs:
            raise InputError(f"--document: no document {a.document!r} (there are {len(docs)}: "
                             f"{', '.join(docs[:5])}{', ...' if len(docs) > 5 else ''})", code=InputError.Codes.NAMES)
        out["document"] = {"id": a.document, "categories": res.document_contrast(docs.index(a.document), x, y)}
    if a.disagree:
        out["disagreement"] = study.disagreement(res.config, x, y, a.disagree)
    if a.buckets:
        out["buckets"] = res.buckets(x, y, top=max(a.top, 20))
    thin = res.thin_evidence()
    if thin:
        out["thin_evidence"] = thin
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
    if "disagreement" in out:
        dis = out["disagreement"]
        for unit in ("documents", "sentences"):
            if unit in dis:
                part = dis[unit]
                lines += ["", f"{unit.capitalize()} where BlonDe and {dis['metric']} disagree most about A and B "
                          f"({part.get('opposite', 0)} point opposite ways; {part['left_out']} without a value):"]
                lines += rows_text(part["rows"][:top])
    if "buckets" in out:
        bk = out["buckets"]
        lines += ["", f"BlonDe by reference sentence length (points; each bucket's sentences scored together):"]
        lines += rows_text(bk["length"])
        lines += ["", "Sentences per band of sentence-level BlonDe:"] + rows_text(bk["score"])
        lines += ["", "Sentence-level BlonDe, A - B:"] + rows_text(bk["score_difference"])
        lines += ["", f"Word accuracy (F-measure, points) by the word's frequency in {bk['reference']}:"]
        lines += rows_text(bk["frequency"])
        lines += ["", f"Reference n-grams A matches more often than B ({bk['ngrams_differing']} differ; ratio = "
                  "(matched A + 1) / (matched B + 1)):"] + rows_text(bk["ngrams_a_better"][:top])
        lines += ["", "Reference n-grams B matches more often than A:"] + rows_text(bk["ngrams_b_better"][:top])
        lines += ["", "Discourse features and entity strings matched more by one than the other:"]
        lines += rows_text(bk["spans"][:top])
    if thin:
        lines += ["", f"warning: {thin['message']}"]
    lines += ["", out["signature"]]
    return "\n".join(lines) + "\n"


def run_correlate(a) -> str:
    if a.task:
        return run_task(a)
    if a.format == "latex":
        raise InputError("--format latex goes with --task (the task's tables)", code=InputError.Codes.OPTIONS)
    pairs = dict(m.split("=", 1) for m in a.map if "=" in m)
    bad = [m for m in a.map if "=" not in m]
    if bad:
        raise InputError(f"--map takes FILE_NAME=NAME pairs, not '{bad[0]}'", code=InputError.Codes.MALFORMED)
    if not a.human and not a.wmt_dir:
        raise InputError("correlate needs human judgments: --human FILE, or a --wmt-dir folder with human-scores",
                         code=InputError.Codes.OPTIONS)
    study = load_study(a, human=a.human, human_higher_is_better=not a.lower_is_better, score_column=a.score_column,
                       human_mapping=pairs)
    if study.human is None:
        raise InputError(f"has no human-scores/{study.wmt[1]}.NAME.LEVEL.score: give --human FILE",
                         file=study.wmt[0], code=InputError.Codes.JUDGMENTS)
    cfg = resolve_config(a, study)
    if cfg.has_pack:
        res = study.analysis(cfg, progress=_progress(sys.stderr))
    else:  # no pack: the metrics that need none (sacrebleu's, computed elsewhere) against the judgments
        res = study.scores_or_texts(cfg)
        a.notes = getattr(a, "notes", []) + [f"warning: {study.no_pack(cfg)}"]
    human = study.human
    if human.mapping:
        unmatched = sorted(k for k, v in human.mapping.items() if v is None)
        a.notes = getattr(a, "notes", []) + [
            "names of the judgments file: " + ", ".join(f"{k} -> {v}" for k, v in sorted(human.mapping.items())
                                                        if v is not None)
            + (f"; not matched (left out): {', '.join(unmatched)}" if unmatched else "")]
    metrics = [m.strip() for m in a.metrics.split(",") if m.strip()] if a.metrics else None
    std_names = [m for m in metrics if m in CATALOG.standard] if metrics else list(study.default_standard_metrics())
    if metrics is None and "TER" not in std_names:
        a.notes = getattr(a, "notes", []) + [study.ter_left_out() or "TER left out"]
    comp_names = [m for m in metrics if m in CATALOG.companions] if metrics else list(CATALOG.companions)
    more = _further(metrics)
    blonde_names = [m for m in metrics if m not in CATALOG.standard and m not in CATALOG.companions
                    and m not in more and m.lstrip("-") not in study.external] if metrics else None
    if not cfg.has_pack:
        comp_names, blonde_names = [], None
        if a.level == "segment" and cfg.granularity != "sentence" and \
                not study.external_segments(study.systems):
            raise InputError(study.no_pack(cfg) + "; at segment level without a pack only sacrebleu's metrics (at "
                             "sentence-level matching) and metrics computed elsewhere with segment scores are "
                             "correlated", code=InputError.Codes.NO_PACK)
    out, _ = study.correlate(cfg, a.level, std_names, grouping=a.grouping, exclude=a.exclude, spa=a.spa,
                             permutations=a.permutations, seed=a.seed, bootstrap=a.bootstrap,
                             compare=tuple(a.compare) if a.compare else None, metrics=blonde_names,
                             companions=comp_names, spa_seed=a.spa_seed, more=more)
    out = copy.deepcopy(out)
    thin = res.thin_evidence() if cfg.has_pack else None
    if thin:
        out["thin_evidence"] = thin
    warnings = ([] if cfg.has_pack else [study.no_pack(cfg)]) + list(a.warnings)
    if warnings:
        out["warnings"] = warnings
    if human.details:
        out["human_details"] = human.details
    if human.mapping:
        out["human_mapping"] = human.mapping
        out["human_coverage"] = human.coverage
    two = study.annotator_agreement()
    if two:  # two raters of the same segments: WMT25's span F1 between them, and their scores' correlation
        out["annotator_agreement"] = two
        f1 = two["span_f1"]
        a.notes = getattr(a, "notes", []) + [
            f"two raters on {two['items']} segments: error-span F1 {f1['f1']:.3f} (P {f1['precision']:.3f}, R "
            f"{f1['recall']:.3f}; WMT25's character-level scoring), scores Pearson "
            + ("-" if two["pearson"] is None else f"{two['pearson']:.3f}") + " (JSON: annotator_agreement)"]
    if a.format == "json":
        return dump_json(out)
    system = a.level == "system"
    # (header, width, cell of a metric's values): the level's statistics as the table declares them (statistics.py)
    shown = door.meta_statistics("cli", a.level, out["metrics"], [f for f, on in vars(a).items() if on is True])
    cols = []
    for s in shown:
        cols.append((s.short, s.width, lambda v, s=s: s.text(v.get(s.key))))
        if s.interval:
            cols.append(("95% CI", s.interval_width, lambda v, s=s: s.interval_text(v.get(s.interval))))
        cols += [(b.header, b.width, b.text) for b in s.beside]
    lines = [f"{'metric':<12}" + "".join(f" {h:>{w}}" for h, w, _ in cols)]
    for m, v in out["metrics"].items():
        lines.append(f"{m:<12}" + "".join(f" {fn(v):>{w}}" for _, w, fn in cols))
    used = (f"{out['n_systems']} systems" + (f" (excluded: {', '.join(out['excluded'])})" if out["excluded"] else "")
            + f", {out['cells_rated']} of {out['cells']} (system, document) cells rated")
    lines += ["", f"{a.level} level" + ("" if system else f", grouping {a.grouping}") + f", n = {out['n']}; {used}; "
              f"scored against {', '.join(study.references)}; human: {out['human']} ({out['human_direction']})"]
    if system:
        lines.append(f"intervals: {next(iter(out['metrics'].values()))['ci_method']} (the BlonDe family); Fisher z "
                     "for the others' correlations")
    lines += [s.note(out) for s in shown if s.note]
    if out.get("compare"):
        c = out["compare"]
        w = c["williams"]
        lines.append(f"{c['b']} vs {c['a']}: PERM-BOTH p = {_num(c['perm_both']['p_b_better'], '.4f')} "
                     f"(delta {_num(c['perm_both']['delta_b_minus_a'], '+.4f')}, {c['perm_both']['resamples']} "
                     "resamples)" + (f"; Williams p = {_num(w['p_b_better'], '.4f')}" if w else ""))
    if thin:
        lines.append(f"warning: {thin['message']}")
    lines += [f"warning: {w}" for w in out.get("warnings", [])]
    lines.append(out["signature"])
    return "\n".join(lines) + "\n"


def run_task(a) -> str:
    """correlate --task: the WMT metrics task's ranking of metrics over one or several language pairs."""
    from .output import task_latex, task_text

    if a.level != "system" or a.grouping != "none" or a.spa or a.compare:
        raise InputError("--task sets its own levels, grouping and statistics; leave out --level, --grouping, --spa "
                         "and --compare", code=InputError.Codes.OPTIONS)
    metrics = [m.strip() for m in a.metrics.split(",") if m.strip()] if a.metrics else None
    std = [m for m in metrics if m in CATALOG.standard] if metrics else ["chrF", "BLEU"]
    notes = []
    if a.wmt_dir:
        given = list(a.lp or [])
        lps = given or Study.wmt_pairs(a.wmt_dir)
    else:
        given, lps = [], [None]
    tables, pairs = [], {}
    for lp in lps:
        a.lp = [lp] if lp else None
        study = load_study(a, human=a.human, human_higher_is_better=not a.lower_is_better,
                           score_column=a.score_column)
        if study.human is None:
            if given or not a.wmt_dir:
                raise InputError(f"has no human scores for {lp}: give --human FILE or leave --lp {lp} out",
                                 file=a.wmt_dir, code=InputError.Codes.JUDGMENTS)
            notes.append(f"{lp}: no human scores, left out")
            continue
        a.warnings = []
        cfg = resolve_config(a, study)
        blonde = [m for m in metrics if m not in CATALOG.standard and m.lstrip("-") not in study.external] \
            if metrics else None
        t = study.task_tables(cfg, std, blonde, a.exclude, system_level=a.task == "wmt23")
        if not t.lp:
            t.lp = lp or "texts"
        tables.append(t)
        pairs[t.lp] = {"signature": study.scores_or_texts(cfg).signature, "human": study.human.name,
                       "test_set_left_out": list(getattr(a, "test_set_left_out", [])),
                       "language": study.guess_language()["language"], "warnings": list(a.warnings) + t.notes}
    if not tables:
        raise InputError("no language pair with human scores to rank metrics on", file=a.wmt_dir,
                         code=InputError.Codes.JUDGMENTS)
    asked = metrics or sorted({m for t in tables for m in t.metric_seg})
    out = Study.rank_metrics(tables, a.task, a.draws, a.permutations, a.spa_seed, a.seed)
    for m, per in out["left_out"].items():  # the gold defines the cells: a metric missing one is not ranked
        notes.append(f"{m} left out of the ranking (every metric is evaluated on every rated cell, as mt-metrics-eval "
                     "does): " + "; ".join(f"{lp}: {v['why']}" for lp, v in per.items())
                     + (" (a segment without a discourse span has no BlonD-d; correlate --level segment evaluates "
                        "it on the segments it scores)" if m.startswith("BlonD-d") else ""))
    dropped = [m for m in asked if m not in out["metrics"] and m not in out["left_out"]]
    if dropped:
        notes.append(f"left out (not scored in every pair): {', '.join(dropped)}")
    for lp, v in pairs.items():
        out["pairs"][lp].update(v)
    out["signature"] = (f"task:{a.task}|pairs:{','.join(out['pairs'])}|draws:{a.draws}|block:100|spa:{a.permutations}"
                        f"|spa_seed:{a.spa_seed}|seed:{a.seed}" + (f"|exclude:{','.join(a.exclude)}" if a.exclude else "")
                        + (f"|domain:{a.domain}" if getattr(a, "domain", None) else ""))
    out["notes"] = notes
    a.notes = getattr(a, "notes", []) + notes
    if a.format == "json":
        return dump_json(out)
    if a.format == "latex":
        return task_latex(out)
    return task_text(out)


def run_report(a) -> str:
    """One HTML file with the Overview's numbers and more (Study.report_html); of several --lp, the release table."""
    if _several_pairs(a):
        a.format, a.lang = "json", getattr(a, "lang", None)
        return door.release_html(run_release_data(a))
    study = load_study(a, human=a.human)
    std = [m.strip() for m in a.metrics.split(",") if m.strip()]
    bad = [m for m in std if m not in CATALOG.standard]
    if bad:
        raise InputError(f"unknown metric '{bad[0]}' (the report takes {', '.join(CATALOG.standard)})",
                         code=InputError.Codes.SETTING)
    res = evaluate(a, study)
    return study.report_html(res.config, n=a.ci, seed=a.seed, std_metrics=std)


def run_apt(a) -> str:
    out = door.apt_of_files(source=a.source, reference=a.reference, systems=a.system, pair=a.pair,
                             weights=a.weights, discard=a.discard, heuristics=not a.no_heuristics,
                             align_ref=a.align_ref, align_systems=a.align_system)
    if a.format == "json":
        return dump_json(out)
    nw = max([20] + [len(n) for n in out["systems"]])
    lines = [f"{'system':<{nw}} {'APT':>7}  cases 1..6 (identical, equivalent, different, candidate missing, "
             "reference missing, both missing)"]
    for name, v in out["systems"].items():
        lines.append(f"{name:<{nw}} {_num(v['APT'], '.4f'):>7}  " + " ".join(str(v["cases"][str(c)]) for c in range(1, 7)))
    lines.append(f"pair {a.pair}; alignment: {out['alignment']}; weights {a.weights}; discard {a.discard or 'none'}")
    return "\n".join(lines) + "\n"


def _where(items) -> dict:
    """--where FIELD=V1,V2 (repeatable) -> {field: [values]}."""
    out: dict = {}
    for item in items or []:
        f, eq, vals = item.partition("=")
        if not eq or not f.strip() or not vals.strip():
            raise InputError(f"--where '{item}' is not FIELD=VALUE[,VALUE...]", code=InputError.Codes.SETTING)
        out.setdefault(f.strip(), []).extend(v.strip() for v in vals.split(",") if v.strip())
    return out


def run_human(a) -> str:
    if a.mqm:
        hs = Study.read_judgments(a.mqm, mqm=True)
    elif a.file:
        hs = Study.read_judgments(a.file, a.score_column, not a.lower_is_better)
    else:
        raise InputError("give a judgments file or --mqm FILE", code=InputError.Codes.OPTIONS)
    by = [b.strip() for b in a.by.split(",") if b.strip()] if a.by else None
    where = _where(a.where)
    sliced = by or where or a.weights or a.significance
    if sliced and not hs.errors:
        raise InputError("--by, --where, --weights and --significance need an MQM file (--mqm FILE)",
                         code=InputError.Codes.OPTIONS)
    if sliced:
        data = Study.judgments_summary(hs, by, a.weights, where, a.significance,
                                       "100 characters" if a.per == "100chars" else a.per)
        if a.format == "json":
            return dump_json(data)
        lines = [f"weights: {data['weights']}" + "".join(f"; {k} in {', '.join(v)}" for k, v in data["where"].items())]
        if by:
            rows = data["slices"]
            lines += ["  ".join(f"{b:<16}" for b in by) + f"  {'errors':>7} {'penalty':>9} {'rated':>6} {'MQM':>8} "
                      f"{'MQM/100ch':>9}"]
            lines += ["  ".join(f"{str(r[b])[:16]:<16}" for b in by)
                      + f"  {r['errors']:>7} {r['penalty']:>9.1f} {r['rated']:>6} {_num(r['MQM'], '.3f'):>8} "
                        f"{_num(r['MQM per 100 chars'], '.3f'):>9}"
                      for r in rows]
            lines.append("")
            lines += [f"kappa {x['a']} / {x['b']}: {x['kappa']:.3f} over {x['segments']} segments (linear "
                      f"{x['kappa_linear']:.3f}, quadratic {x['kappa_quadratic']:.3f})" for x in data["rater_agreement"]]
            if not data["rater_agreement"]:
                lines.append("no two raters share a segment: no agreement to compute")
        if a.significance:
            sig = data["significance"]
            lines += ["", f"systems compared on the slice, MQM {sig['unit']} (lower is better): {sig['test']}",
                      f"{'a':<16} {'b':<16} {'MQM a':>8} {'MQM b':>8} {'a - b':>8} {'p':>7} {'p Holm':>7}"]
            lines += [f"{r['a'][:16]:<16} {r['b'][:16]:<16} {r['MQM a']:>8.3f} {r['MQM b']:>8.3f} "
                      f"{r['difference']:>+8.3f} {r['p']:>7.4f} {r['p (Holm)']:>7.4f}" for r in sig["pairs"]]
        return "\n".join(lines) + "\n"
    data = Study.judgments_summary(hs)
    if a.spans:
        if not hs.error_spans:
            raise InputError("the file marks no error spans (<v>...</v>): --spans needs an MQM file", code=InputError.Codes.JUDGMENTS)
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
    nw = max([20] + [len(n) for n in hs.system_scores])
    lines = [f"{'system':<{nw}} {hs.name:>10} {'segments':>9}"]
    for s, v in sorted(hs.system_scores.items(), key=lambda kv: kv[1], reverse=hs.higher_is_better):
        lines.append(f"{s:<{nw}} {v:>10.3f} {hs.n_segments.get(s, 0):>9}")
    lines.append(f"({better} is better)")
    return "\n".join(lines) + "\n"


def run_spans(a) -> str:
    """The spans the tool marks in one text (-i FILE, or --wmt-dir with --text NAME): JSON Lines or TSV rows of
    line (0-based), start, end (character offsets in that line), text, category, class."""
    if bool(a.input) == bool(a.wmt_dir):
        raise InputError("give either -i FILE or --wmt-dir DIR --text NAME", code=InputError.Codes.OPTIONS)
    if a.wmt_dir:
        if not a.text:
            raise InputError("--wmt-dir needs --text NAME (a reference such as refA, or a system)",
                             code=InputError.Codes.OPTIONS)
        label, lines = Study.wmt_text(a.wmt_dir, a.lp, a.text)
    else:
        if a.lp or a.text:
            raise InputError("--lp and --text go with --wmt-dir", code=InputError.Codes.OPTIONS)
        label, lines = a.input, door.read_lines(a.input)
    n = max_line_chars(a)
    long = next((k for k, x in enumerate(lines) if len(x) > n), None)
    if long is not None:
        raise InputError(f"a line of {len(lines[long]):,} characters; {line_limit_said(n)}", file=label,
                         line=long + 1, code=InputError.Codes.TOO_MUCH)
    cfg = config_from_args(a)
    a.notes = getattr(a, "notes", [])
    if a.lang is None:
        g = CATALOG.guess_language([x for x in lines if x.strip()][:2000])
        if g["language"] is None:
            raise InputError("has no letters to guess a language from; give --lang", file=label,
                             code=InputError.Codes.NO_PACK)
        cfg = cfg.with_(lang=g["language"])
        a.notes.append(f"language guessed from the text: {g['language']} ({g['name']}; --lang to choose another)")
    cfg = pack_case(a, cfg)
    engine = Engine(cache_mode="off" if a.no_cache else "disk", cache_dir=a.cache_dir, n_process=a.jobs,
                    pool="fork", scheduler=a.scheduler, results_mb=None)
    rows = [r for r in Study.spans_of_lines(lines, cfg, engine, progress=_progress(sys.stderr))
            if r["category"] in cfg.categories]
    for why in Study.tagging_marks(cfg).values():
        a.notes.append(f"warning: {why}")
    if a.format == "tsv":
        clean = lambda v: str(v).replace("\t", " ").replace("\n", " ")  # noqa: E731
        out = ["line\tstart\tend\tcategory\tclass\ttext"]
        out += ["\t".join(clean(r[k]) for k in ("line", "start", "end", "category", "class", "text")) for r in rows]
        return "\n".join(out) + "\n"
    import json

    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
