"""Project copies under git, with commits at chosen dates (digest dates come from git)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path


def git(proj: Path, *args: str, date: str | None = None, author_date: str | None = None) -> str:
    """``git *args`` in ``proj``; ``date``: the commit's (author and committer), ``author_date``: the author's alone."""
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org")
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    if author_date:
        env.update(GIT_AUTHOR_DATE=author_date)
    proc = subprocess.run(["git", *args], cwd=proj, env=env, capture_output=True, text=True, check=True)
    return proc.stdout


def init(proj: Path) -> None:
    """A repository holding everything in ``proj`` but its seeds."""
    git(proj, "init", "-q", "-b", "main")
    (proj / ".gitignore").write_text("/_build/\n", encoding="utf-8")
    git(proj, "add", "--", ".gitignore", "conf.py", "taxonomy.toml")
    git(proj, "commit", "-q", "-m", "project", date="2026-01-01T00:00:00+00:00")


def commit(proj: Path, paths: list[str], date: str, message: str = "digest", author_date: str | None = None) -> None:
    """Commit ``paths`` (added, changed or removed) at ``date`` (ISO 8601 with offset; ``author_date``:
    the author's, in any form git takes, such as ``@100 -0500``)."""
    # A path already removed with `git rm` is no pathspec any more: add its folder.
    git(proj, "add", "-A", "--", *(p if (proj / p).exists() else str(Path(p).parent) for p in paths))
    git(proj, "commit", "-q", "-m", message, date=date, author_date=author_date)


def digest_project(dest: Path, seeds: Path, digests: tuple[str, ...], dates: tuple[str, ...], committed: int) -> Path:
    """A copy of the project with ``seeds``' ``prs.toml`` and ``digests``, the first
    ``committed`` of them committed (with ``prs.toml``), one commit each at its date."""
    from tests.support.sandbox import copy_project

    proj = copy_project(dest, {})
    init(proj)
    shutil.copy2(seeds / "prs.toml", proj / "seeds/prs.toml")
    for name in digests:
        shutil.copy2(seeds / name, proj / "seeds" / name)
    for name, date in list(zip(digests, dates))[:committed]:
        commit(proj, [f"seeds/{name}", "seeds/prs.toml"], date)
    return proj
