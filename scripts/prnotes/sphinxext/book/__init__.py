"""The books: the PDF (LaTeX-only transforms and the style), the whole book
typeset alongside the HTML build, the links to the books, and the EPUB.
"""

from __future__ import annotations

from sphinx.application import Sphinx

MODULES = ("latex", "alongside", "pdflinks", "epub")


def setup_book(app: Sphinx) -> None:
    for module in MODULES:
        app.setup_extension(f"{__name__}.{module}")
