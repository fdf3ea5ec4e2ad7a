"""An Atom feed of the notes, newest digest first, written with feedgen.

Notes appear in the order their digests arrived (:attr:`prnotes.model.Note.seq`,
newest first). A digest's time is the commit that added its seed file, or the
file's modification time while it is not committed yet. Each entry is at least
a second after the one that arrived before it, so feed readers that sort by
time keep the arrival order. The feed is ``feed.xml`` at the root of the HTML output, with
absolute links built on ``html_baseurl``; every page points to it from its
``<head>``, and ``{prnotes-feed}`text``` links to it from a page.
"""

from __future__ import annotations

import html
import subprocess
from datetime import datetime, timedelta, timezone
from functools import cache
from pathlib import Path

from docutils import nodes
from feedgen.feed import FeedGenerator
from sphinx.application import Sphinx
from sphinx.util import logging

from ..classify import VERDICT_BY_SLUG
from ..project import load
from ..model import Site
from ..refs import plain_text
from ..summary import first_sentence

FEED = "feed.xml"
logger = logging.getLogger(__name__)


@cache
def _git_added(root: Path) -> dict[str, datetime]:
    """Seed file -> time of the commit that added it, from one ``git log``."""
    try:
        out = subprocess.run(
            ["git", "log", "--diff-filter=A", "--name-only", "--relative", "--format=%x00%cI", "--", "seeds"],
            cwd=root, capture_output=True, text=True, check=True, timeout=60,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    added: dict[str, datetime] = {}
    for block in out.split("\0")[1:]:
        when, *files = block.strip().split("\n")
        for rel in files:
            if rel.strip():
                # git log runs newest first: the last time seen is the first add.
                added[rel.strip()] = datetime.fromisoformat(when.strip())
    return added


def digest_time(root: Path, rel: str) -> datetime:
    """When a digest arrived: its first commit, else its file's mtime."""
    added = _git_added(root).get(rel)
    if added is not None:
        return added.astimezone(timezone.utc)
    return datetime.fromtimestamp((root / rel).stat().st_mtime, timezone.utc).replace(microsecond=0)


def build_feed(site: Site, root: Path, base_url: str, title: str, uri_of) -> FeedGenerator:
    """The feed for ``site``; ``uri_of(docname)`` gives a page's URI relative to the site root."""
    base = base_url.rstrip("/") + "/"
    # Entry times follow arrival order strictly: each entry is at least a
    # second after the one before it, even when two digests share a commit.
    times: dict[str, datetime] = {}
    previous: datetime | None = None
    for note in sorted(site.notes, key=lambda n: n.seq):
        when = digest_time(root, note.path)
        if previous is not None and when <= previous:
            when = previous + timedelta(seconds=1)
        times[note.docname] = previous = when
    feed = FeedGenerator()
    feed.id(base)
    feed.title(title)
    feed.subtitle("新笔记按摘要到达的顺序出现，最新的在前。")
    feed.link(href=base, rel="alternate")
    feed.link(href=base + FEED, rel="self")
    feed.language("zh-CN")
    subsystems = {s.slug: s.title for s in site.taxonomy.subsystems}
    for note in sorted(site.notes, key=lambda n: n.seq, reverse=True):
        when = times[note.docname]
        url = base + uri_of(note.docname)
        entry = feed.add_entry(order="append")
        entry.id(url)
        entry.title(plain_text(note.title_pieces))
        entry.link(href=url)
        entry.published(when)
        entry.updated(when)
        entry.category(term=note.subsystem, label=subsystems[note.subsystem])
        if note.verdict:
            entry.category(term=note.verdict, label=VERDICT_BY_SLUG[note.verdict].title)
        entry.summary(first_sentence(note.pieces))
        entry.content(plain_text(note.pieces), type="text")
    feed.updated(previous or datetime(1970, 1, 1, tzinfo=timezone.utc))
    return feed


def write_feed(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.name != "html":
        return
    root = Path(app.srcdir)
    if not (root / "seeds").is_dir():
        return
    site = load(root)
    feed = build_feed(site, root, app.config.html_baseurl, app.config.project, app.builder.get_target_uri)
    feed.atom_file(str(Path(app.outdir) / FEED), pretty=True)


def head_link(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if app.builder.name != "html":
        return
    href = context["pathto"](FEED, 1)
    context["metatags"] = context.get("metatags", "") + (
        f'\n<link rel="alternate" type="application/atom+xml" title="{html.escape(app.config.project)}" href="{html.escape(href)}">'
    )


def feed_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{prnotes-feed}`text```: a link to the feed, relative to the page."""
    docname = inliner.document.settings.env.docname
    uri = "../" * docname.count("/") + FEED
    return [nodes.reference(rawtext, text, refuri=uri, classes=["prnotes-feed"])], []


def setup(app: Sphinx) -> None:
    app.add_role("prnotes-feed", feed_role)
    app.connect("html-page-context", head_link)
    app.connect("build-finished", write_feed)
