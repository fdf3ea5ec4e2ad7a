"""The subcommands of ``prnotes`` (see :mod:`prnotes.cli`).

Each module declares its :class:`~.spec.Command` as ``COMMAND``: name, help,
options and ``run(args) -> exit status``; ``args.root`` is the project folder.
"""

from . import audit, bench, build, notes, pdf

COMMANDS = (notes.COMMAND, build.COMMAND, pdf.COMMAND, audit.COMMAND, bench.COMMAND)
