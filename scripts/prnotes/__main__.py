"""``python -m prnotes``: the ``prnotes`` command."""

from prnotes.cli import entry

if __name__ == "__main__":
    entry()
