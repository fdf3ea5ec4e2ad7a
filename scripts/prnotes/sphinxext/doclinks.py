"""Markdown links between pages, read without asking the file system.

The converter links pages to each other with relative Markdown links
(``[第 64 期](../digests/064.md)``), which read as links on GitHub too. MyST
resolves each one through file paths; the hub pages hold hundreds of them, and
that made up a tenth of adding a day's digest to a 1,000-note archive. This
parser (MyST's, see :func:`._compat.markdown_parser`) resolves a relative
``.md`` link to one of the project's documents from the names alone, and
leaves every other link to MyST.
"""

from __future__ import annotations

import posixpath
from typing import Any

from sphinx.application import Sphinx

from . import _compat

# Not a relative path to a Markdown page: a URL scheme, a query, a fragment, a
# Windows separator.
_NOT_A_PAGE_PATH = (":", "?", "#", "\\")


def target(env: Any, href: str) -> str | None:
    """The document a link ``href`` on the page being read points at, if it
    is a relative path to one of the project's pages; None for anything else."""
    if not href.endswith(".md") or href.startswith("/") or any(c in href for c in _NOT_A_PAGE_PATH):
        return None
    docname = posixpath.normpath(posixpath.join(posixpath.dirname(env.docname), href[: -len(".md")]))
    return docname if docname in env.found_docs else None


def setup(app: Sphinx) -> None:
    app.setup_extension("myst_parser")
    app.add_source_parser(_compat.markdown_parser(target), override=True)
