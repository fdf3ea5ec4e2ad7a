"""Shared fixtures: the fixture project's model and pages, throw-away copies
of the project, converted and built, and where screenshots go.

Helpers that tests call directly (copying a project, converting, building)
are in :mod:`tests.support.sandbox`. The Hypothesis profile is loaded here,
once, for every test file (:mod:`tests.support.hypothesis_profiles`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import hypothesis_profiles
from tests.support.sandbox import ROOT, convert, copy_project, fixture_site, sphinx_build

pytest_plugins = ["sphinx.testing.fixtures"]

# Tests read warnings as plain text. Sphinx colours them when CI, FORCE_COLOR or
# a terminal says so, and NO_COLOR wins over all three (builds in subprocesses
# inherit it).
os.environ["NO_COLOR"] = "1"

hypothesis_profiles.load()


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where ``@pytest.mark.sphinx(testroot="x")`` finds its project: ``tests/roots/test-x``."""
    return Path(__file__).parent / "roots"


@pytest.fixture(scope="session")
def site():
    """The model of the fixture project (tests/roots/vllm16), read in place."""
    return fixture_site()


@pytest.fixture(scope="session")
def pages(site):
    """The fixture project's pages as the converter renders them: ``{path: text}``."""
    from prnotes.render import render_pages

    return render_pages(site).pages


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A converted copy of the fixture project."""
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


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory) -> Path:
    """Where the browser tests leave screenshots for a person to look at:
    ``PRNOTES_SCREENSHOTS`` (``make test`` sets ``_build/screenshots``), else
    a temporary folder of this run."""
    named = os.environ.get("PRNOTES_SCREENSHOTS")
    folder = Path(named).resolve() if named else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(autouse=True)
def _browser_problems():
    """Every browser test fails on a JavaScript or HTTP error that its pages
    met, even where the test did not check (tests.support.browserguard)."""
    yield
    from tests.support.browserguard import pending_problems

    problems = pending_problems()
    if problems:
        pytest.fail("the browser reported:\n" + "\n".join(problems))


@pytest.fixture(scope="session")
def follow_site(tmp_path_factory):
    """The follow fixture (tests.support.followsite) built to HTML once per
    session: ``(project, app)``."""
    from tests.support.followsite import build, follow_project

    proj = follow_project(tmp_path_factory.mktemp("follow") / "proj")
    return proj, build(proj)
