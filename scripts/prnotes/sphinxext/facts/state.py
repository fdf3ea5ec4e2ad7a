"""Where the extension keeps what it knows: one way, in two kinds.

**What survives from one build to the next** lives in the environment,
each store owned by one :class:`Collector`, a Sphinx
``EnvironmentCollector``: ``{docname: value}`` under the collector's
``name``, gathered in :meth:`~Collector.process_doc`, purged with its
document (``clear_doc``) and merged back from parallel readers
(``merge_other``), so ``-j`` and incremental builds are handled where Sphinx
expects them. A collector also says which pages must be written again though
Sphinx does not read them again (a list of notes, a page beside one whose
title changed, a digest's date): :meth:`~Collector.before` looks at the
environment when the build starts (the outdated documents are still there,
the removed ones not yet purged), :meth:`~Collector.after` names the pages
once everything is read, and Sphinx writes them (``env-get-updated``).

**What one build works out and forgets** is a :class:`BuildState`, one
typed field per value, kept on the environment that every handler and
transform has (:func:`of`; it pickles as an empty state) and made afresh when each build starts
(``env-get-outdated``, the first event of every build: a second build by the
same application included). :func:`once` computes a value on first use and
keeps it for the rest of the build. Nothing of it is pickled; writer
processes forked by ``-j`` inherit it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Set
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.environment.collectors import EnvironmentCollector

from .. import _internals

T = TypeVar("T")


@dataclass(frozen=True)
class Outdated:
    """What Sphinx found outdated at the start of a build (``env-get-outdated``)."""

    added: frozenset[str]
    changed: frozenset[str]
    removed: frozenset[str]


class Collector(EnvironmentCollector, Generic[T]):
    """One feature's store in the environment, ``{docname: T}`` named
    ``name`` (none when ``name`` is empty), and the pages the feature has
    written again. Subclasses override what they use; ``app.add_env_collector``
    makes one per application."""

    name: ClassVar[str] = ""
    # doctree-read priority of process_doc (a collector that reads another's store goes after it).
    read_priority: ClassVar[int] = 500

    def __init__(self) -> None:
        self._outdated: Outdated | None = None
        self._before: Any = None

    @classmethod
    def of(cls, env: BuildEnvironment) -> dict[str, T]:
        return store(env, cls.name)

    def enable(self, app: Sphinx) -> None:
        app.setup_extension(__name__)  # the build's state, made afresh first
        self.listener_ids = {
            "doctree-read": app.connect("doctree-read", self.process_doc, priority=self.read_priority),
            "env-merge-info": app.connect("env-merge-info", self.merge_other),
            "env-purge-doc": app.connect("env-purge-doc", self.clear_doc),
            "env-get-updated": app.connect("env-get-updated", self.get_updated_docs),
            # Last of the env-get-outdated handlers: the others may still add documents to read.
            "env-get-outdated": app.connect("env-get-outdated", self.get_outdated_docs, priority=900),
        }

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        if self.name:
            self.of(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
        if self.name:
            ours = self.of(env)
            ours.update((d, value) for d, value in self.of(other).items() if d in docnames)

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        """Gather this feature's facts of the document just read."""

    def before(self, app: Sphinx, env: BuildEnvironment, outdated: Outdated) -> Any:
        """When the build starts: what :meth:`after` needs to compare."""

    def after(self, app: Sphinx, env: BuildEnvironment, outdated: Outdated, before: Any) -> Iterable[str]:
        """Once everything is read: the pages to write again."""
        return ()

    def get_outdated_docs(self, app, env, added, changed, removed) -> list[str]:
        self._outdated = Outdated(frozenset(added), frozenset(changed), frozenset(removed))
        self._before = self.before(app, env, self._outdated)
        return []

    def get_updated_docs(self, app: Sphinx, env: BuildEnvironment) -> list[str]:
        outdated, before, self._outdated, self._before = self._outdated, self._before, None, None
        if outdated is None:  # env-get-outdated did not run: nothing was compared
            return []
        return sorted(set(self.after(app, env, outdated, before)) & _internals.documents(env).keys())


@dataclass
class BuildState:
    """The values one build works out, one field each."""

    # facts/buildtime.py: the build's dates and source address, and what changed since the last build.
    dates: dict | None = None
    changed: set[tuple[str, str]] = field(default_factory=set)
    # book/pdflinks.py: the books there are, and the builder's address of a page.
    books: tuple = ()
    target_uri: Callable[[str], str] | None = None
    # site/redirects.py: the documents this build reads.
    read: frozenset[str] = frozenset()
    # search/fragments.py: the text of each page written, for the index.
    page_texts: dict[str, Any] = field(default_factory=dict)
    # page/navigation.py: the sidebar's HTML, by the place it marks.
    navigation_html: dict[Any, str] = field(default_factory=dict)
    # once(): {(function, arguments): its value}
    made: dict[tuple, Any] = field(default_factory=dict)

    def __reduce__(self) -> tuple:
        """Pickled with the environment as an empty state: nothing of one build outlives it."""
        return (BuildState, ())


_ATTRIBUTE = "prnotes_build_state"


def store(env: BuildEnvironment, name: str) -> dict[str, Any]:
    """The store ``name`` of a :class:`Collector`, ``{docname: value}`` (made empty if missing)."""
    found = env.__dict__.get(name)
    if found is None:
        found = {}
        setattr(env, name, found)
    return found


def of(env: BuildEnvironment) -> BuildState:
    """The current build's state (one is made if the build has none yet)."""
    state = env.__dict__.get(_ATTRIBUTE)
    if state is None:
        state = BuildState()
        setattr(env, _ATTRIBUTE, state)
    return state


def once(env: BuildEnvironment, make: Callable[..., T], *args: Any) -> T:
    """``make(env, *args)``, computed the first time this build asks for it."""
    made, key = of(env).made, (make, *args)
    if key not in made:
        made[key] = make(env, *args)
    return made[key]


def reset(app: Sphinx, env: BuildEnvironment, *outdated: set[str]) -> list[str]:
    setattr(env, _ATTRIBUTE, BuildState())
    return []


def setup(app: Sphinx) -> dict:
    # First of the handlers of a build's first event: every later one may use the state.
    app.connect("env-get-outdated", reset, priority=0)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
