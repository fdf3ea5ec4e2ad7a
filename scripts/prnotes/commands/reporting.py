"""How every ``prnotes`` subcommand says what stopped it, and how the process ends.

Problems in the input are printed one ``file:line: what`` per line; the exit
status is 1 for bad input or a failed step, 2 for a bad command line or no
project.

A Ctrl-C is one line and status 130, wherever it falls (:func:`run_and_exit`):
while the modules load (they are imported inside it), while prnotes works
(its steps leave every file as the last finished one did), and while Sphinx
builds (:func:`interrupt_stops_at_once`). Sphinx's worker processes leave the
interrupt to the command's own process, which ends them: a worker
interrupted on its own would print a traceback, and Sphinx's parent can
fail while it collects them. On Linux a worker also ends when the command
does (:func:`_quiet_child`).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

INTERRUPTED = "interrupted; every file is as the last finished step left it"
INTERRUPTED_IN_SPHINX = "interrupted; Sphinx stopped part way, and the next build runs it again"
# Whether this process is the prnotes command (run_and_exit), not a library user such as the tests.
_command = False
# Linux's prctl, for a forked child to be sent SIGTERM when its parent ends
# (PR_SET_PDEATHSIG); None elsewhere. Loaded before the command's first fork.
_PR_SET_PDEATHSIG = 1
_prctl = None
_forking_pid = 0


def report(tool: str, exc, what: str = "nothing written") -> None:
    """The one way input problems (an :class:`~prnotes.diagnostics.InputError`) reach the terminal."""
    for problem in exc.problems:
        print(f"error: {problem}", file=sys.stderr)
    print(f"{tool}: {len(exc.problems)} error(s); {what}", file=sys.stderr)


def reporting(args: argparse.Namespace, function: Callable[[], int]) -> int:
    """``function()``'s exit status; the problems it raises are said as every subcommand says them."""
    from ..diagnostics import CommandError, InputError
    from ..project import NoProjectError

    try:
        return function()
    except NoProjectError as exc:
        print(f"{args.tool}: {exc}", file=sys.stderr)
        return 2
    except InputError as exc:
        report(args.tool, exc, getattr(exc, "outcome", "nothing written"))
        return 1
    except CommandError as exc:
        print(f"{args.tool}: {exc}", file=sys.stderr)
        return 1


def _remember_parent() -> None:
    """Before this process forks: the child checks that this one is still its parent."""
    global _forking_pid, _prctl
    _forking_pid = os.getpid()
    if _prctl is None and sys.platform == "linux":
        import ctypes

        _prctl = ctypes.CDLL(None).prctl


def _quiet_child() -> None:
    """In a process this one forks (Sphinx's workers): Ctrl-C is the parent's
    to handle, and the child ends when the parent does. A worker forked in the
    instant the parent is interrupted is not yet among the children the parent
    ends (``multiprocessing.active_children``); without this it would run its
    task on after the command has exited."""
    if _command:
        signal.signal(signal.SIGINT, _ignore)
        if _prctl is not None:
            _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
            if os.getppid() != _forking_pid:  # the parent ended before the line above
                os._exit(130)


def _ignore(signum, frame) -> None:
    """A handler, not SIG_IGN: a program the child runs gets the default back."""


def _end_children() -> None:
    import multiprocessing

    for child in multiprocessing.active_children():
        child.terminate()
        child.join(5)


@contextmanager
def interrupt_stops_at_once() -> Iterator[None]:
    """While Sphinx builds in the command's process: a Ctrl-C ends the process
    at once, with one line, its workers with it. Sphinx's own handling of the
    interrupt, and of workers that end, can fail with a traceback. (Outside
    the command, in the tests, nothing changes.)"""
    if not _command:
        yield
        return

    owner = os.getpid()

    def stop(signum, frame) -> None:
        if os.getpid() != owner:
            # A worker forked in the instant of the interrupt, before
            # _quiet_child: the parent ends it and says so.
            os._exit(130)
        _end_children()
        print(f"\n{INTERRUPTED_IN_SPHINX}", file=sys.stderr, flush=True)
        os._exit(130)

    previous = signal.signal(signal.SIGINT, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_and_exit(function: Callable[[], int]) -> None:
    """Run ``function``, then end the process with its status, leaving the
    memory to the operating system.

    A build ends with Sphinx's environment and doctrees of the whole archive
    in memory, and the interpreter's usual exit frees them object by object
    (seconds on a large archive). Output is flushed and the files are closed
    by then; :mod:`logging` is shut down here.
    """
    global _command
    _command = True
    os.register_at_fork(before=_remember_parent, after_in_child=_quiet_child)
    try:
        status = function()
    except SystemExit as exc:  # argparse's --help and usage errors
        status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
    except KeyboardInterrupt:
        print(f"\n{INTERRUPTED}", file=sys.stderr)
        status = 130
    # What the usual exit would also end: child processes still running.
    try:
        _end_children()
        if "logging" in sys.modules:
            sys.modules["logging"].shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
    except KeyboardInterrupt:
        status = 130
    os._exit(status)
