"""The header's and the sidebar's data: the landing page's toctrees, the
reader's place marked.

Each toctree of the landing page is a group: the subsystems, the reading and
watch lists, the indexes. The header shows the subsystems as one drop-down
menu and every other page as a link of its own, so the reader tools are in
plain sight; the sidebar and the phone's drawer list every group once, under
its caption. Neither lists the notes: a page's size does not grow with the
number of notes.

Each repository has its own subsystems: on an archive of several, the
landing page has a subsystem toctree per repository (``子系统：<repo>``), and
they make one 子系统 group in parts, one per repository. A reader on a page of
one repository's (a note, or a subsystem page) sees that repository's part
only; elsewhere every part shows, under its repository's name.
"""

from __future__ import annotations

import posixpath
from collections import deque
from dataclasses import dataclass

from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging

from ... import contract
from ..facts import state
from ..facts.notes import repositories, site_repositories
from .. import _internals

logger = logging.getLogger(__name__)

SUBSYSTEM_PREFIX = contract.subsystem_docname("")


@dataclass(frozen=True)
class NavItem:
    title: str
    href: str
    current: bool  # the reader is on this page or below it
    here: bool = False  # the reader is on this page itself

    @property
    def aria_current(self) -> str:
        return "page" if self.here else "true" if self.current else ""


@dataclass(frozen=True)
class NavPart:
    """One repository's pages of a group (``caption`` is the repository, or
    empty on an archive of one)."""

    caption: str
    items: tuple[NavItem, ...]


@dataclass(frozen=True)
class NavGroup:
    """A group of the navigation: its caption and its pages, in parts.

    ``menu`` groups (the subsystems) are one drop-down menu in the header;
    the others (the reader tools) are links of their own there. A group is
    one toctree of the landing page, but the subsystems, whose toctrees are
    one per repository, with a part for each.
    """

    caption: str
    parts: tuple[NavPart, ...]
    menu: bool

    @property
    def items(self) -> tuple[NavItem, ...]:
        return tuple(item for part in self.parts for item in part.items)

    @property
    def current(self) -> bool:
        return any(item.current for item in self.items)


def _toctrees(env) -> list[tuple[str, list[str]]]:
    """``(caption, docnames)`` of each toctree of the landing page, in page order."""
    toc = env.tocs.get(env.config.root_doc)
    if toc is None:
        return []
    return [
        (tree.get("caption") or "", [docname for _, docname in tree["entries"] if docname in _internals.documents(env)])
        for tree in toc.findall(addnodes.toctree)
    ]


def _parents(env) -> dict[str, str]:
    """Docname -> the top-level page whose toctree holds it, at any depth (once per build)."""
    return state.once(env, _find_parents)


def _find_parents(env) -> dict[str, str]:
    found: dict[str, str] = {}
    for top in env.toctree_includes.get(env.config.root_doc, []):
        found.setdefault(top, top)
        queue = deque([top])
        # Breadth first under each top-level page; a page under two of
        # them belongs to the first in the landing page's order.
        while queue:
            for child in env.toctree_includes.get(queue.popleft(), []):
                if child not in found:
                    found[child] = top
                    queue.append(child)
    return found


def nav_groups(app: Sphinx, pagename: str, pathto) -> list[NavGroup]:
    """The site's navigation as the header and the sidebar show it."""
    env = app.env
    current = _parents(env).get(pagename)
    groups: list[NavGroup] = []
    for caption, docnames in _toctrees(env):
        if not docnames:
            continue
        items = tuple(
            NavItem(env.titles[d].astext() if d in env.titles else d, pathto(d), d == current, d == pagename)
            for d in docnames
        )
        menu = all(d.startswith(SUBSYSTEM_PREFIX) for d in docnames)
        if menu and groups and groups[-1].menu:
            # Another repository's subsystems: a part of the one 子系统 group.
            last = groups.pop()
            groups.append(NavGroup(last.caption, (*last.parts, NavPart(contract.caption_repository(caption), items)), True))
        elif menu:
            groups.append(NavGroup(contract.SUBSYSTEMS_CAPTION, (NavPart(contract.caption_repository(caption), items),), True))
        else:
            groups.append(NavGroup(caption, (NavPart("", items),), False))
    return [_reader_of_one_repository(g) for g in groups]


def _reader_of_one_repository(group: NavGroup) -> NavGroup:
    """A reader under one repository's subsystem sees that repository's part only."""
    mine = tuple(part for part in group.parts if any(item.current for item in part.items))
    return NavGroup(group.caption, mine, group.menu) if mine and len(group.parts) > 1 else group


def add_nav(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """The header's menu and the sidebar's list, as HTML.

    Both depend only on the page's folder (the links are relative, but
    absolute on the 404 page), the
    top-level page the reader is under, and whether the page is itself in the
    navigation; so each is rendered once per such place, not once per page.
    """
    current = _parents(app.env).get(pagename)
    # The root's URL tells pages whose links are absolute (the 404 page) from the others.
    base = (posixpath.dirname(pagename), context["pathto"](app.config.root_doc))
    key = (*base, current, pagename if pagename in state.once(app.env, _toctree_docnames) else "")
    cache = state.of(app.env).navigation_html
    if key not in cache:
        render = {"prnotes_nav": nav_groups(app, pagename, context["pathto"])}
        cache[key] = (
            app.builder.templates.render("prnotes/nav-menu.html", render),
            app.builder.templates.render("prnotes/nav-list.html", render),
        )
    context["prnotes_nav_menu_html"], context["prnotes_nav_list_html"] = cache[key]


def _toctree_docnames(env) -> frozenset[str]:
    return frozenset(d for _, docs in _toctrees(env) for d in docs)


def repository_links(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """The header's icon links: each upstream repository the notes come from."""
    context["theme_icon_links"] = [
        {"name": f"{repo}（GitHub）", "url": contract.github_repo_url(repo), "icon": "fa-brands fa-github", "type": "fontawesome", "repo": repo}
        for repo in site_repositories(app.env)
    ]


# env attribute: what every page shows of the site, as the last build left it
SHOWN_EVERYWHERE = "prnotes_navigation"


def shown_everywhere(env) -> tuple:
    """What every page shows of the whole site: the repositories (the header's
    links) and the navigation's groups, pages and titles."""
    nav = tuple(
        (caption, tuple((d, env.titles[d].astext() if d in env.titles else d) for d in docnames))
        for caption, docnames in _toctrees(env)
    )
    return (tuple(repositories(env)), nav)


class EveryPage(state.Collector):
    """Every page is written again when what every page shows differs from the last build's.

    A subsystem renamed in taxonomy.toml, say: its page is read again under
    the new title, and every other page's header and sidebar would keep the
    old one. A day's digest leaves the navigation as it was."""

    def after(self, app: Sphinx, env, outdated: state.Outdated, before: None) -> list[str]:
        now = shown_everywhere(env)
        previous = getattr(env, SHOWN_EVERYWHERE, None)
        setattr(env, SHOWN_EVERYWHERE, now)
        return list(_internals.documents(env)) if previous is not None and previous != now else []


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


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.connect("html-page-context", add_nav)
    app.connect("html-page-context", repository_links)
    app.add_env_collector(EveryPage)
    app.connect("config-inited", check_language)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
