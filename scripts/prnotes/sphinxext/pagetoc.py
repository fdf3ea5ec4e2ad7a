"""The "On this page" sidebar, decided once per page.

pydata-sphinx-theme renders each template of the secondary sidebar once to
find out whether it is empty, then again for the page; for ``page-toc.html``
that is two parses of the page's table of contents with BeautifulSoup, on
every page. So conf.py gives the theme no secondary-sidebar templates, and
this handler, after the theme's, puts ``page-toc.html`` back on the pages
whose table of contents the theme would show: more than one top-level
heading, or one with sections under it (the theme's ``generate_toc_html``).
The pages are the same, rendered once.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

PAGE_TOC = "page-toc.html"


def has_page_toc(toc: nodes.Node | None) -> bool:
    """Whether a page's table of contents (``env.tocs``) lists more than its title."""
    if toc is None:
        return False
    headings = [child for child in toc.children if isinstance(child, nodes.list_item)]
    if len(headings) != 1:
        return len(headings) > 1
    return any(
        isinstance(item, nodes.list_item) for sub in headings[0].findall(nodes.bullet_list) for item in sub.children
    )


def set_page_toc(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    context["secondary_sidebar_items"] = [PAGE_TOC] if has_page_toc(app.env.tocs.get(pagename)) else []


def setup(app: Sphinx) -> None:
    # After the theme's handlers (priority 500), which set the list from conf.py's.
    app.connect("html-page-context", set_page_toc, priority=900)
