"""What a reader sees of a search, in headless Chromium, on a small fixture
(tests/roots/search: two repositories that share PR number 4242, a note
that says "tracing" but no race, one with NONE and xxHash).

Result rows (verdict, repo#PR, date), notes before hub pages, filters kept in
the URL, no search while an input method composes, marks on whole tokens
only, glossary expansions on whole words only, "/" and the close button,
markup typed into the dialog shown as text, and the folding of fold.js and
tokens.py agreeing on real words.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from prnotes import contract
from prnotes.sphinxext.search.tokens import fold
from tests.support.sandbox import ROOTS, convert, copy_project, sphinx_build
from tests.support.searchbrowser import DIALOG_RESULTS, SEARCH_FINISHED, SearchPage, search_page
from tests.support.searchwords import WORDS, WORDS_BY_ENDING

RACE = "notes/o/alpha/pr-4242"
TRACING = "notes/o/alpha/pr-4243"
HASHES = "notes/o/alpha/pr-4244"
CI = "notes/p/beta/pr-4242"
NOTE = "notes/o/alpha/pr-4243.html"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    proj = copy_project(tmp_path_factory.mktemp("search") / "proj", ROOTS / "search" / "seeds")
    assert convert(proj) == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    return proj


@pytest.fixture(scope="module")
def page(site):
    with search_page(site / "_build/html") as tab:
        yield tab


def _rows(page, selector: str) -> list[dict]:
    return page.evaluate(
        """sel => [...document.querySelectorAll(sel)].map(row => ({
          href: row.querySelector('a')?.getAttribute('href') || row.getAttribute('href'),
          title: (row.querySelector('.prnotes-dialog-title') || row.querySelector('a')).textContent,
          meta: [...row.querySelectorAll('.prnotes-result-meta > span')].map(s => s.textContent),
        }))""",
        selector,
    )


def _date_on_page(page, docname: str) -> str:
    page.page.goto(f"{page.base_url}{docname}.html")
    return page.evaluate("() => document.querySelector('.prnotes-date').textContent")


def test_result_rows_show_verdict_repo_pr_and_date(page):
    date = _date_on_page(page, RACE)
    result = page.search("#4242")
    assert set(result.docnames) == {RACE, CI}
    rows = _rows(page, "#search-results ul.search > li")
    metas = sorted(r["meta"] for r in rows)
    assert metas == [["精读", "o/alpha#4242", date], ["精读", "p/beta#4242", date]]
    # The dialog's rows too: two rows for one number, told apart by repo#PR.
    page.dialog_search("4242", NOTE)
    dialog = _rows(page, DIALOG_RESULTS)
    assert sorted(r["meta"][1] for r in dialog) == ["o/alpha#4242", "p/beta#4242"]
    assert len({r["title"] for r in dialog}) == 2


def test_hub_pages_only_when_no_note_matches_and_never_one_title_twice(page):
    notes = page.search("前缀缓存").docnames
    assert notes and all(contract.is_note_docname(d) for d in notes)
    hubs = page.search("子系统").docnames
    assert hubs and not any(contract.is_note_docname(d) for d in hubs)
    titles = page.page.eval_on_selector_all("#search-results ul.search > li > a", "els => els.map(e => e.textContent)")
    assert len(titles) == len(set(titles)), titles


def test_filters_narrow_the_results_and_live_in_the_url(page):
    everything = page.search("值得").docnames
    assert {RACE, CI} <= set(everything)
    page.page.goto(f"{page.base_url}search.html?q=值得&verdict=精读&repo=o/alpha")
    page.guard.wait_for(page.page, SEARCH_FINISHED)
    hrefs = page.page.eval_on_selector_all("#search-results ul.search > li > a", "els => els.map(e => e.getAttribute('href'))")
    assert [urlsplit(h).path.lstrip("/").removesuffix(".html") for h in hrefs] == [RACE]
    assert page.page.locator("select[name=verdict]").input_value() == "精读"
    assert page.page.locator("select[name=repo]").input_value() == "o/alpha"
    # A control changes the results and the URL alike.
    page.page.locator("select[name=repo]").select_option("p/beta")
    page.guard.wait_for(page.page, f"() => ({SEARCH_FINISHED[6:]}) && location.search.includes('beta')")
    page.guard.wait_for(page.page, "() => document.querySelector('#search-results li a')?.href.includes('beta')")
    query = parse_qs(urlsplit(page.page.url).query)
    assert query == {"q": ["值得"], "verdict": ["精读"], "repo": ["p/beta"]}
    # o/alpha has no set of its own: its subsystems are the default set's, under its name.
    page.page.locator("select[name=subsystem]").select_option("o/alpha/memory")
    page.guard.wait_for(page.page, "() => location.search.includes('subsystem=o%2Falpha%2Fmemory') || location.search.includes('subsystem=o/alpha/memory')")
    page.guard.wait_for(page.page, SEARCH_FINISHED)
    assert page.page.locator("#search-results ul.search > li").count() == 0
    assert "没有找到" in page.page.locator("#search-results .search-summary").inner_text()


def test_no_search_runs_while_an_input_method_composes(page):
    page.open_dialog(NOTE)
    field = page.page.locator("#pst-search-dialog input[name=q]")
    field.fill("")
    field.focus()
    page.evaluate("""() => {
      window.__statuses = [];
      const status = document.querySelector('.prnotes-dialog-status');
      new MutationObserver(() => window.__statuses.push(status.textContent)).observe(status, {childList: true, characterData: true, subtree: true});
      window.__searches = 0;
      const search = PrnotesSearch.search;
      PrnotesSearch.search = (...args) => { window.__searches++; return search(...args); };
    }""")
    cdp = page.context.new_cdp_session(page.page)
    for typed in ("j", "jin", "jing", "jingt", "jingtai"):
        cdp.send("Input.imeSetComposition", {"text": typed, "selectionStart": len(typed), "selectionEnd": len(typed)})
    assert field.input_value() == "jingtai"
    page.page.wait_for_timeout(300)
    assert page.evaluate("() => window.__searches") == 0
    cdp.send("Input.insertText", {"text": "竞态"})
    page.guard.wait_for(page.page, "() => document.getElementById('prnotes-dialog-list').dataset.query === '竞态'")
    assert page.evaluate("() => window.__searches") >= 1
    statuses = page.evaluate("() => window.__statuses")
    assert not [s for s in statuses if "没有找到" in s], statuses
    assert RACE in [urlsplit(h).path.lstrip("/").removesuffix(".html") for h in page.page.eval_on_selector_all(DIALOG_RESULTS, "els => els.map(e => e.href)")]
    cdp.detach()


def _marks(page, selector: str) -> list[str]:
    return page.page.eval_on_selector_all(f"{selector} span.highlighted", "els => els.map(e => e.textContent)")


def test_marks_cover_whole_tokens_only(page):
    page.search("none")
    page.page.locator("#search-results ul.search > li p.context span.highlighted").first.wait_for()
    marked = _marks(page, "#search-results ul.search")
    assert "NONE" in marked and "NON" not in marked
    page.search("hash")
    page.page.locator("#search-results ul.search > li p.context span.highlighted").first.wait_for()
    marked = _marks(page, "#search-results ul.search")
    assert "xxHash" in marked and "Hash" not in marked
    # The marking itself, on text with identifiers around the term.
    cases = page.evaluate("""() => [
      prnotesMarks("NONE_HASH and NONE and NONESUCH", new Set(["non"])),
      prnotesMarks("xxHash, hash_seed, rehash", new Set(["hash"])),
      prnotesMarks("tracing races", new Set(["rac"])),
      prnotesMarks("修复前缀缓存的竞态", new Set(["前缀", "缀缓", "缓存"])),
    ]""")
    assert cases == [[[0, 9], [14, 18]], [[0, 6], [8, 17]], [[8, 13]], [[2, 6]]]


def test_a_glossary_expansion_matches_whole_words_only(page):
    # 竞态 expands to "race" (folded: rac); "tracing" (trac) holds those letters.
    assert page.evaluate("() => PrnotesSearch.split('竞态')") == ["竞态|~rac|~rac+condition"]
    docnames = page.search("竞态").docnames
    assert RACE in docnames and TRACING not in docnames
    assert TRACING not in page.search("race").docnames
    # What was typed still finds a word inside an identifier: "releas" in release_block.
    assert page.search("release_bl").docnames[:1] == (RACE,)


def test_slash_opens_the_search_dialog(page):
    page.page.goto(page.base_url + NOTE)
    page.page.locator("article").click(position={"x": 5, "y": 5})
    page.page.keyboard.press("/")
    page.guard.wait_for(page.page, "() => document.getElementById('pst-search-dialog').open")
    assert page.evaluate("() => document.activeElement.name") == "q"
    # A "/" typed into the field is text.
    page.page.keyboard.type("a/b")
    assert page.page.locator("#pst-search-dialog input[name=q]").input_value() == "a/b"


def test_the_dialog_has_a_close_button_and_no_tooltip_stays_after_a_tap(page):
    tab = SearchPage(page.browser, page.base_url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        tab.page.goto(page.base_url + NOTE)
        tab.page.locator("button.search-button__button:visible").first.tap()
        tab.guard.wait_for(tab.page, "() => document.getElementById('pst-search-dialog').open")
        close = tab.page.locator("#pst-search-dialog .prnotes-search-close")
        box = close.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24
        close.tap()
        tab.guard.wait_for(tab.page, "() => !document.getElementById('pst-search-dialog').open")
        tab.page.wait_for_timeout(300)
        assert tab.page.locator(".tooltip:visible").count() == 0
    finally:
        tab.close()


@pytest.mark.parametrize("typed", ['<img src=x onerror="window.__pwned=1">', "<b>粗体</b>", "&lt;b&gt;"])
def test_markup_typed_into_the_dialog_shows_as_text(page, typed):
    page.dialog_search(typed, NOTE)
    status = page.page.locator("#pst-search-dialog .prnotes-dialog-status")
    assert typed in status.inner_text()
    assert page.evaluate("() => document.querySelector('.prnotes-dialog-status').children.length") == 0
    assert page.evaluate("() => window.__pwned === undefined")


def test_javascript_folds_real_words_as_python_does(page):
    page.open_dialog(NOTE)
    assert set(WORDS_BY_ENDING) >= {"ies", "ss", "us", "is", "as", "s", "ing", "ed", "eed", "e"}
    words = sorted(set(WORDS) | {w.capitalize() for w in WORDS})
    lower = [w.lower() for w in words]
    assert page.evaluate("words => words.map(prnotesFold)", lower) == [fold(w) for w in lower]
    from prnotes.sphinxext.search.tokens import tokens

    assert page.evaluate("words => words.map(w => prnotesTokens(w))", words) == [tokens(w) for w in words]
    # The endings are kept where the rule says: the words above pin it.
    assert fold("analysis") == "analysis" and fold("aliases") == "alias" and fold("canvas") == "canvas"
