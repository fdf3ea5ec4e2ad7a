"""Previous/next links that stay within a subsystem.

pydata-sphinx-theme links each page to its neighbours in toctree order, which
runs from the last note of one subsystem into the next subsystem's page. On a
note or a subsystem page, a neighbour that belongs to another subsystem is
dropped: the links lead through one subsystem's notes, from its page to its
last note.
"""

from __future__ import annotations

from sphinx.application import Sphinx

from .. import naming

SUBSYSTEM_PREFIX = naming.subsystem_docname("")


def _subsystem(docname: str | None, relations: dict) -> str | None:
    """The subsystem page a document belongs to: itself, or its toctree parent."""
    if not docname:
        return None
    if docname.startswith(SUBSYSTEM_PREFIX):
        return docname
    parent = relations.get(docname, (None,))[0]
    return parent if parent and parent.startswith(SUBSYSTEM_PREFIX) else None


def restrict_prev_next(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    relations = getattr(app.builder, "relations", {})
    mine = _subsystem(pagename, relations)
    if mine is None or pagename not in relations:
        return
    _, prev, nxt = relations[pagename]
    for key, neighbour in (("prev", prev), ("next", nxt)):
        if neighbour and _subsystem(neighbour, relations) != mine:
            context[key] = None


def setup(app: Sphinx) -> None:
    app.connect("html-page-context", restrict_prev_next)
