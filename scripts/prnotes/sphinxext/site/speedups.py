"""The measured speed-ups of a build, in one place, and the switch that turns them off.

``prnotes_speedups = False`` in ``conf.py`` (or ``-D prnotes_speedups=0``)
builds the same site with Sphinx's own behaviour; ``tests/test_speedups.py``
builds a fixture both ways and compares every page. Each one earns its place
in BENCHMARKS.md:

=====================================  ==========================================  ====================================
speed-up                               what it buys                                BENCHMARKS.md
=====================================  ==========================================  ====================================
the garbage collector set for a build  a 1,000-note full build: 8–9 s of 20 s CPU  Scale, "Where the full build waited"
                                       in 4,600 collections, then about 90
a small batch read and written in one  a day's Sphinx step at 1,000 notes:         Scale, "What a day's build costs"
process                                4.6 s to 3.8 s
a large batch written by ``-j``        a 1,000-note full build's writing:          Scale, "Where the full build waited"
workers of its own                     24–38 s to about the floor's 18–21 s
the search index pruned with a set     0.1 s a build at 1,000 notes, growing as    Search
                                       the square of the archive
=====================================  ==========================================  ====================================

Two more live where they work, outside Sphinx: the no-op stamp
(:mod:`prnotes.build.stamp`: no change, no Sphinx) and node freezing in the
environment (:mod:`.frozen`: plain data pickles faster than docutils nodes).

**The collector.** A build's objects mostly live until it ends (the
environment of the whole archive, and the doctrees waiting for the writers);
at its default thresholds the collector rescans them every 700 allocations.
:func:`gc.freeze` once the environment is loaded and again once it is read,
and a first threshold of :data:`GC_THRESHOLD`; both are given back when the
build ends, so a process that runs several builds (the tests) keeps nothing.

**Batching.** Sphinx's parallel reading gets each chunk of pages back as the
worker's whole environment, pickled: on a day's build, the whole archive once
per chunk. A batch smaller than half of the site is read and written
serially. A large batch is written by ``-j`` worker processes besides the
main one, which prepares every page (Sphinx gives the writing one fewer).
"""

from __future__ import annotations

import gc
from weakref import WeakKeyDictionary

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment

from .. import _internals

GC_THRESHOLD = 50_000
# the collector's thresholds before the build, while one runs
_GC_BEFORE: list[tuple[int, ...]] = []
# app -> its -j, while the writing has more processes
_JOBS: WeakKeyDictionary[Sphinx, int] = WeakKeyDictionary()


def gc_start(app: Sphinx) -> None:
    """On ``builder-inited``: the environment is loaded."""
    if not _GC_BEFORE:
        _GC_BEFORE.append(gc.get_threshold())
        gc.set_threshold(GC_THRESHOLD, *_GC_BEFORE[0][1:])
    gc.freeze()


def gc_read(app: Sphinx, env: BuildEnvironment) -> None:
    """On ``env-updated``: every document is read."""
    gc.freeze()


def gc_end(app: Sphinx, exception: Exception | None) -> None:
    gc.unfreeze()
    if _GC_BEFORE:
        gc.set_threshold(*_GC_BEFORE.pop())


def read_small_batches_here(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    if _internals.parallel(app) > 1 and len(docnames) * 2 < len(_internals.documents(env)):
        _internals.set_parallel(app, 1)


def write_with_all_workers(app: Sphinx, builder: Builder) -> None:
    jobs = _internals.parallel(app)
    if builder.parallel_ok and jobs > 1:
        _JOBS[app] = jobs
        _internals.set_write_workers(app, jobs)


def give_jobs_back(app: Sphinx, exception: Exception | None) -> None:
    jobs = _JOBS.pop(app, None)
    if jobs is not None:
        _internals.set_parallel(app, jobs)


def switch_on(app: Sphinx, config) -> None:
    if not config.prnotes_speedups:
        return
    _internals.prune_index_with_a_set()
    app.connect("builder-inited", gc_start)
    app.connect("env-updated", gc_read)
    # Late: the collector is given back after every other handler is done.
    app.connect("build-finished", gc_end, priority=900)
    app.connect("env-before-read-docs", read_small_batches_here)
    app.connect("write-started", write_with_all_workers)
    app.connect("build-finished", give_jobs_back)


def setup(app: Sphinx) -> dict:
    app.add_config_value("prnotes_speedups", True, "", bool)
    app.connect("config-inited", switch_on)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
