"""Where the site is published, where its sources are, and where its PDF is.

A site's ``conf.py`` may set each; what it leaves unset is read from the
host's environment when each build starts (``config-inited``), not when
``conf.py`` is read, so one process can build for several hosts:

- ``html_baseurl``: ``PRNOTES_BASEURL`` (the Pages workflow sets it), else
  Read the Docs' canonical URL, else a placeholder (a preview on a
  developer's machine needs none). The sitemap, the Open Graph tags, the
  feeds and the 404 page build absolute URLs on it; a build to be published
  (``prnotes_publish``: ``PRNOTES_PUBLISH=1``, ``make publish``, the Pages
  workflow) warns on the placeholder (docs/publishing.md);
- ``prnotes_source_url``: where each note's 编辑来源 link points, the
  repository of the site on GitHub (``PRNOTES_SOURCE_URL``, GitHub Actions'
  or Read the Docs' variables); empty means git's ``origin``;
- ``prnotes_source_branch``: the branch or tag those links name
  (``PRNOTES_SOURCE_BRANCH``); empty means the one being built;
- ``prnotes_pdf_url``: where the whole book is published, for the landing
  page's link (``PRNOTES_PDF_URL``, else Read the Docs' download of its
  PDF); empty means the books ``make pdf`` left in ``_build/latex/``.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util import logging
from . import web_site

logger = logging.getLogger(__name__)

# html_baseurl when no host gave the site's address.
PLACEHOLDER_BASEURL = "https://prnotes.example.org/"


def baseurl_from_env() -> str:
    found = os.environ.get("PRNOTES_BASEURL") or os.environ.get("READTHEDOCS_CANONICAL_URL") or PLACEHOLDER_BASEURL
    return found.rstrip("/") + "/"


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
    prefix = urlsplit(config.html_baseurl).path
    config.notfound_urls_prefix = prefix
    config.notfound_context = {
        "title": "页面不存在",
        "body": "<h1>页面不存在</h1><p>这个地址没有页面：笔记可能换了位置。"
        f'可以从<a href="{prefix}index.html">首页</a>或'
        f'<a href="{prefix}notes/pr-index.html">PR 索引</a>重新找起。</p>',
    }


def check_address(app: Sphinx) -> None:
    """A site built to be published (``prnotes_publish``) must know its address: the feed, the
    sitemap and the Open Graph tags would point at the placeholder."""
    if app.config.prnotes_publish and web_site(app) and app.config.html_baseurl == PLACEHOLDER_BASEURL:
        logger.warning(
            "this build is to be published (PRNOTES_PUBLISH), but no host gave the site's address: the feed, "
            "the sitemap and the Open Graph tags would point at the placeholder %s. Set PRNOTES_BASEURL to the "
            "address the site is published at.",
            PLACEHOLDER_BASEURL,
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
    return {"parallel_read_safe": True, "parallel_write_safe": True}
