"""``prnotes notes``: convert ``seeds/`` into ``notes/`` and ``index.md``.

Reads the seeds and ``taxonomy.toml``, validates everything, and only then
writes. On bad input every problem is printed as ``file:line: what`` and
every file stays as it was; so it does when the disk refuses a write, with
one line naming the file. Two runs on one project take turns.
"""

from __future__ import annotations

import argparse
import sys

NAME = "notes"
HELP = "convert seeds/ into the MyST pages of notes/ and index.md"


def add_conversion_arguments(parser: argparse.ArgumentParser) -> None:
    """How the conversion reports; `prnotes build --notes` takes them too."""
    parser.add_argument("--strict", action="store_true", help="treat the conversion's warnings as errors")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the conversion's problems")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--check", action="store_true", help="exit 1 if notes/ is out of date; write nothing")
    add_conversion_arguments(parser)


def run(args: argparse.Namespace, converted: list | None = None) -> int:
    """The conversion's exit status; the site converted is appended to ``converted``."""
    # Imported here: `prnotes build` and the others do without the converter.
    from ..write.convert import write_site
    from ..project import load, open_cache
    from ..render import render_pages
    from ..write.files import plan

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
    converted is not None and converted.append(site)
    if not args.quiet:
        print(
            f"{args.tool}: {len(site.notes)} notes, {result.pages} pages: "
            f"{len(result.plan.write)} written, {len(result.plan.unchanged)} unchanged, {len(result.plan.remove)} removed"
        )
    return 0

