"""Command line: ``python scripts/build_notes.py [--check] [--strict]``.

Reads ``seeds/`` and ``taxonomy.toml``, validates everything, and only then
writes ``notes/`` and ``index.md``. On bad input it prints ``file:line: what``
for every problem, exits 1 and leaves every file as it was.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .diagnostics import InputError
from .model import Site, build_site
from .parse import read_seeds
from .render import render_site
from .taxonomy import load_taxonomy
from .write import apply, plan

ROOT = Path(__file__).resolve().parents[2]


def load(root: Path) -> Site:
    """Parse and model the project at ``root``; raises :class:`InputError`."""
    taxonomy = load_taxonomy(root / "taxonomy.toml")
    seeds, prs = read_seeds(root / "seeds", root)
    return build_site(seeds, prs, taxonomy)


def main(argv: list[str] | None = None, default_root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(prog="build_notes", description="Generate notes/ and index.md from seeds/.")
    parser.add_argument("--root", type=Path, default=default_root, help="project folder (default: this project)")
    parser.add_argument("--check", action="store_true", help="exit 1 if notes/ is out of date; write nothing")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    try:
        site = load(root)
        for warning in site.warnings:
            print(f"{'error' if args.strict else 'warning'}: {warning}", file=sys.stderr)
        if args.strict and site.warnings:
            print(f"build_notes: {len(site.warnings)} warning(s) under --strict; nothing written", file=sys.stderr)
            return 1
        pages = render_site(site)
        the_plan = plan(root, pages)
    except InputError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        print(f"build_notes: {len(exc.problems)} error(s); nothing written", file=sys.stderr)
        return 1
    if args.check:
        for rel in the_plan.write:
            print(f"out of date: {rel}", file=sys.stderr)
        for rel in the_plan.remove:
            print(f"stale: {rel}", file=sys.stderr)
        if not the_plan.clean:
            print("build_notes: notes/ is out of date; run `make notes`", file=sys.stderr)
            return 1
        return 0
    apply(root, pages, the_plan)
    if not args.quiet:
        print(
            f"build_notes: {len(site.notes)} notes, {len(pages)} pages: "
            f"{len(the_plan.write)} written, {len(the_plan.unchanged)} unchanged, {len(the_plan.remove)} removed"
        )
    return 0
