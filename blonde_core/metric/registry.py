"""What each metric is, said once: the metric registry.

A `MetricSpec` holds a metric's name, family, direction, points scale, the units a
paired test may resample it over, what it needs from the language (and the sentence
saying why it is not offered) and the module that computes it.  `Catalog`, the paired
tests, `correlate`'s orientation, the pages and the command line ask here; no other
file lists metric names, directions or scales.

Adding a metric column is one entry in `SPECS` plus its computation in the module its
`computed_by` names (that module reads its names from here: `names(family)`).

The BlonDe family (BlonDe, BlonD-d, BlonD+ and their categories, also with a ``.R``
or ``.P`` suffix) is 0-1 in the core and shown in points (x 100); every other metric
keeps its own scale.  Metrics computed elsewhere (COMET, MetricX, ...) are not known
in advance: `external(name, higher_is_better, seg)` makes their spec from the file.
"""
from __future__ import annotations

from dataclasses import dataclass

UNITS = ("segment", "block", "doc")  # what a paired test resamples (analysis/stats/units.py)
DEFAULT_SEED = 12345  # every resampling's seed unless the user gives one (bootstrap, permutations, draws)
TER_MAX_SEGMENTS = 20_000  # TER by default only up to this many system segments (sacrebleu takes minutes beyond)


@dataclass(frozen=True)
class MetricSpec:
    """One metric.  family: "blonde" (BlonDe, BlonD-d, BlonD+), "category" (their categories and n-gram
    orders), "sacrebleu" (BLEU, chrF, TER), "document" (d-BLEU, d-chrF: sacrebleu over whole documents),
    "companion" (the seed papers' Otem, Utem, early BlonD, RC), "apt" or "external".  points: what a score
    is multiplied by to be shown in points (100 for the BlonDe family's 0-1; 1 for metrics on their own
    scale).  units: what a paired test may resample it over.  needs: what the language must give ("pack":
    a language pack; "pack.early", "pack.rc": that part of it; "source": the source texts and a supported
    pair).  computed_by: the module that computes it.  what: one line for people."""
    name: str
    family: str
    higher_is_better: bool = True
    points: int = 1
    units: tuple = UNITS
    needs: str = "pack"
    computed_by: str = ""
    what: str = ""

    @property
    def direction(self) -> str:
        return "higher is better" if self.higher_is_better else "lower is better"

    def oriented(self, name: str | None = None) -> tuple[float, str]:
        """(sign, key) that make it higher-is-better for correlations: (-1, "-TER") for TER."""
        key = name or self.name
        return (1.0, key) if self.higher_is_better else (-1.0, f"-{key}")

    def tested_over(self, unit: str) -> bool:
        """May a paired test resample this metric over `unit` ("doc", "block:5", "segment")?"""
        return unit.partition(":")[0] in self.units

    def units_sentence(self) -> str:
        """Why a unit is refused: "BLEU is tested over documents only (unit doc)"."""
        if self.units == ("doc",):
            return f"{self.name} is tested over documents only (unit doc)"
        return f"{self.name} is tested over {', '.join(self.units)} units"

    def unavailable(self, pack=None, has_source: bool = True) -> str | None:
        """None when the metric can be computed for this target language (a LanguagePack, or None when the
        language has none); else the sentence saying why not."""
        if self.needs == "" or self.family == "external":
            return None
        if self.needs == "source" and not has_source:
            return f"{self.name} needs the source texts"
        if pack is None:
            return f"{self.name} needs a language pack for the target language"
        if self.needs.startswith("pack."):
            part = self.needs.partition(".")[2]
            if not getattr(pack, part, None):
                return f"{self.name} needs the {pack.name!r} language pack's '{part}' entry, which it does not have"
        return None


def _blonde(name, what):
    return MetricSpec(name, "blonde", points=100, computed_by="metric.scoring", what=what)


def _category(name):
    return MetricSpec(name, "category", points=100, computed_by="metric.scoring",
                      what=f"BlonDe's {name} category (F1, or .R / .P)")


def _sacrebleu(name, higher=True, what=""):
    return MetricSpec(name, "sacrebleu", higher, units=("doc",), needs="", computed_by="analysis.standard", what=what)


def _document(name, what):
    return MetricSpec(name, "document", units=("doc",), needs="", computed_by="analysis.standard", what=what)


def _companion(name, higher, needs, what):
    return MetricSpec(name, "companion", higher, needs=needs, computed_by="analysis.companion", what=what)


SPECS: dict[str, MetricSpec] = {s.name: s for s in (
    _blonde("BlonDe", "the geometric mean of the discourse categories and n-grams (0-1; shown x 100)"),
    _blonde("BlonD-d", "BlonDe's discourse categories only"),
    _blonde("BlonD+", "BlonDe with the human-annotated ambiguity and ellipsis spans"),
    *(_category(c) for c in ("tense", "pronoun", "entity", "dm", "ngram", "ambiguity", "ellipsis",
                             "1", "2", "3", "4")),
    _sacrebleu("BLEU", what="sacrebleu's BLEU (tokenizer of the target language)"),
    _sacrebleu("chrF", what="sacrebleu's chrF"),
    _sacrebleu("TER", False, what="sacrebleu's TER"),
    _document("d-BLEU", "BLEU over whole documents (each document's segments joined)"),
    _document("d-chrF", "chrF over whole documents"),
    _companion("Otem", False, "pack", "over-translated n-grams (Yang et al. 2018)"),
    _companion("Utem", False, "pack", "under-translated n-grams (Yang et al. 2018)"),
    _companion("BlonD-recall", True, "pack.early", "the early BlonD, recall-based (Jiang et al. 2021)"),
    _companion("dBlonD-recall", True, "pack.early", "the early BlonD's discourse part, recall-based"),
    _companion("BlonD-dist", False, "pack.early", "the early BlonD, distance-based"),
    _companion("dBlonD-dist", False, "pack.early", "the early BlonD's discourse part, distance-based"),
    _companion("RC", True, "pack.rc", "lexical cohesion: content words repeating an earlier one (Wong and Kit 2012)"),
    MetricSpec("APT", "apt", points=100, units=("doc",), needs="source", computed_by="analysis.apt",
               what="accuracy of pronoun translation (Miculicich Werlen and Popescu-Belis 2017; 0-1, shown x 100)"),
)}
PARTS = ("R", "P", "F1")  # a BlonDe-family name may carry one: "BlonD-d.R"


def names(*families: str) -> tuple:
    """The registered metrics of these families, in registration order."""
    return tuple(n for n, s in SPECS.items() if s.family in families)


def external(name: str, higher_is_better: bool = True, seg: bool = True) -> MetricSpec:
    """A metric computed elsewhere, as its file describes it: segment scores resample over any unit,
    document scores over documents only."""
    return MetricSpec(name, "external", higher_is_better, units=UNITS if seg else ("doc",), needs="",
                      computed_by="io.metric_scores", what="computed elsewhere (scores read from a file)")


def spec(name: str) -> MetricSpec | None:
    """The spec of a registered metric, also for "BlonD-d.R" (the BlonDe family with a part) and
    "-TER" (a name oriented for correlation); None for a name the registry does not know."""
    if name in SPECS:
        return SPECS[name]
    base, _, part = name.rpartition(".")
    if part in PARTS and base in SPECS and SPECS[base].family in ("blonde", "category"):
        return SPECS[base]
    if name.startswith("-") and name[1:] in SPECS:
        return SPECS[name[1:]]
    return None


def points_factor(name: str) -> int:
    """What a metric's scores and differences are multiplied by to be in points (0-100), as the pages and
    `score`'s text show them: 100 for the BlonDe family, 1 for every other metric (metrics computed elsewhere
    keep their own scale)."""
    s = spec(name)
    return s.points if s is not None else 1


def higher_is_better(name: str) -> bool:
    """A registered metric's direction; a name the registry does not know counts as higher-is-better."""
    s = spec(name)
    return True if s is None else s.higher_is_better


def direction(name: str) -> str:
    return "higher is better" if higher_is_better(name) else "lower is better"


def available(pack, families=("companion",), has_source: bool = True) -> tuple:
    """The metrics of these families a target language (its pack, or None) can give."""
    return tuple(n for n in names(*families) if SPECS[n].unavailable(pack, has_source) is None)
