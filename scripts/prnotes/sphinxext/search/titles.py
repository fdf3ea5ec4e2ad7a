"""Count a note's upstream English title, PR number and repository name as title terms.

A note page shows the upstream title and the PR number in its field list
(``render/note.py``), which the index leaves out with the rest of the field
list (:mod:`.derived`). Readers who type words of the upstream title or the
number look for that note, so the words go into the index's title terms,
where the search ranks them like words of the page title. Of the repository
only its name counts (``sglang`` of ``sgl-project/sglang``): ``sglang 8812``
finds sglang's #8812 before another repository's; the owner would put a
word such as ``project`` on every note.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from ... import contract
from .. import _internals
from .language import LANG, SearchPrnotes


_LANGUAGE = SearchPrnotes({})


def title_field_text(doctree: nodes.document) -> list[str]:
    """Texts of the note's title-like fields, in document order."""
    out = []
    fields = contract.title_fields()
    for field in doctree.findall(nodes.field):
        name, body = field.children[:2]
        label = name.astext().strip()
        if label in fields:
            out.append(body.astext())
        elif label == contract.REPO_FIELD:
            out.append(body.astext().strip().rpartition("/")[2])
    return out


def promote(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Add the title-like fields' terms to the index's title terms for ``docname``.

    Runs on ``doctree-resolved``, which the HTML builder emits just before it
    feeds the same doctree to its indexer. ``IndexBuilder.feed`` leaves out of
    the body terms any word already among the page's title terms, so each
    word is stored once, as a title term.
    """
    if (app.config.html_search_language or app.config.language) != LANG:
        return
    lang = _LANGUAGE
    terms = []
    for text in title_field_text(doctree):
        for word in lang.split(text):
            stemmed = lang.stem(word).lower()
            if lang.word_filter(stemmed):
                terms.append(stemmed)
    _internals.add_title_terms(app.builder, docname, terms)
