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

import sys
from collections.abc import Sequence


def run(argv: Sequence[str], tool: str = "sphinx-build") -> int:
    """``sphinx-build argv``; its exit status."""
    from sphinx.cmd.build import main

    from .sphinxext._compat import short_sphinx_errors

    with short_sphinx_errors(tool):
        return main(list(argv))


if __name__ == "__main__":
    from .cli import run_and_exit

    sys.argv[0] = "sphinx-build"  # the name its messages give
    run_and_exit(lambda: run(sys.argv[1:]))
