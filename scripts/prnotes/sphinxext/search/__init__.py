"""Search for the notes site.

Indexing: :mod:`.language` splits text (:mod:`.tokens`, with :mod:`.tradsimp`
and the :mod:`.glossary`) and writes Sphinx's whole index compactly (the
web site's builders take its format: :mod:`..site`),
:mod:`.titles` ranks upstream titles as titles, :mod:`.derived` leaves
repeated lists and page furniture out and marks the advice, :mod:`.pairs`
pairs Chinese and English names of one concept
where the notes do.

Serving: :mod:`.split` cuts the whole index into the small files a query
loads, :mod:`.fragments` keeps each page's snippet text, :mod:`.scripts`
assembles the browser's scripts, :mod:`.publish` writes them all into
``_search/`` when the build has finished. What the search takes from
Sphinx's internals goes through :mod:`.._internals` (the indexer, the whole
index's file, the pages' scripts); the indexer prunes with a set
(:mod:`..site.speedups`). ``docs/search.md`` describes the
design.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from ...diagnostics import InputError
from . import derived, fragments, glossary, language, publish, scripts, titles
from .language import SearchPrnotes


def setup_search(app: Sphinx) -> None:
    try:
        glossary.load()  # a malformed glossary stops the build before it starts
    except InputError as exc:
        raise ExtensionError(f"the search glossary is malformed:\n{exc}") from None
    app.add_config_value(publish.SEARCH_IN, "", "", types=[str])
    app.add_search_language(SearchPrnotes)
    app.connect("doctree-resolved", titles.promote)
    app.connect("doctree-resolved", derived.mark)
    # After derived.mark (priority 500): the text without what it marks.
    app.connect("doctree-resolved", fragments.take, priority=600)
    app.connect("html-page-context", publish.page_scripts)
    app.connect("build-finished", publish.publish)
    app.add_js_file(None, body=scripts.loader_script())
