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
    for sp in ([], spans):
        out = parse(render_text(text, sp))
        assert "".join(out.text) == text  # shown literally, character for character
        assert set(out.tags) <= {"span"}
        assert set(out.attrs) <= {"class", "style", "title"}


def test_legend_has_only_our_markup():
    out = parse(legend())
    assert set(out.tags) <= {"div", "span", "i"} and set(out.attrs) <= {"class", "style"}
