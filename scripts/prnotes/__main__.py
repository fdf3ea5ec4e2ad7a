"""``python -m prnotes``: the ``prnotes`` command."""

from prnotes.commands.cli import entry

if __name__ == "__main__":
    entry()
