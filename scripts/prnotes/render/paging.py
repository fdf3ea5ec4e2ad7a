"""Lists that grow with the archive, a page per volume, and the directives that fill them.

A growing list (a subsystem's notes, a reading list, a tag, the watch list)
shows its newest volume (:data:`prnotes.model.VOLUME_NOTES`) on its own page
and has a page for each earlier volume, ``<docname>/v<k>``, linked from every
part. Each part holds ``{prnotes-list}`` directives, which the Sphinx side
fills from the notes' facts when it writes the page (:mod:`prnotes.sphinxext.lists`),
so a part's source stays a few lines long however many notes it lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sized

from .. import contract
from ..model import Note, Site, Volume
from .myst import doc_link, marker

Body = Callable[[list[Note], Volume, str], list[str]]


def list_directive(kind: str, where: dict[str, str | int], order: str = "", show: tuple[str, ...] = ()) -> list[str]:
    """Lines of a ``{prnotes-list}`` directive; the values are slugs, numbers or quoted paths."""
    lines = [f":::{{{contract.LIST_DIRECTIVE}}} {kind}"]
    if where:
        lines.append(":where: " + " ".join(f"{k}={v}" for k, v in where.items()))
    if order:
        lines.append(f":order: {order}")
    if show:
        lines.append(":show: " + " ".join(show))
    return [*lines, ":::", ""]


def orphan() -> list[str]:
    """This page is reached by links, not from a toctree."""
    return [f":::{{{contract.ORPHAN_DIRECTIVE}}}", ":::", ""]


def volume_docname(docname: str, volume: int) -> str:
    return f"{docname}/v{volume}"


def by_volume(site: Site, notes: list[Note] | tuple[Note, ...]) -> dict[int, list[Note]]:
    """The notes of each volume that has any, oldest volume first."""
    groups: dict[int, list[Note]] = {}
    for note in notes:
        groups.setdefault(site.volume_of(note), []).append(note)
    return dict(sorted(groups.items()))


def volume_links(
    site: Site, here: str, docname: str, groups: Mapping[int, Sized], current: int, unit: str = "篇"
) -> list[str]:
    """``按期浏览：`` links to the parts of a list, the current one in bold;
    each names how many items (``unit``: 篇 notes, 期 digests) it holds.

    A part never changes once written: an earlier volume's page links only to
    the volumes up to its own (closed, so their titles and counts are fixed)
    and to the list's page for the newer ones. The list's page links to every
    part, and names its own volume by where it starts (``第 N 期起``), which a
    new digest does not change. So a new digest rewrites only the pages of the
    lists that gain a note, however many volumes the archive holds.
    """
    if len(groups) < 2:
        return []
    newest = max(groups)
    parts = []
    for number in sorted(groups, reverse=True):
        if number > current:
            continue
        volume = site.volumes[number - 1]
        if number == newest:
            text = f"第 {volume.first} 期起（{len(groups[number])} {unit}）"
        else:
            text = f"{volume.title}（{len(groups[number])} {unit}）"
        if number == current:
            parts.append(f"**{text}**")
        else:
            parts.append(doc_link(text, here, volume_docname(docname, number)))
    if current != newest:
        parts.insert(0, doc_link("最新各期", here, docname))
    return ["按期浏览：" + " · ".join(parts), ""]


def paged(site: Site, docname: str, notes: list[Note] | tuple[Note, ...], head: list[str], title: str, body: Body,
          source: str = "seeds/") -> dict[str, str]:  # fmt: skip
    """The pages of a growing list: ``docname`` shows the newest volume after ``head``;
    every earlier volume gets a page titled ``title · 第 a–b 期``."""
    groups = by_volume(site, notes)
    newest = max(groups) if groups else 0
    main = list(head)
    if groups:
        main += volume_links(site, docname, docname, groups, newest)
        main += body(groups[newest], site.volumes[newest - 1], docname)
    pages = {f"{docname}.md": "\n".join(main).rstrip("\n") + "\n"}
    for number, members in groups.items():
        if number == newest:
            continue
        part = volume_docname(docname, number)
        volume = site.volumes[number - 1]
        lines = [
            marker(source),
            "",
            *orphan(),
            f"# {title} · {volume.title}",
            "",
            f"本页是{doc_link(title, part, docname)}里{volume.title}收录的 {len(members)} 篇。",
            "",
            *volume_links(site, part, docname, groups, number),
            *body(members, volume, part),
        ]
        pages[f"{part}.md"] = "\n".join(lines).rstrip("\n") + "\n"
    return pages
