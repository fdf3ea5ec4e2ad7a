"""Sphinx side of prnotes: PR roles, sidebar, reading-list summaries, previous/next links,
feed, sitemap, meta tags, print tweaks, the book typeset alongside the site, the
Chinese search, and how a build uses processes and memory."""

from __future__ import annotations

from sphinx.application import Sphinx

from . import alongside, badgerefs, batching, buildtime, collector, feed, latex_print, lists, metatags, navigation, notefacts, pagetoc, prevnext, prlinks, search, sitemap, stale, summaries


def setup(app: Sphinx) -> dict:
    batching.setup(app)
    collector.setup(app)
    badgerefs.setup(app)
    notefacts.setup(app)
    buildtime.setup(app)
    prlinks.setup(app)
    navigation.setup(app)
    pagetoc.setup(app)
    latex_print.setup(app)
    alongside.setup(app)
    summaries.setup(app)
    lists.setup(app)
    prevnext.setup(app)
    feed.setup(app)
    sitemap.setup(app)
    metatags.setup(app)
    search.setup(app)
    stale.setup(app)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 11}
