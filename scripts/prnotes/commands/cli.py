"""The ``prnotes`` command: one entry point, a subcommand per job.

    prnotes init DIR [--force]                start a notes site
    prnotes notes [--check] [--strict] [-q]   seeds/ -> notes/ and index.md
    prnotes build [--notes] [-- <sphinx args>] the site (sphinx-build) unless nothing changed
    prnotes pdf [--verdict …] [--subsystem …] the PDF book
    prnotes volumes [--size N] [--record]     the archive in volumes: link map, closed volumes by hash
    prnotes audit [--build DIR]               check a build against seeds/

Every subcommand takes ``--root`` (see :mod:`prnotes.project`) and reports
as :mod:`prnotes.commands.reporting` says.
"""

from __future__ import annotations

import argparse
from pathlib import Path

# Nothing more at the top: the command's modules (and Sphinx, which some
# import) are imported by main(), inside run_and_exit(), where a Ctrl-C while
# they load is one line like any other.
from .reporting import reporting, run_and_exit


def parser() -> argparse.ArgumentParser:
    from . import COMMANDS

    from importlib.metadata import version

    top = argparse.ArgumentParser(prog="prnotes", description="PR 精读笔记: digests in seeds/ to a Sphinx site and a PDF book.")
    top.add_argument("--version", action="version", version=f"prnotes {version('prnotes')}")
    subs = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        sub = subs.add_parser(command.NAME, help=command.HELP, description=command.HELP)
        sub.add_argument("--root", type=Path, help="project folder (default: the one holding the current folder)")
        command.add_arguments(sub)
        sub.set_defaults(run=command.run, tool=f"prnotes {command.NAME}", anywhere=getattr(command, "NEEDS_NO_PROJECT", False))
    return top


def _resolved(root: Path) -> Path:
    from ..parse.seeds import resolved
    from ..project import NoProjectError

    real = resolved(root)
    if real is None:
        raise NoProjectError(f"{root} is a link that loops back on itself; pass a project folder")
    return real


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)

    def run() -> int:
        from ..project import find_root

        args.root = _resolved(args.root) if args.root else (Path.cwd() if args.anywhere else find_root())
        return args.run(args)

    return reporting(args, run)


def entry() -> None:
    """The ``prnotes`` command: :func:`main`, ended by :func:`prnotes.commands.reporting.run_and_exit`."""
    run_and_exit(main)


if __name__ == "__main__":
    entry()
