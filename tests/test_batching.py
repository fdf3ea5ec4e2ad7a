"""A day's few pages are read and written in the main process; a large batch in parallel."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from prnotes.sphinxext import batching


class FakeApp:
    """An application with a -j, which the extension may keep a weak reference to."""

    def __init__(self, parallel: int) -> None:
        self.parallel = parallel


def env_with(docs: int) -> SimpleNamespace:
    return SimpleNamespace(all_docs={f"notes/n{i}": 0.0 for i in range(docs)})


@pytest.mark.parametrize(
    ("site", "batch", "jobs", "reading"),
    [
        (1300, 21, 2, 1),  # a day's digest: serial
        (1300, 649, 2, 1),
        (1300, 650, 2, 2),  # half the site or more: parallel
        (0, 1300, 2, 2),  # a build from nothing
        (0, 3, 2, 2),
        (1300, 21, 1, 1),  # -j 1 stays serial
        (1300, 21, 4, 1),
    ],
)
def test_a_batch_below_half_the_site_is_built_serially(site, batch, jobs, reading):
    app, env = SimpleNamespace(parallel=jobs), env_with(site)
    batching.before_read(app, env, [f"notes/new{i}" for i in range(batch)])
    assert app.parallel == reading


@pytest.mark.parametrize(("jobs", "parallel_ok", "writing"), [(2, True, 3), (4, True, 5), (2, False, 2), (1, False, 1)])
def test_a_parallel_writing_has_as_many_workers_as_jobs_and_the_build_gets_its_jobs_back(jobs, parallel_ok, writing):
    # Sphinx writes with parallel - 1 workers; the main process prepares the pages.
    app, builder = FakeApp(parallel=jobs), SimpleNamespace(parallel_ok=parallel_ok)
    batching.before_write(app, builder)
    assert app.parallel == writing
    batching.after_build(app, None)
    assert app.parallel == jobs
