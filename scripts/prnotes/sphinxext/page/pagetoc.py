"""The "On this page" sidebar only where a page has parts to list.

A page whose table of contents would list nothing but its own title (a
note with one section, say) gets the theme's documented page metadata
``html_theme.sidebar_secondary.remove``, so the theme leaves the column out;
``conf.py`` names ``page-toc.html`` among the templates that never render
empty, so the theme renders it once per page.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

REMOVE = "html_theme.sidebar_secondary.remove"


def has_page_toc(doctree: nodes.document) -> bool:
    """More than one top-level heading, or one with sections under it."""
    top = [child for child in doctree.children if isinstance(child, nodes.section)]
    if len(top) != 1:
        return len(top) > 1
    return any(isinstance(child, nodes.section) for child in top[0].children)


def mark_pages_without_toc(app: Sphinx, doctree: nodes.document) -> None:
    metadata = app.env.metadata[app.env.docname]
    if has_page_toc(doctree):
        metadata.pop(REMOVE, None)
    else:
        metadata[REMOVE] = "true"


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", mark_pages_without_toc)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
