"""A subsystem page: its introduction, its notes with their first sentences, and their toctree."""

from __future__ import annotations

from .. import contract
from ..model import Note, Site
from ..taxonomy import Subsystem
from .lists import note_item, verdict_counts
from .myst import escape, hidden_toctree, marker, relative


def render_subsystem(site: Site, sub: Subsystem, notes: tuple[Note, ...], book: bool = False) -> str:
    """The page of one subsystem; in the ``book`` it opens a chapter (本章)."""
    docname = contract.subsystem_docname(sub.slug)
    where = "本章" if book else "本页"
    lines = [
        marker("taxonomy.toml and seeds/"),
        "",
        f"({contract.subsystem_label(sub.slug)})=",
        f"# {escape(sub.title)}",
        "",
        escape(sub.intro),
        "",
        f"{where}共 {len(notes)} 篇笔记（{verdict_counts(notes)}），按 PR 编号从新到旧排列；"
        "没有 PR 编号的笔记排在最后，按标题排序。",
        "",
    ]
    if not book:
        lines += ["笔记页底部的“上一篇/下一篇”也按这个顺序，只在本子系统内前后移动。", ""]
        for note in notes:
            lines += note_item(site, note, docname, summary=True)
    lines += ["", *hidden_toctree(relative(docname, n.docname) for n in notes)]
    return "\n".join(lines)
