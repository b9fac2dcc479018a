"""The metric registry (blonde_core/metric/registry.py) is the one place that says what a metric is:
every metric the core computes is registered, the computations read their names and directions from it,
and no other module keeps its own list of directions, scales or seeds."""
import re
from pathlib import Path

import pytest

from blonde_core.metric import registry
from blonde_core.study import CATALOG, ScoreConfig, Study

ROOT = Path(__file__).resolve().parent.parent


def test_every_registered_metric_has_a_family_a_direction_and_a_computation():
    for name, s in registry.SPECS.items():
        assert s.name == name
        assert s.family in ("blonde", "category", "sacrebleu", "document", "companion", "apt")
        assert s.points in (1, 100)
        assert s.units and set(s.units) <= set(registry.UNITS)
        mod = "blonde_core." + s.computed_by
        __import__(mod)  # the module it names exists
        assert s.what


def test_lookup_by_part_and_oriented_name_and_the_old_points_rule():
    assert registry.spec("BlonD-d.R") is registry.SPECS["BlonD-d"]
    assert registry.spec("entity.P") is registry.SPECS["entity"]
    assert registry.spec("-TER") is registry.SPECS["TER"]
    assert registry.spec("BLEU.R") is None and registry.spec("COMET") is None
    # the rule the paired tests used before the registry: 100 for the BlonDe family and its categories
    family = {"BlonDe", "BlonD-d", "BlonD+", "tense", "pronoun", "entity", "dm", "ngram", "ambiguity", "ellipsis",
              "1", "2", "3", "4"}
    for m in sorted(family) + ["BLEU", "chrF", "TER", "d-BLEU", "Otem", "RC", "APT", "COMET", "xCOMET-XL"]:
        for name in (m, f"{m}.R", f"{m}.P", f"{m}.F1"):
            base = name.rpartition(".")[0] if name.rpartition(".")[2] in ("R", "P", "F1") else name
            assert registry.points_factor(name) == (100 if base in family or name == "APT" else 1), name
    lower = {m for m, s in registry.SPECS.items() if not s.higher_is_better}
    assert lower == {"TER", "Otem", "Utem", "BlonD-dist", "dBlonD-dist"}
    assert CATALOG.direction("TER") == "lower is better" and CATALOG.direction("COMET") == "higher is better"
    assert registry.SPECS["TER"].oriented() == (-1.0, "-TER") and registry.SPECS["chrF"].oriented() == (1.0, "chrF")


def test_the_units_a_metric_is_tested_over():
    assert registry.SPECS["BLEU"].tested_over("doc") and not registry.SPECS["BLEU"].tested_over("block:5")
    assert registry.SPECS["BlonDe"].tested_over("segment") and registry.SPECS["Otem"].tested_over("block:3")
    assert registry.external("COMET", seg=False).units == ("doc",)
    assert registry.external("COMET", seg=True).tested_over("segment")
    assert registry.SPECS["TER"].units_sentence() == "TER is tested over documents only (unit doc)"


def test_availability_per_language_is_asked_of_the_registry():
    en, fr = CATALOG.language("en"), CATALOG.language("fr")
    assert CATALOG.companions_for("en") == registry.names("companion")
    assert CATALOG.companions_for("fr") == ("Otem", "Utem")  # fr has no early weights, no RC lists
    why = registry.SPECS["RC"].unavailable(fr)
    assert why and "'rc' entry" in why and "'fr'" in why
    assert registry.SPECS["RC"].unavailable(en) is None
    assert registry.SPECS["BlonDe"].unavailable(None) == "BlonDe needs a language pack for the target language"
    assert registry.SPECS["chrF"].unavailable(None) is None  # sacrebleu needs no pack
    assert registry.SPECS["APT"].unavailable(en, has_source=False) == "APT needs the source texts"


def test_the_computations_give_exactly_the_registered_metrics_on_ted(ted, tmp_path):
    """The real pipeline on two TED talks: the companion scores, sacrebleu's metrics and the BlonDe family
    the core computes are the registry's names, with the registry's direction and scale."""
    lines = (ted / "docids.txt").read_text(encoding="utf-8").splitlines()
    first = lines[0]
    n = sum(1 for d in lines if d == first)  # the first talk
    names = ["SMU", "Online-W"]

    def head(p, out):
        out.write_text("\n".join(p.read_text(encoding="utf-8").splitlines()[:n]) + "\n", encoding="utf-8")
        return str(out)
    tmp = Path(tmp_path)
    study = Study.from_files([head(ted / "refs" / "ref.txt", tmp / "ref.txt")],
                             [head(ted / "systems" / f"{m}.txt", tmp / f"{m}.txt") for m in names],
                             docids=head(ted / "docids.txt", tmp / "docids.txt"))
    cfg = ScoreConfig()
    comp = study.companions(cfg)
    assert set(comp["SMU"]) - {"documents"} == set(registry.names("companion"))
    std = study.standards(cfg.granularity, CATALOG.standard)
    assert tuple(std.metrics) == registry.names("sacrebleu", "document")
    res = study.analysis(cfg)
    for m in res.metric_names():
        assert registry.spec(m) is not None and registry.points_factor(m) == 100, m
    # TER lower is better: correlate's oriented table negates it, as the registry says
    from blonde_core.analysis.stats import oriented_tables
    t = oriented_tables("system", names, standard=std, companion=comp)
    assert t["-TER"]["SMU"] == -std.score("TER", "SMU") and t["chrF"]["SMU"] == std.score("chrF", "SMU")
    assert t["-Otem"]["SMU"] == -comp["SMU"]["Otem"] and t["RC"]["SMU"] == comp["SMU"]["RC"]


def test_no_module_but_the_registry_lists_directions_scales_or_the_seed():
    pattern = re.compile(r'"TER": False|LOWER_IS_BETTER|HIGHER_IS_BETTER|\b12345\b|\("BLEU", "chrF", "TER"\)|'
                         r'\("BlonDe", "BlonD-d", "BlonD\+"\)')
    found = []
    for p in sorted(list((ROOT / "blonde_core").rglob("*.py")) + list((ROOT / "pages").glob("*.py"))
                    + list((ROOT / "studio").glob("*.py"))):
        if p.name == "registry.py":
            continue
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) and not line.lstrip().startswith("#"):
                found.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not found, "\n".join(found)
