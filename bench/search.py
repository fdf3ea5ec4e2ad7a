#!/usr/bin/env python3
"""Benchmark the site search at several sizes; compare it with Sphinx's own.

    .venv/bin/python -m bench.search [--sizes 16 1000 5000] [--runs 3]
        [--no-compare] [--write BENCHMARKS.md]

For each size (16 is the real seeds; larger sizes are synthetic notes from
bench/corpus.py) it converts and builds a copy of the project once and
reports: the search index size, in total and per note, next to the notes'
plain text (title, upstream title and advice, UTF-8); the build time spent
in search indexing (feeding pages to the indexer, writing searchindex.js);
the time from opening ``search.html?q=...`` in headless Chromium to the
last result on the page (median of ``--runs`` fresh tabs); what a note page
downloads before any search starts (the index is not part of it: it loads
when the reader opens the search dialog); and the time from the first
keystroke in the Ctrl+K dialog, the index loaded, to the first result listed
there (median over ``--runs`` tabs of each dialog query).

The comparison builds the real seeds with Sphinx's own Chinese search
(``html_search_language = "zh"``, jieba) and with the site's, and runs the
evaluation set (tests/search_eval.tsv) through the search page of each.

With ``--write FILE`` the tables go between the markers in the ``## Search``
section of FILE (the section is appended when missing).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from prnotes.cli import main as cli_main
from prnotes.project import load
from tests.support.searchbrowser import search_page
from tests.support.sandbox import ROOT, copy_project
from tests.support.searcheval import Ranked, load_cases, recall_at
from bench.markers import replace_between

QUERY = "前缀缓存"
# Typed key by key into the dialog: Chinese, an English word, an identifier.
DIALOG_QUERIES = ("前缀缓存", "prefix", "none_hash")


@dataclass(frozen=True)
class SizeRow:
    notes: int
    plain_bytes: int
    index_bytes: int
    index_gzip_bytes: int
    build_seconds: float
    search_build_seconds: float
    load_first_seconds: float
    load_query_seconds: float
    results: int
    note_page_bytes: int  # a note page and its assets, before any search
    dialog_ms: dict[str, float]  # query -> first keystroke to first result in the dialog


@dataclass(frozen=True)
class CompareRow:
    name: str
    recall1: float
    recall3: float
    index_bytes: int
    missed: tuple[str, ...]


def make_project(dest: Path, seeds: Path) -> Path:
    """A converted copy of the project with the given seeds folder."""
    copy_project(dest, seeds)
    assert cli_main(["notes", "--root", str(dest), "-q"]) == 0
    return dest


def plain_text_bytes(proj: Path) -> int:
    site = load(proj)
    return sum(len(f"{n.title}\n{n.upstream_title or ''}\n{n.body}".encode()) for n in site.notes)


class _SearchTimer:
    """Adds up the time the HTML builder spends on the search index."""

    def __init__(self) -> None:
        self.seconds = 0.0

    @contextlib.contextmanager
    def installed(self):
        from sphinx.builders.html import StandaloneHTMLBuilder

        originals = {name: getattr(StandaloneHTMLBuilder, name) for name in ("index_page", "dump_search_index")}

        def timed(fn):
            def wrapper(*args, **kwargs):
                start = time.perf_counter()
                try:
                    return fn(*args, **kwargs)
                finally:
                    self.seconds += time.perf_counter() - start

            return wrapper

        for name, fn in originals.items():
            setattr(StandaloneHTMLBuilder, name, timed(fn))
        try:
            yield self
        finally:
            for name, fn in originals.items():
                setattr(StandaloneHTMLBuilder, name, fn)


def build(proj: Path, lang: str | None = None) -> tuple[float, float]:
    """Build HTML with 2 processes, in a fresh Python; returns (total, search) seconds."""
    cmd = [sys.executable, "-m", "bench.search", "--build-one", str(proj)] + (["--lang", lang] if lang else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    # The last line: extensions may print to stdout while they load.
    total, search = out.strip().splitlines()[-1].split()
    return float(total), float(search)


def _build_here(proj: Path, **overrides) -> tuple[float, float]:
    from sphinx.application import Sphinx

    timer = _SearchTimer()
    warnings = io.StringIO()
    start = time.perf_counter()
    with timer.installed():
        app = Sphinx(
            proj,
            proj,
            proj / "_build/html",
            proj / "_build/doctrees",
            "html",
            parallel=2,
            confoverrides=overrides,
            status=io.StringIO(),
            warning=warnings,
            freshenv=True,
        )
        app.build()
    total = time.perf_counter() - start
    if app.statuscode or warnings.getvalue():
        raise SystemExit(f"build of {proj} failed or warned:\n{warnings.getvalue()}")
    return total, timer.seconds


def load_and_query(html: Path, runs: int) -> tuple[float, float, int]:
    """Medians over fresh tabs: (to the first result, to the last), result count."""
    found = []
    with search_page(html) as tab:
        for _ in range(runs):
            tab.fresh()
            found.append(tab.search(QUERY))
    return (
        statistics.median(r.first_seconds for r in found),
        statistics.median(r.seconds for r in found),
        len(found[-1].docnames),
    )


def note_page_bytes(html: Path) -> int:
    """Bytes a first visit to a note page downloads (page and assets, empty cache) before any search."""
    note = sorted(p for p in html.glob("notes/*/*/pr-*.html"))[0].relative_to(html).as_posix()
    sizes = []
    with search_page(html, timeout=120_000) as tab:
        tab.fresh()
        tab.page.on("response", lambda response: sizes.append(response))
        tab.page.goto(tab.base_url + note)
        tab.page.wait_for_load_state("networkidle")
        total = sum(len(r.body()) for r in sizes)
        assert not any(r.url.endswith("searchindex.js") for r in sizes), "a note page loaded the index"
    return total


def dialog_times(html: Path, runs: int) -> dict[str, float]:
    """Median ms from the first keystroke to the first result in the dialog, the index loaded."""
    note = sorted(p for p in html.glob("notes/*/*/pr-*.html"))[0].relative_to(html).as_posix()
    times: dict[str, list[float]] = {q: [] for q in DIALOG_QUERIES}
    with search_page(html, timeout=120_000) as tab:
        for _ in range(runs):
            tab.fresh()
            for query in DIALOG_QUERIES:
                times[query].append(tab.dialog_search(query, note).milliseconds)
    return {q: statistics.median(t) for q, t in times.items()}


def measure_size(work: Path, notes: int, runs: int) -> SizeRow:
    if notes == 16:
        seeds = ROOT / "seeds"
    else:
        corpus = work / f"corpus-{notes}"
        subprocess.run([sys.executable, "-m", "bench.corpus", "--notes", str(notes), "--out", str(corpus)], check=True)
        seeds = corpus / "seeds"
    proj = make_project(work / f"site-{notes}", seeds)
    count = len(load(proj).notes)
    total, search = build(proj)
    index = (proj / "_build/html/searchindex.js").read_bytes()
    first, last, results = load_and_query(proj / "_build/html", runs)
    return SizeRow(
        notes=count,
        plain_bytes=plain_text_bytes(proj),
        index_bytes=len(index),
        index_gzip_bytes=len(gzip.compress(index, 9, mtime=0)),
        build_seconds=total,
        search_build_seconds=search,
        load_first_seconds=first,
        load_query_seconds=last,
        results=results,
        note_page_bytes=note_page_bytes(proj / "_build/html"),
        dialog_ms=dialog_times(proj / "_build/html", runs),
    )


def compare(work: Path) -> list[CompareRow]:
    cases = load_cases(ROOT / "tests/search_eval.tsv")
    rows = []
    for name, lang in (("Sphinx zh (jieba)", "zh"), ("zh_prnotes (bigrams)", "zh_prnotes")):
        proj = make_project(work / f"compare-{lang}", ROOT / "seeds")
        build(proj, lang)
        html = proj / "_build/html"
        with search_page(html) as tab:
            ranked = [Ranked(c, tab.search(c.query).docnames) for c in cases]
        missed = tuple(r.case.query for r in ranked if not (r.rank and r.rank <= 3))
        rows.append(CompareRow(name, recall_at(ranked, 1), recall_at(ranked, 3), (html / "searchindex.js").stat().st_size, missed))
    return rows


def kib(n: int) -> str:
    return f"{n / 1024:,.1f} KiB"


def size_table(rows: list[SizeRow], runs: int) -> str:
    lines = [
        "| notes | plain text | index | index / text | index gzip | index per note | build | of which search | load + query: first result | all results listed |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r.notes:,} | {kib(r.plain_bytes)} | {kib(r.index_bytes)} | {r.index_bytes / r.plain_bytes:.2f}× "
            f"| {kib(r.index_gzip_bytes)} | {r.index_bytes / r.notes:,.0f} B | {r.build_seconds:.1f} s "
            f"| {r.search_build_seconds:.2f} s | {r.load_first_seconds * 1000:,.0f} ms "
            f"| {r.load_query_seconds * 1000:,.0f} ms ({r.results} results) |"
        )
    lines.append("")
    queries = " | ".join(f"dialog: `{q}`" for q in DIALOG_QUERIES)
    lines += [
        "",
        f"| notes | note page before a search | before this change (with the index) | {queries} |",
        "| ---: | ---: | ---: |" + " ---: |" * len(DIALOG_QUERIES),
    ]
    for r in rows:
        times = " | ".join(f"{r.dialog_ms[q]:,.0f} ms" for q in DIALOG_QUERIES)
        lines.append(f"| {r.notes:,} | {kib(r.note_page_bytes)} | {kib(r.note_page_bytes + r.index_bytes)} | {times} |")
    lines.append("")
    lines.append(
        "Note page: a first visit (empty cache) to a note page, page and assets until the network is idle;"
        " uncompressed, as the test server sends it. Before this change every page loaded searchindex.js"
        " with it as well. Dialog: from the first"
        " keystroke to the first result listed, the query typed key by key into the Ctrl+K dialog of a note"
        " page once the index has loaded, median of the tabs."
    )
    lines.append("")
    lines.append(
        f"Query: `{QUERY}`, opened as `search.html?q=...` in a fresh tab (empty cache); times from navigation start,"
        f" median of {runs} tabs. The build runs with 2 processes; \"of which search\" is the time the builder"
        " spends feeding pages to the indexer and writing `searchindex.js`."
    )
    return "\n".join(lines)


def compare_table(rows: list[CompareRow], cases: int) -> str:
    lines = [
        f"Evaluation set: {cases} queries (`tests/search_eval.tsv`), real seeds (16 notes), through the search page in headless Chromium.",
        "",
        "| search | recall@1 | recall@3 | index | missed (not in top 3) |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        missed = "、".join(f"`{q}`" for q in r.missed) or "—"
        lines.append(f"| {r.name} | {r.recall1:.3f} | {r.recall3:.3f} | {kib(r.index_bytes)} | {missed} |")
    return "\n".join(lines)


BEGIN, END = "<!-- bench_search.py: begin -->", "<!-- bench_search.py: end -->"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 1000, 5000])
    parser.add_argument("--runs", type=int, default=3, help="fresh tabs per size (default 3)")
    parser.add_argument("--no-compare", action="store_true", help="skip the comparison with Sphinx's zh search")
    parser.add_argument("--write", type=Path, help="write the tables into the '## Search' section of this Markdown file")
    parser.add_argument("--build-one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--lang", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.build_one:
        # jieba (Sphinx's zh search) caches its dictionary in the temp dir.
        tempfile.tempdir = str(args.build_one)
        overrides = {"html_search_language": args.lang} if args.lang else {}
        print(*_build_here(args.build_one, **overrides))
        return 0

    with tempfile.TemporaryDirectory(prefix="bench-search-") as tmp:
        work = Path(tmp)
        rows = []
        for n in args.sizes:
            rows.append(measure_size(work, n, args.runs))
            print(f"measured {rows[-1].notes} notes", file=sys.stderr)
        out = [size_table(rows, args.runs)]
        if not args.no_compare:
            cases = len(load_cases(ROOT / "tests/search_eval.tsv"))
            out.append(compare_table(compare(work), cases))
    report = "\n\n".join(out)
    print(report)
    if args.write:
        replace_between(args.write, BEGIN, END, report, section="Search")
    return 0


if __name__ == "__main__":
    sys.exit(main())
