"""Shared fixtures: a throw-away copy of the project, converted and built."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

pytest_plugins = ["sphinx.testing.fixtures"]

# What a project copy needs besides its seeds.
PROJECT_FILES = ("conf.py", "taxonomy.toml", "_static", "_templates")


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return ROOT / "tests" / "roots"


def make_project(dest: Path, seeds: Path | dict[str, str | bytes] | None = None) -> Path:
    """Copy the project's configuration to ``dest`` with the given seeds.

    ``seeds`` is a folder to copy, or ``{file name: content}``; by default the
    project's own ``seeds/``. ``scripts/`` is linked, not copied.
    """
    dest.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name)
        elif src.exists():
            shutil.copy2(src, dest / name)
    (dest / "scripts").symlink_to(ROOT / "scripts")
    seeds_dir = dest / "seeds"
    if seeds is None or isinstance(seeds, Path):
        shutil.copytree(seeds or ROOT / "seeds", seeds_dir)
    else:
        seeds_dir.mkdir()
        for name, content in seeds.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            (seeds_dir / name).write_bytes(data)
    return dest


def convert(project: Path, *args: str) -> int:
    from prnotes.cli import main

    return main(["--root", str(project), "-q", *args])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A converted copy of the project with the real seeds."""
    proj = make_project(tmp_path / "proj")
    assert convert(proj) == 0
    return proj


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, make_app_session=None):
    """The real seeds built to HTML once per session: ``(project, app)``."""
    from sphinx.testing.util import SphinxTestApp

    proj = make_project(tmp_path_factory.mktemp("site") / "proj")
    assert convert(proj) == 0
    app = SphinxTestApp("html", srcdir=proj, builddir=proj / "_build")
    try:
        app.build()
    finally:
        app.cleanup()
    return proj, app
