"""Drive a built site's search page in headless Chromium (tests, benchmarks).

Serves the HTML output on 127.0.0.1 from a thread and opens
``search.html?q=...``, or types into the Ctrl+K dialog of a page, in the
Debian Chromium through Playwright, exactly as a reader's browser does; never
downloads a browser. Every tab is guarded (:mod:`.browserguard`): a
JavaScript error or an HTTP error fails the search that met it.
"""

from __future__ import annotations

import functools
import http.server
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

from tests.support.browserguard import TIMEOUT_MS, guarded_context

CHROMIUM = "/usr/bin/chromium"

# The search page (search/ui.js, PrnotesSearchPage) marks its results
# "done" once every result is listed; the snippets follow.
SEARCH_FINISHED = "() => document.getElementById('search-results')?.dataset.prnotesState === 'done'"
_FIRST = f"() => document.querySelector('#search-results ul.search > li') !== null || ({SEARCH_FINISHED[6:]})"


@dataclass(frozen=True)
class SearchResult:
    """One query as the search page answered it."""

    query: str
    docnames: tuple[str, ...]  # ranked, best first
    seconds: float  # navigation start to the last result on the page
    first_seconds: float  # navigation start to the first result (or the status line)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, cache_seconds: int = 0, **kwargs):
        self.cache_seconds = cache_seconds
        super().__init__(*args, **kwargs)

    def log_message(self, format, *args):  # noqa: A002 - the stdlib's name
        pass

    def handle(self):
        # A tab that navigates away drops the fetches of the page it left.
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass


class _CachingHandler(_QuietHandler):
    def end_headers(self) -> None:
        self.send_header("Cache-Control", f"max-age={self.cache_seconds}")
        super().end_headers()


def _start(root: Path, cache_seconds: int) -> tuple[http.server.ThreadingHTTPServer, threading.Thread, str]:
    handler = functools.partial(_CachingHandler if cache_seconds else _QuietHandler, directory=str(root), cache_seconds=cache_seconds)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread, f"http://127.0.0.1:{server.server_address[1]}/"


def serve_in_background(root: Path, cache_seconds: int = 0) -> str:
    """Serve ``root`` as :func:`serve` does, until the process ends; returns the base URL."""
    return _start(root, cache_seconds)[2]


@contextmanager
def serve(root: Path, cache_seconds: int = 0) -> Iterator[str]:
    """Serve ``root`` on a free port of 127.0.0.1; yields the base URL. With
    ``cache_seconds``, responses say ``Cache-Control: max-age=…``, as GitHub Pages' do."""
    server, thread, url = _start(root, cache_seconds)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def docname_of(href: str) -> str:
    """``notes/x/pr-1.html#anchor`` -> ``notes/x/pr-1``."""
    path = urlsplit(href).path.lstrip("/")
    return path.removesuffix(".html")


# The search page's own field: the query typed in, the form sent (ui.js
# searches without reloading the page, and keeps the query in the URL).
_SEARCH_AGAIN = """
(query) => {
  const form = document.querySelector(".bd-search-container form.bd-search");
  form.querySelector('input[name="q"]').value = query;
  form.requestSubmit();
}
"""


# The dialog's results (search.js's PrnotesDialog), without its last entry,
# which opens the search page.
DIALOG_RESULTS = "#prnotes-dialog-list > a.prnotes-dialog-result:not(.prnotes-dialog-all)"
# The dialog has listed its answer to what the field holds (ui.js marks
# the list with the query it answers).
_DIALOG_ANSWERED = (
    "() => { const list = document.getElementById('prnotes-dialog-list');"
    " const field = document.querySelector('#pst-search-dialog input[name=q]');"
    " return list !== null && field !== null && list.dataset.query === field.value.trim(); }"
)
# The search script has loaded, with the index's entry.
SCRIPT_LOADED = "() => typeof PrnotesSearch !== 'undefined' && PrnotesSearch.view !== null"
# In the page: when the dialog's first result appears after the time mark.
_WATCH_FIRST_RESULT = """
() => {
  window.__prnotesFirst = null;
  const list = document.getElementById("prnotes-dialog-list");
  const seen = new MutationObserver(() => {
    if (window.__prnotesFirst === null && list.querySelector("a.prnotes-dialog-result:not(.prnotes-dialog-all)")) {
      window.__prnotesFirst = performance.now();
      seen.disconnect();
    }
  });
  seen.observe(list, {childList: true});
  return performance.now();
}
"""


@dataclass(frozen=True)
class DialogResult:
    """One query as the Ctrl+K dialog answered it, before Enter."""

    query: str
    docnames: tuple[str, ...]  # ranked, best first
    milliseconds: float  # from the first keystroke to the first result, the search script loaded


class SearchPage:
    """A headless Chromium tab on a served site, with a :class:`Guard` on it."""

    def __init__(self, browser, base_url: str, timeout: float = TIMEOUT_MS, **options) -> None:
        self.browser = browser
        self.base_url = base_url
        self.timeout = timeout
        self.options = options
        self.context, self.guard = guarded_context(browser, timeout, **options)
        self.page = self.context.new_page()

    def fresh(self) -> None:
        """Replace the tab by one in a new browser context: empty cache, as a first visit."""
        self.guard.check()
        old = self.context
        self.context, self.guard = guarded_context(self.browser, self.timeout, **self.options)
        self.page = self.context.new_page()
        old.close()

    def close(self) -> None:
        self.context.close()
        self.guard.check()

    def search(self, query: str, *, again: bool = False) -> SearchResult:
        """Open ``search.html?q=<query>``; with ``again``, on a tab that shows
        the search page already, type the query into its field and press
        Enter instead, as a reader does with a second search."""
        start = time.perf_counter()
        if again and urlsplit(self.page.url).path.endswith("/search.html"):
            self.page.evaluate(_SEARCH_AGAIN, query)
        else:
            self.page.goto(f"{self.base_url}search.html?q={quote(query)}")
        self.guard.wait_for(self.page, _FIRST, self.timeout)
        first = time.perf_counter() - start
        self.guard.wait_for(self.page, SEARCH_FINISHED, self.timeout)
        seconds = time.perf_counter() - start
        hrefs = self.page.eval_on_selector_all("#search-results ul.search > li > a", "els => els.map(e => e.getAttribute('href'))")
        return SearchResult(query, tuple(docname_of(h) for h in hrefs), seconds, first)

    def open_dialog(self, path: str = "index.html") -> None:
        """Open ``path`` (unless the tab shows it) and the search dialog with Ctrl+K; wait for the search script."""
        if urlsplit(self.page.url).path.lstrip("/") != path:
            self.page.goto(self.base_url + path)
        if not self.page.evaluate("() => document.getElementById('pst-search-dialog').open"):
            self.page.keyboard.press("Control+k")
        self.guard.wait_for(self.page, "() => document.activeElement?.closest('#pst-search-dialog') !== null", self.timeout)
        self.guard.wait_for(self.page, SCRIPT_LOADED, self.timeout)

    def dialog_search(self, query: str, path: str = "index.html", *, typed: bool = True) -> DialogResult:
        """Type ``query`` into the dialog (replacing what it holds) and read
        the results it lists, without pressing Enter; ``typed=False`` puts
        it in at once, as a paste does."""
        self.open_dialog(path)
        field = self.page.locator("#pst-search-dialog input[name=q]")
        field.fill("")
        start = self.page.evaluate(_WATCH_FIRST_RESULT)
        if typed:
            field.press_sequentially(query)
        else:
            field.fill(query)
        self.guard.wait_for(self.page, f"() => document.querySelector('#pst-search-dialog input').value === {query!r}", self.timeout)
        self.guard.wait_for(self.page, _DIALOG_ANSWERED, self.timeout)
        hrefs = self.page.eval_on_selector_all(DIALOG_RESULTS, "els => els.map(e => e.href)")
        first = self.page.evaluate("() => window.__prnotesFirst")
        base = urlsplit(self.base_url).path
        names = tuple(docname_of(urlsplit(h).path.removeprefix(base)) for h in hrefs)
        return DialogResult(query, names, (first - start) if first is not None else float("nan"))

    def evaluate(self, script: str, arg=None):
        return self.page.evaluate(script, arg)


@contextmanager
def search_page(html_dir: Path, timeout: float = TIMEOUT_MS) -> Iterator[SearchPage]:
    """Serve ``html_dir`` and open a Chromium tab on it."""
    from playwright.sync_api import sync_playwright

    with serve(html_dir) as base_url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            tab = SearchPage(browser, base_url, timeout)
            yield tab
            tab.close()
        finally:
            browser.close()


def long_queries(n: int, seed: int = 0) -> dict[str, str]:
    """Queries of `n` characters: one long word, many short words (none of
    them the same, most unknown to the index), Chinese text, a mix with
    punctuation, identifiers and PR references."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = " ".join("".join(rng.choice(letters) for _ in range(rng.randint(2, 9))) for _ in range(n // 3))
    mixed = "vllm#52810 _fused_norm_rope_kernel, PR  52810（前缀缓存）x86_64/pull/ ; HTTPServer.get-top_k "
    shapes = {
        "one-word": "schedular" * n,
        "short-words": words,
        "chinese": "前缀缓存浅克隆的竞态投機解碼权重生命周期" * n,
        "mixed": mixed * n,
        "pr-spaces": "pr" + " " * (n - 3) + "x",
    }
    return {name: text[:n] for name, text in shapes.items()}


# Put `query` into the search page's field and send the form; resolves to the
# milliseconds (performance.now) from the submit to the results listed.
SUBMIT_TIMED = """(query) => new Promise((resolve) => {
  const out = document.getElementById("search-results");
  const form = document.querySelector(".bd-search-container form.bd-search");
  form.querySelector('input[name="q"]').value = query;
  const seen = new MutationObserver(() => {
    if (out.dataset.prnotesState !== "done") return;
    seen.disconnect();
    resolve(performance.now() - start);
  });
  seen.observe(out, {attributes: true, attributeFilter: ["data-prnotes-state"]});
  const start = performance.now();
  form.requestSubmit();
})"""

# The least of five runs of the stages of a search that read only the
# query's text (no index): its PR references and normalizing, its terms
# and words, its glossary phrases and the words missing from it, and the
# marks of a text of it for a fixed set of terms. Milliseconds.
TIME_TEXT_WORK = """(query) => {
  const matched = new Set(["前缀", "缓存", "竞态", "race", "kernel", "#52810", "sync"]);
  let least = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    prnotesTokens(query);
    prnotesTypedWords(query);
    prnotesQueryTerms(query, null);
    prnotesMissingWords(query, []);
    prnotesMarks(query, matched);
    least = Math.min(least, performance.now() - start);
  }
  return least;
}"""
