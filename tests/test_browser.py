"""The reader pages in headless Chromium, at desktop and phone widths.

One page of each kind (``tests.support.pagechecks.PAGES``: the landing page,
a subsystem page, a note, a digest, the search page with results, the watch
list, the symbol index and the PR index) is opened once at 1280 and 390 px,
light and dark, and checked: no element sticks out of the viewport to the
right (which is what makes a page scroll sideways), every internal link
resolves to a file and, for ``#fragment`` links, to an element of that page,
no line starts with closing punctuation, no PR number breaks over two lines,
dark mode really is dark, and axe-core reports no violation. The header shows the reader tools at 1280 px, and the
phone's drawer lists each entry once. Screenshots (light and dark) go to
the folder ``PRNOTES_SCREENSHOTS`` names (``make test``: ``_build/screenshots/``),
else to this run's temporary folder, for a person to look at.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from playwright import sync_api as playwright

from tests.support.browserguard import BrowserProblems, guarded_context
from tests.support.pagechecks import PAGES, axe_violations
from tests.support.searchbrowser import SEARCH_FINISHED, serve

CHROMIUM = Path("/usr/bin/chromium")
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
SCHEMES = ("light", "dark")

# What makes a page scroll sideways: an element whose right edge passes the
# viewport (unless an ancestor hides what sticks out: overflow hidden or clip),
# or a box that scrolls horizontally itself (overflow auto or scroll).
OVERFLOW_JS = """
() => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  const name = (el) => `${el.tagName.toLowerCase()}.${String(el.className).trim().replace(/\\s+/g, '.')}`;
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
    if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${name(el)} scrolls: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    // Text wider than its own block (a long word in a title): cut off where an ancestor clips it.
    if (el.matches('article h1, article h2, article h3, article p, article li, article dd') &&
        style.overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${name(el)} text overflows: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    if (r.right <= vw + 1) continue;
    let hidden = false;
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      if (['hidden', 'clip'].includes(getComputedStyle(a).overflowX) && a.getBoundingClientRect().right <= vw + 1) {
        hidden = true;
        break;
      }
    }
    if (!hidden) out.push(`${name(el)} right=${Math.round(r.right)} > ${vw}`);
  }
  return {vw, scrollWidth: document.documentElement.scrollWidth, overflowing: out};
}
"""


@pytest.fixture(scope="module")
def served(built_site):
    outdir = built_site[0] / "_build" / "html"
    with serve(outdir) as base:
        yield outdir, base


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `scripts/bootstrap.sh apt browser`")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@functools.cache
def _ids(path: Path) -> frozenset[str]:
    return frozenset(re.findall(r'\bid="([^"]+)"', path.read_text(encoding="utf-8")))


def broken_links(outdir: Path, base: str, page: str, hrefs: list[str]) -> list[str]:
    """Internal links that lead to no file, or to no element with that id."""
    broken = []
    for href in sorted(set(hrefs)):
        if not href.startswith(base):
            continue  # GitHub, and other sites
        parts = urlsplit(href)
        target = outdir / unquote(parts.path.removeprefix(urlsplit(base).path))
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            broken.append(f"{page}: {href} (no such file)")
        elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _ids(target):
            broken.append(f"{page}: {href} (no such anchor)")
    return broken


# Lines that begin with closing punctuation: Chinese typography keeps ，。）
# and friends at the end of the line before. Only the closing characters are
# measured, each against the nearest character before it that has a box.
LINE_START_JS = """
() => {
  const closing = '，。、；：！？）】」』”’》';
  const out = [];
  const box = (node, i) => {
    const range = document.createRange();
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const rect = range.getClientRects()[0];
    return rect && rect.width !== 0 ? rect : null;
  };
  // The box of the nearest character before character i of nodes[n] that has one.
  const boxBefore = (nodes, n, i) => {
    for (; n >= 0; n--, i = n >= 0 ? nodes[n].length : 0) {
      for (let j = i - 1; j >= 0; j--) {
        const rect = box(nodes[n], j);
        if (rect) return rect;
      }
    }
    return null;
  };
  for (const block of document.querySelectorAll('article p, article li, article dd')) {
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
    nodes.forEach((node, n) => {
      for (let i = 0; i < node.length; i++) {
        if (!closing.includes(node.data[i])) continue;
        const rect = box(node, i);
        if (!rect) continue;
        const prev = boxBefore(nodes, n, i);
        if (prev && rect.top > prev.top + prev.height / 2) {
          out.push(`${node.data[i]} starts a line in: ${block.textContent.slice(0, 30)}`);
        }
      }
    });
  }
  return out;
}
"""


# PR and issue numbers (#52822, owner/repo#52822) split over two lines.
BROKEN_NUMBERS_JS = """
() => [...document.querySelectorAll('.prnotes-pr, .prnotes-issue')]
  .filter(el => new Set([...el.getClientRects()].map(r => Math.round(r.top))).size > 1)
  .map(el => el.textContent)
"""


def _luminance(css_colour: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css_colour)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@dataclass(frozen=True)
class Visit:
    """What one page showed at one width in one colour scheme."""

    page: str  # the file, relative to the site
    overflow: dict
    hrefs: tuple[str, ...]
    line_starts: tuple[str, ...]
    theme: str
    background: str
    text: str
    axe: tuple[str, ...]
    broken_numbers: tuple[str, ...]


def _new_context(browser, width: str, scheme: str):
    """A guarded context (tests.support.browserguard): a JavaScript or HTTP
    error on any page it opens fails the test."""
    w, h = WIDTHS[width]
    # Reduced motion: the theme's colour transitions are over before the
    # checks and the screenshot look at the page.
    context, guard = guarded_context(
        browser, viewport={"width": w, "height": h}, color_scheme=scheme, reduced_motion="reduce", locale="zh-CN"
    )
    context.guard = guard
    return context


def _open(page, outdir: Path, base: str, name: str) -> str:
    path = PAGES[name].url(outdir)
    page.goto(base + path)
    page.wait_for_load_state("load")
    guard = page.context.guard
    if name == "search":
        guard.wait_for(page, SEARCH_FINISHED, polling=50)
        # The snippets, with their marked words, arrive after the list.
        guard.wait_for(page, "() => [...document.querySelectorAll('#search-results ul.search > li')].every(li => li.querySelector('p.context'))")
    guard.check()
    return path


def visit(page, path: str, text: str) -> Visit:
    """What the checks read of the open page (``text``: the selector of its body text)."""
    return Visit(
        page=path,
        overflow=page.evaluate(OVERFLOW_JS),
        hrefs=tuple(page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)")),
        line_starts=tuple(page.evaluate(LINE_START_JS)),
        theme=page.evaluate("() => document.documentElement.dataset.theme"),
        background=page.evaluate("() => getComputedStyle(document.body).backgroundColor"),
        text=page.evaluate("(selector) => getComputedStyle(document.querySelector(selector)).color", text),
        axe=tuple(axe_violations(page)),
        broken_numbers=tuple(page.evaluate(BROKEN_NUMBERS_JS)),
    )


@pytest.fixture(scope="module")
def visits(served, browser, screenshots) -> dict[tuple[str, str, str], Visit]:
    """Every page kind at every width in both schemes, each opened once;
    the screenshots are taken here."""
    outdir, base = served
    found = {}
    for width in WIDTHS:
        for scheme in SCHEMES:
            context = _new_context(browser, width, scheme)
            page = context.new_page()
            for name in PAGES:
                path = _open(page, outdir, base, name)
                found[name, width, scheme] = visit(page, path, "article p, article li, main p, main li")
                page.screenshot(path=str(screenshots / f"{name}-{WIDTHS[width][0]}-{scheme}.png"), full_page=True)
            context.close()
    return found


def test_pages_fit_the_screen(visits):
    problems = [
        f"{name} {width} {scheme}: scrollWidth {v.overflow['scrollWidth']} > {v.overflow['vw']}: {v.overflow['overflowing'][:5]}"
        for (name, width, scheme), v in visits.items()
        if v.overflow["scrollWidth"] > v.overflow["vw"] or v.overflow["overflowing"]
    ]
    assert problems == []


def test_internal_links_resolve(served, visits):
    outdir, base = served
    problems = []
    for (name, width, scheme), v in visits.items():
        if scheme == "light":
            assert any(h.startswith(base) for h in v.hrefs), f"{name}: no internal links found"
            problems += broken_links(outdir, base, v.page, list(v.hrefs))
    assert problems == []


def test_no_line_starts_with_closing_punctuation(visits):
    problems = [f"{name} {width}: {p}" for (name, width, scheme), v in visits.items() if scheme == "light" for p in v.line_starts]
    assert problems == []


def test_pr_numbers_stay_on_one_line(visits):
    problems = [f"{name} {width}: {n}" for (name, width, scheme), v in visits.items() for n in v.broken_numbers]
    assert problems == []


def test_dark_mode_is_dark(visits):
    problems = [
        f"{name} {width}: not dark (theme={v.theme}, background {v.background}, text {v.text})"
        for (name, width, scheme), v in visits.items()
        if scheme == "dark" and (v.theme != "dark" or _luminance(v.background) > 0.25 or _luminance(v.text) < 0.6)
    ]
    assert problems == []


def test_axe_reports_no_violation(visits):
    """axe-core's default rules (WCAG 2.x A and AA, and best practices) on
    every page kind, light and dark, desktop and phone."""
    assert len(visits) == len(PAGES) * len(WIDTHS) * len(SCHEMES)
    problems = [f"{name} {width} {scheme}: {line}" for (name, width, scheme), v in visits.items() for line in v.axe]
    assert problems == []


def test_screenshots_are_written(visits, screenshots):
    expected = {f"{name}-{w}-{scheme}.png" for name in PAGES for w, _ in WIDTHS.values() for scheme in SCHEMES}
    assert expected <= {p.name for p in screenshots.glob("*.png")}


# The header at 1280 px: what a reader sees without opening a menu.
HEADER_JS = """
() => {
  const vw = document.documentElement.clientWidth;
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= vw; };
  const items = [...document.querySelectorAll('.bd-header .navbar-header-items__center .navbar-nav > li')];
  return items.filter(shown).map(li => ({
    text: li.querySelector(':scope > a, :scope > button').textContent.trim(),
    menu: li.querySelector(':scope > .dropdown-menu') ? [...li.querySelectorAll('.dropdown-menu a')].map(a => a.textContent.trim()) : null,
  }));
}
"""

TOOLS = ["摘要归档", "本周", "阅读清单", "跟进清单", "代码符号索引", "标签", "PR 索引"]
def test_header_shows_the_reader_tools_and_a_subsystem_menu(served, browser, site):
    outdir, base = served
    context = _new_context(browser, "desktop", "light")
    page = context.new_page()
    _open(page, outdir, base, "note")
    items = page.evaluate(HEADER_JS)
    context.close()
    assert [i["text"] for i in items] == ["子系统", *TOOLS]
    assert items[0]["menu"] == [s.title for s in site.subsystems if site.in_subsystem(s.key)]
    assert all(i["menu"] is None for i in items[1:])


DRAWER_JS = """
() => [...document.querySelectorAll('#pst-primary-sidebar-modal a, #pst-primary-sidebar-modal .prnotes-sidenav__caption')]
  .filter(el => el.getClientRects().length > 0)
  .map(el => el.textContent.trim())
"""


@pytest.mark.parametrize("name", ["landing", "note"])
def test_the_phone_drawer_lists_each_entry_once(served, browser, name, site):
    outdir, base = served
    context = _new_context(browser, "phone", "light")
    page = context.new_page()
    _open(page, outdir, base, name)
    page.click("button.primary-toggle")
    page.wait_for_selector("#pst-primary-sidebar-modal[open]")
    entries = page.evaluate(DRAWER_JS)
    violations = axe_violations(page)
    context.close()
    subsystems = [s.title for s in site.subsystems if site.in_subsystem(s.key)]
    counts = {entry: entries.count(entry) for entry in ("子系统", *subsystems, *TOOLS)}
    assert counts == dict.fromkeys(counts, 1), entries
    assert violations == []


def test_the_checks_catch_what_they_look_for(served, browser):
    """A page made to scroll sideways, break a line before "，", link nowhere,
    hold an image without a text alternative and break a PR number."""
    outdir, base = served
    page = _new_context(browser, "phone", "light").new_page()
    path = _open(page, outdir, base, "note")
    page.evaluate(
        """() => {
        const p = document.querySelector('article p');
        p.insertAdjacentHTML('afterend',
          '<p style="line-break: anywhere">字' + '，'.repeat(100) + '</p>' +
          '<p><code style="white-space: nowrap">' + 'x'.repeat(200) + '</code></p>' +
          '<p><a href="no-such-page.html">x</a><a href="#no-such-anchor">y</a></p>' +
          '<p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></p>');
      }"""
    )
    assert page.evaluate(OVERFLOW_JS)["overflowing"]
    assert any(p.startswith("，") for p in page.evaluate(LINE_START_JS))
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)")
    assert len(broken_links(outdir, base, path, hrefs)) == 2
    assert any(v.startswith("image-alt ") for v in axe_violations(page))
    page.add_style_tag(content=".bd-article .prnotes-pr { white-space: normal; word-break: break-all; }")
    page.evaluate("() => { for (const el of document.querySelectorAll('.prnotes-pr')) el.textContent = 'vllm-project/vllm' + el.textContent.repeat(4); }")
    assert page.evaluate(BROKEN_NUMBERS_JS)
    page.context.close()


@pytest.mark.parametrize(
    "injected, expected",
    [
        ("<script>throw new Error('injected failure')</script>", "pageerror: injected failure"),
        ("<script>console.error('injected complaint')</script>", "console.error: injected complaint"),
        ('<img src="no-such-image.png" alt="x">', "HTTP 404"),
    ],
    ids=["throws", "console-error", "missing-asset"],
)
def test_the_guard_fails_a_page_with_a_javascript_or_http_error(served, browser, injected, expected):
    """The check every browser test runs (tests.support.browserguard) fails
    on a fixture page made to throw, log an error or load a missing file."""
    outdir, base = served
    context = _new_context(browser, "desktop", "light")
    page = context.new_page()

    def broken(route):
        body = route.fetch().text().replace("</head>", f"{injected}</head>", 1)
        route.fulfill(body=body, content_type="text/html")

    page.route("**/pr-52400.html", broken)
    with pytest.raises(BrowserProblems) as failure:
        _open(page, outdir, base, "note")
    context.close()
    assert expected in str(failure.value)
    # The same page without the injection passes.
    context = _new_context(browser, "desktop", "light")
    _open(context.new_page(), outdir, base, "note")
    context.close()


# --- the reader's morning (tests/roots/morning, dated by git) -----------------
# Four digests over three days, two on the newest day: 今日 on the landing
# page, and 下一篇 through every note.

from tests.support.morning import morning_project  # noqa: E402
from tests.support.pageweight import visit_and_follow  # noqa: E402
from tests.support.sandbox import convert, sphinx_build  # noqa: E402

MORNING_PAGES = {
    "landing": "index.html",
    "note": "notes/sgl-project/sglang/pr-3011.html",
    "digest": "notes/digests/003_9c0ffe.html",
}


@pytest.fixture(scope="module")
def morning_served(tmp_path_factory):
    proj = morning_project(tmp_path_factory.mktemp("morning") / "p")
    assert convert(proj) == 0
    app = sphinx_build(proj, freshenv=True)
    assert app.warning.getvalue() == ""
    outdir = proj / "_build" / "html"
    with serve(outdir) as base:
        yield outdir, base


# The entries of 今日 as the reader sees them: where each one's title is, and what it links to.
TODAY_JS = """
() => [...document.querySelectorAll('ul.prnotes-list-today > li')].map(li => {
  const title = li.querySelector('.prnotes-entry-title');
  const r = title.getBoundingClientRect();
  return {href: title.querySelector('a.reference.internal').getAttribute('href'),
          verdict: title.querySelector('.sd-badge').textContent.trim(),
          top: r.top, bottom: r.bottom, summaryBottom: li.lastElementChild.getBoundingClientRect().bottom};
})
"""


@pytest.mark.parametrize("width", list(WIDTHS))
def test_today_is_the_newest_days_notes_in_verdict_order_first_on_the_first_screen(morning_served, browser, width):
    outdir, base = morning_served
    context = _new_context(browser, width, "light")
    page = context.new_page()
    page.goto(base + "index.html")
    entries = page.evaluate(TODAY_JS)
    height = WIDTHS[width][1]
    context.close()
    assert [e["verdict"] for e in entries] == ["精读", "精读", "速读", "速读", "按需", "未注明"]
    assert [e["href"].rsplit("/", 1)[1] for e in entries] == [
        "pr-61003.html", "pr-3011.html", "pr-61004.html", "pr-3010.html", "pr-61005.html", "pr-3012.html"]  # fmt: skip
    # The first entry, title and first sentence, without scrolling.
    assert 0 < entries[0]["top"] and entries[0]["summaryBottom"] <= height, entries[0]


def test_following_next_visits_every_note_newest_digest_first(morning_served, browser):
    """A reader on a phone taps 下一篇 from the newest digest's first note to the oldest note."""
    outdir, base = morning_served
    context = _new_context(browser, "phone", "light")
    page = context.new_page()
    page.goto(base + "index.html")
    # The digest page's first entry is where 今日's 第 4 期 starts.
    # A click returns once the navigation starts: each waits for the next page's load.
    with page.expect_navigation(wait_until="load"):
        page.click("p.prnotes-today-lead a:last-of-type")
    with page.expect_navigation(wait_until="load"):
        page.click("ul.prnotes-list-notes > li:first-child .prnotes-entry-title a.reference.internal")
    visited = []
    for _ in range(20):
        visited.append(page.url.removeprefix(base))
        nxt = page.locator("a.right-next")
        if nxt.count() == 0:
            break
        # At a digest's end it names the digest before: 下一篇 · 上一期：第 3 期 · 2026-11-09.
        assert nxt.locator(".prev-next-subtitle").inner_text().startswith("下一篇")
        with page.expect_navigation(wait_until="load"):
            nxt.click()
    context.guard.check()
    context.close()
    assert [v.rsplit("/", 1)[1] for v in visited] == [
        "pr-3011.html", "pr-3010.html", "pr-3012.html",  # 第 4 期: 精读, 速读, 未注明
        "pr-61003.html", "pr-61004.html", "pr-61005.html",  # 第 3 期: 精读, 速读, 按需
        "pr-3001.html", "pr-3002.html",  # 第 2 期
        "pr-61001.html", "pr-61002.html",  # 第 1 期
    ]  # fmt: skip


@pytest.fixture(scope="module")
def morning_visits(morning_served, browser, screenshots) -> dict[tuple[str, str, str], Visit]:
    """The morning site's landing, note and digest pages at both widths in both
    schemes: checked like the fixture's pages, and photographed (``morning-<kind>-<width>-<scheme>.png``)."""
    outdir, base = morning_served
    found = {}
    for width in WIDTHS:
        for scheme in SCHEMES:
            context = _new_context(browser, width, scheme)
            page = context.new_page()
            for name, path in MORNING_PAGES.items():
                page.goto(base + path)
                page.wait_for_load_state("load")
                context.guard.check()
                found[name, width, scheme] = visit(page, path, "article p")
                page.screenshot(path=str(screenshots / f"morning-{name}-{WIDTHS[width][0]}-{scheme}.png"), full_page=True)
            context.close()
    return found


def test_the_morning_pages_pass_every_page_check(morning_served, morning_visits, screenshots):
    outdir, base = morning_served
    expected = {f"morning-{name}-{w}-{scheme}.png" for name in MORNING_PAGES for w, _ in WIDTHS.values() for scheme in SCHEMES}
    assert expected <= {p.name for p in screenshots.glob("morning-*.png")}
    problems = []
    for (name, width, scheme), v in morning_visits.items():
        where = f"{name} {width} {scheme}"
        if v.overflow["scrollWidth"] > v.overflow["vw"] or v.overflow["overflowing"]:
            problems.append(f"{where}: sideways: {v.overflow['overflowing'][:5]}")
        problems += [f"{where}: {line}" for line in (*v.axe, *v.line_starts, *v.broken_numbers)]
        if scheme == "dark" and (v.theme != "dark" or _luminance(v.background) > 0.25):
            problems.append(f"{where}: not dark")
        if scheme == "light":
            problems += broken_links(outdir, base, v.page, list(v.hrefs))
    assert problems == []


# Targets too small to tap: axe-core's target-size rule (WCAG 2.2, 2.5.8, 24 × 24 px
# or that much space around), which its default run leaves out; and the size of each
# GitHub mark beside a PR in a list, checked on its own.
_TARGET_SIZE = """
async () => {
  const result = await axe.run(document, {runOnly: {type: 'rule', values: ['target-size']}, resultTypes: ['violations']});
  return result.violations.flatMap(v => v.nodes.map(n => `${v.id}: ${n.target.join(' ')}: ${n.failureSummary.replace(/\\s+/g, ' ')}`));
}
"""
SMALL_MARKS_JS = """
() => [...document.querySelectorAll('a.prnotes-gh')].map(a => a.getBoundingClientRect())
  .filter(r => r.width > 0 && (r.width < 24 || r.height < 24)).map(r => `${r.width}x${r.height}`)
"""


def small_targets(page) -> list[str]:
    axe_violations(page)  # injects axe-core
    return [*page.evaluate(_TARGET_SIZE), *(f"a.prnotes-gh {size}" for size in page.evaluate(SMALL_MARKS_JS))]


@pytest.mark.parametrize("width", list(WIDTHS))
def test_every_tap_target_is_at_least_24_px(morning_served, browser, width):
    outdir, base = morning_served
    context = _new_context(browser, width, "light")
    page = context.new_page()
    problems = []
    for name, path in MORNING_PAGES.items():
        page.goto(base + path)
        page.wait_for_load_state("load")
        assert page.evaluate("() => document.querySelectorAll('a.prnotes-gh').length") or name != "note", name
        problems += [f"{name}: {p}" for p in small_targets(page)]
    context.guard.check()
    context.close()
    assert problems == []


def test_the_tap_target_check_finds_a_small_mark(morning_served, browser):
    outdir, base = morning_served
    context = _new_context(browser, "phone", "light")
    page = context.new_page()
    page.goto(base + MORNING_PAGES["note"])
    page.add_style_tag(content=".bd-article a.prnotes-gh { width: 13px !important; height: 19px !important; margin: 0 !important; }")
    page.evaluate("""() => document.querySelector('article').insertAdjacentHTML('afterbegin',
      '<button style="width:10px;height:10px;padding:0">x</button><button style="width:10px;height:10px;padding:0">y</button>')""")
    found = small_targets(page)
    context.close()
    assert any(f.startswith("a.prnotes-gh 13x19") for f in found), found
    assert sum(f.startswith("target-size: article > button") for f in found) == 2, found


ADVICE_JS = """
() => {
  const first = document.querySelector('section#阅读建议 > p');
  const range = document.createRange();
  range.selectNodeContents(first);
  const line = range.getClientRects()[0];
  return {top: line.top, bottom: line.bottom, github: document.querySelector('a.prnotes-github').getBoundingClientRect().bottom};
}
"""


@pytest.mark.parametrize("path", [MORNING_PAGES["note"], "notes/vllm-project/vllm/pr-61003.html", "notes/vllm-project/vllm/pr-61004.html"])
def test_a_notes_advice_starts_on_the_first_phone_screen(morning_served, browser, path):
    outdir, base = morning_served
    context = _new_context(browser, "phone", "light")
    page = context.new_page()
    page.goto(base + path)
    found = page.evaluate(ADVICE_JS)
    title = page.title()
    context.guard.check()
    context.close()
    assert 0 < found["github"] < found["top"] and found["bottom"] <= WIDTHS["phone"][1], found
    assert "#" in title and "/" in title  # the tab names owner/repo#N


def test_a_first_visit_is_light_and_the_next_note_lighter(morning_served, browser):
    """Every response of a first visit to a note page, as gzip sends it, within
    200 KB; the next note within 40 KB more; no icon font or FontAwesome script
    (bench/pages.py prints the table, BENCHMARKS.md "Page weight")."""
    outdir, base = morning_served
    context = _new_context(browser, "phone", "light")
    visit = visit_and_follow(context, outdir, base, MORNING_PAGES["note"])
    context.guard.check()
    context.close()
    paths = [r.path for r in (*visit.first, *visit.then)]
    assert [p for p in paths if p.endswith((".woff2", ".woff", ".ttf")) or "fontawesome" in p] == []
    assert not [p for p in paths if "_search/" in p or "searchindex" in p]  # the search loads when a search starts
    assert visit.first[0].path == MORNING_PAGES["note"] and visit.then[0].path == visit.second
    assert visit.sent(visit.first) <= 200 * 1024, [(r.path, r.sent) for r in visit.first]
    assert visit.sent(visit.then) <= 40 * 1024, [(r.path, r.sent) for r in visit.then]
