"""What the Sphinx side knows about each note, collected while reading it.

A note page opens with a ``{prnotes-note}`` directive (written by the
converter, showing nothing) that names the note's digest, its place in the
digest, its verdict and subsystem. With the page title and the advice text,
read from the doctree, these go into ``env`` (:data:`FACTS`), purged and
merged like every per-document store, so the feed and the header's repository
links are built from the environment, never from the seeds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from .. import contract
from .docdata import DocData


@dataclass(frozen=True)
class NoteFacts:
    repo: str
    digest: str  # seed path
    position: int
    verdict: str
    subsystem: str
    advice: str = ""  # plain text, lines joined by newlines


FACTS = DocData("prnotes_note_facts")


class NoteDirective(SphinxDirective):
    has_content = False
    option_spec = {
        "repo": directives.unchanged_required,
        "digest": directives.unchanged_required,
        "position": directives.nonnegative_int,
        "verdict": directives.unchanged,
        "subsystem": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        FACTS.of(self.env)[self.env.docname] = NoteFacts(
            repo=self.options.get("repo", "").strip(),
            digest=contract.unquote_path(self.options.get("digest", "")),
            position=self.options.get("position", 0),
            verdict=(self.options.get("verdict") or "").strip(),
            subsystem=(self.options.get("subsystem") or "").strip(),
        )
        return []


def advice_paragraphs(doctree: nodes.document) -> list[nodes.paragraph]:
    """The paragraphs of a note's advice section (its text, verbatim)."""
    for section in doctree.findall(nodes.section):
        if section.children and isinstance(section[0], nodes.title) and section[0].astext() == contract.ADVICE_SECTION:
            return [child for child in section.children[1:] if isinstance(child, nodes.paragraph)]
    return []


def collect(app: Sphinx, doctree: nodes.document) -> None:
    store = FACTS.of(app.env)
    found = store.get(app.env.docname)
    if found is not None:
        text = "\n".join(p.astext() for p in advice_paragraphs(doctree))
        store[app.env.docname] = replace(found, advice=text)


def repositories(env) -> list[str]:
    """``owner/repo`` of every note on the site, sorted."""
    return sorted({f.repo for f in FACTS.of(env).values() if f.repo}, key=lambda r: (r.lower(), r))


def setup(app: Sphinx) -> None:
    app.add_directive(contract.NOTE_DIRECTIVE, NoteDirective)
    app.connect("doctree-read", collect)
    FACTS.connect(app)
