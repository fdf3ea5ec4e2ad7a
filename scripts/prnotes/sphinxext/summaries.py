"""Reading-list summaries: the first sentence of a note, shown on other pages.

A reading list holds ``{prnotes-summary}`notes/…/pr-N``` instead of the text.
When a note is read, :func:`collect` keeps the nodes of its summary sentence
(:func:`prnotes.summary.first_sentence_span`) in ``env``; when a page is
written, :class:`FillSummaries` puts a copy where the placeholder stands. So
editing a note re-reads only the note, and the pages that show its sentence are
written again (:func:`pages_to_rewrite`), not read again.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from .. import contract
from ..summary import first_sentence_span
from .docdata import DocData, rewrite_dependents
from .frozen import freeze, plain_text, thaw_into
from .metatags import escape_description
from .notefacts import advice_paragraphs

# note docname -> its summary (frozen nodes); page docname -> notes it summarises
SUMMARIES = DocData("prnotes_summaries")
USERS = DocData("prnotes_summary_users")



class summary_placeholder(nodes.Inline, nodes.Element):
    """Where a note's summary goes; replaced before any writer sees it."""


def summary_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [summary_placeholder(rawtext, target=text.strip())], []


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


def collect(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    summaries, users = SUMMARIES.of(env), USERS.of(env)
    if contract.is_note_docname(env.docname):
        found = summary_nodes(advice_paragraphs(doctree))
        summaries[env.docname] = tuple(freeze(n) for n in found)
        # The summary is also the page's Open Graph description: sphinxext-opengraph
        # reads "og:" keys of the page metadata (escaped here: see metatags.py).
        if found:
            env.metadata[env.docname]["og:description"] = escape_description("".join(n.astext() for n in found))
    targets = {node["target"] for node in doctree.findall(summary_placeholder)}
    if targets:
        users[env.docname] = targets


class FillSummaries(SphinxPostTransform):
    """Replace placeholders with the summary nodes of their notes."""

    # Before ReferencesResolver (10), which then resolves the copied PR links.
    default_priority = 5

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(summary_placeholder)):
            node.replace_self(summary_of(self.env, node["target"], self.env.docname))


def summary_of(env, docname: str, refdoc: str) -> nodes.inline:
    """A note's summary sentence, as nodes to put on page ``refdoc``."""
    return thaw_into(nodes.inline(classes=["prnotes-summary"]), SUMMARIES.of(env).get(docname, ()), refdoc)


def summary_text(env, docname: str) -> str:
    """A note's summary sentence as plain text ('' if it has none)."""
    return plain_text(SUMMARIES.of(env).get(docname, ()))


def meta_description(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """A note's summary as its ``<meta name="description">``."""
    found = SUMMARIES.of(app.env).get(pagename)
    if found:
        text = escape_description(plain_text(found))
        context["metatags"] = context.get("metatags", "") + f'\n<meta name="description" content="{text}">'


def setup(app: Sphinx) -> None:
    skip = (lambda self, node: None, lambda self, node: None)
    app.add_node(summary_placeholder, html=skip, latex=skip, text=skip, man=skip, texinfo=skip)
    app.add_role(contract.SUMMARY_ROLE, summary_role)
    app.add_post_transform(FillSummaries)
    app.connect("doctree-read", collect)
    SUMMARIES.connect(app)
    USERS.connect(app)
    # A reading list shows its notes' summaries: write it again when one changes.
    rewrite_dependents(app, USERS, include_changed=True)
    app.connect("html-page-context", meta_description)
