"""``prnotes init DIR``: start a notes site of one's own.

Writes what a site holds besides its digests: the one-line ``conf.py`` (every
setting is :mod:`prnotes.sphinxext.defaults`), the taxonomy to edit
(``taxonomy.toml`` and ``taxonomy/``, the packaged one), an empty
``seeds/prs.toml``, a ``.gitignore``, and an ``index.md`` that says how to
add the first digest (the conversion replaces it once there is one). A
folder that holds anything is refused, unless ``--force``: then only the
files named here are written, over what is there.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

NAME = "init"
HELP = "start a notes site in a new or empty folder: conf.py, the taxonomy, seeds/, the empty archive's pages"
PRS = """# The PR number and upstream English title of each entry whose title gives no
# (#N), per repository, keyed by the title exactly as the digest writes it:
#
# ["owner/repo"]
# "标题，与 seed 文件里一字不差" = { number = 12345, upstream_title = "[Area] The upstream title" }
"""
GITIGNORE = "_build/\n.prnotes-cache/\n"
INDEX = """{marker} by prnotes init; the first conversion replaces it.

# PR 精读笔记

还没有笔记。把第一份摘要放进 `seeds/`（文件名如 `000_<名字>.txt`，第一行是 `owner/repo`），再运行 `prnotes build`。
"""
NEEDS_NO_PROJECT = True


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", type=Path, help="the site's folder (made if missing)")
    parser.add_argument("--force", action="store_true", help="write into a folder that holds files already")


def run(args: argparse.Namespace) -> int:
    from ..model.taxonomy import PACKAGED

    target: Path = args.directory
    if target.exists() and not target.is_dir():
        print(f"{args.tool}: {target} is a file, not a folder", file=sys.stderr)
        return 2
    if target.is_dir() and any(target.iterdir()) and not args.force:
        print(f"{args.tool}: {target} is not empty; pass --force to write the site's files into it", file=sys.stderr)
        return 2
    try:
        _write(target, PACKAGED, args.force)
    except OSError as exc:  # a parent that is a file, a read-only or full disk
        print(f"{args.tool}: cannot write the site into {target}: {exc.strerror or exc} ({exc.filename or target})", file=sys.stderr)
        return 1
    print(
        f"{args.tool}: a notes site in {target}. Copy a digest into {target / 'seeds'}/ "
        f"(000_<name>.txt), then: prnotes build --root {target}"
    )
    return 0


def _write(target: Path, packaged: Path, force: bool) -> None:
    from .. import contract

    (target / "seeds").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(packaged / "conf.py", target / "conf.py")
    shutil.copyfile(packaged / "taxonomy.toml", target / "taxonomy.toml")
    shutil.copytree(packaged / "taxonomy", target / "taxonomy", dirs_exist_ok=True)
    if not (target / "seeds" / "prs.toml").exists():
        (target / "seeds" / "prs.toml").write_text(PRS, encoding="utf-8")
    (target / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
    if not (target / "index.md").exists() or force:
        (target / "index.md").write_text(INDEX.format(marker=contract.MARKER), encoding="utf-8")
