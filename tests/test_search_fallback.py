"""Search that always answers, in headless Chromium, on a small fixture
(tests/roots/search-fallback): partial results when no note has every word,
typos, identifiers typed joined or apart, the Chinese and English names
the notes pair, and English words the notes do not write found through the
Chinese a dictionary (CC-CEDICT) gives them (search/pairs.py); and the split
index's typo buckets, pairs and dictionary words, and the rules of the pairs
and the dictionary, in Python."""

from __future__ import annotations

import json
import math
import pickle

import pytest

from prnotes.sphinxext.search import glossary, pairs, publish, split
from prnotes.sphinxext.search.pairs import NoteText
from prnotes.sphinxext.search.tokens import tokens
from prnotes.sphinxext.search.publish import ENTRY, SEARCH_DIR
from tests.support.sandbox import ROOTS, convert, copy_project, fixture_site, sphinx_build
from tests.support.searchbrowser import search_page

FIXTURE = ROOTS / "search-fallback"
GIZMO, GRAPH, FLASH, RING, GLOSSED, BACKPRESSURE = (f"notes/o/fb/pr-{n}" for n in (101, 102, 103, 104, 105, 106))
EVENT_TIME_ONLY_IN_CHINESE = "notes/o/fb/pr-107"  # 事件时间 in its advice, no "event" anywhere
OUTPUT_CHANNEL_IDENTIFIER = "notes/o/fb/pr-115"  # output_channel, an identifier
DEFAULTS = "notes/o/fb/pr-114"  # 更改 修改 变更 改变 改动: five words CC-CEDICT glosses "to alter"
WATERMARK_ONLY_BY_NAME = "notes/o/fb/pr-110"  # 水位线 in its title, no "watermark" anywhere
WARMUP_ONLY_BY_NAME = "notes/o/fb/pr-113"  # 热身 in its title, no "warmup" anywhere
NOTE = "notes/o/fb/pr-104.html"
PARTIAL = "没有笔记包含全部词语；以下结果只匹配了部分词语"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    proj = copy_project(tmp_path_factory.mktemp("fallback") / "proj", FIXTURE / "seeds")
    assert convert(proj) == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    return proj


@pytest.fixture(scope="module")
def page(site):
    with search_page(site / "_build/html") as tab:
        tab.search("gizmo")  # loads the search script
        yield tab


def _partial_line(page) -> str:
    line = page.page.locator("#search-results .prnotes-partial")
    return line.inner_text() if line.is_visible() else ""


def _split(page, query: str) -> list[str]:
    return page.evaluate("q => PrnotesSearch.split(q)", query)


# --- partial results -----------------------------------------------------------


def test_a_word_no_note_has_still_lists_the_notes_with_the_others_and_says_so(page):
    result = page.search("gizmo zzzqqq")
    assert result.docnames == (GIZMO,)
    line = _partial_line(page)
    assert PARTIAL in line and "“zzzqqq”" in line
    # The dialog says it too.
    dialog = page.dialog_search("gizmo zzzqqq", NOTE)
    assert dialog.docnames == (GIZMO,)
    partial = page.page.locator("#pst-search-dialog .prnotes-dialog-partial")
    assert partial.is_visible() and PARTIAL in partial.inner_text() and "“zzzqqq”" in partial.inner_text()


def test_words_of_different_notes_list_each_rarest_first_and_say_no_note_has_all(page):
    # gizmo is in one note, 水位线 in four: the note with the rarer word first.
    result = page.search("gizmo 水位线")
    assert result.docnames[0] == GIZMO
    assert {"notes/o/fb/pr-107", WATERMARK_ONLY_BY_NAME} <= set(result.docnames)
    line = _partial_line(page)
    assert PARTIAL in line and "未找到" not in line


def test_the_bigrams_of_one_word_of_the_query_count_about_once(page):
    """长上下 警告: page "run" has 长上 and 上下, which overlap in the query (one
    word of it), page "apart" has 长上 and 警告, two words; every bigram is on
    two of a hundred pages. The run counts its best bigram and a quarter of
    the other, so the page with two words of the query comes first."""
    rows = page.evaluate(
        """() => {
          const data = {"长上": [[], ["run", "apart"]], "上下": [[], ["run", "x"]], "警告": [[], ["apart", "y"]]};
          const saved = PrnotesSearch.view;
          PrnotesSearch.use({pages: 100, misses: 0, term: (t) => data[t] || null, inside: () => []});
          try {
            return Object.fromEntries(PrnotesSearch.scores(["长上", "上下", "警告"], new Set()).rows);
          } finally {
            PrnotesSearch.use(saved);
          }
        }"""
    )
    idf = 1 + math.log(100 / 2)
    share = 2 / 3
    assert rows["apart"] == pytest.approx(2 * 5 * idf * share)
    assert rows["run"] == pytest.approx(1.25 * 5 * idf * share)


def test_a_bigram_between_two_words_of_the_query_is_not_asked_of_a_page(page):
    """容量告警 typed unspaced: 量告, between 容量 and 告警 and rarer than
    both, spans the two words. Page "apart" has both words but not 量告: it
    covers the whole query. Page "joined" writes 容量告警: two words, and 量告
    for having them side by side."""
    rows = page.evaluate(
        """() => {
          const data = {"容量": [[], ["joined", "apart", "a"]], "量告": [[], ["joined"]], "告警": [[], ["joined", "apart", "b"]]};
          const saved = PrnotesSearch.view;
          PrnotesSearch.use({pages: 100, misses: 0, term: (t) => data[t] || null, inside: () => []});
          try {
            return Object.fromEntries(PrnotesSearch.scores(["容量", "量告", "告警"], new Set(), "容量告警").rows);
          } finally {
            PrnotesSearch.use(saved);
          }
        }"""
    )
    word, join = 1 + math.log(100 / 3), 1 + math.log(100)
    assert rows["apart"] == pytest.approx(2 * 5 * word)  # all of the query's rarity
    assert rows["joined"] == pytest.approx(2 * 5 * word + 5 * join)
    assert rows["joined"] > rows["apart"] > rows["a"]


def test_a_query_a_note_answers_whole_has_no_partial_line(page):
    assert page.search("gizmo prefetch").docnames == (GIZMO,)
    assert _partial_line(page) == ""
    page.dialog_search("gizmo prefetch", NOTE)
    assert not page.page.locator("#pst-search-dialog .prnotes-dialog-partial").is_visible()


def test_nothing_found_is_still_said_so(page):
    assert page.search("zzzqqq").docnames == ()
    assert "没有找到" in page.page.locator("#search-results .search-summary").inner_text()
    assert _partial_line(page) == ""


# --- typos -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        # 5 to 8 letters: one edit (a substitution, insertion, deletion or swap).
        ("gizmp", ["gizmp|?gizma|?gizmo"]),
        ("prefecth", ["prefecth|?prefetch"]),
        ("prefetc", ["prefetc"]),  # inside "prefetch": a word being typed, not a typo
        ("gixmp", ["gixmp"]),  # two edits off gizmo: too many for five letters
        ("cahce", ["cahc|?cach"]),  # its inflection folded, as the index's "cache" is: a swap
        ("cahces", ["cahc|?cach"]),
        ("prefecht", ["prefecht"]),  # two edits off prefetch: too many for eight
        # 9 letters or more: two edits.
        ("schadular", ["schadular|?scheduler"]),
        ("schadulra", ["schadulra"]),  # three edits
        # Below 5 letters: none (quux is one edit off).
        ("quix", ["quix"]),
        # A word the index has is taken as typed, though it is one edit off another.
        ("gizma", ["gizma"]),
        # Digits are not typos: qwen2 is another model than qwen3.
        ("qwen2", ["qwen2"]),
    ],
)
def test_typos_are_looked_for_within_the_edits_their_length_allows(page, query, terms):
    assert _split(page, query) == terms


def test_a_typo_finds_the_note_weighing_less_than_the_word_itself(page):
    assert page.search("gizmp").docnames[:1] == (GIZMO,)
    assert page.search("schadular").docnames[:1] == (GIZMO,)
    assert "按相近的拼写查找" in _partial_line(page)
    weights = page.evaluate(
        """async () => {
          const typed = new Set();
          const get = (t) => prnotesComplete(PrnotesSearch.view, () => PrnotesSearch.lookup(t, false, typed), PrnotesSearch.forget);
          return [[...(await get("gizmo")).values()], [...(await get("gizmp|?gizmo")).values()]];
        }"""
    )
    exact, corrected = weights
    assert len(exact) == len(corrected) == 1
    assert corrected[0] == pytest.approx(exact[0] * page.evaluate("() => PRNOTES_ALTERNATIVE_WEIGHTS['?']"))
    assert corrected[0] < exact[0]


def test_the_typo_rule_is_the_same_on_both_sides(page):
    assert page.evaluate("() => [PRNOTES_TYPO_SHORTEST, PRNOTES_TYPO_LONGEST, PRNOTES_GRAM]") == [
        split.TYPO_SHORTEST, split.TYPO_LONGEST, split.GRAM,
    ]


def test_the_edit_distance_counts_a_swap_as_one_edit(page):
    assert page.evaluate(
        """() => [
          prnotesEditDistance("prefecth", "prefetch", 2), prnotesEditDistance("gizmo", "gizmp", 2),
          prnotesEditDistance("gizmo", "gizmoo", 2), prnotesEditDistance("gizmo", "izmo", 2),
          prnotesEditDistance("scheduler", "schadular", 2), prnotesEditDistance("abcdef", "fedcba", 2),
        ]"""
    ) == [1, 1, 1, 1, 2, 3]


# --- identifiers typed joined or apart ----------------------------------------------


@pytest.mark.parametrize(
    ("query", "note", "terms"),
    [
        ("cuda graph", GRAPH, ["cuda+graph|cudagraph"]),  # CUDAGraph
        ("tensor core", GRAPH, ["tensor+cor|tensorcore"]),  # TensorCore
        ("kv cache", GRAPH, ["kv+cach|kv_cache|~kv+缓存"]),  # kv_cache; the glossary's KV 缓存
        ("flashattn", FLASH, ["flashattn"]),  # flash_attn written solid, as the index has it too
        # An identifier typed solid, with an inflection: pipeline_channel.
        ("pipelinechannels", OUTPUT_CHANNEL_IDENTIFIER, ["pipelinechannel"]),
        ("flash attn", FLASH, ["flash+attn|flash_attn"]),
        # Joined where the note writes two words apart.
        ("ringbuffer", RING, ["ringbuffer|ring+buffer"]),
        ("RingBuffer", RING, ["ring", "buffer", "ringbuffer|ring+buffer"]),  # its humps are words too
    ],
)
def test_identifiers_typed_joined_or_apart_find_the_note(page, query, note, terms):
    assert _split(page, query) == terms
    assert page.search(query).docnames[:1] == (note,)


def test_words_typed_apart_that_are_an_identifier_keep_their_chinese(page):
    # output_channel is an identifier of a note; the words are also the dictionary's 输出 and
    # 通道, which another note writes as one word: 输出通道.
    assert _split(page, "output channel") == ["output+channel|output_channel|=输出+出通+通道"]
    assert page.search("output channel").docnames[:2] == (OUTPUT_CHANNEL_IDENTIFIER, BACKPRESSURE)
    # A word the glossary has alone (pipeline: 流水线) gives its wording too; stop words give none.
    assert _split(page, "pipeline channel") == ["pipelin+channel|pipeline_channel|=流水+水线+线通+通道"]
    assert _split(page, "out of memory") == ["memory|outofmemory|=内存"]


# --- Chinese and English names the notes pair -----------------------------------------


def test_pairs_the_notes_make_are_derived_and_too_little_evidence_is_not():
    site = fixture_site(FIXTURE)
    notes = [NoteText(n.repo, n.title, n.upstream_title or "", n.body) for n in site.notes]
    derived = pairs.derive(notes, glossary.load())
    assert pairs.Pair("背压", "backpressure", "gloss") in derived  # 背压（backpressure）
    assert pairs.Pair("水位线", "watermark", "titles") in derived  # three notes' titles
    # 热身 and warmup stand together in two notes' titles only.
    assert not [p for p in derived if "热身" in p.chinese or "warmup" in p.english]


def test_a_name_the_notes_pair_finds_the_notes_that_use_the_other(page):
    assert BACKPRESSURE in page.search("backpressure").docnames
    assert _split(page, "backpressure") == ["backpressur|^背压"]
    assert WATERMARK_ONLY_BY_NAME in page.search("watermark").docnames
    assert WARMUP_ONLY_BY_NAME not in page.search("warmup").docnames
    # And the other way: the Chinese name finds the English one.
    assert _split(page, "背压") == ["背压|^backpressur"]


def _notes(*rows: tuple[str, str, str]) -> list[NoteText]:
    return [NoteText("o/r", title, upstream, advice) for title, upstream, advice in rows]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("本 PR 的量化(quantization)之后", [("量化", "quantization")]),
        ("值得精读。晚交互（late interaction）模型", [("晚交互", "late interaction")]),
        ("用 late interaction（晚交互）打分", [("晚交互", "late interaction")]),
        # An explanation in brackets, not a name; an identifier; words after other English words.
        ("pytestmark（收集期一次性过滤）", []),
        ("见 `kv_cache`（KV 缓存）", []),
        ("树用 retrieve_next_token（第一个孩子）表示", []),  # not "token": the end of an identifier
        ("use the late interaction（晚交互）", []),
    ],
)
def test_a_gloss_pairs_the_name_before_the_bracket_with_the_one_in_it(text, found):
    assert pairs.glosses(text) == found


def test_pairs_from_titles_need_three_notes_half_of_each_side_and_no_better_partner():
    three = [("修正水位线", "Fix the watermark", "水位线。"), ("水位线延迟", "Watermark lateness", "水位线。"), ("对齐水位线", "Align watermarks", "水位线。")]
    assert pairs.derive(_notes(*three)) == [pairs.Pair("水位线", "watermark", "titles")]
    assert pairs.derive(_notes(*three[:2])) == []
    # Half of the notes whose titles have 水位线 must have the word upstream.
    others = [(f"水位线{c}", word, "") for c, word in zip("甲乙丙丁", ("Alpha", "Bravo", "Charlie", "Delta"))]
    assert pairs.derive(_notes(*three, *others)) == []
    # The glossary's terms are the glossary's: "tokenizer" is 分词器 there.
    tokenizer = [(f"分词器修复{i}", f"Tokenizer fix {i}", "") for i in range(3)]
    assert not [p for p in pairs.derive(_notes(*tokenizer), glossary.load()) if p.english == "tokenizer"]
    # A [tag] is not a title's word.
    tagged = [(f"水位线{c}", f"[Watermark] {word}", "") for c, word in zip("甲乙丙", ("Alpha", "Bravo", "Charlie"))]
    assert pairs.derive(_notes(*tagged)) == []


# --- English words the notes do not write, through the dictionary ---------------------------


def _fixture_notes() -> list[NoteText]:
    return [NoteText(n.repo, n.title, n.upstream_title or "", n.body) for n in fixture_site(FIXTURE).notes]


def test_a_word_no_note_writes_finds_the_note_that_writes_its_chinese(page):
    # "journal": no note writes it; CC-CEDICT's 日志 is "journal; log (computing)", and the ring buffer note's 日志收集器.
    assert _split(page, "journal") == ["journal|=日志"]
    assert page.search("journal").docnames == (RING,)
    assert "“journal”按词典译名查找：日志。" in _partial_line(page)
    # Inflected as the index folds words; the reader's word is what the line names.
    assert _split(page, "Journals") == ["journal|=日志"]
    assert page.search("Journals").docnames == (RING,)
    assert "“journals”按词典译名查找：日志。" in _partial_line(page)
    # With a word the notes write: the note with both first.
    assert page.search("journal buffer").docnames[:1] == (RING,)


def test_a_translation_weighs_less_than_a_pair_the_notes_make(page):
    weights = page.evaluate(
        """async () => {
          const typed = new Set();
          const get = (t) => prnotesComplete(PrnotesSearch.view, () => PrnotesSearch.lookup(t, false, typed), PrnotesSearch.forget);
          return [[...(await get("日志"))], [...(await get("journal|=日志"))]];
        }"""
    )
    written, translated = (dict(pages) for pages in weights)
    assert written and translated.keys() == written.keys()
    assert all(translated[p] == pytest.approx(written[p] * 0.4) for p in written)
    assert page.evaluate("() => PRNOTES_ALTERNATIVE_WEIGHTS['='] < PRNOTES_ALTERNATIVE_WEIGHTS['^']")


def test_an_english_word_the_notes_write_is_translated_too():
    # CC-CEDICT gives "event" for 事件, which a note writes; another note writes "event" itself.
    notes = _fixture_notes()
    assert pairs.translations(f"{n.title}\n{n.advice}" for n in notes)["event"] == ["事件"]
    assert any("event" in n.upstream.lower() for n in notes)
    assert pairs.translate(notes, glossary.load())["event"] == ["事件"]


def test_the_words_a_note_s_facts_keep_are_counted_not_cut_again(site):
    # A note read in this build or another volume's carries its cut (facts' words): the hub counts it.
    assert pairs.note_words([NoteText("o/r", "整数点积", "", "", words="事件 点积")]) == {"事件": 1, "点积": 1}
    assert pairs.note_words([NoteText("o/r", "整数点积", "", "")]) == {"整数": 1, "点积": 1}
    # The fixture site's facts have each note's words, as cutting its title and advice gives them.
    env = pickle.loads((site / "_build/doctrees/environment.pickle").read_bytes())
    texts = publish.note_texts(env)
    assert texts and all(t.words == pairs.dictionary_words(f"{t.title}\n{t.advice}") and t.words for t in texts.values())


def test_an_english_word_the_notes_write_finds_them_first_then_the_chinese(page):
    assert _split(page, "event") == ["event|=事件"]
    found = page.search("event").docnames
    assert found[0] == "notes/o/fb/pr-110"
    assert EVENT_TIME_ONLY_IN_CHINESE in found[1:]
    assert EVENT_TIME_ONLY_IN_CHINESE in page.search("事件").docnames


def test_a_verb_of_the_dictionary_also_gives_its_noun():
    # CC-CEDICT: 生成 "to generate", 压缩 "to compress"; 点积 "dot product" is no verb: no "production".
    found = pairs.translations(["生成 压缩 点积"])
    assert found["generation"] == ["生成"] and found["compression"] == ["压缩"]
    assert found["generat"] == ["生成"] and "production" not in found
    assert pairs.nominalizations("quantize") == ["quantization"] and pairs.nominalizations("build") == []


def test_a_word_with_many_translations_keeps_the_best_few(monkeypatch):
    texts = [f"{n.title}\n{n.advice}" for n in _fixture_notes()]
    # Sense 1 of 更改 and 改动 ("to alter") before sense 2 of the others; then the word more notes use.
    assert pairs.translations(texts)["alter"] == ["改动", "更改", "修改"]
    monkeypatch.setattr(pairs, "MAX_TRANSLATIONS", 99)
    assert sorted(pairs.translations(texts)["alter"]) == sorted(["更改", "修改", "变更", "改变", "改动"])


def test_a_word_with_many_translations_is_looked_for_as_the_best_few(page):
    assert _split(page, "alter") == ["alter|=修改|=改动|=更改"]
    assert page.search("alter").docnames == (DEFAULTS,)


@pytest.mark.parametrize("query", ["journal_cover", "JournalCover", "journal2", "journal.cover"])
def test_identifiers_and_words_with_digits_are_never_translated(page, query):
    assert not [t for t in _split(page, query) if "=" in t]


@pytest.mark.parametrize(
    ("run", "words"),
    [
        ("整数点积", ["整数", "点积"]),  # never 数点
        ("后端的", ["后端", "的"]),  # backward gives 后 端的: a lone 后 costs more than a lone 的
        ("修改变更或改变默认配置", ["修改", "变更", "或", "改变", "默认", "配置"]),
    ],
)
def test_the_notes_are_cut_into_the_dictionarys_words(run, words):
    assert pairs.segment(run, pairs.dictionary()) == words


def _entry(simplified: str, pinyin: str, *senses: str) -> pairs.DictionaryEntry:
    return pairs.DictionaryEntry(simplified, pinyin, senses)


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        # The first two senses, notes in brackets out: not "inner core", the second.
        (_entry("内核", "nei4 he2", "core (of a fruit)", "(geology) inner core", "kernel"), ["cor", "inner", "cor"]),
        # A sense of the notes' field (computing, software, math) first, wherever it stands.
        (_entry("内核", "nei4 he2", "core (of a fruit)", "(geology) inner core", "(computing) kernel"), ["kernel", "cor"]),
        (_entry("调用", "diao4 yong4", "to transfer", "to allocate", "(computing) to invoke (a command)"), ["invok", "transfer"]),
        (_entry("回退", "hui2 tui4", "to return (a letter)", "to revert (computing)"), ["revert", "return"]),
        # A classifier is no sense; a gloss of two words gives both.
        (_entry("点积", "dian3 ji1", "CL:個|个[ge4]", "dot product (math.)"), ["dot", "product"]),
        (_entry("形状", "xing2 zhuang4", "form; shape", "CL:個|个[ge4]"), ["form", "shap"]),
        # A negated gloss says what the word is not.
        (_entry("不必", "bu4 bi4", "need not", "does not have to"), []),
        # Function words and "to" say nothing; a description is not a translation.
        (_entry("需要", "xu1 yao4", "to need; to want", "what a buyer wishes to purchase"), ["need", "want"]),
        # A hyphenated word's parts alone do not translate.
        (_entry("快速", "kuai4 su4", "fast; high-speed; rapid"), ["fast", "rapid"]),
        # Surnames, variants, other registers, proper names.
        (_entry("王某", "wang2 mou3", "surname Wang", "variant of 某人", "(dialect) someone"), []),
        (_entry("谷歌", "Gu3 ge1", "Google, Internet company"), []),
    ],
)
def test_the_dictionarys_english_for_a_word_is_its_first_senses_plain_words(entry, words):
    assert [word for word, _rank in pairs.gloss_words(entry)] == words


# --- the split index ----------------------------------------------------------------------


def test_the_split_holds_the_typo_keys_and_the_pairs(site):
    html = site / "_build/html"
    root = html / SEARCH_DIR
    entry = json.loads((root / ENTRY).read_text(encoding="utf-8"))
    folder = root / entry["version"]
    chunks = {}
    words = {}
    for k in range(entry["chunks"]):
        chunk = json.loads((folder / f"t/{k}.json").read_text(encoding="utf-8"))
        words.update(chunk.pop(split.DICTIONARY_KEY, {}))
        chunks.update(chunk)
    terms = set(chunks)
    # Every ASCII term of 4 to 9 letters under each of its one-edit keys, in the bucket the key hashes to.
    listed = set()
    for k in range(entry["typo"]):
        for key, keyed in json.loads((folder / f"e/{k}.json").read_text(encoding="utf-8")).items():
            assert split.bucket_of(key, entry["typo"]) == k
            listed |= {(key, t) for t in keyed}
    wanted = {
        (key, t)
        for t in terms
        if split.is_ascii_term(t) and not t.startswith("#") and 4 <= len(split.squash(t)) <= 9
        for key in split.typo_keys(t)
    }
    assert listed == wanted and ("gizmo", "gizmo") in listed and ("gzmo", "gizmo") in listed
    # The pairs, under the first term of each side.
    links = {term: value[2] for term, value in chunks.items() if len(value) > 2}
    assert links["backpressur"] == [["backpressure", ["背压"]]]  # its inflection folded, as the term is
    assert links["背压"] == [["背压", ["backpressure"]]]
    assert links["水位"] == [["水位线", ["watermark"]]]
    # The dictionary's words, those the notes write too ("event" is in an upstream title).
    assert words["journal"] == ["日志"] and words["alter"] == ["改动", "更改", "修改"]
    assert words["event"] == ["事件"] and "event" in terms


def test_a_chinese_word_of_the_notes_stands_for_the_english_the_dictionary_gives_it():
    # CC-CEDICT: 事件 "event", which a note's upstream title writes; 消费者
    # "consumer", stored under its first two characters; 日志 "journal; log":
    # no note writes either word, so it stands for nothing.
    notes = _fixture_notes()
    terms = {t for n in notes for t in tokens(f"{n.title} {n.upstream} {n.advice}")}
    found = pairs.english_for(notes, terms, glossary.load())
    assert found["事件"] == [["事件", ["event"], "="]]
    assert found["消费"] == [["消费者", ["consumer"], "="]]
    assert "日志" not in found
    assert all(mark == "=" and 1 <= len(words) <= pairs.ENGLISH_FOR for entries in found.values() for _, words, mark in entries)


def test_a_chinese_word_finds_the_note_that_writes_only_its_english(page):
    assert _split(page, "事件") == ["事件|=event"]
    found = page.search("事件").docnames
    # The note that writes 事件 in its advice, and the one whose upstream
    # title writes "event" (0.4 of a title's weight: more than advice text).
    assert set(found[:2]) == {EVENT_TIME_ONLY_IN_CHINESE, "notes/o/fb/pr-110"}
    assert page.search("窗口 事件").docnames[0] == "notes/o/fb/pr-110"
