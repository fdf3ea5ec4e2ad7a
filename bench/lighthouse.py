#!/usr/bin/env python3
"""Lighthouse (mobile) scores of the landing page, a note, a list page and the search page.

    .venv/bin/python -m bench.lighthouse [--site DIR] [--runs 3] [--plain] [--lighthouse PATH]

Serves a built site (by default ``_build/html``, from ``make html``) on
127.0.0.1 and runs Lighthouse on each page ``--runs`` times, in its default
mobile mode (a Moto G Power's screen, simulated slow 4G, the CPU slowed
fourfold) with the Debian Chromium (``CHROME_PATH``, default
``/usr/bin/chromium``); prints the median score of each category, and of the
paint and layout-shift figures behind the performance score, and Lighthouse's
``benchmarkIndex`` of the machine during the runs (CPU index: a machine busy
with other work scores lower, and its main-thread times, TBT above all, grow).

The site is served as GitHub Pages and Read the Docs serve it: text
responses gzip-compressed, with ``Cache-Control: max-age=600``.
``--plain`` serves it as ``python -m http.server`` does (nothing
compressed), which is not how a reader gets it: Lighthouse then counts the
full size of every stylesheet against the first paint.

Lighthouse is not a dependency of the project: install it anywhere
(``npm install lighthouse`` in a scratch folder) and give its ``lighthouse``
command with ``--lighthouse`` (default: ``lighthouse`` on ``PATH``).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# The figures behind the performance score, as Lighthouse names its audits.
METRICS = (
    ("first-contentful-paint", "FCP", "ms"),
    ("largest-contentful-paint", "LCP", "ms"),
    ("total-blocking-time", "TBT", "ms"),
    ("cumulative-layout-shift", "CLS", ""),
    ("speed-index", "SI", "ms"),
)
# Compressed on the way out, as the hosts do.
TEXT = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt")


def pages(site: Path) -> list[tuple[str, str]]:
    """(kind, path) of the pages to score: the first note and the first subsystem page, in name order."""
    note = min(p for p in site.glob("notes/*/*/pr-*.html"))
    listing = min(site.glob("notes/subsystem/*.html"))
    return [
        ("landing", "index.html"),
        ("note", note.relative_to(site).as_posix()),
        ("list", listing.relative_to(site).as_posix()),
        ("search", "search.html"),
    ]


class _Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, compress: bool, **kwargs):
        self.compress = compress
        super().__init__(*args, **kwargs)

    def log_message(self, format, *args):  # noqa: A002 - the stdlib's name
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        wants = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (self.compress and wants and path.suffix in TEXT and path.is_file()):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def end_headers(self):
        if self.compress:
            self.send_header("Cache-Control", "max-age=600")
        super().end_headers()


def serve(site: Path, compress: bool) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_Handler, directory=str(site), compress=compress)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def run_once(lighthouse: str, url: str, out: Path) -> dict:
    """One Lighthouse run: category scores (0–100) and the metrics, from its JSON report."""
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    cmd = [
        lighthouse,
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        "--only-categories=" + ",".join(CATEGORIES),
        "--chrome-flags=--headless --no-sandbox --disable-gpu",
    ]
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    report = json.loads(out.read_text(encoding="utf-8"))
    result = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    for audit, _, _ in METRICS:
        result[audit] = report["audits"][audit]["numericValue"]
    # Lighthouse's measure of the machine's speed during the run: a busy machine
    # scores lower and stretches the main thread's tasks (TBT) with it.
    result["benchmark"] = report["environment"]["benchmarkIndex"]
    # The weighed audits short of a full score, by name.
    scores = {
        ref["id"]: report["audits"][ref["id"]]["score"]
        for cat in report["categories"].values()
        for ref in cat["auditRefs"]
        if ref["weight"] > 0
    }
    result["failing"] = sorted(audit for audit, score in scores.items() if score is not None and score < 1)
    return result


def figure(value: float, unit: str) -> str:
    return f"{value:,.0f} {unit}" if unit else f"{value:.3f}"


def table(rows: list[tuple[str, str, list[dict]]]) -> str:
    head = ["page", "kind", *CATEGORIES, *(name for _, name, _ in METRICS), "CPU index"]
    lines = ["| " + " | ".join(head) + " |", "| --- | --- |" + " ---: |" * (len(head) - 2)]
    for kind, path, runs in rows:
        cells = [f"`{path}`", kind]
        cells += [str(round(statistics.median(r[c] for r in runs))) for c in CATEGORIES]
        cells += [figure(statistics.median(r[a] for r in runs), unit) for a, _, unit in METRICS]
        cells.append(f"{statistics.median(r['benchmark'] for r in runs):,.0f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "_build" / "html", help="the built site (default _build/html)")
    parser.add_argument("--runs", type=int, default=3, help="runs per page; the table gives medians (default 3)")
    parser.add_argument("--plain", action="store_true", help="serve nothing compressed, as python -m http.server does")
    parser.add_argument("--lighthouse", default=shutil.which("lighthouse") or "lighthouse", help="the lighthouse command")
    parser.add_argument("--keep", type=Path, help="keep Lighthouse's JSON reports in this folder")
    parser.add_argument("--minimum", type=int, default=95, help="exit 1 when a median score is below this (default 95)")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        raise SystemExit(f"{args.site} holds no built site; run make html first")
    server, base = serve(args.site, compress=not args.plain)
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as tmp:
            reports = args.keep or Path(tmp)
            reports.mkdir(parents=True, exist_ok=True)
            for kind, path in pages(args.site):
                runs = [run_once(args.lighthouse, base + path, reports / f"{kind}-{i}.json") for i in range(args.runs)]
                short = sorted({audit for run in runs for audit in run["failing"]})
                if short:
                    print(f"{path}: short of a full score in a run: {', '.join(short)}", file=sys.stderr)
                rows.append((kind, path, runs))
    finally:
        server.shutdown()
        server.server_close()
    print(table(rows))
    low = [
        (path, c)
        for _, path, runs in rows
        for c in CATEGORIES
        if statistics.median(r[c] for r in runs) < args.minimum
    ]
    for path, c in low:
        print(f"{path}: {c} under {args.minimum}", file=sys.stderr)
    return 1 if low else 0


if __name__ == "__main__":
    sys.exit(main())
