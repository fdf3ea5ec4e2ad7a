#!/usr/bin/env python3
"""Scale benchmark: conversion and HTML builds at N synthetic notes.

    python -m bench.scale [--sizes 100,1000,5000] [--repeat 3] [--large-repeat 1]
                            [--write BENCHMARKS.md]

For each N it generates a corpus (bench/corpus.py), then measures the
conversion, full HTML builds with ``-j 1`` and ``-j auto``, a no-op rebuild,
a rebuild after editing one entry's body and one after adding a digest of 10
entries (with the documents Sphinx re-read each time), the output size and
the search index size. A bare Sphinx build of the same generated pages
(default theme, myst_parser only) is the baseline. Each figure is the median
of ``--repeat`` runs (``--large-repeat`` for builds above 1,000 notes). The
table is printed, and with ``--write`` replaces the "Scale" section of that
file.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.corpus import generate
from prnotes.cli import main as cli_main
from tests.support.sandbox import ROOT, copy_project

PYTHON = sys.executable
BASELINE_CONF = """\
project = "baseline"
extensions = ["myst_parser"]
include_patterns = ["index.md", "notes/**"]
myst_enable_extensions = ["fieldlist", "colon_fence"]
# Our roles and directives are unknown here: keep their errors quiet.
docutils_settings = {"report_level": 5}
"""
SECTION = "## Scale"


@dataclass(frozen=True)
class Row:
    notes: int
    convert_per_s: float
    build_j1: float
    build_jauto: float
    baseline_j1: float
    noop: float
    noop_reread: int
    noop_rewrote_sources: int
    edit: float
    edit_reread: int
    add: float
    add_reread: int
    out_bytes: int
    index_bytes: int
    runs: int


def median_time(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def sphinx(src: Path, out: Path, jobs: str, strict: bool = True) -> str:
    """Run sphinx-build; return its status output."""
    cmd = [PYTHON, "-m", "sphinx", "-b", "html", "-j", jobs, str(src), str(out)]
    if strict:
        cmd[3:3] = ["-W", "--keep-going"]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode:
        raise SystemExit(f"sphinx-build failed in {src}:\n{proc.stderr[-3000:]}")
    return proc.stdout


def reread(output: str) -> int:
    match = re.search(r"(\d+) added, (\d+) changed, (\d+) removed", output)
    return int(match.group(1)) + int(match.group(2)) if match else -1


def make_html(proj: Path) -> str:
    """`make html` in the project copy, with this venv; returns Sphinx's status output."""
    venv = Path(PYTHON).parent.parent
    proc = subprocess.run(
        ["make", "-C", str(proj), "html", f"VENV={venv}", "SPHINXOPTS="], capture_output=True, text=True, check=False
    )
    if proc.returncode:
        raise SystemExit(f"make html failed in {proj}:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return proc.stdout


def mtimes(proj: Path) -> dict[str, int]:
    files = [proj / "index.md", *(proj / "notes").rglob("*.md")]
    return {str(p): p.stat().st_mtime_ns for p in files}


def tree_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and ".doctrees" not in p.parts)


def bench_size(n: int, work: Path, repeat: int, baseline: bool = True) -> Row:
    corpus = generate(n)
    proj = copy_project(work / f"n{n}", corpus)
    entries = n

    def fresh_convert():
        shutil.rmtree(proj / "notes", ignore_errors=True)
        (proj / "index.md").unlink(missing_ok=True)
        assert cli_main(["notes", "--root", str(proj), "-q"]) == 0

    convert_s = median_time(fresh_convert, repeat)

    def full(jobs: str, root: Path = proj, strict: bool = True) -> None:
        out = root / "_build" / f"full-{jobs}"
        shutil.rmtree(root / "_build", ignore_errors=True)
        sphinx(root, out, jobs, strict)

    build_j1 = median_time(lambda: full("1"), repeat)
    build_jauto = median_time(lambda: full("auto"), repeat)

    baseline_j1 = float("nan")
    if baseline:
        base = work / f"n{n}-baseline"
        base.mkdir()
        (base / "conf.py").write_text(BASELINE_CONF, encoding="utf-8")
        shutil.copytree(proj / "notes", base / "notes")
        shutil.copy2(proj / "index.md", base / "index.md")
        baseline_j1 = median_time(lambda: full("1", base, strict=False), repeat)

    out = proj / "_build" / "html"
    shutil.rmtree(proj / "_build", ignore_errors=True)
    make_html(proj)
    out_bytes = tree_bytes(out)
    index_bytes = (out / "searchindex.js").stat().st_size

    before = mtimes(proj)
    start = time.perf_counter()
    noop_out = make_html(proj)
    noop = time.perf_counter() - start
    after = mtimes(proj)
    rewrote = sum(1 for k in before if after.get(k) != before[k])

    # Edit one entry's body: the last sentence of the first file's first body.
    first = sorted((proj / "seeds").glob("*.txt"))[0]
    lines = first.read_text(encoding="utf-8").split("\n")
    lines[4] += "（补充说明一句。）"
    first.write_text("\n".join(lines), encoding="utf-8")
    start = time.perf_counter()
    edit_out = make_html(proj)
    edit = time.perf_counter() - start

    # A new digest of 10 entries: the corpus for n + 10 has one more file.
    bigger = generate(n + 10)
    new_files = sorted(set(bigger) - set(corpus))
    for name in new_files:
        (proj / "seeds" / name).write_text(bigger[name], encoding="utf-8")
    (proj / "seeds/prs.toml").write_text(bigger["prs.toml"], encoding="utf-8")
    start = time.perf_counter()
    add_out = make_html(proj)
    add = time.perf_counter() - start

    return Row(
        notes=n,
        convert_per_s=entries / convert_s,
        build_j1=build_j1,
        build_jauto=build_jauto,
        baseline_j1=baseline_j1,
        noop=noop,
        noop_reread=reread(noop_out),
        noop_rewrote_sources=rewrote,
        edit=edit,
        edit_reread=reread(edit_out),
        add=add,
        add_reread=reread(add_out),
        out_bytes=out_bytes,
        index_bytes=index_bytes,
        runs=repeat,
    )


def table(rows: list[Row]) -> str:
    head = [
        "| notes | conversion (entries/s) | full build -j 1 (s) | full build -j auto (s) "
        "| bare Sphinx -j 1 (s) | ours / bare | no-op make html (s) | no-op / full | re-read (no-op / edit / +10 digest) "
        "| edit one body (s) | add a 10-entry digest (s) | output (MB) | bytes per note | search index (KB) | runs |",
        "|" + "---|" * 15,
    ]
    body = [
        f"| {r.notes:,} | {r.convert_per_s:,.0f} | {r.build_j1:.1f} | {r.build_jauto:.1f} | {r.baseline_j1:.1f} "
        f"| {r.build_j1 / r.baseline_j1:.2f} | {r.noop:.1f} | {r.noop / r.build_jauto:.1%} "
        f"| {r.noop_reread} / {r.edit_reread} / {r.add_reread} | {r.edit:.1f} | {r.add:.1f} "
        f"| {r.out_bytes / 1e6:.1f} | {r.out_bytes // r.notes:,} | {r.index_bytes / 1e3:,.0f} | {r.runs} |"
        for r in rows
    ]
    return "\n".join(head + body)


def write_section(path: Path, text: str) -> None:
    """Replace the "## Scale" section of ``path`` (or append it)."""
    old = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"^{re.escape(SECTION)}\n.*?(?=^## |\Z)", re.S | re.M)
    new = f"{SECTION}\n\n{text}\n\n"
    old = pattern.sub(lambda _: new, old) if pattern.search(old) else old.rstrip("\n") + "\n\n" + new
    path.write_text(old.rstrip("\n") + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,5000", help="comma-separated note counts")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--large-repeat", type=int, default=1, help="runs per build figure above 1,000 notes")
    parser.add_argument("--write", type=Path, help="replace the Scale section of this Markdown file")
    parser.add_argument("--no-baseline", action="store_true", help="skip the bare Sphinx builds (slow at 5,000 notes)")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="prnotes-bench-") as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            runs = args.repeat if n <= 1000 else args.large_repeat
            row = bench_size(n, Path(tmp), runs, baseline=not args.no_baseline)
            rows.append(row)
            print(table([row]).split("\n")[-1], flush=True)
    result = table(rows)
    print(result)
    if args.write:
        note = (
            f"Measured with `make bench` ({os.cpu_count()} cores; sizes {args.sizes}; median of "
            f"{args.repeat} runs, {args.large_repeat} above 1,000 notes). Generated by bench/scale.py."
        )
        write_section(args.write, f"{note}\n\n{result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
