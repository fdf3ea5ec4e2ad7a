"""The follow-up watch list (跟进清单) and the 待跟进 box on each note.

Items come from :mod:`prnotes.followups`; they keep the note's code spans and
PR references, so the references link as they do on the note.
"""

from __future__ import annotations

from .. import contract
from ..model import Note, Site, Volume
from .myst import doc_link, escape, hidden_toctree, inline, marker, relative
from .paging import list_directive, paged

INTRO = (
    "笔记里提到的后续事项：值得关注的跟进 PR、待修复的上游缺陷、需要长期跟踪的技术债。"
    "每个子系统一页，每条挂在它的笔记下面；同样的条目也显示在笔记页的“待跟进”框里。"
)


def render_followup_box(note: Note, links: bool = True) -> list[str]:
    """Lines of the 待跟进 admonition for a note page; empty if it has none.

    Without ``links`` (the PDF book has no watch-list page) the box does not
    point at the watch list.
    """
    items = note.follow_ups
    if not items:
        return []
    see_also = (
        ["```{only} html", f"全站的待跟进事项见{doc_link('跟进清单', note.docname, contract.WATCHLIST)}。", "```"]
        if links
        else []
    )
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


def render_watchlist(site: Site) -> dict[str, str]:
    """The watch list: a page per subsystem (a part per volume), and an index of them."""
    docname = contract.WATCHLIST
    lines = [marker("seeds/"), "", "(followups)=", "# 跟进清单", "", INTRO, ""]
    pages: dict[str, str] = {}
    used = []
    for sub in site.taxonomy.subsystems:
        notes = [n for n in site.in_subsystem(sub.slug) if n.follow_ups]
        if not notes:
            continue
        used.append(sub)
        page = contract.watchlist_docname(sub.slug)
        items = sum(len(n.follow_ups) for n in notes)
        lines.append(f"- {doc_link(escape(sub.title), docname, page)}：{items} 条，来自 {len(notes)} 篇笔记")
        head = [
            marker("seeds/"),
            "",
            f"# 跟进清单：{escape(sub.title)}",
            "",
            f"{escape(sub.title)}的笔记里提到的后续事项，共 {items} 条，每条挂在它的笔记下面，按 PR 编号从新到旧排列。",
            "",
        ]

        def body(members: list[Note], volume: Volume, here: str, slug: str = sub.slug) -> list[str]:
            return list_directive("followups", {"subsystem": slug, "volume": volume.number})

        pages.update(paged(site, page, notes, head, f"跟进清单：{sub.title}", body))
    if not used:
        lines.append("目前没有笔记提到后续事项。")
    lines += ["", *hidden_toctree(relative(docname, contract.watchlist_docname(s.slug)) for s in used)]
    pages[f"{docname}.md"] = "\n".join(lines)
    return pages
