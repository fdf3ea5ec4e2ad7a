"""Previous/next links that stay within a subsystem.

pydata-sphinx-theme links each page to its neighbours in toctree order, which
runs from the last note of one subsystem into the next subsystem's page, and
from the last note of the last subsystem into the reading lists. A link from or
to a note is dropped when the two pages belong to different subsystems, so the
links lead through one subsystem, from its page to its last note. Links
between other pages (the landing page, subsystem pages, index pages) stay, and
a subsystem page links back to the previous subsystem page.

The buttons name what they lead to, in the words the pages use: 上一篇/下一篇
for a note, 上一期/下一期 for a digest, 上一页/下一页 for any other page
(``prnotes_prev_label`` and ``prnotes_next_label``, shown by
``_templates/components/prev-next.html``).

A page whose neighbours changed is written again though its source did not
change (:func:`neighbours_changed`, through :mod:`.rewrites`): the pages
beside a note added or deleted, or beside a page whose title changed.
"""

from __future__ import annotations

import html

from sphinx.application import Sphinx

from .. import contract
from . import _internals, rewrites

SUBSYSTEM_PREFIX = contract.subsystem_docname("")


def _subsystem(docname: str | None, relations: dict) -> str | None:
    """The subsystem page a document belongs to: itself, or its toctree parent."""
    if not docname:
        return None
    if docname.startswith(SUBSYSTEM_PREFIX):
        return docname
    parent = relations.get(docname, (None,))[0]
    return parent if parent and parent.startswith(SUBSYSTEM_PREFIX) else None


LABELS = {"note": ("上一篇", "下一篇"), "digest": ("上一期", "下一期"), "page": ("上一页", "下一页")}


def _kind(docname: str) -> str:
    if contract.is_note_docname(docname):
        return "note"
    if contract.is_digest_docname(docname):
        return "digest"
    return "page"


def restrict_prev_next(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    relations = _internals.relations(app.builder)
    if pagename not in relations:
        return
    _, prev, nxt = relations[pagename]
    for key, neighbour in (("prev", prev), ("next", nxt)):
        if neighbour and (contract.is_note_docname(pagename) or contract.is_note_docname(neighbour)):
            if _subsystem(neighbour, relations) != _subsystem(pagename, relations):
                context[key] = None
                neighbour = None
                if key == "prev" and pagename.startswith(SUBSYSTEM_PREFIX):
                    neighbour = _page_before_notes(app, prev, relations)
                    if neighbour:
                        # The theme inserts the title as HTML, as Sphinx renders its own titles.
                        context[key] = {
                            "link": context["pathto"](neighbour),
                            "title": html.escape(app.env.titles[neighbour].astext()),
                        }
        backward, forward = LABELS[_kind(neighbour or "")]
        context[f"prnotes_{key}_label"] = backward if key == "prev" else forward


def _page_before_notes(app: Sphinx, docname: str, relations: dict) -> str | None:
    """Walk back over the previous subsystem's notes to the page before them."""
    seen = 0
    while docname and contract.is_note_docname(docname) and seen <= len(relations):
        docname = relations.get(docname, (None, None))[1]
        seen += 1
    return docname if docname and docname in app.env.titles else None


# The page tree as the last build left it: {docname: [parent, previous, next]}.
RELATIONS = "prnotes_relations"


def _title(env, docname: str) -> str | None:
    """What a button to ``docname`` shows of it: its title, as a tree (markup included)."""
    title = env.titles.get(docname)
    return title.pformat() if title is not None else None


def titles_before(app: Sphinx, env, outdated: rewrites.Outdated) -> dict[str, str | None]:
    """Before reading: the titles of the pages about to be read again, as they were."""
    return {docname: _title(env, docname) for docname in outdated.added | outdated.changed}


def neighbours_changed(app: Sphinx, env, outdated: rewrites.Outdated, read: dict[str, str | None]) -> list[str]:
    """After reading: the pages whose parent, previous or next page changed, and
    those whose previous or next page was read again with another title (the
    button shows it). Without this, a note beside one added or deleted keeps
    a button to its old neighbour, or to a page that is gone. A page read
    again under the same title (a list page, read again with most digests)
    leaves its neighbours alone, and a parent's children are not rewritten."""
    relations = _internals.page_tree(env)
    old = getattr(env, RELATIONS, None)
    setattr(env, RELATIONS, relations)
    if old is None:
        return []
    retitled = {docname for docname, title in read.items() if _title(env, docname) != title}
    return [
        docname
        for docname, links in relations.items()
        if old.get(docname) != links or any(link in retitled for link in links[1:])
    ]


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", restrict_prev_next)
    rewrites.register(app, rewrites.Rewrite("neighbours", neighbours_changed, titles_before))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
