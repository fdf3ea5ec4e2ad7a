"""``python -m prnotes.sphinx_build ARGS``: Sphinx's ``sphinx-build``, ended
as the ``prnotes`` command ends (:func:`prnotes.cli.run_and_exit`), without
freeing the archive's environment object by object. The PDF build runs its
Sphinx step this way."""

from __future__ import annotations

import sys

from sphinx.cmd.build import main

from .cli import run_and_exit

if __name__ == "__main__":
    sys.argv[0] = "sphinx-build"  # the name its messages give
    run_and_exit(lambda: main(sys.argv[1:]))
