"""Widgets several pages draw: the signature box and its command line, the system order switch, the human
verdict and the judgments' name mapping, one-line notes (thin evidence, tagging below the bar, score cliffs), and
scrolling the page."""
from __future__ import annotations

import pandas as pd
import streamlit as st
from studio import internals

from blonde_core.study import InputError, ScoreConfig, Study
from studio.session import config, data, scoped, set_data
from studio.text import esc, md_escape


COPY_STYLE = ("font-family:'Source Code Pro',ui-monospace,monospace;font-size:.8rem;line-height:1.5;"
              "white-space:pre-wrap;word-break:break-all;user-select:all;-webkit-user-select:all;cursor:text;"
              "background:rgba(128,128,128,.1);border-radius:.5rem;padding:.6rem .9rem;margin:0 0 .5rem 0")


def copyable(text: str) -> None:
    """A signature or a command, as escaped text in a code block that one click selects
    whole (CSS user-select: all; then Ctrl+C).  Not st.code: its syntax highlighter is the
    heaviest thing a page draws after its numbers (~0.27 s of a browser's CPU for its first
    code block, measured in Chromium), and every evaluation page ends with these blocks."""
    st.html(f'<pre class="bl-copy" title="One click selects it all; then copy (Ctrl+C)" style="{COPY_STYLE}">'
            f'{esc(text)}</pre>')


def signature_box(sig: str, extra: str = "", command: tuple[str, list[str]] = ("score", []),
                  study: Study | None = None) -> None:
    """The signature, and the command line that reproduces the page's numbers from the
    loaded files (command: the subcommand and its own arguments; study: the data the page
    scored, when not the loaded study itself; the Sandbox shows its own text's command:
    sandbox_script)."""
    import shlex

    cfg = config()
    st.caption("Signature of the settings that made these numbers (a click selects it whole):")
    copyable(sig + extra)
    d = study or scoped(data())
    cmd = d.command(cfg, command[0], command[1]) if d is not None else None
    if cmd is None:
        return
    with st.expander("Reproduce on the command line"):
        copyable(" ".join(shlex.quote(x) for x in cmd))
        if d.from_structured_file:
            st.caption("The data came from one structured file: use `--input FILE` instead of -r/-s.")


def keep_choices(*keys: str) -> None:
    """Keep these widgets' values through runs where the widgets are not drawn (a closed lazy tab's): Streamlit
    forgets the value of a widget a run did not draw, unless the run sets it."""
    for k in keys:
        if k in st.session_state:
            st.session_state[k] = st.session_state[k]


def system_order(res, names=None, key: str = "sys_order", container=None) -> list[str]:
    """The systems on a page's axes: in the leaderboard's rank order (BlonDe F1, best first) or A-Z, as the
    user chose with the switch this draws (one preference for every page)."""
    names = list(names if names is not None else res.names)
    pref = st.session_state.get("pref_sys_order", "rank")

    def keep():
        st.session_state["pref_sys_order"] = st.session_state[key]

    if st.session_state.get(key) not in ("rank", "A-Z"):
        st.session_state[key] = pref
    (container or st).segmented_control("Systems in", ["rank", "A-Z"], key=key, on_change=keep,
                                        format_func={"rank": "rank order (BlonDe)", "A-Z": "A-Z"}.get,
                                        help="The order of the systems on this page's axes and tables: the "
                                             "leaderboard's (BlonDe F1, best first) or alphabetical.")
    if st.session_state.get(key) == "A-Z":
        return sorted(names, key=str.lower)
    return ranked(res, names)


def ranked(res, names=None) -> list[str]:
    """The systems in the leaderboard's order: BlonDe F1, best first (a system without a score last)."""
    names = list(names if names is not None else res.names)
    f1 = {n: res.scores(n)["BlonDe"]["F1"] for n in names}
    return sorted(names, key=lambda n: (f1[n] is None, -(f1[n] or 0.0)))


def human_verdict_box(d: Study, cfg: ScoreConfig, n: int = 1000) -> dict | None:
    """Whether the loaded human judgments agree with BlonDe's leader (Study.human_verdict), said before the
    leaderboard - a disagreement as the headline, in a warning box; the words carry the verdict, the box's
    colour only repeats it. Home and the Overview; `score --human` prints the same sentence."""
    if d.human is None:
        return None
    with st.spinner("Weighing the human judgments..."):
        v = d.human_verdict(cfg, n)
    if v is None:
        return None
    icon = {"agree": ":material/thumb_up:", "partly": ":material/balance:", "disagree": ":material/warning:",
            "too few": ":material/info:"}[v["state"]]
    box = {"agree": st.success, "partly": st.info, "disagree": st.warning, "too few": st.info}[v["state"]]
    head, _, rest = v["sentence"].partition(": ")
    box(f"**{md_escape(head)}:** {md_escape(rest)}", icon=icon)
    return v


def human_mapping(human, study: Study | None = None) -> None:
    """The judgments' system names as matched to the loaded texts, with how much of each was rated
    (Data page and Human correlation page show the same table).  With `study` (the Data page) the
    matches can be corrected here: the judgments are bound again with the corrected names."""
    hm = human.mapping
    st.caption("System names of the judgments file, as matched to the loaded texts (segment ids are line numbers "
               "of the test set; scores use only the rated segments):")
    left_out = "- (not matched, left out)"
    total = max((c.get("segments", 0) for c in human.coverage.values()), default=0)  # lines of the test set
    df = pd.DataFrame([{"name in the file": k, "loaded text": v or left_out,
                        "segments rated": human.coverage.get(v, {}).get("segments_rated", 0) if v else 0,
                        "of": total}
                       for k, v in sorted(hm.items())])
    if study is None:
        st.dataframe(df, hide_index=True, placeholder="-")
        st.caption("A wrong match? Correct it in the table on the Data page.")
        return
    loaded = study.references + study.systems
    edited = st.data_editor(df, hide_index=True, placeholder="-", key=f"human_map_{study.key}",
                            disabled=["name in the file", "segments rated", "of"],
                            column_config={"loaded text": st.column_config.SelectboxColumn(
                                options=loaded + [left_out], required=True,
                                help="The loaded text these judgments are about; left out: not used")})
    wanted = {k: (None if v == left_out else v) for k, v in zip(edited["name in the file"], edited["loaded text"])}
    if wanted != dict(hm):
        if st.button("Apply this mapping", type="primary", key="human_map_apply",
                     help="Bind the judgments again with these names; scores and correlations follow."):
            try:
                set_data(study.with_human_mapping(wanted))
            except InputError as exc:
                st.error(md_escape(exc.for_page()))
            else:
                st.rerun()
        st.caption("Changed, not applied yet.")
    else:
        st.caption("A wrong match? Pick the right loaded text in the table, then apply (the command line's "
                   "--map FILE_NAME=NAME does the same).")


def note_line(summary: str, detail: str, icon: str = ":material/warning:") -> None:
    """A warning as one line (an icon and its gist, so colour is not the cue) that opens to the whole text:
    pages stay short and no paragraph repeats from page to page."""
    with st.expander(summary, icon=icon):
        st.markdown(detail)


def thin_evidence(res, cfg, consequence: str) -> None:
    """The core's thin-evidence note (the one every command prints) as one line, opening to what it does to this
    page's numbers (consequence) and what to do about it with the page's controls."""
    thin = res.thin_evidence()
    if thin is None:
        return
    gist = ", ".join(f"**{md_escape(c)}** rests on {n:g} reference span{'s' if n != 1 else ''}"
                     for c, n in thin["categories"].items())
    note_line("Thin evidence: " + gist, "A resample (or a unit of a test) in which such a category matches nothing "
              f"enters the geometric mean as 0, floored at 1e-5, and collapses its score: {consequence}. The "
              "Categories page shows every count; leaving the category out (sidebar Categories), the arithmetic "
              "mean or leaving absent categories out of the mean (More settings) avoids the collapse.",
              icon=":material/info:")


TAG_MARK = " †"  # a category whose tagging in this language is below the bar (lang/GOLD.md): never colour alone


TAGGING_DOC = "docs/languages.md#tagging-accuracy"


def tagging_marked(cfg) -> dict:
    """{category: its measured tagging in words} of the discourse categories marked in this language
    (Study.tagging_report: precision < 0.90, recall < 0.80 or fewer than 30 gold spans, or never measured)."""
    rep = Study.tagging_report(cfg)
    return {c: v["figures"] for c, v in rep.get("categories", {}).items() if v["marked"]}


def tagging_note(cfg, where: str = "") -> None:
    """One line under a table whose category headers carry †: which categories, their measured precision and
    recall, opening to what the bar is and where the table is."""
    marked = tagging_marked(cfg)
    if not marked:
        return
    gist = "; ".join(f"**{md_escape(c)}** {md_escape(v)}" for c, v in marked.items())
    note_line(f"† Tagging below the bar in {md_escape(cfg.lang)}{where}: " + gist,
              "These categories' spans were measured against hand-labelled gold spans of this language "
              "(the pack's gold.jsonl, labelled by reading) and fall below precision 0.90 or recall 0.80, or rest on "
              "fewer than 30 gold spans: their numbers may reflect the tagger's errors as much as the systems'. "
              f"The whole table, per class, with the command that measures it: {TAGGING_DOC}.",
              icon=":material/rule:")


def cliff_notes(res, names) -> list[str]:
    """HTML sentences (escaped) explaining a score cliff where it happens: a category that matched nothing (or
    has spans on one side only) enters the geometric mean as 0, floored at 1e-5, and pulls BlonDe and BlonD-d
    down with it; what leaving absent categories out of the mean would give."""
    skip = res.with_config(res.config.with_(absent="skip")) if res.config.absent == "keep" else None
    out = []
    for n in names:
        msgs = [m for notes in res.collapse_notes(n).values() for m in notes]
        if not msgs:
            continue
        now = res.scores(n)
        alt = skip.scores(n) if skip is not None else None

        def pts(s, k):
            return "-" if s[k]["F1"] is None else f"{100 * s[k]['F1']:.2f}"
        tail = ("; leaving absent categories out would not change them (both sides have spans)"
                if alt is None or all(alt[k]["F1"] == now[k]["F1"] for k in ("BlonDe", "BlonD-d"))
                else f"; with <i>Leave absent categories out of the mean</i> (sidebar, More settings) they would be "
                     f"{pts(alt, 'BlonDe')} and {pts(alt, 'BlonD-d')}")
        out.append(f"<b>{esc(n)}</b>: {esc('; '.join(msgs))}. That is why BlonDe is {pts(now, 'BlonDe')} and "
                   f"BlonD-d {pts(now, 'BlonD-d')}{tail}.")
    return out


def scroll_to(element_id: str) -> None:
    """Scroll the page to the element with this id (a row of an st.html block), once: a script in a component
    frame of height 0 that reaches the page it sits in (same origin) and waits for the row to be drawn."""
    safe = "".join(ch for ch in element_id if ch.isalnum() or ch in "-_")
    _in_page("const el=window.parent.document.getElementById('" + safe + "');"
             "if(el){el.scrollIntoView({block:'center'});return;}", 50)


def _in_page(step: str, tries: int) -> None:
    """Run a script step in the page itself, every 0.1 s until it returns or `tries` runs: a zero-height component
    frame (same origin) whose script reaches the page it sits in, which may not be drawn yet."""
    import streamlit.components.v1 as components

    components.html("<script>(function(){let n=0;const go=()=>{" + step + "if(++n<" + str(tries) +
                    ")setTimeout(go,100);};go();})();</script>", height=0)


def scroll_top() -> None:
    """Scroll the page to its top, once it is drawn (a page opened from a button far down another page keeps
    that page's scroll position otherwise), for 1.5 s while it draws."""
    _in_page(internals.scroll_main_to_top(), 15)
