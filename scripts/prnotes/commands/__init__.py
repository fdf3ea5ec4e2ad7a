"""The subcommands of ``prnotes`` (see :mod:`prnotes.commands.cli`).

Each module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> exit status``; ``args.root`` is the project folder and
``args.tool`` the command's name for messages; a command with
``NEEDS_NO_PROJECT`` runs outside a project (``init``).
"""

from . import audit, build, init, notes, pdf, volumes

COMMANDS = (init, notes, build, pdf, volumes, audit)
