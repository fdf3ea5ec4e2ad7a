"""The PDF book (``prnotes pdf``): the whole book, a book of some notes, or the volumes.

An archive of several volumes (:data:`prnotes.model.site.VOLUME_NOTES` notes
each) is built by default as one book per volume, ``_build/latex/prnotes-vN.pdf``
(:func:`build_volumes`): in parallel processes, and only the volumes whose
pages, dates, code or settings changed since their last build, so that a
day's digest typesets its own volume and not the archive. References to a
note in another volume link to GitHub. The whole book (``--whole``, and
Read the Docs, which offers one PDF) holds every note; an archive of one
volume gets the whole book.

Each book is built in four steps:

1. the whole book is the site's own pages from ``notes/book`` down (converted
   first, as ``prnotes notes`` does, so they match the seeds); a book of
   some notes stages their pages, with a book root page, in
   ``_build/pdf/<name>/src`` (only changed pages are rewritten);
2. run Sphinx's LaTeX builder on them with the project's ``conf.py``: for the
   whole book with the HTML build's environment (``_build/doctrees``), so
   after ``make html`` nothing is read again;
3. run xelatex once (``prnotes-book.sty`` needs no second pass), then
   xdvipdfmx, which puts the table of contents, typeset last, after the
   title page (:func:`page_order`);
4. fail if the xelatex log reports a missing glyph, else copy the PDF to
   ``_build/latex/<name>.pdf``.

A glyph the fonts lack comes from the text of a note, so that failure is
reported as the seed lines that hold the character (:func:`glyph_problems`).
Two builds of one edition take turns.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import BuildError
from . import stamp as buildstamp
from ..diagnostics import Diagnostic, InputError
from ..parse.history import added_dates
from ..model.site import Site
from ..parse.seeds import decode, read_file, read_seeds
from ..write.convert import convert
from ..project import load, open_cache
from ..render.subsystem import render_book
from .subset import VOLUME_BOOK, Selection, select, volume_selection
from ..model.taxonomy import taxonomy_files
from ..write.files import LOCK_NAME, apply, locked, plan, write_file

TEX_NAME = "prnotes"  # latex_documents in conf.py
STAMP = "stamp.json"  # what a PDF was built from: in a staged book's work folder, and by its LaTeX sources
MISSING_CHAR = re.compile(r"^Missing character: .*$", re.MULTILINE)
_CODE_POINT = re.compile(r"\(U\+([0-9A-F]{4,6})\)")
MAIN_MATTER_END = re.compile(r"^prnotes: the main matter ends at page (\d+)$", re.MULTILINE)


@dataclass(frozen=True)
class Book:
    """Where one edition of the book is built and what it ended up as."""

    pdf: Path
    log: Path
    notes: int
    timings: tuple[tuple[str, float], ...]
    scope: str = ""  # what it holds, as its title page says
    built: bool = True  # False: nothing it is made from had changed; the PDF was left as it was

    def said(self, tool: str, root: Path) -> str:
        """The line the command prints for it."""
        where = self.pdf.relative_to(root)
        if not self.built:
            return f"{tool}: {self.scope} -> {where} (unchanged since its last build; left as it is)"
        steps = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in self.timings)
        return f"{tool}: {self.notes} notes -> {where} ({steps})"


def missing_characters(log_text: str) -> list[str]:
    """The xelatex log's "Missing character" lines, without repeats, sorted."""
    return sorted(set(MISSING_CHAR.findall(log_text)))


TEX_SOURCES = (".tex", ".sty", ".cls", ".cfg", ".def")


def tex_sources(latex: Path) -> str:
    """A hash of the contents of what xelatex reads in ``latex`` (Sphinx rewrites them all on every run)."""
    found = sorted(p for p in latex.iterdir() if p.suffix in TEX_SOURCES and p.is_file())
    return buildstamp.digest([[p.name, hashlib.sha256(p.read_bytes()).hexdigest()] for p in found])


def page_order(log_text: str) -> str:
    """xdvipdfmx's ``-s`` pages: the title page, the table of contents, then the chapters.

    prnotes-book.sty typesets the table of contents after the last chapter
    and logs the page that chapter ends on.
    """
    match = MAIN_MATTER_END.search(log_text)
    if match is None:
        raise BuildError("the xelatex log does not say where the main matter ends (prnotes-book.sty)")
    end = int(match.group(1))
    return f"1,{end + 1}-,2-{end}"


# "./prnotes.tex:359: TeX capacity exceeded, sorry [main memory size=5000000]." (-file-line-error)
_TEX_ERROR_RE = re.compile(rf"^\./{TEX_NAME}\.tex:(\d+): (.+)$", re.MULTILINE)
# The comment before each note in the LaTeX source (sphinxext/book/latex.py, ENTRY_MARK).
_ENTRY_RE = re.compile(r"^%prnotes:entry (\S+)$")


def tex_error(latex: Path, site: Site) -> Diagnostic | None:
    """The seed entry whose note xelatex stopped in, from its log: TeX's limits
    are reached by an entry's text. The note is the last one to begin, in the
    LaTeX source, before the line the error names (each begins with a comment
    naming it, before its heading)."""
    try:
        log = (latex / f"{TEX_NAME}.log").read_text(encoding="utf-8", errors="replace")
        tex = (latex / f"{TEX_NAME}.tex").read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError:
        return None
    found = _TEX_ERROR_RE.search(log)
    if found is None:
        return None
    line, message = int(found.group(1)), found.group(2).strip()
    notes = {note.docname: note for note in site.notes}
    for text in reversed(tex[: min(line, len(tex))]):
        entry = _ENTRY_RE.match(text)
        if entry and entry.group(1) in notes:
            note = notes[entry.group(1)]
            return Diagnostic(note.path, note.line, f"xelatex cannot typeset this entry: {message} ({TEX_NAME}.tex:{line})")
    return None


def glyph_problems(root: Path, site: Site, missing: list[str]) -> list[Diagnostic]:
    """The seed lines of the book's notes that hold a character of ``missing``.

    ``missing`` are the log's "Missing character" lines. Each entry of a seed
    runs from its title line to the next title; only the entries of notes in
    the book are searched. An upstream title is reported at its ``prs.toml``
    line, a seed file's name (which its notes show) at the file's line 1, and
    a line of ``taxonomy.toml`` or a set in ``taxonomy/`` (chapter titles, badges) at its line.
    """
    absent = {chr(int(m.group(1), 16)) for line in missing if (m := _CODE_POINT.search(line))}
    if not absent:
        return []
    in_book = {(note.path, note.line) for note in site.notes}
    problems = []

    def report(path: str, line: int, text: str, where: str = "") -> None:
        found = sorted({ch for ch in text if ch in absent})
        if found:
            what = ", ".join(f"{ch} (U+{ord(ch):04X})" for ch in found)
            problems.append(Diagnostic(path, line, f"the book's fonts have no glyph for {what}{where}; the PDF cannot show it"))

    # A note shows the name of its seed file.
    for path in sorted({note.path for note in site.notes}):
        report(path, 1, path, " in the file name")

    seeds, prs = read_seeds(root / "seeds", root)
    for seed in seeds:
        starts = [entry.line for entry in seed.entries]
        lines = decode(seed.path, read_file(root / seed.path, seed.path)).split("\n")
        for index, start in enumerate(starts):
            if (seed.path, start) in in_book:
                end = starts[index + 1] if index + 1 < len(starts) else len(lines) + 1
                for lineno in range(start, end):
                    report(seed.path, lineno, lines[lineno - 1])
    titles = {(note.repo.lower(), note.title) for note in site.notes}
    for key, info in prs.items():
        if key in titles:
            report(info.path, info.line, info.upstream_title)
    # Chapter titles and badges come from taxonomy.toml and the sets in taxonomy/.
    for path, rel in taxonomy_files(root):
        for lineno, text in enumerate(decode(rel, read_file(path, rel)).split("\n"), 1):
            if not text.lstrip().startswith("#"):
                report(rel, lineno, text)
    return sorted(problems)


def stage(root: Path, selection: Selection, src: Path, whole: Site | None = None) -> tuple[Site, str]:
    """Write the book's pages to ``src``; return the selected notes and the scope text.

    ``whole`` is the loaded project, when the caller has it.
    """
    # The conversion cache, read only: unchanged entries are not analysed again.
    site = select(whole or load(root, open_cache(root)), selection)
    if not site.notes:
        raise BuildError("the selection holds no notes; nothing to build")
    pages = render_book(site)
    src.mkdir(parents=True, exist_ok=True)
    apply(src, pages, plan(src, pages))
    return site, selection.describe(site.taxonomy, len(site.notes))


def _run(cmd: list[str], cwd: Path, env: dict[str, str], what: str) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        raise BuildError(f"{what} failed (exit {proc.returncode}):\n{proc.stdout[-6000:]}")
    return proc.stdout


def build_book(
    root: Path,
    selection: Selection,
    parallel: str = "auto",
    waiting: Callable[[str], None] | None = None,
    whole: Site | None = None,
    dates: dict[str, str] | None = None,
) -> Book:
    """Build one edition; raises :class:`BuildError` or :class:`InputError`.

    ``waiting(name)`` is called if another build of the same edition is
    running; this one then waits for it. ``whole`` and ``dates`` (the project, loaded,
    and its digests' dates) spare a caller building several editions loading
    them for each.
    """
    work = root / "_build" / "pdf" / selection.name
    try:
        work.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BuildError(f"cannot create {work}: {exc.strerror or exc}") from None
    whose = f"the lock of the book's work folder _build/pdf/{selection.name}"
    with locked(work / LOCK_NAME, (lambda: waiting(selection.name)) if waiting else None, whose):
        return _build(root, selection, parallel, work, whole, dates)


def build_volumes(root: Path, waiting: Callable[[str], None] | None = None, processes: int | None = None) -> list[Book]:
    """The book of each volume that changed, in parallel; the whole book for an archive of one volume.

    Volume books of volumes the archive no longer has are removed.
    """
    site = convert(root)
    selections = [volume_selection(v) for v in site.volumes] if len(site.volumes) > 1 else []
    keep = {s.name for s in selections}  # the books of volumes the archive no longer has go
    for folder in (root / "_build" / "latex", root / "_build" / "pdf"):
        for path in sorted(folder.iterdir()) if folder.is_dir() else ():
            name = path.name.removesuffix(".pdf") if path.is_file() else path.name
            if VOLUME_BOOK.match(name) and name not in keep:
                shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(missing_ok=True)
    if not selections:
        return [build_book(root, Selection(), "auto", waiting, site)]
    dates = added_dates(root)
    # The work is xelatex and Sphinx in processes of their own: threads suffice to run them side by side.
    with ThreadPoolExecutor(max_workers=min(len(selections), processes or os.cpu_count() or 1)) as pool:
        return list(pool.map(lambda s: build_book(root, s, "1", waiting, site, dates), selections))


def _staged_inputs(root: Path, src: Path, command: list[str], site: Site, dates: dict[str, str]) -> str:
    """What a staged book is made from: its pages, the settings, the code, its digests' dates."""
    seeds = sorted({site.digest_of(note).path for note in site.notes})
    return buildstamp.digest(
        {
            **buildstamp.environment(command),
            "files": buildstamp.files(src, root / "conf.py", *(path for path, _ in taxonomy_files(root)), buildstamp.PACKAGE),
            "dates": [[path, dates.get(path)] for path in seeds],
        }
    )


def _build(
    root: Path, selection: Selection, parallel: str, work: Path, whole: Site | None, dates: dict[str, str] | None
) -> Book:
    latex = work / "latex"
    env = dict(os.environ)
    timings = []
    out = root / "_build" / "latex" / f"{selection.name}.pdf"
    log = latex / f"{TEX_NAME}.log"

    start = time.perf_counter()
    if selection.everything:
        # The whole book is the site's own pages from notes/book down: with the
        # HTML build's environment (the same doctree folder as `make html`),
        # Sphinx reads nothing again and only writes the book.
        site = whole if whole is not None else convert(root)
        scope = selection.describe(site.taxonomy, len(site.notes))
        src, doctrees = root, root / "_build" / "doctrees"
    else:
        site, scope = stage(root, selection, work / "src", whole)
        src, doctrees = work / "src", work / "doctrees"
    count = len(site.notes)
    timings.append(("stage", time.perf_counter() - start))

    command = [
        sys.executable, "-m", "prnotes.build.sphinx_build", "-b", "latex", "-W", "--keep-going", "-q", "-j", parallel,
        "-c", str(root), "-d", str(doctrees), "-D", f"prnotes_book_scope={scope}", str(src), str(latex),
    ]  # fmt: skip
    inputs = None
    if not selection.everything:
        # A staged book whose pages, settings, code and dates are as they were
        # when its PDF was made is left as it is: Sphinx would assemble and
        # write the whole book again only for xelatex to typeset the same pages.
        inputs = _staged_inputs(root, src, command, site, added_dates(root) if dates is None else dates)
        if buildstamp.matches(work / STAMP, inputs, lambda: buildstamp.digest(buildstamp.files(out))):
            return Book(pdf=out, log=log, notes=count, timings=tuple(timings), scope=scope, built=False)
        (work / STAMP).unlink(missing_ok=True)

    start = time.perf_counter()
    _run(command, root, env, "sphinx-build -b latex")
    timings.append(("sphinx", time.perf_counter() - start))

    # The LaTeX sources as Sphinx wrote them: if they are what the PDF was
    # made from, xelatex would typeset the same pages again (the whole book
    # has no stamp of its own: Sphinx always writes it again).
    sources = tex_sources(latex)
    if buildstamp.matches(latex / STAMP, sources, lambda: buildstamp.digest(buildstamp.files(out))):
        return Book(pdf=out, log=log, notes=count, timings=tuple(timings), scope=scope, built=False)
    (latex / STAMP).unlink(missing_ok=True)

    # One xelatex pass (prnotes-book.sty reads nothing from an earlier one),
    # then xdvipdfmx puts the table of contents, typeset last, after the title page.
    start = time.perf_counter()
    for suffix in (".aux", ".toc", ".out", ".xdv", ".pdf"):
        (latex / f"{TEX_NAME}{suffix}").unlink(missing_ok=True)
    try:
        _run(["xelatex", "-no-pdf", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error", f"{TEX_NAME}.tex"], latex, env, "xelatex")
    except BuildError:
        problem = tex_error(latex, site)
        if problem is None:
            raise
        error = InputError([problem])
        error.outcome = "the PDF was not updated"
        raise error from None
    # -z 6: on the 1,000-note book (912 pages) 2.8 s against 3.6 s at the
    # default level 9, for a PDF 2 % larger.
    _run(
        ["xdvipdfmx", "-q", "-E", "-z", "6", "-s", page_order(log.read_text(encoding="utf-8", errors="replace")),
         "-o", f"{TEX_NAME}.pdf", f"{TEX_NAME}.xdv"],
        latex, env, "xdvipdfmx",
    )  # fmt: skip
    timings.append(("xelatex", time.perf_counter() - start))

    missing = missing_characters(log.read_text(encoding="utf-8", errors="replace"))
    if missing:
        problems = glyph_problems(root, site, missing)
        if problems:
            error = InputError(problems)
            error.outcome = "the PDF was not updated"
            raise error
        raise BuildError(f"{log}: {len(missing)} missing glyph(s):\n" + "\n".join(missing))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_file(out, (latex / f"{TEX_NAME}.pdf").read_bytes())
        made = buildstamp.digest(buildstamp.files(out))
        buildstamp.save(latex / STAMP, sources, made)
        if inputs is not None:
            buildstamp.save(work / STAMP, inputs, made)
    except OSError as exc:
        raise BuildError(f"cannot write {out.relative_to(root)}: {exc.strerror or exc}; the previous PDF is as it was") from None
    return Book(pdf=out, log=log, notes=count, timings=tuple(timings), scope=scope)
