"""``prnotes notes``: convert ``seeds/`` into ``notes/`` and ``index.md``.

Reads the seeds and ``taxonomy.toml``, validates everything, and only then
writes. On bad input every problem is printed as ``file:line: what`` and
every file stays as it was.
"""

from __future__ import annotations

import argparse
import sys

from ..project import load
from ..render import render_site
from ..write import apply, plan
from .spec import Command, flag


def run(args: argparse.Namespace) -> int:
    root = args.root
    site = load(root)
    for warning in site.warnings:
        print(f"{'error' if args.strict else 'warning'}: {warning}", file=sys.stderr)
    if args.strict and site.warnings:
        print(f"{args.tool}: {len(site.warnings)} warning(s) under --strict; nothing written", file=sys.stderr)
        return 1
    pages = render_site(site)
    the_plan = plan(root, pages)
    if args.check:
        for rel in the_plan.write:
            print(f"out of date: {rel}", file=sys.stderr)
        for rel in the_plan.remove:
            print(f"stale: {rel}", file=sys.stderr)
        if not the_plan.clean:
            print(f"{args.tool}: notes/ is out of date; run `make notes`", file=sys.stderr)
            return 1
        return 0
    apply(root, pages, the_plan)
    if not args.quiet:
        print(
            f"{args.tool}: {len(site.notes)} notes, {len(pages)} pages: "
            f"{len(the_plan.write)} written, {len(the_plan.unchanged)} unchanged, {len(the_plan.remove)} removed"
        )
    return 0


COMMAND = Command(
    "notes",
    "convert seeds/ into the MyST pages of notes/ and index.md",
    run,
    options=(
        flag("--check", help="exit 1 if notes/ is out of date; write nothing"),
        flag("--strict", help="treat warnings as errors"),
        flag("-q", "--quiet", help="print only problems"),
    ),
)
