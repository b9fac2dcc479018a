"""Re-segmentation (issue 47): a system's document cut into exactly the reference document's segments, so
that a system that joined, split, dropped or added sentences can be compared sentence by sentence.

The method is mwerSegmenter's (Matusov et al. 2005, "Evaluating machine translation output with automatic
sentence segmentation", IWSLT): the system's words, as one stream, are aligned to the reference segments'
words by minimum edit distance, and cut where the alignment crosses a reference boundary.  It is run by
`mweralign` (Matt Post's maintained Python package of that algorithm, GPL-3.0-or-later), never
re-implemented here.  Tokens: words split on white space; for Chinese and Japanese (no spaces between
words) mweralign's own character segmenter (`cj`: each Han or Kana character a token, Latin words whole).
mweralign's better SentencePiece tokenizers download their models on first use, which this tool never
does.

mweralign writes progress to the process's standard error from C++, so it runs in a child process
(`python -m blonde_core.io.resegment`, JSON in and out, its standard error discarded): no global stream
redirection in a threaded server, and one process per corpus, not per document.

What a system left out or added is read off the result, per reference segment (`gaps`):
  omitted   the reference segment received nothing, or less than a fifth of its own token count (a
            reference segment of at least 5 tokens);
  added     the system text aligned to it is more than twice as long as the reference segment plus 10
            tokens: material with nothing in the reference to match.
"""
from __future__ import annotations

import json
import subprocess
import sys

RESEGMENT_VERSION = 1  # part of the signature (seg:mwer-1) and of every record of re-segmented text
CJK = ("zh", "ja")
OMITTED_SHARE = 0.2
OMITTED_MIN_TOKENS = 5
ADDED_FACTOR, ADDED_SLACK = 2.0, 10


def _tokens(text: str, lang: str | None) -> int:
    """Words split on white space; for Chinese and Japanese, the characters that are not white space (str.split
    and str.isspace agree on what white space is)."""
    if lang in CJK:
        return len("".join(text.split()))
    return len(text.split())


def token_counts(segments: list[str], lang: str | None) -> list[int]:
    """Each segment's tokens as gaps() counts them: a reference document's, counted once for every system."""
    return [_tokens(s, lang) for s in segments]


def resegment(jobs: list[tuple[list[str], list[str]]], lang: str | None, processes: int | None = None,
              store=None) -> list[list[str]]:
    """For each (reference segments, system segments) of one document: the system's text cut into as many
    segments as the reference has, in order.  store (an AnnotationCache table of lists of strings, or None):
    each document's cut is kept there, keyed by everything it depends on (this module's version, mweralign's,
    the language, the reference's and the system's segments), and only the documents not found are aligned."""
    if not jobs:
        return []
    if store is None:
        return _resegment(jobs, lang, processes)
    keys = cache_keys(jobs, lang)
    found = store.get_many(keys)
    todo = [i for i, k in enumerate(keys) if k not in found or len(found[k]) != len(jobs[i][0])]
    if todo:
        cut = _resegment([jobs[i] for i in todo], lang, processes)
        store.put_many((keys[i], c) for i, c in zip(todo, cut))
        for i, c in zip(todo, cut):
            found[keys[i]] = c
    return [list(found[k]) for k in keys]


def cache_keys(jobs: list[tuple[list[str], list[str]]], lang: str | None) -> list[bytes]:
    """The disk-cache key of each document's cut: everything it depends on."""
    from blonde_core.annotation.pipeline import dist_version
    from blonde_core.annotation.store import cache_key
    from blonde_core.digest import texts_digest

    what = f"reseg-{RESEGMENT_VERSION}/mweralign-{dist_version('mweralign')}/{lang or ''}"
    # the two documents' digest (digest.py: unambiguous, no JSON made of them)
    return [cache_key(what, False, texts_digest([list(r), list(h)]).hex()) for r, h in jobs]


def corpus_cache_keys(corpus, lang: str | None) -> list[bytes]:
    """The keys of every re-segmented document of a corpus (what "Clear loaded data" deletes)."""
    if not corpus.resegmented:
        return []
    ref0 = next(iter(corpus.references.values()))
    return cache_keys([(ref0[di], v["original"]) for docs in corpus.resegmented.values() for di, v in docs.items()],
                      lang)


def _resegment(jobs, lang, processes=None) -> list[list[str]]:
    """mweralign in child processes (one per core, at most 2 by default and one per 40 documents: the aligner
    is C++ and each child costs ~0.1 s to start), the documents shared out in turn."""
    import os

    n = max(1, min(processes or min(2, os.cpu_count() or 1), (len(jobs) + 39) // 40))
    shares = [list(range(k, len(jobs), n)) for k in range(n)]
    procs = []
    for share in shares:
        payload = json.dumps({"lang": lang, "jobs": [[list(jobs[i][0]), list(jobs[i][1])] for i in share]},
                             ensure_ascii=True).encode()
        p = subprocess.Popen([sys.executable, "-m", "blonde_core.io.resegment"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        procs.append((p, payload))
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(procs)) as ex:  # every child fed at once (communicate waits for its child's end)
        answers = list(ex.map(lambda pp: pp[0].communicate(pp[1])[0], procs))
    out: list = [None] * len(jobs)
    failed = None
    for (p, _), share, got in zip(procs, shares, answers):
        if p.returncode != 0:
            failed = p.returncode
            continue
        for i, cut in zip(share, json.loads(got.decode())):
            out[i] = cut
    if failed is not None:
        raise RuntimeError(f"re-segmentation failed (exit {failed}); is mweralign installed?")
    for (ref, _), got in zip(jobs, out):
        if got is None or len(got) != len(ref):  # never a silent shift: the caller names the document
            raise RuntimeError(f"re-segmentation gave {0 if got is None else len(got)} segments for {len(ref)}")
    return out


def gaps(ref: list[str], cut: list[str], lang: str | None, ref_tokens: list[int] | None = None) -> dict:
    """{"omitted": [segment indices], "added": [segment indices]} of one re-segmented document.  ref_tokens:
    the reference segments' token_counts when the caller has them (one reference serves every system)."""
    omitted, added = [], []
    if ref_tokens is None:
        ref_tokens = token_counts(ref, lang)
    for i, (nr, h) in enumerate(zip(ref_tokens, cut)):
        nh = _tokens(h, lang)
        if nr >= OMITTED_MIN_TOKENS and nh < OMITTED_SHARE * nr or (nr and not nh):
            omitted.append(i)
        elif nh > ADDED_FACTOR * nr + ADDED_SLACK:
            added.append(i)
    return {"omitted": omitted, "added": added}


def _align_one(ref: list[str], hyp: list[str], lang: str | None) -> list[str]:
    from mweralign.mweralign import align_texts

    # an empty reference segment would be lost by the aligner's reader: a placeholder token holds its place
    hold = "\u2063"
    ref = [r.strip() or hold for r in ref]
    if lang in CJK:
        from mweralign.segmenter import CJSegmenter

        seg = CJSegmenter()
        r = "\n".join(" ".join(seg.encode(s)) for s in ref)
        h = " ".join(" ".join(seg.encode(s.strip())) for s in hyp if s.strip())
        if not h:
            return [""] * len(ref)
        out = align_texts(r, h, is_tokenized=True).split("\n")
        out = [seg.decode(x) for x in out]
    else:
        h = " ".join(s.strip() for s in hyp if s.strip())
        if not h:
            return [""] * len(ref)
        out = [x.strip() for x in align_texts("\n".join(ref), h).split("\n")]
    if len(out) > len(ref) and not any(x.strip() for x in out[len(ref):]):
        out = out[:len(ref)]  # a trailing newline of the aligner's output
    return [x.replace(hold, "").strip() for x in out]


def main() -> int:
    data = json.loads(sys.stdin.read())
    lang = data.get("lang")
    out = [_align_one(ref, hyp, lang) for ref, hyp in data["jobs"]]
    sys.stdout.write(json.dumps(out, ensure_ascii=True))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
