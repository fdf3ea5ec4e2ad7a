"""What a browser downloads for a page of a built site: every response, sized as a host sends it.

Serves the HTML output on 127.0.0.1 with ``Cache-Control: max-age=600`` (as
GitHub Pages does) and records, through the Chrome DevTools Protocol, every
request that reaches the server (one answered from the browser's cache is
left out). Each resource is sized as stored and as gzip (level 6) sends it:
the hosts compress text responses; fonts and images go as they are. Used by
``bench/pages.py`` (the table in BENCHMARKS.md) and the browser tests.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tests.support.searchbrowser import serve

CHROMIUM = "/usr/bin/chromium"
# Sent as they are: already compressed.
BINARY = (".woff2", ".woff", ".png", ".jpg", ".gif", ".ico")


@dataclass(frozen=True)
class Resource:
    path: str  # relative to the site
    kind: str  # Chromium's resource type: document, stylesheet, script, font, image, fetch
    raw: int
    sent: int  # gzip level 6 for text, the file itself for fonts and images

    @classmethod
    def of(cls, outdir: Path, path: str, kind: str) -> "Resource":
        body = (outdir / path).read_bytes()
        sent = len(body) if path.endswith(BINARY) else len(gzip.compress(body, 6, mtime=0))
        return cls(path, kind, len(body), sent)


def fetched(page, action) -> list[tuple[str, str]]:
    """(url, resource type) of every request that reached the server during ``action``
    (Chrome DevTools Protocol: a request answered from the browser's cache is left out)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
    requests: dict[str, tuple[str, str]] = {}
    cached: set[str] = set()
    finished: set[str] = set()
    cdp.on("Network.requestWillBeSent", lambda e: requests.__setitem__(e["requestId"], (e["request"]["url"], e.get("type", ""))))
    cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
    cdp.on(
        "Network.responseReceived",
        lambda e: cached.add(e["requestId"]) if e["response"].get("fromDiskCache") or e["response"].get("fromPrefetchCache") else None,
    )
    cdp.on("Network.loadingFinished", lambda e: finished.add(e["requestId"]))
    action()
    page.wait_for_load_state("networkidle")
    cdp.detach()
    return [requests[r] for r in sorted(finished) if r in requests and r not in cached]


@dataclass(frozen=True)
class Visit:
    """A first visit to a page and a second page after it, by its 下一篇 link."""

    first: tuple[Resource, ...]  # every response of the first page, empty cache
    then: tuple[Resource, ...]  # what the second page fetched that was not in the cache
    second: str  # the second page, relative to the site

    def sent(self, which: tuple[Resource, ...]) -> int:
        return sum(r.sent for r in which)


def _resources(outdir: Path, base: str, found: list[tuple[str, str]]) -> tuple[Resource, ...]:
    out = []
    for url, kind in found:
        if not url.startswith(base):
            continue
        path = unquote(urlsplit(url).path).lstrip("/")
        out.append(Resource.of(outdir, path or "index.html", kind.lower()))
    return tuple(sorted(out, key=lambda r: (r.kind != "document", -r.sent, r.path)))


def visit_and_follow(context, outdir: Path, base: str, first: str) -> Visit:
    """In ``context`` (a fresh browser context: its cache is empty), open
    ``first`` from the site served at ``base``, then follow its 下一篇."""
    page = context.new_page()
    one = _resources(outdir, base, fetched(page, lambda: page.goto(base + first)))
    second = page.eval_on_selector("a.right-next", "a => a.getAttribute('href')")
    two = _resources(outdir, base, fetched(page, lambda: page.click("a.right-next")))
    page.close()
    return Visit(one, two, (Path(first).parent / second).as_posix())


def measure(outdir: Path, first: str) -> Visit:
    """:func:`visit_and_follow` in headless Chromium at a phone's size."""
    from playwright.sync_api import sync_playwright

    with serve(outdir, cache_seconds=600) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
            visit = visit_and_follow(context, outdir, base, first)
            context.close()
        finally:
            browser.close()
    return visit
