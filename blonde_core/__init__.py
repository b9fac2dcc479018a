"""BlonDe Studio's scoring core: exact, fast BlonDe / BlonD-d / BlonD+.

No Streamlit here.  The parts, each a folder whose docstring says what it promises,
and every import pointing down this list:

    lang/        what a target language is to the metric (a pack per language)
    annotation/  text -> one record per distinct sentence (spaCy, the disk store)
    io/          files -> a Corpus and human judgments; errors name file and line
    metric/      settings, features, sufficient statistics, the formula (start at
                 metric/blonde.py, the formula is metric/scoring.py)
    analysis/    statistics, diagnostics, contrast, companion and standard metrics
    study.py     the one door: a Study answers every question a page or command asks
    cli/         the command line, on top of Study
"""
__version__ = "0.1.0"

from .errors import InputError  # noqa: E402,F401
