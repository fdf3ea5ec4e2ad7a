#!/usr/bin/env python3
"""Build the PDF book of the notes: _build/latex/<name>.pdf (see prnotes.pdf)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from prnotes.pdf import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
