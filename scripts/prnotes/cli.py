"""The ``prnotes`` command: one entry point, a subcommand per job.

    prnotes notes [--check] [--strict] [-q]   seeds/ -> notes/ and index.md
    prnotes build [--notes] -- <sphinx args> sphinx-build unless nothing changed
    prnotes pdf [--verdict …] [--subsystem …] the PDF book
    prnotes audit [--build DIR]               check a build against seeds/
    prnotes bench …                           the benchmarks (a checkout's bench/)

Every subcommand takes ``--root`` (see :mod:`prnotes.project`). Problems in
the input are printed here, one ``file:line: what`` per line, whatever the
subcommand; the exit status is 1 for bad input or a failed build, 2 for a
bad command line.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import sys
from collections.abc import Callable
from pathlib import Path

from .commands import COMMANDS
from .diagnostics import CommandError, InputError
from .project import NoProjectError, find_root


def report(tool: str, exc: InputError, what: str = "nothing written") -> None:
    """The one way input problems reach the terminal."""
    for problem in exc.problems:
        print(f"error: {problem}", file=sys.stderr)
    print(f"{tool}: {len(exc.problems)} error(s); {what}", file=sys.stderr)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="prnotes", description="PR 精读笔记: digests in seeds/ to a Sphinx site and a PDF book.")
    subs = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        sub = subs.add_parser(command.name, help=command.help, description=command.help)
        sub.add_argument("--root", type=Path, help="project folder (default: the one holding the current folder)")
        for option in command.options:
            option.add_to(sub)
        sub.set_defaults(run=command.run, tool=f"prnotes {command.name}")
    return top


def _resolved(root: Path) -> Path:
    try:
        return root.resolve()
    except (OSError, RuntimeError):  # a loop of links
        raise NoProjectError(f"{root} is a link that loops back on itself; pass a project folder") from None


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)

    def run() -> int:
        args.root = _resolved(args.root) if args.root else find_root()
        return args.run(args)

    return reporting(args, run)


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
    in memory, and the interpreter's usual exit frees them object by object:
    2 seconds at 1,000 notes, on every build. Output is flushed and the
    files are closed by then; :mod:`logging` is shut down here.
    """
    try:
        status = function()
    except SystemExit as exc:  # argparse's --help and usage errors
        status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
    # What the usual exit would also end: child processes still running, such
    # as the multiprocessing manager that sphinx-sitemap starts in every build
    # (it would outlive us, holding our output pipes open).
    for child in multiprocessing.active_children():
        child.terminate()
        child.join(5)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def entry() -> None:
    """The ``prnotes`` command: :func:`main`, ended by :func:`run_and_exit`."""
    run_and_exit(main)


if __name__ == "__main__":
    entry()
