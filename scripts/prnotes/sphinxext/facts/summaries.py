"""Summaries: the first sentence of a note, shown on other pages.

When a note is read, :class:`Summaries` keeps the nodes of its summary sentence
(:func:`prnotes.model.summary.first_sentence_span`) in ``env``. The lists that show
it (:mod:`.lists`) copy them when their page is written, and the feed and the
meta tags (:mod:`.metatags`) take its text. So editing a note re-reads only the note; the pages
that show its sentence are written again, not read again.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from ... import contract
from ...model.summary import first_sentence_span
from . import state
from .frozen import freeze, plain_text, thaw_into
from .notes import advice_paragraphs



def summary_nodes(paragraphs: list[nodes.paragraph]) -> list[nodes.Node]:
    """Copies of the inline nodes that make up the summary sentence."""
    # Paragraphs are the advice's lines; "\n" between them ends a sentence,
    # as a line end does in the converter's pieces.
    items: list[nodes.Node | None] = []
    for index, para in enumerate(paragraphs):
        if index:
            items.append(None)
        for child in para.children:
            # A follow-up's mark (and its anchor) belongs to the note page:
            # elsewhere the sentence shows its text only.
            if isinstance(child, nodes.inline) and contract.FOLLOWUP_CLASS in child["classes"]:
                items.extend(child.children)
            else:
                items.append(child)
    segments = [("\n", True) if n is None else (n.astext(), isinstance(n, nodes.Text)) for n in items]
    start, end = first_sentence_span(segments)
    out: list[nodes.Node] = []
    pos = 0
    for node, (text, _) in zip(items, segments):
        lo, hi = pos, pos + len(text)
        pos = hi
        if node is None or hi <= start or lo >= end:
            continue
        if isinstance(node, nodes.Text):
            out.append(nodes.Text(text[max(start, lo) - lo : min(end, hi) - lo]))
        else:
            out.append(node.deepcopy())  # sentences end only in plain text: never cut
    return out


class Summaries(state.Collector[tuple]):
    """Note docname -> its summary (frozen nodes)."""

    name = "prnotes_summaries"

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        env = app.env
        if contract.is_note_docname(env.docname):
            self.of(env)[env.docname] = tuple(freeze(n) for n in summary_nodes(advice_paragraphs(doctree)))


def summary_of(env, docname: str, refdoc: str) -> nodes.inline:
    """A note's summary sentence, as nodes to put on page ``refdoc``."""
    return thaw_into(nodes.inline(classes=["prnotes-summary"]), Summaries.of(env).get(docname, ()), refdoc)


def summary_text(env, docname: str) -> str:
    """A note's summary sentence as plain text ('' if it has none)."""
    return plain_text(Summaries.of(env).get(docname, ()))


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.add_env_collector(Summaries)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
