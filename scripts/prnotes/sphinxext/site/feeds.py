"""Atom feeds of the newest notes, written with feedgen: one of every note,
one of the 精读 notes, one per subsystem and one per repository.

Each feed holds its newest :data:`FEED_ENTRIES` notes, newest digest first;
within a digest, entries keep the order of the seed file. Each entry is
dated by its digest: the commit that added the digest's seed file
(:mod:`.buildtime`). A digest that is not committed yet is left out: the
feeds follow what has been published. Without git no digest has a date:
entries keep the digests' order, with no publication date, updated when
their files were (:func:`.buildtime.feed_time`).

An entry's title is ``[精读] owner/repo#N title`` (the verdict, when the
advice states one, and :func:`prnotes.contract.note_key`); its content is
the advice, then the note's address and the pull request's on GitHub, all
plain text (``type="text"``): seed text never becomes markup in a feed.
Everything comes from the environment (:mod:`..facts.notes`, the page titles,
the summaries), never from the seeds.

Each feed follows RFC 4287: it names its author (conf.py's ``author``),
and its id and every entry's id are ``tag:`` URIs (RFC 4151) that no
address enters (:func:`entry_id`): a note's is its repository and PR number
(a note without a number: its page's name) under the fixed tagging entity
``prnotes_tag_entity``, so the site moved to another host, or built on two,
gives every entry the same id and a reader sees no entry twice.

The feeds live in the HTML output: ``feed.xml`` at its root, the others
under ``feeds/`` (:func:`prnotes.contract.subsystem_feed` and its
neighbours). Their links are absolute on ``html_baseurl``; a build that
knows no address (a preview) writes them relative to the feed's own file,
which Atom allows, and leaves the note's address out of the content. Every page
announces ``feed.xml`` in its ``<head>``; a page a feed belongs to
announces that one first (:func:`announced`): a subsystem page its
subsystem's, the 精读 list the 精读 feed, a digest page its repository's, a
note page its subsystem's and its repository's, the 订阅 page
(:mod:`prnotes.render.landing`) every feed. A list page that has a feed of its
own ends with a line linking to it and to the 订阅 page.

A feed is made again only when what it shows changed (:func:`fingerprint`,
kept beside the environment), and written only when its bytes differ
(:func:`prnotes.write.files.write_file`); the feeds of subsystems or repositories
that are gone are deleted. ``{prnotes-feed}`text <path>``` links to a
feed from a page (``path`` defaults to ``feed.xml``).
"""

from __future__ import annotations

import hashlib
import html
import json
import pickle
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from docutils import nodes
from feedgen.feed import FeedGenerator
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.nodes import split_explicit_title

from ... import contract
from ...model.classify import VERDICT_BY_SLUG
from ...parse import regular
from ...write.files import write_file
from ..facts import state
from ..facts.buildtime import added_at, feed_time, sources_time
from ..facts.notes import Facts, NoteFacts, present
from ..facts.frozen import plain_text
from ..facts.summaries import summary_text
from ..links import splice, volumes
from . import web_site
from .. import _internals

logger = logging.getLogger(__name__)
FEED = contract.FEED
# The newest this many notes: a feed reader fetches the whole file on every
# poll, and the archive grows by thousands of notes a year.
FEED_ENTRIES = 100
SUBTITLE = "新笔记按摘要到达的顺序出现，最新的在前。"
# What each feed was last made from, by path (:func:`fingerprint`), beside the environment.
MADE = "prnotes-feeds.json"
# The tagging entity of every id (RFC 4151: an authority name and a date),
# fixed once and for all: changing it changes every entry's id, and every
# reader of the feeds sees every entry again. "prnotes.invalid": this project
# owns no domain, and a name under .invalid (RFC 2606) is one nobody can
# own, so no other tagger's ids can collide with these; 2026-11-29 is the
# day of the project's first commit. A site of one's own sets its own in
# its conf.py (a domain or e-mail address it holds, and a day it held it)
# before its feeds are first read, and never again.
TAG_ENTITY = "prnotes.invalid,2026-11-29"


@dataclass(frozen=True)
class Feed:
    """One feed: its file under the HTML output, its title, and which notes it holds."""

    path: str
    title: str
    kind: str = ""  # "verdict", "subsystem" or "repo"; "" for every note
    value: str = ""  # the verdict's slug, the subsystem's slug, owner/repo

    def holds(self, facts: NoteFacts) -> bool:
        if self.kind == "verdict":
            return facts.verdict == self.value
        if self.kind == "subsystem":
            return facts.subsystem == self.value
        if self.kind == "repo":
            return facts.repo == self.value
        return True


def _title(env: BuildEnvironment, docname: str, default: str) -> str:
    return env.titles[docname].astext() if docname in env.titles else default


def site_feeds(app: Sphinx) -> list[Feed]:
    """Every feed of this build, in the order the 订阅 page lists them (once per build)."""
    return state.once(app.env, _site_feeds, app)


def _site_feeds(env: BuildEnvironment, app: Sphinx) -> list[Feed]:
    project = app.config.project
    notes = list(present(env).values())
    feeds = [Feed(FEED, project)]
    if any(f.verdict == "close" for f in notes):
        feeds.append(Feed(contract.verdict_feed("close"), f"{project} · {VERDICT_BY_SLUG['close'].title}", "verdict", "close"))
    for repo in sorted({f.repo for f in notes}, key=lambda r: (r.lower(), r)):
        feeds.append(Feed(contract.repo_feed(repo), f"{project} · {repo}", "repo", repo))
    for slug in sorted({f.subsystem for f in notes}):
        title = _title(env, contract.subsystem_docname(slug), slug)
        feeds.append(Feed(contract.subsystem_feed(slug), f"{project} · {title}", "subsystem", slug))
    return feeds


def entry_title(facts: NoteFacts, docname: str, title: str) -> str:
    """``[精读] owner/repo#N title``; without a verdict, ``owner/repo#N title``."""
    verdict = VERDICT_BY_SLUG.get(facts.verdict)
    key = contract.note_key(facts.repo, facts.number, docname)
    return f"[{verdict.title}] {key} {title}" if verdict else f"{key} {title}"


def tag_uri(entity: str, specific: str) -> str:
    """``tag:<entity>:<specific>`` (RFC 4151)."""
    return f"tag:{entity}:{specific}"


def entry_id(entity: str, facts: NoteFacts, docname: str) -> str:
    """A note's id in every feed, whatever the site's address:
    ``tag:<entity>:owner/repo/pull/N`` (the repository as GitHub reads it,
    case-insensitively), or ``tag:<entity>:owner/repo/note/t-<12 hex>``
    for a note without a PR number (its page's name)."""
    repo = facts.repo.lower()
    if facts.number is not None:
        return tag_uri(entity, f"{repo}/pull/{facts.number}")
    return tag_uri(entity, f"{repo}/note/{docname.rsplit('/', 1)[-1]}")


# RFC 4151's taggingEntity: a DNS name or an e-mail address, a comma, a date (year[-month[-day]]).
_TAG_ENTITY = re.compile(r"(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|[\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*),\d{4}(?:-\d{2}(?:-\d{2})?)?")


def check_tag_entity(app: Sphinx) -> None:
    entity = app.config.prnotes_tag_entity
    if web_site(app) and not _TAG_ENTITY.fullmatch(entity):
        logger.warning(
            "prnotes_tag_entity is %r, which is no tagging entity of RFC 4151 (a domain or e-mail address, a comma, "
            "and a date such as 2026 or 2026-11-29): the feeds' ids would not be tag: URIs",
            entity, type="prnotes", subtype="feed",
        )  # fmt: skip


def feed_id(entity: str, feed: Feed) -> str:
    """A feed's id: ``tag:<entity>:feed.xml``, ``tag:<entity>:feeds/subsystem/ci.xml`` …"""
    return tag_uri(entity, feed.path)


def site_base(app: Sphinx) -> str:
    """The site's address with a final slash; '' when this build knows none (a preview)."""
    base = app.config.html_baseurl
    return base.rstrip("/") + "/" if base else ""


def link_from(base: str, feed_path: str, uri: str) -> str:
    """The address of ``uri`` (a path from the site's root) as written in the
    feed at ``feed_path``: absolute on ``base``, or relative to the feed's file."""
    if base:
        return base + uri
    return "../" * feed_path.count("/") + uri or "./"


def entry_content(facts: NoteFacts, note_url: str) -> str:
    """The advice, then where the note (when the site's address is known) and the pull request are."""
    where = [f"笔记：{note_url}"] if note_url else []
    if facts.number is not None:
        where.append(f"GitHub：{contract.github_url(facts.repo, facts.number)}")
    return "\n".join([facts.advice.strip(), "", *where] if where else [facts.advice.strip()])


@dataclass(frozen=True)
class Entry:
    """What a feed shows of one note: everything its fingerprint covers."""

    docname: str
    id: str
    uri: str  # the note's page, from the site's root
    title: str
    content: str
    summary: str
    when: str  # ISO time
    published: bool
    categories: tuple[tuple[str, str], ...]


def newest_entries(app: Sphinx) -> list[tuple[NoteFacts, Entry]]:
    """Every dated note, newest digest first, seed order within one (once per build)."""
    return state.once(app.env, _newest_entries, app)


def _newest_entries(env: BuildEnvironment, app: Sphinx) -> list[tuple[NoteFacts, Entry]]:
    base = site_base(app)
    entity = app.config.prnotes_tag_entity
    found = []
    for docname, facts in present(env).items():  # another build's notes too (facts/across.py)
        when = feed_time(env, facts.digest)
        if when is None:
            continue
        uri = app.builder.get_target_uri(docname)
        categories = []
        subsystem = contract.subsystem_docname(facts.subsystem)
        if subsystem in env.titles:
            categories.append((facts.subsystem, env.titles[subsystem].astext()))
        if facts.verdict in VERDICT_BY_SLUG:
            categories.append((facts.verdict, VERDICT_BY_SLUG[facts.verdict].title))
        entry = Entry(
            docname=docname,
            id=entry_id(entity, facts, docname),
            uri=uri,
            title=entry_title(facts, docname, _title(env, docname, plain_text(facts.title) or docname)),
            content=entry_content(facts, base + uri if base else ""),
            summary=summary_text(env, docname),
            when=when,
            published=bool(added_at(env, facts.digest)),
            categories=tuple(categories),
        )
        found.append(((facts.digest, -facts.position), facts, entry))
    found.sort(key=lambda e: e[0], reverse=True)
    return [(facts, entry) for _, facts, entry in found]


def entries_of(app: Sphinx, feed: Feed) -> list[Entry]:
    return [entry for facts, entry in newest_entries(app) if feed.holds(facts)][:FEED_ENTRIES]


def fingerprint(app: Sphinx, feed: Feed, entries: list[Entry]) -> str:
    """A hash of everything the feed's file is made from."""
    config = app.config
    inputs = (feed, site_base(app), config.project, feed_author(app), config.prnotes_tag_entity, entries or sources_time(app))
    return hashlib.sha1(pickle.dumps(inputs, protocol=5)).hexdigest()


def feed_author(app: Sphinx) -> str:
    """Who writes the feeds (RFC 4287 asks every feed for an author): conf.py's ``author``, else the project."""
    return app.config.author or app.config.project


def build_feed(app: Sphinx, feed: Feed, entries: list[Entry]) -> FeedGenerator:
    base = site_base(app)
    made = FeedGenerator()
    made.id(feed_id(app.config.prnotes_tag_entity, feed))
    made.title(feed.title)
    made.subtitle(SUBTITLE)
    made.author(name=feed_author(app))
    # The site's root for the feed of every note, the 订阅 page for the others.
    made.link(href=link_from(base, feed.path, contract.FEEDS_PAGE + ".html" if feed.path != FEED else ""), rel="alternate")
    made.link(href=link_from(base, feed.path, feed.path), rel="self")
    made.language("zh-CN")
    for item in entries:
        entry = made.add_entry(order="append")
        entry.id(item.id)
        entry.title(item.title)
        # The note only: feedgen 1.0 writes no rel on an entry's links, so a
        # second one (the pull request) would be a second "alternate". The
        # content names the pull request.
        entry.link(href=link_from(base, feed.path, item.uri))
        when = datetime.fromisoformat(item.when)
        if item.published:
            entry.published(when)
        entry.updated(when)
        for term, label in item.categories:
            entry.category(term=term, label=label)
        entry.summary(item.summary)
        entry.content(item.content, type="text")
    newest = max((datetime.fromisoformat(e.when) for e in entries), default=None)
    made.updated(newest or datetime.fromisoformat(sources_time(app)))
    return made


def write_feeds(app: Sphinx, exception: Exception | None) -> None:
    """Make the feeds whose contents changed, write those whose bytes did, delete the feeds no longer made."""
    if exception is not None or not web_site(app):
        return
    outdir = Path(app.outdir)
    record = Path(app.doctreedir) / MADE
    try:
        made = json.loads(regular.read_regular(record).decode("utf-8"))  # a pipe in its place is not waited on
    except (OSError, ValueError):
        made = {}
    now: dict[str, str] = {}
    for feed in site_feeds(app):
        entries = entries_of(app, feed)
        key = fingerprint(app, feed, entries)
        path = outdir / feed.path
        if made.get(feed.path) != key or not path.is_file():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, build_feed(app, feed, entries).atom_str(pretty=True))
        now[feed.path] = key
    folder = outdir / contract.FEEDS_DIR
    if folder.is_dir():
        for old in sorted(folder.rglob("*.xml")):
            if old.relative_to(outdir).as_posix() not in now:
                old.unlink()
    write_file(record, json.dumps(now, sort_keys=True, indent=0).encode())


def announced(app: Sphinx, pagename: str) -> list[Feed]:
    """The feeds a page announces, its own first, ``feed.xml`` last."""
    feeds = site_feeds(app)
    by_key = {(f.kind, f.value): f for f in feeds}
    own: list[Feed] = []
    if pagename == contract.FEEDS_PAGE:
        return [*feeds[1:], feeds[0]]
    facts = Facts.of(app.env).get(pagename)
    prefix = contract.subsystem_docname("")
    if facts is not None:
        own = [by_key.get(("subsystem", facts.subsystem)), by_key.get(("repo", facts.repo))]
    elif pagename.startswith(prefix):
        rest = pagename.removeprefix(prefix)  # a subsystem's key, or its key and a volume: <key>/v<k>
        own = [by_key.get(("subsystem", rest if contract.is_subsystem_key(rest) else rest.rsplit("/", 1)[0]))]
    elif pagename == contract.verdict_docname("close") or pagename.startswith(contract.verdict_docname("close") + "/"):
        own = [by_key.get(("verdict", "close"))]
    elif contract.is_digest_docname(pagename):
        own = [by_key.get(("repo", repo)) for repo in digest_repos(app).get(pagename, ())]
    return [f for f in own if f is not None] + [feeds[0]]


def digest_repos(app: Sphinx) -> dict[str, tuple[str, ...]]:
    """Digest page -> the repositories of its notes (once per build)."""
    return state.once(app.env, _digest_repos, app)


def _digest_repos(env: BuildEnvironment, app: Sphinx) -> dict[str, tuple[str, ...]]:
    found: dict[str, set[str]] = {}
    for facts in Facts.of(app.env).values():
        found.setdefault(contract.digest_docname(facts.digest), set()).add(facts.repo)
    return {d: tuple(sorted(r)) for d, r in found.items()}


def head_links(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if not web_site(app):
        return
    links = "".join(
        f'\n<link rel="alternate" type="application/atom+xml" title="{html.escape(f.title)}" '
        f'href="{html.escape(context["pathto"](f.path, 1))}">'
        for f in announced(app, pagename)
    )
    context["metatags"] = context.get("metatags", "") + links


def _to_root(docname: str) -> str:
    """From a page to the root of the HTML output, where the feeds are."""
    return "../" * docname.count("/")


def feed_line(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """On ``doctree-resolved``: a list page with a feed of its own ends with a line that links to it."""
    if not web_site(app) or docname in Facts.of(app.env) or docname == contract.FEEDS_PAGE:
        return
    own = announced(app, docname)[:-1]
    top = next(iter(doctree.findall(nodes.section)), None)
    if not own or top is None:
        return
    line = nodes.paragraph(classes=["prnotes-feed-line", "no-search"])
    line += nodes.Text("订阅：")
    links = []
    for feed in own:
        label = feed.title.split(" · ", 1)[-1]
        space = " " if label[-1].isascii() and label[-1].isalnum() else ""
        links.append(nodes.reference("", f"{label}{space}的新笔记（Atom）", refuri=_to_root(docname) + feed.path, classes=["prnotes-feed"], feed=feed.path))
    line.extend(splice.joined(links))
    if contract.FEEDS_PAGE in _internals.documents(app.env) or volumes.elsewhere(app, contract.FEEDS_PAGE):
        line += nodes.Text(" · ")
        line += nodes.reference("", "全部订阅源", internal=True, refuri=app.builder.get_relative_uri(docname, contract.FEEDS_PAGE))
    top += line


def feed_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{prnotes-feed}`text``` or ``{prnotes-feed}`text <path>```: a link to a feed, relative to the page."""
    docname = inliner.document.settings.env.docname
    has_path, title, path = split_explicit_title(text)
    path = path if has_path else FEED
    uri = _to_root(docname) + path
    return [nodes.reference(rawtext, title, refuri=uri, classes=["prnotes-feed"], feed=path)], []


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.state")
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.setup_extension("prnotes.sphinxext.facts.buildtime")
    app.setup_extension("prnotes.sphinxext.facts.summaries")
    # The tagging entity of the feeds' ids (:data:`TAG_ENTITY`): fixed, never the host.
    app.add_config_value("prnotes_tag_entity", TAG_ENTITY, "html", str)
    app.connect("builder-inited", check_tag_entity)
    app.add_role("prnotes-feed", feed_role)
    app.connect("html-page-context", head_links)
    app.connect("doctree-resolved", feed_line)
    app.connect("build-finished", write_feeds)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
