"""What the converter's pages say about a list of notes: a note's title as a
link, and the count of each verdict. The lists themselves are built from the
notes' facts when a page is written (:mod:`prnotes.sphinxext.lists.fill`).
"""

from __future__ import annotations

from ..model.classify import verdict_counts as count_verdicts
from ..model.site import Note, RepoSubsystem, Site
from .myst import doc_link, inline


def note_link(note: Note, from_doc: str) -> str:
    """The note's title, linking to it; references in the title stay plain text."""
    return doc_link(inline(note.title_pieces, link_text=True), from_doc, note.docname)


def verdict_counts(notes: tuple[Note, ...] | list[Note]) -> str:
    """``精读 3 篇，速读 2 篇，未注明 1 篇`` (:func:`prnotes.model.classify.verdict_counts`)."""
    return count_verdicts(n.verdict for n in notes)


def subsystem_heading(site: Site, sub: RepoSubsystem) -> str:
    """A subsystem as a heading of a list of several repositories' notes: its
    title, and its repository when the archive holds more than one (plain text)."""
    return f"{sub.title}（{sub.repo}）" if site.by_repository else sub.title
