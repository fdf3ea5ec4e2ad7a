"""Commit a project copy, so that its digests count as published.

The feed dates each digest by the commit that added its seed file, and
leaves out digests that are not committed yet; a test that reads the feed
commits its copy first.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def commit_everything(proj: Path, date: str = "2026-01-01T00:00:00+00:00") -> None:
    """``git init`` ``proj`` and commit all of it at ``date``, with no user configuration."""
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org")
    env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "project"]):
        subprocess.run(["git", *args], cwd=proj, env=env, capture_output=True, check=True)
