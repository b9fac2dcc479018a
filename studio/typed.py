"""Typed text - the Sandbox and the phenomenon gallery - scored through the server's engine by the core's rules
(blonde_core's typed.py: Study.score_texts, text_script)."""
from __future__ import annotations

import json

import streamlit as st

from blonde_core.study import ScoreConfig, Study
from blonde_core.study import apt_of_links, text_lines, text_script
from studio.session import SAMPLE
from studio.state import server_engine


GALLERY_FILE = SAMPLE / "gallery.json"


@st.cache_data(show_spinner=False)
def gallery() -> list[dict]:
    return json.loads(GALLERY_FILE.read_text(encoding="utf-8"))


def lines_of(text: str) -> list[str]:
    return text_lines(text)


def evaluate_texts(reference: str, candidates: dict, annotation: list | None, cfg: ScoreConfig,
                   resegment: bool = False, line_by_line: bool = False):
    """Score free text through the server's engine by the core's rules (Study.score_texts): (result, note,
    BLEU per candidate)."""
    return Study.score_texts(reference, candidates, annotation, cfg, engine=server_engine(), resegment=resegment,
                             line_by_line=line_by_line)


def text_apt(source: str, reference: str, candidates: dict, pair: str, alignment: dict) -> dict:
    """APT of free text (one document, a sentence per line) with given word alignments
    ({"reference": [Pharaoh links per line], candidate: [...]}): the same every time."""
    return apt_of_links(lines_of(source), lines_of(reference), {k: lines_of(v) for k, v in candidates.items()},
                        pair, alignment)


def text_companions(reference: str, candidates: dict, cfg: ScoreConfig) -> dict:
    """The companion metrics (the registry's) of free text (0-100)."""
    return Study.from_texts(lines_of(reference), {k: lines_of(v) for k, v in candidates.items()}, origin="text",
                            engine=server_engine()).companions(cfg)


def sandbox_script(box: dict, cfg: ScoreConfig) -> str:
    """Shell lines that write the sandbox texts to files and score them (the core's rules: text_script)."""
    return text_script(box, cfg)
