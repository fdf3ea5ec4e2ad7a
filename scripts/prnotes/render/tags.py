"""Tag pages: one per tag, listing its notes (paged by count), and a page listing the tags.

A tag never has a subsystem's name: a tag that stands for a subsystem (a
secondary subsystem, or a ``[[tag]]`` with a subsystem's slug), or whose
title is a subsystem's, shows as 涉及 and that name (涉及 ROCm/AMD,
涉及注意力后端与 kernel), so a note's badges never read like a second
subsystem. Its page lists every note of the topic: the notes tagged with it
and those filed under a subsystem of that slug, in any repository
(:func:`members`, the lists' ``topic`` condition).
"""

from __future__ import annotations

from .. import contract
from ..model.site import Note, Site
from ..model.tags import Tag, all_tags, tag_index, tags_of_note
from .readinglists import cjk_join
from .myst import badge, doc_link, escape, hidden_toctree, marker
from .paging import Page, list_directive, note_pages, subsystem_heading, verdict_counts

INTRO = (
    "标签标出笔记涉及的硬件、模型和主题，以及笔记在所属子系统之外还涉及的方向"
    "（“涉及”开头的标签）。笔记页上的标签徽章链接到这里。"
)


def tag_title(tag: Tag, site: Site) -> str:
    """The tag's name as the site shows it: never a subsystem's (module docstring)."""
    names = {s.title for s in site.taxonomy.all_subsystems}
    return cjk_join("涉及", tag.title) if tag.subsystem is not None or tag.title in names else tag.title


def tag_badge(tag: Tag, site: Site) -> str:
    """A badge that links to the tag's page."""
    return f"{{bdg-ref-secondary-line}}`{tag_title(tag, site)} <{contract.tag_label(tag.slug)}>`"


def note_tag_badges(note: Note, site: Site, links: bool = True) -> list[str]:
    """Tag badges of a note; without ``links`` (the PDF book has no tag pages), plain ones."""
    tags = tags_of_note(note, site.taxonomy)
    return [tag_badge(t, site) if links else badge("secondary-line", tag_title(t, site)) for t in tags]


def members(site: Site, tag: Tag, tagged: tuple[Note, ...]) -> tuple[Note, ...]:
    """Every note of a tag's topic: those tagged with it and, for a tag that
    stands for a subsystem, those filed under a subsystem of that slug; in page order."""
    if tag.subsystem is None:
        return tagged
    filed = [n for n in site.notes if n.subsystem_slug == tag.slug]
    return tuple(sorted({n.docname: n for n in (*tagged, *filed)}.values(), key=site.note_order))


def render_tag_page(site: Site, tag: Tag, notes: tuple[Note, ...]) -> dict[str, str]:
    docname = contract.tag_docname(tag.slug)
    title = tag_title(tag, site)
    head = [
        marker("taxonomy.toml and seeds/"),
        "",
        f"({contract.tag_label(tag.slug)})=",
        f"# 标签：{escape(title)}",
        "",
        f"{len(notes)} 篇笔记（{verdict_counts(notes)}）。",
        "",
    ]
    pages = [s for s in site.subsystems if s.slug == tag.subsystem]
    if pages:
        links = "、".join(doc_link(escape(subsystem_heading(site, s)), docname, s.docname) for s in pages)
        head += [f"本页列出这一方向的全部笔记：归在子系统{links}的，和归在其他子系统、也涉及它的。", ""]
    condition = "topic" if tag.subsystem is not None else "tag"

    def body(page: Page, here: str) -> list[str]:
        return list_directive("notes", {condition: tag.slug, **page.where()}, show=("verdict",))

    return note_pages(site, docname, notes, head, f"标签：{title}", body, source="taxonomy.toml and seeds/")


def render_tags(site: Site) -> dict[str, str]:
    """The tag index and every tag page, ``{relative path: text}``."""
    index = tag_index(site)
    tags = [t for t in all_tags(site.taxonomy) if t.slug in index]
    notes = {t.slug: members(site, t, index[t.slug]) for t in tags}
    docname = contract.TAGS_INDEX
    lines = [marker("taxonomy.toml and seeds/"), "", "(tags)=", "# 标签", "", INTRO, ""]
    for tag in tags:
        lines.append(f"- {tag_badge(tag, site)}（{len(notes[tag.slug])} 篇）")
    if not tags:
        lines.append("目前没有笔记带标签。")
    lines += ["", *hidden_toctree(contract.tag_docname(t.slug).rsplit("/", 1)[1] for t in tags)]
    pages = {f"{docname}.md": "\n".join(lines)}
    for tag in tags:
        pages.update(render_tag_page(site, tag, notes[tag.slug]))
    return pages
