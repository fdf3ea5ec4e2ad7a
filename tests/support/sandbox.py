"""Throw-away copies of the project, for tests and benchmarks."""

from __future__ import annotations

import shutil
from pathlib import Path

from prnotes.model.taxonomy import PACKAGED

ROOT = Path(__file__).resolve().parents[2]
# Fixture projects: seeds (and, optionally, a taxonomy of their own) whose
# outputs the tests pin exactly. The project's own seeds/ grows every day, so
# tests over it check only invariants.
ROOTS = ROOT / "tests" / "roots"
# A frozen copy of the project's first two digests (16 notes from
# vllm-project/vllm), kept here under tests/roots/, not read from seeds/:
# a new digest in seeds/ never changes what the fixture tests pin.
FIXTURE = ROOTS / "vllm16"
# What a copy needs besides its seeds. The package is installed (editable), so
# the copy has no code of its own; the Makefile with its prerequisites lets
# `make html VENV=...` run in the copy. Each copy gets the packaged taxonomy
# as files of its own, as `prnotes init` writes it, for tests that edit it.
TAXONOMY = PACKAGED
PROJECT_FILES = (
    "conf.py",
    "Makefile",
    "pyproject.toml",
    "requirements",
    "scripts/bootstrap.sh",
)


def copy_project(dest: Path, seeds: Path | dict[str, str | bytes] | None = None) -> Path:
    """Copy the project's configuration to ``dest`` with the given seeds.

    ``seeds`` is a folder to copy, or ``{file name: content}``; by default the
    fixture's (:data:`FIXTURE`). A fixture's own ``taxonomy.toml`` or
    ``taxonomy/`` replaces the project's.
    """
    dest.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        src, target = ROOT / name, dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, target)
        elif src.exists():
            shutil.copy2(src, target)
    shutil.copy2(TAXONOMY / "taxonomy.toml", dest / "taxonomy.toml")
    shutil.copytree(TAXONOMY / "taxonomy", dest / "taxonomy")
    seeds_dir = dest / "seeds"
    if seeds is None or isinstance(seeds, Path):
        seeds = seeds or FIXTURE / "seeds"
        shutil.copytree(seeds, seeds_dir)
        if (seeds.parent / "taxonomy.toml").is_file() and seeds.parent.is_relative_to(ROOTS):
            shutil.copy2(seeds.parent / "taxonomy.toml", dest / "taxonomy.toml")
        if (seeds.parent / "taxonomy").is_dir() and seeds.parent.is_relative_to(ROOTS):
            shutil.rmtree(dest / "taxonomy")
            shutil.copytree(seeds.parent / "taxonomy", dest / "taxonomy")
    else:
        seeds_dir.mkdir()
        for name, content in seeds.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            (seeds_dir / name).write_bytes(data)
    return dest


def convert(project: Path, *args: str) -> int:
    """``prnotes notes`` on ``project``, quietly; returns the exit status."""
    from prnotes.commands.cli import main

    return main(["notes", "--root", str(project), "-q", *args])


def sphinx_build(
    proj: Path, builder: str = "html", *, freshenv: bool = False, parallel: int = 0, listeners=(), confoverrides=None
):
    """Build ``proj`` into ``proj/_build`` with sphinx.testing; return the app.

    ``listeners`` are ``(event, callback)`` pairs connected before the build, or
    ``(event, callback, priority)``.
    """
    from sphinx.testing.util import SphinxTestApp

    app = SphinxTestApp(
        builder, srcdir=proj, builddir=proj / "_build", freshenv=freshenv, parallel=parallel, confoverrides=confoverrides
    )
    for event, callback, *priority in listeners:
        app.connect(event, callback, *priority)
    try:
        app.build()
    finally:
        app.cleanup()
    return app


def fixture_site(fixture: Path = FIXTURE):
    """The site model of a fixture project, read in place."""
    from prnotes.model.site import build_site
    from prnotes.parse.seeds import read_seeds
    from prnotes.model.taxonomy import load_taxonomy

    seeds, prs = read_seeds(fixture / "seeds", fixture)
    return build_site(seeds, prs, load_taxonomy(fixture if (fixture / "taxonomy.toml").is_file() else ROOT))
