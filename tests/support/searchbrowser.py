"""Drive a built site's search page in headless Chromium (tests, benchmarks).

Serves the HTML output on 127.0.0.1 from a thread and opens
``search.html?q=...`` in the Debian Chromium through Playwright, exactly as a
reader's browser does; never downloads a browser.
"""

from __future__ import annotations

import functools
import http.server
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

CHROMIUM = "/usr/bin/chromium"

# searchtools.js writes the status line (empty until then) when the last
# result is on the page. Its progress dots are no sign: a pending tick of
# their timer can restart them after the search stopped them.
SEARCH_FINISHED = "() => typeof Search !== 'undefined' && Search.status && Search.status.innerText !== ''"
_FIRST = f"() => document.querySelector('#search-results ul.search > li') !== null || ({SEARCH_FINISHED[6:]})"


@dataclass(frozen=True)
class SearchResult:
    """One query as the search page answered it."""

    query: str
    docnames: tuple[str, ...]  # ranked, best first
    seconds: float  # navigation start to the last result on the page
    first_seconds: float  # navigation start to the first result (or the status line)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's name
        pass


@contextmanager
def serve(root: Path) -> Iterator[str]:
    """Serve ``root`` on a free port of 127.0.0.1; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def docname_of(href: str) -> str:
    """``notes/x/pr-1.html#anchor`` -> ``notes/x/pr-1``."""
    path = urlsplit(href).path
    return path.removesuffix(".html")


class SearchPage:
    """A headless Chromium tab on a served site's search page."""

    def __init__(self, browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.page = browser.new_page()

    def fresh(self) -> None:
        """Replace the tab by one in a new browser context: empty cache, as a first visit."""
        old, self.page = self.page, self.browser.new_page()
        old.context.close()

    def search(self, query: str) -> SearchResult:
        start = time.perf_counter()
        self.page.goto(f"{self.base_url}search.html?q={quote(query)}")
        self.page.wait_for_function(_FIRST, timeout=120_000, polling=10)
        first = time.perf_counter() - start
        self.page.wait_for_function(SEARCH_FINISHED, timeout=120_000, polling=10)
        seconds = time.perf_counter() - start
        hrefs = self.page.eval_on_selector_all("#search-results ul.search > li > a", "els => els.map(e => e.getAttribute('href'))")
        return SearchResult(query, tuple(docname_of(h) for h in hrefs), seconds, first)

    def evaluate(self, script: str, arg=None):
        return self.page.evaluate(script, arg)


@contextmanager
def search_page(html_dir: Path) -> Iterator[SearchPage]:
    """Serve ``html_dir`` and open a Chromium tab on it."""
    from playwright.sync_api import sync_playwright

    with serve(html_dir) as base_url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield SearchPage(browser, base_url)
        finally:
            browser.close()
