"""The one rule for where a project is, and loading it.

A project folder holds ``conf.py``, ``taxonomy.toml`` with ``taxonomy/`` and ``seeds/``. Commands
take ``--root``; without it they use the current folder or the nearest folder
above it that is a project, as git finds its repository.
"""

from __future__ import annotations

from pathlib import Path

from .write import cache
from .write.cache import Cache
from .model.site import Site, build_site
from .parse.seeds import read_seeds
from .model.taxonomy import load_taxonomy, source_bytes

MARKERS = ("conf.py", "seeds")


class NoProjectError(Exception):
    """No project folder at or above the starting folder."""


def is_project(path: Path) -> bool:
    return all((path / name).exists() for name in MARKERS)


def find_root(start: Path | None = None) -> Path:
    """The project folder at or above ``start`` (default: the current folder)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if is_project(folder):
            return folder
    raise NoProjectError(f"{here} is not inside a project (a folder with conf.py and seeds/); pass --root")


def load(root: Path, cache: Cache | None = None) -> Site:
    """Parse and model the project at ``root``; raises :class:`~prnotes.diagnostics.InputError`.

    With a ``cache`` (:func:`open_cache`), unchanged seed files and entries are not parsed or analysed again.
    """
    taxonomy = load_taxonomy(root)
    seeds, prs = read_seeds(root / "seeds", root, cache.seeds if cache else None)
    return build_site(seeds, prs, taxonomy, cache.analyses if cache else None)


def open_cache(root: Path) -> Cache:
    """The conversion cache of the project at ``root`` (see :mod:`prnotes.write.cache`)."""
    return cache.load(root, cache.code_version(source_bytes(root)))
