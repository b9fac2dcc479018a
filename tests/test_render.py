"""The span renderer's own escaping, checked without any browser sanitiser in
between: its HTML parsed as a browser would, every uploaded character must come
back as text, and only the renderer's own tags and attributes may appear."""
from html.parser import HTMLParser

import pytest

from blonde_core.render import legend, render_text

HOSTILE = ['<script>window.__xss = "script"</script> The light arrived.',
           '<img src=x onerror="window.__xss = \'img\'"> She saw it.',
           '"><svg onload="window.__xss = \'svg\'"></svg> He left & came back.',
           "</span><span onmouseover=alert(1)>x</span> it's",
           '<a href="javascript:alert(1)">link</a> &amp; &lt;b&gt;']


class Collect(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [k for k, _ in attrs]

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> Collect:
    c = Collect()
    c.feed(html)
    c.close()
    return c


@pytest.mark.parametrize("text", HOSTILE)
def test_uploaded_text_comes_back_as_text_and_only_our_tags(text):
    # spans over the hostile parts too: start, middle, end, overlapping
    n = len(text)
    spans = [{"start": 0, "end": min(8, n), "category": "entity", "feature": "<b>PERSON</b>", "status": "missed"},
             {"start": 3, "end": n // 2, "category": "tense", "feature": 'VBD" onmouseover="x', "status": "matched"},
             {"start": n // 2, "end": n, "category": "pronoun", "feature": "she"}]
    spans[0].update(ident=2, describe='<i>past</i>" onclick="x')
    marks = [(1, min(6, n), "<script>checkpoint</script>'\""), (n // 3, n, "x")]  # a BlonD+ checkpoint box
    for sp, mk in (([], None), (spans, None), ([], marks), (spans, marks)):
        out = parse(render_text(text, sp, marks=mk))
        assert "".join(out.text) == text  # shown literally, character for character
        assert set(out.tags) <= {"span", "mark"}
        assert set(out.attrs) <= {"class", "style", "title", "data-n"}


def test_legend_has_only_our_markup():
    out = parse(legend())
    assert set(out.tags) <= {"div", "span", "i"} and set(out.attrs) <= {"class", "style"}


def test_figure3_identity_numbers_count_vectors_and_weight0_spans():
    """As the paper's Figure 3: each entity of a document one number, the same in the reference and a
    system; per sentence the count vector by feature beside the category total; a weight-0 span (neuter
    'it', a non-person entity in the package preset) drawn apart - grey dotted, no fill, letter with 0."""
    from blonde_core.io.corpus import Corpus
    from blonde_core.render import counts_line
    from blonde_core.study import ScoreConfig, Study

    ref = ["John Smith flew to Paris with his wife.", "In Paris, she was happy and it rained."]
    sys_ = ["John Smith flew to Paris with his wife.", "In London, he was happy and it rained."]
    res = Study(Corpus(["d"], {"ref": [ref]}, {"A": [sys_]}, boundaries="single"), "t").analysis(ScoreConfig())
    view = res.sentence_view(0, ["A"], "ref")
    ent = {(n, s["text"]): s["ident"] for n, rows in view["rows"].items() for r in rows for s in r["spans"]
           if s["category"] == "entity"}
    assert ent[("ref", "John Smith")] == ent[("A", "John Smith")] == 1
    assert ent[("ref", "Paris")] == ent[("A", "Paris")] != ent[("A", "London")]
    row = view["rows"]["A"][1]
    assert row["features"] == {"pronoun": {"masculine": 1}, "tense": {"VBD": 2}}  # 'it' and London: weight 0
    line = counts_line(row["counts"], ["tense", "pronoun"], row["features"])
    assert "T tense 2 <span class=\"bl-fv\">[VBD 2]</span>" in line and "[masculine 1]" in line
    html = render_text(row["text"], row["spans"])
    it = html[html.index(">it<") - 300:html.index(">it<")]
    assert 'class="bl-seg bl-nc"' in it and "not counted" in it
    assert 'class="bl-g bl-g-pronoun bl-g0"' in html
    first = view["rows"]["A"][0]
    assert 'data-n="1"' in render_text(first["text"], first["spans"])  # John Smith, entity 1
