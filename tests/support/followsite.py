"""The follow fixture (tests/roots/follow): four digests from two
repositories over three days, the last two on the same day, committed in
git at those dates, for the read marks, filters, feeds and similar notes."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support import gitrepo
from tests.support.sandbox import ROOTS, convert, copy_project, sphinx_build

SEEDS = ROOTS / "follow" / "seeds"
DIGESTS = ("000_v1.txt", "001_s1.txt", "002_v2.txt", "003_s2.txt")
DATES = ("2026-12-01T09:00:00+08:00", "2026-12-02T09:00:00+08:00", "2026-12-03T08:00:00+08:00", "2026-12-03T09:30:00+08:00")


def follow_project(dest: Path, digests: int = len(DIGESTS), dates: tuple[str, ...] = DATES) -> Path:
    """A copy of the project with the first ``digests`` digests, each committed at its date."""
    proj = copy_project(dest, {})
    gitrepo.init(proj)
    for name, date in list(zip(DIGESTS, dates))[:digests]:
        shutil.copy2(SEEDS / name, proj / "seeds" / name)
        gitrepo.commit(proj, [f"seeds/{name}"], date)
    return proj


def build(proj: Path, **kwargs):
    """Convert and build ``proj``; the build must warn of nothing."""
    assert convert(proj) == 0
    app = sphinx_build(proj, **kwargs)
    assert app.warning.getvalue() == ""
    return app
