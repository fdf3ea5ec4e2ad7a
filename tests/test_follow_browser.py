"""Read marks, "new since your last visit" and the list filters in headless
Chromium, on the follow fixture (tests/roots/follow: four digests from two
repositories, tests.support.followsite).

Each test starts from an empty browser profile (a new context), so what a
test stores is its own. Screenshots (``follow-<page>-<width>-<scheme>.png``)
go where the other browser tests put theirs.
"""

from __future__ import annotations

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
() => [...document.querySelectorAll('.prnotes-since button, form.prnotes-filters select, form.prnotes-filters button, .prnotes-filter-unread label')]
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
             ("note", "notes/sgl-project/sglang/pr-40201.html"), ("unread", UNREAD_PAGE),
             ("week", "notes/week/index.html?unread=1"))  # fmt: skip
    for name, path in pages:
        open_page(page, served, path)
        if name == "landing":
            guard.wait_for(page, SHOWN)
            assert page.locator(".prnotes-read").count() == 1
        elif name == "subsystem":
            assert page.locator("form.prnotes-filters").is_visible()
        elif name == "unread":
            guard.wait_for(page, SHOWN)
            assert page.locator("li.prnotes-new").count() == 6  # 今日's seven, one read
        elif name == "week":
            assert page.get_by_label("只看未读").is_checked()
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


# --- issue 44: the unread list, hiding read notes, the end of a digest, j/k, the phone ---

UNREAD_PAGE = "notes/unread.html"  # contract.UNREAD
# The notes of each digest in reading order (tests/test_daily_reader.py works it out from the model).
READING = {
    4: ["sgl-project/sglang#40204", "sgl-project/sglang#40205", "sgl-project/sglang#40206", "sgl-project/sglang#40207"],
    3: ["vllm-project/vllm#70105", "vllm-project/vllm#70106", "vllm-project/vllm#70107"],
    2: ["sgl-project/sglang#40201", "sgl-project/sglang#40203", "sgl-project/sglang#40202", "sgl-project/sglang#t-98215799c22d"],
}
SHOWN_ENTRIES = """() => [...document.querySelectorAll('article li.prnotes-note')]
  .filter(li => li.getClientRects().length > 0).map(li => li.dataset.pr)"""


def returning(page, base: str, since: int = 1) -> None:
    """A reader whose last visit, two hours ago, saw digests up to ``since`` on the landing page."""
    open_page(page, base, "index.html")
    key = f"prnotes-readmarks:{urlsplit(base).path}"
    page.evaluate(
        "([key, since]) => localStorage.setItem(key, JSON.stringify({read: {}, cleared: [], visit: {since, shown: since, at: Date.now() - 7200e3}}))",
        [key, since],
    )


def unread_page(page, base: str) -> dict:
    page.guard.wait_for(page, SHOWN)
    return {"count": int(page.locator(".prnotes-since").get_attribute("data-new")), "shown": page.evaluate(SHOWN_ENTRIES)}


def test_the_count_leads_to_a_list_of_exactly_those_notes_and_both_shrink_as_notes_are_read(tab, served):
    returning(tab, served)
    assert landing(tab, served)["count"] == 11  # digests 2, 3 and 4
    link = tab.locator("a.prnotes-since-link")
    assert link.inner_text() == "11 篇未读笔记"
    with tab.expect_navigation(wait_until="load"):
        link.click()
    assert tab.url == served + UNREAD_PAGE
    got = unread_page(tab, served)
    assert got == {"count": 11, "shown": READING[4] + READING[3] + READING[2]}
    # Open one from the list and come back: the list and the count lose it.
    with tab.expect_navigation(wait_until="load"):
        tab.locator("article li.prnotes-new .prnotes-entry-title a.reference.internal").nth(1).click()
    assert tab.url == served + "notes/sgl-project/sglang/pr-40205.html"
    tab.go_back(wait_until="load")
    tab.guard.wait_for(tab, "() => document.querySelector('.prnotes-since').dataset.new === '10'")
    got = unread_page(tab, served)
    assert got == {"count": 10, "shown": [READING[4][0], *READING[4][2:], *READING[3], *READING[2]]}
    assert landing(tab, served)["count"] == 10
    # A note opened in another tab leaves at once.
    with tab.expect_navigation(wait_until="load"):
        tab.locator("a.prnotes-since-link").click()
    other = tab.context.new_page()
    other.goto(served + "notes/vllm-project/vllm/pr-70107.html")
    other.wait_for_load_state("load")
    tab.guard.wait_for(tab, "() => document.querySelector('.prnotes-since').dataset.new === '9'")
    assert "vllm-project/vllm#70107" not in unread_page(tab, served)["shown"] and len(unread_page(tab, served)["shown"]) == 9
    other.close()
    # 全部标为已读 on 未读 empties it.
    tab.get_by_role("button", name="全部标为已读").click()
    assert unread_page(tab, served) == {"count": 0, "shown": []}
    assert "没有新的未读笔记" in tab.locator(".prnotes-since").inner_text()


def test_a_first_visit_counts_todays_notes_and_lists_them(tab, served):
    count = landing(tab, served)["count"]
    open_page(tab, served, UNREAD_PAGE)
    assert unread_page(tab, served) == {"count": count, "shown": READING[4] + READING[3]}  # 今日: digests 3 and 4


def test_without_storage_unread_shows_every_note_it_has(browser, served):
    context, guard = guarded_context(browser, locale="zh-CN")
    context.add_init_script(STORAGE["disabled"])
    page = context.new_page()
    page.goto(served + UNREAD_PAGE)
    page.wait_for_load_state("load")
    assert len(page.evaluate(SHOWN_ENTRIES)) == 15 and page.locator(".prnotes-since").is_hidden()
    context.close()
    guard.check()


def test_read_notes_hide_and_the_choice_survives_a_reload(tab, served):
    entries = landing(tab, served)["entries"]
    for entry in entries[:2]:
        tab.goto(entry["href"])
        tab.wait_for_load_state("load")
    open_page(tab, served, "index.html")
    tab.get_by_label("只看未读").check()
    assert query(tab) == {"unread": ["1"]}
    unread = [e["pr"] for e in entries[2:]]
    assert [e["pr"] for e in visible_entries(tab)] == unread
    assert tab.locator(".prnotes-filter-status").inner_text() == "显示 5 / 7 篇"
    tab.reload(wait_until="load")
    assert tab.get_by_label("只看未读").is_checked()
    assert [e["pr"] for e in visible_entries(tab)] == unread
    # A note read in another tab goes at once.
    other = tab.context.new_page()
    other.goto(served + "notes/sgl-project/sglang/pr-40206.html")
    other.wait_for_load_state("load")
    tab.guard.wait_for(tab, "() => document.querySelector('li[data-pr=\"sgl-project/sglang#40206\"]').hidden")
    other.close()
    assert tab.locator(".prnotes-filter-status").inner_text() == "显示 4 / 7 篇"
    # The same on a list page, with another filter, from a shared address; and cleared.
    open_page(tab, served, f"notes/digests/003_s2.html?unread=1&verdict={quote('按需')}")
    assert [e["pr"] for e in visible_entries(tab)] == ["sgl-project/sglang#40207"]
    tab.get_by_label("只看未读").uncheck()
    assert query(tab) == {"verdict": ["按需"]}
    assert [e["pr"] for e in visible_entries(tab)] == ["sgl-project/sglang#40206", "sgl-project/sglang#40207"]


def test_nothing_is_marked_read_until_a_note_is_opened(tab, served):
    count = landing(tab, served)["count"]
    for key in "jjjk":
        tab.keyboard.press(key)
    for path in (UNREAD_PAGE, "notes/week/index.html", "notes/digests/003_s2.html", f"{MEM_CACHE}.html", "notes/reading/close.html"):
        open_page(tab, served, path)
        tab.keyboard.press("j")
    assert stored(tab, served)["read"] == {}
    assert landing(tab, served)["count"] == count
    tab.goto(served + "notes/sgl-project/sglang/pr-40205.html")
    tab.wait_for_load_state("load")
    assert stored(tab, served)["read"] == {"sgl-project/sglang#40205": 4}


CURRENT = "() => [document.querySelector('.prnotes-current')?.dataset.pr, document.activeElement.closest('li.prnotes-note')?.dataset.pr]"


def test_j_and_k_move_between_notes_on_list_pages_and_note_pages(tab, served):
    open_page(tab, served, "notes/digests/003_s2.html")
    for key, expected in (("j", 0), ("j", 1), ("j", 2), ("k", 1), ("k", 0), ("k", 0)):
        tab.keyboard.press(key)
        assert tab.evaluate(CURRENT) == [READING[4][expected]] * 2, (key, expected)
    # Not while typing in a field: the control keeps the key.
    tab.get_by_label("阅读结论", exact=True).focus()
    tab.keyboard.press("j")
    assert tab.evaluate("() => document.querySelector('.prnotes-current').dataset.pr") == READING[4][0]
    assert tab.evaluate("() => document.activeElement.name") == "verdict"
    # Entries the filters hide are passed over.
    open_page(tab, served, f"notes/digests/003_s2.html?verdict={quote('按需')}")
    tab.keyboard.press("j")
    tab.keyboard.press("j")
    assert tab.evaluate(CURRENT) == [READING[4][3]] * 2
    # On a note page: 下一篇 and 上一篇, across the end of a digest.
    open_page(tab, served, "notes/sgl-project/sglang/pr-40207.html")
    with tab.expect_navigation(wait_until="load"):
        tab.keyboard.press("j")
    assert tab.url == served + "notes/vllm-project/vllm/pr-70105.html"
    with tab.expect_navigation(wait_until="load"):
        tab.keyboard.press("k")
    assert tab.url == served + "notes/sgl-project/sglang/pr-40207.html"
    with tab.expect_navigation(wait_until="load"):
        tab.keyboard.press("k")
    assert tab.url == served + "notes/sgl-project/sglang/pr-40206.html"
    # Turned off in the footer (WCAG 2.1.4), for the next page too; and on again.
    toggle = tab.get_by_role("button", name="j/k 快捷键：开")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.click()
    open_page(tab, served, "notes/digests/003_s2.html")
    assert tab.get_by_role("button", name="j/k 快捷键：关").get_attribute("aria-pressed") == "false"
    tab.keyboard.press("j")
    assert tab.evaluate("() => document.querySelector('.prnotes-current')") is None
    tab.get_by_role("button", name="j/k 快捷键：关").click()
    tab.locator("body").focus()
    tab.keyboard.press("j")
    assert tab.evaluate(CURRENT) == [READING[4][0]] * 2
    open_page(tab, served, "notes/sgl-project/sglang/pr-40206.html")
    # Not with a modifier, nor in the search dialog.
    tab.keyboard.press("Control+j")
    tab.keyboard.press("Control+k")
    tab.wait_for_selector("#pst-search-dialog[open]")
    tab.keyboard.type("jk")
    tab.wait_for_timeout(300)
    assert tab.url == served + "notes/sgl-project/sglang/pr-40206.html"


def test_the_end_of_a_digest_is_visible(browser, served, screenshots):
    context, guard = guarded_context(browser, viewport={"width": 390, "height": 844}, locale="zh-CN", reduced_motion="reduce")
    page = context.new_page()
    page.goto(served + "notes/sgl-project/sglang/pr-40207.html")
    page.wait_for_load_state("load")
    end = page.locator(".prnotes-digest-end")
    end.scroll_into_view_if_needed()
    assert end.is_visible() and end.inner_text() == "第 4 期到此读完"
    assert page.locator("a.right-next .prev-next-subtitle").inner_text() == "下一篇 · 上一期：第 3 期 · 2026-12-03"
    page.screenshot(path=str(screenshots / "follow-digest-end-390-light.png"), full_page=True)
    context.close()
    guard.check()


FIRST_ENTRY = """() => {
  const li = document.querySelector('ul.prnotes-list-today > li');
  return {title: li.querySelector('.prnotes-entry-title').getBoundingClientRect().top, bottom: li.getBoundingClientRect().bottom};
}"""


def test_a_phone_shows_the_first_note_first_reaches_the_colour_mode_and_searches_across_the_screen(browser, served, screenshots):
    w, h = WIDTHS["phone"]
    context, guard = guarded_context(browser, viewport={"width": w, "height": h}, locale="zh-CN", reduced_motion="reduce", has_touch=True)
    page = context.new_page()
    page.guard = guard
    returning(page, served)
    landing(page, served)
    first = page.evaluate(FIRST_ENTRY)
    # The first note of 今日, its title and first sentence, on the first screen; the count's line above it.
    assert 0 < first["title"] and first["bottom"] <= h, first
    page.screenshot(path=str(screenshots / f"follow-landing-first-screen-{w}-light.png"))
    # The colour mode is in the header, not at the end of the drawer.
    toggle = page.locator(".bd-header .theme-switch-button:visible")
    box = toggle.bounding_box()
    assert box and box["y"] + box["height"] <= 80 and box["x"] + box["width"] <= w and box["width"] >= 24 and box["height"] >= 24
    toggle.click()
    page.locator(".bd-header .theme-change-button[data-mode=dark]:visible").click()
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    # Search opens across the screen.
    page.locator(".bd-header .search-button__button:visible").click()
    page.wait_for_selector("#pst-search-dialog[open]")
    sizes = page.evaluate("""() => ({dialog: document.querySelector('#pst-search-dialog').getBoundingClientRect().width,
      field: document.querySelector('#pst-search-dialog form.bd-search').getBoundingClientRect().width})""")
    page.screenshot(path=str(screenshots / f"follow-search-{w}-dark.png"))
    context.close()
    guard.check()
    # The field (the form's box, the close button at its end) 95 % of the width, not 79 %.
    assert sizes["dialog"] >= w - 1 and sizes["field"] >= 0.95 * w, sizes


# Layout shift as Lighthouse's phone sees it, more or less: a slow CPU and a
# slow network, so that the page is drawn before its scripts have run.
CLS_INIT = """
window.__cls = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; })
  .observe({type: 'layout-shift', buffered: true});
"""
CLS_PAGES = {
    "landing": "index.html",
    "landing-unread": "index.html?unread=1",
    "unread": UNREAD_PAGE,
    "week": "notes/week/index.html",
    "digest": "notes/digests/003_s2.html",
    "subsystem": f"{MEM_CACHE}.html?verdict={quote('精读')}",
    "note": "notes/sgl-project/sglang/pr-40207.html",
}


@pytest.mark.parametrize("width", WIDTHS)
def test_the_pages_do_not_move_as_their_scripts_run(browser, served, width):
    w, h = WIDTHS[width]
    context, guard = guarded_context(browser, viewport={"width": w, "height": h}, locale="zh-CN")
    context.add_init_script(CLS_INIT)
    page = context.new_page()
    page.guard = guard
    returning(page, served)
    page.goto(served + "notes/sgl-project/sglang/pr-40204.html")  # read, so ?unread=1 hides it
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 90_000})
    shifts = {}
    for name, path in CLS_PAGES.items():
        page.goto(served + path)
        page.wait_for_load_state("load")
        page.wait_for_timeout(500)
        shifts[name] = round(page.evaluate("() => window.__cls"), 4)
    context.close()
    guard.check()
    assert {name: cls for name, cls in shifts.items() if cls > 0.1} == {}, shifts
