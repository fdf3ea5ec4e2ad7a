"""Unpublish pages whose source is gone.

Sphinx forgets a document whose source was deleted but leaves its HTML file
in the output, where it stays reachable. After an HTML build, every page
under ``notes/`` that is no longer a document of the site is removed, so a
deleted or renamed digest takes its notes off the site. The redirect files
of old addresses (:mod:`.redirects`) count as pages of the site, and so do,
in a build of some of the site's pages (the hub of the site in volumes),
the pages the link map says another build holds.
"""

from __future__ import annotations

import os
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

from ... import contract
from . import redirects
from . import web_site
from .. import _internals
from ..links.volumes import map_of

logger = logging.getLogger(__name__)


def stale_pages(outdir: Path, published: set[Path], suffix: str) -> list[Path]:
    """HTML files under ``outdir/notes`` that are not among the ``published``
    files of the site (each document's output file, as its builder names it)."""
    found = []
    for dirpath, _dirs, files in os.walk(outdir / contract.NOTES_DIR):
        for name in files:
            path = Path(dirpath) / name
            if name.endswith(suffix) and path not in published:
                found.append(path)
    return sorted(found)


def remove_stale(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or not web_site(app):
        return
    outdir = Path(app.outdir)
    # The site's pages: this build's, the old addresses' redirects, and those the link map says other builds hold.
    published = {Path(app.builder.get_outfilename(d)) for d in {*_internals.documents(app.env), *redirects.names(app.env), *map_of(app.env)["pages"]}}
    for page in stale_pages(outdir, published, app.builder.out_suffix):
        page.unlink()
        logger.info("removed %s: its source is gone", page.relative_to(outdir).as_posix())
        folder = page.parent
        while folder != outdir and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.site.redirects")
    app.connect("build-finished", remove_stale)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
