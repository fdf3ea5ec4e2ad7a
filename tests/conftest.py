"""Shared fixtures: throw-away copies of the project, converted and built.

Helpers that tests call directly (copying a project, converting, building)
are in :mod:`tests.support.sandbox`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.sandbox import ROOT, convert, copy_project, sphinx_build

pytest_plugins = ["sphinx.testing.fixtures"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A converted copy of the project with the real seeds."""
    proj = copy_project(tmp_path / "proj")
    assert convert(proj) == 0
    return proj


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The fixture project built to HTML once per session: ``(project, app)``."""
    proj = copy_project(tmp_path_factory.mktemp("site") / "proj")
    assert convert(proj) == 0
    return proj, sphinx_build(proj)


@pytest.fixture(scope="session")
def real_site(tmp_path_factory):
    """The project's own seeds, whatever digests they hold, built to HTML once
    per session: ``(project, app)``. Tests on it check invariants only."""
    proj = copy_project(tmp_path_factory.mktemp("real") / "proj", ROOT / "seeds")
    assert convert(proj) == 0
    return proj, sphinx_build(proj)
