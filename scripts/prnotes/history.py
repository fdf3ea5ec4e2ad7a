"""When each digest arrived: the commit that added its seed file, from git.

A digest's date is the author date (in the author's own time zone) of the
commit that added its seed file, as sphinx-last-updated-by-git dates pages. A
file renamed in a later commit keeps its first date. A file that no commit
holds yet has no date (the site shows 未提交); one deleted and added again
is dated by its new arrival. The build machine's clock and
file times are never used, so every checkout of the same commit shows the
same dates; a shallow clone dates every file by its oldest fetched commit
(publish with the full history: README, "Hosting").
"""

from __future__ import annotations

import subprocess
from pathlib import Path

GIT_TIMEOUT = 120


def _git_log(root: Path, folder: str) -> str | None:
    cmd = [
        "git", "-c", "core.quotePath=false", "log", "--reverse", "-M", "--diff-filter=ADR", "--name-status", "-z",
        "--format=%x01%aI", "--relative", "--", folder,
    ]  # fmt: skip
    try:
        proc = subprocess.run(cmd, cwd=root, capture_output=True, timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None  # not a git repository, or no commit yet
    return proc.stdout.decode("utf-8", errors="surrogateescape")


def parse_log(out: str) -> dict[str, str]:
    """Path -> ISO time from ``git log --reverse --name-status -z`` output (oldest commit first)."""
    dates: dict[str, str] = {}
    for record in out.split("\x01")[1:]:
        date, _, rest = record.partition("\0")
        tokens = [t.lstrip("\n") for t in rest.split("\0")]
        tokens = [t for t in tokens if t]
        i = 0
        while i < len(tokens):
            status = tokens[i]
            if status[:1] in "RC" and i + 2 < len(tokens):
                old, new = tokens[i + 1], tokens[i + 2]
                # A rename keeps the date the file first arrived with.
                dates[new] = dates.pop(old, date) if status[0] == "R" else dates.get(old, date)
                i += 3
            else:
                if status[:1] == "A" and i + 1 < len(tokens):
                    dates.setdefault(tokens[i + 1], date)
                elif status[:1] == "D" and i + 1 < len(tokens):
                    dates.pop(tokens[i + 1], None)  # added again later: a new arrival
                i += 2
    return dates


def added_dates(root: Path, folder: str = "seeds") -> dict[str, str]:
    """Every committed file under ``folder`` (relative to ``root``) -> its ISO author time; empty without git."""
    out = _git_log(root, folder)
    return parse_log(out) if out else {}
