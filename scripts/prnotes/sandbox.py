"""Throw-away copies of the project, for tests and benchmarks."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What a copy needs besides its seeds; scripts/ is linked, not copied. The
# Makefile and requirements.txt let `make html VENV=...` run in the copy.
PROJECT_FILES = ("conf.py", "taxonomy.toml", "_static", "_templates", "Makefile", "requirements.txt")


def copy_project(dest: Path, seeds: Path | dict[str, str | bytes] | None = None) -> Path:
    """Copy the project's configuration to ``dest`` with the given seeds.

    ``seeds`` is a folder to copy, or ``{file name: content}``; by default the
    project's own ``seeds/``.
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
