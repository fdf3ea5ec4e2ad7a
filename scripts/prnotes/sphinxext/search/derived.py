"""Leave text that only repeats other pages out of the search index.

The landing page, the subsystem pages and the PR index list every note's
title, and a note's 相关 section lists the titles of the notes it mentions and
of those that mention it. Indexed, these lists make hub pages match nearly
every query and double the index. The ``no-search`` class, which Sphinx's
indexer skips, marks them; the pages' own titles and prose stay searchable.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

from ... import contract



def derived_nodes(doctree: nodes.document, docname: str) -> list[nodes.Element]:
    if contract.is_note_docname(docname):
        return [
            s
            for s in doctree.findall(nodes.section)
            if s.children and isinstance(s[0], nodes.title) and s[0].astext() == contract.RELATED_SECTION
        ]
    found: list[nodes.Element] = [n for n in doctree.findall(nodes.list_item)]
    found += [n for n in doctree.findall(addnodes.compact_paragraph) if "toctree-wrapper" in n["classes"]]
    return found


def mark(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """On ``doctree-resolved`` (toctrees are expanded by then)."""
    for node in derived_nodes(doctree, docname):
        if "no-search" not in node["classes"]:
            node["classes"].append("no-search")
