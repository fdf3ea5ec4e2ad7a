"""What the published site holds beyond its pages: Atom feeds, the sitemap,
redirects of old addresses, pages unpublished when their source is gone,
and the build's measured speed-ups.
"""

from __future__ import annotations

from sphinx.application import Sphinx

from .. import _internals
from ..search.language import Utf8JavaScriptIndex
from .speedups import Processes

# The builders that make the web site: every feature of the published site
# (feeds, sitemap, meta tags, read marks, PDF links, redirects, unpublishing)
# asks web_site(), and no other question.
WEB_BUILDERS = ("html", "dirhtml")


def web_site(app: Sphinx) -> bool:
    """Whether this build makes the web site (not a book, not a single page)."""
    return app.builder.name in WEB_BUILDERS


MODULES = ("address", "feeds", "sitemap", "redirects", "stale", "speedups")


def setup_site(app: Sphinx) -> None:
    # The web site's builders: searchindex.js in UTF-8, not \u escapes, and
    # the processes of a batch chosen by the speed-ups.
    for builder in _internals.html_builders(Processes, indexer_format=Utf8JavaScriptIndex()):
        app.add_builder(builder, override=True)
    for module in MODULES:
        app.setup_extension(f"{__name__}.{module}")
