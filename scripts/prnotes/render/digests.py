"""Digest pages: one per seed file (第 N 期), and the archive that lists them.

A digest page lists its notes in reading order (精读 first, then 速读, then
按需, seed order within each: :func:`prnotes.sphinxext.facts.stream.reading_key`,
the order its notes' 上一篇/下一篇 follow), each with its verdict, PR,
subsystem and the first sentence of its advice, and links to the digests
before (上一期, older) and after it (下一期, newer). The archive lists every
digest, newest first: the newest on its own page, each earlier hundred on
a page of its own.
A digest's date is when its seed file was committed; it is never written here
but filled in at build time from git (``{prnotes-digest-date}``), so these
pages stay the same on every machine.
"""

from __future__ import annotations

from .. import contract
from ..model.site import Digest, Site
from .myst import doc_link, escape, hidden_toctree, marker, relative
from .note import digest_date
from .paging import Page, list_directive, page_docname, page_of, paged, pages, verdict_counts


def digest_list(digest: Digest) -> list[str]:
    """The digest's notes in reading order, each with its verdict, PR, subsystem and first sentence."""
    where = {"digest": contract.quote_path(digest.path)}
    return list_directive("notes", where, order="reading", show=("verdict", "summary", "subsystem"))


def _neighbours(site: Site, digest: Digest) -> list[str]:
    here = digest.docname
    index = digest.number - 1
    parts = []
    if index > 0:
        before = site.digests[index - 1]
        parts.append(f"上一期：{doc_link(before.title, here, before.docname)}")
    if index + 1 < len(site.digests):
        after = site.digests[index + 1]
        parts.append(f"下一期：{doc_link(after.title, here, after.docname)}")
    parts.append(doc_link("全部摘要", here, contract.DIGESTS_INDEX))
    return [" · ".join(parts), ""]


def render_digest(site: Site, digest: Digest) -> str:
    notes = [site.by_docname[d] for d in digest.notes]
    lines = [
        marker(digest.path),
        "",
        f"({contract.digest_label(digest.path)})=",
        f"# {digest.title}",
        "",
        f"{digest_date(digest.path)} · {escape(digest.repo)} · 共 {len(notes)} 篇笔记（{verdict_counts(notes)}）。",
        "",
        *_neighbours(site, digest),
    ]
    lines += digest_list(digest)
    return "\n".join(lines).rstrip("\n") + "\n"


def _archive_lines(site: Site, here: str, digests: list[Digest]) -> list[str]:
    """One line per digest, newest first: its date, its repository (on an
    archive of several) and its counts."""
    lines = []
    for digest in reversed(digests):
        notes = [site.by_docname[d] for d in digest.notes]
        link = doc_link(digest.title, here, digest.docname)
        repo = f" · {escape(digest.repo)}" if site.by_repository else ""
        lines.append(f"- {link} · {digest_date(digest.path)}{repo} · {len(notes)} 篇（{verdict_counts(notes)}）")
    return lines


# Digests per page of the archive (a line each, about 0.3 KB of HTML).
DIGEST_PAGE = 100


def render_archive(site: Site) -> dict[str, str]:
    """The archive: the newest digests on ``notes/digests/index``, and a page
    for each earlier :data:`DIGEST_PAGE` digests, ``notes/digests/index/p<k>``
    (:mod:`prnotes.render.paging`). A full page never changes, so a new digest
    rewrites the archive's own page only, however long the archive."""
    docname = contract.DIGESTS_INDEX
    keys = [(d.number,) for d in site.digests]
    listed = pages(keys, DIGEST_PAGE)
    head = [
        marker("seeds/"),
        "",
        "(digests)=",
        "# 摘要归档",
        "",
        f"共 {len(site.digests)} 期摘要、{sum(len(d.notes) for d in site.digests)} 篇笔记，最新的在前。",
        "",
    ]

    def body(page: Page, here: str) -> list[str]:
        digests = site.digests[page.start - 1 : page.end]
        # Newest first, as the page lists them (the digests' 上一期/下一期 are set by prevnext.py);
        # on the archive's own page, the earlier pages after its digests.
        entries = [d.docname for d in reversed(digests)]
        if not page.full:
            entries += [page_docname(docname, p) for p in reversed(listed[:-1])]
        return [*_archive_lines(site, here, list(digests)), "", *hidden_toctree(relative(here, d) for d in entries)]

    # The pages of earlier releases, a page per volume: each to the page of its first digest.
    redirects = {}
    if len(site.volumes) > 1:
        for volume in site.volumes[:-1]:
            redirects[f"{docname}/v{volume.number}"] = page_docname(docname, page_of(listed, (volume.first,)))
    return paged(docname, keys, DIGEST_PAGE, head, "摘要归档", body, redirects=redirects, unit="期")


def render_digests(site: Site) -> dict[str, str]:
    """The archive and every digest page, ``{relative path: text}``."""
    if not site.digests:
        return {}
    pages = render_archive(site)
    for digest in site.digests:
        pages[f"{digest.docname}.md"] = render_digest(site, digest)
    return pages

