"""What the Sphinx side knows about each note, collected while reading it.

A note page opens with a ``{prnotes-note}`` directive (written by the
converter, showing nothing) that states the facts the model derived: the
note's repository and number, its digest and place in it, its volume, verdict,
subsystem, audiences, tags, code symbols and the PRs it mentions. With the
page title, the advice text and the items of its 待跟进 box, read from the
doctree, they go into ``env`` (:data:`FACTS`), purged and merged like every
per-document store. The feed, the header's repository links and every list of
notes (:mod:`.lists`) are built from here, never from the seeds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from .. import contract
from .docdata import DocData
from .frozen import Frozen, freeze


@dataclass(frozen=True)
class NoteFacts:
    repo: str
    number: int | None
    digest: str  # seed path
    digest_number: int
    volume: int
    position: int
    verdict: str
    subsystem: str
    audiences: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    symbols: tuple[tuple[str, str], ...] = ()  # (kind, name)
    mentions: tuple[tuple[str, int, str], ...] = ()  # (repo, number, "pull" or "issues")
    # Read from the doctree:
    title: tuple[Frozen, ...] = ()  # the page title's nodes
    advice: str = ""  # plain text, lines joined by newlines
    follow_ups: tuple[tuple[Frozen, ...], ...] = ()  # each item of the 待跟进 box

    @property
    def sort_key(self) -> tuple:
        """Newest PR first; notes without a number after (see :attr:`prnotes.model.Note.sort_key`)."""
        return (self.number is None, -(self.number or 0), self.repo)


FACTS = DocData("prnotes_note_facts")


def _words(text: str | None) -> tuple[str, ...]:
    return tuple(w for w in (text or "").split() if w)


def _symbols(text: str | None) -> tuple[tuple[str, str], ...]:
    out = []
    for word in _words(text):
        kind, _, name = word.partition(":")
        out.append((kind, contract.unquote_path(name)))
    return tuple(out)


def _mentions(text: str | None) -> tuple[tuple[str, int, str], ...]:
    out = []
    for word in _words(text):
        target, _, kind = word.partition(":")
        parsed = contract.parse_target(target)
        if parsed:
            out.append((parsed[0], parsed[1], kind or "pull"))
    return tuple(out)


class NoteDirective(SphinxDirective):
    """``{prnotes-note}``: the facts of the note on this page (shows nothing)."""

    has_content = False
    option_spec = {
        "repo": directives.unchanged_required,
        "number": directives.nonnegative_int,
        "digest": directives.unchanged_required,
        "digest-number": directives.nonnegative_int,
        "volume": directives.nonnegative_int,
        "position": directives.nonnegative_int,
        "verdict": directives.unchanged,
        "subsystem": directives.unchanged,
        "audiences": directives.unchanged,
        "tags": directives.unchanged,
        "symbols": directives.unchanged,
        "mentions": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        get = self.options.get
        FACTS.of(self.env)[self.env.docname] = NoteFacts(
            repo=(get("repo") or "").strip(),
            number=get("number") or None,
            digest=contract.unquote_path(get("digest") or ""),
            digest_number=get("digest-number") or 0,
            volume=get("volume") or 0,
            position=get("position") or 0,
            verdict=(get("verdict") or "").strip(),
            subsystem=(get("subsystem") or "").strip(),
            audiences=_words(get("audiences")),
            tags=_words(get("tags")),
            symbols=_symbols(get("symbols")),
            mentions=_mentions(get("mentions")),
        )
        return []


def section_titled(doctree: nodes.document, title: str) -> nodes.section | None:
    for section in doctree.findall(nodes.section):
        if section.children and isinstance(section[0], nodes.title) and section[0].astext() == title:
            return section
    return None


def advice_paragraphs(doctree: nodes.document) -> list[nodes.paragraph]:
    """The paragraphs of a note's advice section (its text, verbatim)."""
    section = section_titled(doctree, contract.ADVICE_SECTION)
    if section is None:
        return []
    return [child for child in section.children[1:] if isinstance(child, nodes.paragraph)]


def follow_up_items(doctree: nodes.document) -> list[nodes.paragraph]:
    """The items of the note's 待跟进 box, as the note page shows them."""
    for box in doctree.findall(nodes.Element):
        if "prnotes-followups" in box.get("classes", ()):
            return [p for item in box.findall(nodes.list_item) for p in item.children[:1] if isinstance(p, nodes.paragraph)]
    return []


def collect(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    store = FACTS.of(env)
    found = store.get(env.docname)
    if found is None:
        return
    title = next(iter(doctree.findall(nodes.title)), None)
    store[env.docname] = replace(
        found,
        title=tuple(freeze(c) for c in title.children) if title is not None else (),
        advice="\n".join(p.astext() for p in advice_paragraphs(doctree)),
        follow_ups=tuple(tuple(freeze(c) for c in p.children) for p in follow_up_items(doctree)),
    )


def repositories(env) -> list[str]:
    """``owner/repo`` of every note on the site, sorted."""
    return sorted({f.repo for f in FACTS.of(env).values() if f.repo}, key=lambda r: (r.lower(), r))


def setup(app: Sphinx) -> None:
    app.add_directive(contract.NOTE_DIRECTIVE, NoteDirective)
    app.connect("doctree-read", collect)
    FACTS.connect(app)
