"""Check a built site against the seeds: no entry may be lost on the way.

For every entry of every seed file the audit looks, in the HTML build, for its
page (one of its own: no two entries may share one), its title, its whole advice text (markup stripped, whitespace ignored),
its PR number and its place in exactly one subsystem toctree; and, when a PDF
was built, for the title, advice text and PR number in the PDF's text: in the
whole book (``prnotes.pdf``), and in the volumes' books taken together.

It also lists every note page the build publishes that no seed entry holds
(a digest was deleted or renamed and the site still shows its notes).

It reads the seeds with the converter's parser (the seed format is defined
there) but nothing of the converter's model, so an entry the model drops is
still expected. Each finding names the seed entry's ``file:line``.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bs4 import BeautifulSoup

from .. import contract
from ..parse import regular
from ..parse.chars import for_print
from ..parse.seeds import read_seeds
from ..parse.refs import plain_text, segment
from .subset import BOOK_NAME, VOLUME_BOOK
from ..sphinxext import _internals

_SPACE_RE = re.compile(r"\s+")
# Characters a PDF may typeset differently or drop at a line end: whitespace,
# hyphens and dashes, quotes and backticks, and invisible format characters.
_PDF_VOLATILE = frozenset("-‐‑‒–—−'\"`´‘’‚“”„")


@dataclass(frozen=True)
class Entry:
    """A seed entry as a reader should find it on the site."""

    path: str
    line: int
    repo: str
    title: str  # as a reader sees it: code spans without their backticks
    body: str
    number: int | None
    docname: str  # named as the conversion names it (contract.NotePages)


@dataclass(frozen=True, order=True)
class Finding:
    """One thing the build lost."""

    path: str
    line: int
    what: str
    where: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what} missing from {self.where}"


@dataclass(frozen=True, order=True)
class Stale:
    """A note the build publishes that no seed entry holds (its digest was deleted or renamed)."""

    path: str  # the page, relative to the build folder

    def __str__(self) -> str:
        return f"{self.path}:1: published note that no seed entry holds; rebuild with `make html`"


@dataclass(frozen=True)
class Report:
    entries: int
    pages: int
    pdfs: int
    findings: tuple[Finding, ...]
    stale: tuple[Stale, ...] = ()

    @property
    def summary(self) -> str:
        pdf = f", {self.pdfs} PDF" if self.pdfs else ""
        stale = f", {len(self.stale)} stale" if self.stale else ""
        return f"{self.entries} entries, {self.pages} pages{pdf}, {len(self.findings)} missing{stale}"

    @property
    def ok(self) -> bool:
        return not self.findings and not self.stale


def seed_entries(root: Path) -> list[Entry]:
    """Every entry of every seed, in file order; raises ``InputError`` on bad seeds.

    A repository is spelled as its first seed spells it, and pages are named
    in this order, as the conversion names them."""
    seeds, prs = read_seeds(root / "seeds", root)
    entries = []
    spelled: dict[str, str] = {}
    pages = contract.NotePages()
    for seed in seeds:
        repo = spelled.setdefault(contract.repo_key(seed.repo), seed.repo)
        for raw in seed.entries:
            info = prs.get((raw.repo.lower(), raw.title))
            number = raw.number if raw.number is not None or info is None else info.number
            entries.append(
                Entry(
                    path=raw.path,
                    line=raw.line,
                    repo=raw.repo,
                    title=plain_text(segment(raw.title, raw.repo)),
                    body=plain_text(segment(raw.body, raw.repo)),
                    number=number,
                    docname=pages.name(repo, number, raw.title)[0],
                )
            )
    return entries


def squash(text: str) -> str:
    """Text with all whitespace removed: layout may add or drop it anywhere."""
    return _SPACE_RE.sub("", text)


def _number_re(number: int) -> re.Pattern[str]:
    return re.compile(rf"#{number}(?![0-9])")


# --- HTML -------------------------------------------------------------------


def page_text(html: str) -> tuple[str, str]:
    """``(title, text)`` of a page's main content, without heading permalinks."""
    soup = BeautifulSoup(html, "html.parser")
    for link in soup.select("a.headerlink"):
        link.decompose()
    main = soup.select_one("article") or soup.select_one("[role=main]") or soup.body or soup
    heading = main.find("h1")
    return (heading.get_text() if heading else ""), main.get_text()


def toctree_parents(*doctree_dirs: Path) -> dict[str, list[str]]:
    """Document -> the documents whose toctrees list it, from Sphinx's environments."""
    parents: dict[str, list[str]] = {}
    for doctree_dir in doctree_dirs:
        try:
            env = _internals.saved_environment(doctree_dir)
        except FileNotFoundError:
            raise
        except regular.NotRegularFile as exc:
            raise BuildUnreadable(f"{_internals.environment_file(doctree_dir)} {exc.strerror}; nothing checked") from None
        except Exception as exc:  # a truncated or foreign pickle fails in many ways
            raise BuildUnreadable(
                f"{_internals.environment_file(doctree_dir)}: cannot read Sphinx's saved environment "
                f"({type(exc).__name__}); build the HTML again (make clean html)"
            ) from None
        for parent, children in sorted(env.toctree_includes.items()):
            for child in children:
                parents.setdefault(child, []).append(parent)
    return parents


def check_html(entries: list[Entry], html_dir: Path, parents: dict[str, list[str]]) -> tuple[int, list[Finding]]:
    """Findings for the HTML build; also the number of entry pages found."""
    findings: list[Finding] = []
    pages = 0
    subsystem_dir = contract.subsystem_docname("")
    owners: dict[str, Entry] = {}
    for entry in entries:
        docname = entry.docname
        rel = f"{docname}.html"
        where = f"HTML {rel}"

        def lost(what: str) -> None:
            findings.append(Finding(entry.path, entry.line, what, where))

        if (first := owners.setdefault(docname, entry)) is not entry:
            lost(f"a page of its own ({docname} is {first.path}:{first.line}'s)")

        try:
            html = regular.read_regular(html_dir / rel).decode("utf-8")
        except FileNotFoundError:
            lost("page")
            continue
        except (regular.NotRegularFile, regular.FileTooLarge) as exc:
            raise BuildUnreadable(f"{html_dir / rel} {exc.strerror}; nothing checked") from None
        except UnicodeDecodeError as exc:  # a damaged page: what it holds cannot be read
            lost(f"a page in UTF-8 (byte {exc.start} is not)")
            continue
        pages += 1
        title, text = page_text(html)
        if squash(title) != squash(entry.title):
            lost(f"title {entry.title!r}")
        if squash(entry.body) not in squash(text):
            lost("advice text")
        if entry.number is not None and not _number_re(entry.number).search(text):
            lost(f"PR number #{entry.number}")
        in_subsystems = [p for p in parents.get(docname, []) if p.startswith(subsystem_dir)]
        if len(in_subsystems) != 1 or len(parents.get(docname, [])) != 1:
            listed = ", ".join(parents.get(docname, [])) or "none"
            lost(f"exactly one subsystem toctree (listed by: {listed})")
    return pages, findings


def published_notes(html_dir: Path) -> list[str]:
    """Docnames of the note pages in an HTML build."""
    root = html_dir / contract.NOTES_DIR
    found = []
    for page in root.rglob("*.html") if root.is_dir() else ():
        docname = page.relative_to(html_dir).as_posix().removesuffix(".html")
        if contract.is_note_docname(docname):
            found.append(docname)
    return sorted(found)


def check_stale(entries: list[Entry], html_dir: Path) -> list[Stale]:
    """Note pages the build publishes that no seed entry names."""
    expected = {entry.docname for entry in entries}
    return [Stale(f"html/{d}.html") for d in published_notes(html_dir) if d not in expected]


# --- PDF --------------------------------------------------------------------


class BuildUnreadable(Exception):
    """A file of the build that the audit cannot read; the message names it."""


class PdfUnreadable(BuildUnreadable):
    """A built PDF that pdftotext cannot read; the message names it."""


# The book's running heads sit about 35-45 pt below the top of the page and
# its page numbers about 40-50 pt above the bottom; its text, from 1 in
# below the top to 1 in above the bottom (Sphinx's margins, prnotes-book.sty).
# The text is read from between the two, so a paragraph that runs over a page
# break reads on, however pdftotext splits a running head into lines.
FURNITURE_PT = 56


def pdf_pages(pdf: Path) -> list[str]:
    """Text of each page of a PDF in drawing order, by ``pdftotext -raw`` (poppler-utils),
    without its running heads and page numbers."""

    def run(tool: str, *options: str) -> str:
        command = [tool, *options, str(pdf), *(["-"] if tool == "pdftotext" else [])]
        out = subprocess.run(command, capture_output=True)
        if out.returncode != 0:
            reason = out.stderr.decode("utf-8", errors="replace").strip().splitlines()
            raise PdfUnreadable(f"{pdf}: {tool} cannot read it ({reason[-1] if reason else f'exit {out.returncode}'})")
        return out.stdout.decode("utf-8", errors="replace")

    size = re.search(r"^Page size:\s+([0-9.]+) x ([0-9.]+) pts", run("pdfinfo"), re.M)
    if size is None:
        raise PdfUnreadable(f"{pdf}: pdfinfo gives no page size")
    width, height = (float(value) for value in size.groups())
    band = ["-x", "0", "-y", str(FURNITURE_PT), "-W", str(int(width) + 1), "-H", str(int(height) - 2 * FURNITURE_PT)]
    # -raw: the text in the order the page draws it, which is TeX's reading
    # order. The default mode orders text by where it stands, and reads a
    # line justified with wide gaps (a long URL beside short words) as
    # columns: the words of several lines, then the URLs.
    return run("pdftotext", "-raw", "-enc", "UTF-8", *band).split("\f")


def pdf_squash(text: str) -> str:
    """Like :func:`squash`, also forgiving what typesetting changes.

    NFKC folds ligatures (ﬁ) and full-width forms; hyphens, dashes and quotes
    are dropped on both sides, since LaTeX hyphenates and curls them; so are
    the invisible characters the book does not print (:func:`prnotes.parse.chars.for_print`).
    """
    text = unicodedata.normalize("NFKC", for_print(text))
    return "".join(ch for ch in text if not ch.isspace() and ch not in _PDF_VOLATILE and unicodedata.category(ch) not in ("Cf", "Cc"))


def _furniture(pages: list[list[str]]) -> set[str]:
    """Running headers and footers: first/last lines repeated on two or more pages."""
    ends = Counter()
    for lines in pages:
        if lines:
            ends.update({lines[0], lines[-1]})
    return {line for line, count in ends.items() if count >= 2}


def _strip_furniture(pages: list[str]) -> str:
    """The pages' text without running headers, footers and page numbers."""
    split = [[line.strip() for line in page.split("\n") if line.strip()] for page in pages]
    repeated = _furniture(split)
    kept = []
    for index, lines in enumerate(split, 1):

        def furniture(line: str) -> bool:
            tokens = line.split()
            return line in repeated or str(index) in tokens or bool(re.fullmatch(r"[0-9ivxlcdm]+", line))

        while lines and furniture(lines[0]):
            lines = lines[1:]
        while lines and furniture(lines[-1]):
            lines = lines[:-1]
        kept.append("\n".join(lines))
    return "\n".join(kept)


def check_pdf_text(entries: list[Entry], pages: list[str], where: str) -> list[Finding]:
    """Findings for one PDF's extracted text, page by page.

    A paragraph may run across a page break, where the running header and
    footer interrupt it; text counts as present if it is found either in the
    raw text or in the text with that furniture removed.
    """
    raw = "\n".join(pages)
    texts = (pdf_squash(raw), pdf_squash(_strip_furniture(pages)))
    findings = []
    for entry in entries:

        def present(text: str) -> bool:
            needle = pdf_squash(text)
            return any(needle in t for t in texts)

        if not present(entry.title):
            findings.append(Finding(entry.path, entry.line, f"title {entry.title!r}", where))
        if not present(entry.body):
            findings.append(Finding(entry.path, entry.line, "advice text", where))
        if entry.number is not None and not _number_re(entry.number).search(raw):
            findings.append(Finding(entry.path, entry.line, f"PR number #{entry.number}", where))
    return findings


# --- the whole audit ---------------------------------------------------------


def find_doctrees(build: Path) -> list[Path]:
    """Where Sphinx put its environment: ``make html`` and sphinx.testing differ; the site in
    volumes (docs/volumes.md) has the hub's and each closed volume's, each holding its notes' toctrees."""
    hub = build / "volumes" / "hub" / "doctrees"
    candidates = [build / "html" / ".doctrees", build / "doctrees", hub]
    existing = [c for c in candidates if _internals.environment_file(c).exists()]
    if not existing:
        raise FileNotFoundError(f"no {_internals.environment_file(build).name} under {build}; build the HTML first")
    newest = max(existing, key=lambda c: _internals.environment_file(c).stat().st_mtime_ns)
    return [newest] if newest != hub else [hub, *sorted(d for d in build.glob("volumes/v*/doctrees") if _internals.environment_file(d).exists())]


def _kind(path: Path) -> str | None:
    """What ``path`` is when it is no regular file (pdftotext would wait on a pipe)."""
    try:
        return regular.kind(path.stat().st_mode)
    except OSError:
        return None


def audit(root: Path, build: Path | None = None) -> Report:
    """Audit the build under ``build`` (default ``root/_build``) against ``root/seeds``."""
    build = build or root / "_build"
    entries = seed_entries(root)
    html_dir = build / "html"
    if not (html_dir / "index.html").exists():
        raise FileNotFoundError(f"no {html_dir / 'index.html'}; build the HTML first")
    pages, findings = check_html(entries, html_dir, toctree_parents(*find_doctrees(build)))
    # The whole book holds every entry, and so do the volumes' books together;
    # a book of some notes (make pdf VERDICT=…) is not checked.
    pdfs = sorted((build / "latex").glob("*.pdf"))
    for pdf in pdfs:
        if (what := _kind(pdf)) is not None:
            raise BuildUnreadable(f"{pdf} is {what}, not a regular file; nothing checked")
    wholes = [pdf for pdf in pdfs if pdf.stem == BOOK_NAME]
    volumes = [pdf for pdf in pdfs if VOLUME_BOOK.match(pdf.stem)]
    for pdf in wholes:
        findings += check_pdf_text(entries, pdf_pages(pdf), f"PDF {pdf.relative_to(build).as_posix()}")
    if volumes:
        names = ", ".join(pdf.relative_to(build).as_posix() for pdf in volumes)
        texts = [page for pdf in volumes for page in pdf_pages(pdf)]
        findings += check_pdf_text(entries, texts, f"PDF volumes {names}")
    stale = check_stale(entries, html_dir)
    return Report(len(entries), pages, len(wholes) + len(volumes), tuple(sorted(findings)), tuple(stale))
