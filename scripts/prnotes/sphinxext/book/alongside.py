"""The whole book, typeset while the HTML build writes its pages (``prnotes build --pdf``).

Sphinx saves the environment and every page's doctree when it has read the
sources, before it writes the HTML pages. The whole book needs nothing else
(:mod:`prnotes.build.pdf`: it reads no source again), so ``prnotes build --pdf``
starts ``prnotes pdf --whole`` then, in a process of its own, instead of
after the site: the book's Sphinx step and its one xelatex run use the core
that the writing leaves idle, and a cold publish of site and book takes the
longer of the two rather than their sum (BENCHMARKS.md).

The command sets :data:`ENV_VAR` for the build it runs; :func:`finish`
waits for the book, or ends it when the site's build failed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.builders import Builder

ENV_VAR = "PRNOTES_BOOK_ALONGSIDE"
_running: list[subprocess.Popen] = []


def book_command(root: Path) -> list[str]:
    return [sys.executable, "-m", "prnotes.commands.cli", "pdf", "--whole", "--root", str(root)]


def start(root: Path) -> None:
    """Start the whole book's build (once)."""
    if not _running:
        _running.append(
            subprocess.Popen(
                book_command(root), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
            )
        )


def finish(stop: bool) -> tuple[int, str] | None:
    """The book's exit status and output, once it has ended (``stop``: end it now); None if none was started."""
    if not _running:
        return None
    proc = _running.pop()
    if stop and proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    output, _ = proc.communicate()
    return proc.returncode, output


def on_write_started(app: Sphinx, builder: Builder) -> None:
    if builder.name == "html" and os.environ.get(ENV_VAR):
        start(Path(app.srcdir))


def setup(app: Sphinx) -> dict:
    app.connect("write-started", on_write_started)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
