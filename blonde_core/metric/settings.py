"""Scoring settings, declared once; presets; the signature.

Every setting is one field of `ScoreConfig`, and its field's metadata (a `Setting`)
is the only place that says how the setting reads for people: its label and help
(the dashboard's sidebar), its command-line flags (cli/parser.py builds them from
here), how a value becomes flags again (`ScoreConfig.cli_args`, for the "reproduce
on the command line" boxes) and its part of the signature (`Signature`).  Adding a
setting is adding a field.

Per-feature weights belong to the language: a preset's weights come from the
language pack (lang/*/pack.json), so the number of features per category is the
language's, not a constant here.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Callable

from blonde_core import __version__
from blonde_core.errors import InputError

if TYPE_CHECKING:
    from blonde_core.lang.base import LanguagePack

CATEGORY_NAMES = ("tense", "pronoun", "entity", "dm", "ngram")
DISCOURSE = ("tense", "pronoun", "entity", "dm")
# a category in words: its name, a short column header, the setting's label, the plural, and what its features are
CATEGORY_WORDS = {
    "tense": {"name": "verb tense", "short": "tense", "label": "tense", "plural": "verb tense",
              "features": "tense feature"},
    "pronoun": {"name": "pronoun", "short": "pronoun", "label": "pronoun", "plural": "gendered pronouns",
                "features": "pronoun gender"},
    "entity": {"name": "named entity", "short": "entity", "label": "entity", "plural": "named entities",
               "features": "entity group"},
    "dm": {"name": "discourse marker", "short": "marker", "label": "discourse marker", "plural": "discourse markers",
           "features": "discourse-marker type"},
    "ngram": {"name": "n-grams", "short": "n-grams", "label": "n-grams", "plural": "n-grams",
              "features": "n-gram order"},
}
# the settings that change the counts (the others only re-score them)
COUNTING = ("lowercase", "tag_as_written", "granularity", "aggregation", "lang", "entities")
CATEGORY_FLAG_NAME = {"ngram": "n-gram"}  # the blonde package's spelling on its command line
WEIGHT_FLAGS = {"tense": ("-wt", "--weight-tense"), "pronoun": ("-wp", "--weight-pronoun"),
                "entity": ("-we", "--weight-entity"), "dm": ("-wdm", "--weight-discourse-marker"),
                "ngram": ("-wng", "--weight-ngram")}

PRESETS = {
    # Reproduces the published `blonde` 0.1.4 package (see shared/spec); its weights are the language pack's.
    "blonde-0.1.4": dict(zero="floor", help="reproduces the published blonde 0.1.4 package"),
    # The paper's definition: uniform feature weights, zero matches smoothed to delta/total.
    "paper": dict(zero="delta", help="the paper's definition: uniform weights, zero matches smoothed to delta/total"),
}
SMOOTH_DEFAULTS = {"exp": None, "floor": 0.1, "add-k": 1.0, "none": None}
LOG_FLOOR = 1e-5  # the package floors every value at 1e-5 before its log
PAPER_DELTA = 1e-4


@dataclass(frozen=True)
class Setting:
    """How one ScoreConfig field reads for people.

    label, help: the sidebar's words.  choices: allowed values (None: any).
    flags, cli: the command line's flags and argparse keywords (flags () for a setting
    with flags of its own, built by cli/parser.py from `to_cli`'s inverse).
    to_cli(value, config) -> extra flags (nothing when the value is the default).
    sig(config) -> the signature's part ("key:value"), or None to leave it out."""
    label: str
    help: str = ""
    choices: tuple | None = None
    flags: tuple = ()
    cli: dict = field(default_factory=dict)
    to_cli: Callable | None = None
    sig: Callable | None = None


def _setting(default, **kw):
    return field(default=default, metadata={"setting": Setting(**kw)})


def _flag_if(flag, when):
    return lambda v, cfg: [flag, str(v)] if when(v) else []


def _weights_sig(cfg) -> str:
    if not cfg.weights:
        return "w:preset"
    rw = cfg.resolved_weights
    return "w:" + ";".join(f"{c}=" + ",".join(f"{x:.4g}" for x in rw[c]) for c in cfg.categories)


def _weights_cli(v, cfg) -> list[str]:
    if not v:
        return []
    args = ["-w"]
    for c, w in v.items():
        args += [WEIGHT_FLAGS[c][0]] + [f"{x:.10g}" for x in w]
    return args


def _smooth_sig(cfg) -> str:
    sm = cfg.smooth
    if cfg.smooth in ("floor", "add-k"):
        sm += f"({cfg.resolved_smooth_value:g})"
    return f"smooth:{sm}"


@dataclass(frozen=True)
class ScoreConfig:
    preset: str = _setting(
        "blonde-0.1.4", label="Preset", choices=tuple(PRESETS), flags=("--preset",),
        help="blonde-0.1.4 reproduces the published package; paper: uniform weights",
        to_cli=lambda v, cfg: ["--preset", v], sig=lambda cfg: f"preset:{cfg.preset}")
    categories: tuple = _setting(
        CATEGORY_NAMES, label="Categories", choices=CATEGORY_NAMES, flags=("-c", "--categories"),
        cli=dict(nargs="+", metavar="CAT"), help="categories: tense pronoun entity dm n-gram (default: all)",
        to_cli=lambda v, cfg: ["-c"] + [CATEGORY_FLAG_NAME.get(c, c) for c in v] if v != CATEGORY_NAMES else [],
        sig=lambda cfg: "c:" + ",".join(cfg.categories))
    # None: the preset's; else category -> tuple of per-feature weights (the language's features)
    weights: dict | None = _setting(
        None, label="Weights", help="per-feature weights of a category (one per feature of the language)",
        to_cli=_weights_cli, sig=_weights_sig)
    plus_weights: tuple = _setting(
        (1.0, 1.0), label="BlonD+ weights", help="ambiguity, ellipsis", to_cli=lambda v, cfg: [])
    lowercase: bool = _setting(
        True, label="Lowercase before annotation", help="the blonde package's command line lowercases by default",
        to_cli=lambda v, cfg: [] if v else ["-lc", "no"], sig=lambda cfg: "case:" + ("lc" if cfg.lowercase else "mixed"))
    tag_as_written: bool = _setting(
        False, label="Tag the text as written, compare lowercased", flags=("--tag-as-written",),
        cli=dict(action="store_true"),
        help="Not the package's behaviour (off by default, the blonde-0.1.4 preset stays exact): with lowercasing on, "
             "the analyser reads the text as written (capital letters are most of what tells a name) and only the "
             "matching is lowercased (entity strings, n-grams). Measured on the gold spans: English entity recall "
             "0.59 -> 0.84, French 0.35 -> 0.94 (docs/languages.md#tagging-accuracy); recommended for English and French",
        to_cli=lambda v, cfg: ["--tag-as-written"] if v and cfg.lowercase else [],
        sig=lambda cfg: "tag:written" if cfg.tag_as_written and cfg.lowercase else None)
    average: str = _setting(
        "geometric", label="Mean over categories", choices=("geometric", "arithmetic"),
        flags=("-aver", "--average-method"), to_cli=_flag_if("-aver", lambda v: v != "geometric"),
        sig=lambda cfg: "avg:" + ("geo" if cfg.average == "geometric" else "arith"))
    smooth: str = _setting(
        "exp", label="n-gram smoothing", choices=tuple(SMOOTH_DEFAULTS), flags=("-sm", "--smooth-method"),
        help="n-gram smoothing", to_cli=_flag_if("-sm", lambda v: v != "exp"), sig=_smooth_sig)
    smooth_value: float | None = _setting(
        None, label="Smoothing value", flags=("-sv", "--smooth-value"), cli=dict(type=float),
        help="value for floor (default 0.1) and add-k (default 1)",
        to_cli=lambda v, cfg: ["-sv", f"{v:g}"] if v is not None else [])
    # discourse zero matches: floor (package) or delta (paper); None: the preset's
    zero: str | None = _setting(
        None, label="Zero matches", choices=("floor", "delta"), flags=("--zero",),
        help="discourse categories with no match: floor at 1e-5 (package) or delta/total (paper)",
        to_cli=lambda v, cfg: ["--zero", v] if v is not None else [], sig=lambda cfg: f"zero:{cfg.resolved_zero}")
    # categories with no span in the reference or in the system: kept in the unit's mean (the
    # package: their 0 is floored at 1e-5 by the geometric mean) or left out of it ("skip")
    absent: str = _setting(
        "keep", label="Leave absent categories out of the mean", choices=("keep", "skip"),
        help="Not the package's behaviour (off by default): a discourse category with no span in the reference or "
             "in the system is left out of that unit's mean instead of entering it as 0, which the geometric mean "
             "floors at 1e-5 (one such category collapses a document's score)",
        to_cli=lambda v, cfg: ["--skip-absent"] if v == "skip" else [],
        sig=lambda cfg: "absent:skip" if cfg.absent == "skip" else None)
    entities: str = _setting(
        "tagged", label="Document-consistent entities", choices=("tagged", "document"), flags=("--entities",),
        help="Not the package's behaviour (off by default): 'document' counts a string the analyser tagged as an "
             "entity anywhere in a document wherever it occurs in that document, in the reference and in each "
             "system alike, so that a name the tagger saw in one sentence and missed in the next is not a "
             "mismatch; 'tagged' (the package) counts the tagged spans only",
        to_cli=lambda v, cfg: ["--entities", v] if v != "tagged" else [],
        sig=lambda cfg: "ent:doc" if cfg.entities == "document" else None)
    aggregation: str = _setting(
        "max", label="Several references", choices=("max", "sum"), flags=("--aggregation",),
        help="over several references: element-wise max (package) or matched per reference, summed",
        to_cli=_flag_if("--aggregation", lambda v: v != "max"), sig=lambda cfg: f"agg:{cfg.aggregation}")
    granularity: str = _setting(
        "sentence", label="Matching", choices=("sentence", "document"), flags=("--granularity",),
        help="sentence i against sentence i (package), or counts summed per document before matching "
             "(for systems that split or merge sentences)",
        to_cli=_flag_if("--granularity", lambda v: v != "sentence"),
        sig=lambda cfg: "gran:" + ("sent" if cfg.granularity == "sentence" else "doc"))
    lang: str = _setting(
        "en", label="Target language", flags=("--lang",),
        help="target language: a pack's name (en, fr), a folder or JSON file of a pack, or the ISO 639-1 code of a "
             "language without a pack (zh, ja, ...: the BlonDe family is then not computed; default: guessed from "
             "the reference)",
        to_cli=_flag_if("--lang", lambda v: v != "en"))
    _extra: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        from blonde_core.lang import load_pack

        bad = [c for c in self.categories if c not in CATEGORY_NAMES]
        if bad or not self.categories:
            raise InputError(f"unknown categories {bad} (choose from {', '.join(CATEGORY_NAMES)})", code=InputError.Codes.SETTING)
        object.__setattr__(self, "categories", tuple(c for c in CATEGORY_NAMES if c in self.categories))
        for f in fields(self):
            s = f.metadata.get("setting")
            v = getattr(self, f.name)
            if s is None or s.choices is None or f.name == "categories" or (v is None and f.default is None):
                continue
            if v not in s.choices:
                raise InputError(f"{f.name} must be one of {', '.join(s.choices)}, not '{v}'", code=InputError.Codes.SETTING)
        if not self.has_pack:
            from blonde_core.lang.detect import NAMES

            if self.lang not in NAMES:
                load_pack(self.lang)  # neither a pack nor a language we know: the pack loader's message
            if self.weights is not None:
                raise InputError(f"weights are per language pack; '{self.lang}' has none", code=InputError.Codes.NO_PACK)
            return
        n = self.pack.n_features
        if self.weights is not None:
            for cat, w in self.weights.items():
                if cat not in n:
                    raise InputError(f"weights given for unknown category '{cat}'", code=InputError.Codes.SETTING)
                if len(w) != n[cat]:
                    raise InputError(f"{cat} needs {n[cat]} weights, got {len(w)}", code=InputError.Codes.SETTING)
                if any(x < 0 for x in w):
                    raise InputError(f"{cat} weights must not be negative", code=InputError.Codes.SETTING)
        if len(self.plus_weights) != 2:
            raise InputError("BlonD+ needs 2 weights (ambiguity, ellipsis)", code=InputError.Codes.SETTING)

    @property
    def tag_lowercase(self) -> bool:
        """Does the analyser read lowercased text (lowercasing on, and the text not tagged as written)? Every
        annotation and every look-up of a sentence's record uses this."""
        return bool(self.lowercase) and not self.tag_as_written

    @property
    def fold_case(self) -> bool:
        """Are entity strings and n-grams lowercased for matching after tagging the text as written?"""
        return bool(self.lowercase) and bool(self.tag_as_written)

    @property
    def pack(self) -> LanguagePack:
        """The target language's pack (lang/; load_pack keeps one per language), what a caller holding this config
        passes on instead of the language's name; InputError when the language has none (has_pack), or when its
        pack.json names a kind of analyser no adapter declares (annotation/adapters.py checked)."""
        from blonde_core.annotation.adapters import checked
        from blonde_core.lang import load_pack

        return checked(load_pack(self.lang))

    @property
    def has_pack(self) -> bool:
        """Whether the target language has a language pack (lang/): without one the BlonDe family is not
        computed (Study.result refuses, lang.no_pack_message says so), the metrics that need no pack are."""
        from blonde_core.lang import has_pack

        return has_pack(self.lang)

    # -- resolved settings -------------------------------------------------
    @property
    def resolved_weights(self) -> dict:
        w = {k: tuple(float(x) for x in v) for k, v in self.pack.preset_weights(self.preset).items()}
        if self.weights:
            w.update({k: tuple(float(x) for x in v) for k, v in self.weights.items()})
        return w

    @property
    def resolved_zero(self) -> str:
        return self.zero or PRESETS[self.preset]["zero"]

    @property
    def resolved_smooth_value(self):
        return self.smooth_value if self.smooth_value is not None else SMOOTH_DEFAULTS[self.smooth]

    def with_(self, **kw) -> "ScoreConfig":
        return replace(self, **kw)

    # -- the same settings as command-line flags -----------------------------
    def cli_args(self) -> list[str]:
        """Flags of `python -m blonde_core score` that reproduce these settings."""
        args: list[str] = []
        for f, s in declared():
            args += s.to_cli(getattr(self, f.name), self)
        return args

    def signature(self, nrefs: int, pipeline: str, plus: bool = False, refined_ner: bool = False,
                  seg: str | None = None, domain: str | None = None) -> "Signature":
        return Signature(self, nrefs, pipeline, plus, refined_ner, seg, domain)


def counting_key(cfg: ScoreConfig) -> tuple:
    return tuple(getattr(cfg, f) for f in COUNTING)


def declared() -> list:
    """(dataclass field, Setting) of every declared setting, in order."""
    return [(f, f.metadata["setting"]) for f in fields(ScoreConfig) if "setting" in f.metadata]


class Signature(str):
    """The signature of the settings that made a score, e.g.
    `BlonDe|preset:blonde-0.1.4|c:...|nrefs:1|lang:en|spacy:en_core_web_sm-3.8.0/spacy-3.8.18|version:0.1.0`.

    An object built from what made the score (config, references, pipeline, BlonD+,
    refined entities); its text is for people and is never parsed back: `with_config`
    makes the signature of other settings over the same counts from the object."""

    config: ScoreConfig
    nrefs: int
    pipeline: str
    plus: bool
    refined_ner: bool
    seg: str | None  # "mwer-2": systems re-segmented into the reference's segments (io/resegment.py)
    domain: str | None  # the documents of one domain only (Study.in_domain)

    def __new__(cls, config: ScoreConfig, nrefs: int, pipeline: str, plus: bool = False, refined_ner: bool = False,
                seg: str | None = None, domain: str | None = None):
        parts = ["BlonDe"]
        for f, s in declared():
            if s.sig is not None:
                part = s.sig(config)
                if part is not None:
                    parts.append(part)
        parts.append(f"nrefs:{nrefs}")
        if plus:
            parts.append("plus:" + ",".join(f"{x:g}" for x in config.plus_weights))
        if refined_ner:
            parts.append("ner:refined")
        if seg:
            parts.append(f"seg:{seg}")
        if domain:
            parts.append(f"domain:{domain}")
        # a spaCy pipeline's id ends "/spacy-<version>"; another analyser's (annotation/analysers.py) "-adapter-<n>"
        what = "analyser" if "-adapter-" in pipeline else "spacy"
        parts += [f"lang:{config.lang}", f"{what}:{pipeline}", f"version:{__version__}"]
        self = super().__new__(cls, "|".join(parts))
        self.config, self.nrefs, self.pipeline, self.plus, self.refined_ner = config, nrefs, pipeline, plus, refined_ner
        self.seg, self.domain = seg, domain
        return self

    def with_config(self, config: ScoreConfig) -> "Signature":
        return Signature(config, self.nrefs, self.pipeline, self.plus, self.refined_ner, self.seg, self.domain)

    def __reduce__(self):
        return (Signature, (self.config, self.nrefs, self.pipeline, self.plus, self.refined_ner, self.seg,
                            self.domain))
