"""``prnotes volumes [--size N] [--build [-j N] [--only vK | --hub]] [--check] [--matrix]``: the archive in volumes.

Converts (as ``prnotes notes`` does), cuts the archive into volumes
(:func:`prnotes.build.volumes.partition`), writes the link map that a build
of some volumes reads to link to the others (``_build/volumes/linkmap.json``)
and says, for each closed volume, whether its output
(``_build/volumes/v<k>/html``) is what its inputs make, as its record
(``_build/volumes/v<k>/record.json``) says, or why it has to be built again: never built, its inputs
changed, a page missing, a page damaged. ``--build`` builds those, side by
side in processes of their own (``-j``: at most that many; ``--only vK``:
only those named, as a job of a CI matrix does), each in a Sphinx build of
its own, and records each; ``--hub`` then builds the hub
(every other page) and joins the closed volumes' pages and their search
index to it, the site in volumes, in ``_build/html``;
``--check`` exits 1 when a closed volume has to be built; ``--matrix``
prints the closed volumes to build as JSON, the jobs of a CI matrix
(``.github/workflows/volumes.yml``). ``make html`` (``prnotes build``)
builds an archive of several volumes this way too (:func:`build_site`).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..diagnostics import CommandError

NAME = "volumes"
HELP = "cut the archive into volumes, write their link map and check each closed volume's pages by hash"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..model.site import VOLUME_NOTES

    parser.add_argument("--size", type=int, default=VOLUME_NOTES, help=f"notes a volume closes at (default {VOLUME_NOTES})")
    parser.add_argument("--build", action="store_true", help="build the closed volumes that are out of date, and record them")
    parser.add_argument("-j", "--jobs", type=int, help="with --build: at most this many volumes at once (default: the cores)")
    parser.add_argument("--only", action="append", default=[], metavar="VOLUME", help="with --build: only this volume (v3), if it is out of date; again for more (a CI matrix job's)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a closed volume has to be built")
    parser.add_argument("--matrix", action="store_true", help='print only the closed volumes to build, as JSON (["v1", "v3"]): the jobs of a CI matrix')
    parser.add_argument("--hub", action="store_true", help="with --build: then build the hub and join the closed volumes' pages and search to it in _build/html")


def run(args: argparse.Namespace) -> int:
    from ..build import volumes
    from ..write.convert import convert

    if args.size < 1:
        raise CommandError(f"--size {args.size}: a volume holds at least one note")
    if args.jobs is not None and args.jobs < 1:
        raise CommandError(f"-j {args.jobs}: at least one volume at a time")
    root = args.root
    named = [name.strip() for value in args.only for name in value.split(",") if name.strip()]
    if args.hub and not args.build:
        raise CommandError("--hub builds the hub after the volumes: use it with --build")
    if args.hub and named:
        raise CommandError("--hub joins every closed volume: build them all, without --only")

    def waiting() -> None:
        print(f"{args.tool}: another conversion is writing notes/; waiting for it to finish", file=sys.stderr)

    site = convert(root, waiting)
    for warning in site.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    parts = volumes.partition(site, args.size)
    unknown = sorted(set(named) - {part.name for part in parts if part.closed})
    if unknown:
        closed = " ".join(part.name for part in parts if part.closed) or "none"
        raise CommandError(f"--only {' '.join(unknown)}: not a closed volume of the archive (closed: {closed})")
    if args.build:
        return build_site(root, args.tool, site, parts, args.jobs, frozenset(named), hub=args.hub)
    volumes.make_folders(root, [])
    volumes.write_link_map(root, site, parts)
    reasons = _report(parts, volumes.check(root, parts), quiet=args.matrix)
    if args.matrix:
        print(json.dumps([name for name, reason in reasons.items() if reason]))
        return 0
    return 1 if args.check and any(reasons.values()) else 0


def _report(parts, statuses, quiet: bool = False) -> dict[str, str]:
    """Each closed volume's name and why it is to be built ("" when reused), said unless ``quiet``."""
    reasons = {status.part.name: status.reason for status in statuses}
    for part in () if quiet else parts:
        what = f"{part.name} {part.volume.title}, {part.volume.notes} notes"
        print(f"{what}: open, built with the hub" if not part.closed else f"{what}: closed, {f'to build: {reasons[part.name]}' if reasons[part.name] else 'reused'}")
    return reasons


def build_site(root, tool: str, site, parts, jobs: int | None = None, named: frozenset[str] = frozenset(), hub: bool = True, books: bool = False) -> int:
    """Build the closed volumes that are out of date (``named``: only those), then, with
    ``hub``, the books of the volumes (``books``, make publish) and the hub, into
    ``_build/html``: the site in volumes, as ``make html`` builds an archive of several
    volumes and ``make volumes`` any archive. Exit status."""
    from ..build import BuildError, volumes
    from ..build.folders import check_config

    volumes.make_folders(root, [*(part.name for part in parts if part.closed), "hub"])
    volumes.write_link_map(root, site, parts)
    statuses = volumes.check(root, parts)
    _report(parts, statuses)
    check_config(root)
    built, failures = volumes.build(root, statuses, jobs, named)
    for name in built:
        print(f"{name}: built into {(volumes.FOLDER / name / 'html').as_posix()}")
    for failure in failures:
        print(f"{tool}: {failure}", file=sys.stderr)
    if failures or not hub:
        return 1 if failures else 0
    try:
        if books:
            from ..build.pdf import build_volumes

            for book in build_volumes(root, processes=jobs):
                print(book.said(tool, root))
        html = volumes.build_hub(root, parts)
    except BuildError as exc:
        print(f"{tool}: {exc}", file=sys.stderr)
        return 1
    print(f"the site in volumes: {html.relative_to(root).as_posix()}")
    return 0
