"""``prnotes volumes [--size N] [--html DIR] [--record] [--check]``: the archive in volumes.

Converts (as ``prnotes notes`` does), cuts the archive into volumes
(:func:`prnotes.build.volumes.partition`), writes the link map that a build
of some volumes reads to link to the others (``_build/volumes/linkmap.json``)
and says, for each closed volume, whether its pages in the site (``--html``,
default ``_build/html``) are what its inputs make, as the manifest recorded
them, or why it has to be built again: never built, its inputs changed, a
page missing, a page damaged. ``--record``, after a build of the site, records
each closed volume's inputs and pages in the manifest; ``--check`` exits 1
when a closed volume has to be built. The site's build itself is still one
Sphinx build (docs/volumes.md says what is left).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..diagnostics import CommandError

NAME = "volumes"
HELP = "cut the archive into volumes, write their link map and check each closed volume's pages by hash"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..model.site import VOLUME_NOTES

    parser.add_argument("--size", type=int, default=VOLUME_NOTES, help=f"notes a volume closes at (default {VOLUME_NOTES})")
    parser.add_argument("--html", type=Path, help="the site's output folder (default: ROOT/_build/html)")
    parser.add_argument("--record", action="store_true", help="record each closed volume's inputs and pages (after a build)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a closed volume has to be built")


def run(args: argparse.Namespace) -> int:
    from ..build import volumes
    from ..write.convert import convert

    if args.size < 1:
        raise CommandError(f"--size {args.size}: a volume holds at least one note")
    root = args.root
    html = (args.html or root / "_build" / "html").resolve()

    def waiting() -> None:
        print(f"{args.tool}: another conversion is writing notes/; waiting for it to finish", file=sys.stderr)

    site = convert(root, waiting)
    for warning in site.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    parts = volumes.partition(site, args.size)
    volumes.write_link_map(root, site, parts)
    statuses = volumes.check(root, parts, html)
    reasons = {status.part.name: status.reason for status in statuses}
    for part in parts:
        what = f"{part.name} {part.volume.title}, {part.volume.notes} notes"
        if not part.closed:
            print(f"{what}: open, built with the hub")
        elif reasons[part.name]:
            print(f"{what}: closed, to build: {reasons[part.name]}")
        else:
            print(f"{what}: closed, reused")
    if args.record:
        recorded = volumes.record(root, statuses, html)
        print(f"recorded: {' '.join(recorded) or 'no closed volume'} in {volumes.MANIFEST.as_posix()}")
        return 0
    return 1 if args.check and any(reasons.values()) else 0
