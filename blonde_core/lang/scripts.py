"""How languages are written, where several parts need the same fact (issue 61: there were three lists).

UNSPACED: written without spaces between words - re-segmentation aligns characters (io/resegment.py), and a
name stands inside a longer string of characters (metric/features.py).
ASIAN: sacrebleu's TER is computed normalised with Asian support for these targets (analysis/standard.py),
every character a token; Korean is spaced, but its Hangul is split as WMT does it."""

UNSPACED = ("zh", "ja")
ASIAN = ("zh", "ja", "ko")
