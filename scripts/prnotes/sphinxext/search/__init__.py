"""Search for the notes site: see :mod:`.language` and :mod:`.titles`."""

from __future__ import annotations

from sphinx.application import Sphinx

from . import titles
from .language import SearchPrnotes


def setup(app: Sphinx) -> None:
    app.add_search_language(SearchPrnotes)
    app.connect("doctree-resolved", titles.promote)
