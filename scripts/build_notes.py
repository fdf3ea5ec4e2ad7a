#!/usr/bin/env python3
"""Generate the MyST pages in notes/ and index.md from the digests in seeds/."""

import sys
from pathlib import Path

# The project is the folder above scripts/, even when scripts/ is a symlink.
HERE = Path(__file__).absolute().parent
sys.path.insert(0, str(HERE))

from prnotes.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(default_root=HERE.parent))
