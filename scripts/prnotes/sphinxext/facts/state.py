"""What the extension works out once per build, in one object.

:func:`of` gives the build's :class:`BuildState`, found from the build
environment (which every handler and transform has) and made afresh when
each build starts: at ``env-get-outdated``, the first event of every build,
a second build by the same application included (``builder-inited`` happens
once per application). It holds values computed on first use and kept for
the rest of the build (:meth:`BuildState.once`), and what the build's
changes were (:mod:`.rewrites`). Nothing of it is pickled with the environment; writer
processes forked by ``-j`` inherit it. What must survive from one build to
the next lives in the environment instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

T = TypeVar("T")


@dataclass
class BuildState:
    """The per-build values of one Sphinx application."""

    values: dict[str, Any] = field(default_factory=dict)

    def once(self, name: str, make: Callable[[], T]) -> T:
        """``make()``, computed the first time ``name`` is asked for in this build."""
        if name not in self.values:
            self.values[name] = make()
        return self.values[name]

    def set(self, name: str, value: Any) -> None:
        self.values[name] = value

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.get(name, default)


_STATES: WeakKeyDictionary[BuildEnvironment, BuildState] = WeakKeyDictionary()


def of(env: BuildEnvironment) -> BuildState:
    """The current build's state (one is made if the build has none yet)."""
    state = _STATES.get(env)
    if state is None:
        state = _STATES[env] = BuildState()
    return state


def reset(app: Sphinx, env: BuildEnvironment, *outdated: set[str]) -> list[str]:
    _STATES[env] = BuildState()
    return []


def setup(app: Sphinx) -> dict:
    # First of the handlers of a build's first event: every later one may use the state.
    app.connect("env-get-outdated", reset, priority=0)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
