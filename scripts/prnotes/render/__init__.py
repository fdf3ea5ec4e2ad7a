"""Render the site model to page texts. Pure: no disk access.

:func:`render_site` returns ``{relative path: text}`` for every generated page;
:func:`render_pages` leaves out the note pages a caller knows to be current.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import contract
from ..model.site import Site
from .digests import render_digests
from .landing import render_feeds_page, render_landing, render_unread, render_weeks
from .note import page_key, render_note
from .prindex import render_prindex
from .readinglists import render_reading_lists
from .subsystem import render_book_root, render_subsystem
from .symbols import render_symbols
from .tags import render_tags
from .watchlist import render_watchlist


@dataclass(frozen=True)
class Rendered:
    pages: dict[str, str]  # the pages rendered, sorted by path
    keys: dict[str, str]  # note page -> its page key (see render.note.page_key)
    kept: frozenset[str]  # note pages left out as current


def render_pages(site: Site, current: Callable[[str, str], bool] | None = None) -> Rendered:
    """Every generated page, but the note pages for which ``current(path, key)`` holds.

    Note pages are most of the site and each depends on a few notes only
    (:func:`.note.page_key`); the other pages are few and small, and always rendered.
    """
    pages: dict[str, str] = {}
    keys: dict[str, str] = {}
    kept = set()
    for note in site.notes:
        rel = f"{note.docname}.md"
        keys[rel] = key = page_key(note, site)
        if current is not None and current(rel, key):
            kept.add(rel)
        else:
            pages[rel] = render_note(note, site)
    pages.update(_hub_pages(site))
    return Rendered(dict(sorted(pages.items())), keys, frozenset(kept))


def _hub_pages(site: Site) -> dict[str, str]:
    pages: dict[str, str] = {}
    for sub in site.subsystems:
        pages.update(render_subsystem(site, sub, site.in_subsystem(sub.key)))
    pages.update(render_prindex(site))
    pages["index.md"] = render_landing(site)
    pages.update(render_reading_lists(site))
    pages.update(render_watchlist(site))
    pages.update(render_symbols(site))
    pages.update(render_tags(site))
    pages.update(render_digests(site))
    pages.update(render_feeds_page(site))
    pages.update(render_unread(site))
    pages.update(render_weeks(site))
    pages[f"{contract.BOOK_ROOT}.md"] = render_book_root(site)
    return pages
