"""The corpus model every reader fills and the scorer consumes."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from blonde_core.errors import InputError

Docs = list  # list of documents, each a list of segment strings


def lone_cr_note(crs: list | None) -> str:
    """"; line 4 holds a carriage return alone ..." for a count message (crs: Lines.lone_cr), or ""."""
    if not crs:
        return ""
    where = ", ".join(str(x) for x in crs[:3]) + (f" and {len(crs) - 3} more" if len(crs) > 3 else "")
    return (f"; line{'s' if len(crs) > 1 else ''} {where} of it hold{'s' if len(crs) == 1 else ''} a carriage "
            "return (CR, \\r) alone, which ends a line as text is read and so splits that line in two: remove it "
            "or replace it by a space")


@dataclass
class Corpus:
    doc_ids: list  # document ids in order
    references: dict  # name -> Docs (same documents, in doc_ids order)
    systems: dict  # name -> Docs
    source: Docs | None = None
    seg_ids: list | None = None  # per document, list of segment ids (optional)
    boundaries: str = "docids"  # how documents were found: docids, blank-lines, single, structured
    files: dict = field(default_factory=dict)  # name -> file it came from (for messages)
    docids_file: str | None = None  # the document-id file, when one was used
    line_offset: int = 0  # lines of the files before the first segment that were left out (a WMT canary: 1)
    # re-segmentation (io/resegment.py): "mwer-2" when systems' documents were cut into the reference's
    # segments, and per system {document index: {"original": [its segments], "omitted": [...], "added": [...]}}
    seg_method: str | None = None
    resegmented: dict = field(default_factory=dict)
    # systems that brought their own document-id files (plain texts): {system: file}, and the reference's
    # documents each of them lacks (scored as empty documents): {system: [document ids]}
    system_docids: dict = field(default_factory=dict)
    missing_documents: dict = field(default_factory=dict)
    domain: str | None = None  # the documents of one domain only (subset)
    # rows with segment ids (io/readers.py): a text cut into another number of segments than the first
    # reference in a document, by id {text: {document id: ([ids it lacks], [ids the reference lacks])}}
    segment_gaps: dict = field(default_factory=dict)
    # plain texts: {text: [lines a carriage return alone split in two]} (io/readers.py Lines), said with a count
    lone_cr: dict = field(default_factory=dict)

    def check_limits(self, max_line_chars: int, max_segments: int) -> None:
        """InputError (TOO_MUCH) naming the file and line of the first segment longer than
        max_line_chars, or the number of segments when all texts together have more than
        max_segments (a server's limits per upload: work that would starve other users)."""
        texts = [*self.references.items(), *self.systems.items()] + \
            ([("source", self.source)] if self.source is not None else [])
        total = sum(len(seg) for _, docs in texts for seg in docs)
        if total > max_segments:
            raise InputError(f"{total:,} segments in all ({len(texts)} texts); this server takes at most "
                             f"{max_segments:,} per upload", code=InputError.Codes.TOO_MUCH)
        self.check_line_length(max_line_chars, f"this server takes at most {max_line_chars:,} characters per line")

    def check_line_length(self, max_line_chars: int, limit: str) -> None:
        """InputError (TOO_MUCH) naming the file and line (a structured file: the document and segment) of the
        first segment longer than max_line_chars; `limit` says whose limit it is and how to raise it (the
        server's, the command line's --max-line-chars).  The analysers fail on such lines (spaCy refuses a text
        over a million characters, HanTa fails from ~600,000)."""
        texts = [*self.references.items(), *self.systems.items()] + \
            ([("source", self.source)] if self.source is not None else [])
        for name, docs in texts:
            line = 0
            for k, doc in enumerate(docs):
                if self.boundaries == "blank-lines" and k:
                    line += 1  # the blank line before the document
                for j, seg in enumerate(doc):
                    line += 1
                    if len(seg) > max_line_chars:
                        where = self.files.get(name, name)
                        at = (f" (document '{self.doc_ids[k]}', segment {j + 1})"
                              if self.boundaries == "structured" and k < len(self.doc_ids) else "")
                        raise InputError(f"{'source' if name == 'source' else repr(name)}: a segment of "
                                         f"{len(seg):,} characters{at}; {limit}", file=str(where),
                                         line=None if self.boundaries == "structured" else line,
                                         code=InputError.Codes.TOO_MUCH)

    def segment_places(self) -> list[tuple]:
        """Every segment of the test set in order, as (document id, segment id, document index, index in the
        document): what a judgments file's line numbers point at (segment ids: the loaded ones, else 1, 2, ...)."""
        ref0 = next(iter(self.references.values()))
        return [(d, self.seg_ids[di][k] if self.seg_ids else str(k + 1), di, k)
                for di, (d, doc) in enumerate(zip(self.doc_ids, ref0)) for k in range(len(doc))]

    @property
    def n_segments(self) -> int:
        first = next(iter(self.references.values()))
        return sum(len(d) for d in first)

    def doc_lengths(self, name: str) -> list[int]:
        docs = self.references.get(name) or self.systems[name]
        return [len(d) for d in docs]

    def scored_against(self, name: str) -> "Corpus":
        """The same texts with `name` (a reference or a system) as the only reference;
        every other reference becomes a system, so it is scored (and can be excluded)
        like any other translation.  Annotations are per sentence, so re-scoring is cheap."""
        if name in self.references and len(self.references) == 1:
            return self
        texts = {**self.references, **self.systems}
        if name not in texts:
            raise InputError(f"no loaded text is named '{name}' (references: {', '.join(self.references)}; "
                             f"systems: {', '.join(self.systems)})", code=InputError.Codes.NAMES)
        systems = {n: d for n, d in self.references.items() if n != name}
        systems.update({n: d for n, d in self.systems.items() if n != name})
        return Corpus(self.doc_ids, {name: texts[name]}, systems, self.source, self.seg_ids, self.boundaries,
                      dict(self.files), self.docids_file, self.line_offset,
                      self.seg_method if name in self.references else None,
                      self.resegmented if name in self.references else {}, domain=self.domain)

    def misaligned(self) -> list[str]:
        """The systems with as many documents as the reference but another number of segments in one of them:
        what re-segmentation (resegment) can cut into the reference's segments."""
        ref0 = [len(d) for d in next(iter(self.references.values()))]
        return [n for n, docs in self.systems.items()
                if len(docs) == len(ref0) and any(len(d) != r for d, r in zip(docs, ref0))]

    def subset(self, keep: list[int], domain: str | None = None) -> "Corpus":
        """The same texts restricted to the documents at these indices (in their order): a domain of a
        WMT test set.  What re-segmentation said of a kept document moves with it."""
        keep = list(keep)
        new_index = {old: new for new, old in enumerate(keep)}
        ids = set(self.doc_ids[i] for i in keep)

        def pick(docs):
            return [docs[i] for i in keep]
        return replace(self, doc_ids=pick(self.doc_ids), references={n: pick(d) for n, d in self.references.items()},
                       systems={n: pick(d) for n, d in self.systems.items()},
                       source=pick(self.source) if self.source is not None else None,
                       seg_ids=pick(self.seg_ids) if self.seg_ids else self.seg_ids, files=dict(self.files),
                       resegmented={n: {new_index[di]: v for di, v in docs.items() if di in new_index}
                                    for n, docs in self.resegmented.items()},
                       missing_documents={n: [d for d in gone if d in ids]
                                          for n, gone in self.missing_documents.items()}, domain=domain)

    def resegment(self, lang: str | None, store=None) -> "Corpus":
        """The same texts with every system document whose segment count differs from the first reference's
        cut into exactly that reference document's segments (io/resegment.py: mwerSegmenter's alignment, by
        mweralign); a document already cut as the reference is left as it is.  What each re-segmented
        document was, and the reference segments it left out or to which it added material, are kept in
        `resegmented`.  Documents are matched by order (blank-line documents) or by id.  store: a disk table
        where each document's cut is kept (io/resegment.py), or None."""
        from .resegment import RESEGMENT_VERSION, gaps, resegment, token_counts, too_long

        ref0 = next(iter(self.references.values()))
        jobs, where = [], []
        for name, docs in self.systems.items():
            if len(docs) != len(ref0):
                raise InputError(f"system '{name}' has {len(docs)} documents, the reference {len(ref0)}: "
                                 "re-segmentation cuts each document into its reference document's segments",
                                 file=self.files.get(name, name), code=InputError.Codes.COUNTS)
            for di, (d, r) in enumerate(zip(docs, ref0)):
                if len(d) != len(r):
                    long = too_long(r, d, lang)  # refused at once, before any aligner starts
                    if long:
                        raise InputError(f"system '{name}', document '{self.doc_ids[di]}': {long}",
                                         file=self.files.get(name, name), code=InputError.Codes.TOO_MUCH)
                    jobs.append((r, d))
                    where.append((name, di))
        try:
            cut = resegment(jobs, lang, store=store)
        except RuntimeError as exc:
            raise InputError(f"re-segmentation failed: {exc}", code=InputError.Codes.OPTIONS) from None
        systems = {n: list(docs) for n, docs in self.systems.items()}
        done: dict = {}
        ref_tokens: dict = {}  # a reference document's token counts, once for every system
        for (name, di), (r, d), c in zip(where, jobs, cut):
            systems[name][di] = c
            if di not in ref_tokens:
                ref_tokens[di] = token_counts(r, lang)
            done.setdefault(name, {})[di] = {"original": list(d), **gaps(r, c, lang, ref_tokens[di])}
        return replace(self, systems=systems, files=dict(self.files), seg_method=f"mwer-{RESEGMENT_VERSION}",
                       resegmented=done)

    def check_names(self) -> None:
        """A name is an identity: a reference and a system never share one."""
        for name in self.references:
            if name in self.systems:
                raise InputError(f"reference and system are both named '{name}' "
                                 f"({self.files.get(name, name)} and a system of the same name); rename one",
                                 file=self.files.get(name), code=InputError.Codes.NAMES)

    def check(self, granularity: str = "sentence") -> None:
        """Every system and reference has every document; at sentence granularity
        also the same number of segments per document as the first reference."""
        if not self.references:
            raise InputError("no reference given", code=InputError.Codes.OPTIONS)
        self.check_names()
        if not self.doc_ids:
            raise InputError("the corpus has no documents", code=InputError.Codes.EMPTY)
        ref0_name, ref0 = next(iter(self.references.items()))
        for role, group in (("reference", self.references), ("system", self.systems)):
            for name, docs in group.items():
                where = self.files.get(name, name)
                if len(docs) != len(self.doc_ids):
                    raise InputError(f"{role} '{name}' has {len(docs)} documents, expected {len(self.doc_ids)}",
                                     file=where, code=InputError.Codes.COUNTS)
                if granularity != "sentence" or (role == "reference" and name == ref0_name):
                    continue
                for doc_id, d, r in zip(self.doc_ids, docs, ref0):
                    if len(d) != len(r):
                        what = (f"{role} '{name}' has {len(d)} segments in document '{doc_id}' but reference "
                                f"'{ref0_name}' has {len(r)}; sentence-level matching needs equal counts")
                        lack, extra = self.segment_gaps.get(name, {}).get(doc_id, ([], []))
                        if lack or extra:  # rows with segment ids: which ones, as paired by id
                            what += "; by segment id it " + " and ".join(
                                x for x in (f"lacks {_ids(lack)}" if lack else "",
                                            f"has {_ids(extra)}, which the reference has not" if extra else "") if x)
                        what += "".join(lone_cr_note(self.lone_cr.get(n)).replace("of it", f"of {n}'s file")
                                        for n in (name, ref0_name) if self.lone_cr.get(n))
                        raise InputError(
                            f"{what} (document-level matching is available: --granularity document)", file=where,
                            code=InputError.Codes.SENTENCE_COUNTS,
                            page=f"{what} (set *Matching* to *document* in the sidebar)")


def _ids(ids: list) -> str:
    """Segment ids for a message: the first five, and how many more."""
    return ", ".join(f"'{x}'" for x in ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
