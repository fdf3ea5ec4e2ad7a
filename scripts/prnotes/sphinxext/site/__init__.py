"""What the published site holds beyond its pages: Atom feeds, the sitemap,
redirects of old addresses, pages unpublished when their source is gone,
and the build's measured speed-ups.
"""

from __future__ import annotations

from sphinx.application import Sphinx

MODULES = ("address", "feeds", "sitemap", "redirects", "stale", "speedups")


def setup_site(app: Sphinx) -> None:
    for module in MODULES:
        app.setup_extension(f"{__name__}.{module}")
