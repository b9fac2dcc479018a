"""The one exception type that input problems raise.

Readers, the command line and the dashboard all report an `InputError` as a
single clear message (file, line or row, what was expected); anything else
escaping from the core is a bug.
"""
from __future__ import annotations


class InputError(ValueError):
    """A problem with what the user gave us, worded for the user.

    `file` and `line` are optional; `str(err)` always names them when known.
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        self.file = file
        self.line = line
        self.problem = message
        where = ""
        if file is not None:
            where = f"{file}"
            if line is not None:
                where += f", line {line}"
            where += ": "
        super().__init__(where + message)
