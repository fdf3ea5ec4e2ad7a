"""Open only regular files, never wait on one, and read a bounded amount.

Every file prnotes reads (seeds, ``prs.toml``, the taxonomy, the conversion's
cache and lock, the pages it compares before writing, the build's stamp and
records) is opened here. A named pipe in its place would block the open or
the read until something writes to it, and a device such as ``/dev/zero``
(or a link to one) would be read until memory runs out. So a path is checked
with ``stat`` before it is opened (a device is never opened), opened with
``O_NONBLOCK`` (a pipe put there in between does not block), and checked
again on the open descriptor; and reads stop at a limit.

Errors are :class:`OSError` subclasses, so a caller that already handles a
file it cannot read handles these too; their ``strerror`` words the problem
for a message after the file's name.
"""

from __future__ import annotations

import errno
import os
import stat

# What a text input (a seed file, prs.toml, a taxonomy file) may hold: a
# digest is tens of kilobytes, a year of them a few megabytes.
MAX_INPUT_BYTES = 64 * 1024 * 1024

_KINDS = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


class NotRegularFile(OSError):
    """The path is a pipe, a device or a socket (``kind``)."""

    def __init__(self, path: str | os.PathLike, kind: str) -> None:
        super().__init__(errno.EINVAL, f"is {kind}, not a regular file", os.fspath(path))
        self.kind = kind


class FileTooLarge(OSError):
    """The file holds more than the reader's limit."""

    def __init__(self, path: str | os.PathLike, size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, f"holds {size:,} bytes, more than the {limit:,} prnotes reads", os.fspath(path))
        self.size, self.limit = size, limit


def kind(mode: int) -> str | None:
    """What a file of ``mode`` is when it is not a regular file; None when it is."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a file")


def _refuse(path: str | os.PathLike, mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    if (what := kind(mode)) is not None:
        raise NotRegularFile(path, what)


def open_regular(path: str | os.PathLike, flags: int = os.O_RDONLY, mode: int = 0o666) -> int:
    """A descriptor of the regular file at ``path`` (links followed), opened with
    ``flags``; :class:`NotRegularFile` if it is a pipe, a device or a socket
    (without waiting), :class:`IsADirectoryError` for a folder.

    With ``os.O_CREAT`` in ``flags`` a missing file is created.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if not flags & os.O_CREAT:
            raise
    else:
        _refuse(path, st.st_mode)
    fd = os.open(path, flags | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC, mode)
    try:
        _refuse(path, os.fstat(fd).st_mode)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: str | os.PathLike, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file at ``path``; :class:`FileTooLarge` past ``limit`` bytes."""
    fd = open_regular(path)
    with os.fdopen(fd, "rb") as fh:
        size = os.fstat(fd).st_size
        if size > limit:
            raise FileTooLarge(path, size, limit)
        data = fh.read(limit + 1)  # the file may have grown since
    if len(data) > limit:
        raise FileTooLarge(path, len(data), limit)
    return data


def read_prefix(path: str | os.PathLike, limit: int) -> bytes:
    """At most the first ``limit`` bytes of the regular file at ``path``."""
    with os.fdopen(open_regular(path), "rb") as fh:
        return fh.read(limit)

