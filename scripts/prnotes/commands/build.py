"""``prnotes build [--notes] [-- <sphinx-build arguments>]``: sphinx-build, unless nothing changed.

``prnotes build`` alone builds the site: the conversion, then
``sphinx-build -W --keep-going -b html -d _build/doctrees . _build/html``.
Options given without the folders (``prnotes build -- -W -j auto``) get
those folders and the html builder; a full command line is run as given.
``make html`` runs it, with ``--notes`` for the conversion first. When
nothing the build could read has changed since its last successful run with
the same arguments (:mod:`prnotes.build.stamp`), it says so and leaves the
output as it is; otherwise it runs Sphinx in this process, with the
arguments as given. Its paths are read from the project folder (``--root``,
or the one holding the current folder), as ``make html`` gives them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from pathlib import Path

from ..build import folders, stamp as buildstamp, sphinx_build
from ..diagnostics import CommandError
from ..parse import history
from .reporting import reporting
from . import notes

NAME = "build"
HELP = "build the site (or run sphinx-build with these arguments), unless nothing changed since its last successful run"
# What `prnotes build` alone runs, and the folders options without them get.
DEFAULT_OPTIONS = ("-W", "--keep-going")
DEFAULT_PATHS = ("-d", "_build/doctrees", ".", "_build/html")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--notes", action="store_true",
        help="first convert seeds/ as `prnotes notes` does, and stop there on bad input (make html)",
    )  # fmt: skip
    parser.add_argument(
        "--pdf", action="store_true",
        help="also the whole book (prnotes pdf --whole), typeset while the HTML pages are written (make publish)",
    )  # fmt: skip
    notes.add_conversion_arguments(parser)
    parser.add_argument(
        "sphinx_args", nargs=argparse.REMAINDER,
        help="sphinx-build's arguments, after --; paths in them are read from the project folder",
    )  # fmt: skip


def layout_of(argv: list[str]) -> buildstamp.Layout | None:
    """The source, output and doctree folders of a sphinx-build command line; None if it has none."""
    from sphinx.cmd.build import get_parser

    try:
        # Quietly: Sphinx's own parse of the same arguments reports what is wrong.
        with contextlib.redirect_stderr(io.StringIO()):
            args, _ = get_parser().parse_known_args(argv)
    except SystemExit:
        return None
    if not getattr(args, "sourcedir", None) or not getattr(args, "outputdir", None):
        return None
    output = Path(args.outputdir).resolve()
    doctrees = Path(args.doctreedir).resolve() if getattr(args, "doctreedir", None) else output / ".doctrees"
    return buildstamp.Layout(Path(args.sourcedir).resolve(), output, doctrees)


def with_defaults(argv: list[str]) -> list[str]:
    """``argv`` with the site's folders (and the html builder) when it names no folders."""
    if not argv:
        return [*DEFAULT_OPTIONS, "-b", "html", *DEFAULT_PATHS]
    if layout_of(argv) is not None or layout_of([*argv, *DEFAULT_PATHS[2:]]) is None:
        return argv  # folders given, or wrong in another way: Sphinx says what
    builder = [] if {"-b", "-M", "--builder"} & set(argv) or any(a.startswith("--builder=") for a in argv) else ["-b", "html"]
    return [*argv, *builder, *DEFAULT_PATHS]


def run(args: argparse.Namespace) -> int:
    if (problem := history.epoch_problem()) is not None:
        raise CommandError(f"{problem}; nothing built")
    argv = list(args.sphinx_args)
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if args.notes or not argv:
        status = _convert(args)
        if status:
            return status
    argv = with_defaults(argv)
    with contextlib.chdir(args.root):
        if not args.pdf:
            return _build(argv, args.tool)
        from ..sphinxext.book import alongside

        os.environ[alongside.ENV_VAR] = "1"
        status = 1
        try:
            status = _build(argv, args.tool)
        finally:
            del os.environ[alongside.ENV_VAR]
            book = alongside.finish(stop=status != 0)
        if status != 0:
            return status
        if book is None:  # the site was current, or its build wrote no HTML: the book on its own
            alongside.start(Path(args.root))
            book = alongside.finish(stop=False)
        code, output = book
        # The book's own conversion repeats the warnings this one printed.
        print("".join(line for line in output.splitlines(keepends=True) if not line.startswith("warning: ")), end="")
        return code


def _convert(args: argparse.Namespace) -> int:
    """The conversion first (`make html`), its messages and failures `prnotes notes`'s own."""
    conversion = argparse.Namespace(**{**vars(args), "check": False, "tool": "prnotes notes"})
    return reporting(conversion, lambda: notes.run(conversion))


def _build(argv: list[str], tool: str) -> int:
    layout = layout_of(argv)
    if layout is not None:
        current, before = buildstamp.up_to_date(layout, argv)
        if current:
            print(f"{tool}: nothing changed since the last build of {layout.output}; left as it is")
            return 0
        folders.check_sources(layout.source)
        folders.check_output(layout.source, layout.output)
        buildstamp.forget(layout)
    status = sphinx_build.run(argv)
    if status == 0 and layout is not None:
        buildstamp.remember(layout, before)
    return status

