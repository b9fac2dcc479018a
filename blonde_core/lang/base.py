"""The language contract: what a target language is to the metric, read from data.

A language is a folder `lang/<name>/` (or any folder, or a JSON file path) whose
`pack.json` holds:

    name, description
    analyser               optional, {"kind": "spacy" (the default) or another kind of analyser, "packages":
                           [installed packages it needs, the first one names the pipeline id, each one's version
                           enters it]}; each kind is an adapter registered where it is written
                           (annotation/adapters.py: its version, how it is made), which turns its output into the
                           same record; a kind no adapter declares is refused, naming this file, when a
                           configuration first hands the pack on (ScoreConfig.pack) or its analyser is looked up
    script                 optional, how the language is written (lang/scripts.py): {"unspaced": true (Chinese,
                           Japanese), "bleu_tokenize": sacrebleu's tokenizer for BLEU ("zh", "ja-mecab", "ko-mecab";
                           default "13a"), "ter_asian_support": true (TER normalised with Asian support)}
    spacy_pipelines        spaCy packs: pipeline packages to try, in order; spacy_components: the ones to run
    tense.features         the tense features, in column order
    tense.source           "tag" (a token's fine-grained tag is the feature, English) or "morph":
    tense.rules            {feature: {"Tense": "Past", "VerbForm": "Fin", "POS": "AUX", ...} or a list of
                           such rules}, the first rule whose every key matches the token's morphology, its
                           coarse POS, its fine tag ("TAG"), its lowercased text ("WORD"), its last
                           character ("LAST": Chinese 看着), its ending ("ENDS": Spanish -ría), the word
                           before ("PREV": Japanese て+いる) or the next token's tag ("NEXT": Chinese 在
                           before a verb); a value "a|b" matches either,
                           "!a|b" anything else (Chinese 通过 is not 过's experiential aspect)
    tense.compound         morph only: {"participle": {morphology a past participle has}, "window": n,
                           "auxiliaries": {feature: [auxiliary forms]}}: an auxiliary form followed within n
                           tokens by a participle (no finite verb between) counts once, as its compound
                           feature, on the auxiliary; the participle is not counted (French passé composé);
                           "before": n also looks back n tokens (Czech "řekl jsem": the auxiliary follows);
                           "barrier": [coarse POS] the search does not cross (e.g. PUNCT); "targets": {feature:
                           morphology} a feature's auxiliaries pair with instead of the participle (German
                           Futur: werden + infinitive)
    tense.descriptions     {feature: words a reader understands}
    tense.groups           {feature: past | present | modal/future | base form | gerund | ...} (timeline)
    pronoun.features       the pronoun classes; pronoun.words {class: [exact token texts]}
    pronoun.gendered       the classes a pronoun thread compares (e.g. masculine, feminine)
    pronoun.case_insensitive  optional, true: a word matches in any letter case ("Она" as "она")
    pronoun.impersonal     optional: token patterns (lowercase, one list each; "a|b" alternatives, "*" any
                           token) around a pronoun used without a referent: that pronoun is not counted
                           (French "il y a", "il faut", "il est important de"). The pronoun is the token
                           marked "^" ("gibt|gab", "^es": German "gibt es"), else the pattern's first
    entity.features        entity groups; entity.labels {group: [pipeline labels]};
                           entity.strip_suffixes (e.g. a possessive "’s");
                           optional rules on the recogniser's spans, each measured against the pack's gold:
                           entity.require_pos, exclude_morph, initial_require_pos, from_morph (what each
                           does: metric/features.py entities)
    <category>.empty       optional (pronoun, entity, dm), a sentence: why the language has nothing this category
                           counts (Hindi's third-person pronouns carry no gender); its "features" are then [] (and
                           [] needs this reason). The category is absent from every score - its counts are 0/0,
                           left out of the means as the package leaves out a category with no spans - never a
                           made-up number; the reason is said with the pack's notes (LanguagePack.empty)
    dm.features            discourse-marker senses; dm.markers {sense: [markers, tokens space-separated]};
                           dm.longest: true counts only the longest marker where several overlap ("antes de
                           que", not also "antes"); without it every match counts (the blonde package);
                           dm.pos optional {marker: [tag prefixes]}: the marker counts only where its first
                           token's tag begins with one of them (Japanese でも: 接続詞, not the particle).
                           dm.comma_inside: true lets a comma stand inside a marker of several tokens
                           ("після того, як"; off in English, which stays the package's)
                           dm.not optional {marker: [rules]}: where one of a marker's rules holds it is no marker
                           (Spanish "si ." is yes, "como si" as if); a rule holds when each of its keys does -
                           PREV / NEXT the word before the marker / after it (lowercase), PREV_BEGINS the word
                           before begins with one of these (a verb's stem), PREV_TAG / NEXT_TAG the tag equals
                           one or begins with it and "-" (IPAdic's levels: 名詞 is 名詞-一般), PREV_POS / NEXT_POS
                           the coarse POS, NEXT_MARKER true: a marker of the list begins right after it (Ukrainian
                           "а також": також carries the sense), QUESTION true: its sentence ends in "?"; "a|b"
                           either, "!a|b" anything else; at the text's edge a neighbour is "" ("!。|": neither 。
                           nor the start); SKIP: words stepped over to find the neighbours (Japanese 、)
    weights                {preset: {category: [per-feature weights]}}; a category not given weighs
                           each of its n features 1/n (the blonde package's scheme)
    early                  optional: the early BlonD's tuned weights {"tense": {feature: w},
                           "pronoun": [w per class]}; without it the early BlonD is not offered
    rc                     optional: RC's "content_tag_prefixes" and "function_words"
    lowercase              optional (default true, the blonde package's): whether text is lowercased before
                           annotation unless the user says otherwise (-lc / the sidebar); false annotates
                           text as written, which the analysers' names and morphology need
    notes                  optional, sentences said wherever the pack scores (the command line's notes, the
                           sidebar, the Data page): what a category means in this language, a licence
    caveats                optional, sentences that travel with every number as warnings (JSON `warnings`):
                           a measured weakness of the analyser
    detect                 optional, frequent words of the language (not used to guess: lang/detect.py does)
    lexicon                optional, spaCy packs: {"kind": "verbecc", "package": "verbecc"}, conjugation tables
                           that check the tagger's mood and tense of each finite verb (annotation/lexicon.py)

Adding a language is adding a folder: nothing outside it changes.  Nothing here
imports spaCy.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from blonde_core.errors import InputError

PACK_DIR = Path(__file__).parent  # one folder per language: lang/<name>/pack.json
NGRAM_ORDERS = (1, 2, 3, 4)


@dataclass(frozen=True)
class Script:
    """How a language is written, the facts several parts need (lang/scripts.py says who reads each)."""

    unspaced: bool = False  # no spaces between words
    bleu_tokenize: str = "13a"  # sacrebleu's tokenizer for BLEU
    ter_asian_support: bool = False  # TER normalised with Asian support

    @classmethod
    def read(cls, data: dict) -> "Script":
        """A pack's "script" object; an unknown key is refused (a misspelt fact would silently be the default)."""
        if not isinstance(data, dict):
            raise ValueError(f"script must be an object, not {data!r}")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"script: {', '.join(sorted(unknown))} is not one of "
                             f"{', '.join(cls.__dataclass_fields__)}")
        tok = data.get("bleu_tokenize", cls.bleu_tokenize)
        if not isinstance(tok, str) or not tok:
            raise ValueError(f"script.bleu_tokenize must name a sacrebleu tokenizer, not {tok!r}")
        return cls(unspaced=bool(data.get("unspaced")), bleu_tokenize=tok,
                   ter_asian_support=bool(data.get("ter_asian_support")))


@dataclass(frozen=True)
class LanguagePack:
    name: str
    description: str
    analyser: str  # the analyser kind (annotation/adapters.py: an adapter registered for each)
    analyser_packages: tuple[str, ...]  # what it needs installed (spaCy: the pipelines to try, in order)
    spacy_pipelines: tuple[str, ...]
    spacy_components: tuple[str, ...]
    tense_tags: tuple[str, ...]  # the tense features (fine-grained tags in English)
    tense_source: str  # "tag" or "morph"
    tense_rules: tuple  # morph: ((feature index, ((key, frozenset of values), ...)), ...)
    tense_compound: tuple  # morph: (participle ((key, values), ...), window, {auxiliary form: feature index},
    #                        before, barrier POS, {feature index: the rule its auxiliaries pair with instead})
    tense_descriptions: dict
    tense_groups: dict  # feature -> timeline group
    pronoun_classes: tuple[str, ...]
    pronoun_words: dict  # class -> tuple of exact token texts
    gendered: tuple[str, ...]
    entity_groups: tuple[str, ...]
    entity_labels: dict  # group -> tuple of spaCy labels
    entity_strip_suffixes: tuple[str, ...]
    dm_types: tuple[str, ...]
    dm_markers: dict  # type -> tuple of markers (space-separated token runs)
    weights: dict  # preset -> {category: tuple of weights}
    early: dict | None = None
    rc: dict | None = None
    detect: tuple = ()
    source: str = ""
    # ((offset of the pronoun in the pattern, (frozenset of alternatives | None for any, ...)), ...): not counted
    pronoun_impersonal: tuple = ()
    # derived look-ups
    pronoun_of: dict = field(default_factory=dict, compare=False)
    group_of_label: dict = field(default_factory=dict, compare=False)
    tag_index: dict = field(default_factory=dict, compare=False)
    dm_patterns: tuple = field(default=(), compare=False)  # ((type_index, (tok, ...)), ...)
    tense_keys: frozenset = field(default=frozenset(), compare=False)  # the keys the tense rules read
    _rule_keys: tuple = field(default=(), compare=False)  # the keys of the simple rules but LEXICAL_KEYS, in order
    _lexical_keys: tuple = field(default=(), compare=False)  # the simple rules' LEXICAL_KEYS, in order
    # each simple rule as (feature, its conditions on _rule_keys, its conditions on _lexical_keys)
    _lexical_rules: tuple = field(default=(), compare=False)
    _parsed: dict = field(default_factory=dict, compare=False, repr=False)  # memo: morphology string -> features
    _verdicts: dict = field(default_factory=dict, compare=False, repr=False)  # memo: _rule_keys values -> rules left
    _tagging: list = field(default_factory=list, compare=False, repr=False)  # memo: [tagging.json's content] once read
    dm_longest: bool = False
    dm_pos: dict = field(default_factory=dict, compare=False)  # marker -> tuple of tag prefixes its first token needs
    dm_comma: bool = False  # a comma may stand inside a marker of several tokens
    dm_not: dict = field(default_factory=dict, compare=False)  # marker -> its rules, each ((key, test), ...): no marker
    # the pack's rules on the recogniser's spans (metric/features.py entities): require_pos, exclude_morph,
    # initial_require_pos as frozensets; from_morph as ((group index, frozenset of "Key=Value"), ...)
    entity_rules: dict = field(default_factory=dict, compare=False)
    notes: tuple = ()
    caveats: tuple = ()
    lexicon: tuple = ()  # (kind, package) of a verb-form lexicon that checks a spaCy tagger's morphology
    lowercase: bool = True  # the default of "lowercase before annotation" for this language
    empty: dict = field(default_factory=dict, compare=False)  # category -> why it has no feature in this language
    script: Script = Script()  # how the language is written (lang/scripts.py)

    @property
    def tagging(self) -> dict:
        """What this pack's tagging measured against its gold spans: `tagging.json` beside pack.json, written
        by bench/check_tagging.py --write (per category: precision, recall, class accuracy, gold spans; the
        date, the command, the settings); {} when never measured."""
        if not self._tagging:
            f = Path(self.source).parent / "tagging.json" if self.source else None
            try:
                got = json.loads(f.read_text(encoding="utf-8")) if f is not None and f.is_file() else {}
            except (OSError, ValueError):
                got = {}
            self._tagging.append(got if isinstance(got, dict) else {})
        return self._tagging[0]

    @property
    def n_features(self) -> dict:
        """Features per category, in the metric's category order."""
        return {"tense": len(self.tense_tags), "pronoun": len(self.pronoun_classes),
                "entity": len(self.entity_groups), "dm": len(self.dm_types), "ngram": len(NGRAM_ORDERS)}

    def feature_names(self, category: str) -> tuple:
        return {"tense": self.tense_tags, "pronoun": self.pronoun_classes, "entity": self.entity_groups,
                "dm": self.dm_types, "ngram": NGRAM_ORDERS}[category]

    def preset_weights(self, preset: str) -> dict:
        """{category: per-feature weights} of a preset in this language ("paper": all 1)."""
        n = self.n_features
        if preset == "paper":
            return {c: (1.0,) * k for c, k in n.items()}
        given = self.weights.get(preset, {})
        return {c: tuple(given[c]) if c in given else (1 / k,) * k if k else () for c, k in n.items()}

    def tense_tokens(self, rec: dict) -> list[tuple[int, int]]:
        """(token index, tense feature index) of every token that carries a tense feature."""
        if self.tense_source == "tag":
            idx = self.tag_index
            return [(i, idx[t]) for i, t in enumerate(rec["t"]) if t in idx]
        if not (self.tense_rules or self.tense_compound):
            return []
        words = rec["w"]
        n = len(words)
        morph, pos, tags = rec.get("m"), rec.get("p"), rec.get("t") or [""] * n
        parsed = self._parsed  # morphology string -> {key: value}, shared across sentences (never mutated)
        feats = []
        for m in morph or ():
            f = parsed.get(m)
            if f is None:
                f = morph_features(m)
                if len(parsed) < 100_000:
                    parsed[m] = f
            feats.append(f)
        if not morph:
            feats = [{}] * n
        cols: dict = {}

        def column(k):
            """Every token's value of a rule key: its morphology, coarse POS, or (CONTEXT_KEYS) what the words
            around it say; made once per sentence and key."""
            got = cols.get(k)
            if got is None:
                if k == "POS":
                    got = pos or [None] * n
                elif k == "TAG":
                    got = tags
                elif k in ("WORD", "ENDS"):
                    got = [w.lower() for w in words]
                elif k == "LAST":
                    got = [w[-1:] for w in words]
                elif k == "PREV":
                    got = [""] + [w.lower() for w in words[:-1]]
                elif k == "NEXT":
                    got = list(tags[1:]) + [""]
                else:
                    got = [f.get(k) for f in feats]
                cols[k] = got
            return got

        out, done = [], set()
        if self.tense_compound:
            participle, window, aux, before, barrier, targets = self.tense_compound

            def is_participle(j, fi):  # the participle, or what this auxiliary's feature pairs with
                return all(column(k)[j] in v for k, v in targets.get(fi, participle))

            def blocked(j):  # the search does not cross a barrier (e.g. punctuation)
                return bool(barrier and pos and pos[j] in barrier)

            for i, w in enumerate(words):
                fi = aux.get(w.lower())
                if fi is None:
                    continue
                ahead = behind = None
                for j in range(i + 1, min(i + 1 + window, n)):
                    if blocked(j):
                        break
                    if is_participle(j, fi):
                        ahead = j
                        break
                    if feats[j].get("VerbForm") == "Fin":  # another finite verb first: not this auxiliary's
                        break
                for j in range(i - 1, max(-1, i - 1 - before), -1):
                    if blocked(j):
                        break
                    if j not in done and is_participle(j, fi):  # looking back: not one an earlier auxiliary took
                        behind = j
                        break
                    if feats[j].get("VerbForm") == "Fin":
                        break
                # the nearer one (Czech "Přišel jsem domů a řekl jsem": each jsem its own participle); a tie: ahead
                found = ahead if behind is None or (ahead is not None and ahead - i <= i - behind) else behind
                if found is not None:
                    out.append((i, fi))
                    done.update((i, found))
        # the rules read only a few keys: their verdict is memoised on those keys' values, read column by column;
        # keys that hold words (WORD, ENDS, PREV: thousands of values) stay out of the memo's key: it keeps the
        # rules that the other keys let through, in order, and only those read the words
        keys, verdicts, lexical = self._rule_keys, self._verdicts, self._lexical_rules
        skip_empty = not (pos or self.tense_keys & CONTEXT_KEYS)
        words_of = {k: column(k) for k in self._lexical_keys}
        for i, vals in enumerate(zip(*(column(k) for k in keys)) if keys else ((),) * n):
            if i in done or (skip_empty and not feats[i]):
                continue
            plan = verdicts.get(vals)
            if plan is None:
                got = dict(zip(keys, vals))
                plan = []
                for fi, rest, on_words in lexical:
                    if all(got.get(k) in v for k, v in rest):
                        plan.append((fi, on_words))
                        if not on_words:  # this rule decides whatever the words: the later ones never count
                            break
                plan = tuple(plan)
                if len(verdicts) < 100_000:
                    verdicts[vals] = plan
            for fi, on_words in plan:
                if all(words_of[k][i] in v for k, v in on_words):
                    out.append((i, fi))
                    break
        return sorted(out)

    def describe(self, category: str, feature) -> str:
        """Words for a feature (tense: its description; others: the feature's own name)."""
        if category == "tense":
            return self.tense_descriptions.get(feature, str(feature))
        if category == "ngram":
            return f"{feature}-grams"
        return str(feature)


def morph_features(m: str) -> dict:
    """A morphology string ("Mood=Ind|Tense=Past|VerbForm=Fin") as {key: value} ({} for "")."""
    return dict(kv.split("=", 1) for kv in m.split("|") if "=" in kv) if m else {}


CONTEXT_KEYS = frozenset({"TAG", "WORD", "LAST", "PREV", "NEXT", "ENDS"})  # rule keys read off the words
LEXICAL_KEYS = frozenset({"WORD", "ENDS", "PREV"})  # rule keys whose values are words (not memoised on)


class _Not(frozenset):
    """The values a rule refuses ("!a|b"): `x in` it is true for every other value (a missing key included)."""

    def __contains__(self, x):
        return not frozenset.__contains__(self, x)


class _Ends(frozenset):
    """Word endings ("ENDS": "ría|rías"): `x in` it is true for a lowercased word ending in one of them."""

    def __new__(cls, endings=()):
        self = super().__new__(cls, endings)
        self.tails = tuple(self)  # str.endswith takes a tuple: made once, not on every test
        return self

    def __contains__(self, x):
        return isinstance(x, str) and x.endswith(self.tails)


def _rule(rule: dict) -> tuple:
    """((key, values), ...): a value "a|b" accepts either, "!a|b" accepts anything but those; for "ENDS" the
    values are word endings."""
    def values(k, v):
        v = str(v)
        if k == "ENDS":
            return _Ends(v.split("|"))
        return _Not(v[1:].split("|")) if v.startswith("!") else frozenset(v.split("|"))

    return tuple(sorted((k, values(k, v)) for k, v in rule.items()))


def _impersonal(pat: list) -> tuple:
    """(offset of the pronoun, alternatives per token) of one impersonal pattern: the token marked "^" is the
    pronoun (the first token when none is)."""
    marked = [j for j, t in enumerate(pat) if t.startswith("^")]
    if len(marked) > 1:
        raise ValueError(f"impersonal pattern {pat} marks {len(marked)} pronouns with ^ (one at most)")
    return (marked[0] if marked else 0,
            tuple(None if t.lstrip("^") == "*" else frozenset(t.lstrip("^").lower().split("|")) for t in pat))


class _Levels(frozenset):
    """Tags ("名詞|記号-句点"): `x in` it is true for a tag that equals one or begins with it and "-" (IPAdic's
    levels); "" stands for no token (the text's edge) and matches only ""."""

    def __contains__(self, x):
        return any(x == v or (v and x.startswith(v + "-")) for v in self)


class _NotLevels(_Levels):
    def __contains__(self, x):
        return not _Levels.__contains__(self, x)


class _Begins(tuple):
    """Word beginnings ("pregunt|averigu"): `x in` it is true for a word that begins with one of them."""

    def __contains__(self, x):
        return bool(x) and x.startswith(tuple(self))


DM_NOT_KEYS = ("PREV", "NEXT", "PREV_BEGINS", "PREV_TAG", "NEXT_TAG", "PREV_POS", "NEXT_POS", "NEXT_MARKER",
               "QUESTION", "SKIP")


def _dm_not(rules: dict) -> dict:
    """dm.not as {marker (lowercase): (rule, ...)}, each rule ((key, test), ...) (metric/features.py
    dm_occurrences reads them; base.py's docstring says what each key means)."""
    out = {}
    for marker, rs in rules.items():
        got = []
        for r in rs:
            rule = []
            for k, v in r.items():
                if k not in DM_NOT_KEYS:
                    raise ValueError(f"dm.not of {marker!r}: {k!r} is not one of {', '.join(DM_NOT_KEYS)}")
                if k in ("NEXT_MARKER", "QUESTION"):
                    rule.append((k, bool(v)))
                    continue
                neg = isinstance(v, str) and v.startswith("!")
                alts = str(v)[1:] if neg else str(v)
                alts = alts.split("|")
                if k in ("PREV_TAG", "NEXT_TAG"):
                    rule.append((k, (_NotLevels if neg else _Levels)(alts)))
                elif k == "PREV_BEGINS":
                    rule.append((k, _Begins(a.lower() for a in alts if a)))
                elif k == "SKIP":
                    rule.append((k, frozenset(alts)))
                else:
                    low = (a.lower() for a in alts) if k in ("PREV", "NEXT") else alts
                    rule.append((k, _Not(low) if neg else frozenset(low)))
            got.append(tuple(rule))
        out[" ".join(marker.lower().split())] = tuple(got)
    return out


def _entity_rules(ent: dict) -> dict:
    """entity.require_pos, exclude_morph, initial_require_pos (lists), from_morph ({group: [Key=Value]}) and
    relabel_from_morph, whole_words (booleans) of a pack, as metric/features.py entities reads them."""
    out = {k: frozenset(ent[k]) for k in ("require_pos", "exclude_morph", "initial_require_pos") if ent.get(k)}
    for k in ("unknown_katakana", "relabel_from_morph", "whole_words"):
        if ent.get(k):
            out[k] = True
    if ent.get("from_morph"):
        groups = list(ent["features"])
        out["from_morph"] = tuple((groups.index(g), frozenset(fs)) for g, fs in ent["from_morph"].items())
    # the rules that read letter case (features.py _no_name_by_case), and English's: only under --tag-as-written
    out.update({k: frozenset(ent[k]) for k in ("initial_require_tag", "initial_exempt_labels") if ent.get(k)})
    out.update({k: True for k in ("require_capital", "initial_lexicon", "tag_as_written_only") if ent.get(k)})
    return out


def _build(data: dict, source: str) -> LanguagePack:
    try:
        tense = data["tense"]
        feats = tuple(tense["features"])
        src = tense.get("source", "tag")
        if src not in ("tag", "morph"):
            raise InputError(f"tense.source must be 'tag' or 'morph', not {src!r}", file=source, code=InputError.Codes.LANGUAGE)
        rules = tuple((feats.index(f), _rule(r)) for f, rs in tense.get("rules", {}).items()
                      for r in (rs if isinstance(rs, list) else [rs]))
        comp = tense.get("compound")
        compound = () if not comp else (_rule(comp["participle"]), int(comp.get("window", 3)),
                                        {w.lower(): feats.index(f) for f, ws in comp["auxiliaries"].items()
                                         for w in ws}, int(comp.get("before", 0)),
                                        frozenset(comp.get("barrier", ())),
                                        {feats.index(f): _rule(r) for f, r in comp.get("targets", {}).items()})
        an = data.get("analyser") or {}
        kind = an.get("kind", "spacy")
        if not isinstance(kind, str) or not kind.strip():  # which kinds exist is annotation/adapters.py's to say
            raise InputError(f"analyser.kind must name a kind of analyser, not {kind!r}", file=source,
                             code=InputError.Codes.LANGUAGE)
        packages = tuple(an.get("packages") or (data["spacy_pipelines"] if kind == "spacy" else ()))
        pron = {k: tuple(v) for k, v in data["pronoun"]["words"].items()}
        labels = {k: tuple(v) for k, v in data["entity"]["labels"].items()}
        markers = {k: tuple(v) for k, v in data["dm"]["markers"].items()}
        pack = LanguagePack(
            name=data["name"],
            description=data.get("description", ""),
            analyser=kind,
            analyser_packages=packages,
            spacy_pipelines=tuple(data.get("spacy_pipelines", packages if kind == "spacy" else ())),
            spacy_components=tuple(data.get("spacy_components", ())),
            tense_tags=feats,
            tense_source=src,
            tense_rules=rules,
            tense_compound=compound,
            tense_descriptions=dict(tense.get("descriptions", {})),
            tense_groups=dict(tense.get("groups", {})),
            pronoun_classes=tuple(data["pronoun"]["features"]),
            pronoun_words=pron,
            gendered=tuple(data["pronoun"].get("gendered", ())),
            pronoun_impersonal=tuple(_impersonal(pat) for pat in data["pronoun"].get("impersonal", ())),
            entity_groups=tuple(data["entity"]["features"]),
            entity_labels=labels,
            entity_strip_suffixes=tuple(data["entity"].get("strip_suffixes", ())),
            entity_rules=_entity_rules(data["entity"]),
            dm_types=tuple(data["dm"]["features"]),
            dm_markers=markers,
            dm_longest=bool(data["dm"].get("longest")),
            dm_pos={m.lower(): tuple(v) for m, v in data["dm"].get("pos", {}).items()},
            dm_comma=bool(data["dm"].get("comma_inside")),
            dm_not=_dm_not(data["dm"].get("not", {})),
            notes=tuple(data.get("notes", ())) + tuple(
                f"{c}: {data[c]['empty']}" for c in ("pronoun", "entity", "dm") if data[c].get("empty")),
            empty={c: str(data[c]["empty"]) for c in ("pronoun", "entity", "dm") if data[c].get("empty")},
            lowercase=bool(data.get("lowercase", True)),
            script=Script.read(data.get("script") or {}),
            caveats=tuple(data.get("caveats", ())),
            lexicon=(str(data["lexicon"]["kind"]), str(data["lexicon"]["package"])) if data.get("lexicon") else (),
            weights={p: {c: tuple(float(x) for x in w) for c, w in ws.items()}
                     for p, ws in data.get("weights", {}).items()},
            early=data.get("early"),
            rc=data.get("rc"),
            detect=tuple(data.get("detect", ())),
            source=source,
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"language pack is missing or malformed field {exc}", file=source, code=InputError.Codes.LANGUAGE) from None
    n = pack.n_features
    for c in ("pronoun", "entity", "dm"):
        if (n[c] == 0) != (c in pack.empty):
            raise InputError(f"{c}: a category with no features needs its reason in {c}.empty, and one with a reason "
                             "no features", file=source, code=InputError.Codes.LANGUAGE)
    for preset, ws in pack.weights.items():
        for c, w in ws.items():
            if c not in n or len(w) != n[c]:
                raise InputError(f"weights of preset {preset!r}: {c} needs {n.get(c, '?')} weights, got {len(w)}",
                                 file=source, code=InputError.Codes.LANGUAGE)
    # A word listed under two classes counts for each (as the package does).
    pronoun_of: dict[str, list[int]] = {}
    anycase = bool(data["pronoun"].get("case_insensitive"))
    for ci, cls in enumerate(pack.pronoun_classes):
        for w in pack.pronoun_words.get(cls, ()):
            for form in dict.fromkeys((w, w.lower(), w.capitalize(), w.upper()) if anycase else (w,)):
                if ci not in pronoun_of.get(form, ()):
                    pronoun_of.setdefault(form, []).append(ci)
    object.__setattr__(pack, "pronoun_of", {k: tuple(v) for k, v in pronoun_of.items()})
    object.__setattr__(pack, "group_of_label", {
        lab: gi for gi, g in enumerate(pack.entity_groups) for lab in pack.entity_labels.get(g, ())})
    object.__setattr__(pack, "tag_index", {t: i for i, t in enumerate(pack.tense_tags)})
    keys = {k for _, r in pack.tense_rules for k, _ in r}
    if pack.tense_compound:
        keys |= {k for k, _ in pack.tense_compound[0]}
        keys |= {k for r in pack.tense_compound[5].values() for k, _ in r}
    object.__setattr__(pack, "tense_keys", frozenset(keys))
    simple = {k for _, r in pack.tense_rules for k, _ in r}
    object.__setattr__(pack, "_lexical_keys", tuple(sorted(simple & LEXICAL_KEYS)))
    object.__setattr__(pack, "_rule_keys", tuple(sorted(simple - LEXICAL_KEYS)))
    object.__setattr__(pack, "_lexical_rules", tuple(
        (fi, tuple((k, v) for k, v in r if k not in LEXICAL_KEYS), tuple((k, v) for k, v in r if k in LEXICAL_KEYS))
        for fi, r in pack.tense_rules))
    object.__setattr__(pack, "dm_patterns", tuple(
        (ti, tuple(m.split(" "))) for ti, t in enumerate(pack.dm_types) for m in pack.dm_markers.get(t, ())))
    listed = {" ".join(toks).lower() for _, toks in pack.dm_patterns}
    for m in pack.dm_not:
        if m not in listed:
            raise InputError(f"dm.not names {m!r}, which is no marker of dm.markers", file=source,
                             code=InputError.Codes.LANGUAGE)
    return pack


@lru_cache(maxsize=None)
def load_pack(name_or_path: str = "en") -> LanguagePack:
    """Load a pack by name (`en`: lang/en/pack.json), from a folder holding pack.json, or from a JSON file."""
    path = Path(name_or_path)
    if path.suffix != ".json":
        path = path / "pack.json" if path.is_dir() and (path / "pack.json").exists() else \
            PACK_DIR / name_or_path / "pack.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, NotADirectoryError):
        raise InputError("no such language pack", file=str(path), code=InputError.Codes.LANGUAGE) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"language pack is not valid JSON ({exc})", file=str(path), code=InputError.Codes.LANGUAGE) from None
    return _build(data, str(path))


def as_pack(lang: str | LanguagePack) -> LanguagePack:
    """The pack itself when given one (what a caller that holds it passes), else load_pack's for a language's
    name, folder or file: the public functions that take `lang` take either."""
    return lang if isinstance(lang, LanguagePack) else load_pack(lang)


def has_pack(name_or_path: str) -> bool:
    """A pack of lang/ by that name, or a folder / JSON file holding one."""
    path = Path(name_or_path)
    if path.suffix == ".json":
        return path.is_file()
    return (path / "pack.json").is_file() if path.is_dir() else (PACK_DIR / name_or_path / "pack.json").is_file()


def available() -> list[str]:
    """The languages this installation has a pack for (folders of lang/ with a pack.json)."""
    return sorted(p.name for p in PACK_DIR.iterdir() if (p / "pack.json").is_file())


def guess_language(texts) -> dict:
    """The language these texts are written in, whatever it is (lang/detect.py: the script, then
    py3langid among the languages of that script), and whether a pack scores it:
    {"language": ISO 639-1 code or None (no letters), "name": its English name, "pack": the pack's
    name or None (no pack for it), "script", "confidence", "method", "chars"}.  Reads at most the
    first 20,000 characters."""
    from .detect import identify_texts

    g = identify_texts(texts)
    packs = available()
    return {**g, "pack": g["language"] if g["language"] in packs else None, "packs": packs}


def no_pack_message(code: str | None) -> str:
    """The one sentence every place says when the target language has no pack."""
    from .detect import language_name

    packs = available()
    what = f"{language_name(code)} ({code})" if code else "a language that was not recognised"
    return (f"The target texts are in {what}, and BlonDe Studio has no language pack for it (packs: "
            f"{', '.join(f'{language_name(p)} ({p})' for p in packs)}): BlonDe, BlonD-d, BlonD+, the early BlonD, RC "
            "and APT are not computed; chrF, BLEU, TER, metrics computed elsewhere and human judgments are")
