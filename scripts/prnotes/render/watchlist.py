"""The follow-up watch list (跟进清单) and the 待跟进 box on each note.

Items come from :mod:`prnotes.followups`; they keep the note's code spans and
PR references, so the references link as they do on the note.
"""

from __future__ import annotations

from .. import contract
from ..followups import follow_ups
from ..model import Note, Site
from .myst import doc_link, escape, inline, marker
from .subsystem import note_item

INTRO = (
    "笔记里提到的后续事项：值得关注的跟进 PR、待修复的上游缺陷、需要长期跟踪的技术债。"
    "按子系统分组，每条挂在它的笔记下面；同样的条目也显示在笔记页的“待跟进”框里。"
)
RULES = (
    "提取规则：阅读建议按句（。！？）和分句（；）切开，含“跟踪”“跟进”“技术债”“关注后续”“建议后续”"
    "“后续维护”“后续新增”等词的分句，“关注/留意……何时/是否会/是否有”的分句，"
    "以及“关注两点：一是……；二是……”里列出的每一项，都算一条。"
)


def render_followup_box(note: Note, links: bool = True) -> list[str]:
    """Lines of the 待跟进 admonition for a note page; empty if it has none.

    Without ``links`` (the PDF book has no watch-list page) the box does not
    point at the watch list.
    """
    items = follow_ups(note)
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
    lines = [marker("seeds/"), "", "(followups)=", "# 跟进清单", "", INTRO, "", RULES]
    total = 0
    for sub in site.taxonomy.subsystems:
        group = [(n, follow_ups(n)) for n in site.in_subsystem(sub.slug)]
        group = [(n, items) for n, items in group if items]
        if not group:
            continue
        lines += ["", f"## {escape(sub.title)}", ""]
        for note, items in group:
            total += len(items)
            lines.append(note_item(note, docname))
            lines += [f"  - {inline(item.pieces)}" for item in items]
    if total == 0:
        lines += ["", "目前没有笔记提到后续事项。"]
    lines.append("")
    return "\n".join(lines)
