"""The one exception type that input problems raise, with a code per kind of problem.

Readers, the command line and the dashboard all report an `InputError` as a
single clear message (file, line or row, what was expected); anything else
escaping from the core is a bug.  Every error carries a code (as spaCy numbers
its errors): callers branch on `exc.code`, never on the wording, and users can
look the code up in `ERRORS` (the command line prints it after the message).
"""
from __future__ import annotations


class Codes:
    """The kinds of input problem, by name (the values are the codes users see)."""
    OTHER = "E000"
    SETTING = "E001"  # a setting's or an option's value is not one the core knows
    OPTIONS = "E002"  # options that go together are missing, or options that exclude each other are both given
    UNREADABLE = "E010"  # a file cannot be read as text: missing, a directory, not UTF-8, binary
    EMPTY = "E011"  # a file (or table) has no content where content is needed
    MALFORMED = "E012"  # a line, row or field of a file is not in the expected form
    COUNTS = "E013"  # files that go together do not have the same lines, segments or documents
    NAMES = "E014"  # a name is unknown, missing, or used twice
    SENTENCE_COUNTS = "E020"  # sentence-level matching needs equal sentence counts: document-level matching helps
    JUDGMENTS = "E030"  # human judgments cannot be used as given
    LANGUAGE = "E040"  # a language pack is missing or malformed
    PIPELINE = "E041"  # no spaCy pipeline for the language is installed
    SCHEDULER = "E042"  # a Dask scheduler cannot be reached, has no workers, or a worker's pipeline differs
    NO_PACK = "E043"  # the target language has no language pack: the BlonDe family is not computed
    TOO_LITTLE = "E050"  # not enough data for what was asked
    TOO_MUCH = "E051"  # more than this server takes at once (its limits per upload)
    OUTPUT = "E060"  # the output cannot be written


ERRORS = {
    Codes.OTHER: "another problem with the input",
    Codes.SETTING: "a setting's or an option's value is not one the core knows",
    Codes.OPTIONS: "options that go together are missing, or options that exclude each other are both given",
    Codes.UNREADABLE: "a file cannot be read as text (missing, a directory, not UTF-8, binary)",
    Codes.EMPTY: "a file or table has no content where content is needed",
    Codes.MALFORMED: "a line, row or field of a file is not in the expected form",
    Codes.COUNTS: "files that go together do not have the same lines, segments or documents",
    Codes.NAMES: "a name is unknown, missing or used twice",
    Codes.SENTENCE_COUNTS: "a system has other sentence counts than the reference: sentence-level matching needs "
                           "equal counts, document-level matching does not",
    Codes.JUDGMENTS: "human judgments cannot be used as given",
    Codes.LANGUAGE: "a language pack is missing or malformed",
    Codes.PIPELINE: "no spaCy pipeline for the language is installed",
    Codes.SCHEDULER: "a Dask scheduler cannot be reached, has no workers, or a worker's pipeline differs",
    Codes.NO_PACK: "the target language has no language pack, so the BlonDe family is not computed (chrF, BLEU, "
                   "TER, metrics computed elsewhere and human judgments are)",
    Codes.TOO_LITTLE: "not enough data for what was asked",
    Codes.TOO_MUCH: "more data than this server takes at once (its limits per upload)",
    Codes.OUTPUT: "the output cannot be written",
}


class InputError(ValueError):
    """A problem with what the user gave us, worded for the user.

    `file` and `line` are optional; `str(err)` always names them when known.
    `code` is one of `Codes` (E000 when no kind was given).
    """

    Codes = Codes

    def __init__(self, message: str, file: str | None = None, line: int | None = None, code: str = Codes.OTHER,
                 page: str | None = None):
        self.file = file
        self.line = line
        self.problem = message
        self.code = code
        self.page_problem = page  # the same problem in the dashboard's words (its controls, not flags)
        where = ""
        if file is not None:
            where = f"{file}"
            if line is not None:
                where += f", line {line}"
            where += ": "
        self.where = where
        super().__init__(where + message)

    def for_page(self) -> str:
        """The message as a page shows it: what to do in the dashboard where the command line's
        message names a flag."""
        return self.where + (self.page_problem or self.problem)
