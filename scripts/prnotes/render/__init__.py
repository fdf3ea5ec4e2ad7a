"""Render the site model to page texts. Pure: no disk access.

:func:`render_site` returns ``{relative path: text}`` for every generated page.
"""

from __future__ import annotations

from .. import contract
from ..model import Site
from .digests import render_digests
from .landing import render_landing
from .note import render_note
from .prindex import render_prindex
from .readinglists import render_reading_lists
from .subsystem import render_subsystem
from .symbols import render_symbols
from .tags import render_tags
from .watchlist import render_watchlist


def render_site(site: Site) -> dict[str, str]:
    pages: dict[str, str] = {}
    used = [s.slug for s in site.taxonomy.subsystems if site.in_subsystem(s.slug)]
    for note in site.notes:
        pages[f"{note.docname}.md"] = render_note(note, site)
    for slug in used:
        pages.update(render_subsystem(site, site.taxonomy.subsystem(slug), site.in_subsystem(slug)))
    pages.update(render_prindex(site))
    pages["index.md"] = render_landing(site, used)
    pages.update(render_reading_lists(site))
    pages.update(render_watchlist(site))
    pages.update(render_symbols(site))
    pages.update(render_tags(site))
    pages.update(render_digests(site))
    return dict(sorted(pages.items()))
