"""Make sphinx-sitemap list every page, in a stable order.

sphinx-sitemap collects the pages written in the current build, in the order
they were written. An incremental build writes only what changed, and parallel
writing shuffles the order, so its sitemap would miss pages and change between
identical builds. Just before it writes the file, :func:`complete` replaces
what it collected with every document of the site, sorted.
"""

from __future__ import annotations

import queue

from sphinx.application import Sphinx

from . import _compat


def complete(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or _compat.sitemap_queue(app) is None or app.builder.name != "html":
        return
    # A queue of this process: sphinx-sitemap's own is shared with the writing
    # processes, and every put and get on it is a round trip to another process.
    links: queue.Queue = queue.Queue()
    suffix = app.config.html_file_suffix or ".html"
    for docname in sorted(app.env.all_docs):
        link = docname + suffix
        if not _compat.sitemap_excluded(link, app.config.sitemap_excludes):
            links.put((link, None))
    _compat.set_sitemap_queue(app, links)


def setup(app: Sphinx) -> None:
    # Earlier than sphinx-sitemap's own build-finished handler (priority 500).
    app.connect("build-finished", complete, priority=400)
