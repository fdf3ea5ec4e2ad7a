"""The subcommands of ``prnotes`` (see :mod:`prnotes.cli`).

Each module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> exit status``; ``args.root`` is the project folder.
"""

from . import audit, bench, notes, pdf

COMMANDS = (notes, pdf, audit, bench)
