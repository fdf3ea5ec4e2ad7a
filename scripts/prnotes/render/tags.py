"""Tag pages: one per tag, listing its notes (paged by count), and a page listing the tags."""

from __future__ import annotations

from .. import contract
from ..model import Note, Site
from ..tags import Tag, all_tags, tag_index, tags_of_note
from .lists import subsystem_heading, verdict_counts
from .myst import badge, doc_link, escape, hidden_toctree, marker
from .paging import Page, list_directive, note_pages

INTRO = (
    "标签标出笔记涉及的硬件、模型和主题，以及笔记在所属子系统之外还涉及的子系统"
    "（标题同时命中另一个子系统的归类规则时）。笔记页上的标签徽章链接到这里。"
)


def tag_badge(tag: Tag) -> str:
    """A badge that links to the tag's page."""
    return f"{{bdg-ref-secondary-line}}`{tag.title} <{contract.tag_label(tag.slug)}>`"


def note_tag_badges(note: Note, site: Site, links: bool = True) -> list[str]:
    """Tag badges of a note; without ``links`` (the PDF book has no tag pages), plain ones."""
    tags = tags_of_note(note, site.taxonomy)
    return [tag_badge(t) if links else badge("secondary-line", t.title) for t in tags]


def render_tag_page(site: Site, tag: Tag, notes: tuple[Note, ...]) -> dict[str, str]:
    docname = contract.tag_docname(tag.slug)
    head = [
        marker("taxonomy.toml and seeds/"),
        "",
        f"({contract.tag_label(tag.slug)})=",
        f"# 标签：{escape(tag.title)}",
        "",
        f"{len(notes)} 篇笔记（{verdict_counts(notes)}）。",
        "",
    ]
    pages = [s for s in site.subsystems if s.slug == tag.subsystem]
    if pages:
        links = "、".join(doc_link(escape(subsystem_heading(site, s)), docname, s.docname) for s in pages)
        head += [f"本页列出归在其他子系统、但也涉及这一方向的笔记；归在这里的笔记见子系统页{links}。", ""]

    def body(page: Page, here: str) -> list[str]:
        return list_directive("notes", {"tag": tag.slug, **page.where()}, show=("verdict",))

    return note_pages(site, docname, notes, head, f"标签：{tag.title}", body, source="taxonomy.toml and seeds/")


def render_tags(site: Site) -> dict[str, str]:
    """The tag index and every tag page, ``{relative path: text}``."""
    index = tag_index(site)
    tags = [t for t in all_tags(site.taxonomy) if t.slug in index]
    docname = contract.TAGS_INDEX
    lines = [marker("taxonomy.toml and seeds/"), "", "(tags)=", "# 标签", "", INTRO, ""]
    for tag in tags:
        lines.append(f"- {tag_badge(tag)}（{len(index[tag.slug])} 篇）")
    if not tags:
        lines.append("目前没有笔记带标签。")
    lines += ["", *hidden_toctree(contract.tag_docname(t.slug).rsplit("/", 1)[1] for t in tags)]
    pages = {f"{docname}.md": "\n".join(lines)}
    for tag in tags:
        pages.update(render_tag_page(site, tag, index[tag.slug]))
    return pages
