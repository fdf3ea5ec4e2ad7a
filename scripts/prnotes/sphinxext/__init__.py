"""Sphinx side of prnotes: PR roles, note facts and the lists built from them,
sidebar and header, previous/next links, feed, sitemap, meta tags, print
tweaks, the book typeset alongside the site, and the Chinese search.

Each module is an extension of its own: its ``setup`` registers what it
needs, the extensions it stands on included, so the order here does not
matter. Where the order of two handlers matters, an event priority says so,
with a comment.
"""

from __future__ import annotations

from sphinx.application import Sphinx

FEATURES = (
    "alongside",
    "anchors",
    "badgerefs",
    "buildtime",
    "epub",
    "feed",
    "filters",
    "icons",
    "latex_print",
    "lists",
    "metatags",
    "navigation",
    "notefacts",
    "notepage",
    "pagetoc",
    "pdflinks",
    "prevnext",
    "prlinks",
    "readmarks",
    "redirects",
    "search",
    "similarnotes",
    "sitemap",
    "speedups",
    "stale",
    "stream",
    "summaries",
)


def setup(app: Sphinx) -> dict:
    for feature in FEATURES:
        app.setup_extension(f"{__name__}.{feature}")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 13}
