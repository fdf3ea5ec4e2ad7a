"""Search for the notes site: :mod:`.language` splits text and queries
(:mod:`.tokens`, with :mod:`.tradsimp` and the :mod:`.glossary`),
:mod:`.titles` ranks upstream titles as titles, :mod:`.derived` leaves
repeated lists and page furniture out and marks the advice for snippets,
:mod:`.indexfile` writes the index compactly; the indexer prunes with a
set (:mod:`..speedups`)."""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from ...diagnostics import InputError
from . import derived, glossary, indexfile, titles
from .language import SearchPrnotes


def setup(app: Sphinx) -> dict:
    try:
        glossary.load()  # a malformed glossary stops the build before it starts
    except InputError as exc:
        raise ExtensionError(f"the search glossary is malformed:\n{exc}") from None
    app.add_search_language(SearchPrnotes)
    app.connect("builder-inited", indexfile.use_utf8_index)
    app.connect("doctree-resolved", titles.promote)
    app.connect("doctree-resolved", derived.mark)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
