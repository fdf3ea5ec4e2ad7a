"""Lists of notes on hub pages, filled from the notes' facts when a page is
written, with their filters and read marks.
"""

from __future__ import annotations

from sphinx.application import Sphinx

MODULES = ("fill", "filters", "readmarks")


def setup_lists(app: Sphinx) -> None:
    for module in MODULES:
        app.setup_extension(f"{__name__}.{module}")
