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

from blonde_core.lang.scripts import script  # a script without spaces is aligned by characters

RESEGMENT_VERSION = 2  # in the signature (seg:mwer-2) and every record of re-segmented text; 2: cuts on sentence ends
OMITTED_SHARE = 0.2
OMITTED_MIN_TOKENS = 5
ADDED_FACTOR, ADDED_SLACK = 2.0, 10


def _tokens(text: str, lang: str | None) -> int:
    """Words split on white space; in a script without spaces (Chinese, Japanese: lang/scripts.py), the characters
    that are not white space (str.split and str.isspace agree on what white space is)."""
    if script(lang).unspaced:
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

    what = f"reseg-{RESEGMENT_VERSION}/snap-{SNAP_TOKENS}-fill/mweralign-{dist_version('mweralign')}/{lang or ''}"
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
    import importlib.util

    if importlib.util.find_spec("mweralign") is None:  # said only when it really is not there
        raise RuntimeError("mweralign is not installed (pip install mweralign): re-segmentation runs its aligner")
    procs = []
    for share in shares:
        payload = json.dumps({"lang": lang, "jobs": [[list(jobs[i][0]), list(jobs[i][1])] for i in share]},
                             ensure_ascii=True).encode()
        # its standard error (mweralign's progress from C++, a Python error's last line) kept to say what happened
        p = subprocess.Popen([sys.executable, "-m", "blonde_core.io.resegment"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        procs.append((p, payload))
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(procs)) as ex:  # every child fed at once (communicate waits for its child's end)
        answers = list(ex.map(lambda pp: pp[0].communicate(pp[1]), procs))
    out: list = [None] * len(jobs)
    failed = None
    for (p, _), share, (got, err) in zip(procs, shares, answers):
        if p.returncode != 0:
            failed = failed or child_failure(p.returncode, err, len(share))
            continue
        for i, cut in zip(share, json.loads(got.decode())):
            out[i] = cut
    if failed is not None:
        raise RuntimeError(failed)
    for (ref, _), got in zip(jobs, out):
        if got is None or len(got) != len(ref):  # never a silent shift: the caller names the document
            raise RuntimeError(f"re-segmentation gave {0 if got is None else len(got)} segments for {len(ref)}")
    return out


def child_failure(code: int, err: bytes, n_docs: int) -> str:
    """What happened to an aligner's child process that did not answer: killed by a signal (out of memory: the
    system's OOM killer sends SIGKILL), or a Python error (its last line), never a guess that mweralign is
    missing (that is checked apart, before any child starts)."""
    import signal

    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        why = " (out of memory?)" if -code == signal.SIGKILL else ""
        return f"the aligner's process was killed by {name}{why} while re-segmenting {n_docs} document(s)"
    lines = [x for x in err.decode("utf-8", "replace").splitlines() if x.strip()]
    said = next((x.strip() for x in reversed(lines) if "Error" in x or "error" in x), lines[-1].strip() if lines else "")
    return f"the aligner's process stopped (exit {code}) while re-segmenting {n_docs} document(s)" + \
        (f": {said[:300]}" if said else "")


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


# a token that ends a sentence: final punctuation, then any closing quotes or brackets
_FINAL = ".!?。！？…"
_CLOSING = "\"'»”’)]）」』】"
SNAP_TOKENS = 4  # a cut moves to the system's own sentence end at most this many tokens away (docs/data.md)


def _ends_sentence(token: str) -> bool:
    t = token.rstrip(_CLOSING)
    return bool(t) and t[-1] in _FINAL


def snap(counts: list[int], tokens: list[str], line_ends: set, window: int = SNAP_TOKENS) -> list[int]:
    """The aligner's cut (counts: tokens per reference segment, over the system's token stream `tokens`) with
    each cut moved onto the nearest of the system's own sentence ends - the end of one of its lines
    (`line_ends`: token positions) or a token that ends a sentence - when one lies within `window` tokens and
    no segment is emptied by it. An output that only joined sentences is then cut where its sentences end,
    not a word or two before or after, which moved a word into the next segment (a false omission on WMT22)."""
    ends = sorted(line_ends | {i + 1 for i, t in enumerate(tokens) if _ends_sentence(t)})
    if not ends or window <= 0:
        return list(counts)
    import bisect

    cuts, pos = [], 0
    for c in counts[:-1]:
        pos += c
        cuts.append(pos)
    total = pos + counts[-1] if counts else 0
    out, prev = [], 0
    for k, c in enumerate(cuts):
        if c in line_ends or (0 < c <= len(tokens) and _ends_sentence(tokens[c - 1])):
            best = c
        else:
            j = bisect.bisect_left(ends, c)
            near = [e for e in ends[max(0, j - 1):j + 1] if abs(e - c) <= window]
            best = min(near, key=lambda e: (abs(e - c), e)) if near else c
            nxt = cuts[k + 1] if k + 1 < len(cuts) else total
            # a segment the aligner left empty stays empty (an omission is not hidden), and none is emptied
            if c <= prev or c >= nxt or not prev < best < nxt:
                best = c
        out.append(best)
        prev = best
    bounds = [0, *out, total]
    # a segment the aligner left empty while a sentence of the system ends within the window before it (or after
    # it) takes the words from that end to its cut: "... shall prevail! (2) SF Express" gives "(2) SF Express" to
    # the reference's "2) SF-express", as the system's own sentence, instead of a false omission
    for k in range(len(bounds) - 1):
        if bounds[k] != bounds[k + 1]:
            continue
        c = bounds[k]
        left = [e for e in ends if c - window <= e < c and k > 0 and e > bounds[k - 1]]
        right = [e for e in ends if c < e <= c + window and k + 2 < len(bounds) and e < bounds[k + 2]]
        if left:
            bounds[k] = max(left)
        elif right:
            bounds[k + 1] = min(right)
    return [b - a for a, b in zip(bounds, bounds[1:])]


# One document's alignment costs time and memory in proportion to reference tokens x system tokens (mweralign's
# dynamic programme: 2,000 WMT22 segments, ~2.2e9 cells, took 34 s and 991 MB): a long document is aligned in
# windows so that its cost grows linearly (docs/data.md, bench/bench_resegment_long.py).
WHOLE_CELLS = 100_000_000  # reference tokens x system tokens aligned at once (~1.5 s, ~65 MB); past it, windows
WINDOW_TOKENS = 2_000  # reference tokens per window; the segments of its first two thirds are kept, then the next
SPAN_FACTOR, SPAN_SLACK = 1.25, 100  # a window's system tokens: its share of the system's by length, and a margin
MAX_CELLS = 400_000_000  # no alignment is larger (~6 s, ~200 MB): a document that would need one is refused


def _window_cells(ref_counts: list[int], n_hyp: int) -> int:
    """The largest alignment (reference tokens x system tokens) one document needs: the whole document when it
    is small enough, else its largest window (the last takes up to twice a window's system tokens)."""
    n_ref = sum(ref_counts)
    if n_ref * n_hyp <= WHOLE_CELLS:
        return n_ref * n_hyp
    w = min(n_ref, max(WINDOW_TOKENS, 2 * max(ref_counts, default=0)))
    return w * min(n_hyp, 2 * (int(w * n_hyp / max(n_ref, 1) * SPAN_FACTOR) + SPAN_SLACK))


def too_long(ref: list[str], hyp: list[str], lang: str | None) -> str | None:
    """Why one document cannot be re-segmented within the bound (MAX_CELLS) - a system text many times longer
    than its reference, so that even one window would be too large - or None (it can)."""
    ref_counts = token_counts(ref, lang)
    n_hyp = sum(token_counts(hyp, lang))
    cells = _window_cells(ref_counts, n_hyp)
    if cells <= MAX_CELLS:
        return None
    return (f"too long to re-segment: {n_hyp:,} system tokens against {sum(ref_counts):,} reference tokens in "
            f"{len(ref):,} segments would need an alignment of {cells:,} cells (at most {MAX_CELLS:,})")


def _align_counts(ref_lines: list[str], tokens: list[str], tokenized: bool) -> list[int]:
    """mweralign's cut of `tokens` (the system's stream) into len(ref_lines) segments, as token counts (they
    always add up to len(tokens): the text is rebuilt from the system's own tokens)."""
    from mweralign.mweralign import align_texts

    if not tokens:
        return [0] * len(ref_lines)
    out = align_texts("\n".join(ref_lines), " ".join(tokens), is_tokenized=tokenized).split("\n")
    counts = [len(x.split()) for x in out[:len(ref_lines)]]
    counts += [0] * (len(ref_lines) - len(counts))
    counts[-1] += len(tokens) - sum(counts)  # what the aligner's lines did not hold (a trailing line) goes last
    while counts[-1] < 0:  # never: more tokens out than in; taken back from the end
        k = max(i for i, c in enumerate(counts) if c > 0)
        counts[k] -= 1
        counts[-1] += 1
    return counts


def _windowed_counts(ref_lines: list[str], ref_counts: list[int], tokens: list[str], tokenized: bool) -> list[int]:
    """The cut of a long document, window by window: reference segments of about WINDOW_TOKENS tokens against
    the system tokens from where the kept cut ended (their share by length, with a margin); the segments of a
    window's first two thirds kept, the rest aligned again with the next window, so that no cut is made near a
    window's end, where the system text it was given may end early or late.  The last window takes what is left
    (up to twice a window's share; anything after that joins the last segment)."""
    n, n_hyp = len(ref_lines), len(tokens)
    ratio = n_hyp / max(sum(ref_counts), 1)
    out, i, pos = [], 0, 0
    while i < n:
        j, r = i + 1, ref_counts[i]
        while j < n and (r + ref_counts[j] <= WINDOW_TOKENS or j - i < 2):  # two segments at least: one not kept
            r += ref_counts[j]
            j += 1
        span = int(r * ratio * SPAN_FACTOR) + SPAN_SLACK
        if j == n:  # the last window
            take = tokens[pos:pos + 2 * span]
            counts = _align_counts(ref_lines[i:], take, tokenized)
            counts[-1] += n_hyp - pos - len(take)
            return out + counts
        counts = _align_counts(ref_lines[i:j], tokens[pos:pos + span], tokenized)
        keep, acc = 0, 0
        while keep < j - i - 1 and acc < 2 * r / 3:
            acc += ref_counts[i + keep]
            keep += 1
        keep = max(1, keep)
        out += counts[:keep]
        pos += sum(counts[:keep])
        i += keep
    return out


def _word(t: str) -> str:
    return "".join(ch for ch in t.lower() if ch.isalnum())


def fill_by_words(counts: list[int], tokens: list[str], ref_tokens: list[list[str]],
                  window: int = SNAP_TOKENS) -> list[int]:
    """A segment the aligner left empty takes the last words of the segment before it (or the first of the one
    after) when they are the reference segment's own words, case and punctuation aside - "Wrong address Hello"
    joined without a full stop gives "Hello" to the reference's "Hello,": the aligner's tie between two places
    of equal cost is broken by the words themselves. At most `window` words; the neighbour keeps at least one."""
    bounds = [0]
    for c in counts:
        bounds.append(bounds[-1] + c)
    for k, want in enumerate(ref_tokens):
        m = len(want)
        if bounds[k] != bounds[k + 1] or not 0 < m <= window:
            continue
        key = [_word(t) for t in want]
        if not all(key):
            continue
        if k > 0 and bounds[k] - bounds[k - 1] > m and [_word(t) for t in tokens[bounds[k] - m:bounds[k]]] == key:
            bounds[k] -= m
        elif k + 2 < len(bounds) and bounds[k + 2] - bounds[k + 1] > m and \
                [_word(t) for t in tokens[bounds[k + 1]:bounds[k + 1] + m]] == key:
            bounds[k + 1] += m
    return [b - a for a, b in zip(bounds, bounds[1:])]


def _align_one(ref: list[str], hyp: list[str], lang: str | None) -> list[str]:
    from mweralign.mweralign import align_texts

    # an empty reference segment would be lost by the aligner's reader: a placeholder token holds its place
    hold = "\u2063"
    ref = [r.strip() or hold for r in ref]
    lines = [s.strip() for s in hyp if s.strip()]
    unspaced = script(lang).unspaced
    if unspaced:
        from mweralign.segmenter import CJSegmenter

        seg = CJSegmenter()
        ref_lines = [" ".join(seg.encode(s)) for s in ref]
        enc = [" ".join(seg.encode(s)) for s in lines]
        decode = seg.decode
    else:
        ref_lines, enc = ref, lines
        decode = str.strip
    r = "\n".join(ref_lines)
    h = " ".join(enc)
    if not h:
        return [""] * len(ref)
    tokens = h.split()
    ref_counts = [len(x.split()) for x in ref_lines]
    if sum(ref_counts) * len(tokens) > WHOLE_CELLS:  # a long document: in windows, its cost linear in its length
        counts = _windowed_counts(ref_lines, ref_counts, tokens, unspaced)
        out = [" ".join(tokens[a:a + c]) for a, c in zip(_starts(counts), counts)]
    else:
        out = align_texts(r, h, is_tokenized=unspaced).split("\n")
    if len(out) > len(ref) and not any(x.strip() for x in out[len(ref):]):
        out = out[:len(ref)]  # a trailing newline of the aligner's output
    counts = [len(x.split()) for x in out]
    if len(out) == len(ref) and [t for x in out for t in x.split()] == tokens:  # the cut moved onto the system's own sentence ends
        line_ends, pos = set(), 0
        for x in enc:
            pos += len(x.split())
            line_ends.add(pos)
        counts = fill_by_words(snap(counts, tokens, line_ends), tokens, [x.split() for x in ref_lines])
        pos, out = 0, []
        for c in counts:
            out.append(" ".join(tokens[pos:pos + c]))
            pos += c
    return [decode(x).replace(hold, "").strip() for x in out]


def _starts(counts: list[int]) -> list[int]:
    """Where each segment of a cut starts in the token stream."""
    out, pos = [], 0
    for c in counts:
        out.append(pos)
        pos += c
    return out


def main() -> int:
    data = json.loads(sys.stdin.read())
    lang = data.get("lang")
    out = [_align_one(ref, hyp, lang) for ref, hyp in data["jobs"]]
    sys.stdout.write(json.dumps(out, ensure_ascii=True))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
