"""The reader pages in headless Chromium, at desktop and phone widths.

For the landing page, a subsystem page, a note, the watch list and the symbol
index, at 1280 and 390 px: no element sticks out of the viewport to the right
(which is what makes a page scroll sideways), every internal link resolves to
a file and, for ``#fragment`` links, to an element of that page, and dark mode
really is dark. Screenshots (light and dark) go to the folder
``PRNOTES_SCREENSHOTS`` names (``make test``: ``_build/screenshots/``), else to
this run's temporary folder, for a person to look at.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from playwright import sync_api as playwright

from tests.support.searchbrowser import serve

CHROMIUM = Path("/usr/bin/chromium")
PAGES = {
    "landing": "index.html",
    "subsystem": "notes/subsystem/ci.html",
    "note": "notes/vllm-project/vllm/pr-52400.html",
    "watchlist": "notes/followups.html",
    "symbols": "notes/symbols.html",
}
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}

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
# and friends at the end of the line before.
LINE_START_JS = """
() => {
  const closing = '，。、；：！？）】」』”’》';
  const out = [];
  for (const block of document.querySelectorAll('article p, article li, article dd')) {
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    let prev = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect || rect.width === 0) continue;
        const ch = node.data[i];
        if (prev && rect.top > prev.top + prev.height / 2 && closing.includes(ch)) {
          out.push(`${ch} starts a line in: ${block.textContent.slice(0, 30)}`);
        }
        prev = rect;
      }
    }
  }
  return out;
}
"""


def _luminance(css_colour: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css_colour)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("width", list(WIDTHS))
def test_pages_fit_the_screen_and_links_resolve(served, browser, width, screenshots):
    outdir, base = served
    w, h = WIDTHS[width]
    problems: list[str] = []
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=scheme, locale="zh-CN")
        page = context.new_page()
        for name, path in PAGES.items():
            page.goto(base + path)
            page.wait_for_load_state("load")
            result = page.evaluate(OVERFLOW_JS)
            if result["scrollWidth"] > result["vw"] or result["overflowing"]:
                problems.append(f"{name} {width} {scheme}: scrollWidth {result['scrollWidth']} > {result['vw']}: "
                                f"{result['overflowing'][:5]}")
            if scheme == "light":
                hrefs = page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)")
                assert any(h.startswith(base) for h in hrefs), f"{name}: no internal links found"
                problems += broken_links(outdir, base, path, hrefs)
                problems += [f"{name} {width}: {p}" for p in page.evaluate(LINE_START_JS)]
            else:
                mode = page.evaluate("() => document.documentElement.dataset.theme")
                bg = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
                fg = page.evaluate("() => getComputedStyle(document.querySelector('article p, article li')).color")
                if mode != "dark" or _luminance(bg) > 0.25 or _luminance(fg) < 0.6:
                    problems.append(f"{name} {width}: not dark (theme={mode}, background {bg}, text {fg})")
            page.screenshot(path=str(screenshots / f"{name}-{w}-{scheme}.png"), full_page=True)
        context.close()
    assert problems == []


def test_the_checks_catch_what_they_look_for(served, browser):
    """A page made to scroll sideways, break a line before "，" and link nowhere."""
    outdir, base = served
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(base + PAGES["note"])
    page.evaluate(
        """() => {
        const p = document.querySelector('article p');
        p.insertAdjacentHTML('afterend',
          '<p style="line-break: anywhere">字' + '，'.repeat(100) + '</p>' +
          '<p><code style="white-space: nowrap">' + 'x'.repeat(200) + '</code></p>' +
          '<p><a href="no-such-page.html">x</a><a href="#no-such-anchor">y</a></p>');
      }"""
    )
    assert page.evaluate(OVERFLOW_JS)["overflowing"]
    assert any(p.startswith("，") for p in page.evaluate(LINE_START_JS))
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(a => a.href)")
    assert len(broken_links(outdir, base, PAGES["note"], hrefs)) == 2
    page.close()
