"""Lists that grow with the archive, a page per so many entries, and the directives that fill them.

**Pages by count.** Every list that grows with the archive (a subsystem's
notes, a reading list, a tag, a subsystem's follow-ups, a repository's PR
numbers, a symbol initial, the digest archive) is cut into pages of a fixed
number of entries, counted from the oldest entry: page 1 holds the first
``size`` entries to arrive, page 2 the next ``size``, and so on. A page is
written once it is full, at ``<docname>/p<k>``; the list's own page shows the
newest entries, those after the last full page (1 to ``size`` of them).
Entries only ever join at the end (digests are added after the others), so a
full page never changes: its entries, its title and its links stay as they
are (:func:`pages`). No page holds more than ``size`` entries, dense archive
or sparse, so no page grows with the archive.

**Arrival.** An entry's place is its *arrival key*, a tuple of numbers that
both sides work out from the facts of the notes: a note's is
``(digest number, place in the digest)``; a follow-up item's adds its place
in the note's box; a PR number's or a symbol's is the key of the first note
that has or names it, then the number, or the symbol's place in that note's
list. A page's ``{prnotes-list}`` directive states its range of keys
(``arrival=D.P..D.P``), and the Sphinx side fills it from the notes' facts
when it writes the page (:mod:`prnotes.sphinxext.lists.fill`), so a page's source
stays a few lines long however many notes it lists, and a new note is read
once.

**Old addresses.** Pages used to be cut by volume (``<docname>/v<k>``) and the
PR index by ranges of 500 numbers (``pr-index/<owner>--<repo>-<start>``).
Those addresses keep working as redirect files: each leads to the page that
now holds the oldest entry the old page held (:func:`redirect_directive`,
:mod:`prnotes.sphinxext.site.redirects`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import contract
from ..model.classify import verdict_counts as count_verdicts
from ..model.site import Note, RepoSubsystem, Site
from .myst import doc_link, inline, marker

Key = tuple[int, ...]
# Entries per page of a list of notes (a subsystem, a reading list, a tag),
# each with its title, PR, verdict and first sentence: about 1.3 KB of HTML, 150 of them and the page around them well under 300 KB.
NOTE_PAGE = 150


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


def note_key(site: Site, note: Note) -> Key:
    """A note's arrival key: its digest's number, then its place in the digest."""
    return (site.digest_of(note).number, note.position)


def key_text(key: Key) -> str:
    return ".".join(str(k) for k in key)


@dataclass(frozen=True)
class Page:
    """A page of a list: entries ``start``–``end`` (1-based, oldest first), arrival keys ``first``–``last``."""

    number: int  # k of <docname>/p<k>; the list's own page has the number after the last full page
    start: int
    end: int
    first: Key
    last: Key
    full: bool  # a full page has a page of its own and never changes

    @property
    def count(self) -> int:
        return self.end - self.start + 1

    def where(self) -> dict[str, str]:
        """The ``:where:`` condition of the page's entries: a full page's range of
        arrival keys; the list's own page from its first key on (nothing, if it is the only page)."""
        if self.full:
            return {"arrival": f"{key_text(self.first)}..{key_text(self.last)}"}
        return {"arrival": f"{key_text(self.first)}.."} if self.number > 1 else {}

    def holds(self, key: Key) -> bool:
        return self.first <= key <= self.last


def pages(keys: Sequence[Key], size: int) -> list[Page]:
    """The pages of a list whose entries have these arrival keys (sorted, oldest first).

    Every page but the last is full (``size`` entries); the last, the list's
    own page, holds the 1 to ``size`` entries after them. An empty list has no page.
    """
    if not keys:
        return []
    full = (len(keys) - 1) // size
    out = []
    for index in range(full + 1):
        start = index * size
        end = min(start + size, len(keys)) - 1
        out.append(Page(index + 1, start + 1, end + 1, keys[start], keys[end], index < full))
    return out


def page_docname(docname: str, page: Page) -> str:
    """Where a page is: a full page at ``<docname>/p<k>``, the newest on the list's own page."""
    return f"{docname}/p{page.number}" if page.full else docname


def page_of(listed: list[Page], key: Key) -> Page:
    """The page that holds the entry of this key (or the next entry after it)."""
    return next((p for p in listed if key <= p.last), listed[-1])


Label = Callable[[Page], str]


def entries_label(unit: str = "篇") -> Label:
    """``第 201–400 篇``: a page named by the places of its entries; the list's
    own page by where it starts (``第 801 篇起``), which a new entry does not change."""

    def label(page: Page) -> str:
        if not page.full:
            return f"第 {page.start} {unit}起"
        return f"第 {page.start}–{page.end} {unit}" if page.start != page.end else f"第 {page.start} {unit}"

    return label


def page_links(here: str, docname: str, listed: list[Page], current: Page, label: Label) -> list[str]:
    """``分页：`` links to the pages of a list, newest first, the current one in bold.

    A full page links to the list's own page (最新), to the pages 1, 2, 4, 8, …
    before it and to the first page: all full, so their labels are fixed and
    the page never changes, and a page holds a number of links logarithmic in
    the list's length (every page before it made the pages of a long list,
    a symbol initial's, say, quadratic in its length to write and to build).
    Skipped pages show as …; the list's own page links to every page.
    """
    if len(listed) < 2:
        return []
    shown = listed
    if current.full:
        back = {current.number - step for step in _steps(current.number)} | {1, current.number}
        shown = [page for page in listed if page.number in back]
    parts = []
    previous = None
    for page in reversed(shown):
        if page.number > current.number:
            continue
        if previous is not None and page.number < previous - 1:
            parts.append("…")
        previous = page.number
        text = label(page) + ("" if page.full else "（最新）")
        if page is current:
            parts.append(f"**{text}**")
        else:
            parts.append(doc_link(text, here, page_docname(docname, page)))
    if current.full:
        parts.insert(0, doc_link("最新", here, docname))
    return ["分页：" + " · ".join(parts), ""]


def _steps(number: int) -> list[int]:
    """1, 2, 4, 8, … below ``number``."""
    steps, step = [], 1
    while step < number:
        steps.append(step)
        step *= 2
    return steps


Body = Callable[[Page, str], list[str]]


def paged(
    docname: str,
    keys: Sequence[Key],
    size: int,
    head: list[str],
    title: str,
    body: Body,
    label: Label | None = None,
    source: str = "seeds/",
    redirects: dict[str, str] | None = None,
    unit: str = "篇",
) -> dict[str, str]:
    """The pages of a growing list: ``docname`` shows the newest entries after
    ``head`` (and, if it has several pages, links to the others); every full page
    is ``<docname>/p<k>``, titled ``title · 第 a–b 篇``. ``body(page, here)`` gives
    the lines that list a page's entries; ``redirects`` maps old addresses to pages."""
    label = label or entries_label(unit)
    listed = pages(keys, size)
    main = list(head)
    if listed:
        newest = listed[-1]
        if len(listed) > 1:
            main += [f"本页列出最新的 {newest.count} {unit}（{label(newest)}）；更早的每 {size} {unit}一页，从最早的一页起编号。", ""]
        main += page_links(docname, docname, listed, newest, label)
        main += body(newest, docname)
    main += redirect_directive(redirects or {})
    out = {f"{docname}.md": "\n".join(main).rstrip("\n") + "\n"}
    for page in listed[:-1]:
        part = page_docname(docname, page)
        lines = [
            marker(source),
            "",
            *orphan(),
            f"# {title} · {label(page)}",
            "",
            f"本页是{doc_link(title, part, docname)}按收录先后的{label(page)}，共 {page.count} {unit}。",
            "",
            *page_links(part, docname, listed, page, label),
            *body(page, part),
        ]
        out[f"{part}.md"] = "\n".join(lines).rstrip("\n") + "\n"
    return out


def redirect_directive(redirects: dict[str, str]) -> list[str]:
    """A ``{prnotes-redirects}`` directive: each line an old docname and the page it leads to."""
    if not redirects:
        return []
    return [f":::{{{contract.REDIRECTS_DIRECTIVE}}}", *(f"{old} {new}" for old, new in sorted(redirects.items())), ":::", ""]


def volume_redirects(site: Site, docname: str, notes: Sequence[Note], listed: list[Page], key=None) -> dict[str, str]:
    """The old per-volume addresses of a list (``<docname>/v<k>``, every volume
    but the newest that had entries), each to the page now holding that volume's oldest entry."""
    key = key or (lambda note: note_key(site, note))
    first: dict[int, Key] = {}
    for note in notes:
        volume = site.volume_of(note)
        k = key(note)
        if volume not in first or k < first[volume]:
            first[volume] = k
    if len(first) < 2 or not listed:
        return {}
    newest = max(first)
    return {f"{docname}/v{v}": page_docname(docname, page_of(listed, k)) for v, k in sorted(first.items()) if v != newest}


def note_pages(site: Site, docname: str, notes: Sequence[Note], head: list[str], title: str, body: Body,
               source: str = "seeds/", size: int | None = None, moved: Sequence[str] = ()) -> dict[str, str]:  # fmt: skip
    """:func:`paged` for a list of notes, by their arrival keys, with the redirects of its old volume
    pages; ``moved``: other old addresses of the list, which lead to its first page."""
    size = size or NOTE_PAGE
    ordered = sorted(notes, key=lambda n: note_key(site, n))
    keys = [note_key(site, n) for n in ordered]
    listed = pages(keys, size)
    redirects = volume_redirects(site, docname, ordered, listed) | {old: docname for old in moved}
    return paged(docname, keys, size, head, title, body, source=source, redirects=redirects)


def members(site: Site, notes: Sequence[Note], page: Page) -> list[Note]:
    """The notes of a list that a page holds."""
    return [n for n in notes if page.holds(note_key(site, n))]


# --- what a page says about its notes -------------------------------------


def note_link(note: Note, from_doc: str) -> str:
    """The note's title, linking to it; references in the title stay plain text."""
    return doc_link(inline(note.title_pieces, link_text=True), from_doc, note.docname)


def verdict_counts(notes: tuple[Note, ...] | list[Note]) -> str:
    """``精读 3 篇，速读 2 篇，未注明 1 篇`` (:func:`prnotes.model.classify.verdict_counts`)."""
    return count_verdicts(n.verdict for n in notes)


def subsystem_heading(site: Site, sub: RepoSubsystem) -> str:
    """A subsystem as a heading of a list of several repositories' notes: its
    title, and its repository when the archive holds more than one (plain text)."""
    return f"{sub.title}（{sub.repo}）" if site.by_repository else sub.title
