"""What the EPUB (``make epub``) needs that the site does not.

An EPUB's pages are XHTML, read by e-readers without a network:

- every tag the extensions add to a page's ``<head>`` (``metatags``: the
  note summaries' descriptions, written for HTML) is closed, as XML wants;
- each page says its language (``lang`` and ``xml:lang``, from
  ``epub_language``): e-readers pick the Chinese forms of the Han
  characters, and a Chinese font, by it;
- links to the Atom feeds, files of the site and not of the book, point
  at the published feeds (``html_baseurl``); a book built without the
  site's address names the feeds without linking them;
- the table of contents is titled 目录 (Sphinx writes "Table of Contents"
  whatever the language).

The rest is configuration (``conf.py``: the book's language tag, title,
version, file name, fonts) and the templates (``templates/layout.html``
keeps the search scripts out of the book). ``tests/test_epub.py`` checks the
result with epubcheck.
"""

from __future__ import annotations

import html
import re

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from .. import _internals
from ..site.feeds import FEED

GUIDE_TITLES = {"toc": "目录", "cover": "封面"}

# A <meta> or <link> left open, as HTML allows and XHTML does not.
_OPEN_VOID = re.compile(r"<(meta|link)\b((?:[^>\"']|\"[^\"]*\"|'[^']*')*?)\s*(?<!/)>")


def is_epub(app: Sphinx) -> bool:
    return app.builder.name in ("epub", "epub3")


def close_void_tags(text: str) -> str:
    """``<meta …>`` and ``<link …>`` as XHTML writes them, ``<meta … />``."""
    return _OPEN_VOID.sub(r"<\1\2 />", text)


def xhtml_head(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if not is_epub(app):
        return
    if context.get("metatags"):
        context["metatags"] = close_void_tags(context["metatags"])
    tag = context.get("html_tag", "")
    if tag.startswith("<html") and " lang=" not in tag:
        lang = html.escape(app.config.epub_language)
        context["html_tag"] = tag[:-1] + f' lang="{lang}" xml:lang="{lang}">'


class FeedLinkOnTheSite(SphinxPostTransform):
    """The feeds are published with the site; from the book, link to them there."""

    default_priority = 700
    builders = ("epub",)

    def run(self, **kwargs) -> None:
        base = self.config.html_baseurl
        for node in list(self.document.findall(nodes.reference)):
            if "prnotes-feed" not in node.get("classes", ()):
                continue
            if base:
                node["refuri"] = base.rstrip("/") + "/" + node.get("feed", FEED)
            else:  # no address: no link the book could follow
                node.replace_self(nodes.inline("", "", *node.children, classes=node["classes"]))


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.site.feeds")
    app.add_builder(_internals.titled_epub_builder(GUIDE_TITLES), override=True)
    # After every handler that adds to the head (default priority 500).
    app.connect("html-page-context", xhtml_head, priority=900)
    app.add_post_transform(FeedLinkOnTheSite)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
