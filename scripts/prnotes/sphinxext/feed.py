"""An Atom feed of the newest notes (:data:`FEED_ENTRIES`), newest digest first, written with feedgen.

Each entry is dated by its digest: the commit that added the digest's seed
file (:mod:`.buildtime`). Digests come newest first (the order their files
are named in); within a digest, entries keep the order of the seed file. A
digest that is not committed yet is left out: the feed follows what has been
published. Without git no digest has a date: entries keep the digests'
order, with no publication date, updated when their files were
(:func:`.buildtime.feed_time`). Everything comes from the environment (:mod:`.notefacts`, the
page titles, the summaries), never from the seeds. The feed is ``feed.xml``
at the root of the HTML output, with absolute links built on
``html_baseurl``; every page points to it from its ``<head>``, and
``{prnotes-feed}`text``` links to it from a page.
"""

from __future__ import annotations

import html
from datetime import datetime
from pathlib import Path

from docutils import nodes
from feedgen.feed import FeedGenerator
from sphinx.application import Sphinx
from sphinx.util import logging

from .. import contract
from ..classify import VERDICT_BY_SLUG
from .buildtime import added_at, feed_time, sources_time
from .notefacts import FACTS
from .summaries import summary_text

FEED = "feed.xml"
# The newest this many notes: a feed reader fetches the whole file on every
# poll, and the archive grows by thousands of notes a year.
FEED_ENTRIES = 100
logger = logging.getLogger(__name__)


def build_feed(app: Sphinx) -> FeedGenerator:
    env = app.env
    base = app.config.html_baseurl.rstrip("/") + "/"
    entries = []
    for docname, facts in FACTS.of(env).items():
        when = feed_time(env, facts.digest)
        if when is None or docname not in env.all_docs:
            continue
        # Newest digest first (file names sort in arrival order); seed order within one.
        entries.append(((facts.digest, -facts.position), datetime.fromisoformat(when), docname, facts))
    entries.sort(key=lambda e: e[0], reverse=True)
    entries = entries[:FEED_ENTRIES]
    feed = FeedGenerator()
    feed.id(base)
    feed.title(app.config.project)
    feed.subtitle("新笔记按摘要到达的顺序出现，最新的在前。")
    feed.link(href=base, rel="alternate")
    feed.link(href=base + FEED, rel="self")
    feed.language("zh-CN")
    for _, when, docname, facts in entries:
        url = base + app.builder.get_target_uri(docname)
        entry = feed.add_entry(order="append")
        entry.id(url)
        entry.title(env.titles[docname].astext() if docname in env.titles else docname)
        entry.link(href=url)
        if added_at(env, facts.digest):
            entry.published(when)
        entry.updated(when)
        subsystem = contract.subsystem_docname(facts.subsystem)
        if subsystem in env.titles:
            entry.category(term=facts.subsystem, label=env.titles[subsystem].astext())
        if facts.verdict in VERDICT_BY_SLUG:
            entry.category(term=facts.verdict, label=VERDICT_BY_SLUG[facts.verdict].title)
        entry.summary(summary_text(env, docname))
        entry.content(facts.advice, type="text")
    newest = max((e[1] for e in entries), default=None) or datetime.fromisoformat(sources_time(app))
    feed.updated(newest)
    return feed


def write_feed(app: Sphinx, exception: Exception | None) -> None:
    """Write the feed, unless it holds exactly what is there already."""
    if exception is not None or app.builder.name != "html":
        return
    path = Path(app.outdir) / FEED
    data = build_feed(app).atom_str(pretty=True)
    if not path.is_file() or path.read_bytes() != data:
        path.write_bytes(data)


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


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.notefacts")
    app.setup_extension("prnotes.sphinxext.buildtime")
    app.setup_extension("prnotes.sphinxext.summaries")
    app.add_role("prnotes-feed", feed_role)
    app.connect("html-page-context", head_link)
    app.connect("build-finished", write_feed)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
