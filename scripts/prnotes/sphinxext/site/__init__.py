"""What the published site holds beyond its pages: Atom feeds, the sitemap,
redirects of old addresses, pages unpublished when their source is gone,
and the build's measured speed-ups.
"""

from __future__ import annotations

from sphinx.application import Sphinx

# The builders that make the web site: every feature of the published site
# (feeds, sitemap, meta tags, read marks, PDF links, redirects, unpublishing)
# asks web_site(), and no other question.
WEB_BUILDERS = ("html", "dirhtml")


def web_site(app: Sphinx) -> bool:
    """Whether this build makes the web site (not a book, not a single page)."""
    return app.builder.name in WEB_BUILDERS


MODULES = ("address", "feeds", "sitemap", "redirects", "stale", "speedups")


def setup_site(app: Sphinx) -> None:
    for module in MODULES:
        app.setup_extension(f"{__name__}.{module}")
