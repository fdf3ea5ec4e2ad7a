"""``prnotes pdf``: the PDF book, its volumes, or a part of it (see :mod:`prnotes.build.pdf`)."""

from __future__ import annotations

import argparse
import sys

from ..diagnostics import CommandError

NAME = "pdf"
HELP = "build the PDF book: one PDF per volume of the archive (the changed ones), or the whole book with --whole"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--whole", action="store_true", help="the whole book in one PDF (_build/latex/prnotes.pdf), however many volumes the archive has")
    parser.add_argument("--verdict", default="", help="only these verdicts, comma-separated: 精读, 速读, 按需")
    parser.add_argument("--subsystem", default="", help="only these subsystems, comma-separated slugs, e.g. ci")
    parser.add_argument("-j", "--jobs", default="auto", help="Sphinx's -j for a single book (default: auto)")


def run(args: argparse.Namespace) -> int:
    # Imported here: the other commands do without the PDF's modules.
    from ..build import BuildError
    from ..build.pdf import build_book, build_volumes
    from ..project import load
    from ..build.folders import check_config
    from ..build.subset import parse_selection
    from ..parse import history

    root = args.root
    if (problem := history.epoch_problem()) is not None:
        raise CommandError(f"{problem}; nothing written")
    check_config(root)
    try:
        selection = parse_selection(args.verdict, args.subsystem, load(root).taxonomy)
    except ValueError as exc:
        print(f"{args.tool}: {exc}", file=sys.stderr)
        return 2
    if args.whole and not selection.everything:
        print(f"{args.tool}: --whole builds every note; leave out --verdict and --subsystem, or --whole", file=sys.stderr)
        return 2

    def waiting(name: str) -> None:
        print(f"{args.tool}: another build of {name}.pdf is running; waiting for it to finish", file=sys.stderr)

    try:
        if selection.everything and not args.whole:
            books = build_volumes(root, waiting)
        else:
            books = [build_book(root, selection, args.jobs, waiting)]
    except BuildError as exc:
        raise CommandError(str(exc)) from None
    for book in books:
        print(book.said(args.tool, root))
    if len(books) > 1:
        built = sum(book.built for book in books)
        print(
            f"{args.tool}: {len(books)} volumes, {built} built, {len(books) - built} unchanged; "
            "the whole book in one PDF: make pdf BOOK=whole"
        )
    if not selection.everything:
        return 0  # a book of some notes is none of the site's
    # A site built before the book links it now (make html, then make pdf).
    from .build import refresh_site

    return refresh_site(root, args.tool)

