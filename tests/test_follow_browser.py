"""Read marks, "new since your last visit" and the list filters in headless
Chromium, on the follow fixture (tests/roots/follow: four digests from two
repositories, tests.support.followsite).

Each test starts from an empty browser profile (a new context), so what a
test stores is its own. Screenshots (``follow-<page>-<width>-<scheme>.png``)
go where the other browser tests put theirs.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright import sync_api as playwright

from prnotes import contract
from tests.support.browserguard import guarded_context
from tests.support.pagechecks import axe_violations
from tests.support.searchbrowser import serve

CHROMIUM = Path("/usr/bin/chromium")
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
# SGLang's own subsystem (taxonomy/sgl-project__sglang.toml): its two notes, 精读 and 按需.
MEM_CACHE = contract.subsystem_docname("sgl-project/sglang/mem-cache")
SHOWN = "() => { const b = document.querySelector('.prnotes-since'); return b && !b.hidden; }"
HOUR = 3600 * 1000


@pytest.fixture(scope="module")
def served(follow_site):
    with serve(follow_site[0] / "_build" / "html") as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `scripts/bootstrap.sh apt browser`")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def tab(browser):
    """A page in a fresh, guarded browser profile (desktop, light)."""
    context, guard = guarded_context(browser, viewport={"width": 1280, "height": 900}, locale="zh-CN", reduced_motion="reduce")
    page = context.new_page()
    page.guard = guard
    yield page
    context.close()
    guard.check()


def open_page(page, base: str, path: str) -> None:
    page.goto(base + path)
    page.wait_for_load_state("load")
    page.guard.check()


def landing(page, base: str) -> dict:
    """Open the landing page; its count of new notes, and its entries (key, link, read)."""
    open_page(page, base, "index.html")
    page.guard.wait_for(page, SHOWN)
    return page.evaluate(
        """() => ({
          count: Number(document.querySelector('.prnotes-since').dataset.new),
          shown: document.querySelector('.prnotes-since-count')?.textContent ?? null,
          text: document.querySelector('.prnotes-since').textContent,
          entries: [...document.querySelectorAll('article .prnotes-note')].map(li => ({
            pr: li.dataset.pr, digest: Number(li.dataset.digest),
            href: li.querySelector('a.reference.internal').href, read: li.classList.contains('prnotes-read')})),
        })"""
    )


def stored(page, base: str) -> dict:
    return page.evaluate(f"() => JSON.parse(localStorage.getItem('prnotes-readmarks:{urlsplit(base).path}'))")


def test_opening_two_notes_marks_them_read_and_the_count_drops_by_two(tab, served):
    before = landing(tab, served)
    assert before["entries"] and not any(e["read"] for e in before["entries"])
    # A first visit: the notes the landing page lists are the new ones.
    assert before["count"] == len(before["entries"]) and before["shown"] == str(before["count"])
    opened = before["entries"][:2]
    for entry in opened:
        tab.goto(entry["href"])
        tab.wait_for_load_state("load")
    after = landing(tab, served)
    read = {e["pr"] for e in after["entries"] if e["read"]}
    assert read == {e["pr"] for e in opened}
    assert after["count"] == before["count"] - 2
    # The hooks tests and user styles rely on.
    assert tab.locator("li.prnotes-note.prnotes-read").count() == 2


def test_a_new_visit_counts_the_notes_that_arrived_since_the_last(tab, served, follow_site):
    open_page(tab, served, "index.html")
    key = f"prnotes-readmarks:{urlsplit(served).path}"
    # The last visit, two hours ago, saw the first digest on the landing page.
    last = {"read": {}, "cleared": [], "visit": {"since": 0, "shown": 1, "at": 0}}
    tab.evaluate("([key, last]) => { last.visit.at = Date.now() - 2 * 3600 * 1000; localStorage.setItem(key, JSON.stringify(last)); }", [key, last])
    got = landing(tab, served)
    assert got["count"] == 4 + 3 + 4  # the notes of digests 2, 3 and 4
    assert "上次访问以来新到" in got["text"]
    # A note of digest 2 is on no landing list; reading it still counts.
    tab.goto(served + "notes/sgl-project/sglang/pr-40201.html")
    assert landing(tab, served)["count"] == 10
    # Within the visit the baseline stays: reloading does not reset the count.
    tab.reload()
    tab.guard.wait_for(tab, SHOWN)
    assert tab.evaluate("() => document.querySelector('.prnotes-since').dataset.new") == "10"
    assert stored(tab, served)["visit"]["since"] == 1


def test_mark_all_read_clears_the_count_and_dims_every_new_note(tab, served):
    open_page(tab, served, "index.html")
    key = f"prnotes-readmarks:{urlsplit(served).path}"
    tab.evaluate("(key) => localStorage.setItem(key, JSON.stringify({visit: {since: 2, shown: 2, at: Date.now()}}))", key)
    assert landing(tab, served)["count"] == 3 + 4  # digests 3 and 4
    tab.get_by_role("button", name="全部标为已读").click()
    assert tab.evaluate("() => document.querySelector('.prnotes-since').dataset.new") == "0"
    assert "没有新的未读笔记" in tab.locator(".prnotes-since").inner_text()
    assert tab.locator("article .prnotes-note:not(.prnotes-read)").count() == 0
    assert tab.evaluate("() => document.activeElement.className") == "prnotes-since-line"
    assert stored(tab, served)["cleared"] == [[3, 4]]
    # Digest 3's notes are read; digest 2's, older than the visit's baseline, are not.
    open_page(tab, served, "notes/digests/002_v2.html")
    assert tab.locator("article .prnotes-note:not(.prnotes-read)").count() == 0
    open_page(tab, served, "notes/digests/001_s1.html")
    assert tab.locator("article .prnotes-note.prnotes-read").count() == 0


def test_a_read_note_is_marked_on_every_list_that_has_it(tab, served):
    tab.goto(served + "notes/vllm-project/vllm/pr-70101.html")
    for path in (f"{contract.subsystem_docname('kv-cache')}.html", "notes/reading/close.html", "notes/digests/000_v1.html"):
        open_page(tab, served, path)
        assert tab.locator("li.prnotes-read").evaluate_all("els => els.map(e => e.dataset.pr)") == ["vllm-project/vllm#70101"], path


# Storage as a browser with site data blocked, or a full disk, gives it to
# the read marks script (the theme's own scripts keep theirs: they are not
# written to go without it).
OURS = "new Error().stack.includes('prnotes-readmarks.js')"
STORAGE = {
    "disabled": f"""{{ const real = Object.getOwnPropertyDescriptor(window, 'localStorage').get;
      Object.defineProperty(window, 'localStorage', {{get() {{
        if ({OURS}) throw new DOMException('denied', 'SecurityError'); return real.call(window); }}}}); }}""",
    "full": f"""{{ const real = Storage.prototype.setItem;
      Storage.prototype.setItem = function (...args) {{
        if ({OURS}) throw new DOMException('full', 'QuotaExceededError'); return real.apply(this, args); }}; }}""",
    "absent": f"""{{ const real = Object.getOwnPropertyDescriptor(window, 'localStorage').get;
      Object.defineProperty(window, 'localStorage', {{get() {{ return {OURS} ? null : real.call(window); }}}}); }}""",
}


@pytest.mark.parametrize("storage", STORAGE)
def test_without_storage_nothing_breaks_and_everything_is_unread(browser, served, storage):
    context, guard = guarded_context(browser, locale="zh-CN")
    context.add_init_script(STORAGE[storage])
    page = context.new_page()
    for path in ("notes/vllm-project/vllm/pr-70101.html", "index.html", f"{MEM_CACHE}.html"):
        page.goto(served + path)
        page.wait_for_load_state("load")
    assert page.locator(".prnotes-read").count() == 0
    page.goto(served + "index.html")
    page.wait_for_load_state("load")
    assert page.locator(".prnotes-since").get_attribute("hidden") is not None
    context.close()
    guard.check()


def test_without_javascript_every_entry_shows_unread_and_no_control_shows(browser, served):
    context, guard = guarded_context(browser, locale="zh-CN", java_script_enabled=False)
    page = context.new_page()
    page.goto(served + f"{MEM_CACHE}.html?verdict={quote('精读')}")
    assert page.locator("form.prnotes-filters").is_hidden()
    assert page.locator("li.prnotes-note").count() == 2
    assert all(page.locator("li.prnotes-note").nth(i).is_visible() for i in range(2))
    page.goto(served + "index.html")
    assert page.locator(".prnotes-since").is_hidden() and page.locator(".prnotes-read").count() == 0
    context.close()
    guard.check()


def visible_entries(page) -> list[dict]:
    return page.evaluate(
        "() => [...document.querySelectorAll('article li.prnotes-note')].filter(li => !li.hidden && li.offsetParent !== null)"
        ".map(li => ({pr: li.dataset.pr, verdict: li.dataset.verdict, repo: li.dataset.repo}))"
    )


def query(page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def test_verdict_in_the_url_hides_every_other_entry_of_a_subsystem_page(tab, served):
    open_page(tab, served, f"{MEM_CACHE}.html?verdict={quote('精读')}")
    shown = visible_entries(tab)
    assert shown and {e["verdict"] for e in shown} == {"精读"}
    hidden = tab.evaluate("() => [...document.querySelectorAll('article li.prnotes-note')].filter(li => li.hidden).map(li => li.dataset.verdict)")
    assert hidden == ["按需"]  # hidden, not removed
    assert tab.locator("form.prnotes-filters").is_visible()
    assert tab.locator("select[name=verdict]").input_value() == "精读"
    assert tab.locator(".prnotes-filter-status").inner_text() == "显示 1 / 2 篇"


def test_the_controls_keep_the_choice_in_the_url(tab, served):
    open_page(tab, served, f"{MEM_CACHE}.html")
    assert tab.locator(".prnotes-filter-status").inner_text() == "共 2 篇"
    tab.get_by_label("阅读结论", exact=True).select_option("精读")
    assert query(tab) == {"verdict": ["精读"]}
    assert [e["pr"] for e in visible_entries(tab)] == ["sgl-project/sglang#40201"]
    # The URL as a bookmark: the same view in a new tab.
    url = tab.url
    tab.goto("about:blank")
    open_page(tab, "", url)
    assert [e["pr"] for e in visible_entries(tab)] == ["sgl-project/sglang#40201"]
    tab.get_by_role("button", name="清除筛选").click()
    assert query(tab) == {} and len(visible_entries(tab)) == 2


def test_a_reading_list_filtered_to_one_subsystem_hides_the_other_sections(tab, served):
    open_page(tab, served, "notes/reading/close.html?subsystem=sgl-project/sglang/mem-cache&repo=sgl-project/sglang")
    sections = tab.evaluate(
        "() => [...document.querySelectorAll('article section section')].map(s => [s.querySelector('h2').firstChild.textContent, !s.hidden])"
    )
    assert [title for title, shown in sections if shown] == ["RadixCache 与 HiCache（sgl-project/sglang）"]
    assert len(sections) > 1
    assert [e["pr"] for e in visible_entries(tab)] == ["sgl-project/sglang#40201"]
    tab.get_by_label("仓库", exact=True).select_option("vllm-project/vllm")
    assert query(tab) == {"subsystem": ["sgl-project/sglang/mem-cache"], "repo": ["vllm-project/vllm"]}
    assert visible_entries(tab) == []


def test_a_value_the_page_does_not_offer_is_shown_and_can_be_cleared(tab, served):
    open_page(tab, served, f"{MEM_CACHE}.html?subsystem=no-such-subsystem")
    assert tab.locator("select[name=subsystem]").input_value() == "no-such-subsystem"
    assert visible_entries(tab) == []
    assert tab.locator(".prnotes-filter-status").inner_text() == "显示 0 / 2 篇"
    tab.get_by_role("button", name="清除筛选").click()
    assert len(visible_entries(tab)) == 2


TARGETS_JS = """
() => [...document.querySelectorAll('.prnotes-since button, form.prnotes-filters select, form.prnotes-filters button')]
  .filter(el => el.getClientRects().length)
  .map(el => { const r = el.getBoundingClientRect(); return [el.outerHTML.slice(0, 40), Math.round(r.width), Math.round(r.height)]; })
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_and_the_controls_are_large_enough_to_tap(browser, served, screenshots, width, scheme):
    w, h = WIDTHS[width]
    context, guard = guarded_context(browser, viewport={"width": w, "height": h}, color_scheme=scheme, locale="zh-CN", reduced_motion="reduce")
    page = context.new_page()
    page.guard = guard
    problems, targets = [], []
    # A note read, then the landing page with its line, the filtered subsystem page and a note with 相似笔记.
    page.goto(served + "notes/sgl-project/sglang/pr-40204.html")
    pages = (("landing", "index.html"), ("subsystem", f"{MEM_CACHE}.html?verdict={quote('精读')}"),
             ("note", "notes/sgl-project/sglang/pr-40201.html"))  # fmt: skip
    for name, path in pages:
        open_page(page, served, path)
        if name == "landing":
            guard.wait_for(page, SHOWN)
            assert page.locator(".prnotes-read").count() == 1
        elif name == "subsystem":
            assert page.locator("form.prnotes-filters").is_visible()
        else:  # a note with 相似笔记, one of them read
            assert page.locator("#similar-notes li.prnotes-note").count() >= 1
        problems += [f"{name}: {v}" for v in axe_violations(page)]
        targets += page.evaluate(TARGETS_JS)
        page.screenshot(path=str(screenshots / f"follow-{name}-{w}-{scheme}.png"), full_page=True)
    context.close()
    guard.check()
    assert problems == []
    assert targets and [t for t in targets if t[1] < 24 or t[2] < 24] == []


def test_a_subsystem_page_announces_its_own_valid_feed_naming_verdict_and_pr(tab, served):
    """The feed a browser or a feed reader finds on the page: valid Atom, its
    entries titled with the verdict and repo#PR."""
    import feedparser

    open_page(tab, served, f"{MEM_CACHE}.html")
    links = tab.eval_on_selector_all(
        'head link[rel="alternate"][type="application/atom+xml"]', "els => els.map(l => [l.title, l.href])"
    )
    assert len(links) == 2 and links[1][1] == served + "feed.xml"
    title, href = links[0]
    assert href == served + contract.subsystem_feed("sgl-project/sglang/mem-cache")
    response = tab.request.get(href)
    assert response.ok
    feed = feedparser.parse(response.body())
    assert not feed.bozo and feed.feed.title == title
    assert [e.title.split(" ", 2)[:2] for e in feed.entries] == [["[按需]", "sgl-project/sglang#40207"], ["[精读]", "sgl-project/sglang#40201"]]


def test_a_note_lists_the_note_of_the_other_repository_under_similar_notes(tab, served):
    tab.goto(served + "notes/vllm-project/vllm/pr-70101.html")
    open_page(tab, served, "notes/sgl-project/sglang/pr-40201.html")
    entries = tab.locator("#similar-notes li.prnotes-note")
    assert "vllm-project/vllm#70101" in entries.evaluate_all("els => els.map(e => e.dataset.pr)")
    # Read, so quieter, like any list entry of a read note.
    assert tab.locator('#similar-notes li.prnotes-read[data-pr="vllm-project/vllm#70101"]').count() == 1
    assert tab.locator("#similar-notes h2").inner_text().startswith("相似笔记")
