"""``sitemap.xml``: every page of the site, sorted, with absolute URLs on ``html_baseurl``.

Written from the environment when an HTML build finishes, so an incremental
build lists every page as a clean one does, and only when it changed. The
book's root page (a page for the LaTeX builder) is left out.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from sphinx.application import Sphinx

from ... import contract
from ...write.files import write_file
from . import web_site

SITEMAP = "sitemap.xml"
LEFT_OUT = frozenset({contract.BOOK_ROOT})


def sitemap_xml(base: str, uris: list[str]) -> bytes:
    urls = "".join(f"<url><loc>{escape(base + uri)}</loc></url>\n" for uri in uris)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{urls}</urlset>\n'
    ).encode("utf-8")


def write_sitemap(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or not web_site(app):
        return
    base = app.config.html_baseurl.rstrip("/") + "/"
    uris = [app.builder.get_target_uri(d) for d in sorted(app.env.all_docs) if d not in LEFT_OUT]
    write_file(Path(app.outdir) / SITEMAP, sitemap_xml(base, uris))


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", write_sitemap)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
