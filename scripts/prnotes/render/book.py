"""The pages of a PDF book: a root page whose toctree makes one chapter per
subsystem, the subsystem pages, and their notes. Pure: no disk access.

The book is built from its own staged source folder, so its root page can
differ from the site's landing page (whose cards and indexes are for the web)
and a subset book holds only the pages of the notes it selects.
"""

from __future__ import annotations

from .. import contract
from ..model import Site
from .myst import marker
from .note import render_note
from .subsystem import render_subsystem

BOOK_TITLE = "PR 精读笔记"


def render_book_root(subsystems: list[str]) -> str:
    """The root page: its title becomes the book's, its toctree the chapters."""
    return "\n".join(
        [
            marker("taxonomy.toml and seeds/"),
            "",
            f"# {BOOK_TITLE}",
            "",
            "```{toctree}",
            ":maxdepth: 2",
            "",
            *(contract.subsystem_docname(s) for s in subsystems),
            "```",
            "",
        ]
    )


def render_book(site: Site) -> dict[str, str]:
    """``{relative path: text}`` of every page of the book, sorted."""
    used = [s.slug for s in site.taxonomy.subsystems if site.in_subsystem(s.slug)]
    pages = {f"{note.docname}.md": render_note(note, site, links=False) for note in site.notes}
    for slug in used:
        pages.update(render_subsystem(site, site.taxonomy.subsystem(slug), site.in_subsystem(slug), book=True))
    pages["index.md"] = render_book_root(used)
    return dict(sorted(pages.items()))
