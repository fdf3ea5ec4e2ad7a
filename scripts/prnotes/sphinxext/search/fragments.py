"""Each page's snippet text: what a search result may quote, in a small file of its own.

A result's snippet comes from ``_search/text/<docname>.txt``, a few hundred
characters, not from the page itself (whose HTML, with the theme's
navigation, is a hundred times as long). For a note it is the advice (the
section the ``prnotes-advice`` class marks, without its heading and
admonitions); for another page, its text without its title. What carries the
``no-search`` class (:mod:`.derived`: field lists, badges, lists that repeat
other pages) is left out of both, as it is of the index.

The text is taken when the page is written (``doctree-resolved``) and kept
until the build writes the search files (:mod:`.publish`).
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx

from ... import contract
from ..facts import state
from ..facts.notes import section_titled
from .derived import ADVICE_CLASS, NO_SEARCH
from .language import LANG

# A snippet is 240 characters around the best match; a hub page's text may
# be long, and its beginning says what it is.
MAX_CHARS = 4000
_SPACE = re.compile(r"\s+")
_SKIPPED = (nodes.field_list, nodes.admonition, nodes.raw, nodes.comment, nodes.system_message, nodes.substitution_definition)
# The build state's name for the texts of the pages written in this build.


def _collect(node: nodes.Node, out: list[str]) -> None:
    if isinstance(node, nodes.Text):
        out.append(str(node))
        return
    if isinstance(node, _SKIPPED) or NO_SEARCH in node.get("classes", ()):
        return
    block = not isinstance(node, nodes.Inline)
    if block:
        out.append(" ")
    for child in node.children:
        _collect(child, out)
    if block:
        out.append(" ")


def _text(parts: list[nodes.Node]) -> str:
    out: list[str] = []
    for part in parts:
        _collect(part, out)
    return _SPACE.sub(" ", "".join(out)).strip()[:MAX_CHARS]


def page_text(doctree: nodes.document, docname: str) -> str:
    """The text a snippet of ``docname`` may quote."""
    if contract.is_note_docname(docname):
        advice = section_titled(doctree, contract.ADVICE_SECTION)
        if advice is not None and ADVICE_CLASS in advice["classes"]:
            said = _text(advice.children[1:])
            if said:
                return said
    # The page's own title is the result's title: leave it out.
    parts: list[nodes.Node] = []
    for child in doctree.children:
        if isinstance(child, nodes.section):
            parts.extend(c for c in child.children if not isinstance(c, nodes.title))
        else:
            parts.append(child)
    return _text(parts)


def take(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """On ``doctree-resolved``, after :func:`.derived.mark`: keep the page's text."""
    if app.builder.format != "html" or (app.config.html_search_language or app.config.language) != LANG:
        return
    state.of(app.env).page_texts[docname] = page_text(doctree, docname)


def written(app: Sphinx) -> dict[str, str]:
    """The texts of the pages written in this build, by docname."""
    return state.of(app.env).page_texts
