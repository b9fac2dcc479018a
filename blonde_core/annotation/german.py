"""German context rules over HanTa's STTS tags (analysers.HantaAnalyser): which *es* has no referent, and which
capitalised words make one name.

German writes every noun with a capital letter, so a capital alone tells no name; HanTa tags proper nouns NE
(from its lexicon and its guess for unknown words), foreign words FM, and guesses NN for many names it does not
know. The rules, each measured against the pack's gold (lang/de/README.md):

Names (`german_names`), on text as written:
- an NE word written in lower case is no name (*sodass*, *lol*, a misspelt verb: German writes names
  capitalised);
- adjacent name words are one name (*Angela Merkel*), and so are capitalised foreign words (FM: *The Now*,
  *I Made a Case*, *Budget Act*) with short lower-case foreign words between (*a*, *'n*).
Tried and dropped (lang/de/README.md): an unknown capitalised NN taken for a name, capitalised adjectives and
verbs beside a name joined to it, an unknown NE ending in a known noun taken for a compound.

Expletive *es* (`german_expletives`: Duden, *Die Grammatik*, 9th ed., 2016, §§ 1277-1283, on *es* as
placeholder, correlate and formal subject; the pack's `pronoun.impersonal` patterns cover the fixed phrases):
- the placeholder before a plural verb: *Es sind tatsächlich 500*, *es waren viele* (the verb agrees with the
  subject that follows, so *es* is not it);
- the correlate of a *dass*/*ob* clause or a *zu*-infinitive that follows its clause: *Es freut mich, euch zu
  sehen*, *War es Zufall, dass ...*;
- *es geht* / *es liegt* with adverbs between (*mir geht es sehr gut*, *es liegt quasi an*), and existential
  *es ... gibt* at the end of a subordinate clause (*wenn es ein besseres Verständnis dafür gibt*)."""
from __future__ import annotations

PLURAL_VERBS = frozenset({"sind", "waren", "wären", "seien"})
CORRELATE_HEADS = frozenset({"dass", "daß", "ob"})
EXISTENTIAL = frozenset({"gibt", "gab", "gäbe"})


def _punct(tag: str, word: str) -> bool:
    return tag.startswith("$") or not any(c.isalnum() for c in word)


def _clause_end(words, tags, k: int) -> int:
    """Index of the first punctuation after word k (len(words) when none)."""
    j = k + 1
    while j < len(words) and not _punct(tags[j], words[j]):
        j += 1
    return j


def _infinitive_clause(words, tags, a: int, b: int) -> bool:
    """Is words[a:b] a zu-infinitive clause that can complement a verb (an infinitive with zu: *zu sprechen*,
    *abzuschießen*; no finite verb; not an adverbial one with um, ohne, statt: *um ehrlich zu sein*)?"""
    if tags[a] == "KOUI" or any(t.endswith("FIN") for t in tags[a:b]):
        return False
    return any(t.endswith("IZU") for t in tags[a:b]) or any(
        tags[i] == "PTKZU" and tags[i + 1].endswith("INF") for i in range(a, b - 1))


def german_expletives(words: list[str], tags: list[str]) -> list[int]:
    """Indices of the words *es* that are expletive (see the module's docstring)."""
    out = []
    n = len(words)
    for k, w in enumerate(words):
        if w.lower() != "es":
            continue
        nxt = words[k + 1].lower() if k + 1 < n else ""
        end = _clause_end(words, tags, k)
        if nxt in PLURAL_VERBS and (k == 0 or _punct(tags[k - 1], words[k - 1]) or tags[k - 1] in ("KON", "ADV")):
            out.append(k)
            continue
        if end < n and words[end] == "," and end + 1 < n:
            after = _clause_end(words, tags, end + 1)
            if words[end + 1].lower() in CORRELATE_HEADS or _infinitive_clause(words, tags, end + 1, after):
                out.append(k)
                continue
        verb_before = k and words[k - 1].lower() in ("geht", "ging", "ginge", "liegt", "lag")
        verb_after = nxt in ("geht", "ging", "ginge", "liegt", "lag")
        if verb_before or verb_after:
            j = k + 1 + (1 if verb_after else 0)
            while j < end and tags[j] in ("ADV", "PTKNEG"):
                j += 1
            verb = words[k - 1 if verb_before else k + 1].lower()
            if j < end and ((verb in ("geht", "ging", "ginge") and tags[j] == "ADJD")
                            or (verb in ("liegt", "lag") and words[j].lower() == "an")):
                out.append(k)
                continue
        if k and tags[k - 1] == "KOUS" and end - 1 > k and words[end - 1].lower() in EXISTENTIAL:
            out.append(k)
    return out


def german_names(words: list[str], tags: list[str], text: str, offs: list[int]) -> list[tuple[int, int]]:
    """(first word, last word + 1) of each name in a text written with capitals (see the module's docstring)."""
    n = len(words)

    def name(k):  # a capitalised NE or foreign word
        return words[k][:1].isupper() and (tags[k] == "NE" or (tags[k] == "FM" and words[k][:1].isalpha()))

    def glue(k):  # a short lower-case foreign word or article inside a foreign name: a, of, 'n
        return (tags[k] in ("FM", "ART") and words[k][:1].islower() and len(words[k]) <= 3
                and words[k].replace("'", "").isalpha())

    out: list[tuple[int, int]] = []
    k = 0
    while k < n:
        if not name(k):
            k += 1
            continue
        j = last = k
        while j + 1 < n and not text[offs[j] + len(words[j]):offs[j + 1]].strip() and (name(j + 1) or glue(j + 1)):
            j += 1
            if name(j):
                last = j
        out.append((k, last + 1))
        k = last + 1
    return out
