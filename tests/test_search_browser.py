"""Search through the real search page, in headless Debian Chromium."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from prnotes.project import load
from tests.support.searchbrowser import SearchPage, search_page
from tests.support.searcheval import Ranked, by_category, load_cases, recall_at, report
from prnotes.sphinxext.search.language import SearchPrnotes
from prnotes.sphinxext.search.tokens import tokens

EVAL = Path(__file__).with_name("search_eval.tsv")
# The categories of the evaluation set, each with its recall@1 in BENCHMARKS.md.
CATEGORIES = (
    "chinese-unspaced", "chinese-mixed", "identifier", "pr-number", "english-term",
    "traditional", "variant", "natural", "hub-vs-note",
)


@pytest.fixture(scope="module")
def page(built_site):
    proj, _ = built_site
    with search_page(proj / "_build/html") as tab:
        yield tab


def test_every_eval_query_finds_its_note_in_the_top_3(page, capsys):
    cases = load_cases(EVAL)
    assert len(cases) >= 80
    assert {c.category for c in cases} >= set(CATEGORIES)
    ranked = [Ranked(case, page.search(case.query).docnames) for case in cases]
    with capsys.disabled():
        print("\n" + report(ranked) + "\n\n" + by_category(ranked))
    misses = [(r.case.query, r.case.expected, r.docnames[:3]) for r in ranked if not (r.rank and r.rank <= 3)]
    assert misses == []
    assert recall_at(ranked, 3) == 1.0


def test_unspaced_chinese_words_find_the_note_as_spaced_ones_do(page):
    note = "notes/vllm-project/vllm/pr-51368"
    assert page.search("权重生命周期").docnames[0] == note
    assert note in page.search("权重 生命周期").docnames[:3]


def test_a_note_outranks_hub_pages_that_match_as_well(page):
    # "前缀缓存" is also in the title of the KV cache subsystem page.
    docnames = page.search("前缀缓存").docnames
    assert docnames[0] == "notes/vllm-project/vllm/pr-51875"
    assert "notes/subsystem/kv-cache" in docnames


def _samples(proj: Path) -> list[str]:
    """Seed text and upstream titles, plus random mixes of the tricky characters."""
    site = load(proj)
    texts = [t for n in site.notes for t in (n.title, n.upstream_title or "", n.body)]
    alphabet = "前缀缓存浅克隆竞态的 aZ_9.-#（）ＡＢ１２ 、，。:/\u3400\uf900\u9fff\t\nMambaHybrid"
    rng = random.Random(0)
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(300)]
    texts += ["HTTPServer getTopTokens x86_64 v2.3.1 2.65x a-b-c __init__ _x_ --x-- 1.2.3"]
    return texts


def test_javascript_splits_and_stems_as_python_does(page, built_site):
    proj, _ = built_site
    texts = _samples(proj)
    js = page.evaluate("texts => texts.map(t => prnotesTokens(t))", texts)
    assert js == [tokens(t) for t in texts]
    terms = sorted({term for t in texts for term in tokens(t)})
    lang = SearchPrnotes({})
    js_stems = page.evaluate("terms => terms.map(t => new Stemmer().stemWord(t.toLowerCase()))", terms)
    assert js_stems == [lang.stem(t) for t in terms]


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


def test_the_replaced_searchtools_functions_are_checked_before_use(page):
    page.search("前缀缓存")
    assert page.evaluate("() => PRNOTES_SEARCH_MISSING") == []
    assert page.evaluate("() => Search.performTermsSearch === PrnotesSearch.performTermsSearch")
    # A Search object without one of them is left as it is.
    fake = page.evaluate(
        """() => {
          const fake = {performTermsSearch: () => "sphinx", makeSearchSummary: () => "sphinx", _index: null};
          return [prnotesInstall(fake), fake.performTermsSearch(), fake.makeSearchSummary()];
        }"""
    )
    assert fake == [["_parseQuery"], "sphinx", "sphinx"]


def test_a_searchtools_without_them_falls_back_to_sphinx_search(page):
    """As if Sphinx renamed ``Search._parseQuery``: its own search answers."""
    tab = SearchPage(page.browser, page.base_url)

    def renamed(route):
        body = route.fetch().text().replace("_parseQuery", "parseQueryRenamed")
        route.fulfill(body=body, content_type="application/javascript")

    try:
        tab.page.route("**/searchtools.js*", renamed)
        result = tab.search("前缀缓存")
        assert tab.evaluate("() => PRNOTES_SEARCH_MISSING") == ["_parseQuery"]
        assert tab.evaluate("() => Search.performTermsSearch === PrnotesSearch.performTermsSearch") is False
        assert "notes/vllm-project/vllm/pr-51875" in result.docnames
    finally:
        tab.page.close()


def test_every_page_has_the_search_box(built_site):
    proj, _ = built_site
    html_dir = proj / "_build/html"
    pages = sorted(html_dir.glob("notes/**/*.html")) + [html_dir / "index.html"]
    assert pages
    for path in pages:
        assert 'action="' in path.read_text(encoding="utf-8") and "search.html" in path.read_text(encoding="utf-8"), path
