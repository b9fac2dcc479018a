"""The one door into the core: a Study is everything one user loaded, and it answers
every question a page or a command asks about it.

    from blonde_core.study import Engine, ScoreConfig, Study
    study = Study.from_files(["ref.txt"], ["sysA.txt", "sysB.txt"], docids="docids.txt", engine=Engine())
    res = study.analysis(ScoreConfig())          # scores (cached) and what the pages ask of them
    res.scores("sysA")["BlonDe"]["F1"], res.feature_breakdown("sysA")
    study.standard("sentence", "BLEU")           # sacrebleu, one metric at a time
    study.compare(ScoreConfig(), metric="BlonDe", test="bootstrap")

What a page or the command line may import from the core is what this module
defines: `Study` (loading, every answer, the command line that reproduces it),
`Analysis` (a Result with the questions asked of it), `CATALOG` (what the core
offers, by name: settings, categories, metrics and their directions, the
significance policy) and the types a caller hands in or builds on: `Engine`,
`ScoreConfig`, `InputError`, `Memo` (the one bounded LRU, for the app's own stores).  Nothing else of the core is reached past it.

A Study's `key` is a hash over all of its content: every reference, system and
source segment, names and file names, document boundaries, BlonD+ and refined-
entity lines, and the human judgments with their direction and every per-segment
value.  Everything its Engine computes is stored under that key plus the settings
that shape the value, so a page can only ever show values made from its own
user's data and settings.  The Engine (engine.py) is handed in: the command line
makes one per run, the dashboard's server one for all its sessions
(studio/state.py).  Nothing here imports Streamlit, and importing this module
loads no statistics library.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from dataclasses import dataclass, field

from .engine import Engine
from .digest import resegmented_digest, texts_digest
from .errors import InputError
from .io.corpus import Corpus
from .memo import Memo
from .metric import registry
from .metric.settings import ScoreConfig, counting_key

__all__ = ["CATALOG", "DEFAULT_SEED", "Analysis", "Engine", "InputError", "Memo", "ScoreConfig", "Study"]

TER_MAX_SEGMENTS = registry.TER_MAX_SEGMENTS  # TER by default only up to this many system segments
DEFAULT_SEED = registry.DEFAULT_SEED


def _none(x):
    from .numbers import nan_to_none

    return nan_to_none(x)


def _canon(obj):
    """A JSON-able, order-stable form of nested data (tuple keys included)."""
    if isinstance(obj, dict):
        return [[_canon(k), _canon(v)] for k, v in sorted(obj.items(), key=lambda kv: repr(kv[0]))]
    if isinstance(obj, (list, tuple)):
        if all(type(x) is str for x in obj):  # a document's segments: JSON holds them as they are
            return obj
        return [_canon(x) for x in obj]
    if isinstance(obj, float) and obj != obj:
        return "NaN"
    return obj


def _named(x):
    """A file path, or an upload as (name, bytes): what every reader takes."""
    from .io.readers import NamedBytes

    if isinstance(x, tuple) and len(x) == 2 and isinstance(x[1], (bytes, bytearray)):
        return NamedBytes(x[0], x[1])
    return x


@dataclass
class Study:
    corpus: Corpus
    origin: str
    human: object | None = None  # io.judgments.HumanScores
    annotation: list | None = None  # BlonD+ lines, one per reference segment
    ner: list | None = None  # refined-entity lines
    annotation_file: str = "annotation.txt"
    ner_file: str = "ner.txt"
    messages: dict = field(default_factory=dict)
    key: str = ""
    human_file: str = "judgments.tsv"  # the judgments' file name, for the command lines
    engine: Engine | None = field(default=None, compare=False, repr=False)  # None: one of its own, made when needed
    # metrics computed elsewhere (COMET, MetricX, a WMT submission): {name: io.metric_scores.ExternalMetric}
    external: dict = field(default_factory=dict)
    metric_files: tuple = ()  # the files they came from, for the command lines
    domains: dict | None = None  # document id -> domain (a WMT folder's documents file)
    wmt: tuple | None = None  # (folder, language pair, human score used): a study read from a WMT folder

    def __post_init__(self):
        self.corpus.check_names()
        if self.domains and self.human is not None and not self.human.domains:  # judgments sliced by domain too
            self.human = dataclasses.replace(self.human, domains=dict(self.domains))
        h = hashlib.sha256()
        c = self.corpus

        def digest(part) -> bytes:
            return hashlib.sha256(json.dumps(_canon(part), ensure_ascii=False, default=str).encode(
                "utf-8", "surrogatepass")).digest()

        def add(part):
            h.update(digest(part))

        # the texts' digests, kept: the language guesses' cache keys are made of them (language_keys)
        texts = {"references": texts_digest(c.references), "systems": texts_digest(c.systems),
                 "source": texts_digest(c.source)}
        self.__dict__["_text_digests"] = texts
        add(c.doc_ids)
        h.update(texts["references"] + texts["systems"] + texts["source"])
        moved = resegmented_digest(c.resegmented)  # None: hashed below the generic way
        h.update(b"-" if moved is None else moved)
        for part in (c.seg_ids, c.boundaries, c.files,
                     c.docids_file, c.seg_method, c.resegmented if moved is None else None, c.domain,
                     c.system_docids, c.missing_documents,
                     self.annotation, self.ner, self.annotation_file, self.ner_file, self.human_file):
            add(part)
        add(self.domains)
        add(self.wmt)
        add(list(self.metric_files))
        add({k: m.fingerprint() for k, m in sorted(self.external.items())})
        hs = self.human
        if hs is None:
            add(None)
        else:
            for part in (hs.name, hs.higher_is_better, hs.segments, hs.doc_scores, hs.system_scores,
                         hs.n_segments, hs.rater_scores, hs.error_spans, hs.mapping, hs.errors):
                add(part)
        self.key = h.hexdigest()[:32]

    # -- loading -------------------------------------------------------------------
    @classmethod
    def from_files(cls, references: list, systems: list, *, docids=None, blank_line_docs: bool = False,
                   system_docids: list | None = None, source=None, human=None, human_higher_is_better: bool = True,
                   score_column: str | None = None, human_mapping: dict | None = None, annotation=None, ner=None,
                   origin: str = "files", engine: Engine | None = None, human_common: bool = True) -> "Study":
        """References and system outputs, one segment per line (paths, or uploads as (name, bytes));
        docids: one document id per line (else blank_line_docs, else one document); source, human
        judgments (MQM TSV, a table, WMT DA / ESA), BlonD+ annotation and refined-entity lines, each
        optional and checked against the texts."""
        from .io.readers import attach_source, plain_corpus

        corpus = plain_corpus([_named(r) for r in references], [_named(s) for s in systems],
                              docids=_named(docids) if docids is not None else None,
                              boundaries="blank-lines" if blank_line_docs else None,
                              system_docids=[None if d is None or str(d) == "-" else _named(d)
                                             for d in system_docids] if system_docids else None)
        if source is not None:
            attach_source(corpus, _named(source))
        return cls(corpus, origin, engine=engine).with_files(annotation, ner, human, human_higher_is_better,
                                                               score_column, human_mapping, human_common)

    @classmethod
    def from_structured(cls, path, reference_systems=(), origin: str | None = None,
                        engine: Engine | None = None) -> "Study":
        """One structured file: any format of io/formats.py's "texts" (WMT XML, MQM TSV with its judgments,
        JSON Lines, a TSV/CSV table), recognised by its name and first bytes."""
        from .io.formats import read_structured_with_human

        f = _named(path)
        corpus, hs = read_structured_with_human(f, list(reference_systems))
        return cls(corpus, origin or f"structured file {f}", human=hs, human_file=str(f), engine=engine)

    @classmethod
    def from_texts(cls, reference: list[str], candidates: dict, annotation: list | None = None,
                   origin: str = "sandbox", engine: Engine | None = None) -> "Study":
        """Typed text: one document, a sentence per line (the Sandbox; kept off the disk)."""
        corpus = Corpus([origin], {"reference": [list(reference)]}, {k: [list(v)] for k, v in candidates.items()},
                        boundaries="single")
        return cls(corpus, origin, annotation=annotation, engine=engine)

    @classmethod
    def score_texts(cls, reference: str, candidates: dict, annotation: list | None, cfg: ScoreConfig,
                    engine: Engine | None = None, resegment: bool = False, line_by_line: bool = False):
        """Typed text (the Sandbox, the gallery: one document, a sentence per line) scored by the core's rules
        (typed.score_texts): (Analysis, note, BLEU per candidate), kept off the disk."""
        from .typed import score_texts

        return score_texts(lambda ref, cands, ann: cls.from_texts(ref, cands, annotation=ann, engine=engine),
                           reference, candidates, annotation, cfg, resegment, line_by_line)

    @classmethod
    def from_wmt(cls, source, lp: str | None = None, gold: str | None = None, lower_is_better=(),
                 origin: str | None = None, engine: Engine | None = None, esa_common: bool = True,
                 roots=None) -> "Study":
        """A whole WMT evaluation folder (the mt-metrics-eval layout; a path to the folder or to a zip of it,
        or an uploaded zip as (name, bytes)): documents with their domains, source, references, systems, the
        human scores (`gold`, default the first of mqm, esa, da-sqm, wmt-appraise, wmt-z, wmt-raw) and every
        metric's scores (io/wmt.py). roots: the folders a server allows (every member checked, links followed)."""
        from .io.wmt import read_wmt

        f = _named(source)
        w = read_wmt(f, lp, gold, tuple(lower_is_better), esa_common, roots)
        study = cls(w.corpus, origin or f"WMT folder {f}", human=w.human, human_file=str(f), engine=engine,
                    external=w.metrics, domains=w.domains, wmt=(str(f), w.lp, w.gold))
        study.messages["wmt"] = w.understood()
        if w.misaligned:  # WMT25: a system whose paragraphs do not match is cut into the reference's, and said
            study = study.resegmented()
            n = sum(len(v) for v in w.misaligned.values())
            study.messages.setdefault("resegment", []).insert(0, (
                f"{n} document(s) of {len(w.misaligned)} system(s) whose paragraphs do not match the reference's "
                f"({', '.join(sorted(w.misaligned))}) re-segmented into the reference's paragraphs "
                f"({study.corpus.seg_method}); their automatic scores per own paragraph left out"))
        return study

    def damage(self) -> list[str]:
        """What of a WMT release is damaged and what was done with it (a system file with bytes that are not UTF-8
        read with them replaced, an empty or unreadable system set aside, a document a system lacks scored as
        nothing translated), one sentence each naming the file and lines; [] when nothing is."""
        return list((self.messages.get("wmt") or {}).get("damage", []))

    @classmethod
    def release(cls, source, lps, cfg_of, n: int = 1000, seed: int = DEFAULT_SEED, gold: str | None = None,
                engine: Engine | None = None, progress=None, work=None, studies: dict | None = None,
                apart=None) -> dict:
        """A WMT release at once (analysis.release): each pair of `lps` loaded as its own study, scored with its own
        settings (cfg_of(study) -> ScoreConfig: the pair's language pack), BlonDe with the leaderboard's
        significance clusters (Study.board, n resamples, seed), chrF and the human column; then systems x pairs
        with the across-pair summary. progress(lp, k, total) before each pair; work(lp, done, of) as each pair's
        distinct sentences are annotated. studies: {lp: Study} the caller keeps (the dashboard's): a pair found there
        is not read again, a pair read is put there. Without it (the command line) each pair is read from source,
        and its memory given back once its row is made: apart(compute, on_message) computes a pair's row in a
        process of its own (analysis/release_run.apart: compute(tell) there, each tell(*args) on_message(*args)
        here), so that the caller never holds an analyser; else Engine.unload after each pair."""
        from .analysis.release import release_table

        def pair(lp, pair_work, unload: bool) -> dict:
            st = (studies or {}).get(lp) or cls.from_wmt(source, lp, gold, engine=engine)
            if studies is not None:  # the caller keeps each pair's study (a switch back, the next table: warm)
                studies[lp] = st
            cfg = cfg_of(st)
            if pair_work and cfg.has_pack:
                st.result(cfg, progress=pair_work)
            names = list(st.corpus.systems)
            chrf = st.standards(cfg.granularity, ["chrF"])
            hum = st.human_column(names)
            rows = {s: {"BlonDe": None, "cluster": None, "chrF": chrf.score("chrF", s),
                        "human": hum["systems"][s]["score"] if hum else None,
                        "human_rank": hum["systems"][s].get("rank") if hum else None} for s in names}
            block = {"lang": cfg.lang, "no_pack": st.no_pack(cfg), "human": hum["name"] if hum else None,
                     "signature": st.signature(cfg) if cfg.has_pack else None, "systems": rows,
                     "damage": st.damage()}  # what of the pair's files was damaged, contained (said per pair)
            if cfg.has_pack:
                b = st.board(cfg, n, seed)
                block["board_signature"] = b["signature"]
                for s in names:
                    rows[s]["BlonDe"] = b["intervals"]["BlonDe"][s]["score"]
                    rows[s]["cluster"] = b["clusters"].get(s)
            if unload and cfg.has_pack:  # in the caller's process: one pair's memory at a time (Engine.unload)
                st.engine.unload(st, cfg.lang)
            return block

        pairs = {}
        for k, lp in enumerate(lps):
            if progress:
                progress(lp, k, len(lps))
            pair_work = (lambda done, of, lp=lp: work(lp, done, of)) if work else None
            if apart is not None and studies is None:  # in a child process, which sends the row back and exits
                pairs[lp] = apart(lambda tell, lp=lp: pair(lp, tell if work else None, False), pair_work)
            else:
                pairs[lp] = pair(lp, pair_work, studies is None)
        return release_table(pairs)

    @staticmethod
    def wmt_pairs(source) -> list[str]:
        """The language pairs of a WMT-layout folder or zip (nothing but its file names read)."""
        from .io.wmt import wmt_pairs

        return wmt_pairs(_named(source))

    @staticmethod
    def release_pairs(source, asked, said: str = "language pair") -> list[str]:
        """The pairs of a release that `asked` names: ["all"] is every pair of the folder; else each pair as the
        folder writes it, or its short form when one pair alone has it (WMT25's en-cs for en-cs_CZ), once each, in
        the order asked. A pair the folder lacks (or a short form several have) is refused, naming what it has;
        said: how the message names the asking ("--lp" on the command line)."""
        from .io.wmt25 import pairs_named

        known = Study.wmt_pairs(source)
        if [x.lower() for x in asked] == ["all"]:
            return known
        out = []
        for lp in asked:
            short = pairs_named(known, lp)
            got = short[0] if len(short) == 1 else None
            if got is None:
                why = f"is {', '.join(short)}: name one" if short else "the folder has no such pair"
                raise InputError(f"{said} {lp}: {why} (it has {', '.join(known)})",
                                 file=str(source.name if hasattr(source, "data") else source),  # an upload: its name
                                 code=InputError.Codes.NAMES)
            out.append(got)
        return list(dict.fromkeys(out))

    @staticmethod
    def rank_metrics(tables: list, task: str = "wmt24", draws: int = 1000, permutations: int = 1000,
                     spa_seed: int = 4, seed: int = DEFAULT_SEED) -> dict:
        """The WMT metrics task's ranking of metrics over language pairs (task_tables of each pair;
        analysis/stats/task.py)."""
        from .analysis.stats.task import run_task

        return run_task(tables, task, draws, permutations, spa_seed, seed)

    def task_ranking(self, cfg: ScoreConfig, task: str = "wmt24", std_metrics=("chrF", "BLEU"), metrics=None,
                     exclude=(), draws: int = 1000, permutations: int = 1000, spa_seed: int = 4,
                     seed: int = DEFAULT_SEED) -> dict:
        """The WMT metrics task's ranking of metrics on this study's one language pair (rank_metrics)."""
        key = ("task_ranking", repr(cfg), task, tuple(std_metrics), tuple(metrics or ()), tuple(exclude), draws,
               permutations, spa_seed, seed)
        return self._get(key, lambda: self.rank_metrics(
            [self.task_tables(cfg, std_metrics, metrics, exclude, system_level=task == "wmt23")], task, draws,
            permutations, spa_seed, seed))

    def with_metric_files(self, files, lower_is_better=()) -> "Study":
        """The same texts with the scores of metrics computed elsewhere read from these files (WMT-layout
        NAME.LEVEL.score, a table, COMET's JSON; paths or (name, bytes)), each checked against the texts."""
        files = [_named(f) for f in files or ()]
        if not files:
            return self
        from .io.formats import read_metric_file
        from .io.metric_scores import merge

        got = merge(self.external, *[read_metric_file(f, self.corpus, tuple(lower_is_better)) for f in files])
        return dataclasses.replace(self, external=got, metric_files=tuple(self.metric_files) + tuple(str(f) for f in files))

    @staticmethod
    def read_judgments(path, score_column: str | None = None, higher_is_better: bool = True, mqm: bool = False):
        """Human judgments on their own (the `human` command): MQM TSV (mqm=True, or detected) or a table."""
        from .io.formats import read_human
        from .io.human import read_mqm

        return read_mqm(_named(path)).scores if mqm else read_human(_named(path), score_column, higher_is_better)

    @staticmethod
    def judgments_summary(human, by: list[str] | None = None, weights: str | None = None,
                          where: dict | None = None, significance: bool = False, per: str = "segment") -> dict:
        """Judgments per system and document with the raters' agreement; by: MQM sliced by these fields,
        under `weights` (MqmWeights.parse's text), filtered by `where` ({field: values}); significance:
        every pair of systems compared on the slice (`mqm_significance`)."""
        from .analysis.stats import judgments_summary, rater_agreement

        if by or where or weights or significance:
            w = Study.mqm_weights(weights)
            out = {"by": by or [], "weights": w.changes() or "default", "where": {k: sorted(v) for k, v in (where or {}).items()}}
            if by:
                from .analysis.mqm import slices

                out["slices"] = slices(human, by, w, where)
                out["rater_agreement"] = rater_agreement(human) if human.rater_scores else []
            if significance:
                out["significance"] = Study.mqm_significance(human, w, where, per=per)
            return out
        return judgments_summary(human)

    @staticmethod
    def plus_marks(annotation_line: str | None, text: str) -> list:
        """Where a BlonD+ annotation line's checkpoints occur in a text, as the score counts them:
        [(start, end, what)] for render_text's marks."""
        from .metric.plus import checkpoint_marks

        return checkpoint_marks(annotation_line, text) if annotation_line else []

    @staticmethod
    def mqm_weights(text: str | None = None):
        """MQM severity weights: the defaults changed by `text` ('Major=10; Fluency/Punctuation:Minor=0.5')."""
        from .analysis.mqm import MqmWeights

        return MqmWeights.parse(text)

    @staticmethod
    def mqm_units() -> dict:
        """What an MQM slice's score is per: {"segment": "per rated segment", "100 characters": ...}."""
        from .analysis.mqm import PER

        return dict(PER)

    @staticmethod
    def mqm_slices(human, by: list[str], weights=None, where: dict | None = None) -> list[dict]:
        """MQM sliced as Marot slices it (analysis/mqm.py); weights: MqmWeights or its text."""
        from .analysis.mqm import MqmWeights, slices

        return slices(human, by, MqmWeights.of(weights), where)

    @staticmethod
    def mqm_significance(human, weights=None, where: dict | None = None, per: str = "segment",
                         n: int | None = None, seed: int = DEFAULT_SEED) -> dict:
        """The systems compared pair by pair on an MQM slice (analysis/mqm.significance; n: its trials)."""
        from .analysis.mqm import TRIALS, MqmWeights, significance

        return significance(human, MqmWeights.of(weights), where, per=per, n=n or TRIALS, seed=seed)

    def with_files(self, annotation=None, ner=None, human=None, human_higher_is_better: bool = True,
                   score_column: str | None = None, human_mapping: dict | None = None,
                   human_common: bool = True) -> "Study":
        """The same texts with BlonD+ annotation, refined entities and human judgments read from these
        files (paths or (name, bytes)); None keeps what the study has.  human may be a list: several ESA
        exports (Appraise's CSV, io/esa.py) read together, bound to this study's language pair;
        human_common: ESA systems compared only on the segments judged for every one of them."""
        from .io.readers import read_lines

        kw = {}
        if annotation is not None:
            kw.update(annotation=read_lines(_named(annotation), allow_empty=True), annotation_file=str(_named(annotation)))
        if ner is not None:
            kw.update(ner=read_lines(_named(ner), allow_empty=True), ner_file=str(_named(ner)))
        if human is not None:
            from .io.formats import read_judgment_files

            named = [_named(h) for h in (human if isinstance(human, list) else [human])]
            # the first format of io/formats.py's "judgments" that recognises the file(s); ESA rows of the loaded
            # texts' pair only (None: not known, then the files' only pair), asked only for ESA
            hs = read_judgment_files(named, corpus=self.corpus, pair=self.language_pair, mapping=human_mapping,
                                     score_column=score_column, higher_is_better=human_higher_is_better,
                                     common=human_common)
            kw.update(human=hs, human_file=", ".join(map(str, named)))
        return dataclasses.replace(self, **kw) if kw else self

    def with_human_mapping(self, mapping: dict) -> "Study":
        """The same study with the DA judgments' system names mapped as given ({name in the file:
        loaded name, or None to leave it out}); a new content key, so nothing computed with the old
        mapping is reused."""
        from .io.da import bind

        hs = self.human
        if hs is None or getattr(hs, "table", None) is None:
            raise InputError("only judgments read from a DA / ESA table have a name mapping to change", code=InputError.Codes.JUDGMENTS)
        return dataclasses.replace(self, human=bind(hs.table, self.corpus, mapping, hs.higher_is_better))

    def with_engine(self, engine: Engine) -> "Study":
        return dataclasses.replace(self, engine=engine)

    # -- what it holds -----------------------------------------------------------
    @property
    def plus(self) -> bool:
        return self.annotation is not None

    # what pages and commands ask of the texts: the io Corpus stays behind the door (issue 61 point 5)
    @property
    def systems(self) -> list[str]:
        """The systems' names, in the order they were loaded."""
        return list(self.corpus.systems)

    @property
    def references(self) -> list[str]:
        """The references' names (the first is the one scored against unless another is chosen)."""
        return list(self.corpus.references)

    @property
    def doc_ids(self) -> list:
        """The documents' ids, in the test set's order (a document's index is its place here)."""
        return self.corpus.doc_ids

    @property
    def reference_segments(self) -> int:
        """Segments of the first reference (the test set's size; n_segments counts the systems' segments)."""
        return self.corpus.n_segments

    @property
    def source(self) -> list | None:
        """The source's documents (lists of segments), None when no source was loaded."""
        return self.corpus.source

    def texts(self, name: str) -> list:
        """A reference's or a system's documents (lists of segments, in doc_ids' order)."""
        c = self.corpus
        return c.references[name] if name in c.references else c.systems[name]

    def doc_lengths(self, name: str) -> list[int]:
        """Segments per document of a reference or a system, in doc_ids' order."""
        return self.corpus.doc_lengths(name)

    @property
    def boundaries(self) -> str:
        """Where the documents came from: "docids", "blank-lines", "single" (one document) or "structured"."""
        return self.corpus.boundaries

    @property
    def seg_method(self) -> str | None:
        """How systems were re-segmented into the reference's sentences (None: as loaded)."""
        return self.corpus.seg_method

    @property
    def missing_documents(self) -> dict:
        """{system: [the reference's document ids it has none of]} (each scored as empty)."""
        return self.corpus.missing_documents

    @property
    def from_structured_file(self) -> bool:
        return self.corpus.boundaries == "structured"

    def misaligned(self) -> list[str]:
        """Systems with a document whose segment count differs from its reference document's (re-segmentable)."""
        return self.corpus.misaligned()

    def check(self, granularity: str = "sentence") -> None:
        """InputError unless every system and reference has every document and, at sentence granularity, as many
        segments in each as the first reference (what scoring at that granularity needs)."""
        self.corpus.check(granularity)

    @property
    def _engine(self) -> Engine:
        if self.engine is None:
            self.engine = Engine()
        return self.engine

    def distinct_texts(self, lowercase: bool = False) -> set:
        """Every distinct reference and system sentence as spaCy sees it (lowercased or not)."""
        from .annotation.pipeline import prepare

        c = self.corpus
        return {prepare(s, lowercase) for g in (c.references, c.systems) for docs in g.values()
                for d in docs for s in d}

    def check_limits(self, max_line_chars: int, max_segments: int) -> None:
        """InputError naming the file and line past a server's limits per upload (io/corpus.py)."""
        self.corpus.check_limits(max_line_chars, max_segments)

    def check_line_length(self, max_line_chars: int, limit: str) -> None:
        """InputError naming the file and line of the first text longer than max_line_chars (limit: whose limit
        it is and how to raise it, said in the message)."""
        self.corpus.check_line_length(max_line_chars, limit)

    def language_keys(self) -> dict:
        """The disk cache's keys of this study's language guesses ({"guess", "source", "systems"}): a hash of
        the texts they are read from and of the detector (lang.detect.DETECT_VERSION)."""
        from .lang.detect import DETECT_VERSION

        if "_lang_keys" not in self.__dict__:
            c = self.corpus
            texts = self.__dict__["_text_digests"]
            first = texts_digest(next(iter(c.references.values()), []))
            out = {}
            for what, part in (("guess", first), ("source", texts["source"]),
                               ("systems", first + texts["source"] + texts["systems"]),
                               ("references", texts["references"] + texts["source"])):
                out[what] = hashlib.sha256(f"langid|{DETECT_VERSION}|{what}|".encode() + part).digest()
            self.__dict__["_lang_keys"] = out
        return self.__dict__["_lang_keys"]

    def _language_fact(self, what: str, compute):
        """One language guess of this study: computed once per study, and kept in the disk cache (table langid:
        language codes and counts, never text) so that a warm command does not load the language identifier."""
        from .annotation.store import decode_fact

        memo = f"_lang_{what}"
        if memo in self.__dict__:
            return self.__dict__[memo]
        store = None if self.origin == "sandbox" else self._engine.disk("langid", validate=decode_fact)
        key = self.language_keys()[what]
        got = store.get_many([key]).get(key) if store is not None else None
        if got is not None:
            value = got["v"]
        else:
            value = compute()
            if store is not None:
                store.put_many([(key, {"v": value})])
        self.__dict__[memo] = value
        return value

    def guess_language(self) -> dict:
        """The target language guessed from the first reference, whatever it is (lang.guess_language:
        {"language": ISO code or None, "name", "pack": the pack for it or None, "script", ...})."""
        def compute():
            from .lang import guess_language

            ref = next(iter(self.corpus.references.values()), [])
            return guess_language(s for d in ref for s in d)
        return self._language_fact("guess", compute)  # the texts never change: guessed once per study

    def source_language(self) -> str | None:
        """The language the source is written in, as guessed (None without a source or when not recognised)."""
        def compute():
            from .lang.detect import identify_texts

            src = self.corpus.source
            return identify_texts(s for d in src for s in d)["language"] if src else None
        return self._language_fact("source", compute)

    def language_pair(self) -> str | None:
        """"en-zh": a WMT folder's pair, else the source's and the reference's languages as guessed (None
        when either is not known)."""
        if self.wmt:
            return self.wmt[1]
        src, tgt = self.source_language(), self.guess_language()["language"]
        return f"{src}-{tgt}" if src and tgt else None

    def text_language(self) -> str:
        """The language the target texts are written in (the guess; English when nothing was recognised):
        what sacrebleu's tokenizers follow, whichever pack scores the texts."""
        return self.guess_language()["language"] or "en"

    def language_note(self, cfg: ScoreConfig) -> str | None:
        """A warning when the texts look like another language than the one they are scored with (a pack
        forced onto them), or None."""
        from .lang.detect import language_name

        g = self.guess_language()
        if g["language"] is None or g["language"] == cfg.lang:
            return None
        if not cfg.has_pack:  # a language without a pack chosen for texts that look like another one
            return (f"the reference looks like '{g['language']}' ({g['name']}) but the target language was set to "
                    f"'{cfg.lang}' ({language_name(cfg.lang)}), which has no pack: no BlonDe number is computed")
        return (f"the reference looks like '{g['language']}' ({g['name']}) but is scored with the '{cfg.lang}' "
                f"language pack ({language_name(cfg.lang)} tenses, pronouns, markers and entities): these BlonDe "
                f"numbers do not measure {g['name']} discourse")

    @staticmethod
    def docids_owner(name) -> str | None:
        """The system a document-id file belongs to by its name (GPT-4.docids, GPT-4.docids.txt, GPT-4.txt.docids
        ...: io/readers.py docids_owner), None when it follows no convention."""
        from .io.readers import docids_owner

        return docids_owner(name)

    @staticmethod
    def file_stem(name) -> str:
        """A text's name from its file's (io/readers.py file_stem): an upload's name without its last extension,
        as the readers name systems (the Data page pairs a system with its own document-id file by it)."""
        from .io.readers import NamedBytes, file_stem

        return file_stem(NamedBytes(name, b"") if isinstance(name, str) else name)

    @staticmethod
    def pack_lowercase(lang: str) -> bool:
        """Whether text in this language is lowercased before annotation unless the user says otherwise: the
        pack's default (True without a pack, the blonde package's)."""
        from .lang import has_pack, load_pack

        return load_pack(lang).lowercase if has_pack(lang) else True

    @staticmethod
    def spans_of_lines(lines: list[str], cfg: ScoreConfig, engine: Engine | None = None,
                       progress=None) -> list[dict]:
        """Every tense, pronoun, entity and discourse-marker span the tool marks in each line under these
        settings (what the Documents page highlights): {line, start, end, text, category, class}, offsets into
        the line as given. The `spans` command, bench/check_tagging.py."""
        from .analysis.tagging import line_spans

        if not cfg.has_pack:
            from .lang import no_pack_message

            raise InputError(no_pack_message(cfg.lang), code=InputError.Codes.NO_PACK)
        eng = engine or Engine(cache_mode="memory", pool="inline")
        records = eng.annotator(cfg.tag_lowercase, cfg.lang).annotate(lines, progress)
        return line_spans(lines, records, cfg.pack, cfg.tag_lowercase, fold=cfg.fold_case)

    @staticmethod
    def wmt_text(source, lp: str | None, name: str) -> tuple[str, list[str]]:
        """(file label, lines) of one reference or system of a WMT-layout folder or zip, line numbers as in
        its file (the canary included)."""
        from .io.wmt import wmt_text

        return wmt_text(source, lp, name)

    @staticmethod
    def tagging(lang: str) -> dict:
        """What the pack's tagging measured against its gold spans (lang/<code>/tagging.json: per category
        precision, recall, class accuracy, gold spans; the command and date), {} when never measured."""
        from .lang import has_pack, load_pack

        return load_pack(lang).tagging if has_pack(lang) else {}

    @staticmethod
    def tagging_report(cfg: ScoreConfig) -> dict:
        """The score's `tagging` block (analysis/tagging.py tagging_block): per discourse category scored, the
        pack's measured precision, recall, class accuracy and gold spans, and whether it is marked (below
        precision 0.90 or recall 0.80, or fewer than 30 gold spans: lang/GOLD.md); {} without a pack."""
        from .analysis.tagging import tagging_block

        return tagging_block(Study.tagging(cfg.lang), cfg.lang, cfg.categories, cfg.tag_lowercase) if cfg.has_pack else {}

    @staticmethod
    def tagging_marks(cfg: ScoreConfig) -> dict:
        """{category: sentence} of the discourse categories marked in this language (tagging_report): each is
        marked wherever its number is shown, with the sentence."""
        rep = Study.tagging_report(cfg)
        bar = "below the bar" if rep.get("measured") else "the bar"
        # what lowercasing costs, where tagging the text as written measured better (English, French)
        aw = Study.tagging_report(cfg.with_(tag_as_written=True)).get("categories", {}) if cfg.tag_lowercase else {}

        def better(c, v):
            w = aw.get(c) or {}
            if w.get("recall") is None or v["recall"] is None or w["recall"] <= v["recall"] + 0.05:
                return ""
            return f"; tagged as written (--tag-as-written) {w['figures']}"
        return {c: f"{cfg.lang} {c}: {v['note']}{better(c, v)} ({bar}: precision 0.90, recall 0.80, 30 gold spans; "
                   f"{rep['table']})" for c, v in rep.get("categories", {}).items() if v["marked"]}

    @staticmethod
    def pack_notes(cfg: ScoreConfig) -> dict:
        """{"notes": [...], "caveats": [...]} of the pack that scores (lang/<code>/pack.json): what a category
        counts in that language, a licence; caveats are measured weaknesses that travel with every number."""
        if not cfg.has_pack:
            return {"notes": [], "caveats": []}
        pack = cfg.pack
        return {"notes": list(pack.notes), "caveats": list(pack.caveats)}

    def no_pack(self, cfg: ScoreConfig) -> str | None:
        """The one sentence said wherever a BlonDe number would be, when the target language has no pack
        (None: it has one)."""
        from .lang import no_pack_message

        return None if cfg.has_pack else no_pack_message(cfg.lang)

    def system_languages(self) -> dict:
        """{system: {"checked", "off_target", "other": {code: n}}} for the systems whose output is not all in
        the target language (lang.detect.segment_languages over up to 200 segments each): segments in another
        script than the reference's, or in the source's language (a refusal, a copy of the source).
        Only systems with at least one such segment are listed."""
        def compute():
            from .lang.detect import script_of, segment_languages

            g = self.guess_language()
            target = g["language"]
            out = {}
            if target is not None:
                src = self.source_language()
                for name, docs in self.corpus.systems.items():
                    r = segment_languages([s for d in docs for s in d], target)
                    off = {k: v for k, v in r["other"].items() if k == src or script_of(k) != g["script"]}
                    if off or r["empty"]:
                        out[name] = {"checked": r["checked"], "off_target": sum(off.values()), "other": off,
                                     "empty": r["empty"], "sampled": r["checked"] + r["empty"]}
            return out
        return self._language_fact("systems", compute)

    def empty_systems(self) -> list[str]:
        """The systems whose every segment is empty (no output at all): called empty, never "not in" a language."""
        return [n for n, docs in self.corpus.systems.items() if not any(x.strip() for d in docs for x in d)]

    OFF_TARGET_SHARE = 0.10  # a system with at least this share of its checked segments in another language

    def off_target_warnings(self) -> dict:
        """{system: one sentence} for each system with at least OFF_TARGET_SHARE of its checked segments in another
        language (another script, or the source's), in no language recognised but written in another script (Latin
        gibberish under a Ukrainian target) or empty: what the command line warns and the Data page shows."""
        out = {}
        for name, v in self.system_languages().items():
            if not v["sampled"] or (v["off_target"] + v["empty"]) / v["sampled"] < self.OFF_TARGET_SHARE:
                continue
            if name in self.empty_systems():  # nothing at all: an empty system, not one in another language
                out[name] = (f"system '{name}' is empty: all its {sum(map(len, self.corpus.systems[name]))} segments are "
                             "empty (no output); its scores are computed as for any system")
                continue
            what = self._off_target_parts(v["other"]) + ([f"{v['empty']} empty"] if v["empty"] else [])
            out[name] = (f"system '{name}': of {v['sampled']} segments checked, {' and '.join(what)}, not "
                         f"{self.guess_language()['name']} (a refusal, a copy of the source, no output); its scores "
                         "are computed as for any system")
        return out

    REFERENCE_MIN_LETTERS = 100  # a reference document judged in a language of the target's script from this many

    @staticmethod
    def _off_target_parts(other: dict) -> list[str]:
        """["59 in another language (en 59)", "3 in no language recognised, in another script (Latin 3)"] of the
        counts segment_languages gives ("Latin script": segments in no language it knows, written in another
        script than the target's)."""
        langs = [(k, n) for k, n in other.items() if not k.endswith(" script")]
        scripts = [(k[:-len(" script")], n) for k, n in other.items() if k.endswith(" script")]
        out = []
        for kv, head in ((langs, "in another language"), (scripts, "in no language recognised, in another script")):
            if kv:
                out.append(f"{sum(n for _, n in kv)} {head} ({', '.join(f'{k} {n}' for k, n in kv[:3])}"
                           f"{', ...' if len(kv) > 3 else ''})")
        return out

    def reference_languages(self) -> dict:
        """The references checked as the systems are (issue 63): {reference: {"documents": [[document index,
        problem, detail]], "segments": {"checked", "off_target", "other", "empty", "sampled"}}} for the
        references with a problem.  Per document: "empty" (every segment blank), "no letters" (emoji, symbols
        or digits only), "language" (detail: the code it is written in - another script, the source's language,
        or another language over at least REFERENCE_MIN_LETTERS letters), "foreign script" (no language known,
        almost none of the target's letters: Latin gibberish under a Ukrainian target), "homoglyphs" (detail:
        words mixing Latin, Cyrillic or Greek letters).  Per segment, as system_languages counts a system's.
        Document indices and codes only: kept in the disk cache with the other guesses."""
        def compute():
            from .lang.detect import (foreign_script, identify_texts, mixed_script_words, script_of,
                                      segment_languages)

            g = self.guess_language()
            target, src = g["language"], self.source_language()
            out = {}
            for name, docs in self.corpus.references.items():
                found = []
                for di, d in enumerate(docs):
                    text = [x for x in d if x.strip()]
                    if not text:
                        found.append([di, "empty", len(d)])
                        continue
                    r = identify_texts(text)
                    if not r["chars"]:
                        found.append([di, "no letters", None])
                        continue
                    mixed = mixed_script_words("\n".join(text))
                    if mixed >= 2:
                        found.append([di, "homoglyphs", mixed])
                    if target is None or r["chars"] < 20:
                        continue
                    lang = r["language"]
                    if lang is not None and lang != target and (
                            lang == src or script_of(lang) != g["script"] or r["chars"] >= self.REFERENCE_MIN_LETTERS):
                        found.append([di, "language", lang])
                    elif foreign_script(r, target):
                        found.append([di, "foreign script", r["script"]])
                seg = {"checked": 0, "off_target": 0, "other": {}, "empty": 0, "sampled": 0}
                if target is not None:
                    r = segment_languages([x for d in docs for x in d if x.strip()], target)
                    off = {k: v for k, v in r["other"].items() if k == src or script_of(k) != g["script"]}
                    seg = {"checked": r["checked"], "off_target": sum(off.values()), "other": off, "empty": 0,
                           "sampled": r["checked"]}
                if found or (seg["sampled"] and seg["off_target"] / seg["sampled"] >= self.OFF_TARGET_SHARE):
                    out[name] = {"documents": found, "segments": seg}
            return out
        return self._language_fact("references", compute)

    def reference_warnings(self) -> dict:
        """{reference: one sentence} for each reference with a problem (reference_languages): its empty
        documents, documents with no letters, in another language or script, with homoglyphs, and its share of
        segments in another language - what the command line warns (stderr and JSON `warnings`), the Data page
        shows and the Overview names in one line: every number is scored against it as it is."""
        from .lang.detect import language_name

        out = {}
        ids = self.corpus.doc_ids
        tname = self.guess_language()["name"] or "the target language"

        def docs(rows, say) -> str:
            named = [say(ids[di] if di < len(ids) else str(di + 1), x) for di, _, x in rows]
            return ", ".join(named[:4]) + (f" and {len(named) - 4} more" if len(named) > 4 else "")
        for name, v in self.reference_languages().items():
            rows = v["documents"]
            n_docs = len(self.corpus.references[name])
            parts = []
            for kind, head, say in (
                    ("empty", "empty", lambda d, x: f"'{d}'"),
                    ("no letters", "with no letters (emoji, symbols or digits only)", lambda d, x: f"'{d}'"),
                    ("language", f"not in {tname}", lambda d, x: f"'{d}' ({language_name(x)})"),
                    ("foreign script", f"in no language recognised, written in another script than {tname}'s",
                     lambda d, x: f"'{d}' ({x})"),
                    ("homoglyphs", "with words mixing Latin, Cyrillic or Greek letters (homoglyphs)",
                     lambda d, x: f"'{d}' ({x} words)")):
                mine = [r for r in rows if r[1] == kind]
                if mine:
                    parts.append(f"{len(mine)} of {n_docs} document(s) {head}: {docs(mine, say)}")
            seg = v["segments"]
            if seg["sampled"] and seg["off_target"] / seg["sampled"] >= self.OFF_TARGET_SHARE:
                parts.append(f"of {seg['sampled']} segments checked, "
                             + " and ".join(self._off_target_parts(seg["other"])))
            out[name] = (f"reference '{name}': {'; '.join(parts)}; every score is computed against it as it is "
                         "(an empty or foreign reference document matches nothing a system wrote)")
        return out

    def reference_gist(self) -> str | None:
        """reference_warnings in one line for a page's headline ("reference 'refA': 1 document empty, 2 not in
        Ukrainian"), or None when every reference is fine."""
        what = {"empty": "empty", "no letters": "with no letters", "language": "in another language",
                "foreign script": "in another script", "homoglyphs": "with homoglyphs"}
        parts = []
        for name, v in self.reference_languages().items():
            kinds = {}
            for _, kind, _x in v["documents"]:
                kinds[kind] = kinds.get(kind, 0) + 1
            said = [f"{k} document{'s' if k > 1 else ''} {what[kind]}" for kind, k in kinds.items()]
            seg = v["segments"]
            if seg["sampled"] and seg["off_target"] / seg["sampled"] >= self.OFF_TARGET_SHARE:
                said.append(f"{seg['off_target']} of {seg['sampled']} segments checked in another language or script")
            parts.append(f"reference '{name}': {', '.join(said)}")
        return "; ".join(parts) or None

    def n_segments(self) -> int:
        """System segments in all (what sacrebleu's TER takes minutes on, beyond TER_MAX_SEGMENTS)."""
        return sum(len(d) for docs in self.corpus.systems.values() for d in docs)

    def default_standard_metrics(self) -> tuple:
        """sacrebleu's metrics computed unless asked otherwise: TER only up to TER_MAX_SEGMENTS system
        segments, and not into Chinese, Japanese or Korean (ter_left_out says why; the Overview's switch and
        `correlate`'s default alike)."""
        return ("BLEU", "chrF") + (() if self.ter_left_out() else ("TER",))

    def ter_left_out(self) -> str | None:
        """Why TER is not computed by default (None: it is): too many system segments, or a target written
        without spaces, where TER is meaningful only normalised with Asian support (every character a token),
        which costs about a second a paragraph."""
        from .lang.scripts import script

        if script(self.guess_language()["language"]).ter_asian_support:
            return ("TER into Chinese, Japanese and Korean is computed only when asked (--metrics ...,TER; the "
                    "Overview's switch): normalised with Asian support, as sacrebleu recommends, every character "
                    "is a token and it takes about a second a paragraph")
        if self.n_segments() > TER_MAX_SEGMENTS:
            return (f"TER left out: {self.n_segments()} system segments (it takes minutes beyond "
                    f"{TER_MAX_SEGMENTS}); --metrics ...,TER adds it")
        return None

    def prefetch(self, cfg: ScoreConfig, keep_going) -> threading.Thread | None:
        """Start annotating this study's sentences in the background (the dashboard calls it
        when data is loaded, so the workers are busy while the user is still on the Data
        page). A page asking for the scores meanwhile waits for those sentences, with its
        progress, instead of annotating them again. keep_going() is asked at most every half
        second as the work goes on; False stops the work (the session left, or loaded other
        data): what is already in the workers is finished and kept, nothing more is sent.
        Returns the thread, or None when there is nothing to gain (no shared annotation
        memo: cache off)."""
        from .annotation.annotator import ProgressStop

        engine = self._engine
        if engine.cache_mode == "off" or engine.pool != "server" or not cfg.has_pack:
            return None
        try:
            self.corpus.check(cfg.granularity)
        except InputError:
            return None  # the pages say why; nothing to score yet
        texts = sorted(self.distinct_texts(cfg.tag_lowercase))
        ann = engine.annotator(cfg.tag_lowercase, cfg.lang, persist=self.origin != "sandbox")

        class _Stopped(ProgressStop):
            pass

        def check(done: int, total: int) -> None:
            if not keep_going():
                raise _Stopped()

        def run() -> None:
            try:
                ann.annotate(texts, progress=check)
            except _Stopped:
                pass
            except Exception as exc:  # the page asking for the scores meets the same error and shows it
                import logging  # only here: a command never pays for importing it

                logging.getLogger(__name__).info("background annotation stopped: %s", exc)

        t = threading.Thread(target=run, name=f"prefetch-{self.key[:8]}", daemon=True)
        t.start()
        return t

    def n_distinct(self, cfg: ScoreConfig) -> int:
        return len(self.distinct_texts(cfg.tag_lowercase))

    def signature(self, cfg: ScoreConfig) -> str:
        from .annotation.pipeline import pipeline_id

        if not cfg.has_pack:
            return f"texts|lang:{cfg.lang}|pack:none" + (f"|domain:{self.domain}" if self.domain else "")

        return cfg.signature(len(self.corpus.references), pipeline_id(cfg.pack), plus=self.plus,
                             refined_ner=self.ner is not None, seg=self.corpus.seg_method, domain=self.corpus.domain)

    # -- answers -------------------------------------------------------------------
    def _get(self, what: tuple, compute):
        return self._engine.results.get((self.key,) + what, compute)

    def result(self, cfg: ScoreConfig, progress=None):
        """BlonDe-family scores (metric.blonde.Result): counted once per counting settings,
        re-scored for the rest."""
        from .metric.blonde import BlonDe

        engine = self._engine
        if not cfg.has_pack:  # never a BlonDe number with another language's pack in silence
            raise InputError(self.no_pack(cfg), code=InputError.Codes.NO_PACK)
        self.corpus.check(cfg.granularity)

        def count():
            metric = BlonDe(cfg, annotator=engine.annotator(cfg.tag_lowercase, cfg.lang,
                                                            persist=self.origin != "sandbox"))
            ann = metric.annotator
            old = ann.progress
            try:
                return metric.evaluate(self.corpus, annotation=self.annotation, ner_refined=self.ner,
                                       annotation_file=self.annotation_file, ner_file=self.ner_file,
                                       progress=progress)
            finally:
                ann.progress = old

        base = self._get(("counts", counting_key(cfg)), count)
        return base if base.config == cfg else base.with_config(cfg)

    def scores_or_texts(self, cfg: ScoreConfig):
        """The BlonDe-family Result, or, for a target language without a pack, the texts alone
        (analysis/textsonly.py): what the meta-evaluation and the tables of other metrics read systems
        and documents from."""
        if cfg.has_pack:
            return self.result(cfg)
        from .analysis.textsonly import TextsOnly

        self.corpus.check(cfg.granularity)
        return TextsOnly(self.corpus, cfg.granularity, cfg.lang)

    def analysis(self, cfg: ScoreConfig, progress=None) -> "Analysis":
        """The scores with every question the pages ask of them (Analysis)."""
        return Analysis(self.result(cfg, progress=progress), self.human)

    def buckets(self, cfg: ScoreConfig, a: str, b: str, top: int = 20) -> dict:
        """Analysis.buckets, kept in the engine's memo (a page asks again on every rerun; ~0.5 s on WMT22)."""
        return self._get(("buckets", repr(cfg), a, b, top), lambda: self.analysis(cfg).buckets(a, b, top))

    def lost_entities(self, cfg: ScoreConfig, doc_index: int, names: list[str]) -> dict:
        """The entities of one document that lowercasing hides from the score (analysis/diagnostics.py):
        its sentences annotated as written, once, through this study's engine (cached like every annotation)."""
        from .analysis.diagnostics import lost_entities

        return lost_entities(self.result(cfg), self._engine.annotator(False, cfg.lang), doc_index, names)

    def standard(self, granularity: str, metric: str, progress=None):
        """One sacrebleu metric (BLEU, chrF or TER) for the texts' language (BLEU's tokenizer and TER's
        Asian support follow it: analysis/standard.py sacrebleu_options), per-segment statistics cached on disk."""
        from .analysis.standard import StandardResult

        engine = self._engine
        lang = self.text_language()
        if self.origin == "sandbox":  # typed text: never on disk; a few lines, computed here (no workers)
            return self._get(("standard", granularity, metric, lang), lambda: StandardResult(
                self.corpus, [metric], granularity, cache=False, lang=lang))
        return self._get(("standard", granularity, metric, lang), lambda: StandardResult(
            self.corpus, [metric], granularity, cache=engine.cache_mode == "disk", cache_dir=engine.cache_dir,
            progress=progress, extract=engine.segstats_runner(self.corpus), store=engine.disk("segstats"),
            lang=lang))

    def standard_ready(self, granularity: str, metric: str) -> bool:
        return (self.key, "standard", granularity, metric, self.text_language()) in self._engine.results

    def standards(self, granularity: str, metrics):
        """Several sacrebleu metrics as one StandardResult (None when metrics is empty)."""
        from .analysis.standard import StandardResult

        metrics = list(metrics)
        if not metrics:
            return None
        return StandardResult.merge([self.standard(granularity, m) for m in metrics])

    def standard_intervals(self, granularity: str, metrics, n: int = 1000, seed: int = DEFAULT_SEED) -> dict:
        """sacrebleu's metrics with the leaderboard's intervals over documents (stats.standard_intervals)."""
        from .analysis.stats import standard_intervals

        metrics = tuple(metrics)
        std = self.standards(granularity, metrics)
        return self._get(("standard_intervals", granularity, metrics, n, seed),
                         lambda: standard_intervals(std, metrics, list(self.corpus.systems), n, seed))

    def tested_without_pack(self, metric: str) -> bool:
        """Whether a metric is computed from the texts alone, so it is tested for a language without a pack: one
        the registry says needs nothing of the language (sacrebleu's), or one computed elsewhere."""
        spec = CATALOG.metric(metric.split(".")[0])
        return metric in self.external or (spec is not None and spec.unavailable(None) is None)

    def compare(self, cfg: ScoreConfig, metric: str = "BlonDe", test: str = "bootstrap", unit: str = "doc",
                n: int | None = 1000, seed: int = DEFAULT_SEED, std_metrics=(), cis: bool = True):
        """Every pair of systems tested on one metric (stats.compare); std_metrics: the sacrebleu
        metrics it may name."""
        from .analysis.stats import compare

        if not cfg.has_pack and not self.tested_without_pack(metric):
            raise InputError(f"{self.no_pack(cfg)} (sacrebleu's metrics and metrics computed elsewhere are tested "
                             "without one)", code=InputError.Codes.NO_PACK)
        res = self.scores_or_texts(cfg)  # a language without a pack: the texts alone, for chrF, BLEU, TER ...
        std = self.standards(cfg.granularity, std_metrics)
        names = None
        if metric in self.external:  # the systems the metric scored (a file may leave some out)
            names = [s for s in res.names if s in self.external[metric].systems] or None
        return self._get(("compare", repr(cfg), metric, test, unit, n, seed, tuple(std_metrics), cis),
                         lambda: compare(res, names=names, metric=metric, test=test, unit=unit, n=n, seed=seed,
                                         standard=std, system_cis=cis, external=self.external))

    def bootstrap_cis(self, cfg: ScoreConfig, metrics, n: int = 1000, unit: str = "doc"):
        from .analysis.stats import bootstrap_cis

        res = self.result(cfg)
        return self._get(("cis", repr(cfg), tuple(metrics), n, unit),
                         lambda: bootstrap_cis(res, list(metrics), n=n, unit=unit))

    def board(self, cfg: ScoreConfig, n: int = 1000, seed: int = DEFAULT_SEED) -> dict:
        """The leaderboard's intervals and significance clusters (stats.leaderboard.board), from
        the same cached test and intervals the Significance page's defaults use."""
        from .analysis.stats import board, bootstrap_cis, leaderboard_tops, policy

        res = self.result(cfg)
        method = policy.CI_METHOD  # the BlonDe family's interval (BCa: docs/statistics.md)
        if seed != DEFAULT_SEED:  # the pages' seed shares the Significance page's cached test; another is computed here
            return self._get(("board", repr(cfg), n, seed, method), lambda: board(res, n=n, seed=seed, method=method))
        unit = self.significance_unit(cfg)["unit"]
        tested = self.compare(cfg, "BlonDe", policy.TEST, unit, n)
        tops = leaderboard_tops(res)
        cis = self._get(("cis", repr(cfg), tuple(tops), n, unit, method),
                        lambda: bootstrap_cis(res, tops, n=n, unit=unit, method=method))
        return self._get(("board", repr(cfg), n, method), lambda: board(res, n=n, tested=tested, cis=cis, method=method))

    def leaderboard(self, cfg: ScoreConfig, n: int = 1000, seed: int = DEFAULT_SEED, std_metrics=(),
                    companions: bool = False, apt_pair: str | None = None, metrics=()):
        """The leaderboard assembled once (leaderboard.Leaderboard: systems best first, column specs, values,
        intervals, clusters) that the Overview, the report and `score --ci` render: the BlonDe family with
        intervals and clusters, the categories, the human column, metrics computed elsewhere, sacrebleu's
        std_metrics with intervals, the companion metrics (companions=True), APT (apt_pair) and the metrics of
        any further family (metrics: their names; analysis/families.py)."""
        from .analysis.families import by_family
        from .leaderboard import build

        std_metrics, metrics = tuple(std_metrics), tuple(metrics)
        asked = {"standard": std_metrics, "companion": companions, "apt": apt_pair}
        asked.update({f: tuple(ms) for f, ms in by_family(metrics).items() if f not in asked and f != "blonde"})
        return self._get(("leaderboard", repr(cfg), n, seed, std_metrics, companions, apt_pair, metrics),
                         lambda: build(self, cfg, n, seed, asked))

    # -- metrics computed elsewhere -------------------------------------------------
    def external_board(self, cfg: ScoreConfig, n: int = 1000, seed: int = DEFAULT_SEED) -> dict:
        """{metric: {"level", "direction", "unit", "intervals": {system: {score, ci}}, "clusters": {system: k},
        "cluster_rule"}} for every metric computed elsewhere: intervals over the significance policy's unit
        (documents for metrics with document scores only), clusters under the same policy as BlonDe's ranked by
        that metric; a metric with system scores only has its scores, no interval and no cluster."""
        from .analysis.stats import policy, significance_clusters

        out = {}
        res = self.result(cfg)
        unit = self.significance_unit(cfg)["unit"]
        for name, m in self.external.items():
            entry = {"level": m.level, "direction": m.direction, "files": list(m.files)}
            scored = [s for s in res.names if s in m.systems]
            if not m.resamplable() or len(scored) < 2:
                entry.update(unit=None, intervals={s: {"score": _none(m.score(s)), "ci": [None, None]} for s in scored},
                             clusters={}, cluster_rule="system scores only: no interval, no test")
                out[name] = entry
                continue
            tested = self.compare(cfg, name, policy.TEST, unit if m.seg and cfg.granularity == "sentence" else "doc", n,
                                  seed)
            sign = m.oriented[0]
            best_first = sorted(scored, key=lambda s: -1e18 if tested["systems"][s]["score"] is None
                                else -sign * tested["systems"][s]["score"])
            ints = {s: dict(tested["systems"][s]) for s in scored}
            for s in scored:  # the file's own system score where it gave one (the interval: its units' mean)
                if s in m.sys:
                    ints[s]["score"] = _none(m.sys[s])
            entry.update(unit=tested["unit"], n_units=tested["n_units"], intervals=ints,
                         clusters=significance_clusters(best_first, tested["pairs"], policy.ALPHA, policy.CORRECTION),
                         cluster_rule=policy.describe(policy.TEST, tested["unit"], tested["n_units"]),
                         signature=tested["signature"])
            out[name] = entry
        return out

    def significance_unit(self, cfg: ScoreConfig) -> dict:
        """The policy's unit for these documents (stats.policy.corpus_unit)."""
        from .analysis.stats.policy import corpus_unit

        return corpus_unit(self.corpus, cfg.granularity)

    def companions(self, cfg: ScoreConfig, otem_n: int = 2, utem_n: int = 4, alpha: float = 2.0) -> dict:
        """Otem/Utem, the early BlonD variants and RC, per system and document (0-100; they depend on
        the counting settings only)."""
        from .analysis.companion import companion_scores

        res = self.result(cfg)
        return self._get(("companions", counting_key(cfg), otem_n, utem_n, alpha),
                         lambda: companion_scores(res, per_doc=True, otem_n=otem_n, utem_n=utem_n, alpha=alpha))

    def apt(self, pair: str) -> dict:
        from .analysis.apt import corpus_apt

        return self._get(("apt", pair), lambda: corpus_apt(self.corpus, pair))

    def extra_tables(self, cfg: ScoreConfig, level: str, std_metrics=(), apt_pair: str | None = None,
                     companions=None, more=()) -> dict:
        """Standard, companion, APT and computed-elsewhere scores oriented higher-is-better, per system or document
        (companions: the companion metrics to include, default all; more: metrics of a further family,
        analysis/families.py, each family's scores hook giving them)."""
        from .analysis.families import FAMILIES, by_family
        from .analysis.stats import oriented_tables

        res = self.scores_or_texts(cfg)
        std = self.standards(cfg.granularity, std_metrics)
        apt = self.apt(apt_pair) if apt_pair and cfg.has_pack else None
        comp = self.companions(cfg) if cfg.has_pack and (companions is None or companions) else None
        if companions and comp is not None:
            comp = {s: {m: v for m, v in vals.items() if m in companions or m == "documents"}
                    for s, vals in comp.items()}
        asked = by_family(more) if cfg.has_pack else {}
        further = {f.name: {s: {m: v for m, v in vals.items() if m in asked[f.name] or m == "documents"}
                            for s, vals in f.scores(self, cfg, tuple(asked[f.name])).items()}
                   for f in FAMILIES if f.name in asked and f.name not in ("standard", "companion", "apt", "external")}
        out = oriented_tables(level, res.names, std, comp, apt, **further)
        if self.external:  # the family of metrics computed elsewhere, after the others, named apart from them
            ext = next(f for f in FAMILIES if f.name == "external")
            out.update(ext.values_of(level, res.names, {"external": (self.external, list(self.doc_ids), set(out))}))
        return out

    def external_scores(self, names, per_doc: bool = False, beside=()) -> dict:
        """The metrics computed elsewhere for `score`'s output and the Overview: {"systems": {system: {metric:
        value, "documents": {doc: {metric: value}}}}, "metrics": {metric: what was read}, "directions"}; every
        system has every metric (None: missing); {} without any.  beside: the names of the other metrics shown with
        them (one of the same name is named "chrF (computed elsewhere)", analysis/families.py elsewhere_name)."""
        from .analysis.families import elsewhere_name

        if not self.external:
            return {}
        out: dict = {"systems": {s: {} for s in names}, "metrics": {}, "directions": {}}
        for own, m in self.external.items():
            name = elsewhere_name(own, set(beside))
            out["metrics"][name] = m.describe()
            out["directions"][name] = m.direction
            for s in names:
                out["systems"][s][name] = _none(m.score(s)) if s in m.systems else None
                if per_doc:
                    v = m.doc_scores(s) if s in m.systems else None
                    docs = out["systems"][s].setdefault("documents", {d: {} for d in self.corpus.doc_ids})
                    for i, d in enumerate(self.corpus.doc_ids):
                        docs[d][name] = None if v is None else _none(float(v[i]))
        return out

    def human_column(self, names) -> dict | None:
        """The leaderboard's human column: every scored system's human score at system level as the
        judgments define it, with the number of segments rated and the rank by humans (None: no judgments)."""
        hs = self.human
        if hs is None:
            return None
        rows = {s: {"score": _none(hs.system_scores.get(s)), "segments": hs.n_segments.get(s, 0) if s in
                    hs.system_scores else 0} for s in names}
        rated = sorted((s for s in names if rows[s]["score"] is not None),
                       key=lambda s: -hs.oriented(rows[s]["score"]))
        for k, s in enumerate(rated, 1):
            rows[s]["rank"] = k
        return {"name": hs.name, "direction": "higher is better" if hs.higher_is_better else "lower is better",
                "kind": hs.kind, "systems": rows}

    def human_verdict(self, cfg: ScoreConfig, n: int = 1000, seed: int = DEFAULT_SEED) -> dict | None:
        """Whether the loaded human judgments agree with BlonDe's answer (analysis.verdict): where they rank
        BlonDe's leader, their own leader, and BlonDe's and chrF's system-level Pearson with them over the
        systems both score, BlonDe's with its interval over n resampled documents (None: no judgments)."""
        from .analysis.verdict import MIN_SYSTEMS, human_verdict

        if self.human is None or not cfg.has_pack:
            return None
        res = self.result(cfg)
        f1 = {s: res.scores(s)["BlonDe"]["F1"] for s in res.names}
        order = sorted((s for s in res.names if f1[s] is not None), key=lambda s: -f1[s])
        hum = self.human_column(order)
        rated = [s for s in order if hum["systems"][s].get("rank") is not None]
        corr = None
        if len(rated) >= MIN_SYSTEMS:
            unrated = tuple(s for s in res.names if s not in rated)
            corr, _ = self.correlate(cfg, "system", std_metrics=("chrF",), metrics=["BlonDe"], companions=(),
                                     exclude=unrated, bootstrap=n, seed=seed)
        out = human_verdict(order, hum, corr)
        out["signature"] = corr["signature"] if corr else self.signature(cfg)
        return out

    def document_texts(self, doc_index: int, names) -> dict:
        """One document's segments as loaded, {name: [segment]} for the references and systems named (and
        "source" when loaded): what the Documents page shows where no language pack gives spans."""
        c = self.corpus
        out = {n: list((c.references.get(n) or c.systems[n])[doc_index]) for n in names}
        if c.source:
            out["source"] = list(c.source[doc_index])
        return out

    def human_errors(self, cfg: ScoreConfig, doc_index: int, system: str) -> list | None:
        """A system's human error spans (MQM, ESA) in one document, per segment (analysis.overlap.document_errors;
        None: not judged, or its segments do not pair with the judgments'); with or without a language pack."""
        from .analysis.overlap import document_errors

        if self.human is None or not self.human.error_spans:
            return None
        return document_errors(self.scores_or_texts(cfg), self.human, doc_index, system)

    def external_sentences(self, doc_index: int, system: str) -> dict:
        """{metric: [score of each segment of the document]} of the metrics computed elsewhere that give this
        system segment scores (None: missing), for the Documents page's sentences."""
        ref0 = next(iter(self.corpus.references.values()))
        start = sum(len(x) for x in ref0[:doc_index])
        n = len(ref0[doc_index])
        return {k: [_none(float(v)) for v in m.seg[system][start:start + n]]
                for k, m in self.external.items() if system in m.seg}

    def external_document(self, doc_index: int, system: str) -> dict:
        """{metric: this document's score} of the metrics computed elsewhere that scored this system (None:
        missing), for the Documents page's table of the document's scores."""
        out = {}
        for k, m in self.external.items():
            v = m.doc_scores(system) if system in m.systems else None
            if v is not None:
                out[k] = _none(float(v[doc_index]))
        return out

    def disagreement(self, cfg: ScoreConfig, a: str, b: str, metric: str) -> dict:
        """Where BlonDe and a metric computed elsewhere disagree most about systems A and B (Contrast):
        documents (and, with segment scores under sentence-level matching, sentences) ranked by how strongly
        the two differences A - B point opposite ways (analysis.contrast.disagreement)."""
        from .analysis.contrast import disagreement

        if metric not in self.external:
            raise InputError(f"no metric computed elsewhere is named '{metric}' (loaded: "
                             f"{', '.join(self.external) or 'none'})", code=InputError.Codes.NAMES)
        res = self.result(cfg)
        return self._get(("disagreement", repr(cfg), a, b, metric),
                         lambda: disagreement(res, self.external[metric], a, b))

    def correlate(self, cfg: ScoreConfig, level: str = "system", std_metrics=(), apt_pair: str | None = None,
                  grouping: str = "none", exclude=(), spa: bool = False, permutations: int = 1000,
                  seed: int = DEFAULT_SEED, compare: tuple | None = None, bootstrap: int = 1000, metrics=None,
                  companions=None, spa_seed: int = 4, more=()):
        """(correlate(...) output, metric_table(...)) against this study's own human judgments;
        metrics: the BlonDe-family names (default all), companions: the companion metrics (default all), more:
        metrics of a further family (analysis/families.py)."""
        from .analysis.stats import correlate, metric_table

        if self.human is None:
            raise InputError("no human judgments loaded", code=InputError.Codes.JUDGMENTS)
        res = self.scores_or_texts(cfg)
        comp = tuple(companions) if companions is not None else None
        if not cfg.has_pack:
            metrics, comp, apt_pair = None, (), None
        if level == "segment":  # the BlonDe family, sacrebleu's and metrics computed elsewhere, segment by segment
            apt_pair, comp, spa = None, (), False
        more = tuple(more) if level != "segment" else ()
        extra = self.extra_tables(cfg, level, std_metrics, apt_pair, comp, more) if level != "segment" else {}
        extra_docs = self.extra_tables(cfg, "document", std_metrics, apt_pair, comp, more) if spa or compare \
            else None
        segs = {**self.standard_segments(cfg, std_metrics, res.names), **self.external_segments(res.names)} \
            if level == "segment" or spa else None
        exclude = tuple(exclude)
        names = list(metrics) if metrics is not None else None
        return self._get(("correlate", repr(cfg), level, tuple(std_metrics), apt_pair, grouping, exclude,
                          spa, permutations, seed, tuple(compare or ()), bootstrap, tuple(names or ()), comp, spa_seed,
                          more),
                         lambda: (correlate(res, self.human, level, names, extra=extra or None, grouping=grouping,
                                            exclude=exclude, spa=spa, permutations=permutations, seed=seed,
                                            compare=compare, extra_docs=extra_docs, bootstrap=bootstrap,
                                            extra_segments=segs, spa_seed=spa_seed),
                                  metric_table(res, self.human, level, extra=extra, exclude=exclude,
                                               extra_segments=segs)))

    def standard_segments(self, cfg: ScoreConfig, std_metrics, names) -> dict:
        """sacrebleu's metrics segment by segment (sentence chrF, sentBLEU, sentence TER), oriented
        higher-is-better ("-TER"): {name: {system: (n_segments,)}}; {} when matched per document."""
        if cfg.granularity != "sentence" or not std_metrics:
            return {}
        std_metrics, names = tuple(std_metrics), tuple(names)

        def compute():  # each segment scored in Python: once per study, metrics and systems (pages ask often)
            std = self.standards(cfg.granularity, std_metrics)
            out: dict = {}
            for m in std.metrics:
                sign, key = registry.SPECS[m].oriented()
                out[key] = {s: sign * std.segment_scores(m, s) for s in names}
            return out
        return self._get(("standard_segments", std_metrics, names), compute)

    def task_tables(self, cfg: ScoreConfig, std_metrics=("chrF", "BLEU"), metrics=None, exclude=(),
                    system_level: bool = False):
        """One language pair's inputs to the WMT metrics task's ranking (analysis/stats/task.py): the human
        segment scores and every metric's, systems x segments, oriented higher-is-better; with system_level,
        the system-level values too (WMT23).  metrics: the BlonDe family's (default BlonDe and BlonD-d; none
        without a pack)."""
        import numpy as np

        from .analysis.stats.correlation import _segment_tables
        from .analysis.stats.task import PairTables

        if self.human is None:
            raise InputError("no human judgments loaded", code=InputError.Codes.JUDGMENTS)
        if cfg.granularity != "sentence":
            raise InputError("the WMT task scores segments: it needs sentence-level matching",
                             code=InputError.Codes.SENTENCE_COUNTS)
        res = self.scores_or_texts(cfg)
        names = None if not cfg.has_pack else list(metrics) if metrics is not None else ["BlonDe", "BlonD-d"]
        segs = {**self.standard_segments(cfg, std_metrics, res.names), **self.external_segments(res.names)}
        _, _, _, systems, H, _, M, fns, _ = _segment_tables(res, self.human, names or [], list(exclude), segs)
        M = {m: v for m, v in M.items() if m in segs or m in (names or [])}
        notes = [] if cfg.has_pack else [self.no_pack(cfg)]
        t = PairTables(self.language_pair() or "", systems, H, M, notes=notes)
        if system_level:
            t.human_sys = np.array([self.human.oriented(self.human.system_scores[s]) for s in systems])
            extra = self.extra_tables(cfg, "system", std_metrics, None, ())
            t.metric_sys = {m: np.array([float(fns[m](res.total(s))) for s in systems]) for m in (names or [])}
            t.metric_sys.update({m: np.array([float(v.get(s, np.nan)) for s in systems]) for m, v in extra.items()})
        return t

    def external_segments(self, names) -> dict:
        """Per-segment values of the metrics computed elsewhere that have them, oriented higher-is-better."""
        out = {}
        for m in self.external.values():
            if m.seg:
                sign, key = m.oriented
                out[key] = {s: sign * v for s, v in m.seg.items() if s in names}
        return out

    def compare_pair(self, cfg: ScoreConfig, pair: tuple, level: str = "system", std_metrics=(),
                     apt_pair: str | None = None, grouping: str = "none", exclude=(),
                     permutations: int = 1000, seed: int = DEFAULT_SEED) -> dict:
        """Two metrics compared (Williams, PERM-BOTH) against this study's human judgments."""
        from .analysis.stats import compare_pair

        if self.human is None:
            raise InputError("no human judgments loaded", code=InputError.Codes.JUDGMENTS)
        res = self.scores_or_texts(cfg)  # without a pack: the metrics that need none
        extra = self.extra_tables(cfg, level, std_metrics, apt_pair if cfg.has_pack else None)
        exclude = tuple(exclude)
        return self._get(("compare_pair", repr(cfg), tuple(pair), level, tuple(std_metrics), apt_pair,
                          grouping, exclude, permutations, seed),
                         lambda: compare_pair(res, self.human, tuple(pair), level, extra=extra, grouping=grouping,
                                              exclude=exclude, permutations=permutations, seed=seed))

    def rater_agreement(self) -> list[dict]:
        """Cohen's kappa between every two raters of the loaded MQM judgments ([] without raters)."""
        from .analysis.stats import rater_agreement

        return rater_agreement(self.human) if self.human is not None and self.human.rater_scores else []

    def blonde_spans_vs_human(self, cfg: ScoreConfig) -> dict | None:
        """BlonDe's mismatches against the human error spans over the whole test set (analysis.overlap.error_overlap,
        what `score --human FILE --overlap` prints): per system and category how many unmatched spans a human error
        covers, and `span_f1`, BlonDe's unmatched system spans scored as predicted error spans against the human's
        as WMT25 scores error spans (severity set aside). None without error spans or a pack."""
        if self.human is None or not self.human.error_spans or not cfg.has_pack:
            return None
        return self._get(("blonde_spans_vs_human", repr(cfg)), lambda: self.analysis(cfg).error_overlap())

    def annotator_agreement(self) -> dict | None:
        """Two human annotations of the same segments (ESA items judged by two raters; WMT25's human1 and human2):
        character-level span F1 as WMT25 scores error spans (analysis/spanf1.py), per system and overall, and the
        correlation of their scores; None when no segment has two."""
        from .analysis.spanf1 import annotator_agreement

        hs = self.human
        if hs is None or not hs.rater_scores:
            return None
        return annotator_agreement(hs.rater_scores, hs.error_spans or {})

    def metric_spans_vs_human(self, files) -> list[dict]:
        """Each span file's error spans (xCOMET-style JSON Lines, io/spans.py; paths or (name, bytes)) scored against
        the loaded human error spans as WMT25's metrics task scores spans (analysis/overlap.py
        metric_spans_vs_human): character-level precision, recall and F1 per system and overall."""
        from .analysis.overlap import metric_spans_vs_human
        from .io.spans import read_span_file

        if self.human is None or not self.human.error_spans:
            raise InputError("error spans are scored against human error spans: load judgments that mark them (ESA, "
                             "MQM, WMT25's human evaluation)", code=InputError.Codes.JUDGMENTS)
        return [metric_spans_vs_human(self.corpus, self.human, read_span_file(_named(f), self.corpus))
                for f in files]

    def resegmented(self) -> "Study":
        """The same study with every system document that does not line up with the reference's segments
        re-segmented into them (Corpus.resegment; the texts' language guides the tokens: characters for
        Chinese and Japanese).  Everything sentence-level then works; `resegmentation()` says what changed."""
        from .annotation.store import decode_strings

        c = self.corpus
        # each document's cut kept in the disk cache (typed text never goes to disk)
        store = None if self.origin == "sandbox" else self._engine.disk("reseg", validate=decode_strings)
        new = c.resegment(self.text_language(), store=store)
        if not new.resegmented:
            return self
        messages, hs = dict(self.messages), self.human
        moved = {(name, new.doc_ids[di]) for name, docs in new.resegmented.items() for di in docs}
        judged = [k for k in (hs.segments if hs is not None else {}) if (k[0], k[1]) in moved]
        if judged:
            # a judgment of a re-segmented document rates the system's own segment k, not the k-th segment
            # of the cut: it leaves what pairs segments (segment-level correlation, the error spans' overlap);
            # the document and system scores, made of the system's own segments, stay
            def keep(table: dict) -> dict:
                return {k: v for k, v in table.items() if (k[0], k[1]) not in moved}
            hs = dataclasses.replace(hs, segments=keep(hs.segments), rater_scores=keep(hs.rater_scores),
                                     error_spans=keep(hs.error_spans), targets=keep(hs.targets))
            who = sorted({k[0] for k in judged})
            messages["resegment"] = [
                f"{len(judged)} segment judgment(s) of re-segmented documents ({', '.join(who)}) left out of "
                "segment-level correlation and the error spans' overlap: they rate the system's own segments, "
                "not the re-segmented ones; its document and system scores are kept"]
        return dataclasses.replace(self, corpus=new, messages=messages, human=hs)

    def resegmentation(self) -> dict:
        """{system: {document id: {"segments": n before, "omitted": [1-based reference segment numbers],
        "added": [...]}}} of the re-segmented documents ({} when nothing was re-segmented)."""
        c = self.corpus
        return {name: {c.doc_ids[di]: {"segments": len(v["original"]), "omitted": [i + 1 for i in v["omitted"]],
                                        "added": [i + 1 for i in v["added"]]} for di, v in docs.items()}
                for name, docs in c.resegmented.items()}

    def original_segments(self, system: str, doc_index: int) -> list[str]:
        """A re-segmented system's own segments of one document, as it wrote them ([] when not re-segmented)."""
        return list(self.corpus.resegmented.get(system, {}).get(doc_index, {}).get("original", []))

    def scored_against(self, name: str) -> "Study":
        """The same study with `name` (a reference or a system) as the only reference; other
        references become systems.  BlonD+ annotation belongs to the first reference, so it is
        kept only when that stays the reference.  Sentence annotations are cached, so this
        re-scores without re-annotating."""
        c = self.corpus
        if name in c.references and len(c.references) == 1:
            return self
        first = next(iter(c.references), None)  # a structured file read without --reference-systems has none
        keep = name == first
        return Study(c.scored_against(name), self.origin, self.human, self.annotation if keep else None,
                     self.ner if keep else None, self.annotation_file, self.ner_file, dict(self.messages),
                     human_file=self.human_file, engine=self.engine, external=self.external,
                     metric_files=self.metric_files, domains=self.domains, wmt=self.wmt)

    @property
    def domain(self) -> str | None:
        """The one domain this study is restricted to (in_domain), or None."""
        return self.corpus.domain

    def domain_counts(self) -> dict:
        """{domain: number of documents} of a test set whose documents have domains ({} otherwise)."""
        if not self.domains:
            return {}
        out: dict = {}
        for d in self.corpus.doc_ids:
            dom = self.domains.get(d)
            if dom is not None:
                out[dom] = out.get(dom, 0) + 1
        return out

    def in_domain(self, domain: str | None) -> "Study":
        """The same study restricted to the documents of one domain (a WMT folder's documents file):
        texts, human judgments (each system's score the mean of its segments there) and metrics computed
        elsewhere (their per-segment or per-document scores; one given per system only is left out and
        said).  None: the whole study.  Sentence annotations are cached, so nothing is annotated again."""
        if domain is None or domain == self.domain:
            return self
        if self.domain is not None:
            raise InputError(f"this study is already restricted to domain '{self.domain}'",
                             code=InputError.Codes.OPTIONS)
        counts = self.domain_counts()
        if domain not in counts:
            raise InputError(f"no document is in domain '{domain}' (" + (
                "domains: " + ", ".join(f"{k} ({v} documents)" for k, v in sorted(counts.items())) if counts else
                "these texts have no domains; a WMT folder's documents file gives them") + ")",
                code=InputError.Codes.OPTIONS)
        c = self.corpus
        keep = [i for i, d in enumerate(c.doc_ids) if self.domains.get(d) == domain]
        lines = [n for n, (d, *_) in enumerate(c.segment_places()) if self.domains.get(d) == domain]
        corpus = c.subset(keep, domain)
        messages = dict(self.messages)
        external = {}
        for name, m in self.external.items():
            sub = m.subset(keep)
            if sub is None:
                messages.setdefault("domain", []).append(
                    f"metric '{name}' has system scores only, which cover every domain: left out in domain "
                    f"'{domain}'")
            else:
                external[name] = sub
        human = self.human.subset(set(corpus.doc_ids), corpus.n_segments) if self.human is not None else None
        return dataclasses.replace(
            self, corpus=corpus, human=human, external=external, messages=messages,
            annotation=[self.annotation[k] for k in lines] if self.annotation is not None else None,
            ner=[self.ner[k] for k in lines] if self.ner is not None else None)

    def guess_pair(self) -> str | None:
        """The APT language pair from the texts: Chinese source and English target, or English to French."""
        import re

        c = self.corpus
        if not c.source:
            return None
        src = " ".join(s for doc in c.source[:2] for s in doc[:20])
        tgt = " ".join(s for doc in next(iter(c.references.values()))[:2] for s in doc[:20])
        if re.search(r"[\u4e00-\u9fff]", src) and re.search(r"\b(the|and)\b", tgt, re.I):
            return "zh-en"
        if re.search(r"\b(the|and)\b", src, re.I) and re.search(r"\b(le|la|les|et)\b", tgt, re.I):
            return "en-fr"
        return None

    # -- the command line that reproduces the numbers ---------------------------------
    def command(self, cfg: ScoreConfig, subcommand: str = "score", extra=()) -> list[str] | None:
        """The `python -m blonde_core score` arguments that reproduce this study's
        scores with cfg (None when the data did not come from files); subcommand and
        extra: another command over the same files and settings (`compare --metric ...`)."""
        c = self.corpus
        if c.boundaries == "single" and self.origin == "sandbox":
            return None
        if self.wmt:  # a WMT folder: the folder, its language pair and human score; -r NAME: the one reference
            files = ["--wmt-dir", self.wmt[0], "--lp", self.wmt[1]] + (["--gold", self.wmt[2]] if self.wmt[2] else [])
            if len(c.references) == 1:
                files += ["-r", next(iter(c.references))]
        else:
            files = ["-r"] + [c.files.get(n, f"{n}.txt") for n in c.references] + \
                ["-s"] + [c.files.get(n, f"{n}.txt") for n in c.systems]
            if c.boundaries == "docids":
                files += ["--docids", c.docids_file or "docids.txt"]
                if c.system_docids:
                    files += ["--system-docids", *(c.system_docids.get(n, "docids.txt") for n in c.systems)]
            elif c.boundaries == "blank-lines":
                files += ["--blank-line-docs"]
        if c.seg_method:
            files += ["--resegment"]
        if self.domain:
            files += ["--domain", self.domain]
        if self.human is not None and self.human.details.get("common") is False:
            files += ["--esa-every-judged"]
        if self.metric_files:
            files += ["--metric-scores", *self.metric_files]
        lower = [k for k, m in self.external.items() if not m.higher_is_better]
        if lower:
            files += ["--metric-lower-is-better", *lower]
        if self.annotation is not None:
            files += ["-p", "-an", self.annotation_file]
        if self.ner is not None:
            files += ["-ner", self.ner_file]
        tail = ["--per-doc"] if subcommand == "score" else []
        fmt = [] if subcommand == "report" else ["--format", "json"]
        return ["python", "-m", "blonde_core", subcommand, *files, *cfg.cli_args(), *extra, *tail, *fmt]

    # -- results for a paper and for a colleague ------------------------------------------
    def report_html(self, cfg: ScoreConfig, n: int = 1000, seed: int = DEFAULT_SEED, std_metrics=("BLEU", "chrF")) -> str:
        """The one-file HTML report (report.build_report): self-contained, readable at 1280 px, printable."""
        from .report import build_report

        return build_report(self, cfg, n=n, seed=seed, std_metrics=tuple(std_metrics))


class Analysis:
    """A Result (metric.blonde.Result: scores, per-document scores, sufficient statistics,
    signature, read through as attributes) with every question a page or command asks of
    it, each answered by the analysis part from the same sufficient statistics.

    The questions are the functions named in QUESTIONS, each called with the Result (and, for
    the human error spans, the judgments) before the caller's arguments: `analysis.contrast(a, b)`
    is `analysis.contrast.contrast(result, a, b)`.  Nothing is imported until it is asked."""

    # name -> (module under blonde_core.analysis, what it is given first: "result", "result+human", "pack")
    QUESTIONS = {
        # what the scores are made of
        "discourse_categories": ("contrast", "result"), "sentence_level": ("contrast", "result"),
        "metric_names": ("stats", "result"), "leaderboard_tops": ("stats", "result"),
        # diagnostics
        "feature_breakdown": ("diagnostics", "result"), "thin_evidence": ("diagnostics", "result"),
        "entity_strings": ("diagnostics", "result"), "collapse_notes": ("diagnostics", "result"),
        "sentence_view": ("diagnostics", "result"),
        # one document's threads
        "entity_threads": ("threads", "result"), "pronoun_threads": ("threads", "result"),
        "tense_timeline": ("threads", "result"), "tense_legend": ("threads", "pack"),
        # two systems
        "contrast": ("contrast", "result"), "buckets": ("buckets", "result"),
        "document_contrast": ("contrast", "result"), "sentence_errors": ("contrast", "result"),
        "mismatching_sentences": ("contrast", "result"),
        # against human MQM / ESA error spans
        "document_errors": ("overlap", "result+human"), "error_overlap": ("overlap", "result+human"),
    }

    def __init__(self, result, human=None):
        self.result = result
        self.human = human

    def __getattr__(self, name):  # a question, else the Result's own (scores, doc_scores, names, corpus, ...)
        asked = Analysis.QUESTIONS.get(name)
        if asked is None:
            return getattr(self.result, name)
        import functools
        import importlib

        module, given = asked
        fn = getattr(importlib.import_module(f"blonde_core.analysis.{module}"), name)
        first = {"result": (self.result,), "result+human": (self.result, self.human),
                 "pack": (self.result.table.pack,)}[given]
        return functools.wraps(fn)(functools.partial(fn, *first))

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(Analysis.QUESTIONS))

    # what pages ask of the texts it was scored on: the io Corpus stays behind the door (issue 61 point 5)
    @property
    def doc_ids(self) -> list:
        """The documents' ids (a document's index is its place here)."""
        return self.result.corpus.doc_ids

    @property
    def references(self) -> list[str]:
        """The references' names (the first is the one scored against)."""
        return list(self.result.corpus.references)

    @property
    def source(self) -> list | None:
        """The source's documents (lists of segments), None when no source was loaded."""
        return self.result.corpus.source

    @property
    def resegmented(self) -> dict:
        """{system: {document index: {"original": its own segments, "omitted": [...], "added": [...]}}} of the
        systems re-segmented into the reference's sentences ({} when none was)."""
        return getattr(self.result.corpus, "resegmented", {}) or {}

    def score_stats(self, stats) -> dict:
        """The formula on these sufficient statistics (e.g. doc_stats(name)) with this result's settings."""
        from .metric.scoring import score

        return score(stats, self.config, self.layout, self.plus)


class Catalog:
    """What the core offers, by name, for the pages and the command line: the declared
    settings (label, help, choices, flags), the categories and their words, the metrics
    with their directions and scales, the significance policy, the thin-evidence
    threshold.  Read from the parts the first time each is asked for."""

    @property
    def settings(self) -> list:
        """[(field, Setting)] in declaration order (metric/settings.py)."""
        from .metric.settings import declared

        return declared()

    @property
    def weight_flags(self) -> dict:
        """category -> the blonde package's flags for its weights (-wt, -wp, ...)."""
        from .metric.settings import WEIGHT_FLAGS

        return WEIGHT_FLAGS

    def language(self, lang="en"):
        """The language pack (lang/): its features per category, words and descriptions (given a language's name,
        folder or file, or the pack itself)."""
        from .lang import as_pack

        return as_pack(lang)

    @staticmethod
    def plain(x):
        """A number as JSON holds it: NaN as None."""
        from .numbers import nan_to_none

        return nan_to_none(x)

    @staticmethod
    def guess_language(texts) -> dict:
        """The language pack whose frequent words cover most of these texts (lang.guess_language)."""
        from .lang import guess_language

        return guess_language(texts)

    @staticmethod
    def language_name(code: str) -> str:
        """'zh' -> 'Chinese' (lang/detect.py)."""
        from .lang.detect import language_name

        return language_name(code)

    @property
    def languages(self) -> list[str]:
        """The target languages this installation has a pack for."""
        from .lang import available

        return available()

    @property
    def categories(self) -> tuple:
        """BlonDe's categories in their order (tense, pronoun, entity, dm, ngram)."""
        from .metric.settings import CATEGORY_NAMES

        return CATEGORY_NAMES

    @property
    def tops(self) -> tuple:
        """The BlonDe family's overall scores: BlonDe, BlonD-d, BlonD+."""
        return registry.names("blonde")

    @property
    def category_words(self) -> dict:
        from .metric.settings import CATEGORY_WORDS

        return CATEGORY_WORDS

    @property
    def thin(self) -> int:
        from .metric.scoring import THIN

        return THIN

    # the metrics: metric/registry.py says what each is; these read it
    @staticmethod
    def metric(name: str):
        """The registry's MetricSpec of a metric (family, direction, points scale, test units, what it needs),
        also for "BlonD-d.R" and "-TER"; None for a name it does not know (a metric computed elsewhere)."""
        return registry.spec(name)

    @property
    def families(self) -> list:
        """The metric families (analysis/families.py): each its metrics, words, help and hooks."""
        from .analysis.families import FAMILIES

        return FAMILIES

    @staticmethod
    def metric_family(name: str):
        """The family of a registered metric (analysis/families.py), None for one the registry does not know."""
        from .analysis.families import family

        return family(name)

    @staticmethod
    def metrics_help(use: str) -> str:
        """The metric names a help text lists, from the families ("score": extra metrics; "compare": tested)."""
        from .analysis.families import metrics_help

        return metrics_help(use)

    @property
    def companions(self) -> tuple:
        return registry.names("companion")

    def companions_for(self, lang: str) -> tuple:
        """The companion metrics a language can give (the early BlonD and RC need the pack's word lists)."""
        return registry.available(self.language(lang), ("companion",))

    @property
    def standard(self) -> tuple:
        """sacrebleu's metrics and their document-level forms (BLEU, chrF, TER, d-BLEU, d-chrF)."""
        return registry.names("sacrebleu", "document")

    @property
    def sacrebleu(self) -> tuple:
        """sacrebleu's metrics over segments (BLEU, chrF, TER)."""
        return registry.names("sacrebleu")

    @staticmethod
    def higher_is_better(metric: str) -> bool:
        return registry.higher_is_better(metric)

    @staticmethod
    def direction(metric: str) -> str:
        """ "higher is better" or "lower is better" """
        return registry.direction(metric)

    @staticmethod
    def points_factor(metric: str) -> int:
        return registry.points_factor(metric)

    @property
    def seed(self) -> int:
        """The resampling seed used unless one is given."""
        return registry.DEFAULT_SEED

    @property
    def policy(self):
        """The one significance policy (analysis/stats/policy.py: TEST, CORRECTION, MIN_UNITS, describe)."""
        from .analysis.stats import policy

        return policy

    @property
    def min_similarity(self) -> float:
        from .analysis.threads import MIN_SIMILARITY

        return MIN_SIMILARITY

    @staticmethod
    def input_formats(role: str):
        """What a role's flag and uploader take - "texts" (--input, one structured file), "judgments" (--human),
        "metric scores" (--metric-scores) - from io/formats.py's table: `label`, `help`, `types` (None: any
        name), `flag`, `uploader`, `formats` (each InputFormat in the order a file is tried)."""
        from .io.formats import accepted

        return accepted(role)


CATALOG = Catalog()


# Tools that need no Study (formatting, exports, reading limits, typed text): `from blonde_core.study import
# latex_table` reaches the function named here, importing its module only then (PEP 562), so the door stays
# the one place pages and commands import from without the class forwarding each of them.
TOOLS = {
    "json_safe": ("numbers", "json_safe"),
    "json_text": ("numbers", "json_text"),
    "time_left": ("numbers", "time_left"),
    "csv_text": ("exports", "csv_text"),
    "frame_csv": ("exports", "frame_csv"),
    "latex_table": ("report", "latex_table"),
    "latex_text": ("report", "latex_text"),
    "significance_sentence": ("report", "significance_sentence"),
    "shown_digits": ("report", "shown_digits"),
    "round_as_shown": ("report", "round_as_shown"),
    "reading_limits": ("io.readers", "reading_limits"),
    "read_lines": ("io.readers", "read_lines"),
    "marked_figures": ("analysis.tagging", "marked_figures"),
    "text_script": ("typed", "text_script"),
    "text_lines": ("typed", "lines_of"),
    "apt_of_links": ("analysis.apt", "apt_of_links"),
    "apt_of_files": ("analysis.apt", "apt_of_files"),
    "mqm_fields": ("analysis.mqm", "fields"),
    "release_rows": ("analysis.release", "release_rows"),
    "release_notes": ("analysis.release", "release_notes"),
    "release_latex": ("report", "release_latex"),
    "release_html": ("report", "release_html"),
    "pair_apart": ("analysis.release_run", "apart"),
    "forks": ("analysis.release_run", "available"),
    "meta_statistics": ("analysis.stats.statistics", "shown"),
    "meta_options": ("analysis.stats.statistics", "options"),
    "meta_task_statistics": ("analysis.stats.statistics", "TASK_STATISTICS"),
}


def __getattr__(name):
    if name in TOOLS:
        import importlib

        module, fn = TOOLS[name]
        return getattr(importlib.import_module(f"blonde_core.{module}"), fn)
    raise AttributeError(f"module 'blonde_core.study' has no attribute {name!r}")
