"""``prnotes bench``: run a benchmark of a checkout's ``bench/`` folder.

The benchmarks are not part of the installed package (they need the test kit
and the ``bench`` dependency group); this runs ``python -m bench.<name>`` in
the project folder.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from ..diagnostics import CommandError

NAME = "bench"
# The modules of bench/ that run (markers.py is their helper).
BENCHMARKS = ("bounds", "classify", "corpus", "heldout", "lighthouse", "pages", "pdf", "scale", "search", "similar", "small_digests", "volumes")
HELP = f"run a benchmark from the checkout's bench/ folder: {', '.join(BENCHMARKS)}"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("benchmark", choices=BENCHMARKS, help="which benchmark (corpus: write a synthetic corpus)")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="passed on to the benchmark (see its --help)")


def run(args: argparse.Namespace) -> int:
    if not (args.root / "bench" / f"{args.benchmark}.py").is_file():
        raise CommandError(f"{args.root} has no bench/{args.benchmark}.py; the benchmarks run from a checkout")
    return subprocess.run([sys.executable, "-m", f"bench.{args.benchmark}", *args.options], cwd=args.root).returncode

