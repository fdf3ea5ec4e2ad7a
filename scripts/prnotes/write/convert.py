"""Write a project's pages from its model: the last step of a conversion.

Used by ``prnotes notes`` and by ``prnotes pdf``, which builds the whole book
from the site's own pages and so converts first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .cache import Cache, save
from ..model.site import Site
from ..project import load, open_cache
from ..render import render_pages
from .files import LOCK_NAME, Plan, apply, locked, plan


@dataclass(frozen=True)
class Written:
    plan: Plan
    pages: int  # every generated page, written or not


def write_site(root: Path, site: Site, memo: Cache, waiting: Callable[[], None] | None = None) -> Written:
    """Put ``site``'s pages into ``root``, changing only what changed.

    Planned under the lock: after another run, the disk is what it left. A
    note page whose inputs and file are as the last run left them is neither
    rendered nor read (:mod:`prnotes.write.cache`).
    """
    with locked(root / LOCK_NAME, waiting):
        rendered = render_pages(site, lambda rel, key: memo.page_is_current(root, rel, key))
        the_plan = plan(root, rendered.pages, kept=rendered.kept)
        apply(root, rendered.pages, the_plan)
        memo.record_pages(root, rendered.keys)
        save(root, memo)
    return Written(the_plan, len(rendered.pages) + len(rendered.kept))


def convert(root: Path, waiting: Callable[[], None] | None = None) -> Site:
    """Convert the project at ``root`` (warnings are the caller's to show); returns its site."""
    memo = open_cache(root)
    site = load(root, memo)
    write_site(root, site, memo, waiting)
    return site
