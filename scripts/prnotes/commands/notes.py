"""``prnotes notes``: convert ``seeds/`` into ``notes/`` and ``index.md``.

Reads the seeds and ``taxonomy.toml``, validates everything, and only then
writes. On bad input every problem is printed as ``file:line: what`` and
every file stays as it was; so it does when the disk refuses a write, with
one line naming the file. Two runs on one project take turns.
"""

from __future__ import annotations

import argparse
import sys

from .spec import Command, flag


# How the conversion reports; `prnotes build --notes` takes them too.
CONVERSION_OPTIONS = (
    flag("--strict", help="treat the conversion's warnings as errors"),
    flag("-q", "--quiet", help="print only the conversion's problems"),
)


def run(args: argparse.Namespace) -> int:
    # Imported here: `prnotes build` and the others do without the converter.
    from ..convert import write_site
    from ..project import load, open_cache
    from ..render import render_pages
    from ..write import plan

    root = args.root
    memo = open_cache(root)
    site = load(root, memo)
    for warning in site.warnings:
        print(f"{'error' if args.strict else 'warning'}: {warning}", file=sys.stderr)
    if args.strict and site.warnings:
        print(f"{args.tool}: {len(site.warnings)} warning(s) under --strict; nothing written", file=sys.stderr)
        return 1
    if args.check:
        the_plan = plan(root, render_pages(site).pages)
        for rel in the_plan.write:
            print(f"out of date: {rel}", file=sys.stderr)
        for rel in the_plan.remove:
            print(f"stale: {rel}", file=sys.stderr)
        if not the_plan.clean:
            print(f"{args.tool}: notes/ is out of date; run `make notes`", file=sys.stderr)
            return 1
        return 0

    def waiting() -> None:
        print(f"{args.tool}: another conversion is writing notes/; waiting for it to finish", file=sys.stderr)

    result = write_site(root, site, memo, waiting)
    if not args.quiet:
        print(
            f"{args.tool}: {len(site.notes)} notes, {result.pages} pages: "
            f"{len(result.plan.write)} written, {len(result.plan.unchanged)} unchanged, {len(result.plan.remove)} removed"
        )
    return 0


COMMAND = Command(
    "notes",
    "convert seeds/ into the MyST pages of notes/ and index.md",
    run,
    options=(flag("--check", help="exit 1 if notes/ is out of date; write nothing"), *CONVERSION_OPTIONS),
)
