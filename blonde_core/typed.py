"""Typed text: the rules the Sandbox and the gallery score a reference and one or two candidates by (one
document, a sentence per line), and the shell lines that reproduce them - the core's, so that the pages, the
tests and the command line agree (issue 45).  Reached through the door (Study.score_texts, blonde_core.study.text_script,
Study.text_config)."""
from __future__ import annotations

import shlex


def lines_of(text: str) -> list[str]:
    """The non-blank lines of typed text (Windows line ends too)."""
    return [ln for ln in (text or "").replace("\r\n", "\n").split("\n") if ln.strip()]


def text_config(cfg, ref: list[str], cands: dict):
    """The settings typed text is scored with: the language the reference is written in (guessed; custom
    weights, which are per language, are dropped when it changes, and lowercasing follows that language's
    pack), and document-level matching when a candidate's line count differs from the reference's."""
    from .lang import guess_language, has_pack, load_pack

    guess = guess_language(ref)["language"]
    if guess is not None and guess != cfg.lang:  # and the case that language's pack reads text in
        lc = load_pack(guess).lowercase if has_pack(guess) else True
        cfg = cfg.with_(lang=guess, weights=None, lowercase=lc)
    if cfg.granularity == "sentence" and any(len(v) != len(ref) for v in cands.values()):
        return cfg.with_(granularity="document")
    return cfg


def score_texts(study_of, reference: str, candidates: dict, annotation: list | None, cfg,
                resegment: bool = False, line_by_line: bool = False):
    """Score typed text through a study of its own (study_of(reference lines, {name: lines}, annotation):
    kept off the disk).  Returns (analysis, note, BLEU per candidate): document-level matching when line
    counts differ, and then BLEU over the whole text too, as `score --metrics BLEU` does; with resegment, a
    candidate whose line count differs is cut into the reference's sentences instead (`--resegment`), and the
    note says what it left out; with line_by_line, its lines are paired with the reference's as they come
    (empty sentences after its last line, extra lines left out): what a sentence-level comparison that ignores
    the misalignment would say (the gallery's contrast)."""
    ref = lines_of(reference)
    cands = {k: lines_of(v) for k, v in candidates.items() if lines_of(v)}
    if not ref or not cands:
        return None, "Type a reference and at least one candidate, one sentence per line.", {}
    note = ""
    if line_by_line:
        cands = {k: (v + [""] * (len(ref) - len(v)))[:len(ref)] for k, v in cands.items()}
    if resegment and any(len(v) != len(ref) for v in cands.values()):
        study = study_of(ref, cands, annotation).resegmented()
        cands = {k: study.corpus.systems[k][0] for k in cands}
        for name, docs in study.resegmentation().items():
            v = next(iter(docs.values()))
            note += (f"{name} had {v['segments']} lines for the reference's {len(ref)}: re-segmented into them"
                     + (f", reference sentence(s) {', '.join(map(str, v['omitted']))} left out" if v["omitted"]
                        else "") + ". ")
    fitted = text_config(cfg, ref, cands)
    if fitted.lang != cfg.lang:
        note = (f"The reference is written in '{fitted.lang}', so the texts are scored with that language pack (the "
                f"sidebar's target language, '{cfg.lang}', is for the loaded data). ")
    if fitted.granularity != cfg.granularity:
        note += ("The candidates do not have one line per reference line, so sentences are matched within the "
                 "whole document (document-level matching), and BLEU is computed over the whole text.")
    cfg = fitted
    if annotation is not None and len(annotation) != len(ref):
        annotation = None
        note += " The BlonD+ annotation does not have one line per reference sentence; BlonD+ is off."
    study = study_of(ref, cands, annotation)
    bleu = study.standard(cfg.granularity, "BLEU")
    return study.analysis(cfg), note.strip(), {k: bleu.score("BLEU", k) for k in cands}


def text_script(box: dict, cfg) -> str:
    """Shell lines that write typed text (box: reference, A, B, annotation) to files and score them with the
    settings it is scored with (text_config)."""
    def heredoc(fname: str, text: str) -> str:
        body = "\n".join(lines_of(text))
        tag = "EOF"
        while tag in body.split("\n"):
            tag += "_"
        return f"cat > {fname} <<'{tag}'\n{body}\n{tag}"

    parts = [heredoc("reference.txt", box["reference"])]
    systems = []
    for k in ("A", "B"):
        if lines_of(box.get(k) or ""):
            parts.append(heredoc(f"{k}.txt", box[k]))
            systems.append(f"{k}.txt")
    args = ["python", "-m", "blonde_core", "score", "-r", "reference.txt", "-s", *systems]
    if box.get("annotation"):
        parts.append(heredoc("annotation.txt", box["annotation"]))
        args += ["-p", "-an", "annotation.txt"]
    cands = {k: lines_of(box.get(k) or "") for k in ("A", "B")}
    fitted = text_config(cfg, lines_of(box["reference"]), {k: v for k, v in cands.items() if v})
    args += [*fitted.cli_args(), "--metrics", "BLEU", "--format", "json"]
    return "\n".join(parts) + "\n" + " ".join(shlex.quote(x) for x in args)
