"""A subsystem page: its introduction, its notes listed, and their toctree."""

from __future__ import annotations

from .. import contract
from ..classify import VERDICT_BY_SLUG, VERDICTS
from ..model import Note, Site
from ..taxonomy import Subsystem
from .myst import badge, doc_link, escape, hidden_toctree, inline, marker, relative


def note_item(note: Note, from_doc: str) -> str:
    """One list line for a note: verdict badge, linked title, PR number."""
    parts = []
    if note.verdict:
        v = VERDICT_BY_SLUG[note.verdict]
        parts.append(badge(v.badge, v.title))
    parts.append(doc_link(inline(note.title_pieces), from_doc, note.docname))
    if note.number is not None:
        parts.append(escape(f"{note.repo}#{note.number}"))
    return "- " + " ".join(parts)


def verdict_counts(notes: tuple[Note, ...]) -> str:
    counts = [(v.title, sum(1 for n in notes if n.verdict == v.slug)) for v in VERDICTS]
    return "，".join(f"{title} {count} 篇" for title, count in counts if count)


def render_subsystem(sub: Subsystem, notes: tuple[Note, ...]) -> str:
    docname = contract.subsystem_docname(sub.slug)
    lines = [
        marker("taxonomy.toml and seeds/"),
        "",
        f"(subsystem-{sub.slug})=",
        f"# {escape(sub.title)}",
        "",
        escape(sub.intro),
        "",
        f"本页共 {len(notes)} 篇笔记（{verdict_counts(notes)}），按 PR 编号从新到旧排列；"
        "没有 PR 编号的笔记排在最后，按标题排序。",
        "",
        # The book has no previous/next links; only the site says so.
        "```{only} html",
        "笔记页底部的“上一篇/下一篇”也按这个顺序，只在本子系统内前后移动。",
        "```",
        "",
        *(note_item(n, docname) for n in notes),
        "",
        *hidden_toctree(relative(docname, n.docname) for n in notes),
    ]
    return "\n".join(lines)

