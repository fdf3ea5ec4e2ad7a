"""Per-document data kept in ``env``.

:class:`DocData` is a ``{docname: value}`` store on the build environment that
is purged with its document and merged back from parallel reader processes,
so incremental and ``-j`` builds stay correct.
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
