"""Read a day's few pages in this process; read in parallel only a large batch.

Sphinx's parallel reading (``-j``) forks workers, and each chunk of pages
comes back as the worker's whole environment, pickled, which the main
process unpickles and merges. On a build from nothing the environment is
nearly empty, so that costs little. On a day's build it holds the whole
archive: three chunks of a 10-note digest unpickled three copies of it, so
reading 21 pages in parallel took longer than reading them here, and the
more so the larger the archive (BENCHMARKS.md). A batch smaller than half
of the site's pages is read serially; the writing uses ``-j`` again.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from . import _compat

_SAVED = "_prnotes_parallel"  # the -j to restore after a serial read


def before_read(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    if _compat.parallel(app) > 1 and len(docnames) * 2 < len(env.all_docs):
        setattr(app, _SAVED, _compat.parallel(app))
        _compat.set_parallel(app, 1)


def after_read(app: Sphinx, env: BuildEnvironment) -> None:
    saved = getattr(app, _SAVED, None)
    if saved is not None:
        _compat.set_parallel(app, saved)
        delattr(app, _SAVED)


def setup(app: Sphinx) -> None:
    app.connect("env-before-read-docs", before_read)
    app.connect("env-updated", after_read, priority=0)
