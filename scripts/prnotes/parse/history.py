"""When each digest arrived: the commit that added its seed file, from git.

A digest's date is the author date (in the author's own time zone) of the
commit that added its seed file, as sphinx-last-updated-by-git dates pages. A
file renamed in a later commit keeps its first date; one deleted and added
again is dated by its new arrival. The build machine's clock and file times
are never used for a date, so every checkout of the same commit shows the
same dates.

What git can say, and what the site shows for it (:mod:`.sphinxext.buildtime`):

- a full history: the date of every committed seed;
- a seed in a git work tree that no commit holds yet: no date (未提交);
- a shallow clone (``git clone --depth N``, the default of CI checkouts):
  its oldest fetched commits look as if they added every file they hold, so
  a seed that arrived before them would get their date. :func:`read` fetches
  the rest of the history (``git fetch --unshallow``) when a seed's date
  comes from such a commit; when that fails, those seeds have no known date
  (日期未知) and :attr:`History.fetch_error` says why;
- no git at all (a release tarball, ``git archive``, a copy without
  ``.git``): no date for any seed (日期未知);
- an author date git cannot print (before 1970 in the author's time zone:
  ``git log --format=%aI`` stops with "Timestamp before Unix epoch"): the
  log is read with raw dates, which git always prints, and only the seeds
  that commit added lose their date (:attr:`History.bad_dates`).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from . import regular

GIT_TIMEOUT = 120
# Fetching the rest of a shallow clone's history goes over the network.
FETCH_TIMEOUT = 600
UNSHALLOW = ("fetch", "--unshallow", "--quiet")
# What to run by hand when the build could not deepen the clone itself.
UNSHALLOW_COMMAND = "git fetch --unshallow"


@dataclass(frozen=True)
class BadDate:
    """A seed added by a commit whose author date git cannot print."""

    seed: str
    commit: str
    raw: str  # the date as git stores it: seconds since 1970 and the zone, "100 -0500"


@dataclass(frozen=True)
class History:
    """What git says about the seed files of one project."""

    # Whether the folder is in a git work tree (False: no repository, or no git).
    in_git: bool
    # Seed path (relative to the project) -> ISO 8601 author time, for the
    # committed seeds whose date is known to be right.
    dates: Mapping[str, str] = field(default_factory=dict)
    # Committed seeds with no known date: their adding commit is beyond a
    # shallow clone's history, or has a date git cannot print.
    unknown: frozenset[str] = frozenset()
    # Still shallow after this read (deepening failed or was not allowed).
    shallow: bool = False
    # Whether this read fetched the rest of a shallow clone's history.
    deepened: bool = False
    # Why ``git fetch --unshallow`` failed ('' if it was not run or succeeded).
    fetch_error: str = ""
    bad_dates: tuple[BadDate, ...] = ()
    # Why there is no git ('' when in_git).
    reason: str = ""

    def shallow_seeds(self) -> list[str]:
        """The digests whose date is unknown because the clone is shallow."""
        bad = {b.seed for b in self.bad_dates}
        return sorted(s for s in self.unknown if s not in bad and is_digest(s))


def is_digest(path: str) -> bool:
    """Whether a path under the seeds folder is a digest file (as :func:`prnotes.parse.seeds.read_seeds` reads them)."""
    name = path.rpartition("/")[2]
    return path.count("/") == 1 and name.endswith(".txt") and not name.startswith(".")


# What the reading of git's output relies on, whatever a reader's own
# configuration says: the root commit's files are listed (log.showRoot), no
# colour, signature check or rename following is mixed into the output, and
# paths are printed as they are (core.quotePath). The log's options
# (--diff-merges, --date, --format, -M) are given on its command line.
PINNED = (
    "-c", "log.showRoot=true", "-c", "color.ui=never", "-c", "log.showSignature=false", "-c", "log.follow=false",
    "-c", "core.quotePath=false", "-c", "diff.noprefix=false", "-c", "diff.relative=false",
)  # fmt: skip


def _git(root: Path, *args: str, timeout: float = GIT_TIMEOUT, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *PINNED, *args], cwd=root, capture_output=True, timeout=timeout, check=False, env=env)


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="surrogateescape")


def _complaint(stderr: bytes) -> str:
    """git's reason for failing: its first ``fatal:`` line, else its last line."""
    lines = [line.strip() for line in _text(stderr).splitlines() if line.strip()]
    fatal = [line.removeprefix("fatal: ") for line in lines if line.startswith("fatal: ")]
    return fatal[0] if fatal else (lines[-1] if lines else "")


# The last second Python's datetime holds, in UTC and in any zone: 9999-12-31T23:59:59.
_LAST_SECOND = 253402300799


def _raw_parts(raw: str) -> tuple[int, int] | None:
    """``"<seconds> <+hhmm>"`` (git's raw date) as (seconds since 1970 UTC, the zone's offset in seconds)."""
    try:
        seconds_text, zone = raw.split()
        seconds = int(seconds_text)
    except ValueError:
        return None
    if len(zone) != 5 or zone[0] not in "+-" or not zone[1:].isdigit():
        return None
    minutes = int(zone[1:3]) * 60 + int(zone[3:])
    return seconds, (-minutes if zone[0] == "-" else minutes) * 60


def _civil(days: int) -> tuple[int, int, int]:
    """Year, month, day of ``days`` after 1970-01-01, any year (H. Hinnant's civil_from_days)."""
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, day


def git_time(raw: str) -> str | None:
    """A raw date as ``git log --format=%aI`` prints it, whatever its year (git prints
    year 10000 and later; Python's datetime cannot hold them). None when git
    cannot print it: before 1970 in its own zone ("Timestamp before Unix epoch"),
    or not a date at all."""
    parts = _raw_parts(raw)
    if parts is None:
        return None
    local = parts[0] + parts[1]
    if local < 0:
        return None
    days, rest = divmod(local, 86400)
    year, month, day = _civil(days)
    sign, offset = ("-" if parts[1] < 0 else "+"), abs(parts[1]) // 60
    return (
        f"{year:04d}-{month:02d}-{day:02d}T{rest // 3600:02d}:{rest // 60 % 60:02d}:{rest % 60:02d}"
        f"{sign}{offset // 60:02d}:{offset % 60:02d}"
    )


def iso_time(raw: str) -> str | None:
    """``"<seconds> <+hhmm>"`` (git's raw date) as ISO 8601 in its own zone, as ``%aI`` prints it.

    None when the site cannot use it: git cannot print it (:func:`git_time`),
    or its year is after 9999 in UTC or in its own zone (the feeds and the
    pages compute with Python's datetime).
    """
    parts = _raw_parts(raw)
    if parts is None or parts[0] > _LAST_SECOND or parts[0] + parts[1] > _LAST_SECOND:
        return None
    return git_time(raw)


def date_problem(raw: str) -> str:
    """Why :func:`iso_time` has no date for ``raw``, in words for a warning."""
    printed = git_time(raw)
    if printed is not None:
        return f"after the year 9999 ({printed}), which this site cannot show"
    if _raw_parts(raw) is None:
        return f"git cannot read ({raw})"
    return f"git cannot print ({raw}: before 1970 in its own time zone)"


@dataclass(frozen=True)
class _Arrival:
    commit: str
    raw: str


def parse_log(out: str) -> dict[str, _Arrival]:
    """Path -> the commit it arrived with, from ``git log --reverse --name-status -z --format=%x01%H %ad``
    (raw dates; oldest commit first)."""
    arrivals: dict[str, _Arrival] = {}
    for record in out.split("\x01")[1:]:
        header, _, rest = record.partition("\0")
        commit, _, raw = header.strip().partition(" ")
        arrival = _Arrival(commit, raw)
        tokens = [t.lstrip("\n") for t in rest.split("\0")]
        tokens = [t for t in tokens if t]
        i = 0
        while i < len(tokens):
            status = tokens[i]
            if status[:1] in "RC" and i + 2 < len(tokens):
                old, new = tokens[i + 1], tokens[i + 2]
                # A rename keeps the commit the file first arrived with.
                arrivals[new] = arrivals.pop(old, arrival) if status[0] == "R" else arrivals.get(old, arrival)
                i += 3
            else:
                if status[:1] == "A" and i + 1 < len(tokens):
                    arrivals.setdefault(tokens[i + 1], arrival)
                elif status[:1] == "D" and i + 1 < len(tokens):
                    arrivals.pop(tokens[i + 1], None)  # added again later: a new arrival
                i += 2
    return arrivals


def _arrivals(root: Path, folder: str) -> dict[str, _Arrival]:
    cmd = [
        "log", "--reverse", "-M", "--diff-filter=ADR", "--name-status", "-z", "--no-color",
        # A merge commit's files too, against its first parent: a digest added
        # while merging (a conflict resolved by adding it, or `merge --no-commit`)
        # arrives with the merge; one from the merged branch has arrived before it.
        "--diff-merges=first-parent",
        # Raw dates: git prints every stored date this way, even one %aI refuses.
        "--topo-order", "--date=raw", "--format=%x01%H %ad", "--relative", "--", folder,
    ]  # fmt: skip
    proc = _git(root, *cmd)
    if proc.returncode != 0:
        return {}  # no commit yet
    return parse_log(_text(proc.stdout))


def _boundaries(root: Path) -> set[str]:
    """The commits a shallow clone has without their parents."""
    proc = _git(root, "rev-parse", "--git-path", "shallow")
    if proc.returncode != 0:
        return set()
    path = root / _text(proc.stdout).strip()
    try:
        return set(regular.read_regular(path).decode("ascii").split())
    except (OSError, ValueError):
        return set()


def _deepen(root: Path) -> str:
    """Fetch the rest of the history; '' on success, else git's reason."""
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0")
    # A build must not stop for a password or a host key question.
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
    try:
        proc = _git(root, *UNSHALLOW, timeout=FETCH_TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return f"no answer from the remote in {FETCH_TIMEOUT} s"
    if proc.returncode == 0:
        return ""
    return _complaint(proc.stderr) or f"git exited with status {proc.returncode}"


def _state(root: Path) -> tuple[bool, bool, str]:
    """(in a git work tree, shallow, why not in git)."""
    try:
        proc = _git(root, "rev-parse", "--is-inside-work-tree", "--is-shallow-repository")
    except FileNotFoundError:
        return False, False, "git is not installed"
    except (OSError, subprocess.SubprocessError) as exc:
        return False, False, f"git could not run ({exc})"
    answers = _text(proc.stdout).split()
    if proc.returncode != 0 or answers[:1] != ["true"]:
        said = _complaint(proc.stderr)
        if said and "not a git repository" not in said:
            return False, False, said  # e.g. git's "detected dubious ownership in repository"
        return False, False, "not in a git repository"
    return True, answers[1:2] == ["true"], ""


def read(root: Path, folder: str = "seeds", *, deepen: bool = True) -> History:
    """The history of the files under ``folder`` (relative to ``root``).

    ``deepen``: in a shallow clone that lacks a seed's adding commit, fetch the
    rest of the history (it changes the repository's ``.git``, as a
    ``git fetch`` does, and nothing else).
    """
    in_git, shallow, reason = _state(root)
    if not in_git:
        return History(in_git=False, reason=reason)
    try:
        arrivals = _arrivals(root, folder)
        boundaries = _boundaries(root) if shallow else set()
        deepened, fetch_error = False, ""
        if deepen and any(a.commit in boundaries for p, a in arrivals.items() if is_digest(p)):
            fetch_error = _deepen(root)
            if not fetch_error:
                deepened, shallow = True, False
                arrivals, boundaries = _arrivals(root, folder), set()
    except (OSError, subprocess.SubprocessError) as exc:
        return History(in_git=False, reason=f"git could not run ({exc})")
    dates: dict[str, str] = {}
    unknown: set[str] = set()
    bad: list[BadDate] = []
    for path, arrival in arrivals.items():
        when = iso_time(arrival.raw)
        if arrival.commit in boundaries:
            unknown.add(path)
        elif when is None:
            unknown.add(path)
            bad.append(BadDate(path, arrival.commit, arrival.raw))
        else:
            dates[path] = when
    return History(
        in_git=True,
        dates=dates,
        unknown=frozenset(unknown),
        shallow=shallow,
        deepened=deepened,
        fetch_error=fetch_error,
        bad_dates=tuple(sorted(bad, key=lambda b: b.seed)),
    )


EPOCH_VARIABLE = "SOURCE_DATE_EPOCH"


def epoch_problem() -> str | None:
    """What is wrong with ``SOURCE_DATE_EPOCH``, or None when it is unset or a time.

    The specification (reproducible-builds.org/specs/source-date-epoch) asks
    for the output of ``date +%s``, an integer, and for a build to stop on a
    malformed value; Sphinx itself fails on one with a traceback (as it loads,
    before any extension: a plain sphinx-build cannot be helped). So
    ``prnotes build`` and ``prnotes pdf`` check it first (``nan``, ``inf``,
    ``abc``, an empty value, a fraction, a negative number, or a time after
    the year 9999).
    """
    value = os.environ.get(EPOCH_VARIABLE)
    if value is None or (value.isascii() and value.isdigit() and len(value) <= 12 and int(value) <= _LAST_SECOND):
        return None
    shown = repr(value) if len(value) <= 40 else f"{value[:40]!r}… ({len(value)} characters)"
    return (
        f"{EPOCH_VARIABLE} is {shown}, not a time: it must be a whole number of seconds since 1970 "
        f"(0 to {_LAST_SECOND}), as `date +%s` prints it"
    )


def _epoch_limit() -> int | None:
    """``SOURCE_DATE_EPOCH`` (reproducible builds: no time written later than it), or None.

    A value that is no time raises ValueError (the commands refuse it before they start:
    :func:`epoch_problem`)."""
    if (problem := epoch_problem()) is not None:
        raise ValueError(problem)
    value = os.environ.get(EPOCH_VARIABLE)
    return None if value is None else int(value)


def _utc(seconds: float) -> str:
    # A file time after 9999 (a file system may store one) is no time datetime holds.
    return datetime.fromtimestamp(min(int(seconds), _LAST_SECOND), timezone.utc).isoformat()


def file_times(root: Path, folder: str = "seeds") -> dict[str, str]:
    """Each file under ``folder`` -> its modification time (ISO 8601, UTC), no later than ``SOURCE_DATE_EPOCH``.

    Never a digest's date: only what a feed entry needs without git (an Atom
    entry must say when it was last updated, and a file was last changed no
    earlier than that; ``git archive`` gives every file its commit's time).
    """
    limit = _epoch_limit()
    times: dict[str, str] = {}
    base = root / folder
    for path in sorted(base.rglob("*")) if base.is_dir() else ():
        try:
            if not path.is_file():
                continue
            mtime = path.stat().st_mtime
        except OSError:
            continue
        times[path.relative_to(root).as_posix()] = _utc(mtime if limit is None else min(mtime, limit))
    return times


def source_time(root: Path, folder: str = "seeds") -> str:
    """When the sources were last changed, for a feed with no entry to date it by:
    ``SOURCE_DATE_EPOCH``, else the time of the commit checked out, else the newest file time under ``folder``."""
    limit = _epoch_limit()
    if limit is not None:
        return _utc(limit)
    try:
        proc = _git(root, "log", "-1", "--date=raw", "--format=%cd")
        if proc.returncode == 0 and (when := iso_time(_text(proc.stdout).strip())):
            return when
    except (OSError, subprocess.SubprocessError):
        pass
    times = [root / folder, *(root / p for p in file_times(root, folder))]
    newest = max((p.stat().st_mtime for p in times if p.exists()), default=0.0)
    return _utc(newest)


def added_dates(root: Path, folder: str = "seeds") -> dict[str, str]:
    """Every committed file under ``folder`` whose date is known -> its ISO author time; empty without git."""
    return dict(read(root, folder).dates)
