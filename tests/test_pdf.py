"""The PDF book: built for real (xelatex) once per session, then inspected
with poppler-utils (pdftotext, pdffonts) and pypdf (bookmarks, links)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.support.sandbox import convert, copy_project, sphinx_build
from prnotes.project import load
from prnotes.model.classify import VERDICT_BY_SLUG
from prnotes.build.pdf import TEX_NAME, missing_characters
from prnotes.parse.refs import plain_text
from prnotes.render.subsystem import render_book
from prnotes.build.subset import Selection, parse_selection, select


@dataclass(frozen=True)
class Built:
    project: Path
    name: str
    tmpdir: Path

    @property
    def pdf(self) -> Path:
        return self.project / "_build" / "latex" / f"{self.name}.pdf"

    @property
    def latex_dir(self) -> Path:
        return self.project / "_build" / "pdf" / self.name / "latex"

    @property
    def log(self) -> str:
        return (self.latex_dir / f"{TEX_NAME}.log").read_text(encoding="utf-8", errors="replace")

    @property
    def tex(self) -> str:
        return (self.latex_dir / f"{TEX_NAME}.tex").read_text(encoding="utf-8")

    @property
    def text(self) -> str:
        return pdftotext(self.pdf)

    @property
    def body_text(self) -> str:
        return pdftotext(self.pdf, body_only=True)


def run_build_pdf(project: Path, tmpdir: Path, *args: str) -> subprocess.CompletedProcess:
    """`prnotes pdf` as `make pdf` runs it, with a TMPDIR of its own."""
    tmpdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TMPDIR=str(tmpdir))
    return subprocess.run(
        [sys.executable, "-m", "prnotes.commands.cli", "pdf", "--root", str(project), "-j", "1", *args],
        env=env, capture_output=True, text=True,
    )  # fmt: skip


def build(project: Path, tmpdir: Path, *args: str) -> Built:
    proc = run_build_pdf(project, tmpdir, *args)
    assert proc.returncode == 0, proc.stderr
    name = re.search(r"_build/latex/(\S+)\.pdf", proc.stdout).group(1)
    return Built(project, name, tmpdir)


# A4 in points; the running head sits above y=50 and the folio below y=785.
BODY_CROP = ("-x", "0", "-y", "55", "-W", "595", "-H", "725")


def pdftotext(pdf: Path, body_only: bool = False, pages: tuple[int, int] | None = None) -> str:
    """The PDF's text; ``body_only`` leaves out running heads and page numbers,
    which would otherwise cut into text that runs over a page break;
    ``pages``: only from the first to the last page given (counted from 1),
    laid out as printed."""
    crop = BODY_CROP if body_only else ()
    first_last = ("-layout", "-f", str(pages[0]), "-l", str(pages[1])) if pages else ()
    cmd = ["pdftotext", "-enc", "UTF-8", *crop, *first_last, str(pdf), "-"]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def norm(text: str) -> str:
    """Drop whitespace and hyphens: line breaks, and TeX's hyphenation, may split words."""
    return re.sub(r"[\s\-\u2010\u2011]", "", text)


def outline(pdf: Path) -> list[tuple[str, list[str]]]:
    """Top-level bookmarks with the titles of their children."""
    reader = PdfReader(pdf)
    out: list[tuple[str, list[str]]] = []
    for item in reader.outline:
        if isinstance(item, list):
            out[-1][1].extend(child.title for child in item if not isinstance(child, list))
        else:
            out.append((item.title, []))
    return out


def link_uris(pdf: Path) -> tuple[set[str], int]:
    """External URIs of the link annotations, and the number of internal links."""
    uris, internal = set(), 0
    for page in PdfReader(pdf).pages:
        for annot in page.get("/Annots") or ():
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            action = annot.get("/A")
            if action is not None and action.get("/S") == "/URI":
                uris.add(str(action["/URI"]))
            elif annot.get("/Dest") is not None or (action is not None and action.get("/S") == "/GoTo"):
                internal += 1
    return uris, internal


def strip_number(title: str) -> str:
    """``1.2 标题`` -> ``标题`` (the bookmarks are numbered like the headings)."""
    return re.sub(r"^[\d.]+\s+", "", title)


@pytest.fixture(scope="session")
def fixture_books(tmp_path_factory):
    """The fixture project (tests/roots/vllm16) as the whole book and as one subset (CI, 按需)."""
    base = tmp_path_factory.mktemp("pdf")
    proj = copy_project(base / "proj")
    full = build(proj, base / "tmp")
    subset = build(proj, base / "tmp", "--subsystem", "ci", "--verdict", "按需")
    return proj, full, subset


@pytest.fixture(scope="session")
def linked_books(tmp_path_factory):
    """A tiny project where note #1 mentions note #2 and PR #3 (no note)."""
    base = tmp_path_factory.mktemp("pdflinks")
    proj = copy_project(
        base / "proj",
        {
            "000.txt": "o/r\n\nA 甲 (#1)\n\n值得精读，结合 #2 与 `#3` 看。\n\n"
            "B 乙 (#2)\n\n值得快速浏览。\n"
        },
    )
    return build(proj, base / "tmp"), build(proj, base / "tmp", "--verdict", "精读")


def test_every_note_title_and_body_is_in_the_text(fixture_books):
    proj, full, _ = fixture_books
    text = norm(full.body_text)
    site = load(proj)
    assert len(site.notes) == 16
    for note in site.notes:
        assert norm(plain_text(note.title_pieces)) in text, note.docname
        assert norm(plain_text(note.pieces)) in text, note.docname
        if note.upstream_title:
            assert norm(note.upstream_title) in text, note.docname


def test_each_note_has_one_line_of_facts(fixture_books):
    """Under each heading one line: the verdict, repo#PR, the upstream title,
    the digest and its date; no block of fields repeating the verdict and the
    chapter, no part headings, and no part that says it has nothing."""
    proj, full, _ = fixture_books
    notes = load(proj).notes
    text, tex = full.text, full.tex
    for label in ("仓库：", "阅读结论：", "子系统：", "收录于：", "适合读者：", "本篇没有提到其他 PR", "阅读建议", "相关\n"):
        assert label not in text, label
    assert tex.count(r"\begin{sphinxuseclass}{prnotes-facts}") == len(notes)
    for note in notes:
        assert text.count(f"{note.repo}#{note.number}") == 1, note.docname
    assert len(re.findall(r"第 \d 期\s*·\s*日期未知", text)) == len(notes)
    # Each verdict once, as a box; no subsystem or tag badge (the chapter is the subsystem).
    assert tex.count(r"\DUrole{prnotes-badge-filled-") == sum(bool(n.verdict) for n in notes)
    unstated = sum(not n.verdict for n in notes)
    assert tex.count(r"\DUrole{prnotes-badge-line-") == tex.count(r"\DUrole{prnotes-badge-line-secondary}{未注明}") == unstated
    assert "sd-badge" not in tex
    assert (
        r"\DUrole{prnotes-badge-filled-danger}{精读} \sphinxhref{https://github.com/vllm-project/vllm/pull/52374}"
        r"{vllm\sphinxhyphen{}project/vllm\#52374} · \DUrole{prnotes-upstream}{{[}MRV2{]} Support attention\sphinxhyphen{}free models}"
        r"\DUrole{prnotes-when}{第 2 期 · \DUrole{prnotes-date}{日期未知}}"
    ) in tex
    # What a note mentions, on one line; a note that mentions nothing (and is mentioned by none) has no such line.
    assert "本篇提到：#46646" in text
    assert tex.count(r"\begin{sphinxuseclass}{prnotes-related}") == sum(1 for n in notes if n.mentions)


def note_pages(pdf: Path) -> list[tuple[str, int]]:
    """``(bookmark title, page index)`` of each note, in book order."""
    reader = PdfReader(pdf)
    return [
        (note.title, reader.get_destination_page_number(note))
        for chapter in reader.outline[1:]
        if isinstance(chapter, list)
        for note in chapter
    ]


def assert_headings_stay_with_their_advice(pdf: Path, notes) -> None:
    """The page each note's heading is on shows the start of its advice too:
    no heading ends a page alone."""
    pages = note_pages(pdf)
    assert len(pages) == len(notes)
    by_title = {plain_text(n.title_pieces): n for n in notes}
    for title, page in pages:
        note = by_title[title.partition(" ")[2]]
        start = norm(plain_text(note.pieces))[:20]
        assert start in norm(pdftotext(pdf, body_only=True, pages=(page + 1, page + 1))), title


def test_notes_run_on_at_most_half_a_page_each(fixture_books):
    """The notes follow one another, chapters too: 16 notes on 8 pages, the
    title page and the table of contents included; each heading stays with
    the start of its advice, and each chapter with its first note."""
    proj, full, _ = fixture_books
    notes = load(proj).notes
    reader = PdfReader(full.pdf)
    assert len(reader.pages) <= len(notes) / 2
    assert_headings_stay_with_their_advice(full.pdf, notes)
    for chapter in reader.outline[1:]:
        if not isinstance(chapter, list):
            heading = chapter
        else:
            assert reader.get_destination_page_number(heading) == reader.get_destination_page_number(chapter[0])


def test_only_the_noto_cjk_fonts_are_embedded(fixture_books):
    _, full, _ = fixture_books
    lines = subprocess.run(["pdffonts", str(full.pdf)], capture_output=True, text=True, check=True).stdout
    fonts = [line.split() for line in lines.splitlines()[2:]]
    names = [f[0] for f in fonts]
    assert any("NotoSerifCJK" in n for n in names), names
    assert any("NotoSansCJK" in n for n in names), names
    # Nothing fell back to Fandol, FreeSerif or Latin Modern; all embedded.
    assert all("NotoSerifCJK" in n or "NotoSansCJK" in n for n in names), names
    assert all(f[-5] == "yes" for f in fonts), lines


def test_symbols_of_the_notes_are_typeset(fixture_books):
    _, full, _ = fixture_books
    assert missing_characters(full.log) == []
    text = full.text
    for symbol in "①②“”→「」#":
        assert symbol in text, symbol


def test_bookmarks_follow_contents_chapters_and_notes(fixture_books):
    proj, full, _ = fixture_books
    site = load(proj)
    used = [s for s in site.subsystems if site.in_subsystem(s.key)]
    tree = outline(full.pdf)
    assert tree[0] == ("目录", [])
    assert [strip_number(t) for t, _ in tree[1:]] == [s.title for s in used]
    for (_, children), sub in zip(tree[1:], used):
        assert [strip_number(c) for c in children] == [n.title for n in site.in_subsystem(sub.key)]


def pdfinfo(pdf: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", "-enc", "UTF-8", str(pdf)], capture_output=True, text=True, check=True).stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}


def test_document_information_names_the_book(fixture_books):
    proj, full, subset = fixture_books
    site = load(proj)
    chapters = [s.title for s in site.subsystems if site.in_subsystem(s.key)]
    info = pdfinfo(full.pdf)
    assert info["Title"] == "PR 精读笔记"
    assert info["Author"] == "PR 精读笔记"
    assert info["Subject"] == "每个 PR 一篇阅读笔记，按子系统分章：全部笔记（16 篇）"
    assert info["Keywords"] == ", ".join(["vllm-project/vllm", *chapters])
    info = pdfinfo(subset.pdf)
    assert info["Subject"] == "每个 PR 一篇阅读笔记，按子系统分章：子系统：CI 与构建；阅读结论：按需（2 篇）"
    assert info["Keywords"] == "vllm-project/vllm, CI 与构建"


def test_page_labels_are_roman_for_front_matter_then_arabic(fixture_books):
    _, full, _ = fixture_books
    reader = PdfReader(full.pdf)
    labels = reader.page_labels
    assert labels[:2] == ["i", "ii"]  # the title page and the table of contents
    assert labels[2:] == [str(n) for n in range(1, len(labels) - 1)]
    assert len(set(labels)) == len(labels)
    # Chapter 1 starts on page 1, and the 目录 bookmark leads to the contents.
    contents, chapter1 = reader.outline[0], reader.outline[1]
    assert labels[reader.get_destination_page_number(chapter1)] == "1"
    page = reader.get_destination_page_number(contents)
    assert labels[page] == "ii" and "目录" in reader.pages[page].extract_text()


def test_a_long_book_is_right_after_one_xelatex_pass(tmp_path):
    """One xelatex pass, nothing read from an earlier one: a table of contents
    of several pages still comes after the title page and names the page
    each note starts on; the page labels, the bookmarks and every link to a
    note typeset later are right."""
    from bench.corpus import generate

    proj = copy_project(tmp_path / "proj", generate(150, per_file=16))
    proc = run_build_pdf(proj, tmp_path / "tmp")
    assert proc.returncode == 0, proc.stderr
    pdf = proj / "_build" / "latex" / "prnotes.pdf"
    reader = PdfReader(pdf)
    labels = reader.page_labels
    front = labels.index("1")
    assert front > 3  # the title page and a table of contents of several pages
    assert labels[:front] == [to_roman(n) for n in range(1, front + 1)]
    assert labels[front:] == [str(n) for n in range(1, len(labels) - front + 1)]
    assert "目录" in reader.pages[1].extract_text()
    assert labels[reader.get_destination_page_number(reader.outline[0])] == "ii"
    assert labels[reader.get_destination_page_number(reader.outline[1])] == "1"
    # The contents give each note (1.2 标题 . . . 7, the title perhaps over
    # two lines) the page its bookmark leads to.
    listed, number = {}, None
    for line in pdftotext(pdf, pages=(2, front)).splitlines():
        if start := re.match(r"\s*(\d+\.\d+)\s", line):
            number = start.group(1)
        if (end := re.search(r"\s(\d+)$", line)) and number:
            listed[number], number = end.group(1), None
    notes = [note for chapter in reader.outline[1:] if isinstance(chapter, list) for note in chapter]
    assert len(notes) == len(load(proj).notes) == 150
    # Half a page a note at most, each heading with the start of its advice.
    assert len(reader.pages) <= 150 / 2
    assert_headings_stay_with_their_advice(pdf, load(proj).notes)
    for note in notes:
        assert listed.get(note.title.partition(" ")[0]) == labels[reader.get_destination_page_number(note)], note.title
    # Every internal link leads to a destination the PDF has.
    named = reader.named_destinations
    dests = []
    for page in reader.pages:
        for annot in page.get("/Annots") or ():
            annot = annot.get_object()
            action = annot.get("/A")
            if action is not None and action.get("/S") == "/GoTo":
                dests.append(str(action["/D"]))
            elif annot.get("/Dest") is not None:
                dests.append(str(annot["/Dest"]))
    assert len(dests) > 150
    assert not [dest for dest in dests if dest not in named]
    # A link to a note lands on the page of its heading, at the heading or
    # just above it.
    for dest in dests:
        if dest.endswith("::doc") and "/pr-" in dest:
            target = named[dest]
            heading = named[next(k for k in named if k.startswith("section.") and named[k]["/Page"] == target["/Page"]
                                 and abs(float(named[k]["/Top"]) - float(target["/Top"])) < 40)]
            # (a heading set over two lines puts the anchor a line above the section's)
            assert 0 <= float(target["/Top"]) - float(heading["/Top"]) < 30
            break
    else:
        raise AssertionError("no link to a note")


def to_roman(n: int) -> str:
    out = ""
    for value, digits in ((100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= value:
            out, n = out + digits, n - value
    return out


def test_pdf_string_keeps_every_character():
    from prnotes.sphinxext.book.latex import pdf_string

    assert pdf_string("vllm-project/vllm") == "vllm-project/vllm"
    assert pdf_string("a_b #1 50% & {x} ~^\\") == r"a\_b \#1 50\% \& \{x\} \textasciitilde{}\textasciicircum{}\textbackslash{}"


def test_chinese_captions_and_running_heads(fixture_books):
    proj, full, _ = fixture_books
    text = full.text
    assert "目录" in text and "Contents" not in text
    assert "第一章" in text and "CHAPTER" not in text.upper()
    # The running head of a page inside a chapter names the chapter: its
    # Chinese number and its subsystem.
    site = load(proj)
    used = [s.title for s in site.subsystems if site.in_subsystem(s.key)]
    page = PdfReader(full.pdf).pages[4].extract_text()
    assert any(f"第{number}章" in page and title in page for number, title in zip("一二三四五六七八九十", used))


def test_pr_links_are_clickable(fixture_books):
    _, full, _ = fixture_books
    uris, internal = link_uris(full.pdf)
    assert "https://github.com/vllm-project/vllm/pull/49925" in uris
    assert "https://github.com/ROCm/aiter/issues/4770" in uris
    # Each note's PR field opens the pull request on GitHub.
    site = load(fixture_books[0])
    assert {f"https://github.com/{n.repo}/pull/{n.number}" for n in site.notes} <= uris
    assert internal >= 16  # the table of contents' entries


def test_reference_to_a_note_in_the_book_is_internal(linked_books):
    full, subset = linked_books
    uris, internal = link_uris(full.pdf)
    assert "https://github.com/o/r/pull/3" in uris
    # Each note's PR field opens its pull request; #2 in the text of note 1
    # goes to note 2's section.
    assert {"https://github.com/o/r/pull/1", "https://github.com/o/r/pull/2"} <= uris
    assert internal >= 3
    # The 精读 book leaves note #2 out, so #2 must now go to GitHub.
    uris, _ = link_uris(subset.pdf)
    assert "https://github.com/o/r/pull/2" in uris
    assert "乙" not in subset.text


def test_subset_holds_only_the_selected_notes(fixture_books):
    proj, _, subset = fixture_books
    assert subset.name == "prnotes-ci-optional"
    site = load(proj)
    chosen = [n for n in site.notes if n.subsystem == "ci" and n.verdict == "optional"]
    assert len(chosen) == 2
    text = norm(subset.text)
    for note in site.notes:
        assert (norm(note.title) in text) == (note in chosen), note.title
    tree = outline(subset.pdf)
    assert [strip_number(t) for t, _ in tree] == ["目录", "CI 与构建"]
    assert sorted(strip_number(c) for c in tree[1][1]) == sorted(n.title for n in chosen)
    assert "子系统：CI 与构建；阅读结论：按需（2 篇）" in subset.text


def test_latex_build_leaves_tmpdir_alone(fixture_books):
    _, full, _ = fixture_books
    assert sorted(p.name for p in full.tmpdir.iterdir() if "jieba" in p.name) == []


def test_missing_glyph_fails_the_build(tmp_path):
    # U+13000 (an Egyptian hieroglyph) is in none of the book's fonts; the
    # error names the seed line, not the LaTeX log.
    proj = copy_project(tmp_path / "p", {"000.txt": "o/r\n\nA (#1)\n\n值得精读：\U00013000。\n"})
    proc = run_build_pdf(proj, tmp_path / "tmp")
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "error: seeds/000.txt:5: the book's fonts have no glyph for \U00013000 (U+13000); the PDF cannot show it",
        "prnotes pdf: 1 error(s); the PDF was not updated",
    ]
    assert not (proj / "_build/latex/prnotes.pdf").exists()


def test_long_unbroken_words_are_typeset_whole(tmp_path):
    """A word of a thousand letters (XeTeX crashed on it), a long URL and a long
    code span print, line-broken, with every character; nothing is added."""
    word, url, code = "x" * 1100, "https://example.com/" + "a?b&c/" * 180, "y" * 500
    proj = copy_project(tmp_path / "p", {"000.txt": f"o/r\n\nLong {'L' * 300} (#1)\n\n值得精读：{word} 以及 {url} 还有 `{code}` 结束。\n"})
    proc = run_build_pdf(proj, tmp_path / "tmp")
    assert proc.returncode == 0, proc.stderr
    text = "".join(pdftotext(proj / "_build/latex/prnotes.pdf", body_only=True).split())
    for part in (word, url, code, "L" * 300):
        assert part in text


def test_symbols_sphinx_would_replace_print_as_written(tmp_path):
    """✔ ✕ ✖ ⎽ ℯ ⅈ: Sphinx's LaTeX escaping prints them as ✓ × _ e i (✔ as
    three ✓ drawn over each other); the book prints them as the seed has them."""
    symbols = "✓ ✔ ✕ ✖ ⎽ ℯ ⅈ"
    proj = copy_project(tmp_path / "p", {"000.txt": f"o/r\n\n标题 {symbols} (#1)\n\n值得精读：{symbols}。\n"})
    proc = run_build_pdf(proj, tmp_path / "tmp")
    assert proc.returncode == 0, proc.stderr
    text = pdftotext(proj / "_build/latex/prnotes.pdf", body_only=True)
    assert text.count(symbols) == 3  # the table of contents, the title, the advice


def run_publish(project: Path, tmpdir: Path) -> subprocess.CompletedProcess:
    """`make publish`: the site, and the whole book typeset alongside."""
    tmpdir.mkdir(parents=True, exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "prnotes.commands.cli", "build", "--root", str(project), "--notes", "--pdf", "--",
         "-W", "-q", "-b", "html", "-d", "_build/doctrees", ".", "_build/html"],
        env=dict(os.environ, TMPDIR=str(tmpdir)), capture_output=True, text=True,
    )  # fmt: skip


def run_html(project: Path, tmpdir: Path) -> subprocess.CompletedProcess:
    """`make html`: the conversion, then the strict HTML build, unless nothing changed."""
    tmpdir.mkdir(parents=True, exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "prnotes.commands.cli", "build", "--root", str(project), "--notes", "--",
         "-W", "--keep-going", "-q", "-b", "html", "-d", "_build/doctrees", ".", "_build/html"],
        env=dict(os.environ, TMPDIR=str(tmpdir)), capture_output=True, text=True,
    )  # fmt: skip


def pdf_links(project: Path) -> list[str]:
    """The landing page's links to a book; each must lead to a file of the site."""
    html = project / "_build/html"
    found = re.findall(r'<a class="prnotes-pdf reference external" href="([^"]+)"', (html / "index.html").read_text(encoding="utf-8"))
    for href in found:
        assert (html / href).is_file(), href
    return found


def test_publish_builds_the_site_and_the_whole_book(tmp_path):
    proj = copy_project(tmp_path / "p", {"000.txt": "o/r\n\n标题 (#1)\n\n值得精读：一段话。\n"})
    proc = run_publish(proj, tmp_path / "tmp")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (proj / "_build/html/notes/o/r/pr-1.html").exists()
    assert "一段话" in pdftotext(proj / "_build/latex/prnotes.pdf")
    assert re.search(r"^prnotes pdf: 1 notes -> _build/latex/prnotes\.pdf", proc.stdout, re.MULTILINE)
    # The book, made while the pages were written, is in the site, and the landing page links it.
    assert pdf_links(proj) == ["pdf/prnotes.pdf"]
    assert (proj / "_build/html/pdf/prnotes.pdf").read_bytes() == (proj / "_build/latex/prnotes.pdf").read_bytes()
    # Nothing changed: the site is left as it is, and so is the book.
    again = run_publish(proj, tmp_path / "tmp")
    assert again.returncode == 0 and "unchanged since its last build" in again.stdout
    assert pdf_links(proj) == ["pdf/prnotes.pdf"]


def test_the_landing_page_links_the_book_after_make_pdf_and_make_html_in_either_order(tmp_path):
    """make pdf, then make html: the site copies the book and links it. make html (the stamp
    counts the books), with the book gone: the link and the copy go. make html, then make pdf:
    the pdf command builds the current site again, and the link is back. Never a link to a
    missing file (pdf_links)."""
    proj = copy_project(tmp_path / "p", {"000.txt": "o/r\n\n标题 (#1)\n\n值得精读：一段话。\n"})
    tmp, book, copy = tmp_path / "tmp", proj / "_build/latex/prnotes.pdf", proj / "_build/html/pdf/prnotes.pdf"
    made = run_build_pdf(proj, tmp)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "building it again" not in made.stdout  # no site yet
    built = run_html(proj, tmp)
    assert built.returncode == 0, built.stdout + built.stderr
    assert pdf_links(proj) == ["pdf/prnotes.pdf"] and copy.read_bytes() == book.read_bytes()
    assert "nothing changed" in run_html(proj, tmp).stdout
    book.unlink()
    assert run_html(proj, tmp).returncode == 0
    assert pdf_links(proj) == [] and not copy.exists() and not copy.parent.exists()
    assert "PDF" not in (proj / "_build/html/index.html").read_text(encoding="utf-8").split("<article", 1)[1]
    made = run_build_pdf(proj, tmp)
    assert made.returncode == 0, made.stdout + made.stderr
    assert "prnotes pdf: the site in _build/html was current: building it again to link the book" in made.stdout
    assert pdf_links(proj) == ["pdf/prnotes.pdf"] and copy.read_bytes() == book.read_bytes()
    assert "nothing changed" in run_html(proj, tmp).stdout


def test_publish_fails_with_the_book_naming_the_seed_line(tmp_path):
    proj = copy_project(tmp_path / "p", {"000.txt": "o/r\n\nA (#1)\n\n值得精读：\U00013000。\n"})
    proc = run_publish(proj, tmp_path / "tmp")
    assert proc.returncode == 1
    assert "error: seeds/000.txt:5: the book's fonts have no glyph for \U00013000 (U+13000)" in proc.stdout
    assert (proj / "_build/html/notes/o/r/pr-1.html").exists()  # the site is built all the same
    assert not (proj / "_build/latex/prnotes.pdf").exists()


def test_break_points_only_where_nothing_breaks():
    from prnotes.sphinxext.book.latex import BREAK, SOURCE_BREAK, break_points

    assert break_points("a" * 39) == [] and break_points("ab " * 100) == [] and break_points("汉" * 3000) == []
    assert [at for at, raw in break_points("x" * 100) if raw == BREAK] == [20, 40, 60, 80]
    assert [raw for _, raw in break_points("汉" * 9000)] == [SOURCE_BREAK, SOURCE_BREAK]


def test_a_tex_limit_names_the_entry(tmp_path):
    """xelatex stopped in an entry: the error names its seed entry, not the log.
    The entry is the last to begin before the line TeX names, even when TeX
    stopped in its heading, before its labels (the error used to blame the
    entry before it)."""
    from prnotes.build.pdf import tex_error
    from prnotes.sphinxext.book.latex import ENTRY_MARK

    proj = copy_project(tmp_path / "p", {"000.txt": "o/r\n\nA (#1)\n\n值得精读。\n\nB (#2)\n\n值得精读。\n"})
    latex = tmp_path / "latex"
    latex.mkdir()
    (latex / f"{TEX_NAME}.tex").write_text(
        f"\\begin{{document}}\n{ENTRY_MARK}notes/o/r/pr-1\n\\section{{A}}\n\\label{{\\detokenize{{notes/o/r/pr-1:x}}}}\nA\n"
        f"{ENTRY_MARK}notes/o/r/pr-2\n\\section{{B B B\nB}}\n\\label{{\\detokenize{{notes/o/r/pr-2:x}}}}\nB\n",
        encoding="utf-8",
    )
    # Line 8 is inside B's heading, before B's label.
    (latex / f"{TEX_NAME}.log").write_text("junk\n./prnotes.tex:8: TeX capacity exceeded, sorry [main memory size=5000000].\n", encoding="utf-8")
    problem = tex_error(latex, load(proj))
    assert str(problem) == "seeds/000.txt:7: xelatex cannot typeset this entry: TeX capacity exceeded, sorry [main memory size=5000000]. (prnotes.tex:8)"
    # Before the first entry: no entry to name.
    (latex / f"{TEX_NAME}.log").write_text("./prnotes.tex:1: Undefined control sequence.\n", encoding="utf-8")
    assert tex_error(latex, load(proj)) is None


def test_every_note_of_a_book_is_marked_in_its_source(fixture_books):
    """The comment pdf.py finds an entry by comes before each note's heading."""
    proj, full, _ = fixture_books
    marks = re.findall(r"^%prnotes:entry (\S+)\n+\\section\{", full.tex, re.MULTILINE)
    assert sorted(marks) == sorted(n.docname for n in load(proj).notes)


def test_a_long_title_is_cut_in_the_heading_and_printed_whole_below_it(tmp_path):
    """A title of 3,000 characters: the heading, and with it the running head,
    the bookmark and the table of contents, hold its first 120 characters and
    "…"; the whole title is printed under the heading, in parts (its time is
    linear: bench/pdf.py), and nothing of it is lost."""
    from prnotes.sphinxext.book.latex import TITLE_CUT

    title = ("长标题 long_title_word " * 200)[:3000].strip()
    seed = f"o/r\n\n{title} (#1)\n\n值得精读：正文。\n\n短标题 (#2)\n\n值得精读：另一段。\n"
    proj = copy_project(tmp_path / "p", {"000.txt": seed})
    built = build(proj, tmp_path / "tmp")
    cut = title[:TITLE_CUT].rstrip() + "…"
    assert [strip_number(t) for _, children in outline(built.pdf)[1:] for t in children] == ["短标题", cut]
    assert norm(title) in norm(built.body_text)
    sections = re.findall(r"^\\section\{(.*)\}$", built.tex, re.MULTILINE)
    assert len(sections) == 2 and all(len(s) < 2 * TITLE_CUT for s in sections)
    assert built.tex.count(r"\prnoteslongnext{}") >= 2
    # The running head of the note's pages names it by the cut title.
    page = next(page for name, page in note_pages(built.pdf) if name.endswith("…"))
    head = pdftotext(built.pdf, pages=(page + 2, page + 2)).splitlines()[0]
    assert "1.2" in head and len(head) < 200


def test_a_long_paragraph_is_typeset_in_parts_and_prints_as_one(tmp_path):
    """An advice paragraph of 40,000 characters is set in parts of about 1,000
    (xeCJK makes one long paragraph cost the square of its length:
    bench/pdf.py); it prints as one paragraph, every line but its last filled
    to the right margin, and no character is lost."""
    from prnotes.sphinxext.book.latex import PART

    body = ("值得精读：这段建议很长，含 English words、`code_span` 与 #2 引用。" * 1000)[:40000]
    seed = f"o/r\n\n长段落 (#1)\n\n{body}\n\n另一篇 (#2)\n\n值得精读：短。\n"
    proj = copy_project(tmp_path / "p", {"000.txt": seed})
    built = build(proj, tmp_path / "tmp")
    assert 40000 // PART - 6 <= built.tex.count(r"\prnoteslongnext{}") <= 40000 // PART
    text = norm(built.body_text)
    assert norm(body.replace("`", "")) in text
    # Every line of the paragraph but the last ends at the right margin: the
    # pages after the one its note begins on hold nothing else but, last, its
    # last line and what the note mentions (本篇提到：#2).
    start = note_pages(built.pdf)[1][1] + 1  # counted from 1
    ends = [right for page in range(start + 1, len(PdfReader(built.pdf).pages) + 1) for right, _ in line_ends(built.pdf, page)]
    margin = max(ends)
    assert len(ends) > 500
    assert [right for right in ends[:-2] if right < margin - 12] == []  # a line may end in punctuation or a Latin word


def test_an_unchanged_book_is_not_typeset_again(tmp_path):
    """Sphinx writes the whole book's LaTeX again on every run; when it is
    what the PDF was made from, xelatex is not run and the PDF stays."""
    proj = copy_project(tmp_path / "p")
    first = run_build_pdf(proj, tmp_path / "tmp")
    assert first.returncode == 0, first.stderr
    pdf = proj / "_build" / "latex" / "prnotes.pdf"
    made = pdf.stat().st_mtime_ns
    again = run_build_pdf(proj, tmp_path / "tmp")
    assert again.returncode == 0, again.stderr
    assert "unchanged since its last build" in again.stdout and pdf.stat().st_mtime_ns == made
    # A changed note is typeset again.
    seed = next((proj / "seeds").glob("001_*.txt"))
    seed.write_text(seed.read_text(encoding="utf-8").replace("简洁示例", "简明示例"), encoding="utf-8")
    changed = run_build_pdf(proj, tmp_path / "tmp")
    assert changed.returncode == 0, changed.stderr
    assert "unchanged" not in changed.stdout and "简明示例" in pdftotext(pdf)


def test_whole_book_refuses_a_selection(tmp_path):
    proj = copy_project(tmp_path / "p")
    proc = run_build_pdf(proj, tmp_path / "tmp", "--whole", "--verdict", "精读")
    assert proc.returncode == 2
    assert "--whole builds every note" in proc.stderr and "Traceback" not in proc.stderr
    assert not (proj / "_build" / "latex").exists()


def test_unknown_choice_names_the_valid_ones(tmp_path):
    proj = copy_project(tmp_path / "p")
    proc = run_build_pdf(proj, tmp_path / "tmp", "--subsystem", "nope")
    assert proc.returncode == 2
    assert "unknown subsystem 'nope'" in proc.stderr and "ci" in proc.stderr


# Print checks the site's pages no longer hold (its landing page has no
# cards and no badged list since the reader's morning redesign): a card
# linking to a page, and a list of which three items open with a badge.
PRINT_CHECKS = """

## 印刷检查

:::{card} CI 与构建
:link: notes/subsystem/ci
:link-type: doc

测试门禁与流水线。
:::

- {bdg-danger}`精读` 精读清单
- {bdg-primary}`速读` 速读清单
- {bdg-secondary}`按需` 按需清单
- 写给 CI 维护者
- 写给平台负责人
- 写给量化开发者
- 写给 MRV2 跟踪者
"""


@pytest.fixture(scope="module")
def site_latex(tmp_path_factory) -> Path:
    """The whole fixture site, from its landing page (with :data:`PRINT_CHECKS`
    at its end), through Sphinx's LaTeX builder (not the book)."""
    proj = copy_project(tmp_path_factory.mktemp("sitelatex") / "p")
    assert convert(proj) == 0
    with (proj / "index.md").open("a", encoding="utf-8") as index:
        index.write(PRINT_CHECKS)
    landing = [("index", f"{TEX_NAME}.tex", "PR 精读笔记", "PR 精读笔记", "manual")]
    app = sphinx_build(proj, "latex", confoverrides={"latex_documents": landing})
    assert app.warning.getvalue() == ""
    return proj


def test_cards_print_as_linked_titles(site_latex):
    """A card's link is on its title, before the card's text, and no stray
    copy of it follows the text (the book has no cards, a plain LaTeX build may)."""
    tex = (site_latex / "_build/latex" / f"{TEX_NAME}.tex").read_text(encoding="utf-8")
    cards = tex.split(r"\begin{sphinxuseclass}{sd-card}")[1:]
    assert len(cards) == 1
    body = cards[0].split(r"\end{sphinxuseclass}\end{sphinxuseclass}")[0]
    link = r"\hyperref[\detokenize{notes/subsystem/ci::doc}]"
    assert body.count(r"\hyperref[") == 1 and body.count(link) == 1
    assert body.index(link) < body.index("CI 与构建") < body.index(r"\sphinxAtStartPar") < body.index("测试门禁与流水线")


def line_tops(pdf: Path, page: int) -> list[tuple[float, str]]:
    """``(top, text)`` of each line of a page, from pdftotext's layout boxes."""
    cmd = ["pdftotext", "-enc", "UTF-8", "-f", str(page), "-l", str(page), "-bbox-layout", str(pdf), "-"]
    xhtml = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [
        (float(top), "".join(re.findall(r">([^<]*)</word>", words)))
        for top, words in re.findall(r'<line xMin="[\d.]+" yMin="([\d.]+)"[^>]*>(.*?)</line>', xhtml, re.S)
    ]


def line_ends(pdf: Path, page: int) -> list[tuple[float, str]]:
    """``(right end, text)`` of each line of a page's text block: not the
    running head or the page number (-bbox-layout reads the whole page)."""
    cmd = ["pdftotext", "-enc", "UTF-8", "-f", str(page), "-l", str(page), "-bbox-layout", str(pdf), "-"]
    xhtml = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    top, bottom = float(BODY_CROP[3]), float(BODY_CROP[3]) + float(BODY_CROP[7])
    return [
        (float(right), "".join(re.findall(r">([^<]*)</word>", words)))
        for y, right, words in re.findall(r'<line xMin="[\d.]+" yMin="([\d.]+)" xMax="([\d.]+)"[^>]*>(.*?)</line>', xhtml, re.S)
        if top < float(y) < bottom
    ]


def test_list_items_with_badges_are_spaced_like_the_others(site_latex, tmp_path):
    """A list of which three items open with a filled badge (精读, 速读, 按需)
    and four do not (:data:`PRINT_CHECKS`): in print all are the same distance apart."""
    latex = site_latex / "_build" / "latex"
    env = dict(os.environ, TMPDIR=str(tmp_path))
    cmd = ["xelatex", "-interaction=nonstopmode", "-halt-on-error", f"{TEX_NAME}.tex"]
    subprocess.run(cmd, cwd=latex, env=env, capture_output=True, check=True)
    pdf = latex / f"{TEX_NAME}.pdf"
    for number in range(1, len(PdfReader(pdf).pages) + 1):
        lines = line_tops(pdf, number)
        if any(text.startswith("•写给MRV2跟踪者") for _, text in lines):
            break
    start = next(i for i, (_, text) in enumerate(lines) if text.startswith("•精读精读清单"))
    items = lines[start : start + 7]
    assert [t[:3] for _, t in items] == ["•精读", "•速读", "•按需", "•写给", "•写给", "•写给", "•写给"]
    gaps = [round(b - a, 1) for (a, _), (b, _) in zip(items, items[1:])]
    assert max(gaps) - min(gaps) <= 0.2, gaps


# Pure parts: no LaTeX.


def test_parse_selection_accepts_titles_slugs_and_lists(site):
    tax = site.taxonomy
    assert parse_selection("", "", tax) == Selection()
    assert parse_selection("精读", "", tax) == Selection(verdicts=("close",))
    # Taxonomy order, no repeats, whatever order the reader typed.
    assert parse_selection("optional，精读,close", "platform, ci", tax) == Selection(
        verdicts=("close", "optional"), subsystems=("platform", "ci")
    )
    with pytest.raises(ValueError, match="精读 \\(close\\)"):
        parse_selection("细读", "", tax)
    # Another repository's subsystem is named by its key; a book's name stays ASCII without a slash.
    chosen = parse_selection("", "sgl-project/sglang/mem-cache, ci", tax)
    assert chosen == Selection(subsystems=("ci", "sgl-project/sglang/mem-cache"))
    assert chosen.name == "prnotes-ci-sgl-project-sglang-mem-cache"
    with pytest.raises(ValueError, match="<owner>/<repo>/<slug>"):
        parse_selection("", "mem-cache", tax)


def test_selection_names_and_describes_the_book(site):
    tax = site.taxonomy
    assert Selection().name == "prnotes"
    assert Selection(("close",), ("ci",)).name == "prnotes-ci-close"
    assert Selection().describe(tax, 16) == "全部笔记（16 篇）"
    assert Selection(("close",), ("platform", "ci")).describe(tax, 5) == "子系统：平台抽象与其他硬件、CI 与构建；阅读结论：精读（5 篇）"


def test_select_keeps_only_mentions_among_chosen_notes(tmp_path):
    seed = "o/r\n\nA (#1)\n\n值得精读，见 #2。\n\nB (#2)\n\n值得快速浏览，见 #1。\n"
    site = load(copy_project(tmp_path / "p", {"000.txt": seed}))
    assert site.mentioned_by[("o/r", 1)] == ("notes/o/r/pr-2",)
    close = select(site, Selection(verdicts=("close",)))
    assert [n.number for n in close.notes] == [1]
    assert ("o/r", 1) not in close.mentioned_by  # only B mentioned #1, and B is left out
    assert close.mentioned_by[("o/r", 2)] == ("notes/o/r/pr-1",)
    assert select(site, Selection(verdicts=("optional",))).notes == ()


def test_book_pages_are_the_selected_notes_under_a_book_root(site):
    close = select(site, Selection(verdicts=("close",)))
    pages = render_book(close)
    assert list(pages) == sorted(pages)
    notes = {p for p in pages if p.startswith("notes/vllm-project/")}
    assert notes == {f"{n.docname}.md" for n in site.notes if n.verdict == "close"}
    root = pages["notes/book.md"]
    chapters = re.findall(r"^subsystem/(\S+)$", root, re.MULTILINE)
    used = [s.slug for s in site.subsystems if close.in_subsystem(s.key)]
    assert chapters == used and "platform" not in chapters  # platform has no 精读 note
    assert VERDICT_BY_SLUG["close"].title in pages["notes/subsystem/ci.md"]


def test_missing_characters_reads_the_log():
    log = (
        "Missing character: There is no 𓀀 (U+13000) in font NotoSerifCJKsc-Regular:mode=harf;!\n"
        "other line\n"
        "Missing character: There is no 𓀀 (U+13000) in font NotoSerifCJKsc-Regular:mode=harf;!\n"
    )
    assert missing_characters(log) == [log.splitlines()[0]]
    assert missing_characters("no problems here\n") == []


def _digest(start: int, count: int, extra: str = "") -> str:
    entries = [f"新增路径 {n} 的统计 (#{n})\n\n值得精读。重点看 `f_{n}` 的重算路径。{extra if n == start else ''}" for n in range(start, start + count)]
    return "o/r\n\n" + "\n\n".join(entries) + "\n"


def test_an_archive_of_volumes_gets_a_pdf_per_volume_built_only_when_it_changed(tmp_path, monkeypatch):
    from prnotes.model import site as model
    from prnotes.build.pdf import build_volumes

    monkeypatch.setattr(model, "VOLUME_NOTES", 20)
    # Volume 1: digests a and b (22 notes); volume 2: digest c, whose first note mentions #1001 of volume 1.
    seeds = {"a.txt": _digest(1001, 11), "b.txt": _digest(1012, 11), "c.txt": _digest(1023, 5, "结合 #1001 看。")}
    proj = copy_project(tmp_path / "proj", seeds)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    latex = proj / "_build" / "latex"

    books = build_volumes(proj, processes=2)
    assert [b.pdf.name for b in books] == ["prnotes-v1.pdf", "prnotes-v2.pdf"]
    assert [b.built for b in books] == [True, True] and [b.notes for b in books] == [22, 5]
    assert [b.scope for b in books] == ["第 1–2 期（22 篇）", "第 3 期（5 篇）"]
    v1, v2 = (norm(pdftotext(b.pdf)) for b in books)
    assert "新增路径1001的统计" in v1 and "f_1023" not in v1
    assert "新增路径1023的统计" in v2 and "新增路径1001的统计" not in v2
    assert "第1–2期（22篇）" in v1  # the title page says which volume
    # #1001 is in the other volume: its link goes to GitHub.
    uris, _ = link_uris(latex / "prnotes-v2.pdf")
    assert "https://github.com/o/r/pull/1001" in uris
    # #1001's note names the note that mentions it from volume 2: its PR on
    # GitHub and its digest.
    assert "新增路径1023的统计" not in v1 and "提到本篇的笔记：#1023（第3期）" in v1
    assert "https://github.com/o/r/pull/1023" in link_uris(latex / "prnotes-v1.pdf")[0]
    times = {p.name: p.stat().st_mtime_ns for p in latex.glob("*.pdf")}

    # Nothing changed: nothing is built.
    assert [b.built for b in build_volumes(proj, processes=2)] == [False, False]
    assert {p.name: p.stat().st_mtime_ns for p in latex.glob("*.pdf")} == times

    # A new digest joins volume 2: only volume 2 is built again.
    (proj / "seeds" / "d.txt").write_text(_digest(1028, 3), encoding="utf-8")
    books = build_volumes(proj, processes=2)
    assert [(b.pdf.name, b.built) for b in books] == [("prnotes-v1.pdf", False), ("prnotes-v2.pdf", True)]
    assert (latex / "prnotes-v1.pdf").stat().st_mtime_ns == times["prnotes-v1.pdf"]
    assert "新增路径1030的统计" in norm(pdftotext(latex / "prnotes-v2.pdf"))

    # The digests of volume 2 deleted: one volume is left, which is the whole book; no volume PDF stays.
    (proj / "seeds" / "c.txt").unlink()
    (proj / "seeds" / "d.txt").unlink()
    books = build_volumes(proj, processes=2)
    assert [b.pdf.name for b in books] == ["prnotes.pdf"]
    assert sorted(p.name for p in latex.glob("*.pdf")) == ["prnotes.pdf"]
    assert not list((proj / "_build" / "pdf").glob("prnotes-v*"))


def test_the_volumes_together_must_hold_every_entry(tmp_path):
    """Each volume holds some notes; together they must hold every one."""
    from prnotes.build.audit import check_pdf_text, seed_entries

    proj = copy_project(tmp_path / "proj", {"a.txt": _digest(1, 2), "b.txt": _digest(3, 2)})
    entries = seed_entries(proj)
    halves = [[e for e in entries if e.number in (1, 2)], [e for e in entries if e.number in (3, 4)]]
    pages = [[f"{e.title}\n#{e.number}\n{e.body}" for e in half] for half in halves]
    assert check_pdf_text(entries, pages[0] + pages[1], "PDF volumes") == []
    assert {f.line for f in check_pdf_text(entries, pages[0], "PDF volumes")} == {e.line for e in halves[1]}
