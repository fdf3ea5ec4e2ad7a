"""A subsystem page: its introduction, its newest notes with their first sentences, and the toctree of all of them.

Earlier volumes of the list have pages of their own (:mod:`.paging`); the
toctree stays on the subsystem page, so every note has that page as its one
parent.
"""

from __future__ import annotations

from .. import contract
from ..model import Note, Site, Volume
from ..taxonomy import Subsystem
from .lists import list_order, verdict_counts
from .myst import escape, hidden_toctree, marker, relative
from .paging import list_directive, paged


def _per_builder(site_text: str, book_text: str) -> list[str]:
    """A paragraph that reads one way on the site and another in the book (the site's page opens a chapter there)."""
    return ["```{only} html", site_text, "```", "", "```{only} latex", book_text, "```", ""]


def render_subsystem(site: Site, sub: Subsystem, notes: tuple[Note, ...], book: bool = False) -> dict[str, str]:
    """The pages of one subsystem. In a book its page opens a chapter (本章) and
    lists nothing; the site's page does the same when the whole book is built from it."""
    docname = contract.subsystem_docname(sub.slug)
    counts = f"共 {len(notes)} 篇笔记（{verdict_counts(notes)}），{list_order(notes)}。"
    head = [
        marker("taxonomy.toml and seeds/"),
        "",
        f"({contract.subsystem_label(sub.slug)})=",
        f"# {escape(sub.title)}",
        "",
        escape(sub.intro),
        "",
        *([f"本章{counts}", ""] if book else _per_builder(f"本页{counts}", f"本章{counts}")),
        *hidden_toctree(relative(docname, n.docname) for n in notes),
    ]
    if book:
        return {f"{docname}.md": "\n".join(head)}
    head += ["```{only} html", "笔记页底部的“上一篇/下一篇”也按这个顺序，只在本子系统内前后移动。", "```", ""]

    def body(members: list[Note], volume: Volume, here: str) -> list[str]:
        return list_directive("notes", {"subsystem": sub.slug, "volume": volume.number}, show=("verdict", "summary"))

    return paged(site, docname, notes, head, sub.title, body, source="taxonomy.toml and seeds/")
