#!/usr/bin/env python3
"""PDF benchmark: build times of the book for the real seeds and for N
synthetic notes.

    python -m bench.pdf [--sizes 500] [--repeat 3] [--write BENCHMARKS.md]

For the 16 real notes and for each N (a corpus from bench/corpus.py) it
builds the book from scratch ``--repeat`` times in a fresh project copy and
reports the median of the whole build and of its steps (Sphinx's LaTeX
builder; xelatex, one pass, and xdvipdfmx), the pages and the PDF size; then
a no-op rebuild. The table is printed, and with ``--write`` replaces the
"PDF" section of that file.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.corpus import generate
from prnotes.build.pdf import build_book
from tests.support.sandbox import copy_project
from prnotes.build.subset import Selection

SECTION = "## PDF"


@dataclass(frozen=True)
class Row:
    label: str
    notes: int
    total: float
    sphinx: float
    latex: float
    pages: int
    size_mb: float
    noop: float
    cpu: float


def pages_of(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE).group(1))


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_size(label: str, seeds: dict[str, str] | None, repeat: int, work: Path) -> Row:
    totals, cpus, sphinx, latex = [], [], [], []
    for i in range(repeat):
        proj = copy_project(work / f"{label}-{i}", seeds)
        cpu, start = children_cpu(), time.perf_counter()
        book = build_book(proj, Selection())
        totals.append(time.perf_counter() - start)
        cpus.append(children_cpu() - cpu)
        steps = dict(book.timings)
        sphinx.append(steps["sphinx"])
        latex.append(steps["xelatex"])
    noops = []
    for _ in range(repeat):
        start = time.perf_counter()
        build_book(proj, Selection())
        noops.append(time.perf_counter() - start)
    return Row(
        label=label,
        notes=book.notes,
        total=statistics.median(totals),
        sphinx=statistics.median(sphinx),
        latex=statistics.median(latex),
        pages=pages_of(book.pdf),
        size_mb=book.pdf.stat().st_size / 1e6,
        noop=statistics.median(noops),
        cpu=statistics.median(cpus),
    )


def table(rows: list[Row], repeat: int) -> str:
    lines = [
        SECTION,
        "",
        f"`python -m bench.pdf`: medians of {repeat} clean builds of the whole book, taken",
        "on a shared 2-core machine while other builds ran (wall times vary by ±30 %; the",
        "CPU column, user + system time of the build's processes, is steadier).",
        "",
        "| corpus | notes | build (wall) | build (CPU) | Sphinx LaTeX | xelatex + xdvipdfmx | pages | PDF | no-op rebuild |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r.label} | {r.notes} | {r.total:.1f} s | {r.cpu:.1f} s | {r.sphinx:.1f} s | {r.latex:.1f} s "
            f"| {r.pages} | {r.size_mb:.1f} MB | {r.noop:.1f} s |"
        )
    return "\n".join(lines) + "\n"


def write_section(path: Path, text: str) -> None:
    """Replace the tables of the ``## PDF`` section of ``path``, or append the section.

    The tables end at the next ``##`` or ``###`` heading: hand-written notes
    under a ``###`` heading of the section are kept."""
    old = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"^{re.escape(SECTION)}\n.*?(?=^###? |\Z)", re.MULTILINE | re.DOTALL)
    if pattern.search(old):
        new = pattern.sub(lambda _: text + "\n", old, count=1).rstrip("\n") + "\n"
    else:
        new = old.rstrip("\n") + "\n\n" + text
    path.write_text(new, encoding="utf-8", newline="\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="500", help="synthetic corpus sizes, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--write", type=Path, help="replace the PDF section of this Markdown file")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-pdf-") as tmp:
        work = Path(tmp)
        rows.append(one_size("seeds/ (real)", None, args.repeat, work))
        print(table(rows, args.repeat), flush=True)
        for n in (int(s) for s in args.sizes.split(",") if s):
            rows.append(one_size(f"synthetic ({n})", generate(n, seed=1), args.repeat, work))
            print(table(rows, args.repeat), flush=True)
    text = table(rows, args.repeat)
    if args.write:
        write_section(args.write, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
