"""Build a day's few pages in this process; use ``-j`` only for a large batch,
and then write with as many worker processes as ``-j`` says.

Sphinx's parallel reading (``-j``) forks workers, and each chunk of pages
comes back as the worker's whole environment, pickled, which the main
process unpickles and merges. On a build from nothing the environment is
nearly empty, so that costs little. On a day's build it holds the whole
archive: three chunks of a 10-note digest unpickled three copies of it, so
reading 21 pages in parallel took longer than reading them here, and the
more so the larger the archive. Writing a few dozen pages in parallel gains
nothing either: the main process prepares every page itself and waits for
one worker. So a batch smaller than half of the site's pages is read and
written serially (BENCHMARKS.md). A build that reads few pages but writes
many (a template edited by hand) then writes them serially: slower, and
the same pages.

A large batch is written by one worker process fewer than ``-j``: Sphinx
keeps the main process to prepare each page (resolve its references, fill
its lists, index it for search) and gives the writing to the others. Here
preparing a page costs about as much as writing it, so on two cores one
worker wrote while the main process, done preparing, waited for it, and
the writing took longer than the reading (BENCHMARKS.md). :func:`before_write` gives
the writing ``-j`` workers of its own, and the build its ``-j`` back when it
is done.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.environment import BuildEnvironment

from . import _internals

# app -> its -j, while the writing has more processes (see before_write)
_JOBS: WeakKeyDictionary[Sphinx, int] = WeakKeyDictionary()


def before_read(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    if _internals.parallel(app) > 1 and len(docnames) * 2 < len(env.all_docs):
        _internals.set_parallel(app, 1)


def before_write(app: Sphinx, builder: Builder) -> None:
    jobs = _internals.parallel(app)
    if builder.parallel_ok and jobs > 1:
        _JOBS[app] = jobs
        _internals.set_write_workers(app, jobs)


def after_build(app: Sphinx, exception: Exception | None) -> None:
    jobs = _JOBS.pop(app, None)
    if jobs is not None:
        _internals.set_parallel(app, jobs)


def setup(app: Sphinx) -> None:
    app.connect("env-before-read-docs", before_read)
    app.connect("write-started", before_write)
    app.connect("build-finished", after_build)
