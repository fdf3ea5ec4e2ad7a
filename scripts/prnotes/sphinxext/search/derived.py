"""Leave text that only repeats other pages, and page furniture, out of the search index.

The landing page, the subsystem pages and the PR index list every note's
title, and a note's 相关 section lists the titles of the notes it mentions and
of those that mention it. Indexed, these lists make hub pages match nearly
every query and double the index. A note's field list (repository, PR,
upstream title, audiences, digest) and its badges are furniture: the same
words on every note (but for the subsystem's badge). The ``no-search`` class, which Sphinx's indexer
skips (a documented class), marks all of them; the pages' own titles and
prose stay searchable, and the PR number and upstream title are indexed as
title terms (:mod:`.titles`). The result snippets (:mod:`.fragments`) leave
out what carries the class too, and take a note's snippet from the section
the ``prnotes-advice`` class marks: the advice.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

from ... import contract
from .. import _internals
from ..facts.notes import section_titled
from .language import LANG

NO_SEARCH = "no-search"
ADVICE_CLASS = "prnotes-advice"


def derived_nodes(doctree: nodes.document, docname: str) -> list[nodes.Element]:
    if contract.is_note_docname(docname):
        related = section_titled(doctree, contract.RELATED_SECTION)
        return [related] if related is not None else []
    found: list[nodes.Element] = [n for n in doctree.findall(nodes.list_item)]
    found += [n for n in doctree.findall(addnodes.compact_paragraph) if "toctree-wrapper" in n["classes"]]
    return found


def furniture_nodes(doctree: nodes.document) -> list[nodes.Element]:
    """The fields of field lists, and badges but a note's subsystem badge, on every page.

    The subsystem stays: a note filed under 投机解码 is what a reader who
    types 投机解码 looks for, even where its advice says MTP or EAGLE. Its
    badge stands in a span of :data:`prnotes.contract.SUBSYSTEM_BADGE_CLASS`.
    """
    found: list[nodes.Element] = list(doctree.findall(nodes.field))
    badges = [n for n in doctree.findall(nodes.Element) if _internals.DESIGN_BADGE in n.get("classes", ())]
    return found + [n for n in badges if not _subsystem_badge(n)]


def _subsystem_badge(badge: nodes.Element) -> bool:
    parent = badge.parent
    return isinstance(parent, nodes.Element) and contract.SUBSYSTEM_BADGE_CLASS in parent.get("classes", ())


def mark(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """On ``doctree-resolved`` (toctrees are expanded by then). The furniture
    only with the site's search language, which indexes the PR number and
    upstream title as title terms instead (another language, such as the
    ``zh`` that bench/search.py compares with, indexes the page as it is)."""
    ours = (app.config.html_search_language or app.config.language) == LANG
    for node in derived_nodes(doctree, docname) + (furniture_nodes(doctree) if ours else []):
        if NO_SEARCH not in node["classes"]:
            node["classes"].append(NO_SEARCH)
    if contract.is_note_docname(docname):
        advice = section_titled(doctree, contract.ADVICE_SECTION)
        if advice is not None and ADVICE_CLASS not in advice["classes"]:
            advice["classes"].append(ADVICE_CLASS)
