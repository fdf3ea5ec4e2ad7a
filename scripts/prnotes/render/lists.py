"""Building blocks every list of notes shares: one line per note, PR references, counts.

A list line is ``- [verdict] title #N``: the title links to the note, the
number is a ``{pr}`` reference (to the note, with a small GitHub link beside
it on the site), shown as ``#N`` when the site has one repository.
"""

from __future__ import annotations

from .. import contract
from ..classify import VERDICT_BY_SLUG, VERDICTS
from ..model import Note, Site
from ..refs import Ref
from .myst import badge, doc_link, inline, ref_role

def pr_ref(site: Site, repo: str, number: int, kind: str = "pull") -> str:
    """A ``{pr}``/``{issue}`` reference as lists show it (see :meth:`Site.pr_text`)."""
    return ref_role(Ref(site.pr_text(repo, number), repo, number, kind))


def note_link(note: Note, from_doc: str) -> str:
    """The note's title, linking to it; references in the title stay plain text."""
    return doc_link(inline(note.title_pieces, link_text=True), from_doc, note.docname)


def verdict_badge(note: Note) -> str:
    if not note.verdict:
        return ""
    v = VERDICT_BY_SLUG[note.verdict]
    return badge(v.badge, v.title)


def summary_placeholder(note: Note) -> str:
    """Placeholder for the note's first sentence, filled in from the note at write time."""
    return f"{{{contract.SUMMARY_ROLE}}}`{note.docname}`"


def note_line(site: Site, note: Note, from_doc: str, verdict: bool = True) -> str:
    """``[verdict] title #N`` for a note, without the list marker."""
    parts = [verdict_badge(note)] if verdict and note.verdict else []
    parts.append(note_link(note, from_doc))
    if note.number is not None:
        parts.append(pr_ref(site, note.repo, note.number))
    return " ".join(parts)


def note_item(site: Site, note: Note, from_doc: str, verdict: bool = True, summary: bool = False) -> list[str]:
    """Lines of one list item for a note; with ``summary``, its first sentence under it."""
    head = f"- {note_line(site, note, from_doc, verdict)}"
    if not summary:
        return [head]
    return [head, "", f"  {summary_placeholder(note)}", ""]


def verdict_counts(notes: tuple[Note, ...] | list[Note]) -> str:
    """``精读 3 篇，速读 2 篇``: verdicts in their fixed order, zero counts left out."""
    counts = [(v.title, sum(1 for n in notes if n.verdict == v.slug)) for v in VERDICTS]
    return "，".join(f"{title} {count} 篇" for title, count in counts if count)
