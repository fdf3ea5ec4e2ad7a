"""Scale benchmark: a day's work at 1,000, 2,000 and 5,000 synthetic notes.

    python -m bench.scale [--sizes 1000,2000,5000] [--repeat 3] [--large-repeat 1]
                          [--per-file 16] [--write BENCHMARKS.md]

For each N it generates a corpus of digests of ``--per-file`` notes
(bench/corpus.py) in a copy of the project and measures, with the real
``make html`` and ``make pdf`` of the copy:

- the conversion: entries per second from nothing, and a no-op conversion;
- a full ``make html`` from nothing (conversion included, ``-j auto``);
- the Sphinx floor: the same generated pages through bare Sphinx
  (myst_parser and sphinx_design, the basic theme, no sidebars, English
  search, ``-j auto``);
- the largest built HTML page, and the output bytes per note;
- a no-op ``make html``, one after editing one note's body, one after adding
  a digest of 10 notes on an ordinary day, and one after the digest that
  opens a volume (at a multiple of 500 notes), with the documents Sphinx
  read again;
- ``make pdf`` after ``make html``, from nothing: a PDF per volume, in
  parallel (one PDF, the whole book, for an archive of one volume); then
  again after a day's digest (only the newest volume); then the whole book
  in one PDF (``make pdf BOOK=whole``: from the HTML build's environment,
  LaTeX from nothing) and its page count;
- a cold publish as Read the Docs builds it: ``make publish`` from nothing,
  the site with the whole book typeset beside its writing, against the full
  build followed by the whole book.

Each figure is the median of ``--repeat`` runs (``--large-repeat`` above
1,000 notes). The table is printed; with ``--write`` it replaces the table
between the ``scale-table`` markers of that file, leaving the prose around it.
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
from bench.markers import replace_between
from prnotes.cli import main as cli_main
from prnotes.project import load
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
# An ordinary day's digest: its notes join subsystems the archive already has
# (the corpus's KV cache), so the site's navigation stays as it was. (The
# first note of a new subsystem adds it to every page's navigation, and every
# page is written again: a rare day, not this one.)
DIGEST = "vllm-project/vllm\n\n" + "\n\n".join(
    f"新增前缀缓存路径 {i} 的命中统计 (#{99000 + i})\n\n值得精读。重点看 `KVCacheManager.evict_{i}` 的回收顺序，结合 #{99000 + (i + 1) % 10} 看。后续跟进 `vllm/v1/core/kv_cache_utils.py` 的拆分。"
    for i in range(10)
) + "\n"


@dataclass(frozen=True)
class Row:
    notes: int
    convert_per_s: float
    convert_noop: float
    full: float
    floor: float
    noop: float
    edit: float
    add: float
    add_opening: float  # the first digest added to the N notes
    opened: bool  # whether it opened a volume
    reread: tuple[int, int, int, int]  # no-op, edit, add, add opening a volume
    largest: tuple[int, str]
    out_bytes: int
    pdf: float  # make pdf from nothing: the volumes
    pdf_day: float  # make pdf after a day's digest
    volumes: int
    whole: float  # make pdf BOOK=whole from nothing
    pdf_pages: int  # of the whole book
    publish: float  # make publish from nothing: the site and the whole book beside it
    runs: int

    @property
    def one_after_other(self) -> float:
        """The site from nothing, then the whole book: what ``make publish`` saves time on."""
        return self.full + self.whole


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median(fn, runs: int) -> float:
    return statistics.median(timed(fn) for _ in range(runs))


def run(cmd: list[str], cwd: Path | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return proc.stdout


def make(proj: Path, target: str, *variables: str) -> str:
    # The copy uses this venv as it is: its set-up stamps count as current.
    keep = [arg for group in ("site", "test", "bench") for arg in ("-o", f"{VENV}/.installed-{group}")]
    return run(["make", "-C", str(proj), *keep, target, f"VENV={VENV}", "SPHINXOPTS=", *variables])


def reread(output: str) -> int:
    match = re.search(r"(\d+) added, (\d+) changed, (\d+) removed", output)
    return int(match.group(1)) + int(match.group(2)) if match else 0


def clean(proj: Path) -> None:
    shutil.rmtree(proj / "_build", ignore_errors=True)
    (proj / ".prnotes-cache").unlink(missing_ok=True)


def largest_page(html: Path) -> tuple[int, str]:
    pages = [(p.stat().st_size, p.relative_to(html).as_posix()) for p in html.rglob("*.html")]
    return max(pages)


def tree_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def pdf_pages(pdf: Path) -> int:
    out = run(["pdfinfo", str(pdf)])
    return int(re.search(r"^Pages:\s+(\d+)", out, re.M).group(1))


def bench_size(n: int, work: Path, runs: int, per_file: int) -> Row:
    proj = copy_project(work / f"n{n}", generate(n, per_file=per_file))
    subprocess.run(["git", "init", "-q"], cwd=proj, check=True)  # digests uncommitted: dates read, none found

    def fresh_convert() -> None:
        shutil.rmtree(proj / "notes", ignore_errors=True)
        (proj / "index.md").unlink(missing_ok=True)
        clean(proj)
        assert cli_main(["notes", "--root", str(proj), "-q"]) == 0

    convert_s = median(fresh_convert, runs)
    convert_noop = median(lambda: cli_main(["notes", "--root", str(proj), "-q"]), runs)

    def full() -> None:
        clean(proj)
        make(proj, "html")

    # The converted pages, as the conversion above left them.
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
    full_s, floor_s = statistics.median(full_times), statistics.median(floor_times)

    html = proj / "_build" / "html"
    largest = largest_page(html)
    out_bytes = tree_bytes(html)
    noop_out = []
    noop_s = median(lambda: noop_out.append(make(proj, "html")), runs)

    first = sorted((proj / "seeds").glob("*.txt"))[0]
    edits = iter(range(100))

    def edit() -> None:
        text = first.read_text(encoding="utf-8").split("\n")
        text[4] += f"（补充说明 {next(edits)}。）"
        first.write_text("\n".join(text), encoding="utf-8")
        edit_out.append(make(proj, "html"))

    edit_out: list[str] = []
    edit_s = median(edit, runs)

    # The first digest added, which may open a volume (once every 500 notes or
    # so; the table says when). It stays; the ordinary day's digest is then
    # added and removed again, ``runs`` times.
    volumes_before = len(load(proj).volumes)
    opening = proj / "seeds" / "zzy_opening.txt"
    opening.write_text(DIGEST.replace("#990", "#980").replace("前缀缓存路径", "预取路径"), encoding="utf-8")
    start = time.perf_counter()
    opening_out = make(proj, "html")
    add_opening_s = time.perf_counter() - start
    opened = len(load(proj).volumes) > volumes_before

    add_out: list[str] = []
    added = proj / "seeds" / "zzz_new.txt"

    def add() -> None:
        added.unlink(missing_ok=True)
        make(proj, "html")  # back to the archive without the new digest
        added.write_text(DIGEST, encoding="utf-8")
        start = time.perf_counter()
        add_out.append(make(proj, "html"))
        times.append(time.perf_counter() - start)

    times: list[float] = []
    for _ in range(runs):
        add()
    add_s = statistics.median(times)

    # The PDF from nothing, as a PDF per volume; then a day's digest later.
    shutil.rmtree(proj / "_build" / "pdf", ignore_errors=True)
    shutil.rmtree(proj / "_build" / "latex", ignore_errors=True)
    pdf_s = median(lambda: make(proj, "pdf"), 1)
    volumes = len(list((proj / "_build" / "latex").glob("prnotes*.pdf")))
    (proj / "seeds" / "zzz_pdf_day.txt").write_text(DIGEST.replace("#990", "#970").replace("前缀缓存路径", "回收路径"), encoding="utf-8")
    make(proj, "html")
    pdf_day_s = median(lambda: make(proj, "pdf"), 1)
    # The whole book in one PDF, from nothing, as Read the Docs builds it.
    shutil.rmtree(proj / "_build" / "pdf" / "prnotes", ignore_errors=True)
    whole_s = median(lambda: make(proj, "pdf", "BOOK=whole"), 1)
    pages = pdf_pages(proj / "_build/latex/prnotes.pdf")

    def publish() -> None:
        clean(proj)
        make(proj, "publish")

    publish_s = median(publish, 1)
    return Row(
        notes=n,
        convert_per_s=n / convert_s,
        convert_noop=convert_noop,
        full=full_s,
        floor=floor_s,
        noop=noop_s,
        edit=edit_s,
        add=add_s,
        add_opening=add_opening_s,
        opened=opened,
        reread=(reread(noop_out[-1]), reread(edit_out[-1]), reread(add_out[-1]), reread(opening_out)),
        largest=largest,
        out_bytes=out_bytes,
        pdf=pdf_s,
        pdf_day=pdf_day_s,
        volumes=volumes,
        whole=whole_s,
        pdf_pages=pages,
        publish=publish_s,
        runs=runs,
    )


def table(rows: list[Row]) -> str:
    head = [
        "| notes | full `make html` (s) | Sphinx floor (s) | ours / floor | no-op (s) | no-op / full "
        "| edit one body (s) | add a 10-note digest (s) | add / full | first digest added (s) "
        "| re-read (no-op / edit / add / first) | largest page (KB) | bytes per note "
        "| conversion from nothing (entries/s) | no-op conversion (s) "
        "| `make pdf`: PDFs (s) | pdf / full | `make pdf` after a digest (s) | whole book (s) | whole / full "
        "| whole book's pages | HTML then whole book (s) | cold publish: `make publish` (s) | runs |",
        "|" + "---:|" * 24,
    ]
    body = [
        f"| {r.notes:,} | {r.full:.1f} | {r.floor:.1f} | {r.full / r.floor:.2f} | {r.noop:.1f} | {r.noop / r.full:.1%} "
        f"| {r.edit:.1f} | {r.add:.1f} | {r.add / r.full:.1%} | {r.add_opening:.1f}{' (opens a volume)' if r.opened else ''} "
        f"| {' / '.join(map(str, r.reread))} "
        f"| {r.largest[0] / 1024:,.0f} (`{r.largest[1]}`) | {r.out_bytes // r.notes:,} | {r.convert_per_s:,.0f} "
        f"| {r.convert_noop:.1f} | {r.pdf:.1f} ({r.volumes}) | {r.pdf / r.full:.2f} | {r.pdf_day:.1f} "
        f"| {r.whole:.1f} | {r.whole / r.full:.2f} | {r.pdf_pages:,} | {r.one_after_other:.1f} | {r.publish:.1f} | {r.runs} |"
        for r in rows
    ]
    return "\n".join(head + body)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,2000,5000", help="comma-separated note counts")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--large-repeat", type=int, default=1, help="runs per figure above 1,000 notes")
    parser.add_argument("--per-file", type=int, default=16, help="notes per digest (default 16, a day's digest)")
    parser.add_argument("--write", type=Path, help="replace the scale table of this Markdown file")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="prnotes-bench-") as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            runs = args.repeat if n <= 1000 else args.large_repeat
            rows.append(bench_size(n, Path(tmp), runs, args.per_file))
            print(table(rows[-1:]).split("\n")[-1], flush=True)
    result = table(rows)
    print(result)
    if args.write:
        note = (
            f"`make bench` on {os.cpu_count()} cores, sizes {args.sizes}, digests of {args.per_file} notes; "
            f"median of {args.repeat} runs up to 1,000 notes, {args.large_repeat} above (bench/scale.py)."
        )
        replace_between(args.write, START, END, f"{note}\n\n{result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
