#!/usr/bin/env python3
"""Benchmark the site search at several sizes: what a query transfers and how soon it answers.

    .venv/bin/python -m bench.search [--sizes 1000 5000 20000] [--runs 3]
        [--work DIR [--no-build]] [--compare] [--long-queries] [--write BENCHMARKS.md]

For each size (16 is the real seeds; larger sizes are synthetic archives of
bench/corpus.py) it converts and builds a copy of the project (or, with
``--work DIR`` holding a site built before, builds it again, which writes the
search files anew; ``--no-build`` measures it as it is) and reports:

- the whole index (``searchindex.js``, which no page loads) and the split
  index: files, the entry's size, the median and largest term chunk;
- a first query, each in a fresh browser context (empty cache), typed key by
  key into the search dialog of a note page right after Ctrl+K opens it:
  every byte fetched from the keystroke on (the entry, the search script,
  chunks, buckets, shards, snippet texts), uncompressed and gzipped (level
  6, as a web server would send it; the test server sends it plain), and the
  time from the first keystroke to the first result listed;
- a further query in the same tab: the bytes it adds;
- the search page (``search.html?q=…``) opened in a fresh context: bytes and
  time to the first result;
- a note page's first visit, before any search: every response, plain and
  gzipped.

With ``--long-queries``, on the real seeds' site: the stages of a search that
read only the query's text, for five shapes of query at 20,000, 40,000 and
80,000 characters (the least of five runs each; linear work gives a ratio of
about 4 from 20,000 to 80,000, quadratic work 16), and an 80,000-character
query sent from the search page's field, from the submit to the results
listed (the page cuts it first).

Medians over ``--runs`` rounds of the queries. ``--compare`` also runs the
evaluation set (tests/search_eval.tsv) through the search page of the real
seeds. With ``--write FILE`` the tables go between the markers in the
``## Search`` section of FILE.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from prnotes.commands.cli import main as cli_main
from bench.markers import replace_between
from tests.support.sandbox import PROJECT_FILES, ROOT, copy_project
from tests.support.searchbrowser import SUBMIT_TIMED, TIME_TEXT_WORK, long_queries, search_page
from tests.support.searcheval import Ranked, load_cases, recall_at

# First queries: Chinese, an English word, an identifier, two words, a
# question (words that the synthetic archives of bench/corpus.py have too).
FIRST_QUERIES = ("前缀缓存", "kernel", "none_hash", "投机解码 draft", "怎么修复浅克隆的竞态")
FURTHER_QUERIES = ("权重加载", "fused_moe", "ROCm CI")
_WATCH = """
() => {
  window.__prnotesFirst = null;
  const seen = new MutationObserver(() => {
    const list = document.getElementById("prnotes-dialog-list");
    if (window.__prnotesFirst === null && list && list.querySelector("a.prnotes-dialog-result:not(.prnotes-dialog-all)")) {
      window.__prnotesFirst = performance.now();
      seen.disconnect();
    }
  });
  seen.observe(document.getElementById("pst-search-dialog"), {childList: true, subtree: true});
}
"""
# The dialog answers what the field holds, and every listed result has its snippet.
_SETTLED = """
() => {
  const list = document.getElementById("prnotes-dialog-list");
  const field = document.querySelector("#pst-search-dialog input[name=q]");
  if (!list || list.dataset.query !== field.value.trim()) return false;
  const rows = [...list.querySelectorAll("a.prnotes-dialog-result:not(.prnotes-dialog-all)")];
  return rows.every((row) => row.querySelector(".prnotes-dialog-snippet"));
}
"""


@dataclass
class Transfer:
    raw: int = 0
    gzip: int = 0
    files: int = 0

    def add(self, body: bytes) -> None:
        self.raw += len(body)
        self.gzip += len(gzip.compress(body, 6, mtime=0))
        self.files += 1


@dataclass
class SizeRow:
    notes: int
    pages: int
    whole: Transfer
    split_files: int
    entry: Transfer
    chunk_gzip_median: int
    chunk_gzip_max: int
    first: list[Transfer] = field(default_factory=list)
    first_ms: list[float] = field(default_factory=list)
    further: list[Transfer] = field(default_factory=list)
    page_search: list[Transfer] = field(default_factory=list)
    page_search_ms: list[float] = field(default_factory=list)
    note_page: Transfer = field(default_factory=Transfer)
    build_seconds: float = 0.0


def make_project(dest: Path, seeds: Path) -> Path:
    copy_project(dest, seeds)
    assert cli_main(["notes", "--root", str(dest), "-q"]) == 0
    return dest


def refresh(proj: Path) -> None:
    """Bring a site built before up to the project's configuration, templates and static files."""
    import shutil

    for name in PROJECT_FILES:
        src, target = ROOT / name, proj / name
        if src.is_dir():
            shutil.copytree(src, target, dirs_exist_ok=True)
        elif src.exists():
            shutil.copy2(src, target)


def build(proj: Path) -> float:
    """sphinx-build -j 2 in a fresh Python; seconds."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-j", "2", "-b", "html", str(proj), str(proj / "_build/html")],
        check=True, cwd=ROOT, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    return time.perf_counter() - start


def _note(html: Path) -> str:
    return sorted(p for p in html.glob("notes/*/*/pr-*.html"))[0].relative_to(html).as_posix()


def _recording(tab) -> list:
    responses: list = []
    tab.page.on("response", lambda r: responses.append(r))
    return responses


def _total(responses) -> Transfer:
    total = Transfer()
    for response in responses:
        try:
            total.add(response.body())
        except Exception:  # a redirect or an aborted fetch has no body
            pass
    return total


def dialog_queries(html: Path, row: SizeRow, runs: int) -> None:
    """First queries on a cold cache and further queries, in the dialog of a note page."""
    note = _note(html)
    with search_page(html, timeout=120_000) as tab:
        for _ in range(runs):
            for i, query in enumerate(FIRST_QUERIES):
                tab.fresh()
                tab.page.goto(tab.base_url + note)
                tab.page.wait_for_load_state("networkidle")
                responses = _recording(tab)
                tab.page.evaluate(_WATCH)
                tab.page.keyboard.press("Control+k")
                field = tab.page.locator("#pst-search-dialog input[name=q]")
                start = tab.page.evaluate("() => performance.now()")
                field.press_sequentially(query)
                tab.guard.wait_for(tab.page, _SETTLED, tab.timeout)
                first = tab.page.evaluate("() => window.__prnotesFirst")
                if first is None:
                    raise SystemExit(f"bench.search: {query!r} found nothing in the {row.notes}-note site")
                row.first_ms.append(first - start)
                row.first.append(_total(responses))
                further = FURTHER_QUERIES[i % len(FURTHER_QUERIES)]
                responses.clear()
                field.fill("")
                field.press_sequentially(further)
                tab.guard.wait_for(tab.page, _SETTLED, tab.timeout)
                row.further.append(_total(responses))


def search_page_queries(html: Path, row: SizeRow, runs: int) -> None:
    with search_page(html, timeout=120_000) as tab:
        for _ in range(runs):
            for query in FIRST_QUERIES:
                tab.fresh()
                responses = _recording(tab)
                result = tab.search(query)
                tab.page.wait_for_load_state("networkidle")
                row.page_search_ms.append(result.first_seconds * 1000)
                # The page itself and its theme assets are not the search's.
                row.page_search.append(_total([r for r in responses if "/_search/" in r.url]))


def note_page(html: Path) -> Transfer:
    """A first visit to a note page (empty cache), page and assets until the network is idle."""
    with search_page(html, timeout=120_000) as tab:
        tab.fresh()
        responses = _recording(tab)
        tab.page.goto(tab.base_url + _note(html))
        tab.page.wait_for_load_state("networkidle")
        assert not [r.url for r in responses if "/_search/" in r.url or "searchindex.js" in r.url], "a note page loaded the search"
        return _total(responses)


def split_sizes(html: Path) -> tuple[int, Transfer, int, int]:
    root = html / "_search"
    entry_bytes = (root / "entry.json").read_bytes()
    version = json.loads(entry_bytes)["version"]
    files = [p for p in (root / version).rglob("*.json")]
    chunks = sorted(len(gzip.compress(p.read_bytes(), 6, mtime=0)) for p in (root / version / "t").glob("*.json"))
    entry = Transfer()
    entry.add(entry_bytes)
    return len(files), entry, int(statistics.median(chunks)), chunks[-1]


def measure_size(work: Path, notes: int, runs: int, rebuild: bool = True) -> SizeRow:
    proj = work / f"site-{notes}"
    seconds = float("nan")
    if not (proj / "conf.py").is_file():
        if notes == 16:
            seeds = ROOT / "seeds"
        else:
            corpus = work / f"corpus-{notes}"
            subprocess.run([sys.executable, "-m", "bench.corpus", "--notes", str(notes), "--out", str(corpus)], check=True)
            seeds = corpus / "seeds"
        make_project(proj, seeds)
        seconds = build(proj)
    elif rebuild:
        refresh(proj)
        seconds = build(proj)
    html = proj / "_build/html"
    whole = Transfer()
    whole.add((html / "searchindex.js").read_bytes())
    files, entry, chunk_median, chunk_max = split_sizes(html)
    counts = json.loads((html / "_search/entry.json").read_text(encoding="utf-8"))
    row = SizeRow(
        notes=counts["notes"],
        pages=counts["pages"],
        whole=whole,
        split_files=files,
        entry=entry,
        chunk_gzip_median=chunk_median,
        chunk_gzip_max=chunk_max,
        build_seconds=seconds,
    )
    dialog_queries(html, row, runs)
    search_page_queries(html, row, runs)
    row.note_page = note_page(html)
    return row


def compare(work: Path) -> tuple[float, float, int]:
    cases = load_cases(ROOT / "tests/search_eval.tsv")
    proj = work / "site-16"
    if not (proj / "_build/html/_search").is_dir():
        make_project(proj, ROOT / "seeds")
        build(proj)
    with search_page(proj / "_build/html") as tab:
        ranked = [Ranked(c, tab.search(c.query).docnames) for c in cases]
    return recall_at(ranked, 1), recall_at(ranked, 3), len(cases)


def kib(n: float) -> str:
    return f"{n / 1024:,.1f} KiB"


def _median(values) -> float:
    return statistics.median(values) if values else float("nan")


def size_table(rows: list[SizeRow], runs: int) -> str:
    lines = [
        "| notes | pages | whole index (gzip) | split files | entry (gzip) | term chunk gzip: median / largest | build |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r.notes:,} | {r.pages:,} | {kib(r.whole.raw)} ({kib(r.whole.gzip)}) | {r.split_files:,} "
            f"| {r.entry.raw:,} B ({r.entry.gzip:,} B) | {kib(r.chunk_gzip_median)} / {kib(r.chunk_gzip_max)} "
            f"| {'—' if r.build_seconds != r.build_seconds else f'{r.build_seconds:,.0f} s'} |"
        )
    lines += [
        "",
        "| notes | first query: gzip (plain), median / largest | first query: files | first result after the keystroke, median / largest | further query: gzip, median / largest | search page: gzip, median | search page: first result, median | note page first visit: gzip (plain) |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        first_gz = [t.gzip for t in r.first]
        lines.append(
            f"| {r.notes:,} | {kib(_median(first_gz))} ({kib(_median([t.raw for t in r.first]))}) / {kib(max(first_gz))} "
            f"| {_median([t.files for t in r.first]):.0f} "
            f"| {_median(r.first_ms):,.0f} ms / {max(r.first_ms):,.0f} ms "
            f"| {kib(_median([t.gzip for t in r.further]))} / {kib(max(t.gzip for t in r.further))} "
            f"| {kib(_median([t.gzip for t in r.page_search]))} | {_median(r.page_search_ms):,.0f} ms "
            f"| {kib(r.note_page.gzip)} ({kib(r.note_page.raw)}) |"
        )
    queries = ", ".join(f"`{q}`" for q in FIRST_QUERIES)
    further = ", ".join(f"`{q}`" for q in FURTHER_QUERIES)
    lines += [
        "",
        f"First queries: {queries}, each typed key by key into the dialog of a note page right after Ctrl+K opened it,"
        " in a fresh browser context (empty cache), from a local server; bytes are every response from the keystroke"
        " until the results and their snippets are listed (entry, script, chunks, buckets, shards, snippet texts),"
        " gzipped at level 6 as a web server would send them. Further query: one of"
        f" {further} typed next in the same tab. Search page: `search.html?q=` with the first queries, the"
        f" search's own files only. {runs} round(s) of the queries; build: `sphinx-build -j 2` of the"
        " copy (a second build when the site was built before).",
    ]
    return "\n".join(lines)


LONG_LENGTHS = (20_000, 40_000, 80_000)


def long_query_table(html: Path) -> str:
    """The query's text stages at three lengths, and an 80,000-character query answered, per shape."""
    lines = [
        "| query shape | text stages, 20,000 chars | 40,000 | 80,000 | ratio 80,000 / 20,000 | 80,000 sent to answered |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    with search_page(html) as tab:
        tab.search("前缀缓存")
        for shape in long_queries(10):
            queries = [long_queries(n)[shape] for n in LONG_LENGTHS]
            tab.evaluate(TIME_TEXT_WORK, queries[0])  # compiled once, not counted
            times = [tab.evaluate(TIME_TEXT_WORK, q) for q in queries]
            answered = tab.evaluate(SUBMIT_TIMED, queries[-1])
            cells = " | ".join(f"{t:,.1f} ms" for t in times)
            lines.append(f"| {shape} | {cells} | {times[2] / max(times[0], 0.1):.1f} | {answered:,.0f} ms |")
    return "\n".join(lines)


BEGIN, END = "<!-- bench_search.py: begin -->", "<!-- bench_search.py: end -->"
LONG_BEGIN, LONG_END = "<!-- long-queries:begin -->", "<!-- long-queries:end -->"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 5000, 20000], help="corpus sizes in notes (16: the real seeds)")
    parser.add_argument("--runs", type=int, default=1, help="rounds of the queries per size (default 1)")
    parser.add_argument("--work", type=Path, help="keep the corpora and sites here (built again when present)")
    parser.add_argument("--no-build", action="store_true", help="measure the sites found in --work as they are")
    parser.add_argument("--compare", action="store_true", help="also run the evaluation set on the real seeds")
    parser.add_argument("--long-queries", action="store_true", help="also time long queries on the real seeds' site")
    parser.add_argument("--write", type=Path, help="write the tables into the '## Search' section of this Markdown file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-search-") as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        rows = []
        for n in args.sizes:
            rows.append(measure_size(work, n, args.runs, rebuild=not args.no_build))
            print(f"measured {rows[-1].notes} notes", file=sys.stderr)
        out = [size_table(rows, args.runs)] if rows else []
        if args.compare:
            r1, r3, cases = compare(work)
            out.append(f"Evaluation set, real seeds, search page: {cases} queries, recall@1 {r1:.3f}, recall@3 {r3:.3f}.")
        if args.long_queries:
            proj = work / "site-long-queries"
            if not (proj / "_build/html/search.html").exists():
                make_project(proj, ROOT / "seeds")
                build(proj)
            long = long_query_table(proj / "_build/html")
            print(long)
            if args.write:
                replace_between(args.write, LONG_BEGIN, LONG_END, long)
    if out:
        report = "\n\n".join(out)
        print(report)
        if args.write:
            replace_between(args.write, BEGIN, END, report, section="Search")
    return 0


if __name__ == "__main__":
    sys.exit(main())
