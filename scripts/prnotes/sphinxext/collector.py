"""Python's garbage collector, set for the length of a build.

A build's objects mostly live until it ends: the environment of the whole
archive, loaded or read, and in the main process the doctrees it prepares
for the writing processes. At its default thresholds the collector looks
for cycles every 700 allocations and scans those long-lived objects again
and again: in a 1,000-note build from nothing, 8–9 s of the main process's
20 s went to 4,600 collections. Two documented switches of :mod:`gc`, for
the build only:

- :func:`gc.freeze` once the environment is loaded and again once it is
  read: what exists then is left out of later collections (and out of those
  of the processes forked after it);
- a first threshold of :data:`THRESHOLD` allocations instead of 700.

Together they leave about 90 collections and under half the time, for a
higher peak of memory (BENCHMARKS.md, "Where the full build waited", has the
figures). When the build ends, the frozen objects go back to the collector
and the thresholds are what they were, so a process that runs several
builds (the tests) keeps nothing.
"""

from __future__ import annotations

import gc

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

THRESHOLD = 50_000
# the thresholds before the build, while one runs
_BEFORE: list[tuple[int, ...]] = []


def start(app: Sphinx) -> None:
    """On ``builder-inited``: the environment is loaded."""
    if not _BEFORE:
        _BEFORE.append(gc.get_threshold())
        gc.set_threshold(THRESHOLD, *_BEFORE[0][1:])
    gc.freeze()


def read(app: Sphinx, env: BuildEnvironment) -> None:
    """On ``env-updated``: every document is read."""
    gc.freeze()


def end(app: Sphinx, exception: Exception | None) -> None:
    gc.unfreeze()
    if _BEFORE:
        gc.set_threshold(*_BEFORE.pop())


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", start)
    app.connect("env-updated", read)
    app.connect("build-finished", end, priority=900)
