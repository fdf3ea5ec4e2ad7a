#!/usr/bin/env python3
"""What a reader's browser downloads for a note page: the page and each of its resources.

    .venv/bin/python -m bench.pages [--seeds DIR] [--work DIR] [--write BENCHMARKS.md]

Builds a copy of the project (by default with the morning fixture,
``tests/roots/morning``, dated by git; ``--seeds`` for another seeds folder),
serves the HTML output on 127.0.0.1 with ``Cache-Control: max-age=600`` (as
GitHub Pages does), and opens in headless Chromium, in one fresh browser
context (empty cache):

1. a note page, until the network is idle: every response is listed;
2. then another note, by its 下一篇 link: only what the browser fetched
   again (not from its cache) is listed.

Each resource is sized as stored and as gzip (level 6) would send it: the
hosts compress text responses, so the gzip column is what a reader waits
for; fonts and images are sent as they are. The search index is not part of
it (it loads when a search starts, docs/search.md). Sizes are bytes counted,
not times, so one run is the figure.

With ``--write FILE`` the tables go between the markers in the
``## Page weight`` section of FILE (the section is appended when missing).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from bench.markers import replace_between
from tests.support.morning import morning_project
from tests.support.pageweight import Resource, Visit, measure
from tests.support.sandbox import convert, copy_project, sphinx_build

BEGIN = "<!-- bench.pages: begin -->"
END = "<!-- bench.pages: end -->"
# What the reader's first note is, on the morning fixture: the newest digest's first.
FIRST_NOTE = "notes/sgl-project/sglang/pr-3011.html"
# The limits of issue 32: a first visit, and a second note after it.
FIRST_LIMIT = 200 * 1024
SECOND_LIMIT = 40 * 1024


def build_site(work: Path, seeds: Path | None) -> Path:
    """The HTML output of a fresh build of the fixture (or of ``seeds``), in ``work/p`` (made again)."""
    if (work / "p").exists():
        shutil.rmtree(work / "p")
    proj = copy_project(work / "p", seeds) if seeds else morning_project(work / "p")
    if convert(proj) != 0:
        raise SystemExit("the conversion failed")
    app = sphinx_build(proj, freshenv=True)
    if app.warning.getvalue():
        raise SystemExit(f"the build warned:\n{app.warning.getvalue()}")
    return proj / "_build" / "html"


def kib(n: int) -> str:
    return f"{n / 1024:.1f} KiB"


def table(title: str, rows: list[Resource]) -> list[str]:
    lines = [f"**{title}**", "", "| resource | type | stored | sent (gzip) |", "| --- | --- | ---: | ---: |"]
    lines += [f"| `{r.path}` | {r.kind} | {kib(r.raw)} | {kib(r.sent)} |" for r in rows]
    lines.append(f"| **total** ({len(rows)} responses) | | {kib(sum(r.raw for r in rows))} | **{kib(sum(r.sent for r in rows))}** |")
    return lines


def report(visit: Visit, first: str) -> str:
    lines = [
        f"First visit to a note page (`{first}`, empty cache): **{kib(visit.sent(visit.first))}** sent "
        f"(limit {kib(FIRST_LIMIT)}); then its 下一篇 (`{visit.second}`): **{kib(visit.sent(visit.then))}** more "
        f"(limit {kib(SECOND_LIMIT)}).",
        "",
        *table("First visit", list(visit.first)),
        "",
        *table("The next note, after the first", list(visit.then)),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, help="a seeds folder to build instead of the morning fixture")
    parser.add_argument("--first", default=FIRST_NOTE, help=f"the note opened first (default {FIRST_NOTE})")
    parser.add_argument("--work", type=Path, help="build here (default: a temporary folder)")
    parser.add_argument("--write", type=Path, help="write the tables into the '## Page weight' section of this Markdown file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        outdir = build_site(work, args.seeds)
        visit = measure(outdir, args.first)
    text = report(visit, args.first)
    print(text)
    if args.write:
        replace_between(args.write, BEGIN, END, text, section="Page weight")
    return 0 if visit.sent(visit.first) <= FIRST_LIMIT and visit.sent(visit.then) <= SECOND_LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
