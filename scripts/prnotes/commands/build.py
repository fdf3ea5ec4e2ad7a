"""``prnotes build [--notes] -- <sphinx-build arguments>``: sphinx-build, unless nothing changed.

``make html`` runs it, with ``--notes`` for the conversion first. When
nothing the build could read has changed since its last successful run with
the same arguments (:mod:`prnotes.buildstamp`), it says so and leaves the
output as it is; otherwise it runs Sphinx in this process, with the
arguments as given. Its paths are read from the project folder (``--root``,
or the one holding the current folder), as ``make html`` gives them.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import io
import os
import signal
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

from .. import buildstamp, sphinx_build
from . import notes
from .spec import Command, argument, flag


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


def run(args: argparse.Namespace) -> int:
    if args.notes:
        status = _convert(args)
        if status:
            return status
    argv = list(args.sphinx_args)
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        print(f"{args.tool}: give sphinx-build's arguments after --, as in: {args.tool} -- -b html . _build/html", file=sys.stderr)
        return 2
    with contextlib.chdir(args.root):
        if not args.pdf:
            return _build(argv, args.tool)
        from ..sphinxext import alongside

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
    """The conversion first (`make html`), its messages and failures `prnotes notes`'s own.

    One start of Python for both, and the two overlap: the conversion runs
    in a child process while this one imports Sphinx and what ``conf.py``
    names (:func:`prnotes.sphinx_build.preload`), which the build would
    otherwise start on only after the conversion. A day's build waits for
    the longer of the two instead of both.
    """
    from ..cli import reporting

    conversion = argparse.Namespace(**{**vars(args), "check": False, "tool": "prnotes notes"})
    finished = _started(lambda: reporting(conversion, lambda: notes.run(conversion)), conversion.tool)
    sphinx_build.preload(args.root)
    return finished()


def _started(function: Callable[[], int], tool: str) -> Callable[[], int]:
    """Start ``function`` in a child process; return what waits for its exit status.

    It runs here and now where the system cannot fork, or where the output
    streams are not files of the process (captured in memory, the child's
    messages would be lost). A child ended by a signal is said as ``tool``'s
    failure, with the shell's status for it (128 + the signal). Should this
    process stop before the child has ended (an exception, Ctrl-C), the
    child is ended with it rather than left writing on its own.
    """
    try:
        sys.stdout.fileno(), sys.stderr.fileno()
        forks = hasattr(os, "fork")
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both of the last two
        forks = False
    if not forks:
        status = function()
        return lambda: status
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: the function, then out, without the parent's clean-up
        status = 1
        try:
            status = function()
        except KeyboardInterrupt:  # Ctrl-C reaches both processes: the parent says it
            status = 130
        except BaseException:  # as the interpreter would say it
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)

    def end_child() -> None:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
            os.waitpid(pid, 0)

    atexit.register(end_child)  # this process stops early: the child with it

    def wait() -> int:
        try:
            code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        except BaseException:
            end_child()
            raise
        finally:
            atexit.unregister(end_child)
        if code < 0:
            try:
                name = f" ({signal.Signals(-code).name})"
            except ValueError:
                name = ""
            print(f"{tool}: stopped by signal {-code}{name}", file=sys.stderr)
            return 128 - code
        return code

    return wait


def _build(argv: list[str], tool: str) -> int:
    layout = layout_of(argv)
    if layout is not None:
        current, before = buildstamp.up_to_date(layout, argv)
        if current:
            print(f"{tool}: nothing changed since the last build of {layout.output}; left as it is")
            return 0
        buildstamp.forget(layout)
    status = sphinx_build.run(argv, tool)
    if status == 0 and layout is not None:
        buildstamp.remember(layout, before)
    return status


COMMAND = Command(
    "build",
    "run sphinx-build with these arguments, unless nothing changed since its last successful run",
    run,
    options=(
        flag("--notes", help="first convert seeds/ as `prnotes notes` does, and stop there on bad input (make html)"),
        flag(
            "--pdf",
            help="also the whole book (prnotes pdf --whole), typeset while the HTML pages are written "
            "(make publish; how Read the Docs and GitHub Pages build)",
        ),
        *notes.CONVERSION_OPTIONS,
        argument("sphinx_args", nargs=argparse.REMAINDER, help="sphinx-build's arguments, after --; paths in them are read from the project folder"),
    ),
)
