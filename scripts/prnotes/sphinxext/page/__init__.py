"""The page around a note: header and sidebar, the tab's title, section
anchors, the page's table of contents, code spans kept with the punctuation after
them, meta tags, icons and the files its head loads.
"""

from __future__ import annotations

from sphinx.application import Sphinx

MODULES = ("notepage", "pagetoc", "anchors", "punctuation", "metatags", "icons", "navigation", "assets")


def setup_page(app: Sphinx) -> None:
    for module in MODULES:
        app.setup_extension(f"{__name__}.{module}")
