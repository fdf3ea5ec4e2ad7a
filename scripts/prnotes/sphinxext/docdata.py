"""Per-document data kept in ``env``, and pages that depend on other pages.

:class:`DocData` is a ``{docname: value}`` store on the build environment that
is purged with its document and merged back from parallel reader processes,
so incremental and ``-j`` builds stay correct.

:func:`rewrite_dependents` makes Sphinx write a page again when a page it
depends on (as recorded in a :class:`DocData` of target sets) was added,
removed or, if asked, changed, even though the dependent page's own source
did not change.
"""

from __future__ import annotations

from dataclasses import dataclass

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


@dataclass(frozen=True)
class DocData:
    """A ``{docname: value}`` store named ``name`` on the environment."""

    name: str

    def of(self, env: BuildEnvironment) -> dict:
        if not hasattr(env, self.name):
            setattr(env, self.name, {})
        return getattr(env, self.name)

    def _purge(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        self.of(env).pop(docname, None)

    def _merge(self, app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
        ours = self.of(env)
        for docname, value in self.of(other).items():
            if docname in docnames:
                ours[docname] = value

    def connect(self, app: Sphinx) -> None:
        app.connect("env-purge-doc", self._purge)
        app.connect("env-merge-info", self._merge)


def rewrite_dependents(app: Sphinx, users: DocData, include_changed: bool) -> None:
    """Write again the pages whose ``users`` targets came, went (or changed)."""
    attr = f"_{users.name}_sources"  # per build, not persisted

    def note_changes(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]):
        setattr(app, attr, set(added) | set(removed) | (set(changed) if include_changed else set()))
        return []

    def pages_to_rewrite(app: Sphinx, env: BuildEnvironment) -> list[str]:
        sources = getattr(app, attr, set())
        if not sources:
            return []
        return sorted(d for d, targets in users.of(env).items() if targets & sources and d in env.all_docs)

    app.connect("env-get-outdated", note_changes)
    app.connect("env-updated", pages_to_rewrite)
