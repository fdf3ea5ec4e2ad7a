"""The PDF book (``prnotes pdf``), built in four steps:

1. stage the selected notes' pages, with a book root page, in
   ``_build/pdf/<name>/src`` (only changed pages are rewritten);
2. run Sphinx's LaTeX builder on them with the project's ``conf.py``;
3. run latexmk (xelatex, then xdvipdfmx once);
4. fail if the xelatex log reports a missing glyph, else copy the PDF to
   ``_build/latex/<name>.pdf``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .project import load
from .render.book import render_book
from .subset import Selection, parse_selection, select
from .write import apply, plan

TEX_NAME = "prnotes"  # latex_documents in conf.py
MISSING_CHAR = re.compile(r"^Missing character: .*$", re.MULTILINE)
XELATEX_RUN = re.compile(r"Run number \d+ of rule '(?:xe|pdf)?latex")


class BuildError(Exception):
    """A step failed; the message says which and why."""


@dataclass(frozen=True)
class Book:
    """Where one edition of the book is built and what it ended up as."""

    pdf: Path
    log: Path
    notes: int
    timings: tuple[tuple[str, float], ...]
    xelatex_runs: int  # 0 when the PDF was up to date


def missing_characters(log_text: str) -> list[str]:
    """The xelatex log's "Missing character" lines, without repeats, sorted."""
    return sorted(set(MISSING_CHAR.findall(log_text)))


def stage(root: Path, selection: Selection, src: Path) -> tuple[int, str]:
    """Write the book's pages to ``src``; return the note count and the scope text."""
    site = select(load(root), selection)
    if not site.notes:
        raise BuildError("the selection holds no notes; nothing to build")
    pages = render_book(site)
    src.mkdir(parents=True, exist_ok=True)
    apply(src, pages, plan(src, pages))
    return len(site.notes), selection.describe(site.taxonomy, len(site.notes))


def _run(cmd: list[str], cwd: Path, env: dict[str, str], what: str) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        raise BuildError(f"{what} failed (exit {proc.returncode}):\n{proc.stdout[-6000:]}")
    return proc.stdout


def build_book(root: Path, selection: Selection, parallel: str = "auto") -> Book:
    """Build one edition; raises :class:`BuildError` or :class:`InputError`."""
    work = root / "_build" / "pdf" / selection.name
    src, latex = work / "src", work / "latex"
    env = dict(os.environ)
    timings = []

    start = time.perf_counter()
    count, scope = stage(root, selection, src)
    timings.append(("stage", time.perf_counter() - start))

    start = time.perf_counter()
    _run(
        [
            sys.executable, "-m", "sphinx", "-b", "latex", "-W", "--keep-going", "-q", "-j", parallel,
            "-c", str(root), "-d", str(work / "doctrees"), "-D", f"release={scope}", str(src), str(latex),
        ],
        root, env, "sphinx-build -b latex",
    )  # fmt: skip
    timings.append(("sphinx", time.perf_counter() - start))

    # -xelatex: every pass writes .xdv and xdvipdfmx makes the PDF once at the
    # end, where Sphinx's Makefile (-pdf) makes one per pass; see BENCHMARKS.md.
    start = time.perf_counter()
    output = _run(
        ["latexmk", "-xelatex", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error", f"{TEX_NAME}.tex"],
        latex, env, "latexmk (xelatex)",
    )  # fmt: skip
    timings.append(("xelatex", time.perf_counter() - start))

    log = latex / f"{TEX_NAME}.log"
    missing = missing_characters(log.read_text(encoding="utf-8", errors="replace"))
    if missing:
        raise BuildError(f"{log}: {len(missing)} missing glyph(s):\n" + "\n".join(missing))
    out = root / "_build" / "latex" / f"{selection.name}.pdf"
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(latex / f"{TEX_NAME}.pdf", out)
    return Book(pdf=out, log=log, notes=count, timings=tuple(timings), xelatex_runs=len(XELATEX_RUN.findall(output)))
