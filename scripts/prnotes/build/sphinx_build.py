"""``python -m prnotes.build.sphinx_build ARGS``: ``sphinx-build``, ended as the ``prnotes`` command ends.

The PDF build runs its Sphinx step this way: the process ends without freeing
the archive's environment object by object (:func:`prnotes.commands.reporting.run_and_exit`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def run(argv: Sequence[str]) -> int:
    """``sphinx-build argv``; its exit status."""
    from sphinx.cmd.build import main

    from ..commands.reporting import interrupt_stops_at_once

    with interrupt_stops_at_once():
        return main(list(argv))


if __name__ == "__main__":
    from ..commands.reporting import run_and_exit

    sys.argv[0] = "sphinx-build"  # the name its messages give
    run_and_exit(lambda: run(sys.argv[1:]))
