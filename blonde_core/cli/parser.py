"""Command-line arguments: the corpus flags, the blonde package's scoring flags, and the
ScoreConfig they make."""
from __future__ import annotations

import argparse

from blonde_core.metric.settings import CATEGORY_NAMES, PRESETS, SMOOTH_DEFAULTS, ScoreConfig
from blonde_core.errors import InputError


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
    p.add_argument("-r", "--reference", nargs="+", action="extend", metavar="FILE",
                   help="reference file(s), one segment per line; or the NAME of a loaded text (a reference or a "
                        "system, e.g. refB) that alone scores the systems, the other references becoming systems")
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
    g.add_argument("--skip-absent", action="store_true",
                   help="leave out of each unit's mean the discourse categories with no span in the reference or "
                        "in the system (not the package's behaviour, which floors their 0 in the geometric mean)")
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
        from blonde_core.metric.settings import PRESETS as _P

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
                       aggregation=a.aggregation, granularity=a.granularity, lang=a.lang,
                       absent="skip" if a.skip_absent else "keep")
