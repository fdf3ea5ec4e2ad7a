"""Search through the real search page and the Ctrl+K dialog, in headless Debian Chromium."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from prnotes import contract
from prnotes.project import load
from prnotes.sphinxext.search import glossary
from tests.support.browserguard import BrowserProblems
from tests.support.pagechecks import axe_violations
from tests.support.searchbrowser import DIALOG_RESULTS, SEARCH_FINISHED, SUBMIT_TIMED, SearchPage, long_queries, search_page
from tests.support.searcheval import Ranked, by_category, load_cases, recall_at, report
from tests.support.searchwhole import COMPARE, WHOLE_VIEW
from prnotes.sphinxext.search.tokens import fold, normalize, tokens
from tests.test_search_tokens import FOLDS

EVAL = Path(__file__).with_name("search_eval.tsv")
# The categories of the evaluation set, each with its recall@1 in BENCHMARKS.md.
CATEGORIES = (
    "chinese-unspaced", "chinese-mixed", "identifier", "pr-number", "english-term",
    "traditional", "variant", "natural", "hub-vs-note",
)
PRNOTES_NOTE = re.compile(contract.NOTE_DOCNAME_PATTERN)


@pytest.fixture(scope="module")
def page(built_site):
    proj, _ = built_site
    with search_page(proj / "_build/html") as tab:
        yield tab


def test_every_eval_query_finds_its_note_in_the_top_3(page, capsys):
    cases = load_cases(EVAL)
    assert len(cases) >= 80
    assert {c.category for c in cases} >= set(CATEGORIES)
    # The first query opens search.html?q=…; each next one is typed into its field.
    ranked = [Ranked(case, page.search(case.query, again=True).docnames) for case in cases]
    with capsys.disabled():
        print("\n" + report(ranked) + "\n\n" + by_category(ranked))
    misses = [(r.case.query, r.case.expected, r.docnames[:3]) for r in ranked if not (r.rank and r.rank <= 3)]
    assert misses == []
    assert recall_at(ranked, 3) == 1.0


def test_unspaced_chinese_words_find_the_note_as_spaced_ones_do(page):
    note = "notes/vllm-project/vllm/pr-51368"
    assert page.search("权重生命周期").docnames[0] == note
    assert note in page.search("权重 生命周期").docnames[:3]


def test_hub_pages_are_listed_only_when_no_note_matches(page):
    # "前缀缓存" is also in the title of the KV cache subsystem page.
    docnames = page.search("前缀缓存").docnames
    assert docnames[0] == "notes/vllm-project/vllm/pr-51875"
    assert all(PRNOTES_NOTE.fullmatch(d) for d in docnames), docnames
    # Words that only hub pages have: the hub pages, each title once (the
    # landing page and the book's root are both titled "PR 精读笔记").
    hubs = page.search("摘要归档").docnames
    assert hubs and "notes/digests/index" in hubs and not any(PRNOTES_NOTE.fullmatch(d) for d in hubs)
    titled = page.search("PR 精读笔记").docnames
    assert titled.count("index") + titled.count("notes/book") <= 1, titled


def _samples(proj: Path) -> list[str]:
    """Seed text and upstream titles, the glossary, the folding examples, plus
    random mixes of the tricky characters: traditional ones, inflections."""
    site = load(proj)
    texts = [t for n in site.notes for t in (n.title, n.upstream_title or "", n.body)]
    texts += [t for e in glossary.load().entries for t in (e.english, *e.wordings)]
    texts += [" ".join(words) for words in FOLDS]
    alphabet = "前缀缓存浅克隆竞态的前綴緩存投機解碼競態 aZ_9.-#（）ＡＢ１２ 、，。:/\u3400\uf900\u9fff\t\nMambaHybrid"
    rng = random.Random(0)
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(300)]
    syllables = ["cach", "e", "es", "ed", "ing", "s", "ies", "race", "sync", "quantiz", "run", "n", "ss", "us", "_", "-", ".", "Ab", "the", "does", " "]
    texts += ["".join(rng.choice(syllables) for _ in range(rng.randint(1, 12))) for _ in range(300)]
    texts += ["HTTPServer getTopTokens x86_64 v2.3.1 2.65x a-b-c __init__ _x_ --x-- 1.2.3"]
    return texts


def test_javascript_splits_and_stems_as_python_does(page, built_site):
    proj, _ = built_site
    page.search("前缀缓存")  # loads the search script
    texts = _samples(proj)
    js = page.evaluate("texts => texts.map(t => prnotesTokens(t))", texts)
    assert js == [tokens(t) for t in texts]
    # The folding on its own, and the units glossary phrases match by.
    words = sorted({w.lower() for t in texts for w in re.findall(r"[A-Za-z]+", t)})
    assert page.evaluate("words => words.map(prnotesFold)", words) == [fold(w) for w in words]
    assert page.evaluate("texts => texts.map(t => prnotesNormalize(t))", texts) == [normalize(t) for t in texts]
    js_units = page.evaluate("texts => texts.map(t => prnotesUnits(prnotesNormalize(t)).map(u => u.unit))", texts)
    assert js_units == [glossary.phrase_units(t) for t in texts]


def test_results_are_ranked_with_highlighted_snippets(page):
    result = page.search("浅克隆 竞态")
    assert result.docnames[0] == "notes/vllm-project/vllm/pr-52810"
    first = page.page.locator("#search-results ul.search > li").first
    first.locator("p.context span.highlighted").first.wait_for()
    # The snippet skips the title, which the result shows, highlighted too.
    assert "竞态" in first.locator("p.context span.highlighted").all_inner_texts()
    assert "浅克隆" in first.locator("a span.highlighted").all_inner_texts()
    scores = page.page.eval_on_selector_all(
        "#search-results ul.search > li > a", "els => els.map(e => Number(e.dataset.score))"
    )
    assert scores == sorted(scores, reverse=True)


def test_the_split_index_gives_the_whole_index_results(page, built_site):
    """Every query of the evaluation set, and words of every note, ranked
    over the split index as loaded piece by piece and over the whole
    searchindex.js: the same pages in the same order with the same scores."""
    proj, _ = built_site
    page.search("前缀缓存")
    page.evaluate(f"() => {{ {WHOLE_VIEW} }}")
    site = load(proj)
    rng = random.Random(3)
    words = sorted({w for n in site.notes for w in re.findall(r"[A-Za-z_][A-Za-z0-9_.\-]{2,}|[\u4e00-\u9fff]{2,4}", f"{n.title} {n.body}")})
    queries = [c.query for c in load_cases(EVAL)] + rng.sample(words, 60) + [" ".join(rng.sample(words, 2)) for _ in range(20)]
    queries += ["hash", "rac", "#5281", "pybind", "nonehash", "a_b", "x", "的", "mixture of experts"]
    # Typos (one edit, two edits), joined words, and words no page has: the typo
    # buckets and the key buckets give what the whole index's terms give.
    queries += ["schedular", "prefil", "cahce", "resovle_none_hash_sed", "syncallowed", "nonehashseed", "dspakr", "zzzqqq 前缀缓存"]
    compared = page.evaluate(COMPARE, queries)
    differ = [(q, split[:5], whole[:5]) for q, split, whole in compared if split != whole]
    assert differ == []
    assert sum(1 for _, split, _ in compared if split) > len(queries) // 2


def test_a_search_loads_a_small_part_of_the_index(page, built_site):
    """A query fetches the entry, a few chunks and the shards of its rows, not every file."""
    proj, _ = built_site
    folder = next(p for p in (proj / "_build/html/_search").iterdir() if p.is_dir() and p.name != "text")
    chunks = len(list(folder.glob("t/*.json")))
    page.fresh()
    requested = []
    page.page.on("request", lambda r: requested.append(r.url))
    page.search("浅克隆")
    fetched = [u for u in requested if f"/_search/{folder.name}/t/" in u]
    assert 0 < len(fetched) < chunks, (fetched, chunks)
    assert not any(u.endswith("searchindex.js") for u in requested)


def test_a_file_of_the_index_that_fails_to_load_fails_loudly(page):
    tab = SearchPage(page.browser, page.base_url)
    try:
        tab.page.route("**/_search/*/t/*", lambda route: route.fulfill(status=404, body="gone"))
        with pytest.raises(BrowserProblems, match="404"):
            tab.search("前缀缓存")
    finally:
        tab.context.close()
        tab.guard.take()


NOTE = "notes/vllm-project/vllm/pr-52400.html"


def test_the_dialog_lists_results_as_the_reader_types(page):
    result = page.dialog_search("浅克隆 竞态", NOTE)
    # Still on the page the reader searched from: nothing was submitted.
    assert page.page.url.endswith(NOTE)
    assert page.evaluate("() => document.getElementById('pst-search-dialog').open")
    assert result.docnames[0] == "notes/vllm-project/vllm/pr-52810"
    field = page.page.locator("#pst-search-dialog input[name=q]")
    assert field.get_attribute("aria-expanded") == "true"
    assert page.evaluate("() => document.activeElement.name") == "q"


def test_every_eval_query_finds_its_note_in_the_top_3_of_the_dialog(page, capsys):
    cases = load_cases(EVAL)
    # Pasted in: the dialog's answer to each keystroke is checked by the tests above and below.
    ranked = [Ranked(case, page.dialog_search(case.query, NOTE, typed=False).docnames) for case in cases]
    with capsys.disabled():
        print("\ndialog: " + report(ranked).splitlines()[-1])
    misses = [(r.case.query, r.case.expected, r.docnames[:3]) for r in ranked if not (r.rank and r.rank <= 3)]
    assert misses == []


def test_arrow_keys_move_through_the_results_and_enter_opens_one_with_the_terms_marked(page):
    result = page.dialog_search("前缀缓存", NOTE)
    assert result.docnames[0] == "notes/vllm-project/vllm/pr-51875"
    keys = page.page.keyboard
    active = "() => document.activeElement.getAttribute('aria-activedescendant')"
    ids = [f"prnotes-dialog-result-{i}" for i in range(len(result.docnames))] + ["prnotes-dialog-result-all"]
    for expected in ids:
        keys.press("ArrowDown")
        assert page.evaluate(active) == expected
    keys.press("ArrowDown")
    assert page.evaluate(active) == ids[0]  # wraps round to the first entry
    keys.press("ArrowUp")
    assert page.evaluate(active) == ids[-1]  # and back to the last
    keys.press("ArrowDown")
    assert page.evaluate(active) == ids[0]
    assert page.page.locator("#prnotes-dialog-result-0").get_attribute("aria-selected") == "true"
    with page.page.expect_navigation():
        keys.press("Enter")
    assert page.page.url.endswith("notes/vllm-project/vllm/pr-51875.html")
    page.guard.wait_for(page.page, "() => document.querySelector('article span.highlighted') !== null")
    marked = page.page.eval_on_selector_all("article span.highlighted", "els => els.map(e => e.textContent)")
    assert "前缀缓存" in marked
    # Only the article: the navigation around it stays as it is.
    assert page.page.locator(".bd-sidebar-primary span.highlighted").count() == 0


def test_escape_closes_the_dialog(page):
    page.dialog_search("前缀缓存", NOTE)
    page.page.keyboard.press("Escape")
    page.guard.wait_for(page.page, "() => !document.getElementById('pst-search-dialog').open")


def test_enter_with_no_result_marked_opens_the_search_page(page):
    page.dialog_search("前缀缓存", NOTE)
    with page.page.expect_navigation():
        page.page.keyboard.press("Enter")
    assert "search.html?q=" in page.page.url
    page.guard.wait_for(page.page, SEARCH_FINISHED)


def _advice(page, note: str) -> str:
    page.page.goto(page.base_url + note)
    return page.evaluate("() => document.querySelector('section.prnotes-advice > p').textContent.replace(/\\s+/g, ' ')")


def test_snippets_begin_in_the_advice_text_with_the_words_marked(page):
    advice = _advice(page, "notes/vllm-project/vllm/pr-52810.html")
    page.dialog_search("浅克隆 竞态", NOTE)
    first = page.page.locator("#prnotes-dialog-result-0 .prnotes-dialog-snippet")
    first.wait_for()
    snippet = first.inner_text()
    body = snippet.removeprefix("...").removesuffix("...")
    assert body[:40] in advice, (snippet, advice)
    assert "竞态" in first.locator("span.highlighted").all_inner_texts()
    # The search page's snippet too.
    page.search("浅克隆 竞态")
    context = page.page.locator("#search-results ul.search > li p.context").first
    context.wait_for()
    text = context.inner_text()
    assert text.removeprefix("...")[:40] in advice, (text, advice)
    for furniture in ("仓库", "上游标题", "收录于", "上一篇", "当前页面"):
        assert furniture not in snippet and furniture not in text


def test_notes_come_first_and_each_page_is_listed_once(page):
    for query in ("投机解码", "前缀缓存", "ROCm", "CI"):
        # Typed into the field of the search page that shows the previous query's results.
        again = page.search(query, again=True).docnames
        docnames = page.search(query).docnames
        assert again == docnames, query
        assert len(docnames) == len(set(docnames)), (query, docnames)
        assert docnames and all(PRNOTES_NOTE.fullmatch(d) for d in docnames), (query, docnames)
    dialog = page.dialog_search("投机解码", NOTE).docnames
    assert PRNOTES_NOTE.fullmatch(dialog[0])


SPHINX_SEARCH_SCRIPTS = ("searchtools.js", "language_data.js", "searchindex.js", "sphinx_highlight.js")


def test_a_note_page_loads_the_search_only_when_a_search_starts(page):
    page.fresh()
    requested = []
    page.page.on("request", lambda r: requested.append(r.url))
    page.page.goto(page.base_url + NOTE)
    page.page.wait_for_load_state("networkidle")
    assert not [u for u in requested if "/_search/" in u or u.split("?")[0].endswith(SPHINX_SEARCH_SCRIPTS)]
    assert page.evaluate("() => typeof PrnotesSearch === 'undefined'")
    page.open_dialog(NOTE)
    assert any(u.split("?")[0].endswith("/_search/entry.json") for u in requested)
    assert not [u for u in requested if u.split("?")[0].endswith(SPHINX_SEARCH_SCRIPTS)]


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_in_the_open_dialog_with_results(page, scheme, width, screenshots):
    height = 900 if width > 400 else 844
    tab = SearchPage(page.browser, page.base_url, color_scheme=scheme, viewport={"width": width, "height": height}, reduced_motion="reduce")
    try:
        tab.dialog_search("浅克隆 竞态", NOTE)
        tab.page.locator("#prnotes-dialog-result-0 .prnotes-dialog-snippet span.highlighted").first.wait_for()
        tab.page.keyboard.press("ArrowDown")
        assert tab.evaluate("() => document.documentElement.dataset.theme") == scheme
        tab.page.screenshot(path=str(screenshots / f"search-dialog-{width}-{scheme}.png"))
        assert axe_violations(tab.page) == []
    finally:
        tab.close()


def test_every_page_has_the_search_box(built_site):
    proj, _ = built_site
    html_dir = proj / "_build/html"
    pages = sorted(html_dir.glob("notes/**/*.html")) + [html_dir / "index.html"]
    # A redirect (an address kept for a page that moved) sends the reader on at once.
    texts = {path: path.read_text(encoding="utf-8") for path in pages}
    texts = {path: text for path, text in texts.items() if 'http-equiv="refresh"' not in text}
    assert len(texts) > 30
    for path, text in texts.items():
        assert 'action="' in text and "search.html" in text, path


def _note(number: int) -> str:
    return f"notes/vllm-project/vllm/pr-{number}"


# For each query, the notes that only its glossary expansions find: its one
# group's lookup, less what the words typed find.
_ONLY_BY_EXPANSION = """async queries => {
  const out = [];
  const view = PrnotesSearch.view;
  const notes = async (group, typed) => {
    const found = await prnotesComplete(view, () => PrnotesSearch.lookup(group, true, typed), PrnotesSearch.forget);
    const rows = await PrnotesSearch.pages([...found.keys()].filter((p) => view.isNote(p)));
    return rows.map((row) => row[0]);
  };
  for (const q of queries) {
    const [group] = (await PrnotesSearch.split(q)).filter(prnotesIsGroup);
    if (!group) { out.push([q, []]); continue; }
    const typed = prnotesTypedWords(q);
    const first = group.split("|")[0];
    const before = new Set(await notes(first + "|~" + first, typed));
    out.push([q, (await notes(group, typed)).filter((d) => !before.has(d)).sort()]);
  }
  return out;
}"""


@pytest.mark.parametrize("side", ["english", "chinese"])
def test_the_glossary_finds_notes_across_languages(page, side):
    page.search("前缀缓存")  # loads the index
    entries = glossary.load().entries
    queries = [e.english for e in entries] if side == "english" else sorted({w for e in entries for w in e.wordings})
    found = [(q, notes) for q, notes in page.evaluate(_ONLY_BY_EXPANSION, queries) if notes]
    # Many terms find notes that do not use their words; the search lists them.
    assert len(found) >= 10, found
    for query, notes in found[:5]:
        assert set(notes) <= set(page.search(query).docnames), query


def test_the_query_keeps_what_was_typed_and_adds_the_other_side_as_one_group(page):
    page.search("前缀缓存")
    assert page.evaluate("() => PrnotesSearch.split('race condition')") == ["rac+condition|~竞态"]
    assert page.evaluate("() => PrnotesSearch.split('竞态')") == ["竞态|~rac|~rac+condition"]
    assert page.evaluate("() => PrnotesSearch.split('mixture of experts')") == ["mixtur+expert|~moe|~混合+合专+专家"]
    # Nothing in the site says "mixture"; the MoE notes are found.
    assert _note(52327) in page.search("mixture of experts").docnames[:3]
    # Words of identifiers are not English terms.
    assert page.evaluate("() => PrnotesSearch.split('_fused_norm_rope_kernel')") == [
        "_fused_norm_rope_kernel", "fusednormropekernel", "fus", "norm", "rop", "kernel"
    ]


def test_an_expansion_weighs_less_than_what_was_typed(page):
    page.search("前缀缓存")
    weights = page.evaluate(
        """() => {
          const found = {typed: new Map([[0, 10], [1, 10]]), more: new Map([[0, 10]]), other: new Map([[2, 10]])};
          const lookup = (t) => found[t] || new Map();
          return [...prnotesGroupLookup("typed+more|~other", lookup)].sort();
        }"""
    )
    # A group weighs as one term, the mean of what was typed: file 0 has both
    # words (10), file 1 half of them (5); the expansion's file 2 weighs
    # PRNOTES_EXPANSION_WEIGHT of a whole typed match.
    expansion = page.evaluate("() => PRNOTES_EXPANSION_WEIGHT")
    assert 0 < expansion < 1
    assert weights == [[0, 10], [1, 5], [2, 10 * expansion]]
    # An expansion must have all its words; what was typed, half of them.
    assert page.evaluate(
        """() => [...prnotesGroupLookup("x|~typed+other", (t) => new Map(t === "typed" ? [[0, 10]] : []))]"""
    ) == []


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("PR52810", ["#52810"]),
        ("pr 52810", ["#52810"]),
        ("PR #52810", ["#52810"]),
        ("vllm#52763", ["#52763"]),
        ("vllm-project/vllm#52763", ["#52763"]),
        ("https://github.com/vllm-project/vllm/pull/52046", ["#52046"]),
        # none_hash written solid is a term of the index, and a word as typed matches inside terms.
        ("nonehash", ["nonehash"]),
        # Folded, "syncallowed" is only inside a term (gpusyncallow, gpu_sync_allowed written
        # solid), where a folded form is not looked for: the identifiers that hold it as typed.
        ("syncallowed", ["syncallow|gpu_sync_allowed"]),
        ("none hash", ["non+hash|none_hash"]),
        ("gpu sync allowed", ["gpu+sync+allow|gpu_sync_allowed"]),
        ("hybrid model state", ["hybrid+model+stat|hybridmodelstate"]),
        ("前綴緩存", ["前缀+缀缓+缓存|~prefix+cach"]),
    ],
)
def test_variants_become_the_terms_of_the_index(page, query, terms):
    page.search("前缀缓存")
    assert page.evaluate("q => PrnotesSearch.split(q)", query) == terms


def test_identifier_prefixes_and_inflections_find_the_note(page):
    assert page.search("pybind").docnames[0] == _note(52400)
    assert page.search("mambahybrid").docnames[0] == _note(52374)
    # "races" in the upstream title, "racing" typed; "caching" typed, "cache" in the title.
    assert page.search("racing").docnames[0] == _note(52810)
    assert page.search("caching").docnames[0] == _note(51875)


# --- a long query: cut where a question ends, answered at once ---------------------

LONG = 80_000
CUT = "#search-results .prnotes-query-cut"


@pytest.mark.parametrize("shape", list(long_queries(10)))
def test_a_query_of_80000_characters_is_cut_and_answered(page, shape):
    page.search("前缀缓存")
    query = long_queries(LONG)[shape]
    limit = page.evaluate("() => PRNOTES_MAX_QUERY")
    assert 100 <= limit <= 1000
    page.evaluate(SUBMIT_TIMED, query)  # resolves once the results are listed
    notice = page.page.locator(CUT)
    assert notice.is_visible()
    assert notice.inner_text() == f"查询过长（{len(query.strip())} 个字），只按前 {limit} 个字搜索。"
    # The page answers with what was searched, not the 80,000 characters.
    summary = page.evaluate("() => document.querySelector('#search-results .search-summary').textContent")
    assert len(summary) < limit + 60, summary[:200]


def test_a_query_that_fits_is_searched_whole_and_says_nothing_of_a_cut(page):
    page.search("前缀缓存")
    limit = page.evaluate("() => PRNOTES_MAX_QUERY")
    query = ("浅克隆 竞态 " * limit)[:limit].strip()
    page.evaluate(SUBMIT_TIMED, query)
    assert page.page.locator(CUT).count() == 0
    assert page.page.locator("#search-results ul.search > li").count() > 0


def test_a_long_query_in_the_url_is_cut_and_answered(page):
    # As long as a URL the server takes (http.server: 64 KiB).
    query = long_queries(30_000)["one-word"]
    page.fresh()
    page.search(query)
    assert page.page.locator(CUT).inner_text() == f"查询过长（30000 个字），只按前 {page.evaluate('() => PRNOTES_MAX_QUERY')} 个字搜索。"
    # The URL keeps what was searched.
    assert page.evaluate("() => new URLSearchParams(location.search).get('q')") == query[: page.evaluate("() => PRNOTES_MAX_QUERY")]
    # Answered: the page says it is done (a 200-letter word finds no note).
    assert page.evaluate(SEARCH_FINISHED)


def test_a_long_query_pasted_into_the_dialog_is_cut_and_answered(page):
    page.open_dialog(NOTE)
    field = page.page.locator("#pst-search-dialog input[name=q]")
    field.fill("")
    query = long_queries(LONG)["chinese"]
    field.fill(query)
    page.guard.wait_for(page.page, "() => document.getElementById('prnotes-dialog-list').dataset.query?.length > 0")
    notice = page.page.locator("#pst-search-dialog .prnotes-query-cut")
    limit = page.evaluate("() => PRNOTES_MAX_QUERY")
    assert notice.inner_text() == f"查询过长（{LONG} 个字），只按前 {limit} 个字搜索。"
    assert page.page.locator(DIALOG_RESULTS).count() > 0


# How often a search of a query asks the index (its index files loaded, the
# ranking's memory forgotten): every question the ranking and the query's
# terms put to PrnotesIndex, counted.
_COUNT_INDEX_WORK = """async (query) => {
  const view = PrnotesSearch.view;
  await PrnotesSearch.search(query);
  let calls = 0;
  const names = ["term", "known", "containing", "near", "pieces", "inside", "links", "translations", "page"];
  for (const name of names) view[name] = function (...args) { calls++; return PrnotesIndex.prototype[name].apply(this, args); };
  try {
    PrnotesSearch.forget();
    await PrnotesSearch.search(query);
  } finally {
    for (const name of names) delete view[name];
  }
  return calls;
}"""

@pytest.mark.parametrize("shape", list(long_queries(10)))
def test_the_index_work_of_a_search_is_linear_in_the_length_of_the_query(page, shape):
    """Past the cut too: a query twice as long asks the index at most about
    twice as often, for every shape of query. Counted, not timed."""
    page.search("前缀缓存")
    calls = [page.evaluate(_COUNT_INDEX_WORK, long_queries(n)[shape]) for n in (2000, 4000, 8000)]
    assert calls[0] > 0
    assert calls[2] <= 2.5 * calls[1] and calls[1] <= 2.5 * calls[0], (shape, calls)


# The ways PR references and glossary phrases were found before they were
# made linear, to compare with: each pattern tried from every place.
_AS_BEFORE = """(texts) => {
  const refs = [
    [/\\S*\\/(?:pull|issues)\\/(?=[0-9]{2,})/gi, "#"],
    [/[A-Za-z0-9_.\\-]+(?:\\/[A-Za-z0-9_.\\-]+)?#(?=[0-9]{2,})/g, "#"],
    [/(?<![A-Za-z0-9_])(?:pr|pull request|pull)\\s*[#:]?\\s*(?=[0-9]{2,})/gi, "#"],
  ];
  const matches = (norm) => {
    const units = prnotesUnits(norm);
    const taken = units.map((u) => PRNOTES_IDENTIFIER.test(norm.slice(u.start, u.end)));
    const found = [];
    for (const phrase of [...prnotesGlossaryPhrases()].sort((a, b) => b.units.length - a.units.length)) {
      const n = phrase.units.length;
      for (let i = 0; i + n <= units.length; i++) {
        if (taken.slice(i, i + n).some((t) => t)) continue;
        if (!phrase.units.every((u, j) => units[i + j].unit === u)) continue;
        taken.fill(true, i, i + n);
        found.push([units[i].start, units[i + n - 1].end, [...phrase.expansions].sort().join("|")]);
      }
    }
    return found.sort((a, b) => a[0] - b[0]);
  };
  const now = (norm) => prnotesGlossaryMatches(norm).map((m) => [m.start, m.end, [...m.expansions].sort().join("|")]);
  return texts.map((text) => {
    let before = text;
    for (const [pattern, replacement] of refs) before = before.replace(pattern, replacement);
    const norm = prnotesNormalize(text);
    return [prnotesNormalize(before) === prnotesQueryText(text), JSON.stringify(matches(norm)) === JSON.stringify(now(norm))];
  });
}"""


def test_pr_references_and_glossary_phrases_are_found_as_before(page):
    page.search("前缀缓存")
    rng = random.Random(5)
    pieces = ["pr", "PR", "pull", "pull request", " ", "  ", "#", ":", "/", "/pull/", "/issues/", "12", "52810", "7",
              "vllm", "vllm-project/", "a.b", "x_y", "-", "前缀缓存", "prefix caching", "race condition", "竞态", "投机解码",
              "speculative decoding", "mixture of experts", "kv cache", "the", "of"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 14))) for _ in range(1500)]
    sides = [e.english for e in glossary.load().entries] + [w for e in glossary.load().entries for w in e.wordings]
    # Phrases side by side, unspaced and spaced: where they overlap, which one takes the place.
    texts += sides + ["".join(rng.sample(sides, 3)) for _ in range(1500)] + [" ".join(rng.sample(sides, 3)) for _ in range(500)]
    compared = page.evaluate(_AS_BEFORE, texts)
    assert [t for t, (refs, _) in zip(texts, compared) if not refs] == []
    assert [t for t, (_, phrases) in zip(texts, compared) if not phrases] == []
    # Two phrases of one length that overlap: the first of them takes the place, wherever it is.
    first_wins = """() => prnotesGlossaryMatches("xx yy zz", [
      {units: ["yy", "zz"], expansions: new Set(["P"]), mark: "^"},
      {units: ["xx", "yy"], expansions: new Set(["Q"]), mark: "^"},
    ]).map((m) => [m.start, m.end, [...m.expansions][0]])"""
    assert page.evaluate(first_wins) == [[3, 8, "P"]]
