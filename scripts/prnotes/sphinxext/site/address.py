"""Where the site is published, where its sources are, and where its PDF is.

A site's ``conf.py`` may set each; what it leaves unset is read from the
host's environment when each build starts (``config-inited``), not when
``conf.py`` is read, so one process can build for several hosts:

- ``html_baseurl``: ``PRNOTES_BASEURL`` (the Pages workflow sets it), else
  Read the Docs' canonical URL, else nothing: a preview on a developer's
  machine has no address, and the build writes no host it cannot know.
  The sitemap and ``robots.txt``, the canonical link and the Open Graph
  URL of each page, and the feeds' absolute links are built on it; a build
  without it leaves them out, or writes the feeds' links relative to the
  feed and the 404 page's relative to the site's root (docs/publishing.md).
  A build to be published (``prnotes_publish``: ``PRNOTES_PUBLISH=1``,
  ``make publish``, the Pages workflow) warns without one;
- ``prnotes_source_url``: where each note's 编辑来源 link points, the
  repository of the site on GitHub (``PRNOTES_SOURCE_URL``, GitHub Actions'
  or Read the Docs' variables); empty means git's ``origin``;
- ``prnotes_source_branch``: the branch or tag those links name
  (``PRNOTES_SOURCE_BRANCH``); empty means the one being built;
- ``prnotes_pdf_url``: where the whole book is published, for the landing
  page's link (``PRNOTES_PDF_URL``, else Read the Docs' download of its
  PDF); empty means the books ``make pdf`` left in ``_build/latex/``,
  copied into the site (:mod:`..book.pdflinks`).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util import logging
from . import web_site

logger = logging.getLogger(__name__)


def baseurl_from_env() -> str:
    """The address a host gave, with a final slash; '' when none did."""
    found = os.environ.get("PRNOTES_BASEURL") or os.environ.get("READTHEDOCS_CANONICAL_URL") or ""
    return found.rstrip("/") + "/" if found.strip() else ""


def source_url_from_env() -> str:
    env = os.environ
    github = f"{env['GITHUB_SERVER_URL']}/{env['GITHUB_REPOSITORY']}" if env.get("GITHUB_SERVER_URL") and env.get("GITHUB_REPOSITORY") else ""
    return env.get("PRNOTES_SOURCE_URL") or github or env.get("READTHEDOCS_GIT_CLONE_URL", "")


def pdf_url_from_env() -> str:
    env = os.environ
    rtd = (
        f"/_/downloads/{env['READTHEDOCS_LANGUAGE']}/{env['READTHEDOCS_VERSION']}/pdf/"
        if env.get("READTHEDOCS_LANGUAGE") and env.get("READTHEDOCS_VERSION")
        else ""
    )
    return env.get("PRNOTES_PDF_URL") or rtd


def fill_from_env(app: Sphinx, config: Config) -> None:
    """What the site's conf.py left unset, from the host's environment."""
    if not config.html_baseurl:
        config.html_baseurl = baseurl_from_env()
    if config.prnotes_publish is None:
        config.prnotes_publish = bool(os.environ.get("PRNOTES_PUBLISH"))
    for name, read in (("prnotes_source_url", source_url_from_env), ("prnotes_pdf_url", pdf_url_from_env)):
        if config[name] is None:
            config[name] = read()
    if config.prnotes_source_branch is None:
        config.prnotes_source_branch = os.environ.get("PRNOTES_SOURCE_BRANCH", "")
    # The 404 page is served for a missing page at any depth, so its links are
    # absolute paths on the site's address; without one it is a page of the
    # site's root with relative links (:func:`relative_404`).
    prefix = (urlsplit(config.html_baseurl).path or "/") if config.html_baseurl else ""
    config.notfound_urls_prefix = prefix or "/"  # unused without an address: the page's links stay relative
    config.notfound_context = {
        "title": "页面不存在",
        "body": "<h1>页面不存在</h1><p>这个地址没有页面：笔记可能换了位置。"
        f'可以从<a href="{prefix}index.html">首页</a>或'
        f'<a href="{prefix}notes/pr-index.html">PR 索引</a>重新找起。</p>',
    }


_BEFORE_404 = "_prnotes_before_404"  # the context of the 404 page as Sphinx made it


def keep_404_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    # getattr: a project may build without sphinx-notfound-page.
    if pagename == getattr(app.config, "notfound_pagename", None) and not app.config.html_baseurl and web_site(app):
        context[_BEFORE_404] = dict(context)


def relative_404(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Without an address, undo what sphinx-notfound-page did to the 404 page's context (its ``pathto``,
    ``toctree`` and asset tags, on absolute paths from ``notfound_urls_prefix``): the page keeps
    Sphinx's relative links, right from the site's root and when opened from disk."""
    before = context.pop(_BEFORE_404, None)
    if before is None:
        return
    for key, value in before.items():
        if context.get(key) is not value:
            context[key] = value


def check_address(app: Sphinx) -> None:
    """A site built to be published (``prnotes_publish``) must know its address: without it the
    site would go out with no sitemap, no canonical or Open Graph URLs and feeds of relative links."""
    if app.config.prnotes_publish and web_site(app) and not app.config.html_baseurl:
        logger.warning(
            "this build is to be published (PRNOTES_PUBLISH), but no host gave the site's address: it would "
            "have no sitemap or robots.txt, no canonical or Open Graph URLs, feeds whose links are relative and "
            "a 404 page that works only at the site's root. Set PRNOTES_BASEURL to the address the site is "
            "published at.",
            type="prnotes", subtype="baseurl",
        )  # fmt: skip


def setup(app: Sphinx) -> dict:
    # None: not set in conf.py, read from the environment when the build starts.
    app.add_config_value("prnotes_publish", None, "", (bool, type(None)))
    app.add_config_value("prnotes_source_url", None, "html", (str, type(None)))
    app.add_config_value("prnotes_source_branch", None, "html", (str, type(None)))
    app.add_config_value("prnotes_pdf_url", None, "html", (str, type(None)))
    # Before every other handler of config-inited reads them.
    app.connect("config-inited", fill_from_env, priority=100)
    app.connect("builder-inited", check_address)
    # Around sphinx-notfound-page's handler (priority 400), which rewrites the 404 page's links.
    app.connect("html-page-context", keep_404_context, priority=399)
    app.connect("html-page-context", relative_404, priority=401)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
