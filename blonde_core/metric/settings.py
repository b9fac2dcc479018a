"""Scoring settings, presets and the reproducibility signature."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from blonde_core import __version__

CATEGORY_NAMES = ("tense", "pronoun", "entity", "dm", "ngram")
DISCOURSE = ("tense", "pronoun", "entity", "dm")
N_FEATURES = {"tense": 7, "pronoun": 4, "entity": 2, "dm": 5, "ngram": 4}

PACKAGE_WEIGHTS = {
    "tense": (1 / 7,) * 7,
    "pronoun": (0.5, 0.5, 0.0, 0.0),
    "entity": (1.0, 0.0),
    "dm": (0.2,) * 5,
    "ngram": (0.25,) * 4,
}
UNIFORM_WEIGHTS = {k: (1.0,) * n for k, n in N_FEATURES.items()}

PRESETS = {
    # Reproduces the published `blonde` 0.1.4 package (see shared/spec).
    "blonde-0.1.4": dict(weights=PACKAGE_WEIGHTS, zero="floor"),
    # The paper's definition: uniform feature weights, zero matches smoothed to delta/total.
    "paper": dict(weights=UNIFORM_WEIGHTS, zero="delta"),
}
SMOOTH_DEFAULTS = {"exp": None, "floor": 0.1, "add-k": 1.0, "none": None}
LOG_FLOOR = 1e-5  # the package floors every value at 1e-5 before its log
PAPER_DELTA = 1e-4


@dataclass(frozen=True)
class ScoreConfig:
    preset: str = "blonde-0.1.4"
    categories: tuple = CATEGORY_NAMES
    weights: dict | None = None  # None: the preset's; else category -> tuple of per-feature weights
    plus_weights: tuple = (1.0, 1.0)
    average: str = "geometric"  # or "arithmetic"
    smooth: str = "exp"  # n-gram smoothing: exp, floor, add-k, none
    smooth_value: float | None = None
    zero: str | None = None  # discourse zero matches: floor (package) or delta (paper); None: preset's
    lowercase: bool = True  # the package's command line lowercases by default
    aggregation: str = "max"  # over references: max or sum
    granularity: str = "sentence"  # or "document"
    lang: str = "en"
    # categories with no span in the reference or in the system: kept in the unit's mean (the
    # package: their 0 is floored at 1e-5 by the geometric mean) or left out of it ("skip")
    absent: str = "keep"
    _extra: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        from blonde_core.errors import InputError

        if self.preset not in PRESETS:
            raise InputError(f"unknown preset '{self.preset}' (choose from {', '.join(PRESETS)})")
        bad = [c for c in self.categories if c not in CATEGORY_NAMES]
        if bad or not self.categories:
            raise InputError(f"unknown categories {bad} (choose from {', '.join(CATEGORY_NAMES)})")
        object.__setattr__(self, "categories", tuple(c for c in CATEGORY_NAMES if c in self.categories))
        checks = {"average": ("geometric", "arithmetic"), "smooth": tuple(SMOOTH_DEFAULTS),
                  "aggregation": ("max", "sum"), "granularity": ("sentence", "document"),
                  "absent": ("keep", "skip")}
        for name, allowed in checks.items():
            if getattr(self, name) not in allowed:
                raise InputError(f"{name} must be one of {', '.join(allowed)}, not '{getattr(self, name)}'")
        if self.zero is not None and self.zero not in ("floor", "delta"):
            raise InputError("zero must be 'floor' or 'delta'")
        if self.weights is not None:
            for cat, w in self.weights.items():
                if cat not in N_FEATURES:
                    raise InputError(f"weights given for unknown category '{cat}'")
                if len(w) != N_FEATURES[cat]:
                    raise InputError(f"{cat} needs {N_FEATURES[cat]} weights, got {len(w)}")
                if any(x < 0 for x in w):
                    raise InputError(f"{cat} weights must not be negative")
        if len(self.plus_weights) != 2:
            raise InputError("BlonD+ needs 2 weights (ambiguity, ellipsis)")

    # -- resolved settings -------------------------------------------------
    @property
    def resolved_weights(self) -> dict:
        w = {k: tuple(float(x) for x in v) for k, v in PRESETS[self.preset]["weights"].items()}
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
        args = ["--preset", self.preset]
        if self.categories != CATEGORY_NAMES:
            args += ["-c"] + [("n-gram" if c == "ngram" else c) for c in self.categories]
        if self.weights:
            flag = {"tense": "-wt", "pronoun": "-wp", "entity": "-we", "dm": "-wdm", "ngram": "-wng"}
            args.append("-w")
            for c, w in self.weights.items():
                args += [flag[c]] + [f"{x:.10g}" for x in w]
        if self.average != "geometric":
            args += ["-aver", self.average]
        if self.smooth != "exp":
            args += ["-sm", self.smooth]
        if self.smooth_value is not None:
            args += ["-sv", f"{self.smooth_value:g}"]
        if self.zero is not None:
            args += ["--zero", self.zero]
        if not self.lowercase:
            args += ["-lc", "no"]
        if self.aggregation != "max":
            args += ["--aggregation", self.aggregation]
        if self.granularity != "sentence":
            args += ["--granularity", self.granularity]
        if self.lang != "en":
            args += ["--lang", self.lang]
        if self.absent == "skip":
            args += ["--skip-absent"]
        return args

    # -- signature ---------------------------------------------------------
    def signature(self, nrefs: int, pipeline: str, plus: bool = False, refined_ner: bool = False) -> str:
        wdesc = "preset"
        if self.weights:
            rw = self.resolved_weights
            wdesc = ";".join(f"{c}=" + ",".join(f"{x:.4g}" for x in rw[c]) for c in self.categories)
        sm = self.smooth
        if self.smooth in ("floor", "add-k"):
            sm += f"({self.resolved_smooth_value:g})"
        parts = [
            "BlonDe",
            f"preset:{self.preset}",
            "c:" + ",".join(self.categories),
            f"w:{wdesc}",
            "case:" + ("lc" if self.lowercase else "mixed"),
            "avg:" + ("geo" if self.average == "geometric" else "arith"),
            f"smooth:{sm}",
            f"zero:{self.resolved_zero}",
            *(["absent:skip"] if self.absent == "skip" else []),
            f"agg:{self.aggregation}",
            "gran:" + ("sent" if self.granularity == "sentence" else "doc"),
            f"nrefs:{nrefs}",
        ]
        if plus:
            parts.append("plus:" + ",".join(f"{x:g}" for x in self.plus_weights))
        if refined_ner:
            parts.append("ner:refined")
        parts += [f"lang:{self.lang}", f"spacy:{pipeline}", f"version:{__version__}"]
        return "|".join(parts)
