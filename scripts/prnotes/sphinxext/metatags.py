"""Escape the content of ``<meta>`` tags that carry page text.

sphinxext-opengraph copies the page title and the opening of its text into
``<meta content="…">`` replacing only double quotes. Seed text is untrusted and
may hold ``<`` or ``&``; this handler runs after it and escapes every meta
tag's content properly. Handlers that add meta tags (the note summaries) write
them the way sphinxext-opengraph does, quotes replaced, and leave the rest to
this one.
"""

from __future__ import annotations

import html

from sphinx.application import Sphinx

from ._compat import META_TAG_RE as META_RE


def quote_only(text: str) -> str:
    """How sphinxext-opengraph writes content: double quotes replaced, nothing else."""
    return text.replace('"', "&quot;")


def escape_meta(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    tags = context.get("metatags")
    if tags:
        context["metatags"] = META_RE.sub(
            lambda m: m.group(1) + html.escape(m.group(2).replace("&quot;", '"')) + m.group(3), tags
        )


def setup(app: Sphinx) -> None:
    # After sphinxext-opengraph's handler (default priority 500).
    app.connect("html-page-context", escape_meta, priority=900)
