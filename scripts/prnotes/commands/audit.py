"""``prnotes audit``: check a finished build against ``seeds/``.

Prints each loss as ``file:line: what missing from where`` (the seed entry's
location), each page published for a note no seed holds, then one summary
line; exits 1 on any of them or unusable input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..diagnostics import CommandError, InputError

NAME = "audit"
HELP = "check that the built site (and PDF, if built) holds every seed entry"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--build", type=Path, help="build folder (default: ROOT/_build)")


def run(args: argparse.Namespace) -> int:
    # Imported here: it loads Sphinx and BeautifulSoup, which no other subcommand needs to start.
    from ..build.audit import BuildUnreadable, audit

    try:
        report = audit(args.root, args.build.resolve() if args.build else None)
    except InputError as exc:
        exc.outcome = "the seeds do not parse; nothing checked"
        raise
    except (FileNotFoundError, BuildUnreadable) as exc:
        raise CommandError(str(exc)) from None
    for finding in report.findings:
        print(f"missing: {finding}", file=sys.stderr)
    for stale in report.stale:
        print(f"stale: {stale}", file=sys.stderr)
    print(report.summary)
    return 0 if report.ok else 1

