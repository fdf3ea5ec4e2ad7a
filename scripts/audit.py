#!/usr/bin/env python3
"""Check that the built site (and PDF, if built) holds every seed entry."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from prnotes.audit_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
