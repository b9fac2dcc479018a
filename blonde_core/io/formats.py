"""Input formats as one table: every kind of file a user brings, declared once (issue 61 point 3).

An `InputFormat` says what a format is called (`name`, and `label` for people), which files it is
(`extensions`, and `sniff`: recognised from its name and first bytes), how it is read (`read`), what it looks
like (`help`) and which flag and uploader take it (its `role`: "texts" - one structured file, `--input`;
"judgments" - human judgments, `--human`; "metric scores" - metrics computed elsewhere, `--metric-scores`;
"folders" - a whole release folder or a zip of one, `--wmt-dir`).  `FORMATS` holds the files' formats in the
order a file is tried: the first format of its role that recognises it reads it, and a format without a sniff reads
whatever the others did not (the last of its role).  A folder's formats are io/wmt.py's `LAYOUTS`, each recognised
from the folder's members, in the same way.

The views loop over it: the Data page's uploaders and folder tab (their labels, help and accepted types), the
command line's --input, --human, --metric-scores and --wmt-dir help (`accepted`), and Study's loading
(`read_structured_with_human`, `read_judgment_files`, `read_metric_file`, io/wmt.py's `read_wmt`).  A new format is
its reader plus one entry here (a folder's layout: one entry in LAYOUTS).  Every problem stays the reader's
`InputError`, naming the file, the line and what was expected.

This module sits above every reader (readers, human, da, esa, metric_scores), so none imports another in a
cycle to dispatch.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from blonde_core.errors import InputError
from .corpus import Corpus
from .da import bind, is_da, read_da
from .esa import bind_esa, is_esa, read_esa
from .human import is_mqm, mqm_corpus, read_judgments, read_mqm
from .metric_scores import SCORE_FILE, read_comet_json, read_metric_table, read_score_file
from .readers import NamedBytes, decode_bytes, read_bytes, read_jsonl, read_table, read_wmt_xml


class Peek:
    """What a sniff looks at: a file's name (`name`, `low` in lower case, `base` without folders) and its text,
    decoded once when a sniff first asks for it (`text`, `head`: its first 200 characters after blanks, in
    lower case).  A file that cannot be decoded is refused there, as its reader would refuse it."""

    def __init__(self, file: NamedBytes):
        self.file, self.name = file, str(file)
        self.low = self.name.lower()
        self.base = self.name.replace("\\", "/").rsplit("/", 1)[-1]

    @cached_property
    def text(self) -> str:
        return decode_bytes(self.file.data, self.name)

    @property
    def head(self) -> str:
        return self.text.lstrip()[:200].lower()


@dataclass(frozen=True)
class Role:
    """Which flag and which uploader of the Data page take the formats of a role, and what they are for."""
    name: str
    what: str  # what a file of this role brings, for the help texts
    flag: str  # the command line's flag
    uploader: str  # the Data page's uploader (its session-state key)
    noun: str  # "judgment" in "several judgment files ..."
    how: str = "recognised by name and first bytes"  # how a file of the role is told to be of a format


@dataclass(frozen=True)
class InputFormat:
    """One input format.  read's arguments depend on the role: texts (file, reference_systems) -> (Corpus,
    HumanScores or None); judgments (file, or the files when `many`, **asked) -> HumanScores; metric scores (file,
    corpus, lower_is_better) -> {metric name: ExternalMetric}."""
    name: str
    role: str
    label: str
    help: str
    read: Callable
    sniff: Callable[[Peek], bool] | None = None  # None: whatever the formats before it did not recognise
    extensions: tuple = ()  # the names it usually has (the sniff decides)
    many: bool = False  # several files are read together as one

    @property
    def said(self) -> str:
        return f"{self.label}: {self.help}"


ROLES = {r.name: r for r in (
    Role("texts", "one structured file carrying references and systems", "--input", "up_struct", "text"),
    Role("judgments", "human judgments", "--human", "up_human", "judgment"),
    Role("metric scores", "scores of metrics computed elsewhere", "--metric-scores", "up_metrics", "metric-score"),
    Role("folders", "a whole release folder (or a .zip of one): documents, references, systems, human and metric "
                    "scores", "--wmt-dir", "up_wmt_zip", "folder", "its layout recognised from the folder's members"),
)}


# -- the readers as each role calls them ---------------------------------------------------------------------------
def _mqm_texts(f, reference_systems):
    m = read_mqm(f)
    return mqm_corpus(m, list(reference_systems), str(f)), m.scores


def _esa(files, corpus: Corpus | None = None, pair=None, mapping=None, common: bool = True, **_):
    if corpus is None:
        raise InputError("is an ESA export of Appraise: its segment ids are line numbers of the released test set, "
                         "so it is read together with the texts (score, correlate, the dashboard)",
                         file=", ".join(map(str, files)), code=InputError.Codes.JUDGMENTS)
    return bind_esa(read_esa(files), corpus, pair() if callable(pair) else pair, mapping, common)


def _da(f, corpus: Corpus | None = None, score_column=None, mapping=None, higher_is_better: bool = True, **_):
    if corpus is None:
        raise InputError("is a WMT DA segment-score table (SYS, SID): its segment ids are line numbers of the "
                         "test set, so it is read together with the texts (correlate, the dashboard)",
                         file=str(f), code=InputError.Codes.JUDGMENTS)
    return bind(read_da(f, score_column), corpus, mapping, higher_is_better)


def _score_file(f, corpus: Corpus, lower_is_better=()) -> dict:
    m = read_score_file(f, corpus)
    m.higher_is_better = m.name not in lower_is_better
    return {m.name: m}


def _texts_only(reader):
    """A reader of texts alone as the role calls it: (corpus, no judgments)."""
    return lambda f, reference_systems: (reader(f, reference_systems), None)


FORMATS = (
    # one structured file: references and systems (and the judgments an MQM file carries)
    InputFormat(name="wmt-xml", role="texts", label="WMT XML",
                help="<dataset><collection><doc id> with <src>, <ref translator>, <hyp system> blocks of <seg id>",
                read=_texts_only(read_wmt_xml), extensions=(".xml",),
                sniff=lambda p: p.head.startswith("<?xml") or p.head.startswith("<dataset") or p.low.endswith(".xml")),
    InputFormat(name="mqm", role="texts", label="MQM TSV",
                help="Google's MQM release, known by its header; its judgments come along",
                read=_mqm_texts, extensions=(".tsv",), sniff=lambda p: is_mqm(p.file)),
    InputFormat(name="jsonl", role="texts", label="JSON Lines", help="one object a line, the table's columns as keys",
                read=_texts_only(read_jsonl), extensions=(".jsonl", ".ndjson"),
                sniff=lambda p: p.low.endswith((".jsonl", ".ndjson")) or p.head.startswith("{")),
    InputFormat(name="table", role="texts", label="a TSV/CSV table",
                help="doc_id, seg_id, text, system, ref... columns, aliases accepted",
                read=_texts_only(read_table), extensions=(".tsv", ".csv")),
    # human judgments
    InputFormat(name="esa", role="judgments", label="ESA exports (Appraise's CSV)",
                help="one or several, read together", read=_esa, extensions=(".csv",), many=True,
                sniff=lambda p: is_esa(p.file)),
    InputFormat(name="mqm", role="judgments", label="MQM TSV",
                help="Google's MQM release, known by its header, with error spans",
                read=lambda f, **_: read_mqm(f).scores, extensions=(".tsv",), sniff=lambda p: is_mqm(p.file)),
    InputFormat(name="da", role="judgments", label="a WMT DA / ESA segment-score table",
                help="SYS, SID and a score column such as RAW.SCR or esa, bound to the loaded texts by line",
                read=_da, extensions=(".csv", ".tsv"), sniff=lambda p: is_da(p.file)),
    InputFormat(name="table", role="judgments", label="a judgments table",
                help="system, doc_id, optional seg_id and one score column", extensions=(".tsv", ".csv"),
                read=lambda f, score_column=None, higher_is_better=True, **_: read_judgments(f, score_column,
                                                                                             higher_is_better)),
    # scores of metrics computed elsewhere
    InputFormat(name="wmt-score", role="metric scores", label="WMT-layout score files NAME.LEVEL.score",
                help="lines 'SYSTEM SCORE', None for missing; LEVEL sys, domain, doc or seg",
                read=_score_file, extensions=(".score",), sniff=lambda p: bool(SCORE_FILE.match(p.base))),
    InputFormat(name="comet-json", role="metric scores", label="COMET's --to_json output",
                help="segment scores per system file", read=read_comet_json, extensions=(".json",),
                sniff=lambda p: p.text.lstrip()[:1] in ("{", "[") or p.base.lower().endswith(".json")),
    InputFormat(name="table", role="metric scores", label="a table",
                help="system, optional doc and seg columns, one column per metric; seg: the test set's line, or the "
                     "segment within its document when a doc column is there",
                read=read_metric_table, extensions=(".tsv", ".csv")),
)


def _is_zip(p: Peek) -> bool:
    return p.low.endswith(".zip")


def _folder_formats() -> tuple:
    """The "folders" role: one format per layout of io/wmt.py's LAYOUTS, read at each call (a layout added there is
    taken here, by the Data page's folder tab and by --wmt-dir's help)."""
    from . import wmt

    return tuple(InputFormat(name=lay.name, role="folders", label=lay.label, help=lay.help, read=lay.read,
                             extensions=(".zip",), sniff=_is_zip) for lay in wmt.LAYOUTS)


def of_role(role: str) -> tuple:
    """The formats a role's flag and uploader take, in the order a file is tried."""
    if role not in ROLES:
        raise KeyError(f"no input role {role!r} (roles: {', '.join(ROLES)})")
    return tuple(f for f in FORMATS + _folder_formats() if f.role == role)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


@dataclass(frozen=True)
class Accepted:
    """What a role's flag and uploader take, as the views show it: `label` (the formats' names), `help` (each
    with what it looks like), `types` (the file extensions an uploader accepts; None: any name, when a format of
    the role reads whatever the others do not recognise), `flag`, `uploader`, `what`."""
    role: Role
    formats: tuple

    @property
    def label(self) -> str:
        return _listed([f.label for f in self.formats])

    @property
    def help(self) -> str:
        return "; ".join(f.said for f in self.formats)

    @property
    def types(self) -> list[str] | None:
        if any(f.sniff is None for f in self.formats):
            return None
        return sorted({e.lstrip(".") for f in self.formats for e in f.extensions})

    @property
    def flag(self) -> str:
        return self.role.flag

    @property
    def uploader(self) -> str:
        return self.role.uploader

    @property
    def what(self) -> str:
        return self.role.what

    @property
    def how(self) -> str:
        return self.role.how


def accepted(role: str) -> Accepted:
    """What the flag and the uploader of this role take (a role the table lacks: KeyError)."""
    formats = of_role(role)
    return Accepted(ROLES[role], formats)


def _loaded(path) -> NamedBytes:
    """The file read once, whatever it is given as (a path, or an upload's NamedBytes)."""
    return path if isinstance(path, NamedBytes) else NamedBytes(str(path), read_bytes(path))


def recognise(role: str, files: list) -> InputFormat:
    """The first format of the role that recognises every file (several files only a format that reads them
    together); several files no such format takes are refused, saying which formats are read together."""
    peeks = [Peek(f) for f in files]
    for fmt in of_role(role):
        if len(files) > 1 and not fmt.many:
            continue
        if fmt.sniff is None or all(fmt.sniff(p) for p in peeks):
            return fmt
    many = [f.label for f in of_role(role) if f.many]
    raise InputError(f"several {ROLES[role].noun} files are read together only when all are {_listed(many)}"
                     if many else f"one {ROLES[role].noun} file at a time", file=", ".join(map(str, files)),
                     code=InputError.Codes.JUDGMENTS if role == "judgments" else InputError.Codes.OPTIONS)


# -- what Study calls ------------------------------------------------------------------------------------------------
def read_structured_with_human(path, reference_systems=()):
    """(corpus, human scores or None) of one structured file: an MQM file carries both; the file is read once."""
    mem = _loaded(path)
    return recognise("texts", [mem]).read(mem, list(reference_systems))


def read_structured(path, reference_systems=()) -> Corpus:
    """The corpus of one structured file (WMT XML, MQM TSV, JSON Lines or a TSV/CSV table)."""
    return read_structured_with_human(path, reference_systems)[0]


def read_judgment_files(paths: list, *, corpus: Corpus | None = None, pair=None,
                        mapping: dict | None = None, score_column: str | None = None, higher_is_better: bool = True,
                        common: bool = True):
    """Human judgments from one file, or from several read together (ESA exports): a table bound to `corpus`
    where its segment ids are line numbers (DA, ESA: names mapped with `mapping` first; ESA rows of the
    language `pair` - a pair, or a function giving it, asked only then - compared on the segments judged for every
    system when `common`)."""
    mems = [_loaded(p) for p in paths]
    fmt = recognise("judgments", mems)
    return fmt.read(mems if fmt.many else mems[0], corpus=corpus, pair=pair, mapping=mapping,
                    score_column=score_column, higher_is_better=higher_is_better, common=common)


def read_human(path, score_column: str | None = None, higher_is_better: bool = True, corpus: Corpus | None = None,
               mapping: dict | None = None):
    """One judgments file: MQM TSV (recognised by its header), a WMT DA / ESA segment-score table (bound to
    `corpus`: its SIDs are line numbers, its names mapped with `mapping` first), or a judgments table."""
    return read_judgment_files([path], corpus=corpus, mapping=mapping, score_column=score_column,
                               higher_is_better=higher_is_better)


def read_metric_file(path, corpus: Corpus, lower_is_better=()) -> dict:
    """Scores of metrics computed elsewhere, by the file's name and content -> {metric name: ExternalMetric}."""
    fmt = recognise("metric scores", [_loaded(path)])
    return fmt.read(path, corpus, tuple(lower_is_better))
