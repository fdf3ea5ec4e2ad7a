"""A day's few pages are read and written in the main process; a large batch in parallel."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from prnotes.sphinxext import batching


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
