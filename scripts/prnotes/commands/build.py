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
or the one holding the current folder), as ``make html`` gives them. An
archive of several volumes is built in volumes instead, as ``prnotes
volumes --build --hub`` builds it, into the same ``_build/html``, when the
command line builds the site (HTML, from the project into ``_build/html``).

``--pdf`` (``make publish``) also typesets the whole book while the pages
are written; a new or changed book is then copied into the site and linked
from its landing page by a second, incremental build. After ``prnotes pdf``
(``make pdf``), :func:`refresh_site` does the same to a site that was
current, so the link appears whichever of ``make html`` and ``make pdf``
runs first.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
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
    parser.add_argument("--notes", action="store_true", help="first convert seeds/ as `prnotes notes` does, and stop there on bad input (make html)")
    parser.add_argument("--pdf", action="store_true", help="also the whole book (prnotes pdf --whole), typeset while the HTML pages are written (make publish)")
    notes.add_conversion_arguments(parser)
    parser.add_argument("sphinx_args", nargs=argparse.REMAINDER, help="sphinx-build's arguments, after --; paths in them are read from the project folder")


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
    converted: list = []
    if args.notes or not argv:
        status = _convert(args, converted)
        if status:
            return status
    argv = with_defaults(argv)
    site = converted[0] if converted else None
    with contextlib.chdir(args.root):
        if not args.pdf or _in_volumes(argv, site):
            return _build(argv, args.tool, site=site, books=args.pdf)
        from ..sphinxext.book import alongside

        layout = layout_of(argv)
        books_before = buildstamp.books(layout) if layout is not None else None
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
        if code != 0 or layout is None or buildstamp.books(layout) == books_before or _published_elsewhere():
            return code
        # The pages were written before the book was made: a new or changed book
        # is copied into the site and linked by a second, incremental build (the
        # landing page alone is written again); an unchanged one needs none, nor
        # one the site links where its host publishes it (Read the Docs).
        return _build(argv, args.tool, quiet=True)


def _published_elsewhere() -> bool:
    """Whether the host publishes the book and the site links it there (``PRNOTES_PDF_URL``, Read the Docs)."""
    from ..sphinxext.site.address import pdf_url_from_env

    return bool(pdf_url_from_env())


def refresh_site(root: Path, tool: str) -> int:
    """After ``prnotes pdf`` made a book: the site in ``_build/html``, when its last build
    (``prnotes build``) is current but for the books, is built again with the same command
    line (in volumes, as it was), so that it holds the new books and its landing page
    links them. Exit status."""
    from ..sphinxext.book import alongside
    from ..write.convert import convert

    if os.environ.get(alongside.ENV_VAR) or _published_elsewhere():
        return 0  # the book of `prnotes build --pdf`, whose build brings the site up to date itself
    root = Path(root).resolve()
    layout = buildstamp.Layout(root, root / DEFAULT_PATHS[3], root / DEFAULT_PATHS[1])
    argv = buildstamp.current_but_for_books(layout)
    if argv is None:
        return 0
    print(f"{tool}: the site in {DEFAULT_PATHS[3]} was current: building it again to link the book")
    with contextlib.chdir(root):
        return _build(argv, tool, quiet=True, site=convert(root))


def _in_volumes(argv: list[str], site) -> bool:
    """Whether ``argv`` builds the site (``make html``: HTML, from the project, the current
    folder, into ``_build/html``) of an archive of several volumes: then it is built in volumes."""
    layout, root = layout_of(argv), Path.cwd().resolve()
    html = site is not None and len(site.volumes) > 1 and layout is not None and ("-b", "html") in zip(argv, argv[1:])
    return html and (layout.source, layout.output) == (root, root / DEFAULT_PATHS[3])


def _convert(args: argparse.Namespace, converted: list) -> int:
    """The conversion first (`make html`), its messages and failures `prnotes notes`'s own;
    the site converted is appended to ``converted``."""
    conversion = argparse.Namespace(**{**vars(args), "check": False, "tool": "prnotes notes"})
    return reporting(conversion, lambda: notes.run(conversion, converted))


def _build(argv: list[str], tool: str, quiet: bool = False, site=None, books: bool = False) -> int:
    """sphinx-build ``argv`` unless its stamp says nothing changed (``quiet``: then say nothing);
    the site of an archive of several volumes (``site``) in volumes, with their ``books``."""
    layout = layout_of(argv)
    if layout is not None:
        current, before = buildstamp.up_to_date(layout, argv)
        if current:
            if not quiet:
                print(f"{tool}: nothing changed since the last build of {layout.output}; left as it is")
            return 0
        folders.check_sources(layout.source)
        folders.check_config(layout.source)
        folders.check_output(layout.source, layout.output)
        buildstamp.forget(layout)
    if _in_volumes(argv, site):
        from ..build.volumes import partition
        from .volumes import build_site

        status = build_site(Path.cwd(), tool, site, partition(site), books=books)
    else:
        status = sphinx_build.run(argv)
    if status == 0 and layout is not None:
        buildstamp.remember(layout, before)
    return status
