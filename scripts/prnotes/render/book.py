"""The PDF book's root page, and the pages of a book of some notes only. Pure: no disk access.

The whole book is built from the site's own pages (:mod:`prnotes.build.pdf`): its
root, ``notes/book.md``, is a page of the site that no toctree holds, whose
toctree makes one chapter per subsystem. A book of some notes (``make pdf
VERDICT=精读``) is built from a staged folder holding only the pages of the
notes it selects, rendered without links to pages it leaves out.
"""

from __future__ import annotations

from .. import contract
from ..model.site import Site
from .myst import marker, relative
from .paging import orphan
from .note import render_note
from .subsystem import render_subsystem

BOOK_TITLE = "PR 精读笔记"


def render_book_root(site: Site) -> str:
    """The root page: its title becomes the book's, its toctree the chapters."""
    return "\n".join(
        [
            marker("taxonomy.toml and seeds/"),
            "",
            *orphan(),
            f"# {BOOK_TITLE}",
            "",
            "```{toctree}",
            ":maxdepth: 2",
            "",
            *(relative(contract.BOOK_ROOT, s.docname) for s in site.subsystems),
            "```",
            "",
        ]
    )


def render_book(site: Site) -> dict[str, str]:
    """``{relative path: text}`` of every page of the book, sorted."""
    pages = {f"{note.docname}.md": render_note(note, site, links=False) for note in site.notes}
    for sub in site.subsystems:
        pages.update(render_subsystem(site, sub, site.in_subsystem(sub.key), book=True))
    pages[f"{contract.BOOK_ROOT}.md"] = render_book_root(site)
    # The site's root document must exist; the book does not use it.
    pages["index.md"] = "\n".join([marker("seeds/"), "", *orphan(), f"# {BOOK_TITLE}", ""])
    return dict(sorted(pages.items()))
