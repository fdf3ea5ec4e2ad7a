"""Scale benchmark: the dense archive at 1,000, 5,000, 10,000 and 20,000 notes.

    python -m bench.scale [--sizes 1000,5000,10000,20000] [--repeat 3] [--large-repeat 1]
                          [--per-file 16] [--wait-load 2.5] [--results FILE.json]
                          [--write BENCHMARKS.md]

For each N it generates a dense archive (:func:`bench.corpus.generate_dense`:
digests of ``--per-file`` notes from three repositories, consecutive PR
numbers, four to seven references per note) in a copy of the project and
measures, with the real ``make`` targets of the copy:

- a full ``make html`` from nothing (conversion included, ``-j auto``), and
  the peak memory of its processes (the largest resident set of any of them,
  from ``getrusage(RUSAGE_CHILDREN)`` in a process that runs only that build);
- the Sphinx floor: the same generated pages through bare Sphinx
  (myst_parser and sphinx_design, the basic theme, no sidebars, English
  search, ``-j auto``), taking turns with ours;
- the largest built HTML page;
- a no-op ``make html``;
- a day's digest: ten notes from the dense generator's next day, in a
  digest per repository (:func:`bench.corpus.dense_day`), added and then
  taken away again, ``make html`` each time; the time of the build that adds
  it, and the documents Sphinx read again for it;
- ``make pdf`` from nothing after ``make html`` (a PDF per volume, in parallel);
- a cold ``make publish`` from nothing (the site, and the whole book typeset
  beside it, as Read the Docs builds it), and its peak memory.

Each figure is the median of ``--repeat`` runs (``--large-repeat`` above
1,000 notes). Before each size the script waits until the 1-minute load
average is below ``--wait-load`` (checking every five minutes), and records
the load it saw. Rows are kept in ``--results`` (JSON, by size), so sizes
may be measured in separate runs; ``--write`` replaces the table between the
``scale-table`` markers of that file with every row kept, leaving the prose.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.corpus import dense_day, generate_dense
from bench.markers import replace_between
from tests.support.sandbox import copy_project

PYTHON = sys.executable
VENV = Path(PYTHON).parent.parent
FLOOR_CONF = """\
project = "floor"
extensions = ["myst_parser", "sphinx_design"]
include_patterns = ["index.md", "notes/**"]
myst_enable_extensions = ["fieldlist", "colon_fence"]
html_theme = "basic"
html_sidebars = {"**": []}
language = "en"
# Our roles and directives are unknown here: keep their errors quiet.
docutils_settings = {"report_level": 5}
suppress_warnings = ["toc", "ref", "myst"]
"""
START, END = "<!-- scale-table -->", "<!-- /scale-table -->"
# Runs the command given and prints, last, the peak resident set (KiB on
# Linux) of the processes it waited for: the command and everything it ran.
MEASURED = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:]).returncode\n"
    "print(f'maxrss={resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}', file=sys.stderr)\n"
    "sys.exit(code)\n"
)


@dataclass(frozen=True)
class Row:
    notes: int
    full: float
    floor: float
    noop: float
    day: float  # make html after a day's digest
    day_reread: int  # documents Sphinx read for it
    day_notes: int
    largest: tuple[int, str]
    peak_html: int  # KiB, the full make html
    pdf: float  # make pdf from nothing: the volumes
    volumes: int
    publish: float  # make publish from nothing: the site and the whole book beside it
    peak_publish: int  # KiB
    runs: int
    load: tuple[float, float]  # 1-minute load average before and after the size
    commit: str


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def run(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> tuple[str, int]:
    """Run ``cmd``; its output and the peak memory (KiB) of its processes."""
    env = {**os.environ, **(env or {})}
    proc = subprocess.run([PYTHON, "-c", MEASURED, *cmd], cwd=cwd, capture_output=True, text=True, env=env)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    peak = int(re.findall(r"^maxrss=(\d+)$", proc.stderr, re.M)[-1])
    return proc.stdout, peak


def make(proj: Path, target: str, *variables: str, env: dict[str, str] | None = None) -> tuple[str, int]:
    # The copy uses this venv as it is: its set-up stamps count as current.
    keep = [arg for group in ("site", "test", "bench") for arg in ("-o", f"{VENV}/.installed-{group}")]
    return run(["make", "-C", str(proj), *keep, target, f"VENV={VENV}", "SPHINXOPTS=", *variables], env=env)


def reread(output: str) -> int:
    match = re.search(r"(\d+) added, (\d+) changed, (\d+) removed", output)
    return int(match.group(1)) + int(match.group(2)) if match else 0


def clean(proj: Path) -> None:
    shutil.rmtree(proj / "_build", ignore_errors=True)
    (proj / ".prnotes-cache").unlink(missing_ok=True)


def largest_page(html: Path) -> tuple[int, str]:
    pages = [(p.stat().st_size, p.relative_to(html).as_posix()) for p in html.rglob("*.html")]
    return max(pages)


def wait_for_quiet(limit: float) -> float:
    """Wait until the 1-minute load average is below ``limit``; the load then."""
    while True:
        load = os.getloadavg()[0]
        if load < limit:
            return load
        print(f"load average {load:.2f} >= {limit}: waiting 300 s", file=sys.stderr, flush=True)
        time.sleep(300)


def commit() -> str:
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return out.stdout.strip()


def bench_size(n: int, work: Path, runs: int, per_file: int, limit: float) -> Row:
    proj = copy_project(work / f"n{n}", generate_dense(n, per_file=per_file))
    subprocess.run(["git", "init", "-q"], cwd=proj, check=True)  # digests uncommitted: dates read, none found
    load_before = wait_for_quiet(limit)
    peaks: list[int] = []

    def full() -> None:
        clean(proj)
        peaks.append(make(proj, "html")[1])

    make(proj, "notes")
    floor = work / f"n{n}-floor"
    floor.mkdir()
    (floor / "conf.py").write_text(FLOOR_CONF, encoding="utf-8")
    shutil.copytree(proj / "notes", floor / "notes")
    shutil.copy2(proj / "index.md", floor / "index.md")

    def floor_build() -> None:
        shutil.rmtree(floor / "_build", ignore_errors=True)
        run([PYTHON, "-m", "sphinx", "-b", "html", "-q", "-j", "auto", str(floor), str(floor / "_build")])

    # Ours and the floor take turns, so a busy moment of the machine falls on both.
    full_times, floor_times = [], []
    for _ in range(runs):
        full_times.append(timed(full))
        floor_times.append(timed(floor_build))
    shutil.rmtree(floor, ignore_errors=True)
    largest = largest_page(proj / "_build" / "html")
    noop_s = statistics.median(timed(lambda: make(proj, "html")) for _ in range(runs))

    # A day's digest: added, built, taken away again (and built back), runs times.
    day = dense_day(n, per_file=per_file)
    seeds = proj / "seeds"
    prs_before = (seeds / "prs.toml").read_bytes()
    added = sorted(name for name in day if name != "prs.toml")
    day_times, day_out = [], []
    for _ in range(runs):
        for name in added:
            (seeds / name).write_text(day[name], encoding="utf-8")
        (seeds / "prs.toml").write_text(day["prs.toml"], encoding="utf-8")
        start = time.perf_counter()
        day_out.append(make(proj, "html")[0])
        day_times.append(time.perf_counter() - start)
        for name in added:
            (seeds / name).unlink()
        (seeds / "prs.toml").write_bytes(prs_before)
        make(proj, "html")

    # The PDF from nothing, as a PDF per volume.
    shutil.rmtree(proj / "_build" / "pdf", ignore_errors=True)
    shutil.rmtree(proj / "_build" / "latex", ignore_errors=True)
    pdf_s = timed(lambda: make(proj, "pdf"))
    volumes = len(list((proj / "_build" / "latex").glob("prnotes*.pdf")))

    publish_peak: list[int] = []

    def publish() -> None:
        clean(proj)
        # A build to publish names the site's address (else it warns, and fails).
        publish_peak.append(make(proj, "publish", env={"PRNOTES_BASEURL": "https://bench.invalid/"})[1])

    publish_s = timed(publish)
    row = Row(
        notes=n,
        full=statistics.median(full_times),
        floor=statistics.median(floor_times),
        noop=noop_s,
        day=statistics.median(day_times),
        day_reread=reread(day_out[-1]),
        day_notes=sum((len(day[name].strip().split("\n\n")) - 1) // 2 for name in added),
        largest=largest,
        peak_html=max(peaks),
        pdf=pdf_s,
        volumes=volumes,
        publish=publish_s,
        peak_publish=publish_peak[0],
        runs=runs,
        load=(load_before, os.getloadavg()[0]),
        commit=commit(),
    )
    shutil.rmtree(proj, ignore_errors=True)
    return row


def table(rows: list[Row]) -> str:
    base = next((r for r in rows if r.notes == 1000), None)
    head = [
        "| notes | full `make html` (s) | Sphinx floor (s) | ours / floor | no-op (s) | no-op / full "
        "| a day's digest (s) | re-read | day / day at 1,000 | largest page (KB) | peak memory, `make html` (MB) "
        "| `make pdf`: PDFs (s) | pdf / full | cold `make publish` (s) | peak memory, publish (MB) | runs | load before / after |",
        "|" + "---:|" * 17,
    ]
    body = []
    for r in rows:
        ratio = f"{r.day / base.day:.2f}" if base else "—"
        body.append(
            f"| {r.notes:,} | {r.full:.1f} | {r.floor:.1f} | {r.full / r.floor:.2f} | {r.noop:.1f} | {r.noop / r.full:.1%} "
            f"| {r.day:.1f} | {r.day_reread} | {ratio} | {r.largest[0] / 1024:,.0f} (`{r.largest[1]}`) "
            f"| {r.peak_html / 1024:,.0f} | {r.pdf:.1f} ({r.volumes}) | {r.pdf / r.full:.2f} | {r.publish:.1f} "
            f"| {r.peak_publish / 1024:,.0f} | {r.runs} | {r.load[0]:.1f} / {r.load[1]:.1f} |"
        )
    return "\n".join(head + body)


def load_rows(path: Path | None) -> dict[int, Row]:
    if path is None or not path.exists():
        return {}
    rows = {}
    for item in json.loads(path.read_text(encoding="utf-8")):
        item["largest"], item["load"] = tuple(item["largest"]), tuple(item["load"])
        rows[item["notes"]] = Row(**item)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000,10000,20000", help="comma-separated note counts")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--large-repeat", type=int, default=1, help="runs per figure above 1,000 notes")
    parser.add_argument("--per-file", type=int, default=16, help="notes per digest (default 16)")
    parser.add_argument("--wait-load", type=float, default=2.5, help="start a size only below this 1-minute load average")
    parser.add_argument("--results", type=Path, help="JSON file that keeps the rows, by size, across runs")
    parser.add_argument("--write", type=Path, help="replace the scale table of this Markdown file")
    args = parser.parse_args(argv)
    rows = load_rows(args.results)
    with tempfile.TemporaryDirectory(prefix="prnotes-bench-") as tmp:
        for n in (int(s) for s in args.sizes.split(",") if s):
            runs = args.repeat if n <= 1000 else args.large_repeat
            rows[n] = bench_size(n, Path(tmp), runs, args.per_file, args.wait_load)
            if args.results:
                args.results.write_text(json.dumps([asdict(r) for _, r in sorted(rows.items())], indent=1), encoding="utf-8")
            print(table([rows[n]]).split("\n")[-1], flush=True)
    result = table([r for _, r in sorted(rows.items())])
    print(result)
    if args.write:
        note = (
            f"`make bench` on {os.cpu_count()} cores, the dense archive (bench/corpus.py, digests of {args.per_file} notes); "
            f"median of {args.repeat} runs at 1,000 notes, {args.large_repeat} above; commits "
            + ", ".join(sorted({r.commit for r in rows.values()}))
            + " (bench/scale.py)."
        )
        replace_between(args.write, START, END, f"{note}\n\n{result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
