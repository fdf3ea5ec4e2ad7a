"""What the Sphinx side knows about each note, collected while reading it.

A note page opens with a ``{prnotes-note}`` directive (written by the
converter, showing nothing) that states the facts the model derived: the
note's repository and number, its digest and place in it, its volume, verdict,
subsystem, audiences, tags, code symbols and the PRs it mentions. With the
page title, the advice text and the items of its 待跟进 box (each a label,
the PRs and issues it names, and the anchor of its sentence), read from the
doctree, they go into ``env`` (:class:`Facts`, a :class:`.state.Collector`). The feed, the header's repository links and every list of
notes (:mod:`.lists`) are built from here, never from the seeds.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, replace

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import SphinxError
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

from ... import contract
from ...parse import regular
from . import state
from .frozen import Frozen, freeze
from ..links.prlinks import REFTYPES
from .. import _internals


@dataclass(frozen=True)
class FollowUpFacts:
    """One item of a note's 待跟进 box."""

    label: tuple[Frozen, ...]  # what to watch, as the box shows it
    targets: tuple[tuple[str, int, str], ...]  # (repo, number, "pull" or "issues") it names
    anchor: str  # id of the marked sentence on the note page


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
    follow_ups: tuple[FollowUpFacts, ...] = ()  # the items of the 待跟进 box
    upstream: str = ""  # the upstream English title ("" when the note has none)
    words: str = ""  # the dictionary's words of its title and advice (search/pairs.py), cut once, when it is read

    @property
    def sort_key(self) -> tuple:
        """By repository, then newest PR first; notes without a number after. The
        lists break ties by title, as :attr:`prnotes.model.site.Note.sort_key` does."""
        return (self.repo.lower(), self.number is None, -(self.number or 0))


class Facts(state.Collector[NoteFacts]):
    """Note docname -> its facts: the directive's, then the doctree's."""

    name = "prnotes_note_facts"

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        env = app.env
        store = self.of(env)
        found = store.get(env.docname)
        if found is None:
            return
        from ..search.pairs import dictionary_words  # the search's own reading of the note, kept with its facts

        title = next(iter(doctree.findall(nodes.title)), None)
        advice = "\n".join(text for p in advice_paragraphs(doctree) if (text := p.astext().strip()))
        store[env.docname] = replace(
            found,
            title=tuple(freeze(c) for c in title.children) if title is not None else (),
            advice=advice,
            words=dictionary_words(f"{title.astext() if title is not None else ''}\n{advice}"),
            follow_ups=tuple(follow_up_items(doctree)),
            upstream=field_text(doctree, contract.UPSTREAM_FIELD),
        )


def present(env) -> dict[str, NoteFacts]:
    """The facts of the notes the site has, by docname, sorted: this build's, and
    those another build of the site's volumes holds (``prnotes_facts_in``)."""
    documents, sources = _internals.documents(env), _internals.sources(env)
    return {d: f for d, f in sorted(Facts.of(env).items()) if d in documents or d not in sources}




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
        Facts.of(self.env)[self.env.docname] = NoteFacts(
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
    """A page's section of that title: a part of the page, never the page's own
    title section (a note may be titled 相关 or 阅读建议)."""
    for section in doctree.findall(nodes.section):
        if isinstance(section.parent, nodes.document):
            continue
        if section.children and isinstance(section[0], nodes.title) and section[0].astext() == title:
            return section
    return None


def field_text(doctree: nodes.document, label: str) -> str:
    """The text of the page's field ``label`` ('' when it has none)."""
    for field in doctree.findall(nodes.field):
        name, body = field.children[:2]
        if name.astext().strip() == label:
            return body.astext().strip()
    return ""


def advice_paragraphs(doctree: nodes.document) -> list[nodes.paragraph]:
    """The paragraphs of a note's advice section (its text, verbatim)."""
    section = section_titled(doctree, contract.ADVICE_SECTION)
    if section is None:
        return []
    return [child for child in section.children[1:] if isinstance(child, nodes.paragraph)]


def follow_up_items(doctree: nodes.document) -> list[FollowUpFacts]:
    """The items of the note's 待跟进 box: each label, the PRs and issues
    linked beside it, and the anchor of its sentence in the advice."""
    box = next((b for b in doctree.findall(nodes.Element) if contract.FOLLOWUPS_BOX_CLASS in b.get("classes", ())), None)
    if box is None:
        return []
    items = []
    for index, item in enumerate(box.findall(nodes.list_item), start=1):
        para = item.children[0] if item.children and isinstance(item.children[0], nodes.paragraph) else None
        if para is None:
            continue
        label = next((n for n in para.findall(nodes.inline) if contract.FOLLOWUP_LABEL_CLASS in n["classes"]), para)
        targets = []
        for xref in para.findall(addnodes.pending_xref):
            parsed = contract.parse_target(xref.get("reftarget", ""))
            if parsed and xref.get("reftype") in REFTYPES:
                targets.append((*parsed, REFTYPES[xref["reftype"]]))
        items.append(FollowUpFacts(tuple(freeze(c) for c in label.children), tuple(targets), contract.followup_anchor(index)))
    return items


def repositories(env) -> list[str]:
    """``owner/repo`` of every note on the site, most notes first, ties by name
    (:func:`prnotes.contract.repository_order`, as the converter orders them)."""
    return contract.repository_order(Counter(f.repo for f in present(env).values() if f.repo))


def site_repositories(env) -> list[str]:
    """:func:`repositories`, worked out once per build, when pages are written; the whole
    archive's, from the link map, in a build that holds some of its pages (docs/volumes.md)."""
    from ..links.volumes import map_of

    return map_of(env)["repositories"] or state.once(env, repositories)


class PageLocalFollowUpAnchors(SphinxTransform):
    """Keep a note's follow-up anchors (``followup-1`` …) to its own page.

    MyST makes the id of a marked sentence a document-wide name, which the
    standard domain would then publish as a site-wide label in objects.inv:
    every note has a ``followup-1``, so the label would point to whichever
    note was read last, which depends on ``-j``. The anchor only ever serves
    links to that page, so the name goes and the id stays.
    """

    default_priority = 840  # before SphinxDomains (850) collects the labels

    def apply(self, **kwargs) -> None:
        # The document's names, not its nodes: a note has a handful of names.
        document = self.document
        for name, node_id in list(document.nameids.items()):
            node = document.ids.get(node_id)
            if node is None or contract.FOLLOWUP_CLASS not in node.get("classes", ()):
                continue
            del document.nameids[name]
            document.nametypes.pop(name, None)
            node["names"] = [n for n in node["names"] if n != name]


def refuse_special_pages(app: Sphinx, env, docnames: list[str]) -> None:
    """Before Sphinx reads: a page that is a named pipe or a device would block
    it or be read without end (``prnotes build`` checks first, with one line;
    this is for a plain sphinx-build)."""
    for docname in docnames:
        try:
            what = regular.kind(os.stat(env.doc2path(docname)).st_mode)
        except OSError:
            continue
        if what is not None:
            raise SphinxError(f"{env.doc2path(docname, False)} is {what}, not a regular file; Sphinx reads only regular files")


def setup(app: Sphinx) -> dict:
    app.connect("env-before-read-docs", refuse_special_pages)
    app.add_directive(contract.NOTE_DIRECTIVE, NoteDirective)
    app.add_transform(PageLocalFollowUpAnchors)
    app.add_env_collector(Facts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
