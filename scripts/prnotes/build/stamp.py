"""Whether a Sphinx build would change anything: the inputs and outputs of the last one.

``make html`` runs ``prnotes build``, which runs ``sphinx-build`` unless
nothing it depends on has changed since its last successful run with the
same arguments. A Sphinx build with nothing to do still starts Sphinx,
loads the pickled environment of the whole archive, checks every source and
writes the search index, the inventory and the index pages again: seconds,
growing with the archive. The fingerprint below is what such a build could
depend on, taken over more than Sphinx reads so that nothing it reads is
missed:

- every file under the source folder (path, size, modification time), but
  the build's own folders, version control, virtual environments and caches
  of compiled Python;
- the command line, and the environment variables ``conf.py`` reads
  (``PRNOTES_*``, ``READTHEDOCS*``, GitHub's server, repository, ref and
  commit, ``SOURCE_DATE_EPOCH``): not GitHub's per-run variables (run id,
  attempt, times), which would make CI build on every run;
- the Python and the installed distributions (their ``dist-info`` names,
  which hold the versions), and the files of this package wherever it is
  installed;
- git: the commit and branch checked out, whether the clone is shallow and
  the state of ``seeds/`` (digest dates come from the history, the
  编辑来源 links point at the branch);
- the books ``make pdf`` left beside the site (``_build/latex/*.pdf``): the
  HTML build copies them into the site and links them
  (:mod:`prnotes.sphinxext.book.pdflinks`), so a new, changed or removed
  book means a build, though ``_build/`` is otherwise not a source;
- the output: every file under the output folder, and Sphinx's saved
  environment, so that a page removed or changed by hand is built again.

The stamp also keeps the command line and the fingerprint of everything but
the books: after ``prnotes pdf`` made a book, a site whose last build is
current but for its books is built again with the same command line
(:func:`current_but_for_books`), so its landing page links the new book.

The stamp is removed before Sphinx runs and written only after it
succeeded, with the inputs as they were when it started: a failed or
interrupted build, or a file changed while it ran, means a real build next
time. ``-a``, ``-E`` and their long forms always build.

A build folder the disk refuses (a file where ``_build`` should be, a
read-only folder, a stamp that cannot be removed) stops the build before
Sphinx starts, with one line naming the path (:class:`BuildFolderError`).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import CommandError
from ..parse import regular
from ..write.files import write_file

STAMP_PREFIX = ".prnotes-build-"
ENV_PREFIXES = ("PRNOTES_", "READTHEDOCS", "GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_REF", "GITHUB_SHA", "SOURCE_DATE_EPOCH")
FORCING = frozenset({"-a", "-E", "--write-all", "--fresh-env"})
SKIPPED_DIRS = frozenset({".git", "node_modules", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
GIT_TIMEOUT = 60
PACKAGE = Path(__file__).parents[1]  # prnotes: the extension's code, templates and styles
MAX_STAMP_BYTES = 1 << 20  # a stamp is two hashes; anything larger is not one


@dataclass(frozen=True)
class Layout:
    """Where one Sphinx build reads and writes."""

    source: Path
    output: Path
    doctrees: Path

    @property
    def stamp(self) -> Path:
        """Next to the output folder, never inside it (it is not published)."""
        return self.output.parent / f"{STAMP_PREFIX}{self.output.name}.json"


def _tree(folder: Path, skip: frozenset[Path]) -> list[tuple[str, int, int]]:
    """``(path, size, mtime_ns)`` of every file under ``folder``, sorted; paths in ``skip`` left out."""
    # Strings, not pathlib: this walks every page of the archive on every build.
    top = os.fspath(folder)
    cut = len(top) + 1
    skipped = {os.fspath(p) for p in skip}
    found = []
    stack = [top]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            path = entry.path
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name in SKIPPED_DIRS or path in skipped or os.path.exists(os.path.join(path, "pyvenv.cfg")):
                        continue
                    stack.append(path)
                elif path not in skipped:
                    st = entry.stat(follow_symlinks=False)
                    found.append((path[cut:].replace(os.sep, "/"), st.st_size, st.st_mtime_ns))
            except OSError:
                found.append((path[cut:].replace(os.sep, "/"), -1, -1))
    return sorted(found)


def digest(value: object) -> str:
    """A stable hash of a JSON-able value."""
    return hashlib.sha256(json.dumps(value, ensure_ascii=False, sort_keys=True).encode("utf-8", "surrogateescape")).hexdigest()


def _git(source: Path, *args: str) -> str:
    try:
        proc = subprocess.run(["git", *args], cwd=source, capture_output=True, timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return "no git"
    return proc.stdout.decode("utf-8", "surrogateescape") if proc.returncode == 0 else f"git exit {proc.returncode}"


def _distributions() -> list[str]:
    names = []
    for key in ("purelib", "platlib"):
        folder = Path(sysconfig.get_paths()[key])
        try:
            names.extend(f"{key}/{entry.name}" for entry in os.scandir(folder) if entry.name.endswith((".dist-info", ".pth")))
        except OSError:
            names.append(f"{key}: unreadable")
    return sorted(set(names))


def environment(argv: list[str]) -> dict[str, object]:
    """What any build depends on besides its files: arguments, variables, Python and its packages."""
    return {
        "argv": argv,
        "env": sorted((k, v) for k, v in os.environ.items() if k.startswith(ENV_PREFIXES)),
        "python": [sys.version, sys.prefix, _distributions()],
    }


def files(*folders: Path, skip: frozenset[Path] = frozenset()) -> list[object]:
    """``(path, size, mtime_ns)`` of the files under each of ``folders`` (or of a file itself)."""
    out: list[object] = []
    for folder in folders:
        if folder.is_dir():
            out.append([folder.as_posix(), _tree(folder, skip)])
        else:
            try:
                st = folder.stat()
                out.append([folder.as_posix(), st.st_size, st.st_mtime_ns])
            except OSError:
                out.append([folder.as_posix(), None])
    return out


@dataclass(frozen=True)
class Inputs:
    """The fingerprint of what a build could read, taken before it ran."""

    site: str  # everything but the books
    books: str  # the books beside the site
    argv: tuple[str, ...]

    @property
    def digest(self) -> str:
        return digest([self.site, self.books])


def books(layout: Layout) -> str:
    """The fingerprint of the PDF books beside the site."""
    folder = layout.source / "_build" / "latex"  # where make pdf leaves them (sphinxext/book/pdflinks.py, latex_dir)
    return digest(files(*sorted(folder.glob("*.pdf"))) if folder.is_dir() else [])


def inputs(layout: Layout, argv: list[str]) -> Inputs:
    """The fingerprint of everything the build could read, taken now."""
    return Inputs(_site_inputs(layout, argv), books(layout), tuple(argv))


def _site_inputs(layout: Layout, argv: list[str]) -> str:
    build_dirs = {layout.output, layout.doctrees, layout.stamp}
    if layout.source in layout.output.parent.parents:
        build_dirs.add(layout.output.parent)  # _build/: the other builders' output too
    return digest(
        {
            **environment(argv),
            "package": files(PACKAGE),
            "git": [
                _git(layout.source, "rev-parse", "HEAD"),
                _git(layout.source, "rev-parse", "--is-shallow-repository", "--symbolic-full-name", "HEAD"),
                _git(layout.source, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", "seeds"),
            ],
            "sources": _tree(layout.source, frozenset(build_dirs)),
        }
    )


def outputs(layout: Layout) -> str:
    """The fingerprint of what the build left: the output folder and the saved environment."""
    # Here, not at the top: importing the Sphinx side imports Sphinx, which
    # every prnotes command would then pay for, `prnotes notes` too.
    from ..sphinxext import _internals

    return digest(files(layout.output, _internals.environment_file(layout.doctrees)))


def matches(stamp: Path, inputs_now: str, outputs_now: Callable[[], str]) -> bool:
    """Whether ``stamp`` records these inputs and, then, these outputs (worked out only if the inputs match)."""
    try:
        saved = json.loads(regular.read_regular(stamp, MAX_STAMP_BYTES).decode("utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(saved, dict) or saved.get("inputs") != inputs_now:
        return False
    return saved.get("outputs") == outputs_now()


def save(stamp: Path, inputs_before: str, outputs_now: str, **more: object) -> None:
    """Record a successful build: its inputs as they were when it started, and its outputs now
    (``more``: what else a later command reads from the stamp)."""
    data = json.dumps({**more, "inputs": inputs_before, "outputs": outputs_now}, sort_keys=True).encode("utf-8")
    stamp.parent.mkdir(parents=True, exist_ok=True)
    write_file(stamp, data)


def forced(argv: list[str]) -> bool:
    return any(arg in FORCING for arg in argv)


def up_to_date(layout: Layout, argv: list[str]) -> tuple[bool, Inputs]:
    """Whether the last build's stamp matches; and the inputs' fingerprint, taken now."""
    now = inputs(layout, argv)
    return not forced(argv) and matches(layout.stamp, now.digest, lambda: outputs(layout)), now


def current_but_for_books(layout: Layout) -> list[str] | None:
    """The command line of the last build of ``layout`` when the books beside it changed since
    and nothing else it reads did (its sources and settings); else None. (Its output is not
    compared: the book's own Sphinx run saves the environment the site's build shares.)"""
    try:
        saved = json.loads(layout.stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(saved, dict) or not isinstance(saved.get("argv"), list) or forced(saved["argv"]):
        return None
    argv = [str(a) for a in saved["argv"]]
    now = Inputs(saved.get("site", ""), books(layout), tuple(argv))
    if now.digest == saved.get("inputs"):
        return None
    if _site_inputs(layout, argv) != saved.get("site"):
        return None
    return argv


class BuildFolderError(CommandError):
    """The disk refused the build's folders or its stamp; the message names the path."""


def _shown(path: Path) -> str:
    """``path`` relative to the current folder (the project's) when it is inside it."""
    here = Path.cwd()
    return path.relative_to(here).as_posix() if path.is_relative_to(here) else path.as_posix()


def _problem(path: Path, exc: OSError) -> str:
    """What is wrong with ``path``: a file where a folder should be, or the system's reason."""
    if exc.errno in (errno.ENOTDIR, errno.EEXIST):
        # On the way to ``path``, or (a folder being made) ``path`` itself.
        steps = [*reversed(path.parents), *([path] if exc.errno == errno.EEXIST else [])]
        for step in steps:
            if step.exists() and not step.is_dir():
                return f"{_shown(step)} is not a folder"
    return f"{_shown(path)}: {exc.strerror or errno.errorcode.get(exc.errno or 0, str(exc))}"


def forget(layout: Layout) -> None:
    """Before a build: whatever happens next, the old stamp no longer holds; the
    output folders exist. Raises :class:`BuildFolderError` when the disk refuses."""
    try:
        layout.stamp.unlink(missing_ok=True)
    except OSError as exc:
        raise BuildFolderError(f"cannot remove the last build's stamp: {_problem(layout.stamp, exc)}; nothing built") from None
    make_folders((layout.output, layout.doctrees))


def make_folders(folders: Iterable[Path]) -> None:
    """Make each folder, and its parents; a file in the way stops with one line naming it."""
    for folder in folders:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BuildFolderError(f"cannot create the build folder: {_problem(folder, exc)}; nothing built") from None


def remember(layout: Layout, inputs_before: Inputs) -> None:
    """After a successful build: its inputs as they were when it started, and its outputs now."""
    try:
        save(layout.stamp, inputs_before.digest, outputs(layout), site=inputs_before.site, argv=list(inputs_before.argv))
    except OSError as exc:
        raise BuildFolderError(
            f"cannot write the build's stamp: {_problem(layout.stamp, exc)}; the site is built, "
            "and the next build runs Sphinx again"
        ) from None
