"""The subcommands of ``prnotes`` (see :mod:`prnotes.commands.cli`).

Each module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> exit status``; ``args.root`` is the project folder and
``args.tool`` the command's name for messages.
"""

from . import audit, bench, build, notes, pdf

COMMANDS = (notes, build, pdf, audit, bench)
