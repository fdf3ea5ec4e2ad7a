"""``prnotes pdf``: the PDF book, or a part of it (see :mod:`prnotes.pdf`)."""

from __future__ import annotations

import argparse
import sys

from ..diagnostics import CommandError
from ..pdf import BuildError, build_book
from ..project import load
from ..subset import parse_selection
from .spec import Command, argument


def run(args: argparse.Namespace) -> int:
    root = args.root
    try:
        selection = parse_selection(args.verdict, args.subsystem, load(root).taxonomy)
    except ValueError as exc:
        print(f"{args.tool}: {exc}", file=sys.stderr)
        return 2
    def waiting() -> None:
        print(f"{args.tool}: another build of {selection.name}.pdf is running; waiting for it to finish", file=sys.stderr)

    try:
        book = build_book(root, selection, args.jobs, waiting)
    except BuildError as exc:
        raise CommandError(str(exc)) from None
    steps = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in book.timings)
    print(f"{args.tool}: {book.notes} notes -> {book.pdf.relative_to(root)} ({steps}; {book.xelatex_runs} xelatex runs)")
    return 0


COMMAND = Command(
    "pdf",
    "build the PDF book: _build/latex/<name>.pdf",
    run,
    options=(
        argument("--verdict", default="", help="only these verdicts, comma-separated: 精读, 速读, 按需"),
        argument("--subsystem", default="", help="only these subsystems, comma-separated slugs, e.g. ci"),
        argument("-j", "--jobs", default="auto", help="Sphinx's -j (default: auto)"),
    ),
)
