"""Digest pages: one per seed file (第 N 期), and the archive that lists them.

A digest page lists its notes in reading order (精读 first, then 速读, then
按需, seed order within each: :func:`prnotes.sphinxext.stream.reading_key`,
the order its notes' 上一篇/下一篇 follow), each with its verdict, PR,
subsystem and the first sentence of its advice, and links to the digests
before (上一期, older) and after it (下一期, newer). The archive lists every
digest, newest first: the newest volume's on its own page, each earlier
volume's on a page of its own.
A digest's date is when its seed file was committed; it is never written here
but filled in at build time from git (``{prnotes-digest-date}``), so these
pages stay the same on every machine.
"""

from __future__ import annotations

from .. import contract
from ..model import Digest, Site
from .lists import verdict_counts
from .myst import doc_link, escape, hidden_toctree, marker, relative
from .note import digest_date
from .paging import list_directive, volume_docname, volume_links


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
    """One line per digest, newest first."""
    lines = []
    for digest in reversed(digests):
        notes = [site.by_docname[d] for d in digest.notes]
        link = doc_link(digest.title, here, digest.docname)
        lines.append(f"- {link} · {digest_date(digest.path)} · {len(notes)} 篇（{verdict_counts(notes)}）")
    return lines


def render_archive(site: Site) -> dict[str, str]:
    """The archive: the newest volume's digests on ``notes/digests/index``, and
    a page for each earlier volume, ``notes/digests/index/v<k>``
    (:mod:`prnotes.render.paging`). A closed volume's page never changes, so a
    new digest rewrites the archive's own page only, however long the archive."""
    docname = contract.DIGESTS_INDEX
    groups: dict[int, list[Digest]] = {}
    for digest in site.digests:
        groups.setdefault(digest.volume, []).append(digest)
    newest = max(groups)
    lines = [
        marker("seeds/"),
        "",
        "(digests)=",
        "# 摘要归档",
        "",
        f"共 {len(site.digests)} 期摘要、{sum(len(d.notes) for d in site.digests)} 篇笔记，最新的在前。",
        "",
        *volume_links(site, docname, docname, groups, newest, unit="期"),
        *_archive_lines(site, docname, groups[newest]),
    ]
    # Newest first, as the page lists them (the digests' 上一期/下一期 are set by prevnext.py).
    parts = [volume_docname(docname, number) for number in sorted(groups, reverse=True) if number != newest]
    entries = [*(d.docname for d in reversed(groups[newest])), *parts]
    lines += ["", *hidden_toctree(relative(docname, d) for d in entries)]
    pages = {f"{docname}.md": "\n".join(lines)}
    for number, digests in groups.items():
        if number == newest:
            continue
        part = volume_docname(docname, number)
        volume = site.volumes[number - 1]
        count = sum(len(d.notes) for d in digests)
        lines = [
            marker("seeds/"),
            "",
            f"# 摘要归档 · {volume.title}",
            "",
            f"本页是{doc_link('摘要归档', part, docname)}里{volume.title}的 {len(digests)} 期摘要、{count} 篇笔记，最新的在前。",
            "",
            *volume_links(site, part, docname, groups, number, unit="期"),
            *_archive_lines(site, part, digests),
            "",
            *hidden_toctree(relative(part, d.docname) for d in reversed(digests)),
        ]
        pages[f"{part}.md"] = "\n".join(lines).rstrip("\n") + "\n"
    return pages


def render_digests(site: Site) -> dict[str, str]:
    """The archive and every digest page, ``{relative path: text}``."""
    if not site.digests:
        return {}
    pages = render_archive(site)
    for digest in site.digests:
        pages[f"{digest.docname}.md"] = render_digest(site, digest)
    return pages

