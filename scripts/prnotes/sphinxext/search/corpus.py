"""What the search derives from the notes' own words, kept per note in ``env``.

The bilingual pairs (:mod:`.pairs`) are worked out from every note of the
site each time the split index is written, so they need each note's title,
upstream title and advice, the unchanged notes' as well. They are read from
the doctree when a note is read (``doctree-read``: the field list with the
upstream title is there, in both of its ``only`` blocks) and kept in the
environment (:class:`..facts.docdata.DocData`, purged and merged like the
other per-document data), so an incremental build has them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from docutils import nodes
from sphinx.application import Sphinx

from ... import contract
from ..facts.docdata import DocData
from ..facts.notes import advice_paragraphs
from .language import LANG

CORPUS = DocData("prnotes_search_corpus")


@dataclass(frozen=True)
class NoteText:
    """A note's words, as the pairs read them."""

    repo: str  # owner/repo
    title: str  # the page title (Chinese, often with English words and identifiers)
    upstream: str  # the upstream English title ("" when the note has none)
    advice: str  # the advice's paragraphs


def _field(doctree: nodes.document, label: str) -> str:
    for field in doctree.findall(nodes.field):
        name, body = field.children[:2]
        if name.astext().strip() == label:
            return body.astext().strip()
    return ""


def collect(app: Sphinx, doctree: nodes.document) -> None:
    """On ``doctree-read``: keep a note's title, upstream title and advice."""
    if (app.config.html_search_language or app.config.language) != LANG:
        return
    env = app.env
    if not contract.is_note_docname(env.docname):
        return
    title = next(iter(doctree.findall(nodes.title)), None)
    CORPUS.of(env)[env.docname] = NoteText(
        repo=_field(doctree, contract.REPO_FIELD),
        title=title.astext() if title is not None else "",
        upstream=_field(doctree, contract.UPSTREAM_FIELD),
        advice="\n".join(p.astext() for p in advice_paragraphs(doctree)),
    )


def texts(env) -> dict[str, NoteText]:
    """Every note's words, by docname."""
    return dict(CORPUS.of(env))


def setup_corpus(app: Sphinx) -> None:
    CORPUS.connect(app)
    app.connect("doctree-read", collect)
