"""What a Sphinx build reads and writes, checked before Sphinx starts.

Sphinx opens every page it finds as it is: a named pipe among the pages
blocks it until something writes to the pipe, and a link to a device such as
``/dev/zero`` is read until memory runs out (:func:`check_sources`). And a
file where the build writes a folder (``_build/html/feeds``, ``_search``,
``_static``, a folder of pages) fails it part way, in Sphinx's own words, a
traceback long (:func:`check_output`). ``prnotes build`` looks first and
stops with one line naming the path (:class:`BuildRefused`), before
anything is written.
"""

from __future__ import annotations

import contextlib
import os
import traceback
from pathlib import Path

from .. import contract
from ..diagnostics import CommandError
from ..parse import regular

# Where the site's pages are (prnotes.sphinxext.defaults: include_patterns,
# source_suffix), and the configuration Sphinx runs first.
PAGE_SUFFIX = ".md"
PAGE_FOLDERS = ("notes",)
FILES = ("conf.py", "index.md")
# The folders Sphinx's HTML builder writes besides its pages' (which mirror the sources').
SPHINX_FOLDERS = ("_static", "_sources", "_images", "_downloads")


class BuildRefused(CommandError):
    """A path the build reads or writes is of the wrong kind; the message names it."""


def _walk(source: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """Under :data:`PAGE_FOLDERS`: ``(path, kind)`` of every page that is not a
    regular file, and every folder (paths relative to ``source``)."""
    special, folders = [], []
    stack = [os.path.join(source, folder) for folder in PAGE_FOLDERS]
    while stack:
        top = stack.pop()
        try:
            entries = list(os.scandir(top))
        except OSError:
            continue
        folders.append(os.path.relpath(top, source).replace(os.sep, "/"))
        for entry in entries:
            try:
                if entry.is_file(follow_symlinks=False):
                    continue  # a regular file, told by the folder itself: no system call
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.name.endswith(PAGE_SUFFIX):
                    what = regular.kind(entry.stat().st_mode)  # a link: what it leads to
                    if what is not None and what != "a folder":
                        special.append((os.path.relpath(entry.path, source).replace(os.sep, "/"), what))
            except OSError:
                continue  # a link to nothing: Sphinx reports it
    return special, folders


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
    special += sorted(_walk(source)[0])
    if special:
        rel, what = special[0]
        more = f" (and {len(special) - 1} more)" if len(special) > 1 else ""
        raise BuildRefused(f"{rel} is {what}, not a regular file{more}; Sphinx reads only regular files; nothing built")


def check_config(source: Path) -> None:
    """Refuse a ``conf.py`` that does not compile or raises when run: one line
    naming its line, where Sphinx would print a report a traceback long. It
    is run here as Sphinx runs it (in its folder, as ``__file__``), then
    again by Sphinx; the site's own is one import."""
    conf = source / "conf.py"
    try:
        text = conf.read_bytes()
    except OSError:
        return  # missing or unreadable: Sphinx says which
    try:
        code = compile(text, "conf.py", "exec")
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None) or 1
        raise BuildRefused(f"conf.py:{line}: {getattr(exc, 'msg', exc)}; nothing built") from None
    namespace = {"__file__": str(conf.resolve()), "__name__": "conf"}
    try:
        with contextlib.chdir(source):
            exec(code, namespace)  # noqa: S102 - the site's own configuration, as Sphinx runs it
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit too: conf.py ends the build before it starts
        frames = reversed(list(traceback.walk_tb(exc.__traceback__)))
        line = next((n for frame, n in frames if frame.f_code.co_filename == "conf.py"), 1)
        raise BuildRefused(f"conf.py:{line}: {type(exc).__name__}: {exc}; nothing built") from None


def _output_folders(source: Path) -> list[str]:
    """The folders a build of the site writes into, relative to its output folder."""
    from ..sphinxext.search.publish import SEARCH_DIR

    feeds = {contract.subsystem_feed("x"), contract.repo_feed("x/y"), contract.verdict_feed("x")}
    return sorted({*SPHINX_FOLDERS, SEARCH_DIR, *(f.rsplit("/", 1)[0] for f in feeds), *_walk(source)[1]})


def _shown(path: Path) -> str:
    """``path`` relative to the current folder (the project's) when it is inside it."""
    here = Path.cwd()
    return path.relative_to(here).as_posix() if path.is_relative_to(here) else path.as_posix()


def check_output(source: Path, output: Path) -> None:
    """Refuse anything but a folder where the build writes a folder: its pages' folders,
    Sphinx's own, the feeds' and the search's."""
    for rel in ["", *_output_folders(source)]:
        step = output
        for part in rel.split("/"):
            step = step / part
            if os.path.lexists(step) and not step.is_dir():
                raise BuildRefused(f"cannot create the build folder: {_shown(step)} is not a folder; nothing built")
