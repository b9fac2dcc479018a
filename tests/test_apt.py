"""APT: each case and the alignment heuristics on hand-built aligned sentences."""
import json

import pytest

from blonde_core.analysis.apt import PAIRS, apt_cases, apt_score, classify, find_translation, parse_links, tokenize
from blonde_core.cli import main

FR = PAIRS["en-fr"]
ZH = PAIRS["zh-en"]


def test_the_papers_heuristic_example():
    # Table 1: "it" is unaligned; the neighbours "that" -> "qu'" and "purifies" -> "purifie" are markers,
    # the range reaches one word further (sain .. l'), and il is the pronoun closest to its centre.
    e = "The system is so healthy that it purifies the water .".split()
    f = "Le système est si sain qu' il purifie l' eau .".split()
    links = parse_links("0-0 1-1 2-2 3-3 4-4 5-5 7-7 8-8 9-9 10-10")
    assert find_translation(6, len(e), links, f, FR) == 6
    assert find_translation(6, len(e), links, f, FR, heuristics=False) is None


def test_a_pronoun_among_several_aligned_words_wins():
    f = "Le chat , il dort .".split()
    assert find_translation(0, 3, {0: [1, 3]}, f, FR) == 3


def test_six_cases():
    assert classify("il", "il", FR) == 1
    assert classify("c'", "ce", FR) == 1  # identical forms
    assert classify("ce", "il", FR) == 2 and classify("cela", "ce", FR) == 2  # equivalent
    assert classify("il", "elle", FR) == 3
    assert classify("il", None, FR) == 4 and classify(None, "il", FR) == 5 and classify(None, None, FR) == 6
    assert classify("him", "he", ZH) == 1 and classify("she", "they", ZH) == 2 and classify("he", "she", ZH) == 3


def test_cases_counted_over_a_small_corpus_and_the_score():
    src = [["it", "rains"], ["they", "sing"], ["it", "works"], ["it", "falls"]]
    ref = [["il", "pleut"], ["elles", "chantent"], ["ça", "marche"], ["il", "tombe"]]
    cand = [["il", "pleut"], ["ils", "chantent"], ["ce", "marche"], ["la", "chute"]]
    links = [{0: [0], 1: [1]}] * 4
    cand_links = [{0: [0], 1: [1]}, {0: [0], 1: [1]}, {0: [0], 1: [1]}, {1: [1]}]
    cases = [c["case"] for c in apt_cases(src, ref, cand, links, cand_links, FR)]
    # 1 identical; 3 different (elles/ils); 2 equivalent (ça/ce); the last one: "it" unaligned in the
    # candidate, the marker "falls" -> "chute" gives the range [0, 1] and "la" is a pronoun in it -> 3
    assert cases == [1, 3, 2, 3]
    counts = {c: cases.count(c) for c in range(1, 7)}
    assert apt_score(counts) == pytest.approx((1 * 1 + 0.5 * 1) / 4)
    assert apt_score(counts, weights=(1, 1, 0, 0, 0, 0)) == pytest.approx(2 / 4)
    assert apt_score({1: 1, 5: 3}, discard=(5, 6)) == 1.0


def test_zh_tokenizer_keeps_pronouns_whole():
    assert tokenize("他们说，她来了。", "zh", ZH.source_pronouns) == ["他们", "说", "，", "她", "来", "了", "。"]
    assert tokenize("Qu'il vienne, c'est ça.", "latin") == ["Qu'", "il", "vienne", ",", "c'", "est", "ça", "."]


def test_apt_command_with_given_alignments(tmp_path, capsys):
    (tmp_path / "src.txt").write_text("it rains\nthey sing\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("il pleut\nelles chantent\n", encoding="utf-8")
    (tmp_path / "sysA.txt").write_text("il pleut\nils chantent\n", encoding="utf-8")
    (tmp_path / "a.ref").write_text("0-0 1-1\n0-0 1-1\n", encoding="utf-8")
    (tmp_path / "a.sys").write_text("0-0 1-1\n0-0 1-1\n", encoding="utf-8")
    assert main(["apt", "--source", str(tmp_path / "src.txt"), "-r", str(tmp_path / "ref.txt"), "-s",
                 str(tmp_path / "sysA.txt"), "--align-ref", str(tmp_path / "a.ref"), "--align-system",
                 str(tmp_path / "a.sys"), "--pair", "en-fr", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["systems"]["sysA"] == {"APT": 0.5, "cases": {"1": 1, "2": 0, "3": 1, "4": 0, "5": 0, "6": 0}}
    (tmp_path / "a.sys").write_text("0-0 1-x\n0-0\n", encoding="utf-8")
    assert main(["apt", "--source", str(tmp_path / "src.txt"), "-r", str(tmp_path / "ref.txt"), "-s",
                 str(tmp_path / "sysA.txt"), "--align-ref", str(tmp_path / "a.ref"), "--align-system",
                 str(tmp_path / "a.sys"), "--pair", "en-fr"]) == 2
    err = capsys.readouterr().err
    assert "a.sys, line 1" in err and "'1-x'" in err


def test_apt_command_aligns_automatically_with_eflomal(ted, capsys, tmp_path, monkeypatch):
    import tempfile

    src = ted / "source.zh.txt"
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the aligner's temporary files land here ...
    assert main(["apt", "--source", str(src), "-r", str(ted / "refs" / "ref.txt"), "-s",
                 str(ted / "refs" / "refB.txt"), "--pair", "zh-en", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert list(tmp_path.iterdir()) == []  # ... and are gone when it returns (the texts are users')
    v = d["systems"]["refB"]
    n = sum(v["cases"].values())
    # every occurrence of the six source pronouns in the TED source is one APT item
    text = src.read_text(encoding="utf-8")
    expected = sum(len(tokenize(line, "zh", ZH.source_pronouns)) - len([t for t in tokenize(line, "zh",
                   ZH.source_pronouns) if t not in ZH.source_pronouns]) for line in text.splitlines())
    assert n == expected > 100
    # the score is the paper's formula over the six cases: (c1 + 0.5 c2) / all
    c = {int(k): x for k, x in v["cases"].items()}
    assert v["APT"] == pytest.approx((c[1] + 0.5 * c[2]) / n)
    # two professional translations agree on most pronouns: case 1 dominates
    assert c[1] > n / 3 and 0 < v["APT"] < 1 and d["alignment"].startswith("eflomal")


def test_apt_from_given_links_is_the_same_every_time():
    """The gallery's APT example with its hand-written links: A replaces 它 with a noun (its translation is not
    found: case 4, weight 0), B keeps 'It' (identical: case 1) - APT 0 and 1, run after run (eflomal, which the
    automatic path uses, has no seed)."""
    import json

    from blonde_core.analysis.apt import apt_of_links
    from conftest import SAMPLE

    ex = next(e for e in json.loads((SAMPLE / "gallery.json").read_text(encoding="utf-8")) if e["id"] == "apt")
    lines = lambda t: t.split("\n")  # noqa: E731
    for _ in range(3):
        got = apt_of_links(lines(ex["source"]), lines(ex["reference"]),
                           {k: lines(v) for k, v in ex["candidates"].items()}, ex["pair"], ex["alignment"])
        assert got == {"A": 0.0, "B": 1.0}
