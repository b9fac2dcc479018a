"""The sidebar: the settings (labels, help and choices from their one declaration, ScoreConfig's fields), which
apply to every page, and the page links, each carrying this session's data token."""
from __future__ import annotations

import numpy as np
import streamlit as st

from blonde_core.study import CATALOG, InputError, ScoreConfig, Study
from studio.navigation import sections, token_query
from studio.session import data
from studio.text import md_escape
from studio.widgets import TAGGING_DOC, tagging_marked


def _weights_input(cat: str, preset: str, lang: str) -> tuple | None:
    default = ScoreConfig(preset=preset, lang=lang).resolved_weights[cat]
    names = ", ".join(str(f) for f in CATALOG.language(lang).feature_names(cat))
    txt = st.text_input(f"{cat} weights", value=", ".join(f"{x:.10g}" for x in default),
                        key=f"w_{cat}_{preset}_{lang}", help=f"{len(default)} comma-separated numbers: {names}")
    try:
        vals = tuple(float(x) for x in txt.split(","))
    except ValueError:
        st.error(f"{cat} weights: numbers separated by commas, please")
        return None
    if len(vals) != len(default):
        st.error(f"{cat} needs {len(default)} weights")
        return None
    return None if np.allclose(vals, default, rtol=1e-6, atol=1e-9) else vals


def _setting(name: str):
    return next(s for f, s in CATALOG.settings if f.name == name)


def sidebar_settings() -> ScoreConfig:
    """The sidebar's settings: labels, help and choices from their one declaration (ScoreConfig's fields)."""
    sb = st.sidebar
    sb.header("Settings")
    words = CATALOG.category_words
    s = _setting("preset")
    preset = sb.selectbox(s.label, list(s.choices), key="preset", help=s.help)
    s = _setting("categories")
    cats = sb.multiselect(s.label, list(s.choices), default=list(s.choices), key="categories",
                          format_func=lambda c: words[c]["label"])
    s = _setting("aggregation")
    agg = sb.radio(s.label, list(s.choices), horizontal=True, key="aggregation", help=s.help)
    s = _setting("granularity")
    gran = sb.radio(s.label, list(s.choices), horizontal=True, key="granularity", help=s.help)
    d = data()
    guess = d.guess_language()["language"] if d is not None else None
    packs = CATALOG.languages
    # the guessed language is offered even without a pack (then the BlonDe family is off, and every page says so)
    langs = packs + ([guess] if guess and guess not in packs else [])
    s = _setting("lang")
    lang = sb.selectbox(s.label, langs, index=langs.index(guess) if guess in langs else langs.index("en"),
                        key=f"lang_{d.key if d is not None else 'none'}",
                        format_func=lambda c: f"{c} - {CATALOG.language_name(c)}" + ("" if c in packs else
                                                                                    " (no pack: BlonDe off)"),
                        help="The language pack the target texts are scored with (tenses, gendered pronouns, "
                             "discourse markers, entity labels, analyser); the default is guessed from the "
                             "reference" + (f": {guess}" if guess else "") + ". A language without a pack gets "
                             "chrF, BLEU and TER (tokenized for it), metrics computed elsewhere and human judgments, "
                             "no BlonDe number.")
    counts = d.domain_counts() if d is not None else {}
    if len(counts) > 1:  # a WMT folder's domains: every page can look at one of them
        doms = [None] + sorted(counts)
        st.session_state["domain"] = sb.selectbox(
            "Domain", doms, key=f"domain_{d.key}",
            format_func=lambda x: f"all ({len(d.doc_ids)} documents)" if x is None else
            f"{x} ({counts[x]} documents)",
            help="Score only the documents of one domain (the WMT folder's documents file gives each document's): "
                 "texts, human judgments (each system's score the mean of its segments in the domain) and "
                 "metrics computed elsewhere. Enters the signature (domain:NAME) and the command line (--domain).")
    else:
        st.session_state["domain"] = None
    uneven = d.misaligned() if d is not None and not d.seg_method else []
    if uneven:  # systems whose sentences do not line up: re-segment them here as well as on the Data page
        st.session_state["resegment"] = sb.toggle(
            f"Re-segment {len(uneven)} system(s) whose sentences do not line up", key=f"reseg_{d.key}",
            help="Each system document with another number of segments than its reference document is cut into "
                 "exactly the reference's segments by mwerSegmenter's alignment (mweralign), so that sentence-level "
                 "matching and every sentence view work; what a system left out is reported (Overview: omitted; "
                 "Documents: marked). Systems: " + ", ".join(uneven) + ". Enters the signature (seg:mwer-2) and "
                 "the command line (--resegment).")
    else:
        st.session_state["resegment"] = False
    s = _setting("lowercase")
    lc_default = Study.pack_lowercase(lang)  # the pack's: yes for en/fr (the package's), no where case is read
    lc = sb.toggle(s.label, value=lc_default, key=f"lowercase_{lang}",
                   help=s.help + (" The default follows the language pack: " + ("on" if lc_default else "off, the "
                                  "analyser reads names and forms from the text as written") + "."))
    s = _setting("tag_as_written")  # only where an analyser tags lowercased text (a pack, lowercasing on)
    tag_written = sb.toggle(s.label, value=False, key=f"tag_as_written_{lang}",
                            help=s.help + ". Enters the signature (tag:written) and the command line "
                                          "(--tag-as-written).") if lc and lang in packs else False
    with sb.expander("More settings"):
        s = _setting("average")
        avg = st.radio(s.label, list(s.choices), horizontal=True, key="average")
        s = _setting("smooth")
        smooth = st.selectbox(s.label, list(s.choices), key="smooth")
        s = _setting("absent")
        skip = st.toggle(s.label, value=False, key="skip_absent",
                         help=s.help + ". Enters the signature (absent:skip) and the command line (--skip-absent).")
        s = _setting("entities")
        whole_doc = st.toggle(s.label, value=False, key="doc_entities",
                              help=s.help + ". Enters the signature (ent:doc) and the command line (--entities "
                                            "document).")
        weights = {}
        for c in CATALOG.categories if lang in packs else ():
            w = _weights_input(c, preset, lang)
            if w is not None:
                weights[c] = w
    try:
        cfg = ScoreConfig(preset=preset, categories=tuple(cats) or CATALOG.categories, weights=weights or None,
                          aggregation=agg, granularity=gran, lowercase=lc, tag_as_written=tag_written,
                          average=avg, smooth=smooth,
                          absent="skip" if skip else "keep", lang=lang,
                          entities="document" if whole_doc else "tagged")
    except InputError as exc:
        sb.error(exc.for_page())
        cfg = ScoreConfig(lang=lang)
    note = d.language_note(cfg) if d is not None else None
    if note:
        sb.warning(md_escape(note[0].upper() + note[1:]) + ".", icon=":material/translate:")
    said = Study.pack_notes(cfg)
    for c in said["caveats"]:
        sb.warning(md_escape(c), icon=":material/report:")
    marked = tagging_marked(cfg)
    if marked:
        sb.warning(f"† {md_escape(cfg.lang)} tagging below the bar: " + "; ".join(
            f"{md_escape(c)} {md_escape(v)}" for c, v in marked.items()) + f" ({TAGGING_DOC})",
            icon=":material/rule:")
    for n in said["notes"]:
        sb.caption(md_escape(n))
    st.session_state["config"] = cfg
    return cfg


def sidebar_nav(box) -> None:
    """The sidebar's page links, section by section (the declaration's), each with this session's data token in
    its query: a page change is then one history entry, with the token already in the address (app.py says
    why)."""
    q = token_query()
    with box:
        for section, items in sections().items():
            st.caption(section)
            for p in items:
                st.page_link(p, query_params=q)
