"""Build a day's few pages in this process; use ``-j`` only for a large batch.

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
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from . import _compat


def before_read(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    if _compat.parallel(app) > 1 and len(docnames) * 2 < len(env.all_docs):
        _compat.set_parallel(app, 1)


def setup(app: Sphinx) -> None:
    app.connect("env-before-read-docs", before_read)
