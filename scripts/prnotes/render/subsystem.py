"""A subsystem page: its introduction, its newest notes with their first sentences, and the toctree of all of them;
and the PDF book, whose chapters the subsystems are.

Each repository has its own subsystems (:mod:`prnotes.model.taxonomy`), so a page
is one repository's subsystem; on an archive of several repositories it says
which, and links to the other repositories' subsystems of the same name. A
title two repositories share carries the repository in the page's title
(``量化（vllm-project/vllm）``, :attr:`prnotes.model.site.RepoSubsystem.heading`),
so the tab, the navigation, the feed and the book's chapter name it too.

Earlier notes of the list have pages of their own (:mod:`.paging`); the
toctree stays on the subsystem page, so every note has that page as its one
parent.

The whole book is built from the site's own pages (:mod:`prnotes.build.pdf`): its
root, ``notes/book.md``, is a page of the site that no toctree holds, whose
toctree makes one chapter per subsystem. A book of some notes (``make pdf
VERDICT=精读``) is built from a staged folder holding only the pages of the
notes it selects, rendered without links to pages it leaves out.
"""

from __future__ import annotations

from .. import contract
from ..model.site import Note, RepoSubsystem, Site
from .myst import doc_link, escape, external_link, hidden_toctree, marker, relative
from .note import render_note
from .paging import Page, list_directive, note_pages, orphan, verdict_counts


def _whose(site: Site, sub: RepoSubsystem, book: bool) -> list[str]:
    """Which repository the subsystem is of, and its namesakes in the others (an archive of several)."""
    if not site.by_repository:
        return []
    lines = [f"{contract.REPO_FIELD}：{external_link(escape(sub.repo), contract.github_repo_url(sub.repo))}。", ""]
    namesakes = site.namesakes(sub.key)
    if namesakes and not book:
        links = "、".join(doc_link(escape(f"{o.repo} 的{o.title}"), sub.docname, o.docname) for o in namesakes)
        lines += [f"其他仓库的同名子系统：{links}。", ""]
    return lines


def render_subsystem(site: Site, sub: RepoSubsystem, notes: tuple[Note, ...], book: bool = False) -> dict[str, str]:
    """The pages of one subsystem. In a book its page opens a chapter (本章) and
    lists nothing; the site's page does the same when the whole book is built from it."""
    docname = sub.docname
    counts = f"共 {len(notes)} 篇笔记（{verdict_counts(notes)}）。"
    source = "seeds/ (the code its notes cite)" if site.grouped_by_layout(sub.key) else f"{site.taxonomy.set_for(sub.repo).path} and seeds/"
    head = [
        marker(source),
        "",
        f"({sub.label})=",
        f"# {escape(sub.heading)}",
        "",
        escape(sub.intro),
        "",
        *_whose(site, sub, book),
        # On the site a page, in the book a chapter (the site's page opens one there).
        *([f"本章{counts}", ""] if book else ["```{only} html", f"本页{counts}", "```", "", "```{only} latex", f"本章{counts}", "```", ""]),
        *hidden_toctree(relative(docname, n.docname) for n in notes),
    ]
    if book:
        return {f"{docname}.md": "\n".join(head)}

    def body(page: Page, here: str) -> list[str]:
        return list_directive("notes", {"subsystem": sub.key, **page.where()}, show=("verdict", "summary"))

    return note_pages(site, docname, notes, head, sub.heading, body, source=source, moved=site.moved.get(sub.key, ()))


# --- the PDF book's root page, and the pages of a book of some notes -------


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
