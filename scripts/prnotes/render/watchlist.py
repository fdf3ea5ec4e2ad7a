"""The follow-up watch list (跟进清单) and the 待跟进 box on each note.

Items come from :mod:`prnotes.followups`; they keep the note's code spans and
PR references, so the references link as they do on the note.
"""

from __future__ import annotations

from .. import contract
from ..model import Note, Site
from .lists import note_line
from .myst import doc_link, escape, inline, marker

INTRO = (
    "笔记里提到的后续事项：值得关注的跟进 PR、待修复的上游缺陷、需要长期跟踪的技术债。"
    "按子系统分组，每条挂在它的笔记下面；同样的条目也显示在笔记页的“待跟进”框里。"
)


def render_followup_box(note: Note, links: bool = True) -> list[str]:
    """Lines of the 待跟进 admonition for a note page; empty if it has none.

    Without ``links`` (the PDF book has no watch-list page) the box does not
    point at the watch list.
    """
    items = note.follow_ups
    if not items:
        return []
    see_also = [f"全站的待跟进事项见{doc_link('跟进清单', note.docname, contract.WATCHLIST)}。"] if links else []
    return [
        f":::{{admonition}} {contract.FOLLOWUPS_SECTION}",
        ":class: tip prnotes-followups",
        "",
        *(f"- {inline(item.pieces)}" for item in items),
        "",
        *see_also,
        ":::",
        "",
    ]


def render_watchlist(site: Site) -> str:
    docname = contract.WATCHLIST
    lines = [marker("seeds/"), "", "(followups)=", "# 跟进清单", "", INTRO]
    total = 0
    for sub in site.taxonomy.subsystems:
        group = [(n, n.follow_ups) for n in site.in_subsystem(sub.slug)]
        group = [(n, items) for n, items in group if items]
        if not group:
            continue
        lines += ["", f"## {escape(sub.title)}", ""]
        for note, items in group:
            total += len(items)
            lines.append(f"- {note_line(site, note, docname)}")
            lines += [f"  - {inline(item.pieces)}" for item in items]
    if total == 0:
        lines += ["", "目前没有笔记提到后续事项。"]
    lines.append("")
    return "\n".join(lines)
