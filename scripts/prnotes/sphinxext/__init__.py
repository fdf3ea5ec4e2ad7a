"""Sphinx side of prnotes: PR roles, reading-list summaries, navigation, feed, sitemap, meta tags."""

from __future__ import annotations

from sphinx.application import Sphinx

from . import feed, metatags, navigation, prlinks, sitemap, summaries


def setup(app: Sphinx) -> dict:
    prlinks.setup(app)
    summaries.setup(app)
    navigation.setup(app)
    feed.setup(app)
    sitemap.setup(app)
    metatags.setup(app)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 2}
