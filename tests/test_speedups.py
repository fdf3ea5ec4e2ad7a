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


class Builder(speedups.Processes):
    """A builder of a site of ``docs`` documents already read."""

    def __init__(self, docs: int, on: bool = True) -> None:
        self.env = SimpleNamespace(all_docs={f"notes/n{i}": 0.0 for i in range(docs)})
        self.config = SimpleNamespace(prnotes_speedups=on)


@pytest.mark.parametrize(
    ("site", "batch", "serial"),
    [
        (1300, 21, True),  # a day's digest: serial
        (1300, 649, True),
        (1300, 650, False),  # half the site or more: parallel
        (0, 1300, False),  # a build from nothing
        (0, 3, False),
    ],
)
def test_a_batch_below_half_the_site_is_read_and_written_serially(site, batch, serial):
    builder, docnames = Builder(site), [f"notes/new{i}" for i in range(batch)]
    assert builder.reads_serially(docnames) is serial
    # Sphinx writes with parallel - 1 workers; the main process prepares the pages.
    assert builder.write_workers(docnames, 1) == (0 if serial else 2)
    assert builder.write_workers(docnames, 3) == (0 if serial else 4)


def test_without_the_speedups_the_builder_chooses_as_sphinx_does():
    builder, docnames = Builder(1300, on=False), ["notes/new"]
    assert not builder.reads_serially(docnames)
    assert builder.write_workers(docnames, 1) == 1


def test_a_build_freezes_what_it_has_loaded_and_read_and_gives_the_collector_back():
    before, kept = gc.get_threshold(), [object() for _ in range(10)]
    loaded, read, ended = speedups.collector(before)
    loaded(None)
    assert gc.get_threshold() == (speedups.GC_THRESHOLD, *before[1:])
    assert gc.get_freeze_count() > len(kept)
    read(None, None)
    ended(None, RuntimeError("a failed build gives it back too"))
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


def test_a_page_written_is_not_kept_until_the_build_ends(tmp_path):
    """The doctrees a serial read leaves for the writers are dropped before the
    environment is frozen: frozen, every page written stayed in memory with
    its filled lists until the build ended (1.2 GB for the hub of 5,000 notes)."""
    import weakref

    proj = copy_project(tmp_path / "p")
    assert convert(proj) == 0
    written, alive = [], []

    def resolved(app, doctree, docname):
        written.append(weakref.ref(doctree))

    def finished(app, exception):
        gc.collect()
        alive.extend(ref for ref in written if ref() is not None)

    app = sphinx_build(proj, freshenv=True, listeners=[("doctree-resolved", resolved), ("build-finished", finished, 1)])
    assert app.warning.getvalue() == ""
    assert len(written) > 20
    assert len(alive) <= 1, f"{len(alive)} of {len(written)} pages written are still in memory"
