"""Shared fixtures: a throw-away copy of the project, converted and built."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from prnotes.sandbox import copy_project as make_project  # noqa: E402

pytest_plugins = ["sphinx.testing.fixtures"]


def convert(project: Path, *args: str) -> int:
    from prnotes.cli import main

    return main(["--root", str(project), "-q", *args])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A converted copy of the project with the real seeds."""
    proj = make_project(tmp_path / "proj")
    assert convert(proj) == 0
    return proj


def sphinx_build(proj: Path, builder: str = "html", *, freshenv: bool = False, parallel: int = 0, listeners=()):
    """Build ``proj`` into ``proj/_build`` with sphinx.testing; return the app.

    ``listeners`` are ``(event, callback)`` pairs connected before the build.
    """
    from sphinx.testing.util import SphinxTestApp

    app = SphinxTestApp(builder, srcdir=proj, builddir=proj / "_build", freshenv=freshenv, parallel=parallel)
    for event, callback in listeners:
        app.connect(event, callback)
    try:
        app.build()
    finally:
        app.cleanup()
    return app


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The real seeds built to HTML once per session: ``(project, app)``."""
    proj = make_project(tmp_path_factory.mktemp("site") / "proj")
    assert convert(proj) == 0
    return proj, sphinx_build(proj)
