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
environment of the whole archive); at its default thresholds the collector
rescans them every 700 allocations. :func:`gc.freeze` once the environment
is loaded and again once it is read, and a first threshold of
:data:`GC_THRESHOLD`; both are given back when the build ends, so a process
that runs several builds (the tests) keeps nothing. The doctrees a serial
read leaves for the writers are dropped before the second freeze (the
writers read them back from their pickles): frozen, every page written
stayed in memory with its filled lists until the build ended, 1.2 GB for
the hub of 5,000 notes, 0.45 GB without.

**Batching.** Sphinx's parallel reading gets each chunk of pages back as the
worker's whole environment, pickled: on a day's build, the whole archive once
per chunk. A batch to read or to write smaller than half of the pages already
read is read or written serially. A large batch is written by ``-j`` worker
processes besides the main one, which prepares every page (Sphinx gives the
writing one fewer). :class:`Processes` says so to the web site's builders,
and nothing changes the build's ``-j``.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence

from sphinx.application import Sphinx
from sphinx.config import Config

from .. import _internals

GC_THRESHOLD = 50_000


class Processes:
    """How many processes read and write a batch: mixed into the web site's
    builders (:func:`._internals.html_builders`, registered by :mod:`.site`)."""

    def reads_serially(self, docnames: Sequence[str]) -> bool:
        return self.config.prnotes_speedups and small_batch(docnames, self.env)

    def write_workers(self, docnames: Sequence[str], workers: int) -> int:
        if not self.config.prnotes_speedups:
            return workers
        return 0 if small_batch(docnames, self.env) else workers + 1


def small_batch(docnames: Sequence[str], env) -> bool:
    """Under half of the documents already read: a day's digest."""
    return len(docnames) * 2 < len(_internals.documents(env))


def collector(before: tuple[int, ...]):
    """The handlers that set the garbage collector for one build and give
    ``before`` (its thresholds) back when the build ends."""

    def loaded(app: Sphinx) -> None:
        """On ``builder-inited``: the environment is loaded."""
        gc.set_threshold(GC_THRESHOLD, *before[1:])
        gc.freeze()

    def read(app: Sphinx, env) -> None:
        """On ``env-updated``: every document is read. The doctrees read
        wait in the environment for the writers; frozen, each would outlive
        its page with all that the page's lists fill into it (a page's nodes
        refer to each other, so only the collector frees them): they are
        dropped, and each writer reads its own back from its pickle."""
        if _internals.drop_read_doctrees(env):
            gc.collect()
        gc.freeze()

    def ended(app: Sphinx, exception: Exception | None) -> None:
        gc.unfreeze()
        gc.set_threshold(*before)

    return loaded, read, ended


def switch_on(app: Sphinx, config: Config) -> None:
    if not config.prnotes_speedups:
        return
    _internals.prune_index_with_a_set()
    loaded, read, ended = collector(gc.get_threshold())
    app.connect("builder-inited", loaded)
    app.connect("env-updated", read)
    # Late: the collector is given back after every other handler is done.
    app.connect("build-finished", ended, priority=900)


def setup(app: Sphinx) -> dict:
    app.add_config_value("prnotes_speedups", True, "", bool)
    app.connect("config-inited", switch_on)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
