"""Sphinx's ``sphinx-build``, as prnotes runs it.

:func:`run` is ``sphinx-build`` with one difference: when Sphinx stops on an
error (an unknown builder, a broken ``conf.py``, an extension that raises), it
says what stopped it in two lines, naming the file where Sphinx saved the
full report, instead of printing the report with its traceback. ``-T``
(``--show-traceback``) or ``-v`` prints Sphinx's own report, as before.

``python -m prnotes.sphinx_build ARGS`` runs it and ends as the ``prnotes``
command ends (:func:`prnotes.cli.run_and_exit`), without freeing the
archive's environment object by object. The PDF build runs its Sphinx step
this way.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path


def run(argv: Sequence[str], tool: str = "sphinx-build") -> int:
    """``sphinx-build argv``; its exit status."""
    from sphinx.cmd.build import main

    from .sphinxext._compat import short_sphinx_errors

    with short_sphinx_errors(tool):
        return main(list(argv))


def preload(root: Path) -> None:
    """Import Sphinx, and the extensions and theme that ``root``'s conf.py names, ahead of a build.

    Only a head start, taken while the conversion runs: the build imports
    them itself, and whatever fails here (a broken conf.py, a missing
    extension) is left for Sphinx to report.
    """
    import importlib
    import io
    import runpy
    import warnings

    # Quietly, beside the conversion's messages: conf.py says whatever it says
    # again when Sphinx reads it, and what an extension prints or warns on
    # import (sphinxext-opengraph's notice without matplotlib) tells the
    # reader of a build nothing.
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import sphinx.application  # noqa: F401
            import sphinx.builders.html  # noqa: F401
            import sphinx.cmd.build  # noqa: F401

            with contextlib.chdir(root):
                conf = runpy.run_path("conf.py")
            for name in [*conf.get("extensions", ()), conf.get("html_theme", "")]:
                importlib.import_module(name)
        except (Exception, SystemExit):  # noqa: BLE001 - see above: Sphinx says what is wrong (conf.py may even exit)
            pass


if __name__ == "__main__":
    from .cli import run_and_exit

    sys.argv[0] = "sphinx-build"  # the name its messages give
    run_and_exit(lambda: run(sys.argv[1:]))
