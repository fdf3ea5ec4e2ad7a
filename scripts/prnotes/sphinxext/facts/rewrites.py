"""Which pages are written again though Sphinx does not read them again: one registry.

A page can show what comes from elsewhere: a list of notes, the title of the
page beside it, a digest's date, the site's navigation. When that changes,
the page must be written again, though its source did not change. Each
feature registers a :class:`Rewrite`: ``before`` looks at the environment
before reading (the outdated documents are still there, the removed ones not
yet purged) and returns what ``after`` needs; ``after`` names the pages to
write once everything is read. One ``env-updated`` handler returns the union,
less the pages read in this build (Sphinx writes those anyway).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from . import state


@dataclass(frozen=True)
class Outdated:
    """What Sphinx found outdated at the start of a build (``env-get-outdated``)."""

    added: frozenset[str]
    changed: frozenset[str]
    removed: frozenset[str]


@dataclass(frozen=True)
class Rewrite:
    name: str
    after: Callable[[Sphinx, BuildEnvironment, Outdated, Any], Iterable[str]]
    before: Callable[[Sphinx, BuildEnvironment, Outdated], Any] = lambda app, env, outdated: None


_REGISTERED: WeakKeyDictionary[Sphinx, dict[str, Rewrite]] = WeakKeyDictionary()
_OUTDATED = "rewrites.outdated"
_BEFORE = "rewrites.before"
_READ = "rewrites.read"


def register(app: Sphinx, rewrite: Rewrite) -> None:
    """Add ``rewrite`` to the application's registry (a feature's ``setup`` calls this)."""
    app.setup_extension(__name__)
    _REGISTERED.setdefault(app, {})[rewrite.name] = rewrite


def _before(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    outdated = Outdated(frozenset(added), frozenset(changed), frozenset(removed))
    build = state.of(env)
    build.set(_OUTDATED, outdated)
    build.set(_BEFORE, {name: r.before(app, env, outdated) for name, r in sorted(_REGISTERED.get(app, {}).items())})
    return []


def _reading(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    state.of(env).set(_READ, frozenset(docnames))


def _after(app: Sphinx, env: BuildEnvironment) -> list[str]:
    build = state.of(env)
    outdated: Outdated | None = build.get(_OUTDATED)
    if outdated is None:  # env-get-outdated did not run: nothing was compared
        return []
    before = build.get(_BEFORE, {})
    pages: set[str] = set()
    for name, rewrite in sorted(_REGISTERED.get(app, {}).items()):
        pages.update(rewrite.after(app, env, outdated, before.get(name)))
    return sorted(pages & env.all_docs.keys() - build.get(_READ, frozenset()))


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.state")
    # Last of the env-get-outdated handlers: the others may still add documents to read.
    app.connect("env-get-outdated", _before, priority=900)
    app.connect("env-before-read-docs", _reading)
    app.connect("env-updated", _after)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
