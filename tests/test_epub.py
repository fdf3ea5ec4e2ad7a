"""The EPUB (`make epub`): a book that epubcheck accepts, in Chinese, without the site's search.

The fixture project (tests/roots/vllm16) is built with Sphinx's epub builder
and the book is checked with epubcheck (Debian's ``epubcheck``, which
``scripts/bootstrap.sh apt browser`` installs for ``make test``).
"""

from __future__ import annotations

import errno
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from prnotes.sphinxext.book import epub
from tests.support.pagechecks import java_env
from tests.support.sandbox import convert, copy_project, sphinx_build

EPUBCHECK = shutil.which("epubcheck")
needs_epubcheck = pytest.mark.skipif(EPUBCHECK is None, reason="epubcheck is not installed (scripts/bootstrap.sh apt browser)")
XHTML = "{http://www.w3.org/1999/xhtml}"
OPF = "{http://www.idpf.org/2007/opf}"
DC = "{http://purl.org/dc/elements/1.1/}"
GENERIC_FAMILIES = ("serif", "sans-serif", "monospace")


def epubcheck(book: Path, report: Path) -> dict:
    """epubcheck's JSON report on ``book``."""
    command = [EPUBCHECK, "-q", "--json", str(report), str(book)]
    try:
        subprocess.run(command, env=java_env(), capture_output=True, check=False, timeout=600)
    except OSError as exc:
        # Debian's epubcheck is the jar itself, run through binfmt_misc; without it, Java runs it.
        if exc.errno != errno.ENOEXEC:
            raise
        subprocess.run(["java", "-jar", *command], env=java_env(), capture_output=True, check=False, timeout=600)
    return json.loads(report.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    proj = copy_project(tmp_path_factory.mktemp("epub") / "proj")
    assert convert(proj) == 0
    app = sphinx_build(proj, "epub", freshenv=True)
    assert app.warning.getvalue() == ""  # make epub runs with -W
    return proj, proj / "_build" / "epub" / "prnotes.epub"


def pages(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist() if name.endswith(".xhtml")}


@needs_epubcheck
def test_epubcheck_finds_nothing_wrong(book, tmp_path):
    _, path = book
    report = epubcheck(path, tmp_path / "report.json")
    problems = [f"{m['severity']} {m['ID']}: {m['message']} ({m['locations'][0]['path'] if m['locations'] else ''})"
                for m in report["messages"] if m["severity"] in ("FATAL", "ERROR", "WARNING")]  # fmt: skip
    assert problems == []
    assert (report["checker"]["nFatal"], report["checker"]["nError"]) == (0, 0)
    assert report["publication"]["language"] == "zh-CN"
    assert report["publication"]["title"] == "PR 精读笔记"


def test_the_book_is_named_for_the_project_and_says_it_is_chinese(book):
    _, path = book
    assert path.is_file()
    with zipfile.ZipFile(path) as z:
        opf = ET.fromstring(z.read("content.opf"))
        names = z.namelist()
    meta = opf.find(f"{OPF}metadata")
    assert meta.findtext(f"{DC}language") == "zh-CN"
    assert meta.findtext(f"{DC}title") == "PR 精读笔记"
    assert opf.get("unique-identifier") == meta.find(f"{DC}identifier").get("id")
    assert "index.xhtml" in names and any(n.startswith("notes/vllm-project/vllm/pr-") for n in names)


def test_the_table_of_contents_is_chinese_and_lists_every_part(book):
    proj, path = book
    with zipfile.ZipFile(path) as z:
        nav = ET.fromstring(z.read("nav.xhtml"))
        ncx = z.read("toc.ncx").decode("utf-8")
    assert nav.find(f"{XHTML}head/{XHTML}title").text == "目录"
    assert "Table of Contents" not in ncx
    entries = [a.get("href") for a in nav.iter(f"{XHTML}a")]
    # The landing page's toctrees are hidden on the site; the book lists them: parts and their notes.
    assert "notes/subsystem/ci.xhtml" in entries and "notes/pr-index.xhtml" in entries
    notes = [e for e in entries if e.startswith("notes/vllm-project/vllm/pr-")]
    assert notes and not [e for e in notes if "#" in e]  # not the notes' own sections


def test_every_page_is_well_formed_xhtml_in_chinese_without_search(book):
    _, path = book
    found = pages(path)
    assert len(found) > 16
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
    assert not [n for n in names if re.search(r"searchtools|language_data|searchindex|_search/|search\.x?html|\.js$", n)]
    for name, data in found.items():
        root = ET.fromstring(data)  # raises on a tag left open
        assert not re.search(rb"searchtools|language_data|searchindex|_search/", data), name
        assert b"<script" not in data, name  # the book runs no script: the site's search loader stays out
        if name != "nav.xhtml":
            assert (root.get("lang"), root.get("{http://www.w3.org/XML/1998/namespace}lang")) == ("zh-CN", "zh-CN"), name


def test_fonts_are_named_then_left_to_the_reader(book):
    proj, path = book
    with zipfile.ZipFile(path) as z:
        css = z.read("_static/prnotes-epub.css").decode("utf-8")
        note = next(n for n in z.namelist() if n.startswith("notes/vllm-project/vllm/pr-"))
        page = z.read(note).decode("utf-8")
        embedded = [n for n in z.namelist() if n.endswith((".otf", ".ttf", ".woff", ".woff2"))]
    assert "prnotes-epub.css" in page and "prnotes.css" not in page.replace("prnotes-epub.css", "")
    families = re.findall(r"font-family:\s*([^;]+);", css)
    assert families and embedded == []
    for family in families:
        names = [f.strip() for f in family.split(",")]
        assert names[-1] in GENERIC_FAMILIES, family  # every reader has it
        if names[-1] != "monospace":
            assert any("CJK SC" in n or n.endswith(" SC") for n in names), family


def test_the_feed_links_leave_the_book_for_the_site(tmp_path):
    proj = copy_project(tmp_path / "proj", {"a.txt": "o/r\n\nA (#1)\n\n值得精读。CI 门禁。\n"})
    assert convert(proj) == 0
    app = sphinx_build(proj, "epub", freshenv=True, confoverrides={"html_baseurl": "https://notes.example.com/"})
    assert app.warning.getvalue() == ""
    with zipfile.ZipFile(proj / "_build/epub/prnotes.epub") as z:
        feeds = z.read("notes/feeds.xhtml").decode("utf-8")
    assert 'href="https://notes.example.com/feed.xml"' in feeds
    assert 'href="https://notes.example.com/feeds/subsystem/' in feeds
    assert 'href="../feed.xml"' not in feeds and 'href="../feeds/' not in feeds


def test_a_book_built_without_the_sites_address_names_the_feeds_without_linking_them(book):
    proj, path = book
    with zipfile.ZipFile(path) as z:
        feeds = z.read("notes/feeds.xhtml").decode("utf-8")
    assert "feed.xml" not in feeds and "feeds/" not in feeds and "://prnotes" not in feeds
    assert '<span class="prnotes-feed">全部笔记</span>' in feeds


def test_open_void_tags_are_closed_and_closed_ones_left_alone():
    assert epub.close_void_tags('<meta name="description" content="a > b">') == '<meta name="description" content="a > b" />'
    assert epub.close_void_tags('<meta name="x" content="y" />') == '<meta name="x" content="y" />'
    assert epub.close_void_tags('<link rel="alternate" href="feed.xml">\n<meta a="1"/>') == (
        '<link rel="alternate" href="feed.xml" />\n<meta a="1"/>'
    )
