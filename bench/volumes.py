"""What a day's digest asks of the archive in volumes (docs/volumes.md).

    python -m bench.volumes --sizes 5000 20000 [--work DIR]
    python -m bench.volumes --publish 2000 [--work DIR]

For each size, the dense archive (:func:`bench.corpus.generate_dense`,
digests of 16 notes) is converted and cut into volumes of
:data:`prnotes.model.site.VOLUME_NOTES` notes; a page per page of the
volumes stands in for each closed volume's output, and each volume's record is written. Then a
day's digest (:func:`bench.corpus.dense_day`) is added and converted, and
``prnotes volumes``' check says which closed volumes a build would make again:
those whose notes the day's notes cite (their back-links are in their
pages' sources) and the one the day closes. Also timed: the link map and the
check, the work ``prnotes volumes`` adds to a conversion. The table goes
between the ``volumes-table`` markers of BENCHMARKS.md.

``--publish N``: a cold publish of the site in volumes, each closed volume
built alone (``prnotes volumes --build --only v<k>``, one Sphinx process,
``-j 1``) and then the hub (``--hub``'s step, ``-j 1``), each timed: the
critical path of a CI matrix is the slowest volume and then the hub; one
machine building one volume at a time takes their sum. Peak memory is the
largest Sphinx process's (``ru_maxrss`` of the children). Then the same pages
in one Sphinx build (``-j 1``), for comparison. Printed, not
written: the table goes in BENCHMARKS.md by hand, with the commit.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.corpus import dense_day, generate_dense
from bench.markers import replace_between
from tests.support.sandbox import copy_project

BEGIN, END = "<!-- volumes-table -->", "<!-- /volumes-table -->"


def _stand_in_output(proj: Path, parts) -> None:
    """A page per page of each volume, its search index and each page's snippet text: what
    the record hashes of a volume's output (``volumes.outputs``)."""
    from prnotes.build import volumes

    for part in parts:
        html = volumes.output(proj, part)
        for docname in part.pages:
            for page in (html / f"{docname}.html", html / volumes.SEARCH_TEXTS / f"{docname}.txt"):
                page.parent.mkdir(parents=True, exist_ok=True)
                page.write_text(docname, encoding="utf-8")
        (html / volumes.SEARCH_INDEX).write_text("Search.setIndex({})", encoding="utf-8")


def _sources(proj: Path, parts) -> dict[str, bytes]:
    return {d: (proj / f"{d}.md").read_bytes() for part in parts if part.closed for d in part.pages}


def bench_size(n: int, work: Path, per_file: int = 16) -> str:
    from prnotes.build import volumes
    from prnotes.write.convert import convert

    proj = copy_project(work / f"n{n}", generate_dense(n, per_file=per_file))
    subprocess.run(["git", "init", "-q"], cwd=proj, check=True)  # digests uncommitted: no dates
    site = convert(proj)
    parts = volumes.partition(site)
    start = time.perf_counter()
    volumes.write_link_map(proj, site, parts)
    link_map_s = time.perf_counter() - start
    _stand_in_output(proj, parts)
    start = time.perf_counter()
    statuses = volumes.check(proj, parts)
    check_s = time.perf_counter() - start
    volumes.record(proj, statuses)
    before = _sources(proj, parts)

    day = dense_day(n, per_file=per_file)
    for name, text in day.items():
        (proj / "seeds" / name).write_text(text, encoding="utf-8")
    site = convert(proj)
    after_parts = volumes.partition(site)
    after = _sources(proj, parts)
    changed_pages = sum(1 for d, data in before.items() if after.get(d) != data)
    reasons = Counter(s.reason for s in volumes.check(proj, after_parts) if s.reason)
    closed = sum(1 for p in parts if p.closed)
    why = ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items())) or "none"
    return (
        f"| {n:,} | {len(parts)} ({closed} closed) | {len(site.notes) - n} | {link_map_s:.1f} | {check_s:.1f} "
        f"| {sum(reasons.values())} ({why}) | {changed_pages} |"
    )


def bench_publish(n: int, work: Path, per_file: int = 16, one_build: bool = True) -> str:
    """One row: a cold publish of ``n`` notes in volumes, each build alone (module docstring);
    ``one_build``: also the same pages in one build ("—" without)."""
    from prnotes.build import volumes
    from prnotes.write.convert import convert

    proj = copy_project(work / f"publish{n}", generate_dense(n, per_file=per_file))
    subprocess.run(["git", "init", "-q"], cwd=proj, check=True)
    site = convert(proj)
    parts = volumes.partition(site)
    volumes.write_link_map(proj, site, parts)
    statuses = volumes.check(proj, parts)
    each = []
    for status in statuses:
        start = time.perf_counter()
        built, failed = volumes.build(proj, statuses, 1, frozenset({status.part.name}))
        assert built == [status.part.name] and not failed, failed
        each.append(time.perf_counter() - start)
    start = time.perf_counter()
    volumes.build_hub(proj, parts)
    hub = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    start = time.perf_counter()  # the same pages in one build, for comparison
    command = [sys.executable, "-m", "prnotes.build.sphinx_build", "-b", "html", "-W", "-q", "-j", "1", "-d", "_build/one-doctrees", ".", "_build/one"]
    if one_build:
        subprocess.run(command, cwd=proj, check=True)
    one = f"{time.perf_counter() - start:.0f}" if one_build else "—"
    return (
        f"| {n:,} | {len(statuses)} of {max(len(p.pages) for p in parts if p.closed)} pages at most | {max(each):.0f} | {hub:.0f} "
        f"| {max(each) + hub:.0f} | {sum(each) + hub:.0f} | {one} | {peak:,.0f} |"
    )


PUBLISH_HEADER = (
    "| notes | closed volumes | slowest volume (s) | hub (s) | critical path of a matrix (s) | one volume at a time (s) "
    "| one build (s) | largest process (MB) |\n"
    "|---:|---|---:|---:|---:|---:|---:|---:|"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5000, 20000])
    parser.add_argument("--work", type=Path, help="where the archives go (default: a temporary folder)")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "BENCHMARKS.md")
    parser.add_argument("--publish", type=int, nargs="+", metavar="NOTES", help="time a cold publish in volumes at these sizes (printed)")
    parser.add_argument("--no-one-build", action="store_true", help="with --publish: not the one build of the same pages")
    args = parser.parse_args(argv)
    if args.publish:
        with tempfile.TemporaryDirectory() as tmp:
            rows = [bench_publish(n, args.work or Path(tmp), one_build=not args.no_one_build) for n in args.publish]
        print("\n".join([PUBLISH_HEADER, *rows]))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        rows = [bench_size(n, work) for n in args.sizes]
    header = (
        "| notes | volumes | a day's notes | link map (s) | check (s) | closed volumes the day builds again | closed pages the day changed |\n"
        "|---:|---:|---:|---:|---:|---|---:|"
    )
    replace_between(args.out, BEGIN, END, "\n".join([header, *rows]), section="Volumes")
    print("\n".join([header, *rows]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
