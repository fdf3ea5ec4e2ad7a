#!/usr/bin/env python3
"""Generate the MyST pages in notes/ and index.md from the digests in seeds/."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from prnotes.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
