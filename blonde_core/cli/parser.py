"""Command-line arguments: the corpus flags, the blonde package's scoring flags, and the
ScoreConfig they make."""
from __future__ import annotations

import argparse

from blonde_core.study import CATALOG, InputError, ScoreConfig


PKG_CATEGORY = {"n-gram": "ngram", "ngram": "ngram", "tense": "tense", "pronoun": "pronoun",
                "entity": "entity", "dm": "dm"}


def parse_bool(v: str) -> bool:
    s = str(v).strip().lower()
    if s in ("1", "true", "yes", "y", "on"):
        return True
    if s in ("0", "false", "no", "n", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected yes/no or true/false, got '{v}'")


def at_least(lo: int):
    """An argparse type: a whole number >= lo (a count, an order, a seed)."""
    def parse(v: str) -> int:
        try:
            n = int(v)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got '{v}'") from None
        if n < lo:
            raise argparse.ArgumentTypeError(f"must be at least {lo}, got {n}")
        if n > 2**63 - 1:
            raise argparse.ArgumentTypeError(f"is too large ({v})")
        return n
    parse.__name__ = f"whole number >= {lo}"
    return parse


def number(lo: float = 0.0, strict: bool = False, hi: float = 1e6):
    """An argparse type: a finite number from lo (above it when strict) to hi (a weight, alpha)."""
    import math

    def parse(v: str) -> float:
        try:
            x = float(v)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got '{v}'") from None
        if not math.isfinite(x) or x < lo or (strict and x == lo) or x > hi:
            raise argparse.ArgumentTypeError(f"must be {'above' if strict else 'at least'} {lo:g} and at most "
                                             f"{hi:g}, got {v}")
        return x
    parse.__name__ = "number"
    return parse


SEED = at_least(0)
COUNT = at_least(1)


def input_help(role: str, lead: str | None = None, after: str = "") -> str:
    """The help of a flag that takes files of a role (--input, --human, --metric-scores): what they bring, then
    every format the core's table declares for it (io/formats.py), each with what it looks like."""
    acc = CATALOG.input_formats(role)
    return f"{lead or acc.what}, {acc.how} - {acc.help}{after}".replace("%", "%%")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump on stderr noise
        raise InputError(f"{self.prog}: {message} (see --help)", code=InputError.Codes.SETTING)


def add_corpus_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("-r", "--reference", nargs="+", action="extend", metavar="FILE",
                   help="reference file(s), one segment per line; or the NAME of a loaded text (a reference or a "
                        "system, e.g. refB) that alone scores the systems, the other references becoming systems")
    p.add_argument("-s", "--system", nargs="+", metavar="FILE",
                   help="system output file(s); a system's name is its file stem")
    p.add_argument("--input", metavar="FILE", help=input_help("texts"))
    p.add_argument("--reference-systems", nargs="+", metavar="NAME", default=[],
                   help="with --input: which systems of the file are human references")
    p.add_argument("--docids", metavar="FILE",
                   help="one document id per line; consecutive equal ids form a document")
    p.add_argument("--blank-line-docs", action="store_true",
                   help="without --docids: a blank line ends a document (default: one document); each file its "
                        "own documents, matched by order")
    p.add_argument("--system-docids", nargs="+", metavar="FILE",
                   help="with --docids: one document-id file per system (in the order of -s; '-' for a system that "
                        "lines up with the reference and takes --docids), for systems whose sentences do not line "
                        "up with the reference's: their documents are matched to the reference's by id, a missing "
                        "one is named and scored as empty (then --resegment)")
    p.add_argument("--resegment", action="store_true",
                   help="cut each system document whose segments do not line up with the reference document's "
                        "into exactly its segments (mwerSegmenter's alignment, by mweralign; seg:mwer-2 in the "
                        "signature); what a system left out or added is reported per document")
    w = p.add_argument_group("a WMT evaluation folder, metrics computed elsewhere")
    w.add_argument("--wmt-dir", metavar="DIR",
                   help=input_help("folders", after="; -r NAME picks the reference (default: all of them)"))
    w.add_argument("--lp", metavar="SRC-TGT", action="append",
                   help="with --wmt-dir: the language pair (needed when it has several; score and report: repeat it, "
                        "or 'all', for the release's systems x pairs table; correlate --task: repeat it for several, "
                        "default every pair with human scores)")
    w.add_argument("--gold", metavar="NAME", help="with --wmt-dir: which human scores to use (default: the first of "
                                                  "mqm, esa, da-sqm, wmt-appraise, wmt-z, wmt-raw there)")
    w.add_argument("--esa-every-judged", action="store_true",
                   help="ESA judgments: each system's score over every segment judged for it (default, as WMT24: "
                        "only over the segments judged for every system, their number said)")
    w.add_argument("--domain", metavar="NAME",
                   help="only the documents of this domain (a WMT folder's documents file gives each document's): "
                        "texts, human scores and metrics computed elsewhere restricted to them; domain:NAME in the "
                        "signature")
    w.add_argument("--metric-scores", nargs="+", action="extend", metavar="FILE", default=[],
                   help=input_help("metric scores"))
    w.add_argument("--metric-lower-is-better", nargs="+", action="extend", metavar="NAME", default=[],
                   help="metrics computed elsewhere whose lower scores are better (default: higher is better, the "
                        "WMT layout's convention)")


def add_config_args(p: argparse.ArgumentParser) -> None:
    """The scoring settings' flags: most come from their declaration (metric/settings.py); the
    blonde package's own spellings of lowercasing, weights and BlonD+ are built here."""
    g = p.add_argument_group("BlonDe settings (same flags as the blonde package)")
    spelled = {f.name: s for f, s in CATALOG.settings}
    for f, s in CATALOG.settings:
        if not s.flags:
            continue
        kw = dict(s.cli)
        if s.choices is not None and f.name != "categories":
            kw["choices"] = list(s.choices)
        default = "" if f.default is None else f" (default {f.default})" if f.name != "categories" else ""
        g.add_argument(*s.flags, dest=f.name, default=None, help=(s.help or s.label) + default, **kw)
    g.add_argument("-lc", "--lowercase", nargs="?", const=True, default=None, type=parse_bool,
                   metavar="yes|no", help=spelled["lowercase"].label + " (default: the language pack's; yes for "
                   "English and French, as the package CLI; no for the packs whose analysers read case)")
    g.add_argument("--case-sensitive", action="store_true", help="same as -lc no")
    g.add_argument("-w", "--override-weights", action="store_true",
                   help="use the -wt/-wp/-we/-wdm/-wng weights instead of the preset's")
    g.add_argument("-rw", "--reweight", action="store_true", help="normalise each category's weights to sum 1")
    english = CATALOG.language("en")
    for cat, flags in CATALOG.weight_flags.items():
        names = " ".join(str(x) for x in english.feature_names(cat))
        g.add_argument(*flags, dest=f"weight_{cat}", type=number(), nargs="+", metavar="W",
                       help=f"{cat}: one weight per feature of the language (English: {names})")
    g.add_argument("--skip-absent", action="store_true", help=spelled["absent"].help)
    pg = p.add_argument_group("BlonD+ (human annotation)")
    pg.add_argument("-p", "--plus", action="store_true", help="add the BlonD+ categories (needs -an)")
    pg.add_argument("-an", "--annotation", metavar="FILE", help="BlonD+ annotation file, one line per segment")
    pg.add_argument("-ner", "--ner-refined", metavar="FILE",
                    help="human-refined named entities, used instead of the automatic ones")
    pg.add_argument("-pc", "--plus-categories", nargs="+", default=["ambiguity", "ellipsis"],
                    help="BlonD+ categories (ambiguity ellipsis)")
    pg.add_argument("-pw", "--plus-weights", type=number(), nargs="+", default=[1.0, 1.0])
    rg = p.add_argument_group("running")
    rg.add_argument("--no-cache", action="store_true", help="do not read or write the annotation cache")
    rg.add_argument("--cache-dir", metavar="DIR", help="annotation cache directory (default $BLONDE_CACHE_DIR "
                                                        "or the user cache directory)")
    rg.add_argument("-j", "--jobs", type=COUNT, default=None, help="annotation processes (default: up to 2)")
    rg.add_argument("--max-line-chars", type=COUNT, default=None, metavar="N",
                    help="refuse a text with a line (segment) longer than N characters, naming its file and line "
                         "(default $BLONDE_MAX_LINE_CHARS or 10,000, the server's limit: the analysers fail on lines "
                         "of a million characters)")
    rg.add_argument("--scheduler", metavar="ADDRESS", default=None,
                    help="annotate on the workers of this Dask scheduler (tcp://HOST:8786) instead of local "
                         "processes; the cache stays local")


def config_from_args(a) -> ScoreConfig:
    given = {f.name: getattr(a, f.name) for f, s in CATALOG.settings if s.flags and getattr(a, f.name) is not None}
    if "categories" in given:
        bad = [c for c in given["categories"] if c not in PKG_CATEGORY]
        if bad:
            raise InputError(f"unknown category {bad[0]!r}; choose from tense pronoun entity dm n-gram", code=InputError.Codes.SETTING)
        given["categories"] = tuple(PKG_CATEGORY[c] for c in given["categories"])
    lang = given.get("lang", "en")
    wflags = {cat: getattr(a, f"weight_{cat}") for cat in CATALOG.weight_flags}
    weights = None
    if any(v is not None for v in wflags.values()):
        if not a.override_weights:
            raise InputError("weights (-wt/-wp/-we/-wdm/-wng) only apply with -w/--override-weights, "
                             "as in the blonde package", code=InputError.Codes.OPTIONS)
    if a.override_weights:
        weights = {k: tuple(v) for k, v in wflags.items() if v is not None}
        n = CATALOG.language(lang).n_features
        for k, v in weights.items():
            if len(v) != n[k]:
                raise InputError(f"{'/'.join(CATALOG.weight_flags[k])}: {k} needs {n[k]} weights in this language "
                                 f"({' '.join(str(f) for f in CATALOG.language(lang).feature_names(k))}), got {len(v)}", code=InputError.Codes.SETTING)
    if a.reweight:
        base = dict(CATALOG.language(lang).preset_weights(given.get("preset", "blonde-0.1.4")))
        base.update(weights or {})
        weights = {}
        for k, v in base.items():
            s = sum(v)
            weights[k] = tuple(x / s for x in v) if s else v
    pw = [1.0, 1.0]
    if a.plus:
        bad = [c for c in a.plus_categories if c not in ("ambiguity", "ellipsis")]
        if bad:
            raise InputError(f"unknown BlonD+ category {bad[0]!r}; choose from ambiguity ellipsis", code=InputError.Codes.SETTING)
        if len(a.plus_weights) != len(a.plus_categories):
            raise InputError("-pw needs one weight per -pc category", code=InputError.Codes.OPTIONS)
        d = dict(zip(a.plus_categories, a.plus_weights))
        pw = [d.get("ambiguity", 0.0), d.get("ellipsis", 0.0)]
    return ScoreConfig(**given, weights=weights, plus_weights=tuple(pw),
                       lowercase=False if a.case_sensitive else True if a.lowercase is None else a.lowercase,
                       absent="skip" if a.skip_absent else "keep")
