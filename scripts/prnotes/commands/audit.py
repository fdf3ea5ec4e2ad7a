"""``prnotes audit``: check a finished build against ``seeds/``.

Prints each loss as ``file:line: what missing from where`` (the seed entry's
location), then one summary line; exits 1 on any loss or unusable input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..audit import PdfUnreadable, audit
from ..diagnostics import CommandError, InputError

NAME = "audit"
HELP = "check that the built site (and PDF, if built) holds every seed entry"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--build", type=Path, help="build folder (default: ROOT/_build)")


def run(args: argparse.Namespace) -> int:
    try:
        report = audit(args.root, args.build.resolve() if args.build else None)
    except InputError as exc:
        exc.outcome = "the seeds do not parse; nothing checked"
        raise
    except (FileNotFoundError, PdfUnreadable) as exc:
        raise CommandError(str(exc)) from None
    for finding in report.findings:
        print(f"missing: {finding}", file=sys.stderr)
    print(report.summary)
    return 1 if report.findings else 0
