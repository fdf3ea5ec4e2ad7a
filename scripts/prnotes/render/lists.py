"""What the converter's pages say about a list of notes: a note's title as a
link, and the count of each verdict. The lists themselves are built from the
notes' facts when a page is written (:mod:`prnotes.sphinxext.lists`).
"""

from __future__ import annotations

from ..classify import VERDICTS
from ..model import Note, RepoSubsystem, Site
from .myst import doc_link, inline


def note_link(note: Note, from_doc: str) -> str:
    """The note's title, linking to it; references in the title stay plain text."""
    return doc_link(inline(note.title_pieces, link_text=True), from_doc, note.docname)


def verdict_counts(notes: tuple[Note, ...] | list[Note]) -> str:
    """``精读 3 篇，速读 2 篇，未注明 1 篇``: verdicts in their fixed order, zero counts left out.

    Notes whose advice states no verdict are counted as 未注明, so the counts add up.
    """
    counts = [(v.title, sum(1 for n in notes if n.verdict == v.slug)) for v in VERDICTS]
    counts.append(("未注明", sum(1 for n in notes if n.verdict is None)))
    return "，".join(f"{title} {count} 篇" for title, count in counts if count)


def subsystem_heading(site: Site, sub: RepoSubsystem) -> str:
    """A subsystem as a heading of a list of several repositories' notes: its
    title, and its repository when the archive holds more than one (plain text)."""
    return f"{sub.title}（{sub.repo}）" if site.by_repository else sub.title


def list_order(notes: tuple[Note, ...] | list[Note]) -> str:
    """How a list of notes is ordered (:attr:`prnotes.model.Note.sort_key`), in words."""
    if len({n.repo.lower() for n in notes}) < 2:
        return "按 PR 编号从新到旧排列；没有 PR 编号的笔记排在最后，按标题排序"
    return "按仓库分组（仓库名的字母顺序），组内按 PR 编号从新到旧排列，没有 PR 编号的笔记排在组末，按标题排序"
