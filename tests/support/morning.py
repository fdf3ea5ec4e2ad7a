"""The reader's-morning fixture (tests/roots/morning) under git, each digest committed at its date.

Four digests from two repositories over three days, the last two on the
same day (2026-11-09): what a reader finds on a morning after a busy day.
"""

from __future__ import annotations

from pathlib import Path

from tests.support import gitrepo
from tests.support.sandbox import ROOTS

SEEDS = ROOTS / "morning" / "seeds"
DIGESTS = ("000_a1b2c3.txt", "001_d4e5f6.txt", "002_0718aa.txt", "003_9c0ffe.txt")
DATES = (
    "2026-11-02T09:30:00+08:00",
    "2026-11-05T23:10:00-05:00",
    "2026-11-09T08:00:00+08:00",
    "2026-11-09T21:30:00+08:00",
)
NEWEST_DAY = "2026-11-09"


def morning_project(dest: Path, committed: int = len(DIGESTS), dates: tuple[str, ...] = DATES) -> Path:
    """A copy of the project with the fixture's seeds, the first ``committed`` digests committed, one commit each."""
    return gitrepo.digest_project(dest, SEEDS, DIGESTS, dates, committed)
