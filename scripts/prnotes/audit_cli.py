"""Command line: ``python scripts/audit.py [--root DIR] [--build DIR]``.

Prints each loss as ``file:line: what missing from where`` (the seed entry's
location), then one summary line; exits 1 on any loss or unusable input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .audit import audit
from .diagnostics import InputError

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="audit", description="Check the build against seeds/.")
    parser.add_argument("--root", type=Path, default=ROOT, help="project folder (default: this project)")
    parser.add_argument("--build", type=Path, help="build folder (default: ROOT/_build)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    try:
        report = audit(root, args.build.resolve() if args.build else None)
    except InputError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        print("audit: the seeds do not parse; nothing checked", file=sys.stderr)
        return 1
    except FileNotFoundError as exc:
        print(f"audit: {exc}", file=sys.stderr)
        return 1
    for finding in report.findings:
        print(f"missing: {finding}", file=sys.stderr)
    print(report.summary)
    return 1 if report.findings else 0
