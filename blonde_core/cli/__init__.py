"""Command line: `python -m blonde_core score ...` (also `blonde-studio score ...`).

Bad input exits with status 2 and one line on stderr naming the file and the
problem; never a traceback.
"""
from __future__ import annotations

import argparse
import sys

from blonde_core.blas import one_blas_thread

one_blas_thread()  # before .commands imports numpy: its forked annotation workers inherit one BLAS thread
from blonde_core.study import CATALOG, DEFAULT_SEED, InputError  # noqa: E402
from .commands import run_apt, run_compare, run_contrast, run_correlate, run_human, run_report, run_score  # noqa: E402
from .commands import run_spans  # noqa: E402
from .parser import COUNT, SEED, _Parser, add_config_args, add_corpus_args, at_least, input_help, number  # noqa: E402
from .parser import config_from_args  # noqa: E402,F401  (re-exported)


def _add_score(sub) -> None:
    s = sub.add_parser("score", help="BlonDe / BlonD-d / BlonD+ scores of systems against references")
    add_corpus_args(s)
    add_config_args(s)
    s.add_argument("--per-doc", action="store_true", help="also score every document on its own")
    s.add_argument("--per-feature", action="store_true",
                   help="add unweighted counts and P/R/F1 of every feature (tense tag, pronoun gender, entity group, "
                        "marker type, n-gram order) under 'features'")
    s.add_argument("--entity-strings", action="store_true",
                   help="add every system's entity strings (the Categories page's table): how often each occurs in "
                        "the reference and the system, matched, missed, extra, its most frequent written form and "
                        "its documents (JSON; text: the ten most missed)")
    s.add_argument("--metrics", default="",
                   help="comma-separated extra metrics: " + CATALOG.metrics_help("score"))
    s.add_argument("--otem-n", type=COUNT, default=2, help="Otem: largest n-gram order (default 2)")
    s.add_argument("--utem-n", type=COUNT, default=4, help="Utem: largest n-gram order (default 4)")
    s.add_argument("--alpha", type=number(0.0, strict=True, hi=100.0), default=2.0, help="BlonD-dist: the alpha of the alpha-norm (default 2)")
    s.add_argument("--ci", type=COUNT, metavar="N", default=None,
                   help="the leaderboard's intervals and clusters, as the dashboard's Overview shows them: 95%% "
                        "bootstrap intervals over N resamples (1000 there) of BlonDe, BlonD-d and BlonD+ over the "
                        "significance policy's unit and of --metrics BLEU/chrF/TER over documents, and the "
                        "significance clusters (paired bootstrap, Benjamini-Hochberg, p < 0.05)")
    s.add_argument("--seed", type=SEED, default=DEFAULT_SEED, help=f"with --ci: the resampling seed (default {DEFAULT_SEED})")
    s.add_argument("--human", metavar="FILE", nargs="+",
                   help=input_help("judgments", "human judgments for the leaderboard's human column",
                                   "; with --overlap, MQM or ESA error spans"))
    s.add_argument("--overlap", action="store_true",
                   help="with --human MQM: per system and category, BlonDe's unmatched spans overlapped by human "
                        "error spans (and their MQM categories), and human errors where BlonDe saw none (JSON)")
    s.add_argument("--error-spans", nargs="+", metavar="FILE", default=[],
                   help="a metric's error spans per segment (xCOMET-style JSON Lines: system, doc_id/seg_id or line, "
                        "error_spans with start, end, severity), scored against the human error spans (--human, or "
                        "the WMT folder's) as WMT25 scores spans: character-level P/R/F1 per system and overall")
    s.add_argument("--overlap-documents", nargs="+", metavar="DOC",
                   help="with --overlap: only these documents (the Documents page's table is one document's)")
    s.add_argument("--overlap-reference", metavar="NAME",
                   help="with --overlap and several references: the one the spans are marked against (default: the "
                        "first)")
    s.add_argument("--format", choices=("text", "json", "csv", "latex"), default="text",
                   help="latex: the release table of several --lp (a leaderboard's LaTeX: the Overview's download)")
    s.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")


def _add_compare(sub) -> None:
    c = sub.add_parser("compare", help="paired significance tests between every pair of systems")
    add_corpus_args(c)
    add_config_args(c)
    c.add_argument("--test", choices=("ttest", "wilcoxon", "bootstrap", "ar"), default="bootstrap",
                   help="default: paired bootstrap, the test of the dashboard's clusters")
    c.add_argument("--unit", default="auto",
                   help="auto (default: documents when there are at least 30, else blocks of consecutive segments "
                        "sized to give at least 30 units), doc, block:N (N consecutive segments) or segment")
    c.add_argument("--metric", default="BlonDe",
                   help=CATALOG.metrics_help("compare"))  # the metric families' names (analysis/families.py)
    c.add_argument("--n", type=COUNT, default=None, help="bootstrap resamples (1000) or AR trials (10000)")
    c.add_argument("--seed", type=SEED, default=DEFAULT_SEED)
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("-o", "--output", metavar="FILE")


def _add_contrast(sub) -> None:
    k = sub.add_parser("contrast", help="two systems side by side: per discourse category, the documents and "
                                        "sentences where they differ most (the dashboard's Contrast page)")
    add_corpus_args(k)
    add_config_args(k)
    k.add_argument("--pair", nargs=2, required=True, metavar=("A", "B"), help="the two systems (file stems)")
    k.add_argument("--document", metavar="DOC", help="also A and B on this document, category by category")
    k.add_argument("--disagree", metavar="METRIC", help="also the documents and sentences where BlonDe and this "
                                                        "metric computed elsewhere disagree most about A and B")
    k.add_argument("--buckets", action="store_true",
                   help="also A and B by sentence-length, sentence-score and word-frequency bucket, and the n-grams "
                        "and discourse spans one gets right and the other wrong (as compare-mt)")
    k.add_argument("--top", type=COUNT, default=10, help="text output: rows of each ranked table (default 10)")
    k.add_argument("--format", choices=("text", "json"), default="text")
    k.add_argument("-o", "--output", metavar="FILE")


def _add_report(sub) -> None:
    rp = sub.add_parser("report", help="one self-contained HTML file: leaderboard with intervals and clusters, "
                                       "category heatmap, significance matrix, correlation with humans, the "
                                       "documents where the top two systems differ most, the signature")
    add_corpus_args(rp)
    add_config_args(rp)
    rp.add_argument("--ci", type=COUNT, default=1000, metavar="N", help="bootstrap resamples (default 1000, as the "
                                                                      "Overview)")
    rp.add_argument("--seed", type=SEED, default=DEFAULT_SEED)
    rp.add_argument("--metrics", default="BLEU,chrF", help="sacrebleu metrics beside BlonDe (default BLEU,chrF; "
                                                           "'' for none)")
    rp.add_argument("--human", metavar="FILE", nargs="+",
                    help=input_help("judgments", "human judgments for the correlation section"))
    rp.add_argument("-o", "--output", metavar="FILE", help="write the report here (default: standard output)")


def _add_correlate(sub) -> None:
    r = sub.add_parser("correlate", help="correlation of the metrics with human judgments")
    add_corpus_args(r)
    add_config_args(r)
    r.add_argument("--human", metavar="FILE", nargs="+",
                   help=input_help("judgments", after=" (with --wmt-dir: the folder's human scores unless given)"))
    r.add_argument("--score-column", help="judgments table: the score column (default: the only other column)")
    r.add_argument("--lower-is-better", action="store_true", help="judgments table: lower scores are better")
    r.add_argument("--map", nargs="+", default=[], metavar="FILE_NAME=NAME",
                   help="WMT DA tables: map a system name of the file to a loaded text (e.g. HUMAN-B=refB); "
                        "without it, .K suffixes are dropped and HUMAN-X goes to refX")
    r.add_argument("--level", choices=("system", "document", "segment"), default="system",
                   help="system, document or segment (segment: the BlonDe family, each segment scored on its own; "
                        "grouping item is the WMT segment-level setting)")
    r.add_argument("--grouping", choices=("none", "sys", "item"), default="none",
                   help="document level: none (all cells), sys (per system, then the mean) or item (per document "
                        "across systems, then the mean)")
    r.add_argument("--exclude", nargs="+", default=[], metavar="NAME",
                   help="systems left out of the correlations (e.g. human translations)")
    r.add_argument("--accuracy", action="store_true",
                   help="show system-level pairwise accuracy in the text output (always in JSON)")
    r.add_argument("--spa", action="store_true",
                   help="soft pairwise accuracy (WMT24), from per-document scores and permutations")
    r.add_argument("--permutations", type=COUNT, default=1000, help="SPA and PERM-BOTH permutations (default 1000)")
    r.add_argument("--bootstrap", type=at_least(0), default=1000,
                   help="resamples of documents for the correlation intervals (default 1000; 0: Fisher-z only)")
    r.add_argument("--seed", type=SEED, default=DEFAULT_SEED)
    r.add_argument("--compare", nargs=2, metavar=("A", "B"),
                   help="two metrics: Williams test and PERM-BOTH for 'B correlates better than A'")
    r.add_argument("--metrics", help="comma-separated metric names (default: BlonDe, BlonD-d, every category; "
                                      "with --task: BlonDe, BlonD-d, chrF, BLEU and the metrics computed elsewhere)")
    r.add_argument("--spa-seed", type=SEED, default=4,
                   help="SPA over segments (WMT24) and --task: the permutation seed (default 4, mt-metrics-eval's)")
    r.add_argument("--task", choices=("wmt23", "wmt24", "wmt25"),
                   help="the WMT metrics task's ranking of metrics: its statistics per language pair (wmt24/25: SPA "
                        "over segments and segment acc_eq by item; wmt23: global pairwise accuracy, system and "
                        "segment Pearson, acc_eq), their averages, and clusters by its permutation tests")
    r.add_argument("--draws", type=at_least(0), default=1000,
                   help="--task: at most this many draws of each significance test (blocks of 100, early stop as "
                        "mt-metrics-eval; 0: rank by value only)")
    r.add_argument("--format", choices=("text", "json", "latex"), default="text")
    r.add_argument("-o", "--output", metavar="FILE")


def _add_human(sub) -> None:
    h = sub.add_parser("human", help="human scores per system and document (MQM or a judgments table)")
    h.add_argument("file", nargs="?", help="judgments table (TSV/CSV) or MQM TSV")
    h.add_argument("--mqm", metavar="FILE", help="Google's MQM TSV")
    h.add_argument("--score-column")
    h.add_argument("--lower-is-better", action="store_true")
    h.add_argument("--by", metavar="FIELDS",
                   help="MQM sliced by comma-separated fields of system, doc, rater, category, severity (as Marot), "
                        "with the raters' agreement (Cohen's kappa)")
    h.add_argument("--weights", metavar="RULES",
                   help="MQM weights changed from Google's (Major 5, Minor 1, Minor Fluency/Punctuation 0.1, "
                        "Non-translation 25): 'SEVERITY=W' or 'CATEGORY:SEVERITY=W' separated by ';', patterns "
                        "with * (e.g. 'Major=10; Accuracy/*:Minor=2')")
    h.add_argument("--where", metavar="FIELD=V1,V2", action="append", default=[],
                   help="MQM: keep only these values of a field (system, doc, rater, category, severity or a "
                        "metadata field); repeat for several fields")
    h.add_argument("--per", choices=("segment", "100chars"), default="segment",
                   help="MQM significance: scores per rated segment or per 100 source characters")
    h.add_argument("--significance", action="store_true",
                   help="MQM: every pair of systems compared on the slice (paired randomization over segments, "
                        "Holm-corrected)")
    h.add_argument("--spans", action="store_true",
                   help="MQM: the error spans (<v>...</v>) with system, document, segment, rater, category, severity "
                        "and character offsets in the text without markers")
    h.add_argument("--format", choices=("text", "json"), default="text")
    h.add_argument("-o", "--output", metavar="FILE")


def _add_apt(sub) -> None:
    ap = sub.add_parser("apt", help="APT: accuracy of pronoun translation (needs the source)")
    ap.add_argument("--source", required=True, metavar="FILE", help="source text, one segment per line")
    ap.add_argument("--reference", "-r", required=True, metavar="FILE")
    ap.add_argument("--system", "-s", required=True, nargs="+", metavar="FILE")
    ap.add_argument("--align-ref", metavar="FILE", help="source-reference links, Pharaoh 'i-j' per line")
    ap.add_argument("--align-system", nargs="+", metavar="FILE", help="source-system links, one file per system")
    ap.add_argument("--pair", choices=("en-fr", "zh-en"), required=True)
    ap.add_argument("--weights", type=number(), nargs=6, default=[1.0, 0.5, 0, 0, 0, 0], metavar="W",
                    help="weights of cases 1-6 (default 1 0.5 0 0 0 0)")
    ap.add_argument("--discard", type=int, choices=range(1, 7), nargs="*", default=[], metavar="CASE", help="cases left out (e.g. 5 6)")
    ap.add_argument("--no-heuristics", action="store_true", help="plain alignments, without the paper's heuristics")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    ap.add_argument("-o", "--output", metavar="FILE")


def _add_spans(sub) -> None:
    sp = sub.add_parser("spans", help="every tense, pronoun, entity and discourse-marker span the tool marks in a "
                                      "text (what the Documents page highlights), one per line: line, start, end, "
                                      "text, category, class")
    sp.add_argument("-i", "--input", metavar="FILE", help="a text, one segment per line")
    sp.add_argument("--wmt-dir", metavar="DIR", help="a WMT-layout folder or zip (instead of -i), with --text")
    sp.add_argument("--lp", metavar="SRC-TGT", help="with --wmt-dir: the language pair (needed when it has several)")
    sp.add_argument("--text", metavar="NAME", help="with --wmt-dir: the reference (e.g. refA) or system whose lines "
                                                   "are read (line numbers as in its file, the canary included)")
    add_config_args(sp)
    sp.add_argument("--format", choices=("jsonl", "tsv"), default="jsonl",
                    help="jsonl (default): one JSON object a span; tsv: a header and one row a span")
    sp.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")


_COMMANDS = {"score": _add_score, "compare": _add_compare, "contrast": _add_contrast, "report": _add_report,
             "correlate": _add_correlate, "human": _add_human, "apt": _add_apt,
             "spans": _add_spans}  # in the order --help lists them


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `command` (a subcommand's name), only that subcommand's arguments are
    declared (parsing is the same for it; every run of a command saves building the others, ~10 ms)."""
    p = _Parser(prog="blonde-studio", description="BlonDe Studio: document-level MT evaluation.")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    for name, add in _COMMANDS.items():
        if command is None or name == command:
            add(sub)
    from blonde_core import __version__
    p.add_argument("-V", "--version", action="version", version=f"%(prog)s {__version__}")
    return p


def main(argv=None) -> int:
    import warnings

    # numeric warnings (an overflow, a mean of nothing) are never printed with their source lines: every value
    # without a number is said in the output itself, and the readers refuse numbers that could overflow
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _main(argv)


def _main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(args[0] if args and args[0] in _COMMANDS else None)
    try:
        a = parser.parse_args(args)
        if a.command is None:
            parser.print_help()
            return 0
        runners = {"score": run_score, "compare": run_compare, "contrast": run_contrast, "correlate": run_correlate,
                   "human": run_human, "apt": run_apt, "report": run_report, "spans": run_spans}
        text = runners[a.command](a)
        if getattr(a, "output", None):
            try:
                with open(a.output, "w", encoding="utf-8", newline="") as f:
                    f.write(text)
            except OSError as exc:
                raise InputError(f"cannot write output ({exc.strerror})", file=a.output, code=InputError.Codes.OUTPUT) from None
        else:
            sys.stdout.write(text)
        for note in getattr(a, "notes", []):  # after success only: an error stays one line
            print(f"blonde-studio: note: {note}", file=sys.stderr)
        return 0
    except InputError as exc:
        print(f"blonde-studio: error: {exc} [{exc.code}]", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("blonde-studio: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        print(f"blonde-studio: internal error: {type(exc).__name__}: {exc} "
              "(please report this with the command you ran)", file=sys.stderr)
        return 3
