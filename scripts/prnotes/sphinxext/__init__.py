"""Sphinx side of prnotes: PR roles, note facts and the lists built from them,
sidebar and header, previous/next links, feed, sitemap, meta tags, print
tweaks, the book typeset alongside the site, and the Chinese search.

One sub-package per component, each with one ``setup_<component>``:
:mod:`.facts` (what the Sphinx side knows of each note and build),
:mod:`.links`, :mod:`.lists`, :mod:`.page`, :mod:`.site` (feeds, sitemap,
redirects), :mod:`.book` (PDF and EPUB) and :mod:`.search`. Where the order
of two handlers matters, an event priority says so, with a comment.
:mod:`._internals` is the one place that reads what Sphinx does not document.
"""

from __future__ import annotations

import copy

from sphinx.application import Sphinx
from sphinx.config import Config

from . import defaults

from .book import setup_book
from .facts import setup_facts
from .links import setup_links
from .lists import setup_lists
from .page import setup_page
from .search import setup_search
from .site import setup_site


def own_copies(app: Sphinx, config: Config) -> None:
    """Give this build its own copy of each list and dict its conf.py took
    from :mod:`.defaults`: Sphinx and the theme add to them while building,
    and the module's objects are shared by every build of the process."""
    for name, value in vars(defaults).items():
        if isinstance(value, (list, dict, set)) and name in config and config[name] is value:
            config[name] = copy.deepcopy(value)


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", own_copies, priority=0)
    setup_facts(app)
    setup_links(app)
    setup_lists(app)
    setup_page(app)
    setup_site(app)
    setup_book(app)
    setup_search(app)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 19}
