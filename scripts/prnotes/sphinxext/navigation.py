"""The sidebar's data: the landing page's toctree entries, current one marked.

The sidebar of every page lists the subsystems (and the other top-level
pages), not the notes: its size does not grow with the number of notes.
"""

from __future__ import annotations

from dataclasses import dataclass

from sphinx.application import Sphinx
from sphinx.util import logging

from .. import contract
from .notefacts import repositories

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class NavItem:
    title: str
    href: str
    current: bool


def _parents(app: Sphinx) -> dict[str, str]:
    """Child docname -> the top-level page whose toctree holds it (cached per build)."""
    env = app.env
    cache = getattr(app.builder, "_prnotes_parents", None)
    if cache is None:
        top = env.toctree_includes.get(env.config.root_doc, [])
        cache = {}
        for page in top:
            cache[page] = page
            for child in env.toctree_includes.get(page, []):
                cache.setdefault(child, page)
        app.builder._prnotes_parents = cache
    return cache


def add_nav(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    env = app.env
    current = _parents(app).get(pagename)
    context["prnotes_nav"] = [
        NavItem(env.titles[page].astext() if page in env.titles else page, context["pathto"](page), page == current)
        for page in env.toctree_includes.get(env.config.root_doc, [])
    ]


def repository_links(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """The header's icon links: each upstream repository the notes come from."""
    context["theme_icon_links"] = [
        {"name": f"{repo}（GitHub）", "url": contract.github_repo_url(repo), "icon": "fa-brands fa-github", "type": "fontawesome"}
        for repo in repositories(app.env)
    ]


def repos_changed(app: Sphinx, env) -> list[str]:
    """Every page shows the repositories: write them all again when the set changes."""
    now = repositories(env)
    before = getattr(env, "prnotes_repositories", None)
    env.prnotes_repositories = now
    return sorted(env.all_docs) if before is not None and before != now else []


def check_language(app: Sphinx, config) -> None:
    """The site is Chinese; a ``-D language=…`` from a host (Read the Docs passes
    its dashboard's language) would turn its labels English, so say so."""
    language = config.language or ""
    if not language.replace("-", "_").lower().startswith("zh"):
        logger.warning(
            "language is %r, but the notes are Chinese: the page language, dates and search "
            "labels would be wrong. On Read the Docs, set the project language to Simplified Chinese (zh_CN).",
            language,
            type="prnotes",
            subtype="language",
        )


def reset(app: Sphinx) -> None:
    app.builder._prnotes_parents = None


def setup(app: Sphinx) -> None:
    app.connect("html-page-context", add_nav)
    app.connect("html-page-context", repository_links)
    app.connect("env-updated", repos_changed)
    app.connect("builder-inited", reset)
    app.connect("config-inited", check_language)
