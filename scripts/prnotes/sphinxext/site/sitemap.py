"""``sitemap.xml`` and ``robots.txt``: what search engines are told of the site, when it has an address.

The sitemap lists every page of the site, sorted, with its absolute URL on
``html_baseurl`` and a ``<lastmod>``: a note page's is its digest's date
(the commit that added the digest's seed file, :mod:`..facts.buildtime`); a
page with lists of notes (:mod:`..lists.fill`) takes the newest date of the
notes its lists show; any other page the newest date of any note. A note
whose digest has no date (not committed yet) counts as changed when the
sources last did (:func:`..facts.buildtime.sources_time`:
``SOURCE_DATE_EPOCH``, the commit checked out, the newest seed file). Each
is a function of the sources and their history, never of the time of the
build, so two builds of one commit write the same bytes. ``robots.txt``
lets every crawler in and names the sitemap.

A build that knows no address (a preview: no ``PRNOTES_BASEURL``, no host's)
writes neither: a sitemap's URLs must be absolute, and ``robots.txt`` is
only there to name it. It removes the ones an earlier build with an address
left in the output, so the output never names a host it was not built for.
A ``robots.txt`` of the site's own (in ``html_extra_path``) is left alone.

Both are written from the environment when an HTML build finishes, so an
incremental build lists every page as a clean one does, and only when they
changed. The book's root page (a page for the LaTeX builder) is left out.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from xml.sax.saxutils import escape

from sphinx.application import Sphinx

from ... import contract
from ...write.files import write_file
from ..facts.buildtime import feed_time, sources_time
from ..facts.notes import present
from ..lists.fill import FactsIndex, Users as ListUsers
from . import web_site
from .. import _internals

SITEMAP = "sitemap.xml"
ROBOTS = "robots.txt"
LEFT_OUT = frozenset({contract.BOOK_ROOT})


def sitemap_xml(base: str, pages: list[tuple[str, str]]) -> bytes:
    """The sitemap of ``pages``, ``(uri, lastmod)`` pairs, URIs relative to ``base``."""
    urls = "".join(f"<url><loc>{escape(base + uri)}</loc><lastmod>{when}</lastmod></url>\n" for uri, when in pages)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{urls}</urlset>\n'
    ).encode("utf-8")


def robots_txt(base: str) -> bytes:
    """Every crawler may read every page; the sitemap says which there are."""
    return f"User-agent: *\nDisallow:\n\nSitemap: {base}{SITEMAP}\n".encode("utf-8")


def _when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def page_dates(app: Sphinx, docnames: list[str]) -> dict[str, str]:
    """Each page's last change, as W3C Datetime (ISO 8601 with the offset the date was made in)."""
    env = app.env
    fallback = sources_time(app)
    notes = present(env)
    dated = {d: _when(feed_time(env, f.digest) or fallback) for d, f in notes.items()}
    # Newest first: a list's date is that of the first note it shows in this order.
    newest = sorted(dated, key=lambda d: (dated[d], d), reverse=True)
    site_newest = dated[newest[0]] if newest else _when(fallback)
    lists = ListUsers.of(env)
    index = FactsIndex.of(env) if lists else None
    found = {}
    for docname in docnames:
        if docname in dated:
            when = dated[docname]
        elif queries := lists.get(docname):
            first = next((d for d in newest if any(q.affects(notes[d], index) for q in queries)), None)
            when = dated[first] if first is not None else _when(fallback)
        else:
            when = site_newest
        found[docname] = when.isoformat()
    return found


def _own_robots(app: Sphinx) -> bool:
    """Whether the site ships a robots.txt of its own (``html_extra_path``)."""
    confdir = Path(app.confdir)
    return any((confdir / extra / ROBOTS).is_file() for extra in app.config.html_extra_path)


def write_sitemap(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or not web_site(app):
        return
    outdir = Path(app.outdir)
    own_robots = _own_robots(app)
    if not app.config.html_baseurl:
        (outdir / SITEMAP).unlink(missing_ok=True)
        if not own_robots:
            (outdir / ROBOTS).unlink(missing_ok=True)
        return
    base = app.config.html_baseurl.rstrip("/") + "/"
    docnames = [d for d in sorted(_internals.documents(app.env)) if d not in LEFT_OUT]
    dates = page_dates(app, docnames)
    write_file(outdir / SITEMAP, sitemap_xml(base, [(app.builder.get_target_uri(d), dates[d]) for d in docnames]))
    if not own_robots:
        write_file(outdir / ROBOTS, robots_txt(base))


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.setup_extension("prnotes.sphinxext.facts.buildtime")
    app.setup_extension("prnotes.sphinxext.lists.fill")
    app.connect("build-finished", write_sitemap)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
