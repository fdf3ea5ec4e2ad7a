"""Escape the content of ``<meta>`` tags that carry page text, exactly once.

sphinxext-opengraph writes its tags in two states. A description it reads
from the page's text is HTML-escaped already; everything else (the title,
the site name, a description given in the page's metadata) has only its
double quotes replaced. Seed text is untrusted and may hold ``<`` or ``&``.
So this handler, which runs after it, leaves the descriptions as they are
and escapes the content of every other tag. Handlers that add descriptions
(the note summaries) escape them fully, with :func:`escape_description`, so
that a description is escaped once whichever handler wrote it.
"""

from __future__ import annotations

import html
import re

from sphinx.application import Sphinx

from ._compat import META_TAG_RE as META_RE

# Tags whose content arrives escaped (see the module docstring).
ESCAPED = frozenset({"description", "og:description"})


def escape_description(text: str) -> str:
    """A description as it goes into ``content="…"``: escaped once, fully."""
    return html.escape(text, quote=True)


def _escape_once(match: re.Match[str]) -> str:
    content = match.group(4)
    if match.group(3) not in ESCAPED:
        content = html.escape(content.replace("&quot;", '"'), quote=True)
    return match.group(1) + content + match.group(5)


def escape_meta(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    tags = context.get("metatags")
    if tags:
        context["metatags"] = META_RE.sub(_escape_once, tags)


def setup(app: Sphinx) -> None:
    # After sphinxext-opengraph's handler (default priority 500).
    app.connect("html-page-context", escape_meta, priority=900)
