"""How every ``prnotes`` subcommand says what stopped it, and how the process ends.

Problems in the input are printed one ``file:line: what`` per line; the exit
status is 1 for bad input or a failed step, 2 for a bad command line or no
project.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import sys
from collections.abc import Callable

from .diagnostics import CommandError, InputError
from .project import NoProjectError


def report(tool: str, exc: InputError, what: str = "nothing written") -> None:
    """The one way input problems reach the terminal."""
    for problem in exc.problems:
        print(f"error: {problem}", file=sys.stderr)
    print(f"{tool}: {len(exc.problems)} error(s); {what}", file=sys.stderr)


def reporting(args: argparse.Namespace, function: Callable[[], int]) -> int:
    """``function()``'s exit status; the problems it raises are said as every subcommand says them."""
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


def run_and_exit(function: Callable[[], int]) -> None:
    """Run ``function``, then end the process with its status, leaving the
    memory to the operating system.

    A build ends with Sphinx's environment and doctrees of the whole archive
    in memory, and the interpreter's usual exit frees them object by object
    (seconds on a large archive). Output is flushed and the files are closed
    by then; :mod:`logging` is shut down here.
    """
    try:
        status = function()
    except SystemExit as exc:  # argparse's --help and usage errors
        status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
    except KeyboardInterrupt:
        print("\ninterrupted; every file is as the last finished step left it", file=sys.stderr)
        status = 130
    # What the usual exit would also end: child processes still running.
    for child in multiprocessing.active_children():
        child.terminate()
        child.join(5)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
