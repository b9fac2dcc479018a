"""A whole WMT evaluation folder in one step: the layout of the WMT metrics task's data
(mt-metrics-eval), for one language pair LP (e.g. zh-en):

    documents/LP.docs                      "DOMAIN DOCID" per segment
    sources/LP.txt                         the source, one segment per line
    references/LP.NAME.txt                 each reference
    system-outputs/LP/NAME.txt             each system (a name that is also a reference's is
                                           that reference, loaded once, as a reference)
    metadata/LP.jsonl                      WMT24: a segment's "domain" and "docid" (checked)
    metadata/LP/NAME.jsonl                 mt-metrics-eval 2025: one object per segment of a
                                           system (checked: one line per segment, JSON objects)
    human-scores/LP.NAME.LEVEL.score       human scores (LEVEL sys, domain, doc, seg)
    metric-scores/LP/NAME-REF.LEVEL.score  metric scores, the same lines

Texts may also be JSON Lines as mt-metrics-eval writes them since 2025: sources/LP.jsonl
(field "source"), references/LP.NAME.jsonl ("target"), system-outputs/LP/NAME.jsonl
("hypothesis"), one object per segment; they read exactly as the .txt lines.  A segment
"[No translation supplied]" (mt-metrics-eval's marker) is a missing output: read as an
empty segment, counted and said.

Read from a folder on disk or from a zip of one (the folder may sit one level down).  WMT25's release (JSON
Lines: a test set, systems/, automatic_scores/, the human evaluation) is recognised the same way and read by
io/wmt25.py.  Damage stays where it is: a system file with bytes that are not UTF-8 is read with them replaced
(counted, its lines named), an empty system or one with another number of lines is set aside; each said in
`damage`, the rest of the pair loads.
Score lines are ``SYSTEM SCORE`` (``DOMAIN SYSTEM SCORE`` at domain level), ``None``
for a missing score; segment and document files list every system's values in test-set
order.  Everything read is checked against the texts (metric_scores.py).
"""
from __future__ import annotations

import dataclasses
import io
import math
import posixpath
import unicodedata
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from blonde_core.errors import InputError
from .corpus import Corpus
from .judgments import HumanScores, check_scale, scale_of
from .metric_scores import LEVELS, metric_from_score_files, parse_score_name, read_score_lines
from .readers import NamedBytes, decode_bytes, reading_limit, split_lines

MAX_ZIP_BYTES = 2_000_000_000  # uncompressed; a zip that unpacks to more is refused before reading
NO_TRANSLATION = "[No translation supplied]"  # mt-metrics-eval's marker of a missing output
TEXT_FIELDS = {"sources": "source", "references": "target", "system-outputs": "hypothesis"}  # their .jsonl fields
GOLD_ORDER = ("mqm", "esa", "esa-human1", "esa-human2", "da-sqm", "wmt-appraise", "wmt-z", "wmt-raw", "raw", "z")


class _Tree:
    """Files under a root (a folder, or a zip's members): relative posix paths -> bytes."""

    def __init__(self, names: list[str], read, label: str):
        self.names, self._read, self.label = sorted(names), read, label

    def under(self, prefix: str) -> list[str]:
        return [n for n in self.names if n.startswith(prefix) and "/" not in n[len(prefix):]]

    def name(self, rel: str) -> str:
        """A member's name in messages and command lines (nothing read)."""
        return f"{self.label}/{rel}"

    def get(self, rel: str) -> NamedBytes:
        return NamedBytes(self.name(rel), self._read(rel))

    def has(self, rel: str) -> bool:
        return rel in self.names


def _from_dir(root: Path, roots=None) -> _Tree:
    """A folder's files; roots (a server's allowed folders): every member, followed through any link, must lie
    inside one of them, else the folder is refused naming the member (a link inside a served folder that
    points elsewhere would let a web user read any file)."""
    if not root.is_dir():
        raise InputError("is not a folder", file=str(root), code=InputError.Codes.UNREADABLE)
    files = [p for p in root.rglob("*") if p.is_file()]
    if roots is not None:
        allowed = [Path(r).resolve() for r in roots]
        for p in files:
            real = p.resolve()
            if not any(real == r or r in real.parents for r in allowed):
                raise InputError(f"has a member that leads outside the folders this server serves "
                                 f"({p.relative_to(root).as_posix()}, a link); such a folder is not read",
                                 file=str(root), code=InputError.Codes.UNREADABLE)
    names = [p.relative_to(root).as_posix() for p in files]
    return _Tree(names, lambda rel: (root / rel).read_bytes(), str(root))


def _from_zip(data: bytes, label: str) -> _Tree:
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise InputError("is not a zip file", file=label, code=InputError.Codes.UNREADABLE) from None
    infos = [i for i in z.infolist() if not i.is_dir()]
    total = sum(i.file_size for i in infos)
    if total > MAX_ZIP_BYTES:
        raise InputError(f"unpacks to {total:,} bytes; at most {MAX_ZIP_BYTES:,} are read", file=label,
                         code=InputError.Codes.TOO_MUCH)
    names = [posixpath.normpath(i.filename) for i in infos]
    if any(n.startswith("../") or n.startswith("/") for n in names):
        raise InputError("has a member outside its own folder", file=label, code=InputError.Codes.MALFORMED)
    twice = sorted(n for n, c in Counter(names).items() if c > 1)
    if twice:
        raise InputError(f"holds '{twice[0]}' twice (two members of one name: which one is meant cannot be told); "
                         "zip the folder again", file=label, code=InputError.Codes.MALFORMED)
    by = {posixpath.normpath(i.filename): i for i in infos}
    return _Tree(names, lambda rel: _read_member(z, by[rel], label), label)


MAX_MEMBER_BYTES = 512_000_000  # one member, uncompressed
MAX_RATIO = 200  # uncompressed / compressed past the first megabyte: text compresses ~3-10 x, a zip bomb ~1000 x
CHUNK = 1 << 20


def _read_member(z: zipfile.ZipFile, info: zipfile.ZipInfo, label: str) -> bytes:
    """A member's bytes, read a megabyte at a time and refused as soon as it passes MAX_MEMBER_BYTES or inflates
    more than MAX_RATIO times its compressed size (whatever its header claims); a broken, encrypted or
    unsupported member is an InputError naming it."""
    import zlib

    name = f"{label}/{info.filename}"
    cap = min(MAX_MEMBER_BYTES, reading_limit("bytes") or MAX_MEMBER_BYTES)
    parts, got = [], 0
    try:
        with z.open(info) as f:
            while True:
                chunk = f.read(CHUNK)
                if not chunk:
                    break
                got += len(chunk)
                if got > cap:
                    raise InputError(f"unpacks to more than {cap:,} bytes; this reads at most that much of one file",
                                     file=name, code=InputError.Codes.TOO_MUCH)
                if got > CHUNK and got > MAX_RATIO * max(info.compress_size, 1):
                    raise InputError(f"unpacks to more than {MAX_RATIO} times its packed size ({info.compress_size:,} "
                                     f"bytes packed, {got:,} unpacked so far): a zip bomb or no text folder; refused",
                                     file=name, code=InputError.Codes.TOO_MUCH)
                parts.append(chunk)
    except InputError:
        raise
    except RuntimeError as exc:  # zipfile: "File ... is encrypted, password required for extraction"
        raise InputError(f"cannot be read ({'it is encrypted' if 'encrypt' in str(exc) else exc}); zip the folder "
                         "without a password", file=name, code=InputError.Codes.UNREADABLE) from None
    except NotImplementedError as exc:  # AES encryption, compression methods zipfile lacks
        raise InputError(f"uses a packing zipfile cannot read ({exc}); zip the folder with plain deflate",
                         file=name, code=InputError.Codes.UNREADABLE) from None
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
        raise InputError(f"is damaged ({exc}); zip the folder again", file=name,
                         code=InputError.Codes.UNREADABLE) from None
    return b"".join(parts)


def _root(tree: _Tree) -> tuple[_Tree, list]:
    """The tree re-rooted at the folder holding documents/ (at the top or one level down), and its pairs."""
    tops = sorted({n.split("/documents/")[0] + "/" if "/documents/" in n else "" for n in tree.names
                   if n.startswith("documents/") or "/documents/" in n})
    tops = [t for t in tops if t.count("/") <= 1]
    if not tops:
        raise InputError("has no documents/ folder (expected the WMT layout: documents/LP.docs, sources/LP.txt, "
                         "references/LP.NAME.txt, system-outputs/LP/NAME.txt)", file=tree.label,
                         code=InputError.Codes.MALFORMED)
    top = tops[0]
    sub = _Tree([n[len(top):] for n in tree.names if n.startswith(top)], lambda rel: tree._read(top + rel),
                tree.label + ("/" + top.rstrip("/") if top else ""))
    return sub, sorted(n[len("documents/"):-len(".docs")] for n in sub.under("documents/") if n.endswith(".docs"))


def _rooted(tree: _Tree, lp: str | None) -> tuple[_Tree, str]:
    """The tree re-rooted at the folder holding documents/ (at the top or one level down), and the
    language pair (given, or the only one its documents/ folder has)."""
    sub, pairs = _root(tree)
    if lp is None:
        if len(pairs) != 1:
            what = f"holds {len(pairs)} language pairs ({', '.join(pairs) or 'none'}); choose one"
            raise InputError(f"{what} with --lp", file=sub.label, code=InputError.Codes.OPTIONS,
                             page=f"{what} in the language-pair box")
        lp = pairs[0]
    elif lp not in pairs:
        raise InputError(f"has no documents/{lp}.docs (language pairs here: {', '.join(pairs) or 'none'})",
                         file=sub.label, code=InputError.Codes.NAMES)
    return sub, lp


def _wmt25(tree: _Tree):
    """WMT25's layout found in the tree (io/wmt25.py wmt25_root), only where there is no documents/ folder."""
    if any(n.startswith("documents/") or "/documents/" in n for n in tree.names):
        return None
    from .wmt25 import wmt25_root

    return wmt25_root(tree)


def wmt_pairs(source, roots=None) -> list[str]:
    """The language pairs of a WMT-layout folder or zip (its documents/LP.docs; no text is read), or of WMT25's
    release (its test set's document ids)."""
    layout, found = layout_of(_tree(source, roots))
    return layout.pairs(found)


def _tree(source, roots=None) -> _Tree:
    if isinstance(source, NamedBytes):
        return _from_zip(source.data, source.name)
    p = Path(source)
    if p.is_file():
        return _from_zip(p.read_bytes(), str(p))
    if p.exists():
        return _from_dir(p, roots)
    raise InputError("no such folder or zip file", file=str(p), code=InputError.Codes.UNREADABLE)


@dataclass
class WmtFolder:
    corpus: Corpus
    lp: str
    domains: dict  # document id -> domain
    human: HumanScores | None
    gold: str | None  # the human score used
    golds: dict  # every human score name -> levels found
    metrics: dict  # metric name -> ExternalMetric
    skipped: list = field(default_factory=list)  # (file, why) read and not used
    missing: dict = field(default_factory=dict)  # text name -> segments "[No translation supplied]" (read as empty)
    system_metadata: dict = field(default_factory=dict)  # system -> the fields of metadata/LP/NAME.jsonl
    left_out: list = field(default_factory=list)  # what of the test set is left out, and why (the WMT24 canary)
    layout: str = ""  # the label of its layout in LAYOUTS (read_wmt sets it)
    # what of the release is damaged, and what was done with it: [{"file", "kind", "lines", "said"}]
    damage: list = field(default_factory=list)
    misaligned: dict = field(default_factory=dict)  # WMT25: system -> documents whose paragraphs do not match

    def understood(self) -> dict:
        c = self.corpus
        return {"layout": self.layout, "language pair": self.lp, "documents": len(c.doc_ids),
                "domains": dict(sorted(_count(self.domains.values()).items())), "segments": c.n_segments,
                "references": list(c.references), "systems": list(c.systems), "source": c.source is not None,
                "human scores": {k: sorted(v) for k, v in self.golds.items()}, "human score used": self.gold,
                "metrics": {k: m.describe()["levels"] for k, m in sorted(self.metrics.items())},
                "no translation supplied": {k: v for k, v in self.missing.items() if v},
                "system metadata": {k: sorted(v) for k, v in sorted(self.system_metadata.items())},
                "left out": [f"{f}: {why}" for f, why in self.left_out],
                "not used": [f"{f}: {why}" for f, why in self.skipped],
                "damage": [f"{x['file']}: {x['said']}" for x in self.damage],
                "paragraphs do not match": {k: list(v) for k, v in self.misaligned.items()}}


def _count(xs) -> dict:
    out: dict = defaultdict(int)
    for x in xs:
        out[x] += 1
    return out


def _lines(tree: _Tree, rel: str, damage: list | None = None) -> list[str]:
    """A member's lines; with `damage` (a system's file), bytes that are not UTF-8 are replaced instead of refusing
    the file, and said there (which lines, how many bytes)."""
    f = tree.get(rel)
    try:
        return split_lines(decode_bytes(f.data, f.name))
    except InputError as exc:
        if damage is None or not exc.problem.startswith("not valid UTF-8"):
            raise
    from .wmt25 import decode_counting

    text, bad = decode_counting(f.data)
    lines = sorted(bad)
    damage.append({"file": f.name, "kind": "not UTF-8", "lines": lines, "bytes": sum(bad.values()),
                   "said": f"{sum(bad.values())} byte(s) that are not UTF-8 on line(s) "
                           f"{', '.join(map(str, lines[:10]))}{' ...' if len(lines) > 10 else ''}: read with each "
                           "replaced by U+FFFD"})
    return split_lines(text)


def _jsonl(tree: _Tree, rel: str, skip: int = 0, damage: list | None = None) -> list[dict]:
    """One JSON object per line (the first `skip` lines, a canary, taken as they are); an error names the member
    and line."""
    from .jsonsafe import loads

    rows = []
    for k, line in enumerate(_lines(tree, rel, damage), 1):
        if k <= skip:
            rows.append({})
            continue
        row = loads(line, tree.name(rel), k)
        if not isinstance(row, dict):
            raise InputError("is not a JSON object", file=tree.name(rel), line=k, code=InputError.Codes.MALFORMED)
        rows.append(row)
    return rows


def _text_lines(tree: _Tree, rel: str, skip: int = 0, damage: list | None = None) -> list[str]:
    """A text's segments from LP...txt (one a line) or LP...jsonl (mt-metrics-eval 2025: the field of its
    folder, "source", "target" or "hypothesis", in each line's object); damage: as _lines."""
    if not rel.endswith(".jsonl"):
        return _lines(tree, rel, damage)
    key = TEXT_FIELDS[rel.split("/", 1)[0]]
    out = []
    for k, row in enumerate(_jsonl(tree, rel, skip, damage), 1):
        v = row.get(key, "" if k <= skip else None)  # a canary line need not carry the field
        if not isinstance(v, str):
            got = "no" if key not in row else f"a {type(v).__name__} as"
            raise InputError(f"has {got} \"{key}\" field (each line of a {rel.split('/', 1)[0]} .jsonl file is "
                             f"an object with the segment's text as \"{key}\")", file=tree.name(rel), line=k,
                             code=InputError.Codes.MALFORMED)
        if "\n" in v or "\r" in v:
            v = " ".join(v.splitlines())  # one segment, as its .txt line would hold it
        out.append(v)
    return out


def _text_members(tree: _Tree, folder: str, prefix: str) -> dict:
    """{name: member} of the texts under folder whose file name is prefix + NAME + .txt or .jsonl; a name given
    both ways is refused (two texts, one name)."""
    out: dict = {}
    for rel in tree.under(folder):
        base = rel[len(folder):]
        if not base.startswith(prefix):
            continue
        for ext in (".txt", ".jsonl"):
            if base.endswith(ext):
                name = base[len(prefix):-len(ext)]
                if not name.strip() or any(unicodedata.category(c)[0] == "C" for c in name):
                    why = "no name" if not name.strip() else "a line break or another control character in its name"
                    raise InputError(f"member {rel!r} gives a text {why} ({name!r}): a text's name is its file's "
                                     "name, shown in every table; rename the file", file=tree.label,
                                     code=InputError.Codes.NAMES)
                if name in out:
                    raise InputError(f"has both {out[name].rsplit('/', 1)[-1]} and {base}: one text, two files; "
                                     "keep one", file=tree.name(folder.rstrip("/")), code=InputError.Codes.NAMES)
                out[name] = rel
    return out


def wmt_text(source, lp: str | None, name: str) -> tuple[str, list[str]]:
    """(file label, every line) of one text of a WMT-layout folder or zip: the reference NAME
    (references/LP.NAME.txt) or the system NAME (system-outputs/LP/NAME.txt), or .jsonl; lines as in the file,
    the canary included, so that line numbers are the file's."""
    layout, found = layout_of(_tree(source))
    return layout.text(found, lp, name)


def _mme_text(tree: _Tree, lp: str | None, name: str) -> tuple[str, list[str]]:
    """wmt_text in the mt-metrics-eval layout."""
    tree, lp = _rooted(tree, lp)
    refs = _text_members(tree, "references/", lp + ".")
    systems = _text_members(tree, f"system-outputs/{lp}/", "")
    rel = refs.get(name) or systems.get(name)
    if rel is None:
        raise InputError(f"has no text '{name}' for {lp} (references: {', '.join(sorted(refs)) or 'none'}; "
                         f"systems: {', '.join(sorted(systems)) or 'none'})", file=tree.label,
                         code=InputError.Codes.NAMES)
    return tree.name(rel), _text_lines(tree, rel, 0)


def read_wmt(source, lp: str | None = None, gold: str | None = None, lower_is_better=(),
             esa_common: bool = True, roots=None) -> WmtFolder:
    """A WMT-layout folder (a path) or zip (a path ending .zip, or NamedBytes of one) -> WmtFolder;
    esa_common: ESA systems compared only on the segments judged for every one of them (WMT24's way); roots: the
    folders a server allows, every member of a folder checked to lie inside one (links followed)."""
    layout, found = layout_of(_tree(source, roots))
    w = layout.read(found, lp, gold, lower_is_better, esa_common)
    w.layout = layout.label
    return w


def _mme_read(tree: _Tree, lp: str | None, gold: str | None, lower_is_better, esa_common: bool) -> WmtFolder:
    """read_wmt in the mt-metrics-eval layout."""
    tree, lp = _rooted(tree, lp)
    docs_rel = f"documents/{lp}.docs"
    doc_lines = _lines(tree, docs_rel)
    if not doc_lines:
        raise InputError("is empty", file=tree.name(docs_rel), code=InputError.Codes.EMPTY)
    # WMT24 on: the first line is a canary string (domain and document "canary") that the task never
    # scores; it is left out of every file, and said so
    skip = 0
    while skip < len(doc_lines) and doc_lines[skip].split()[:1] == ["canary"]:
        skip += 1
    ids, domains = [], {}
    for k, line in enumerate(doc_lines[skip:], skip + 1):
        parts = line.split()
        if len(parts) != 2:
            raise InputError(f"expected 'DOMAIN DOCID', found {len(parts)} fields", file=tree.name(docs_rel),
                             line=k, code=InputError.Codes.MALFORMED)
        dom, d = parts
        if ids and ids[-1] != d and d in domains:
            raise InputError(f"document '{d}' appears again after other documents; a document's segments must be "
                             "consecutive", file=tree.name(docs_rel), line=k, code=InputError.Codes.MALFORMED)
        if domains.get(d, dom) != dom:
            raise InputError(f"document '{d}' is in domain '{domains[d]}' and '{dom}'", file=tree.name(docs_rel),
                             line=k, code=InputError.Codes.MALFORMED)
        domains[d] = dom
        ids.append(d)
    order = list(dict.fromkeys(ids))
    sizes = [0] * len(order)
    pos = {d: i for i, d in enumerate(order)}
    for d in ids:
        sizes[pos[d]] += 1

    missing: dict = {}

    def docs_of(rel: str, name: str | None = None, damage: list | None = None) -> list:
        lines = _text_lines(tree, rel, skip, damage)
        if len(lines) != len(ids) + skip:
            raise InputError(f"has {len(lines)} lines but {docs_rel} has {len(ids) + skip}; they must have one line "
                             "per segment", file=tree.name(rel), code=InputError.Codes.COUNTS)
        lines = lines[skip:]
        if name is not None:  # mt-metrics-eval's marker of a missing output: an empty segment, counted
            gone = [k for k, x in enumerate(lines) if x.strip() == NO_TRANSLATION]
            missing[name] = len(gone)
            for k in gone:
                lines[k] = ""
        it = iter(lines)
        return [[next(it) for _ in range(n)] for n in sizes]

    refs, files = {}, {}
    left_out: list = []  # (file, why) of what is not scored
    for name, rel in _text_members(tree, "references/", lp + ".").items():
        refs[name] = docs_of(rel, name)
        files[name] = tree.name(rel)
    if not refs:
        raise InputError(f"has no references/{lp}.NAME.txt (or .jsonl)", file=tree.label,
                         code=InputError.Codes.MALFORMED)
    systems: dict = {}
    damage: list = []  # what of the systems is damaged and what was done with it
    for name, rel in _text_members(tree, f"system-outputs/{lp}/", "").items():
        if name in refs:  # a human translation that is also a reference: loaded once, as the reference
            mine = docs_of(rel)
            if mine != refs[name]:  # not that reference's text: said, never dropped without a word
                n = sum(a != b for x, y in zip(mine, refs[name]) for a, b in zip(x, y))
                left_out.append((tree.name(rel), f"not loaded as a system: its name is that of the reference "
                                                 f"'{name}' ({files[name]}), whose text it is not ({n:,} of "
                                                 f"{len(ids):,} lines differ); rename it to score it as a system"))
            continue
        try:  # a damaged system is read with its bad bytes replaced, or set aside: the rest of the pair loads
            systems[name] = docs_of(rel, name, damage)
        except InputError as exc:
            if exc.code == InputError.Codes.TOO_MUCH:  # a size limit (a zip bomb, a server's cap) refuses the upload
                raise
            damage.append({"file": tree.name(rel), "system": name, "kind": "set aside",
                           "lines": [exc.line] if exc.line else [],
                           "said": f"system '{name}' set aside: {exc.problem}" + (f" (line {exc.line})" if exc.line
                                                                                  else "")})
            missing.pop(name, None)
            continue
        files[name] = tree.name(rel)
    if not systems:
        aside = "; ".join(f"{x['file']}: {x['said']}" for x in damage)
        raise InputError(f"has no system-outputs/{lp}/NAME.txt (or .jsonl) besides the references"
                         + (f" that could be read ({aside})" if aside else ""), file=tree.label,
                         code=InputError.Codes.MALFORMED)
    src_rel = next((f"sources/{lp}{ext}" for ext in (".txt", ".jsonl") if tree.has(f"sources/{lp}{ext}")), None)
    src = docs_of(src_rel) if src_rel else None
    corpus = Corpus(order, refs, systems, src, None, "docids", files, tree.name(docs_rel), skip)
    corpus.check_names()

    skipped: list = []
    left_out += [(tree.name(docs_rel), f"line{'s 1-' if skip > 1 else ' '}{skip} of every file: the canary (domain "
                                       "'canary'), which WMT does not score")] if skip else []
    for name, n in missing.items():
        if n:
            skipped.append((files[name], f"{n} segment{'s' if n > 1 else ''} '{NO_TRANSLATION}' (no output): read "
                                         "as empty, scored as nothing translated"))
    meta_rel = f"metadata/{lp}.jsonl"
    if tree.has(meta_rel):
        _check_metadata(tree, meta_rel, ids, domains, skip)
    for rel in tree.under("metadata/"):
        if rel != meta_rel:
            skipped.append((tree.name(rel), "metadata of another language pair or form"))
    system_metadata: dict = {}
    for name, rel in _text_members(tree, f"metadata/{lp}/", "").items():
        if not rel.endswith(".jsonl"):
            continue
        if name not in systems and name not in refs:
            skipped.append((tree.name(rel), f"metadata of '{name}', which is not a loaded text"))
            continue
        rows = _jsonl(tree, rel)
        if len(rows) != len(ids) + skip:
            raise InputError(f"has {len(rows)} lines but {docs_rel} has {len(ids) + skip}; a system's metadata has "
                             "one line per segment", file=tree.name(rel), code=InputError.Codes.COUNTS)
        system_metadata[name] = sorted({k for r in rows for k in r})
    # human scores: NAME -> {level: member}; only the ones used are read
    human_files: dict = defaultdict(dict)
    for rel in tree.under("human-scores/"):
        base = rel[len("human-scores/"):]
        if not base.startswith(lp + ".") or not base.endswith(".score"):
            continue
        name, level = parse_score_name(base[len(lp) + 1:])
        human_files[name][level] = rel
    chosen = gold
    if chosen is not None and chosen not in human_files:
        raise InputError(f"has no human scores named '{chosen}' (human-scores/{lp}.NAME.LEVEL.score: "
                         f"{', '.join(sorted(human_files)) or 'none'})", file=tree.label, code=InputError.Codes.NAMES)
    if chosen is None and human_files:
        chosen = next((g for g in GOLD_ORDER if g in human_files), sorted(human_files)[0])
    human = human_scores(chosen, {lv: tree.get(rel) for lv, rel in human_files[chosen].items()}, corpus) \
        if chosen else None
    if human is None and gold in (None, "esa"):  # WMT24's release: Appraise's ESA exports under human/
        from .esa import bind_esa, is_esa, read_esa

        esa_files = [tree.get(rel) for rel in tree.under("human/") if rel.endswith(".csv")]
        esa_files = [f for f in esa_files if is_esa(f)]
        if esa_files:
            esa = read_esa(esa_files)
            if lp in esa.pairs:
                human, chosen = bind_esa(esa, corpus, lp, common=esa_common), "esa"
                human_files["esa"] = {"seg": f.name for f in esa_files}
            else:
                skipped += [(f.name, f"ESA judgments of {', '.join(sorted(esa.pairs))}, none of {lp}")
                            for f in esa_files]
    for name in human_files:
        if name != chosen and name != "esa":
            skipped += [(tree.name(rel), f"human scores '{name}' (another than the one used, '{chosen}')")
                        for rel in human_files[name].values()]
    metric_files: dict = defaultdict(dict)
    for rel in tree.under(f"metric-scores/{lp}/"):
        base = rel[len(f"metric-scores/{lp}/"):]
        if not base.endswith(".score"):
            continue
        name, level = parse_score_name(base)
        if level == "domain":
            skipped.append((tree.name(rel), "domain-level scores (the documents' scores are used)"))
            continue
        metric_files[name][level] = tree.get(rel)
    # a system set aside keeps its lines in the score files: read against a corpus that still names it, then dropped
    aside = [x["system"] for x in damage if x["kind"] == "set aside"]
    named = dataclasses.replace(corpus, systems={**corpus.systems, **{n: refs[next(iter(refs))] for n in aside}}) \
        if aside else corpus
    metrics = {name: metric_from_score_files(name, fs, named, name not in lower_is_better)
               for name, fs in sorted(metric_files.items())}
    for m in metrics.values():
        for n in aside:
            for part in (m.seg, m.doc, m.sys):
                part.pop(n, None)
    return WmtFolder(corpus, lp, domains, human, chosen, {k: set(v) for k, v in human_files.items()}, metrics, skipped,
                     missing, system_metadata, left_out, damage=damage)


def _check_metadata(tree: _Tree, rel: str, ids: list, domains: dict, skip: int) -> None:
    """metadata/LP.jsonl (WMT24's release): one JSON object a segment with its "domain" and "docid";
    they must agree with documents/LP.docs (the domains the Overview and Human correlation filter by)."""
    rows = _jsonl(tree, rel, skip)
    if len(rows) != len(ids) + skip:
        raise InputError(f"has {len(rows)} lines but the documents file has {len(ids) + skip}", file=tree.name(rel),
                         code=InputError.Codes.COUNTS)
    for k, row in enumerate(rows[skip:], skip + 1):
        d, dom = row.get("docid", ids[k - skip - 1]), row.get("domain")
        if d != ids[k - skip - 1] or (dom is not None and dom != domains[d]):
            raise InputError(f"says document '{d}' in domain '{dom}' where the documents file says "
                             f"'{ids[k - skip - 1]}' in '{domains[ids[k - skip - 1]]}'", file=tree.name(rel), line=k,
                             code=InputError.Codes.COUNTS)


def human_scores(name: str, files: dict, corpus: Corpus) -> HumanScores:
    """HumanScores from the layout's files of one human score {level: file}: segments from the seg file
    (None: not rated), documents as the doc file gives them or the mean of their rated segments, systems as
    the sys file gives them (the judgments' own definition) or the mean of their rated segments; the
    rated-segment counts beside them.  Higher is better (the layout stores MQM negated)."""
    hs = HumanScores(name, True, kind=f"WMT layout human scores '{name}' ({', '.join(sorted(files))} level)")
    loaded = [*corpus.references, *corpus.systems]
    where = corpus.segment_places()
    scale = scale_of(name)  # esa 0-100, wmt-raw 0-100, mqm <= 0 (stored negated); z-scores unbounded

    def check(v, file, line):
        check_scale(v, scale, file, line, f"human score '{name}'")

    seg = read_score_lines(files["seg"], "seg", corpus, check=check) if "seg" in files else {}
    for s, vals in seg.items():
        if s not in loaded:
            continue  # a system the layout rated but did not ship: nothing to compare it with
        per_doc: dict = defaultdict(list)
        for (d, k, _, _), v in zip(where, vals):
            if not math.isnan(v):
                hs.segments[(s, d, k)] = v
                per_doc[d].append(v)
        if per_doc:
            hs.doc_scores[s] = {d: sum(v) / len(v) for d, v in per_doc.items()}
            allv = [x for v in per_doc.values() for x in v]
            hs.system_scores[s] = sum(allv) / len(allv)
            hs.n_segments[s] = len(allv)
    if "doc" in files:
        for s, vals in read_score_lines(files["doc"], "doc", corpus, check=check).items():
            if s in loaded:
                hs.doc_scores[s] = {d: v for d, v in zip(corpus.doc_ids, vals) if not math.isnan(v)}
    if "sys" in files:
        for s, vals in read_score_lines(files["sys"], "sys", corpus, check=check).items():
            if s in loaded and not math.isnan(vals[0]):
                hs.system_scores[s] = vals[0]
                hs.n_segments.setdefault(s, 0)
    if not hs.system_scores:
        raise InputError(f"human scores '{name}' rate none of the loaded texts ({', '.join(loaded)})",
                         file=next(iter(files.values())).name, code=InputError.Codes.JUDGMENTS)
    hs.coverage = {s: {"segments_rated": hs.n_segments.get(s, 0), "segments": len(where)} for s in hs.system_scores}
    return hs


__all__ = ["LEVELS", "WmtFolder", "read_wmt", "human_scores", "wmt_pairs"]


# -- the layouts a release folder comes in ---------------------------------------------------------------------------
def _wmt25_text(found, lp: str | None, name: str) -> tuple[str, list[str]]:
    """wmt_text in WMT25's layout: the pair's paragraphs in the test set's order, as loaded."""
    from .wmt25 import read_wmt25

    c = read_wmt25(*found, lp)["corpus"]
    docs = c.references.get(name) or c.systems.get(name)
    if docs is None:
        raise InputError(f"has no text '{name}' (references: {', '.join(c.references)}; systems: "
                         f"{', '.join(c.systems)})", file=found[0].label, code=InputError.Codes.NAMES)
    return c.files[name], [seg for doc in docs for seg in doc]


def _wmt25_read(found, lp, gold, lower_is_better, esa_common) -> WmtFolder:
    from .wmt25 import read_wmt25

    return WmtFolder(**read_wmt25(*found, lp, gold, lower_is_better, esa_common))


def _wmt25_pairs(found) -> list[str]:
    from .wmt25 import wmt25_pairs

    return wmt25_pairs(found[0], found[1])


@dataclass(frozen=True)
class FolderLayout:
    """One layout a whole release folder (or a zip of one) comes in: `found(tree)` recognises it (what the other
    hooks are given, or None: not this layout), `pairs(found)` its language pairs (no text read), `read(found, lp,
    gold, lower_is_better, esa_common)` one pair as a WmtFolder, `text(found, lp, name)` one text's lines as its
    file has them; `label` and `help` are what the Data page's folder tab and --wmt-dir say (io/formats.py's
    "folders").  A new layout is its reader and one entry in LAYOUTS."""
    name: str
    label: str
    help: str
    found: Callable
    pairs: Callable
    read: Callable
    text: Callable


LAYOUTS = (
    FolderLayout(
        name="wmt25", label="WMT25 (JSON Lines)",
        help="WMT25's release as published (wmt-conference/wmt25-general-mt data/): the test set wmt25-genmt.jsonl "
             "(whole documents, paragraphs split at blank lines), systems/NAME.jsonl, automatic_scores/NAME.jsonl "
             "and the human evaluation wmt25-genmt-humeval.jsonl (both ESA annotations, human1 and human2); a "
             "system whose paragraphs do not match is re-segmented and said",
        found=_wmt25, pairs=_wmt25_pairs, read=_wmt25_read, text=_wmt25_text),
    # the last layout takes whatever the ones before it did not recognise, and says what it expected
    FolderLayout(
        name="mt-metrics-eval", label="WMT (mt-metrics-eval)",
        help="the WMT metrics task's layout: documents/LP.docs (domain and document per segment), sources/LP.txt, "
             "references/LP.NAME.txt, system-outputs/LP/NAME.txt, human-scores/LP.NAME.LEVEL.score and "
             "metric-scores/LP/NAME-REF.LEVEL.score (LEVEL sys, doc or seg); WMT24's release as it is (its canary "
             "line left out, metadata/LP.jsonl checked, the ESA exports of Appraise under human/ read for the "
             "pair); mt-metrics-eval's 2025 form (texts as JSON Lines, metadata/LP/NAME.jsonl, '[No translation "
             "supplied]' read as a missing output and counted)",
        found=lambda tree: tree, pairs=lambda tree: _root(tree)[1], read=_mme_read, text=_mme_text),
)


def layout_of(tree: _Tree) -> tuple[FolderLayout, object]:
    """The first layout of LAYOUTS that recognises the tree, and what it found there."""
    for layout in LAYOUTS:
        found = layout.found(tree)
        if found is not None:
            return layout, found
    raise AssertionError("the last layout takes every tree")
