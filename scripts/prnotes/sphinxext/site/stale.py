"""Unpublish pages whose source is gone.

Sphinx forgets a document whose source was deleted but leaves its HTML file
in the output, where it stays reachable. After an HTML build, every page
under ``notes/`` that is no longer a document of the site is removed, so a
deleted or renamed digest takes its notes off the site. The redirect files
of old addresses (:mod:`.redirects`) count as pages of the site.
"""

from __future__ import annotations

import os
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

from ... import contract
from . import redirects

logger = logging.getLogger(__name__)


def stale_pages(outdir: Path, docnames: set[str], suffix: str) -> list[Path]:
    """HTML files under ``outdir/notes`` that no document of the site produces."""
    found = []
    for dirpath, _dirs, files in os.walk(outdir / contract.NOTES_DIR):
        rel_dir = Path(dirpath).relative_to(outdir).as_posix()
        for name in files:
            if name.endswith(suffix) and f"{rel_dir}/{name[: -len(suffix)]}" not in docnames:
                found.append(Path(dirpath) / name)
    return sorted(found)


def remove_stale(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.name != "html":
        return
    outdir = Path(app.outdir)
    for page in stale_pages(outdir, set(app.env.all_docs) | redirects.names(app.env), app.builder.out_suffix):
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
