"""Which language a text is written in, whatever the language: the script first, then a
language identifier for scripts that many languages share.

1. **Script** (Unicode character names, no model): the share of letters in each script.
   A script that only one language we name writes (Hangul: Korean; Kana: Japanese; Han
   without Kana: Chinese; Thai, Greek, Hebrew, Georgian, Armenian, ...) decides at once.
2. **py3langid** (a maintained fork of langid.py, Lui & Baldwin 2012: a naive Bayes model
   of byte n-grams over 97 languages that ships inside the package, so it runs offline,
   deterministically and in ~0.1 ms a text once loaded; loading it costs ~0.35 s, paid
   only when the script does not decide) for Latin, Cyrillic, Arabic, Devanagari and
   every other shared script, restricted to the languages that write that script.

Chosen over langdetect (random by default, slower, profiles for 55 languages) and lingua
(accurate but a ~100 MB package): py3langid covers every WMT target language (cs, de,
es, fr, hi, is, ja, ru, uk, zh, ...) with a small model. Nothing here imports spaCy.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter

# ISO 639-1 code -> English name (py3langid's 97 languages and a few scripts' own).
NAMES = {
    "af": "Afrikaans", "am": "Amharic", "an": "Aragonese", "ar": "Arabic", "as": "Assamese", "az": "Azerbaijani",
    "be": "Belarusian", "bg": "Bulgarian", "bn": "Bengali", "br": "Breton", "bs": "Bosnian", "ca": "Catalan",
    "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German", "dz": "Dzongkha", "el": "Greek", "en": "English",
    "eo": "Esperanto", "es": "Spanish", "et": "Estonian", "eu": "Basque", "fa": "Persian", "fi": "Finnish",
    "fo": "Faroese", "fr": "French", "ga": "Irish", "gl": "Galician", "gu": "Gujarati", "he": "Hebrew",
    "hi": "Hindi", "hr": "Croatian", "ht": "Haitian Creole", "hu": "Hungarian", "hy": "Armenian",
    "id": "Indonesian", "is": "Icelandic", "it": "Italian", "ja": "Japanese", "jv": "Javanese", "ka": "Georgian",
    "kk": "Kazakh", "km": "Khmer", "kn": "Kannada", "ko": "Korean", "ku": "Kurdish", "ky": "Kyrgyz",
    "la": "Latin", "lb": "Luxembourgish", "lo": "Lao", "lt": "Lithuanian", "lv": "Latvian", "mg": "Malagasy",
    "mk": "Macedonian", "ml": "Malayalam", "mn": "Mongolian", "mr": "Marathi", "ms": "Malay", "mt": "Maltese",
    "my": "Burmese", "nb": "Norwegian Bokmål", "ne": "Nepali", "nl": "Dutch", "nn": "Norwegian Nynorsk",
    "no": "Norwegian", "oc": "Occitan", "or": "Odia", "pa": "Punjabi", "pl": "Polish", "ps": "Pashto",
    "pt": "Portuguese", "qu": "Quechua", "ro": "Romanian", "ru": "Russian", "rw": "Kinyarwanda",
    "se": "Northern Sami", "si": "Sinhala", "sk": "Slovak", "sl": "Slovenian", "sq": "Albanian", "sr": "Serbian",
    "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "te": "Telugu", "th": "Thai", "tl": "Tagalog",
    "tr": "Turkish", "ug": "Uyghur", "uk": "Ukrainian", "ur": "Urdu", "vi": "Vietnamese", "vo": "Volapük",
    "wa": "Walloon", "xh": "Xhosa", "zh": "Chinese", "zu": "Zulu",
}

# A script that one language (of those we name) writes: the script decides.
SCRIPT_LANGUAGE = {"Hangul": "ko", "Kana": "ja", "Thai": "th", "Greek": "el", "Hebrew": "he", "Georgian": "ka",
                   "Armenian": "hy", "Khmer": "km", "Lao": "lo", "Myanmar": "my", "Sinhala": "si", "Tamil": "ta",
                   "Telugu": "te", "Kannada": "kn", "Malayalam": "ml", "Gujarati": "gu", "Gurmukhi": "pa",
                   "Oriya": "or", "Ethiopic": "am", "Tibetan": "dz"}
# Scripts several languages write: py3langid decides among these.
SCRIPT_CANDIDATES = {
    "Latin": ["af", "an", "az", "br", "bs", "ca", "cs", "cy", "da", "de", "en", "eo", "es", "et", "eu", "fi", "fo",
              "fr", "ga", "gl", "hr", "ht", "hu", "id", "is", "it", "jv", "ku", "la", "lb", "lt", "lv", "mg", "ms",
              "mt", "nb", "nl", "nn", "no", "oc", "pl", "pt", "qu", "ro", "rw", "se", "sk", "sl", "sq", "sv", "sw",
              "tl", "tr", "vi", "vo", "wa", "xh", "zu"],
    "Cyrillic": ["be", "bg", "kk", "ky", "mk", "mn", "ru", "sr", "uk"],
    "Arabic": ["ar", "fa", "ps", "ug", "ur"],
    "Devanagari": ["hi", "mr", "ne"],
    "Bengali": ["as", "bn"],
}
_FIRST_WORD = {"CJK": "Han", "HIRAGANA": "Kana", "KATAKANA": "Kana", "HANGUL": "Hangul"}
_NOT_LANGUAGE = re.compile(r"\S+://\S+|www\.\S+|\S+@\S+\.\w+|[@#][\w.]+")  # URLs, addresses, @user, #tag
_IDENT: list = []  # the py3langid identifier, loaded once per process
MAX_CHARS = 20_000  # characters read per guess (the first ones)
DETECT_VERSION = 2  # part of the disk cache's key of a study's guesses (Study.language_keys): raise it when guesses change
MIN_CONFIDENCE = 0.5  # py3langid's probability (among the script's languages) below which nothing is guessed


def language_name(code: str | None) -> str:
    """'zh' -> 'Chinese'; an unknown code is itself."""
    return NAMES.get(code or "", code or "an unknown language")


def script_of(code: str) -> str | None:
    """The script a language is written in, as identify() names it ("zh": "Han", "ja": "Kana", "ru":
    "Cyrillic"), or None for a code we do not know."""
    if code == "zh":
        return "Han"
    for script, lang in SCRIPT_LANGUAGE.items():
        if lang == code:
            return script
    return next((script for script, codes in SCRIPT_CANDIDATES.items() if code in codes), None)


def _script(ch: str) -> str | None:
    if not ch.isalpha():
        return None
    try:
        first = unicodedata.name(ch).split(" ", 1)[0]
    except ValueError:
        return None
    if first in _FIRST_WORD:
        return _FIRST_WORD[first]
    if first in ("HALFWIDTH", "FULLWIDTH"):
        return "Kana" if "KATAKANA" in unicodedata.name(ch) else "Latin"
    return first.capitalize()  # LATIN, CYRILLIC, ARABIC, DEVANAGARI, GREEK, THAI, HEBREW, ...


_SCRIPT_OF: dict = {}  # character -> its script (or None), filled as characters are met: Unicode bounds it


def _script_counts(text: str) -> Counter:
    """{script: letters} of a text (identify() gives their shares as "scripts"), scripts in the order they first
    appear: each distinct character looked up once (a Japanese paragraph repeats its characters)."""
    out: Counter = Counter()
    known = _SCRIPT_OF
    for ch, n in Counter(text).items():  # distinct characters in the order they first appear
        s = known.get(ch, 0)
        if s == 0:
            s = known[ch] = _script(ch)
        if s:
            out[s] += n
    return out


def _identifier():
    if not _IDENT:
        from py3langid.langid import MODEL_FILE, LanguageIdentifier

        _IDENT.append(LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True))
    return _IDENT[0]


def _langid(text: str, candidates: list[str]) -> tuple[str, float]:
    ranked = _identifier().rank(text)  # [(code, probability)], most probable first
    allowed = set(candidates)
    inside = [(c, p) for c, p in ranked if c in allowed] or ranked
    total = sum(p for _, p in inside) or 1.0
    return inside[0][0], float(inside[0][1]) / total


def identify(text: str) -> dict:
    """{"language": ISO 639-1 code or None (no letters), "name", "script", "scripts": {script: share},
    "confidence": 0-1, "method": "script" | "py3langid", "chars": letters read}."""
    text = text[:MAX_CHARS]
    if "://" in text or "www." in text or "@" in text or "#" in text:  # what every pattern of it needs
        text = _NOT_LANGUAGE.sub(" ", text)
    counts = _script_counts(text)  # one pass over the letters
    n = sum(counts.values())
    sh = {k: v / n for k, v in counts.most_common()} if n else {}
    out = {"language": None, "name": None, "script": None, "scripts": sh, "confidence": 0.0, "method": None,
           "chars": n}
    if not sh:
        return out
    # Japanese writes Han and Kana together: any real share of Kana makes it Japanese.
    if sh.get("Kana", 0) >= 0.05:
        lang, script = "ja", "Kana"
    else:
        script = next(iter(sh))
        lang = "zh" if script == "Han" else SCRIPT_LANGUAGE.get(script)
    if lang is not None:
        out.update(language=lang, script=script, confidence=round(sh[script] + sh.get("Han", 0) * (lang == "ja"), 4),
                   method="script")
    else:
        code, p = _langid(text, SCRIPT_CANDIDATES.get(script, []))
        # too little text to tell ("The Cat sat": Tagalog at 0.06): not recognised, rather than a wrong language
        out.update(language=code if p >= MIN_CONFIDENCE else None, script=script, confidence=round(p, 4),
                   method="py3langid", candidate=code)
    out["name"] = language_name(out["language"])
    return out


def identify_texts(texts, max_chars: int = MAX_CHARS) -> dict:
    """identify() over the first max_chars characters of several texts (segments) joined."""
    parts, n = [], 0
    for t in texts:
        parts.append(t)
        n += len(t) + 1
        if n >= max_chars:
            break
    return identify("\n".join(parts))


# The scripts a language's text is written in (Japanese: Kana and Han; Korean: Hangul and Han), for the share of
# its letters a text has (target_share).
_SCRIPTS_OF = {"ja": ("Kana", "Han"), "ko": ("Hangul", "Han")}
FOREIGN_SCRIPT_SHARE = 0.1  # a text with less than this share of its letters in the target's script is foreign


def target_share(g: dict, target: str) -> float | None:
    """The share of an identify() answer's letters written in the target language's script(s) (None: a target
    whose script we do not know)."""
    scripts = _SCRIPTS_OF.get(target) or ((script_of(target),) if script_of(target) else ())
    return sum(g["scripts"].get(s, 0.0) for s in scripts) if scripts else None


def foreign_script(g: dict, target: str) -> str | None:
    """For an identify() answer in no language it knows: "Latin script" when (almost) none of its letters are in
    the target's script (Latin gibberish under a Ukrainian target: not the target language, whatever it is), else
    None.  A text that mixes in the target's letters (a name, a URL beside Chinese) is not foreign."""
    if g["language"] is not None or not g["script"]:
        return None
    share = target_share(g, target)
    return f"{g['script']} script" if share is not None and share < FOREIGN_SCRIPT_SHARE else None


def segment_languages(segments, target: str, sample: int = 200) -> dict:
    """How many of (a sample of evenly spread) segments are not written in `target`:
    {"checked", "other": {code: count}, "empty"}; a segment of fewer than 20 letters is not judged.  A segment in
    no language the identifier knows, written (almost) without the target's script, counts under its script's
    name ("Latin script"; foreign_script)."""
    segs = list(segments)
    step = max(1, len(segs) // sample)
    other: Counter = Counter()
    checked = empty = 0
    for s in segs[::step][:sample]:
        if not s.strip():
            empty += 1
            continue
        g = identify(s)
        if g["chars"] < 20:
            continue
        checked += 1
        lang = g["language"]
        if lang is not None and lang != target:
            other[lang] += 1
        elif lang is None and foreign_script(g, target):
            other[foreign_script(g, target)] += 1
    return {"checked": checked, "other": dict(other.most_common()), "empty": empty}


_WORD = re.compile(r"[^\W\d_]+")  # a run of letters
_LOOKALIKE = frozenset({"Latin", "Cyrillic", "Greek"})  # scripts that share letter shapes (a, е, о, р, с, х, ...)


def mixed_script_words(text: str) -> int:
    """Words whose letters mix Latin, Cyrillic and Greek (a Cyrillic 'о' inside a Latin word): homoglyphs, which
    no writer types and which make a text look like its language while its words match nothing."""
    n = 0
    for w in _WORD.findall(text[:MAX_CHARS]):
        if w.isascii():
            continue
        seen = {_SCRIPT_OF[ch] if ch in _SCRIPT_OF else _SCRIPT_OF.setdefault(ch, _script(ch)) for ch in w}
        n += len(seen & _LOOKALIKE) > 1
    return n


__all__ = ["NAMES", "foreign_script", "identify", "identify_texts", "language_name", "mixed_script_words",
           "script_of", "segment_languages", "target_share"]


def _self_check() -> None:  # pragma: no cover - a quick look from the shell: python -m blonde_core.lang.detect
    import sys

    for line in sys.stdin:
        print(identify(line.strip()))


if __name__ == "__main__":  # pragma: no cover
    _self_check()
