#!/usr/bin/env python3
"""Generate the MyST pages in notes/ and index.md from the digests in seeds/.

The conversion script of the project: the same as ``prnotes notes``.
"""

import sys

from prnotes.commands.cli import main

if __name__ == "__main__":
    sys.exit(main(["notes", *sys.argv[1:]]))
