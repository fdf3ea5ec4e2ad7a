"""The speed-ups of a build (prnotes.sphinxext.site.speedups): what each does, and
that a build without them makes the same site."""

from __future__ import annotations

import filecmp
import gc
from pathlib import Path
from types import SimpleNamespace

import pytest

from prnotes.sphinxext.site import speedups
from tests.support.sandbox import convert, copy_project, sphinx_build


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
    speedups.read_small_batches_here(app, env, [f"notes/new{i}" for i in range(batch)])
    assert app.parallel == reading


@pytest.mark.parametrize(("jobs", "parallel_ok", "writing"), [(2, True, 3), (4, True, 5), (2, False, 2), (1, False, 1)])
def test_a_parallel_writing_has_as_many_workers_as_jobs_and_the_build_gets_its_jobs_back(jobs, parallel_ok, writing):
    # Sphinx writes with parallel - 1 workers; the main process prepares the pages.
    app, builder = FakeApp(parallel=jobs), SimpleNamespace(parallel_ok=parallel_ok)
    speedups.write_with_all_workers(app, builder)
    assert app.parallel == writing
    speedups.give_jobs_back(app, None)
    assert app.parallel == jobs


def test_a_build_freezes_what_it_has_loaded_and_read_and_gives_the_collector_back():
    before, kept = gc.get_threshold(), [object() for _ in range(10)]
    speedups.gc_start(None)
    assert gc.get_threshold() == (speedups.GC_THRESHOLD, *before[1:])
    assert gc.get_freeze_count() > len(kept)
    speedups.gc_read(None, None)
    speedups.gc_end(None, RuntimeError("a failed build gives it back too"))
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def _pages(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.suffix in {".html", ".js", ".xml"})


def test_without_the_speedups_the_site_is_the_same(tmp_path):
    # Without them first: the search index's prune, once replaced, stays so in this process.
    sites = {}
    for on in (False, True):
        proj = copy_project(tmp_path / f"speedups-{on}")
        assert convert(proj) == 0
        app = sphinx_build(proj, freshenv=True, parallel=2, confoverrides={"prnotes_speedups": on})
        assert app.warning.getvalue() == ""
        sites[on] = proj / "_build" / "html"
    assert _pages(sites[False]) == _pages(sites[True]) != []
    _, mismatch, errors = filecmp.cmpfiles(sites[False], sites[True], _pages(sites[True]), shallow=False)
    assert mismatch == [] and errors == []
    assert gc.get_freeze_count() == 0
