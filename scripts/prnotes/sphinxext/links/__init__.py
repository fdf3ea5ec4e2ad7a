"""Links between pages: PR references resolved to note pages, linking
badges, previous/next through the stream, 相似笔记, and links to pages
another build of the archive's volumes holds.
"""

from __future__ import annotations

from sphinx.application import Sphinx

MODULES = ("prlinks", "volumes", "badgerefs", "prevnext", "similar")


def setup_links(app: Sphinx) -> None:
    for module in MODULES:
        app.setup_extension(f"{__name__}.{module}")
