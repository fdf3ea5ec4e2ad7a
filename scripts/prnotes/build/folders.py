"""What a Sphinx build reads and writes, checked before Sphinx starts.

Sphinx opens every page it finds as it is: a named pipe among the pages
blocks it until something writes to the pipe, and a link to a device such as
``/dev/zero`` is read until memory runs out. And a file where the build
writes a folder fails it part way, in Sphinx's own words, a traceback long.
``prnotes build`` looks first and stops with one line naming the path
(:class:`BuildRefused`), before anything is written.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..diagnostics import CommandError
from ..parse import regular

# Where the site's pages are (prnotes.sphinxext.defaults: include_patterns,
# source_suffix), and the configuration Sphinx runs first.
PAGE_SUFFIX = ".md"
PAGE_FOLDERS = ("notes",)
FILES = ("conf.py", "index.md")


class BuildRefused(CommandError):
    """A path the build reads or writes is of the wrong kind; the message names it."""


def _special_pages(source: Path) -> list[tuple[str, str]]:
    """``(path, kind)`` of every page under :data:`PAGE_FOLDERS` that is not a regular file."""
    found = []
    stack = [os.path.join(source, folder) for folder in PAGE_FOLDERS]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_file(follow_symlinks=False):
                    continue  # a regular file, told by the folder itself: no system call
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.name.endswith(PAGE_SUFFIX):
                    what = regular.kind(entry.stat().st_mode)  # a link: what it leads to
                    if what is not None and what != "a folder":
                        found.append((os.path.relpath(entry.path, source), what))
            except OSError:
                continue  # a link to nothing: Sphinx reports it
    return found


def check_sources(source: Path) -> None:
    """Refuse a page or configuration file Sphinx would wait on or read without end."""
    special = []
    for name in FILES:
        try:
            what = regular.kind(os.stat(source / name).st_mode)
        except OSError:
            continue
        if what is not None:
            special.append((name, what))
    special += sorted(_special_pages(source))
    if special:
        rel, what = special[0]
        more = f" (and {len(special) - 1} more)" if len(special) > 1 else ""
        raise BuildRefused(
            f"{rel.replace(os.sep, '/')} is {what}, not a regular file{more}; Sphinx reads only regular files; nothing built"
        )
