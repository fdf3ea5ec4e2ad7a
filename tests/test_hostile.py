"""Hostile and careless input, one class per test group (issue 11).

Every case either asserts the exact messages (``file:line: what``, a non-zero
exit, nothing written), or, when the input is accepted, that every output
shows it correctly: the page, the feed, the search index, the meta tags and
the PDF.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from tests.support.committed import commit_everything
from tests.support.sandbox import convert, copy_project, sphinx_build
from tests.test_atomic import tree
from prnotes.parse import chars
from prnotes import contract
from prnotes.write import files as write
from prnotes.build.audit import audit, page_text, squash
from tests.support.sections import section_text
from prnotes.parse.chars import for_print
from prnotes.commands.cli import main
from prnotes.project import load
from prnotes.sphinxext.search.language import Utf8JavaScriptIndex

NAME_RULE = (
    "rename the file: a seed file name may be any UTF-8 text ending in .txt, spaces and punctuation included, "
    "but no control, bidirectional control, line separator, private-use or noncharacter code points"
)
GOOD = "o/r\n\nA CI (#1)\n\n值得精读。CI 门禁。\n"


def run(proj: Path, capsys, *args: str, command: str = "notes") -> tuple[int, list[str]]:
    """A ``prnotes`` subcommand in this process: exit status and stderr lines."""
    code = main([command, "--root", str(proj), *(["-q"] if command == "notes" else []), *args])
    return code, capsys.readouterr().err.splitlines()


def cli(proj: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """A ``prnotes`` subcommand in its own process, as make runs it."""
    env = dict(os.environ, TMPDIR=str(proj.parent))
    return subprocess.run(
        [sys.executable, "-m", "prnotes.commands.cli", args[0], "--root", str(proj), *args[1:]],
        capture_output=True, text=True, env=env, timeout=timeout,
    )  # fmt: skip


def errors(lines: list[str], tool: str = "prnotes notes", outcome: str = "nothing written") -> list[str]:
    """The problem lines of a failed run, checking the summary line after them."""
    assert lines[-1] == f"{tool}: {len(lines) - 1} error(s); {outcome}", lines
    return [line.removeprefix("error: ") for line in lines[:-1]]


# --- 1. characters that passed the converter and broke a later stage -----------

REJECTED = [
    ("\ufffe", "noncharacter U+FFFE is not allowed: it is not text"),
    ("\uffff", "noncharacter U+FFFF is not allowed: it is not text"),
    ("\ufdd0", "noncharacter U+FDD0 is not allowed: it is not text"),
    ("\U0001ffff", "noncharacter U+1FFFF is not allowed: it is not text"),
    ("\u202e", "bidirectional control character U+202E is not allowed: it changes the order in which text is shown"),
    ("\u2066", "bidirectional control character U+2066 is not allowed: it changes the order in which text is shown"),
    ("\u200f", "bidirectional control character U+200F is not allowed: it changes the order in which text is shown"),
    ("\u061c", "bidirectional control character U+061C is not allowed: it changes the order in which text is shown"),
    ("\u2028", "line separator U+2028 is not allowed: end the line with a newline instead"),
    ("\u2029", "paragraph separator U+2029 is not allowed: end the line with a newline instead"),
    ("\ue000", "private-use character U+E000 is not allowed: it has no meaning outside the font that defines it"),
    ("\U000f0000", "private-use character U+F0000 is not allowed: it has no meaning outside the font that defines it"),
]


@pytest.mark.parametrize(("char", "message"), REJECTED, ids=[f"U+{ord(c):04X}" for c, _ in REJECTED])
def test_rejected_characters_name_the_line(tmp_path, capsys, char, message):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    before = tree(proj)
    (proj / "seeds/001.txt").write_text(f"o/r\n\n标题{char}结尾 (#2)\n\n值得精读。\n正文{char}。\n", encoding="utf-8")
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == [f"seeds/001.txt:3: {message}", f"seeds/001.txt:6: {message}"]
    assert tree(proj) == before


# Accepted: invisible format characters, variation selectors, emoji tags and
# rare spaces. Each is in a title and in the first sentence of an advice.
ACCEPTED = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u034f\ufe0f\U000e0101\U000e0067\u180e\u2009\u202f\u3000\xa0"
ACCEPTED_SEED = "o/r\n\n" + "".join(
    f"零宽{ch}标题 {i} CI (#{i + 1})\n\n值得精读：正文{ch}内容 & <b> \"q\"。第二句。\n\n" for i, ch in enumerate(ACCEPTED)
)


@pytest.fixture(scope="module")
def accepted_site(tmp_path_factory):
    proj = copy_project(tmp_path_factory.mktemp("accepted") / "p", {"000.txt": ACCEPTED_SEED})
    assert convert(proj, "--strict") == 0
    commit_everything(proj)  # the feed lists committed digests
    app = sphinx_build(proj)
    return proj, app


def test_accepted_characters_pass_to_the_pages(accepted_site):
    proj, app = accepted_site
    assert app.warning.getvalue() == ""
    for i, ch in enumerate(ACCEPTED):
        html = (proj / f"_build/html/notes/o/r/pr-{i + 1}.html").read_text(encoding="utf-8")
        title, _ = page_text(html)
        assert title.strip() == f"零宽{ch}标题 {i} CI"
        assert section_text(html, contract.ADVICE_SECTION).strip() == f"值得精读：正文{ch}内容 & <b> \"q\"。第二句。"
    assert audit(proj).findings == ()


def test_accepted_characters_pass_to_the_feed(accepted_site):
    proj, _ = accepted_site
    atom = "{http://www.w3.org/2005/Atom}"
    entries = ET.parse(proj / "_build/html/feed.xml").getroot().findall(f"{atom}entry")
    titles = {entry.findtext(f"{atom}title") for entry in entries}
    assert titles == {f"[精读] o/r#{i + 1} 零宽{ch}标题 {i} CI" for i, ch in enumerate(ACCEPTED)}
    # The advice, then the addresses of the note (when the site's is known) and of the pull request.
    contents = {re.split("\n\n(?:笔记|GitHub)：", entry.findtext(f"{atom}content"), maxsplit=1)[0] for entry in entries}
    assert {f"值得精读：正文{ch}内容 & <b> \"q\"。第二句。" for ch in ACCEPTED} <= {c.strip() for c in contents}


def test_accepted_characters_pass_to_the_search_index(accepted_site):
    proj, _ = accepted_site
    text = (proj / "_build/html/searchindex.js").read_text(encoding="utf-8")
    index = Utf8JavaScriptIndex().loads(text)
    titles = set(index["titles"])
    assert {f"零宽{ch}标题 {i} CI" for i, ch in enumerate(ACCEPTED)} <= titles


def test_accepted_characters_pass_to_the_meta_tags(accepted_site):
    proj, _ = accepted_site
    for i, ch in enumerate(ACCEPTED):
        soup = BeautifulSoup((proj / f"_build/html/notes/o/r/pr-{i + 1}.html").read_text(encoding="utf-8"), "html.parser")
        assert soup.find("meta", attrs={"property": "og:title"})["content"] == f"零宽{ch}标题 {i} CI"
        expected = f"值得精读：正文{ch}内容 & <b> \"q\"。"
        assert soup.find("meta", attrs={"property": "og:description"})["content"] == expected
        assert soup.find("meta", attrs={"name": "description"})["content"] == expected


def test_a_line_that_shows_nothing_is_blank(tmp_path, capsys):
    # An invisible character on an empty-looking line: the line still
    # separates the title from its body; an invisible title is empty.
    seed = "o/r\n\u200b\nA CI (#1)\n\u2060\u00ad \n值得精读。\n\n\ufeff (#2)\n\n值得精读。\n"
    proj = copy_project(tmp_path / "p", {"000.txt": seed})
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == ["seeds/000.txt:7: title is empty"]
    (proj / "seeds/000.txt").write_text(seed.split("\n\n\ufeff")[0] + "\n", encoding="utf-8")
    assert run(proj, capsys) == (0, [])
    assert load(proj).note_for("o/r", 1).body == "值得精读。"


def pdftotext(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def test_accepted_characters_pass_to_the_pdf(accepted_site):
    proj, _ = accepted_site
    proc = cli(proj, "pdf", "-j", "1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    text = squash(pdftotext(proj / "_build/latex/prnotes.pdf"))
    for i, ch in enumerate(ACCEPTED):
        assert squash(for_print(f"零宽{ch}标题 {i} CI")) in text
        assert squash(for_print(f"正文{ch}内容")) in text
    assert audit(proj).findings == ()  # the PDF's text too


def test_character_without_a_glyph_names_the_seed_line(tmp_path, capsys):
    # The book's fonts have no emoji and no hieroglyphs; the browser has.
    seeds = {
        "000.txt": "o/r\n\nA CI 😀 (#1)\n\n值得精读。\n第二行 \U00013000 与 😀。\n\nB CI (#2)\n\n值得精读。\n",
        "001.txt": "o/r\n\nC 平台\n\n值得精读。😀\n",
        "prs.toml": '["o/r"]\n"C 平台" = { number = 3, upstream_title = "[ROCm] \\U0001F600" }\n',
    }
    proj = copy_project(tmp_path / "p", seeds)
    # o/r has no set of its own: its chapters are the default set's.
    taxonomy = (proj / "taxonomy/default.toml").read_text(encoding="utf-8").split("\n")
    ci = taxonomy.index('title = "CI 与构建"')
    taxonomy[ci] = 'title = "CI 与构建 🀄"'  # a chapter title
    (proj / "taxonomy/default.toml").write_text("\n".join(taxonomy), encoding="utf-8")
    assert convert(proj) == 0
    proc = cli(proj, "pdf", "-j", "1")
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "error: seeds/000.txt:3: the book's fonts have no glyph for 😀 (U+1F600); the PDF cannot show it",
        "error: seeds/000.txt:6: the book's fonts have no glyph for 𓀀 (U+13000), 😀 (U+1F600); the PDF cannot show it",
        "error: seeds/001.txt:5: the book's fonts have no glyph for 😀 (U+1F600); the PDF cannot show it",
        "error: seeds/prs.toml:2: the book's fonts have no glyph for 😀 (U+1F600); the PDF cannot show it",
        f"error: taxonomy/default.toml:{ci + 1}: the book's fonts have no glyph for 🀄 (U+1F004); the PDF cannot show it",
        "prnotes pdf: 5 error(s); the PDF was not updated",
    ]
    assert not (proj / "_build/latex/prnotes.pdf").exists()


# --- 2. control characters through prs.toml escapes ----------------------------

ESCAPES = [
    ("\\u0000", "control character U+0000 is not allowed"),
    ("\\u001b", "control character U+001B is not allowed"),
    ("\\b", "control character U+0008 is not allowed"),
    ("\\f", "control character U+000C is not allowed"),
    ("\\r", "control character U+000D is not allowed"),
    ("\\u007F", "control character U+007F is not allowed"),
    ("\\uFFFE", "noncharacter U+FFFE is not allowed: it is not text"),
    ("\\u202E", "bidirectional control character U+202E is not allowed: it changes the order in which text is shown"),
    ("\\u2028", "line separator U+2028 is not allowed: end the line with a newline instead"),
    ("\\U000F0001", "private-use character U+F0001 is not allowed: it has no meaning outside the font that defines it"),
]


@pytest.mark.parametrize(("escape", "message"), ESCAPES, ids=[e for e, _ in ESCAPES])
@pytest.mark.parametrize("where", ["upstream_title", "title"])
def test_toml_escape_of_a_rejected_character_names_the_line(tmp_path, capsys, escape, message, where):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD + "\nB CI\n\n值得精读。\n"})
    assert convert(proj) == 0
    before = tree(proj)
    title, upstream = ("B CI", f"x{escape} y") if where == "upstream_title" else (f"B{escape} CI", "x")
    (proj / "seeds/prs.toml").write_text(
        f'# \\u0000 in a comment is no escape\n["o/r"]\n"A CI" = {{ number = 1 }}\n"{title}" = {{ number = 2, upstream_title = "{upstream}" }}\n',
        encoding="utf-8",
    )
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == [f"seeds/prs.toml:4: {message} (written as {escape})"]
    assert tree(proj) == before


def test_toml_escapes_of_allowed_characters_are_accepted(tmp_path, capsys):
    seeds = {
        "000.txt": GOOD + "\nB CI\n\n值得精读。\n",
        "prs.toml": '["o/r"]\n"B CI" = { number = 2, upstream_title = "[ROCm] tab\\there \\\\u0000 \\"q\\" \\u00e9 \\u200b" }\n',
    }
    proj = copy_project(tmp_path / "p", seeds)
    assert run(proj, capsys) == (0, [])
    note = load(proj).note_for("o/r", 2)
    assert note.upstream_title == '[ROCm] tab\there \\u0000 "q" é \u200b'


def test_taxonomy_toml_escapes_are_checked_too(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    taxonomy = (proj / "taxonomy.toml").read_text(encoding="utf-8")
    lines = taxonomy.split("\n")
    title_line = next(i for i, line in enumerate(lines) if line.startswith("title = "))
    lines[title_line] = 'title = "CI\\u001b[31m"'
    (proj / "taxonomy.toml").write_text("\n".join(lines), encoding="utf-8")
    code, out = run(proj, capsys)
    assert code == 1
    assert errors(out) == [f"taxonomy.toml:{title_line + 1}: control character U+001B is not allowed (written as \\u001b)"]


def test_deeply_nested_toml_is_one_line(tmp_path, capsys):
    # tomllib parses nesting by recursion.
    nested = "[" * 3000 + "]" * 3000
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD, "prs.toml": f'["o/r"]\n"A CI" = {{ number = 1 }}\nx = {nested}\n'})
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == ["seeds/prs.toml:3: invalid TOML: arrays or tables nested too deeply"]


# --- 3. seed file names ---------------------------------------------------------

ODD_NAMES = {
    "000 first digest.txt": "o/r\n\nA CI 标题 (#1)\n\n值得精读。见 #2。\n",
    "001:x.txt": "o/r\n\nB CI (#2)\n\n值得精读。\n",
    "002 a:b [c] %d #e 'f' \"g\" `h` ``i`` {j} $k.txt": "o/r\n\nC CI (#3)\n\n值得快速浏览：CI。\n",
    "003 -n.txt": "o/r\n\nD CI (#4)\n\n值得快速浏览：CI。\n",
}


def test_odd_seed_names_convert_and_build_with_make(tmp_path):
    proj = copy_project(tmp_path / "p", ODD_NAMES)
    venv = Path(sys.executable).parent.parent
    # -o: the running venv is set up already; the copy (which has no package code) must never install into it.
    proc = subprocess.run(["make", "-C", str(proj), "html", f"VENV={venv}", "-o", f"{venv}/.installed-site"],
                          capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    for text in ODD_NAMES.values():
        number = re.search(r"\(#(\d+)\)", text).group(1)
        assert (proj / f"_build/html/notes/o/r/pr-{number}.html").is_file()
    report = audit(proj)
    assert (report.entries, report.pages, report.findings) == (4, 4, ())


def test_seed_name_that_is_not_utf8_is_refused(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    (proj / "seeds").joinpath(os.fsdecode(b"001 caf\xe9.txt")).write_text(GOOD, encoding="utf-8")
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == [f"seeds/001 caf\\xe9.txt:1: the file name has bytes that are not UTF-8; {NAME_RULE}"]
    assert not (proj / "notes").exists()


# --- 4. label collisions across repositories --------------------------------------


def test_labels_are_distinct_when_pages_are():
    repos = ["a/b-c", "a-b/c", "a/b", "a-b/c-d", "a-b-c/d", "a/b-c-d", "vllm-project/vllm", "a/b.c", "a-b/c.d", "A/b_c"]
    for number in (1, 12, None):
        pages = {contract.note_docname(r, number, "T") for r in repos}
        labels = {contract.note_label(r, number, "T") for r in repos}
        assert len(labels) == len(pages)
    # The labels of names without punctuation are what they always were.
    assert contract.note_label("vllm-project/vllm", 51368, "") == "pr-vllm-project-vllm-51368"
    assert contract.note_label("a-b/c", 1, "") == "pr-a-b-c-1"
    assert contract.note_label("a/b-c", 1, "") == "pr-a--b-c-1"


def test_repositories_that_slug_alike_build_without_duplicate_labels(tmp_path):
    proj = copy_project(
        tmp_path / "p",
        {"000.txt": "a/b-c\n\nA CI (#1)\n\n值得精读。见 a-b/c#1。\n", "001.txt": "a-b/c\n\nB CI (#1)\n\n值得精读。见 a/b-c#1。\n"},
    )
    assert convert(proj, "--strict") == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    a = (proj / "_build/html/notes/a/b-c/pr-1.html").read_text(encoding="utf-8")
    b = (proj / "_build/html/notes/a-b/c/pr-1.html").read_text(encoding="utf-8")
    # Each has its own label, and each links to the other.
    assert "(pr-a--b-c-1)=" in (proj / "notes/a/b-c/pr-1.md").read_text(encoding="utf-8")
    assert "(pr-a-b-c-1)=" in (proj / "notes/a-b/c/pr-1.md").read_text(encoding="utf-8")
    assert set(re.findall(r'href="(\.\./[^"#]*pr-1\.html)"', a)) == {"../../a-b/c/pr-1.html"}
    assert set(re.findall(r'href="(\.\./[^"#]*pr-1\.html)"', b)) == {"../../a/b-c/pr-1.html"}


# --- 5. meta descriptions escaped once ------------------------------------------


def test_meta_tags_are_escaped_exactly_once(tmp_path):
    seed = 'o/r\n\nA & B <c> "d" CI &amp; (#1)\n\n值得精读：x & y <z> "w" &amp; 结束。第二句。\n'
    proj = copy_project(tmp_path / "p", {"000.txt": seed})
    assert convert(proj) == 0
    assert sphinx_build(proj).warning.getvalue() == ""
    sentence = '值得精读：x & y <z> "w" &amp; 结束。'
    title = 'A & B <c> "d" CI &amp;'
    # page: (og:title, the description: the note's sentence, or a list page's first paragraph)
    pages = {
        "notes/o/r/pr-1.html": (title, sentence),
        "notes/reading/close.html": ("精读清单", None),
        "notes/subsystem/o/r/ci.html": ("CI 与构建", None),
    }
    for page, (og_title, description) in pages.items():
        raw = (proj / "_build/html" / page).read_text(encoding="utf-8")
        # Parsing undoes one level of escaping: what it gives must be the
        # seed's text, "&amp;" included, and no tag may open in a content.
        assert re.search(r'content="[^"]*[<>]', raw[: raw.index("</head>")]) is None
        soup = BeautifulSoup(raw, "html.parser")
        metas = {
            (m.get("property") or m.get("name")): m["content"]
            for m in soup.find_all("meta")
            if m.get("content") is not None and (m.get("property") or m.get("name"))
        }
        assert metas["og:title"] == og_title
        first = " ".join(soup.find("article").find("p").get_text().split())
        assert metas["og:description"] == metas["description"] == (description or first[:200])


# --- 7. disk full and read-only folders -----------------------------------------


class _RefusedWrites:
    """A file object whose every write fails, as on a full disk."""

    def __init__(self, fh, error: int) -> None:
        self.fh, self.error = fh, error

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.fh.close()

    def write(self, data: bytes) -> int:
        raise OSError(self.error, os.strerror(self.error))


def refuse(monkeypatch, step: str, page: Path, error: int) -> None:
    """Make the OS refuse one step of writing ``page``.

    ``open``: creating its temporary file; ``write``: writing into that file
    (it exists, and must not be left behind); ``mkdir``: creating its folder.
    """
    real_open, real_fdopen, real_mkdir = os.open, os.fdopen, Path.mkdir
    doomed: set[int] = set()

    def is_temp_of_page(path) -> bool:
        return Path(path).parent == page.parent and Path(path).name.startswith(f".{page.name}.")

    def fake_open(path, flags, mode=0o777, **kwargs):
        if step == "open" and is_temp_of_page(path):
            raise OSError(error, os.strerror(error))
        fd = real_open(path, flags, mode, **kwargs)
        if step == "write" and is_temp_of_page(path):
            doomed.add(fd)
        return fd

    def fake_fdopen(fd, *args, **kwargs):
        fh = real_fdopen(fd, *args, **kwargs)
        return _RefusedWrites(fh, error) if fd in doomed else fh

    def fake_mkdir(self, *args, **kwargs):
        if step == "mkdir" and self == page.parent:
            raise OSError(error, os.strerror(error))
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(write.os, "open", fake_open)
    monkeypatch.setattr(write.os, "fdopen", fake_fdopen)
    monkeypatch.setattr(Path, "mkdir", fake_mkdir)


@pytest.mark.parametrize(
    ("step", "error", "where"),
    [
        ("write", errno.ENOSPC, "notes/o/r/pr-1.md"),
        ("write", errno.ENOSPC, "notes/reading/close.md"),
        ("open", errno.EROFS, "index.md"),
        ("mkdir", errno.EACCES, "notes/o/s/pr-7.md"),
    ],
    ids=["disk-full-first", "disk-full-later", "read-only-root", "read-only-folder"],
)
def test_refused_write_leaves_the_tree_as_it_was(tmp_path, capsys, monkeypatch, step, error, where):
    proj = copy_project(tmp_path / "p", {"000.txt": "o/r\n\nA CI (#1)\n\n值得精读。\n"})
    assert convert(proj) == 0
    before = tree(proj)
    # A changed note and a new one in a new folder: many pages to write.
    (proj / "seeds/000.txt").write_text("o/r\n\nA CI (#1)\n\n值得精读。改了。\n", encoding="utf-8")
    (proj / "seeds/001.txt").write_text("o/s\n\nD CI (#7)\n\n值得精读。\n", encoding="utf-8")
    refuse(monkeypatch, step, proj / where, error)
    code, lines = run(proj, capsys)
    monkeypatch.undo()
    assert code == 1
    assert lines == [f"prnotes notes: cannot write {where}: {os.strerror(error)}; every file is as it was"]
    assert tree(proj) == before
    assert not list(proj.rglob(f"*{write.TMP_SUFFIX}"))
    assert not (proj / "notes/o/s").exists()
    assert convert(proj) == 0  # with the disk back, the next run does it all
    assert (proj / "notes/o/s/pr-7.md").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_for_real(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    before = tree(proj)
    (proj / "seeds/000.txt").write_text(GOOD.replace("门禁", "门禁，改了"), encoding="utf-8")
    folder = proj / "notes/o/r"
    folder.chmod(0o555)
    try:
        code, lines = run(proj, capsys)
    finally:
        folder.chmod(0o755)
    assert (code, lines) == (1, ["prnotes notes: cannot write notes/o/r/pr-1.md: Permission denied; every file is as it was"])
    assert tree(proj) == before


def test_unreadable_page_is_one_line(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    (proj / "notes/o/r/pr-1.md").unlink()
    (proj / "notes/o/r/pr-1.md").mkdir()
    assert run(proj, capsys) == (1, ["prnotes notes: cannot read notes/o/r/pr-1.md: Is a directory; nothing written"])


# --- 8. two conversions at once -------------------------------------------------

MANY = {f"{k:03d}.txt": f"o/r{k}\n\n" + "".join(f"标题 {k}-{i} CI (#{i + 1})\n\n值得精读。CI 门禁 {i}。\n\n" for i in range(30)) for k in range(4)}


def test_second_conversion_waits_for_the_first(tmp_path):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    with write.locked(proj / write.LOCK_NAME):
        child = subprocess.Popen(
            [sys.executable, "-m", "prnotes.commands.cli", "notes", "--root", str(proj)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        waiting = child.stderr.readline()
        assert waiting == "prnotes notes: another conversion is writing notes/; waiting for it to finish\n"
        time.sleep(0.5)
        assert child.poll() is None  # still waiting
        assert not (proj / "notes").exists()
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    assert err == "" and out.startswith("prnotes notes: 1 notes,")
    assert (proj / "notes/o/r/pr-1.md").exists()


def test_second_pdf_build_of_an_edition_waits(tmp_path):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    work = proj / "_build/pdf/prnotes"
    work.mkdir(parents=True)
    with write.locked(work / write.LOCK_NAME):
        child = subprocess.Popen(
            [sys.executable, "-m", "prnotes.commands.cli", "pdf", "--root", str(proj), "-j", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert child.stderr.readline() == "prnotes pdf: another build of prnotes.pdf is running; waiting for it to finish\n"
            time.sleep(0.5)
            assert child.poll() is None
            assert not (work / "src").exists()  # nothing staged while it waits
        finally:
            child.kill()
            child.communicate()


def test_conversions_at_once_all_succeed(tmp_path):
    proj = copy_project(tmp_path / "p", MANY)
    ref = copy_project(tmp_path / "ref", MANY)
    assert convert(ref) == 0
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "prnotes.commands.cli", "notes", "--root", str(proj), "-q"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        for _ in range(4)
    ]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    for code, err in results:
        assert code == 0, err
        assert "Traceback" not in err
    assert {k: v[0] for k, v in tree(proj).items() if not k.startswith("seeds")} == {
        k: v[0] for k, v in tree(ref).items() if not k.startswith("seeds")
    }
    assert not list(proj.rglob(f"*{write.TMP_SUFFIX}"))


def test_temporary_names_are_per_run(tmp_path):
    page = tmp_path / "page.md"
    first, second = write.write_temp(page, b"a"), write.write_temp(page, b"b")
    assert first != second and first.read_bytes() == b"a" and second.read_bytes() == b"b"
    assert first.name.startswith(f".page.md.{os.getpid()}-") and first.name.endswith(write.TMP_SUFFIX)


# --- 10. links and odd repository names -----------------------------------------

SECRET = "s3cret-first-line: never print me"


@pytest.fixture
def outside(tmp_path) -> Path:
    path = tmp_path / "outside.txt"
    path.write_text(f"{SECRET}\n\nT\n\nB\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "link",
    ["outside", "/etc/passwd", "../conf.py", "/dev/zero", "missing-target-outside"],
)
def test_seed_link_leaving_seeds_is_refused_without_its_content(tmp_path, capsys, outside, link):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    target = {"outside": str(outside), "missing-target-outside": "../../nowhere.txt"}.get(link, link)
    (proj / "seeds/001.txt").symlink_to(target)
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == ["seeds/001.txt:1: is a link to a file outside seeds/; copy the file into seeds/ instead"]
    assert SECRET not in "\n".join(lines) and "root:" not in "\n".join(lines)
    assert not (proj / "notes").exists()
    # The audit reads the seeds the same way.
    code, lines = run(proj, capsys, command="audit")
    assert code == 1
    assert errors(lines, "prnotes audit", "the seeds do not parse; nothing checked") == [
        "seeds/001.txt:1: is a link to a file outside seeds/; copy the file into seeds/ instead"
    ]


def test_prs_toml_link_leaving_seeds_is_refused(tmp_path, capsys, outside):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    (proj / "seeds/prs.toml").symlink_to(outside)
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == ["seeds/prs.toml:1: is a link to a file outside seeds/; copy the file into seeds/ instead"]
    assert SECRET not in "\n".join(lines)


@pytest.mark.parametrize("name", ["001.txt", "prs.toml"])
def test_a_link_that_loops_is_refused(tmp_path, capsys, name):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    (proj / "seeds" / name).symlink_to(name)
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == [f"seeds/{name}:1: is a link that loops back on itself; replace it with the file"]
    assert not (proj / "notes").exists()


def test_link_within_seeds_is_followed(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    (proj / "seeds/sub").mkdir()
    (proj / "seeds/sub/b.txt").write_text("o/s\n\nB CI (#2)\n\n值得精读。\n", encoding="utf-8")
    (proj / "seeds/001.txt").symlink_to("sub/b.txt")
    assert run(proj, capsys) == (0, [])
    assert (proj / "notes/o/s/pr-2.md").exists()


def test_fifo_seed_is_refused_without_blocking(tmp_path):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    os.mkfifo(proj / "seeds/001.txt")
    proc = cli(proj, "notes", timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "error: seeds/001.txt:1: is not a regular file; a seed must be a text file",
        "prnotes notes: 1 error(s); nothing written",
    ]


def test_generated_pages_are_never_written_through_a_link(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (proj / "notes").mkdir()
    (proj / "notes/o").symlink_to(elsewhere)
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == ["notes/o:1: is a link to a folder; prnotes writes pages only into real folders"]
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("repo", ["a/..", "a/."])
def test_path_step_repository_names_are_refused(tmp_path, capsys, repo):
    proj = copy_project(tmp_path / "p", {"000.txt": f"{repo}\n\nA CI (#1)\n\n值得精读。\n"})
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == [
        f"seeds/000.txt:1: {repo!r} is not a repository: a name of '.' or '..' would send its GitHub links elsewhere"
    ]
    (proj / "seeds/000.txt").write_text(GOOD, encoding="utf-8")
    (proj / "seeds/prs.toml").write_text(f'["{repo}"]\n"A CI" = {{ number = 1 }}\n', encoding="utf-8")
    code, lines = run(proj, capsys)
    assert errors(lines) == [f"seeds/prs.toml:1: {repo!r} is not an owner/repo table"]


# --- 11. the search index and U+2028 -----------------------------------------------


def test_search_index_escapes_line_and_paragraph_separators():
    data = {"titles": ["a\u2028b"], "terms": {"x\u2029y": [0]}, "plain": "中文 \\u2028"}
    text = Utf8JavaScriptIndex().dumps(data)
    assert "\u2028" not in text and "\u2029" not in text
    assert "a\\u2028b" in text and "x\\u2029y" in text and "中文" in text
    assert Utf8JavaScriptIndex().loads(text) == data
    # What a pre-2019 JavaScript engine requires: JSON text that is also a valid
    # JavaScript string body, i.e. no raw line terminators anywhere.
    assert not re.search("[\n\r\u2028\u2029]", text)


def test_search_index_of_a_build_has_no_raw_separators(tmp_path):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    # Hand-written pages are not seeds: their text is not checked.
    (proj / "notes/about.md").write_text("# 关于\u2028本站\n\n说明\u2029文字。\n", encoding="utf-8")
    sphinx_build(proj)
    text = (proj / "_build/html/searchindex.js").read_text(encoding="utf-8")
    assert "\u2028" not in text and "\u2029" not in text
    assert "关于\\u2028本站" in text
    assert json.loads(text[len("Search.setIndex(") : -1])["titles"]


# --- no traceback from any command, whatever the input ---------------------------


HOSTILE_SEEDS = {
    "000.txt": "o/r\n\n标题\u202e (#1)\n\n正文\ufffe。\n",
    "001.txt": b"o/r\n\n\xff\n\nx\n",
    "prs.toml": '["o/r"]\n"x" = { number = 1, upstream_title = "\\u0007" }\n',
}


@pytest.mark.parametrize("command", [["notes"], ["notes", "--check"], ["audit"], ["pdf", "-j", "1"]])
def test_no_command_prints_a_traceback(tmp_path, command):
    proj = copy_project(tmp_path / "p", HOSTILE_SEEDS)
    proc = cli(proj, *command)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[:-1] == [
        "error: seeds/000.txt:3: bidirectional control character U+202E is not allowed: it changes the order in which text is shown",
        "error: seeds/000.txt:5: noncharacter U+FFFE is not allowed: it is not text",
        "error: seeds/001.txt:3: invalid UTF-8: byte 0xff at column 1",
        "error: seeds/prs.toml:2: control character U+0007 is not allowed (written as \\u0007)",
    ]
    assert re.fullmatch(rf"prnotes {command[0]}: 4 error\(s\); .+", lines[-1])


def test_audit_of_an_unreadable_pdf_is_one_line(tmp_path):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    sphinx_build(proj)
    (proj / "_build/latex").mkdir(exist_ok=True)
    (proj / "_build/latex/prnotes.pdf").write_bytes(b"%PDF-1.5\nnot really\n")
    proc = cli(proj, "audit")
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"prnotes audit: {proj}/_build/latex/prnotes.pdf: pdfinfo cannot read it ("), lines


# --- the taxonomy as a contributor may write it (issue 30, items 2 and 3) ---


@pytest.mark.parametrize(
    ("title", "shown"),
    [("CI `rm -rf`", "`"), ("CI <b>", "< >"), ("CI \\\\x", "\\")],
    ids=["backtick", "angle-brackets", "backslash"],
)
def test_markup_in_a_subsystem_title_is_refused_at_its_line(tmp_path, capsys, title, shown):
    """A title goes into badges and links as written: a role's markup in it is refused, nothing written."""
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    before = tree(proj / "notes")
    path = proj / "taxonomy/default.toml"
    lines = path.read_text(encoding="utf-8").split("\n")
    line = lines.index('title = "CI 与构建"')
    lines[line] = f'title = "{title}"'
    path.write_text("\n".join(lines), encoding="utf-8")
    code, out = run(proj, capsys)
    assert code == 1
    (problem,) = errors(out)
    assert problem.startswith(f"taxonomy/default.toml:{line + 1}: [[subsystem]] #") and f"'title' holds {shown}:" in problem
    assert tree(proj / "notes") == before


def test_markup_in_a_tag_title_is_refused_at_its_line(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    text = (proj / "taxonomy.toml").read_text(encoding="utf-8")
    lines = text.split("\n")
    line = lines.index('title = "CI"')  # the ci tag
    lines[line] = 'title = "CI `x` <y>"'
    (proj / "taxonomy.toml").write_text("\n".join(lines), encoding="utf-8")
    code, out = run(proj, capsys)
    assert code == 1
    assert errors(out)[0].startswith(f"taxonomy.toml:{line + 1}: [[tag]] #")


def test_a_catastrophic_audience_pattern_matches_in_linear_time(tmp_path, capsys):
    """(a+)+$ backtracks exponentially in Python's re on 'aaa…b'; RE2 does not
    backtrack. Counted as work, not time: RE2 returns the same answer on a body
    30 times longer, and the conversion finishes (a backtracking engine would
    not, in this test's lifetime, on 40 characters)."""
    from prnotes.model.taxonomy import Matcher

    nested = Matcher("a", "A", regexes=("(a+)+$",))
    assert not nested.matches("a" * 40 + "b") and not nested.matches("a" * 1200 + "b")
    assert nested.matches("xaaa")
    proj = copy_project(tmp_path / "p", {"000.txt": f"o/r\n\nA CI (#1)\n\n值得精读。{'a' * 5000}b\n"})
    text = (proj / "taxonomy.toml").read_text(encoding="utf-8")
    (proj / "taxonomy.toml").write_text(
        text + '\n[[audience]]\nslug = "nested"\ntitle = "嵌套"\npatterns = ["(a+)+$", "正在做[^。]*?(quantization|OCP MX)"]\n',
        encoding="utf-8",
    )
    assert run(proj, capsys)[0] == 0


# --- 12. third round (issue 30) ------------------------------------------------------

SYSTEM_FILE = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"


@pytest.mark.parametrize("name", ["001.txt", "prs.toml"])
def test_seed_hard_linked_to_a_file_outside_seeds_is_refused_without_its_content(tmp_path, capsys, name):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    system = tmp_path / "passwd"
    system.write_text(SYSTEM_FILE, encoding="utf-8")
    os.link(system, proj / "seeds" / name)
    before = tree(proj)
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == [f"seeds/{name}:1: is a hard link to a file outside seeds/; copy the file into seeds/ instead"]
    assert "root" not in "\n".join(lines)
    assert tree(proj) == before
    code, lines = run(proj, capsys, command="audit")
    assert code == 1 and "root" not in "\n".join(lines)


def test_hard_links_within_seeds_are_read(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    os.link(proj / "seeds/000.txt", proj / "seeds/000.txt.orig")  # an editor's backup, not a digest
    assert run(proj, capsys) == (0, [])
    assert (proj / "notes/o/r/pr-1.md").exists()


# Every character that shows nothing: whitespace, Unicode's default-ignorable
# code points (the Hangul fillers among them), the blank braille cell.
BLANK = (
    " \u3000\xa0\u2002\u200a\u202f\u205f"
    "\u3164\u115f\u1160\uffa0\u2800"
    "\u200b\u200c\u200d\u2060\u2063\ufeff\u00ad\u034f\u17b4\u180e\u180f\ufe0f\ufff0\U0001bca0\U0001d173\U000e0001\U000e0101\U000e0fff"
)


@pytest.mark.parametrize("char", list(BLANK), ids=[f"U+{ord(c):04X}" for c in BLANK])
def test_a_title_that_shows_nothing_is_empty(tmp_path, capsys, char):
    seed = f"o/r\n\nA CI (#1)\n\n值得精读。\n\n{char * 3} (#2)\n\n值得精读。\n"
    proj = copy_project(tmp_path / "p", {"000.txt": seed})
    before = tree(proj)
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == ["seeds/000.txt:7: title is empty"]
    assert tree(proj) == before


def test_a_line_of_fillers_separates_title_and_body(tmp_path, capsys):
    seed = "o/r\n\nA CI (#1)\n\u3164\u2800\u3164\n值得精读。\n"
    proj = copy_project(tmp_path / "p", {"000.txt": seed})
    assert run(proj, capsys) == (0, [])
    assert load(proj).note_for("o/r", 1).body == "值得精读。"


def test_an_upstream_title_that_shows_nothing_is_refused(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": "o/r\n\nA CI\n\n值得精读。\n"})
    (proj / "seeds/prs.toml").write_text('["o/r"]\n"A CI" = { number = 1, upstream_title = "\\u3164\\u2800" }\n', encoding="utf-8")
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == ["seeds/prs.toml:2: 'A CI': upstream_title shows nothing; leave it out or write the title"]


def test_letters_beside_fillers_are_a_title(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": "o/r\n\n\u3164한\u2800x CI (#1)\n\n值得精读。\n"})
    assert run(proj, capsys) == (0, [])
    assert load(proj).note_for("o/r", 1).title == "\u3164한\u2800x CI"


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js reads Unicode's properties here")
def test_default_ignorable_list_is_unicodes():
    """chars.DEFAULT_IGNORABLE is the property Default_Ignorable_Code_Point, as Node.js's ICU has it."""
    script = (
        "const re=/^\\p{Default_Ignorable_Code_Point}$/u;const out=[];"
        "for(let c=0;c<=0x10FFFF;c++){if(c>=0xD800&&c<=0xDFFF)continue;"
        "if(re.test(String.fromCodePoint(c)))out.push(c);}console.log(JSON.stringify(out));"
    )
    unicode = set(json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout))
    ours = {cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF and re.fullmatch(f"[{chars.DEFAULT_IGNORABLE}]", chr(cp))}
    assert ours == unicode


BUILD = ("build", "--", "-b", "html", "-q", ".", "_build/html")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda b: b.write_text("x", encoding="utf-8"), "cannot remove the last build's stamp: _build is not a folder; nothing built"),
        (lambda b: (b.mkdir(), (b / "html").write_text("x", encoding="utf-8")),
         "cannot create the build folder: _build/html is not a folder; nothing built"),
        (lambda b: (b / ".prnotes-build-html.json/x").mkdir(parents=True),
         "cannot remove the last build's stamp: _build/.prnotes-build-html.json: Is a directory; nothing built"),
    ],
    ids=["_build a file", "_build/html a file", "stamp a folder"],
)  # fmt: skip
def test_unwritable_build_folder_is_one_line(tmp_path, make, message):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    make(proj / "_build")
    before = tree(proj)
    proc = cli(proj, *BUILD)
    assert (proc.returncode, proc.stderr.splitlines()) == (1, [f"prnotes build: {message}"])
    assert tree(proj) == before


def test_stamp_that_cannot_be_removed_leaves_the_site(tmp_path, capsys, monkeypatch):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    assert run(proj, capsys, *BUILD[1:], command="build")[0] == 0
    site = tree(proj / "_build")
    (proj / "seeds/000.txt").write_text(GOOD.replace("CI 门禁", "CI 门禁改了"), encoding="utf-8")
    assert convert(proj) == 0
    real_unlink = Path.unlink

    def refuse(path, missing_ok=False):
        if path.name.startswith(".prnotes-build-"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_unlink(path, missing_ok)

    monkeypatch.setattr(Path, "unlink", refuse)
    code, lines = run(proj, capsys, *BUILD[1:], command="build")
    assert (code, lines) == (1, ["prnotes build: cannot remove the last build's stamp: _build/.prnotes-build-html.json: Permission denied; nothing built"])
    assert tree(proj / "_build") == site


def test_stamp_that_cannot_be_written_is_one_line(tmp_path, capsys, monkeypatch):
    from prnotes.build import stamp as buildstamp

    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    commit_everything(proj)  # dates known: no warning

    def refuse(path, data):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(buildstamp, "write_file", refuse)
    code, lines = run(proj, capsys, *BUILD[1:], command="build")
    assert (code, lines) == (
        1,
        ["prnotes build: cannot write the build's stamp: _build/.prnotes-build-html.json: Permission denied; "
         "the site is built, and the next build runs Sphinx again"],
    )  # fmt: skip
    assert (proj / "_build/html/notes/o/r/pr-1.html").exists()


# --- 13. the project's own patterns: work linear in the text ---------------------------
#
# Counted, not timed: tests/support/regexwork.py runs each pattern as re's
# engine does and counts its steps. Three sizes n, 2n, 4n: the work a text
# adds grows by about 2 from one doubling to the next when it is linear, by
# about 4 when it is quadratic; constant work (the taxonomy, the page's other
# text) cancels out.

from prnotes.model import classify, filing, followups, site as model, summary, symbols, tags, taxonomy  # noqa: E402
from prnotes.parse import seeds as parse, refs, sentences  # noqa: E402
from tests.support import regexwork  # noqa: E402
from tests.support.sandbox import FIXTURE, ROOT  # noqa: E402

TEXT_MODULES = (classify, followups, sentences, refs, summary, symbols, filing, tags, taxonomy, model, parse)

# Phrases repeated in one sentence of an advice: the starts of the project's
# patterns (each a lazy or greedy scan to the end of a clause or sentence),
# found by repeating every literal of every pattern and counting the work.
# The first three were quadratic.
REPEATED = [
    "如果，",  # a condition before the recommendation it needs (classify)
    "若，",
    "关注",  # a watch word before the question it needs (followups)
    "留意，关注",
    "建议",  # a recommendation to an audience
    "适合x",  # the same, never finding the audience
    "只有",  # 只有 … 才需要
    "了解",  # 了解 … 即可
    "对于，",  # 对于 … 来说
    "Skim，",  # English verdicts
    "  ",
    "，，",
    "``",
    "r`",
    "#",
    "PRx",
    "e.gx",
    "a-",
    "[",
    "这`",
]
# (before, repeated, after): a follow-up clause, then a long run in its label.
AROUND = [
    ("跟进", "长期", ""),  # the watch predicate at a label's end (followups): was quadratic
    ("跟进", "也 ", ""),
    ("跟进 ", "持续 ", "x"),
    ("1. 跟进", "一是", ""),
    ("关注两点：", "一是", ""),
    ("关注", "何时", ""),
]


def growth(work: regexwork.Work, run, sizes=(50, 100, 200)) -> float:
    """How the work of ``run(n)`` grows from one doubling of ``n`` to the next.

    One smaller run first, uncounted: what a process does once (a cache
    filled, a taxonomy's patterns built) is not work that grows with ``n``.
    """
    run(sizes[0] // 2)
    counts = []
    for n in sizes:
        work.steps = 0
        run(n)
        counts.append(work.steps)
    return (counts[2] - counts[1]) / max(1, counts[1] - counts[0])


def test_regexwork_finds_what_re_finds():
    texts = [
        chunk
        for seed in sorted((FIXTURE / "seeds").glob("*.txt"))
        for chunk in seed.read_text(encoding="utf-8").split("\n\n")
    ]
    texts += [unit * 5 for unit in REPEATED] + [before + unit * 5 + after for before, unit, after in AROUND]
    for name, pattern in regexwork.patterns_of(*TEXT_MODULES).items():
        for text in texts:
            assert regexwork.spans(pattern, text) == [m.span() for m in pattern.finditer(text)], (name, text)


def test_regexwork_tells_quadratic_work_from_linear():
    """The proxy can fail a test: a lazy scan from each of many starts counts quadratically."""
    work = regexwork.Work()
    lazy = regexwork.Counted(re.compile(r"a[^。]*?b"), work)
    bounded = regexwork.Counted(re.compile(r"a[^。]{0,5}?b"), work)
    assert growth(work, lambda n: lazy.search("a" * n)) > 3.5
    assert growth(work, lambda n: bounded.search("a" * n)) < 2.2


@pytest.fixture(scope="module")
def shared_taxonomy():
    return taxonomy.load_taxonomy(ROOT)


def counted(monkeypatch) -> regexwork.Work:
    work = regexwork.Work()
    regexwork.counting(monkeypatch, work, *TEXT_MODULES)
    return work


@pytest.mark.parametrize("unit", REPEATED)
def test_a_repeated_phrase_in_an_advice_costs_linear_work(monkeypatch, shared_taxonomy, unit):
    work = counted(monkeypatch)
    # Parse and model: every pattern that reads a seed entry.
    run = lambda n: model.build_site(  # noqa: E731
        [parse.parse_seed("seeds/000.txt", f"o/r\n\nA CI (#1)\n\n值得精读。{unit * n}\n".encode())], {}, shared_taxonomy
    )
    assert growth(work, run) < 2.5


@pytest.mark.parametrize(("before", "unit", "after"), AROUND)
def test_a_long_follow_up_label_costs_linear_work(monkeypatch, shared_taxonomy, before, unit, after):
    work = counted(monkeypatch)
    run = lambda n: model.analyse("o/r", "A CI", "", f"值得精读。{before}{unit * n}{after}", shared_taxonomy)  # noqa: E731
    assert growth(work, run) < 2.5


@pytest.mark.parametrize("unit", ["如果，", "关注", "  ", "[", "a-"])
def test_a_repeated_phrase_in_a_title_costs_linear_work(monkeypatch, shared_taxonomy, unit):
    work = counted(monkeypatch)
    run = lambda n: model.analyse("o/r", f"A CI {unit * n}", "", "值得精读。", shared_taxonomy)  # noqa: E731
    assert growth(work, run) < 2.5


def test_the_conversion_of_long_hostile_sentences_costs_linear_work(tmp_path, monkeypatch):
    """The fixture project's way in: seeds/ read and modelled as `prnotes notes` does."""
    work = counted(monkeypatch)

    def run(n: int) -> None:
        proj = copy_project(tmp_path / f"p{n}", {"000.txt": f"o/r\n\nA CI (#1)\n\n值得精读。{'如果，' * n}。{'关注' * n}。跟进{'长期' * n}。\n"})
        assert load(proj).note_for("o/r", 1).verdict == "close"

    assert growth(work, run) < 2.5


# --- 14. many references in one paragraph: replaced in one pass ------------------------


def references_paragraph(n: int) -> dict[str, str]:
    """One note whose advice is one sentence of ``n`` PR references (its summary too)."""
    return {"000.txt": "o/r\n\nA CI (#1)\n\n值得精读：" + "".join(f"见 #{i + 2}，" for i in range(n)) + "完。\n"}


@pytest.mark.parametrize("builder", ["html", "latex"])
def test_many_references_in_a_paragraph_are_replaced_in_one_pass(tmp_path, monkeypatch, builder):
    """Work counted as the children Element.index scans: what replace and
    replace_self do per node, quadratic in a paragraph's references."""
    from docutils import nodes

    work = regexwork.Work()
    index = nodes.Element.index

    def counted_index(self, item, start=0, stop=sys.maxsize):
        found = index(self, item, start, stop)
        work.steps += found - start + 1
        return found

    monkeypatch.setattr(nodes.Element, "index", counted_index)
    pages = {}

    def run(n: int) -> None:
        proj = copy_project(tmp_path / f"p{n}", references_paragraph(n))
        assert convert(proj) == 0
        commit_everything(proj)
        app = sphinx_build(proj, builder)
        assert app.warning.getvalue() == ""
        pages[n] = proj

    counts = []
    for n in (100, 200, 400):
        work.steps = 0
        run(n)
        counts.append(work.steps)
    # Linear: a few children scanned per reference added (the LaTeX writer
    # finds each paragraph among its siblings: the 相关 list's items), not a
    # paragraph's worth.
    assert counts[2] - counts[0] < 3 * 300, counts
    if builder == "html":
        soup = BeautifulSoup((pages[400] / "_build/html/notes/o/r/pr-1.html").read_text(encoding="utf-8"), "html.parser")
        links = [a["href"] for a in soup.select("article a.reference") if "github.com/o/r/pull/" in a.get("href", "")]
        refs = [f"https://github.com/o/r/pull/{i + 2}" for i in range(400)]
        own = "https://github.com/o/r/pull/1"  # the header's 在 GitHub 上打开 and its PR field
        assert own in links and [link for link in links if link != own] == [*refs, *refs]  # the advice, 相关


# --- 15. Ctrl-C: one line, wherever it falls -------------------------------------------
#
# A real SIGINT to the command's process group, as a terminal sends it. Each
# point is held open by a sitecustomize module on PYTHONPATH that makes the
# command (and the processes it forks) wait there, and says so in a file.

SLOW_POINTS = '''
import importlib.abc, importlib.machinery, os, sys, time

POINT, MARK = os.environ["PRNOTES_TEST_POINT"], os.environ["PRNOTES_TEST_MARK"]


def arrived():
    with open(MARK, "a") as fh:
        fh.write(f"{os.getpid()}\\n")
    time.sleep(30)


class Slow(importlib.abc.MetaPathFinder):
    """Waits when a module is imported (the point "import"), or patches it once loaded."""

    def find_spec(self, name, path, target=None):
        if name == "sphinx" and POINT == "import":
            arrived()
        if name in ("sphinx.util.parallel", "prnotes.model.site"):
            sys.meta_path.remove(self)
            try:
                spec = importlib.util.find_spec(name)
            finally:
                sys.meta_path.insert(0, self)
            loader = spec.loader

            class Patching(importlib.machinery.SourceFileLoader):
                def exec_module(self, module):
                    loader.exec_module(module)
                    patch(name, module)

            spec.loader = Patching(loader.name, loader.path)
            return spec
        return None


def patch(name, module):
    if name == "sphinx.util.parallel" and POINT == "worker":
        process = module.ParallelTasks._process

        def slow(self, *args):
            arrived()  # in the worker, before Sphinx's own handling of its errors
            return process(self, *args)

        module.ParallelTasks._process = slow
    if name == "prnotes.model.site" and POINT == "conversion":
        build_site = module.build_site

        def slow(*args, **kwargs):
            arrived()
            return build_site(*args, **kwargs)

        module.build_site = slow


import importlib.util  # noqa: E402

sys.meta_path.insert(0, Slow())
'''


def group_members(pgid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def interruptible() -> None:
    """In the command's process before it starts: SIGINT's default handling. A shell
    that runs the suite as a background job (or nohup, or some CI runners) ignores
    SIGINT, and a process inherits that: Python would then never raise
    KeyboardInterrupt, and the test would test the shell, not the command."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("point", "command", "message"),
    [
        ("import", ["build", "--", "-b", "html", "-q", ".", "_build/html"], "interrupted; every file is as the last finished step left it"),
        ("conversion", ["notes"], "interrupted; every file is as the last finished step left it"),
        ("worker", ["build", "--", "-b", "html", "-q", "-j", "2", ".", "_build/html"],
         "interrupted; Sphinx stopped part way, and the next build runs it again"),
    ],
    ids=["Sphinx being imported", "converting", "Sphinx's workers running"],
)  # fmt: skip
@pytest.mark.parametrize("shell", ["interactive", "ignoring SIGINT"])
def test_ctrl_c_is_one_line(tmp_path, point, command, message, shell):
    import signal

    if shell != "interactive":
        # As a background job's shell leaves it: the suite, and what it starts, ignore SIGINT.
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            return test_ctrl_c_is_one_line(tmp_path, point, command, message, "interactive")
        finally:
            signal.signal(signal.SIGINT, previous)

    proj = copy_project(tmp_path / "p")  # the fixture's 16 notes: enough pages for Sphinx to fork workers
    if point != "conversion":
        assert convert(proj) == 0
        commit_everything(proj)  # dates known: no warning
    before = tree(proj / "notes") if (proj / "notes").exists() else None
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(SLOW_POINTS, encoding="utf-8")
    mark = tmp_path / "arrived"
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(hooks), os.environ.get("PYTHONPATH", "")]),
        PRNOTES_TEST_POINT=point, PRNOTES_TEST_MARK=str(mark), TMPDIR=str(tmp_path),
    )  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "prnotes.commands.cli", command[0], "--root", str(proj), *command[1:]],
        cwd=proj, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=interruptible,
    )  # fmt: skip
    try:
        for _ in range(6000):  # polls 0.05 s apart: the command reaches the point, or gives up
            if (mark.exists() and mark.read_text()) or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert mark.exists(), proc.communicate()
        if point == "worker":
            assert int(mark.read_text().split()[0]) != proc.pid  # a forked worker waits, not the command
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert (proc.returncode, err.splitlines()) == (130, ["", message]), err
    time.sleep(0.5)
    assert group_members(proc.pid) == []  # its workers ended with it
    if before is not None:
        assert tree(proj / "notes") == before
    else:
        assert not (proj / "notes").exists()  # interrupted before anything was written


# A worker forked in the instant the interrupt's handler runs is not yet among
# the children the command ends; it ends with the command all the same.
FORKS_AND_EXITS = """
import multiprocessing, os, sys, time
from prnotes.commands.reporting import run_and_exit

MARK = sys.argv[1]


def task():
    with open(MARK + ".part", "w") as fh:
        fh.write(str(os.getpid()))
    os.rename(MARK + ".part", MARK)
    time.sleep(60)


def command():
    multiprocessing.get_context("fork").Process(target=task).start()
    while not os.path.exists(MARK):
        time.sleep(0.05)
    os._exit(130)  # as the interrupt's handler does, without ending the child


run_and_exit(command)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="a child ends with its parent through Linux's prctl")
def test_a_child_the_command_forked_ends_with_it(tmp_path):
    import signal

    script, mark = tmp_path / "forks.py", tmp_path / "child"
    script.write_text(FORKS_AND_EXITS, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script), str(mark)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        assert proc.wait(timeout=120) == 130
        child = int(mark.read_text())
        for _ in range(100):  # polls 0.05 s apart; the child's task would last a minute
            if child not in group_members(proc.pid):
                break
            time.sleep(0.05)
        assert group_members(proc.pid) == []
    finally:
        for pid in group_members(proc.pid):
            os.kill(pid, signal.SIGKILL)


# --- 16. repository names that differ only in case or punctuation (issue 30, item 1) ---
#
# GitHub reads owner and repository names case-insensitively: such names are
# one repository, spelled as the first digest (in file-name order) spells it.
# Names that differ otherwise and would still share a page name are refused.
# One note names 150 PRs, so that the PR index is paged (a page per repository).

MANY_PRS = " ".join(f"#{n}" for n in range(1, 151))
HTML = ("--notes", "--", "-W", "--keep-going", "-q", "-b", "html", "-d", "_build/doctrees", ".", "_build/html")


def pr_index_numbers(proj: Path) -> list[str]:
    """The numbers the PR index's pages list, in page order, as they read."""
    out = []
    for page in sorted((proj / "_build/html/notes/pr-index").rglob("*.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        out += [span.get_text() for span in soup.select("article li span.prnotes-pr")]
    return out


def test_names_that_differ_only_in_case_are_one_repository(tmp_path, capsys):
    from prnotes.project import load

    proj = copy_project(
        tmp_path / "p",
        {
            "000.txt": f"vllm-project/VLLM\n\nA CI (#1000)\n\n值得精读。见 {MANY_PRS}。\n\nC CI\n\n值得精读。\n",
            "001.txt": "vllm-project/vllm\n\nB CI (#1001)\n\n值得精读。见 Vllm-Project/vLLM#1000 与 #7。\n",
            "prs.toml": '["vllm-project/vllm"]\n"C CI" = { number = 1002 }\n',
        },
    )
    commit_everything(proj)
    assert run(proj, capsys, "--strict") == (0, [])
    site = load(proj)
    assert site.repos == ("vllm-project/VLLM",)
    assert [d.repo for d in site.digests] == ["vllm-project/VLLM"] * 2
    assert site.mentioned_by[("vllm-project/VLLM", 1000)] == ("notes/vllm-project/vllm/pr-1001",)
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    # One PR index of the repository: every number once, on pages of 100.
    assert sorted(p.relative_to(proj / "notes").as_posix() for p in (proj / "notes/pr-index").rglob("*.md")) == [
        "pr-index/vllm-project--vllm.md", "pr-index/vllm-project--vllm/p1.md"
    ]  # fmt: skip
    assert sorted(pr_index_numbers(proj)) == sorted(f"#{n}" for n in (*range(1, 151), 1000, 1001, 1002))
    # One landing section, one feed of every note, the one spelling on every page.
    landing = (proj / "index.md").read_text(encoding="utf-8")
    assert "来自 1 个仓库（vllm\\-project\\/VLLM）" in landing
    assert landing.count(f":caption: {contract.SUBSYSTEMS_CAPTION}") == 1
    feed = ET.parse(proj / "_build/html" / contract.repo_feed("vllm-project/VLLM")).getroot()
    assert len(feed.findall("{http://www.w3.org/2005/Atom}entry")) == 3
    for number in (1000, 1001, 1002):
        page = (proj / f"notes/vllm-project/vllm/pr-{number}.md").read_text(encoding="utf-8")
        assert "vllm-project/VLLM" in page.replace("\\", "") and "vllm-project/vllm" not in page.replace("\\", "")
    # A reference to the note's own repository in another spelling shows as #N, as every other does.
    related = (proj / "notes/vllm-project/vllm/pr-1001.md").read_text(encoding="utf-8").split("本篇提到：")[1]
    assert "{pr}`#1000 <Vllm-Project/vLLM#1000>`" in related
    assert audit(proj).findings == ()


def test_prs_toml_reads_repository_names_case_insensitively(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": "o/r\n\nA CI\n\n值得精读。\n", "prs.toml": '["O/R"]\n"A CI" = { number = 1 }\n'})
    assert run(proj, capsys, "--strict") == (0, [])
    assert (proj / "notes/o/r/pr-1.md").is_file()
    (proj / "seeds/prs.toml").write_text('["O/R"]\n"A CI" = { number = 1 }\n\n["o/r"]\n"A CI" = { number = 2 }\n', encoding="utf-8")
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == ["seeds/prs.toml:5: 'A CI' of o/r is given already (line 2, O/R)"]


def test_an_upstream_title_of_another_spelling_is_searched_for_glyphs(tmp_path, capsys):
    from prnotes.build.pdf import glyph_problems
    from prnotes.project import load

    toml = '["o/R"]\n"A CI" = { number = 1, upstream_title = "Add \U00013000" }\n'
    proj = copy_project(tmp_path / "p", {"000.txt": "O/r\n\nA CI\n\n值得精读。\n", "prs.toml": toml})
    missing = ["Missing character: There is no \U00013000 (U+13000) in font NotoSerifCJKsc-Regular:mode=node;script=hani;"]
    assert [str(p) for p in glyph_problems(proj, load(proj), missing)] == [
        "seeds/prs.toml:2: the book's fonts have no glyph for \U00013000 (U+13000); the PDF cannot show it"
    ]


def test_names_that_share_pages_are_refused_with_both_lines(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"000.txt": f"a/b_c\n\nA CI (#1000)\n\n值得精读。见 {MANY_PRS}。\n"})
    commit_everything(proj)
    assert run(proj, capsys, *HTML, command="build") == (0, [])
    before = tree(proj)
    (proj / "seeds/001.txt").write_text("a/b.c\n\nB CI (#1001)\n\n值得精读。\n", encoding="utf-8")
    code, lines = run(proj, capsys, *HTML, command="build")
    assert code == 1
    assert errors(lines) == [
        "seeds/001.txt:1: a/b.c and a/b_c (seeds/000.txt:1) are two repositories whose pages would have "
        "the same names (notes/a/b-c/…): the site cannot hold both"
    ]
    assert tree(proj) == before


def test_mentioned_names_that_share_pages_are_refused(tmp_path, capsys):
    proj = copy_project(
        tmp_path / "p",
        {"000.txt": f"o/r\n\nA CI (#1)\n\n值得精读。见 {MANY_PRS}。\n\nB CI (#2)\n\n值得精读。见 a/b_c#5。\n\n"
                    "C CI (#3)\n\n值得精读。见 A/B_C#6、a/b.c#7 与 o/r_#8。\n"},
    )  # fmt: skip
    code, lines = run(proj, capsys)
    assert code == 1
    assert errors(lines) == [
        "seeds/000.txt:11: a/b.c and a/b_c (seeds/000.txt:7) are two repositories whose pages would have "
        "the same names (notes/a/b-c/…): the site cannot hold both",
        "seeds/000.txt:11: o/r_ and o/r (seeds/000.txt:1) are two repositories whose pages would have "
        "the same names (notes/o/r/…): the site cannot hold both",
    ]
    assert not (proj / "notes").exists()


# --- 17. fourth round (issue 45) ------------------------------------------------------
#
# 1. Special files where the project reads: a named pipe would block the open
# or the read, a device (here a link to /dev/zero) would be read without end.
# Each case runs with 2 GiB of address space, so a read without end fails
# fast (a MemoryError) instead of filling the machine's memory.


def _two_gib() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def cli_bounded(proj: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """:func:`cli` with bounded memory and time: a hang is a failure, not a stuck suite."""
    env = dict(os.environ, TMPDIR=str(proj.parent))
    return subprocess.run(
        [sys.executable, "-m", "prnotes.commands.cli", args[0], "--root", str(proj), *args[1:]],
        capture_output=True, text=True, env=env, timeout=timeout, preexec_fn=_two_gib,
    )  # fmt: skip


def special(path: Path, what: str) -> None:
    """Put a named pipe, or a link to /dev/zero, where ``path`` is."""
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
    if what == "pipe":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")


KIND = {"pipe": "a named pipe", "zero": "a character device"}
SPECIAL_FILES = [
    ("taxonomy.toml", "error: taxonomy.toml:1: is {kind}, not a regular file; replace it with the file"),
    ("taxonomy/default.toml", "error: taxonomy/default.toml:1: is {kind}, not a regular file; replace it with the file"),
    (".prnotes-cache", "prnotes notes: .prnotes-cache is {kind}, not a regular file; remove it: it is the conversion's cache, made again by the next run; nothing written"),
    (".prnotes.lock", "prnotes notes: .prnotes.lock is {kind}, not a regular file; remove it: it is the conversion's lock, made again by the next run; nothing written"),
    ("notes/o/r/pr-1.md", "error: notes/o/r/pr-1.md:1: is {kind}, not a regular file; prnotes replaces only the pages it wrote"),
    ("notes/o/r/pr-9.md", "error: notes/o/r/pr-9.md:1: is {kind}, not a regular file; prnotes replaces only the pages it wrote"),
]  # fmt: skip


@pytest.mark.parametrize("what", ["pipe", "zero"])
@pytest.mark.parametrize(("name", "message"), SPECIAL_FILES, ids=[n for n, _ in SPECIAL_FILES])
def test_a_special_file_where_the_conversion_reads_is_refused_at_once(tmp_path, name, message, what):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    if name.endswith("pr-9.md"):  # a page the next digest adds
        (proj / "seeds/001.txt").write_text("o/r\n\nB CI (#9)\n\n值得精读。\n", encoding="utf-8")
    special(proj / name, what)
    before = tree(proj)
    proc = cli_bounded(proj, "notes", timeout=30)  # a wait on the pipe is a TimeoutExpired, not a slow pass
    lines = proc.stderr.splitlines()
    expected = message.format(kind=KIND[what])
    assert (proc.returncode, lines) == (1, [expected, *(["prnotes notes: 1 error(s); nothing written"] if expected.startswith("error:") else [])])
    assert tree(proj) == before


@pytest.mark.parametrize("what", ["pipe", "zero"])
@pytest.mark.parametrize("name", ["notes/about.md", "index.md", "conf.py"])
def test_a_special_file_where_sphinx_reads_is_refused_before_it_starts(tmp_path, name, what):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    commit_everything(proj)
    assert cli_bounded(proj, *BUILD).returncode == 0
    special(proj / name, what)
    before = worktree(proj)
    proc = cli_bounded(proj, *BUILD, timeout=90)
    assert (proc.returncode, proc.stderr.splitlines()) == (
        1, [f"prnotes build: {name} is {KIND[what]}, not a regular file; Sphinx reads only regular files; nothing built"]
    )  # fmt: skip
    assert worktree(proj) == before


@pytest.mark.parametrize(
    ("tail", "message"),
    [
        ("x = (\n", "conf.py:{n}: '(' was never closed"),
        ("x = 1 / 0\n", "conf.py:{n}: ZeroDivisionError: division by zero"),
        ("def f():\n    raise RuntimeError('boom')\n\n\nf()\n", "conf.py:{m}: RuntimeError: boom"),
        ("import sys\nsys.exit(3)\n", "conf.py:{m}: SystemExit: 3"),
    ],
)
def test_a_conf_py_that_fails_is_one_line_naming_its_line(tmp_path, tail, message):
    """Where Sphinx would print a report a traceback long: the line, and nothing built."""
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    conf = (proj / "conf.py").read_text(encoding="utf-8")
    n = conf.count("\n") + 1
    (proj / "conf.py").write_text(conf + tail, encoding="utf-8")
    m = n + 1  # the line that raised: in f(), or at the top
    before = worktree(proj)
    proc = cli_bounded(proj, *BUILD, timeout=90)
    assert (proc.returncode, proc.stderr.splitlines()) == (1, [f"prnotes build: {message.format(n=n, m=m)}; nothing built"])
    proc = cli_bounded(proj, "pdf", timeout=90)
    assert (proc.returncode, proc.stderr.splitlines()) == (1, [f"prnotes pdf: {message.format(n=n, m=m)}; nothing built"])
    assert worktree(proj) == before
    proc = cli_bounded(proj, "volumes", "--size", "1", "--build", timeout=90)
    assert (proc.returncode, proc.stderr.splitlines()[-1]) == (1, f"prnotes volumes: {message.format(n=n, m=m)}; nothing built")


def worktree(proj: Path) -> dict:
    """:func:`tree` but git's own files (`git status` refreshes its index)."""
    return {rel: v for rel, v in tree(proj).items() if not rel.startswith(".git/")}


@pytest.mark.parametrize("what", ["pipe", "zero"])
def test_a_special_file_where_the_audit_reads_is_one_line(tmp_path, what):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    sphinx_build(proj)
    special(proj / "_build/html/notes/o/r/pr-1.html", what)
    proc = cli_bounded(proj, "audit", timeout=60)
    assert (proc.returncode, proc.stderr.splitlines()) == (
        1, [f"prnotes audit: {proj}/_build/html/notes/o/r/pr-1.html is {KIND[what]}, not a regular file; nothing checked"]
    )  # fmt: skip


def test_a_file_larger_than_prnotes_reads_is_refused_unread(tmp_path):
    # Sparse files: their size is all a reader sees before it reads.
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    before = tree(proj)
    with open(proj / "seeds/001.txt", "wb") as fh:
        fh.truncate(65 << 20)
    proc = cli_bounded(proj, "notes", timeout=30)
    assert (proc.returncode, proc.stderr.splitlines()) == (1, [
        "error: seeds/001.txt:1: holds 68,157,440 bytes, more than the 67,108,864 prnotes reads; split it",
        "prnotes notes: 1 error(s); nothing written",
    ])  # fmt: skip
    (proj / "seeds/001.txt").unlink()
    with open(proj / "taxonomy/default.toml", "r+b") as fh:
        fh.truncate(65 << 20)
    before = tree(proj)
    proc = cli_bounded(proj, "notes", timeout=30)
    assert (proc.returncode, proc.stderr.splitlines()) == (1, [
        "error: taxonomy/default.toml:1: holds 68,157,440 bytes, more than the 67,108,864 prnotes reads; split it",
        "prnotes notes: 1 error(s); nothing written",
    ])  # fmt: skip
    assert tree(proj) == before


def test_a_cache_larger_than_prnotes_reads_is_not_read(tmp_path):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    with open(proj / ".prnotes-cache", "wb") as fh:
        fh.truncate(1 << 40)
    proc = cli_bounded(proj, "notes", "-q", timeout=60)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert (proj / "notes/o/r/pr-1.md").is_file()
    assert (proj / ".prnotes-cache").stat().st_size < 1 << 20  # replaced by this run's


# 6. A file where the build writes a folder: one line naming it, before Sphinx starts.
OUTPUT_FOLDERS = ["_build/html/feeds", "_build/html/feeds/repo", "_build/html/_search", "_build/html/_static",
                  "_build/html/_sources", "_build/html/notes/o", "_build/html/notes/o/r"]  # fmt: skip


@pytest.mark.parametrize("folder", OUTPUT_FOLDERS)
def test_a_file_where_the_build_writes_a_folder_is_one_line(tmp_path, folder):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    commit_everything(proj)
    assert cli_bounded(proj, *BUILD).returncode == 0
    (proj / "seeds/000.txt").write_text(GOOD.replace("CI 门禁", "CI 门禁改了"), encoding="utf-8")
    assert convert(proj) == 0
    shutil.rmtree(proj / folder)
    (proj / folder).write_text("not a folder\n", encoding="utf-8")
    before = worktree(proj)
    proc = cli_bounded(proj, *BUILD, timeout=90)
    assert (proc.returncode, proc.stderr.splitlines()) == (
        1, [f"prnotes build: cannot create the build folder: {folder} is not a folder; nothing built"]
    )  # fmt: skip
    assert worktree(proj) == before


# 7. SOURCE_DATE_EPOCH that is no time: refused with one line (the specification,
# reproducible-builds.org/specs/source-date-epoch, asks a build to stop on a malformed value).
BAD_EPOCHS = ["nan", "inf", "-inf", "abc", "", "1.5", "1e9", " 100", "-100", "1_000", "253402300800", "9" * 5000]


@pytest.mark.parametrize(
    ("command", "value"),
    [*((BUILD, v) for v in BAD_EPOCHS), *((("pdf", "-j", "1"), v) for v in ("nan", "abc", ""))],
    ids=lambda v: repr(v[:20]) if isinstance(v, str) else v[0],
)
def test_a_source_date_epoch_that_is_no_time_is_one_line(tmp_path, monkeypatch, value, command):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    commit_everything(proj)
    before = worktree(proj)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    proc = cli_bounded(proj, *command, timeout=90)
    shown = repr(value) if len(value) <= 40 else f"{value[:40]!r}… ({len(value)} characters)"
    outcome = "nothing built" if command is BUILD else "nothing written"
    assert (proc.returncode, proc.stderr.splitlines()) == (1, [
        f"prnotes {command[0]}: SOURCE_DATE_EPOCH is {shown}, not a time: it must be a whole number of seconds "
        f"since 1970 (0 to 253402300799), as `date +%s` prints it; {outcome}"
    ])  # fmt: skip
    assert worktree(proj) == before


def test_a_source_date_epoch_dates_the_build(tmp_path, monkeypatch):
    proj = copy_project(tmp_path / "p", {"000.txt": GOOD})
    assert convert(proj) == 0
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01T00:00:00Z
    proc = cli_bounded(proj, *BUILD, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr


# 8. Page names: two notes without a PR number whose titles' hashes share
# their first 48 bits (found in seconds by a collision search; the full
# hashes differ from the 13th hex digit on).
COLLIDING = ("撞 7143dcf99467", "撞 b081cf5cba6f")  # sha1("o/r\n" + title): ebcf7d0111fd4574…, ebcf7d0111fd634c…


def test_notes_whose_page_names_collide_get_a_page_each(tmp_path, capsys):
    import hashlib

    assert len({hashlib.sha1(f"o/r\n{t}".encode()).hexdigest()[:12] for t in COLLIDING}) == 1
    seeds = {
        "000.txt": f"o/r\n\n{COLLIDING[0]}\n\n值得精读。CI 门禁一。\n",
        "001.txt": f"o/r\n\n{COLLIDING[1]}\n\n值得精读。CI 门禁二。\n",
    }
    proj = copy_project(tmp_path / "p", seeds)
    assert run(proj, capsys, "--strict") == (0, [])
    pages = sorted(p.name for p in (proj / "notes/o/r").glob("t-*.md"))
    # The earlier note (in seed order) keeps the usual name; the later one's is longer.
    assert pages == ["t-ebcf7d0111fd.md", "t-ebcf7d0111fd634c.md"]
    site = load(proj)
    assert {n.title: n.docname for n in site.notes} == {
        COLLIDING[0]: "notes/o/r/t-ebcf7d0111fd", COLLIDING[1]: "notes/o/r/t-ebcf7d0111fd634c"
    }
    assert len({n.label for n in site.notes}) == 2
    commit_everything(proj)
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    for title, docname in ((n.title, n.docname) for n in site.notes):
        assert page_text((proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8"))[0].strip() == title
    report = audit(proj)
    assert (report.findings, report.summary) == ((), "2 entries, 2 pages, 0 missing")
    # A new digest never renames a page: the names go by seed order.
    (proj / "seeds/002.txt").write_text("o/r\n\n另一个 CI\n\n值得精读。\n", encoding="utf-8")
    assert run(proj, capsys) == (0, [])
    assert {n.title: n.docname for n in load(proj).notes if n.title in COLLIDING} == {
        COLLIDING[0]: "notes/o/r/t-ebcf7d0111fd", COLLIDING[1]: "notes/o/r/t-ebcf7d0111fd634c"
    }


def test_the_audit_finds_two_entries_on_one_page(tmp_path, monkeypatch):
    seeds = {
        "000.txt": f"o/r\n\n{COLLIDING[0]}\n\n值得精读。CI 门禁一。\n",
        "001.txt": f"o/r\n\n{COLLIDING[1]}\n\n值得精读。CI 门禁二。\n",
    }
    proj = copy_project(tmp_path / "p", seeds)
    assert convert(proj) == 0
    commit_everything(proj)
    sphinx_build(proj)
    assert audit(proj).findings == ()
    # A naming that gives both entries one page (as the conversion once did):
    # the audit names the second entry and the first.
    monkeypatch.setattr(contract, "NOTE_HASH_DIGITS_MAX", contract.NOTE_HASH_DIGITS)
    findings = [str(f) for f in audit(proj).findings]
    assert findings == [
        "seeds/001.txt:3: a page of its own (notes/o/r/t-ebcf7d0111fd is seeds/000.txt:3's) missing from HTML notes/o/r/t-ebcf7d0111fd.html",
        "seeds/001.txt:3: advice text missing from HTML notes/o/r/t-ebcf7d0111fd.html",
        f"seeds/001.txt:3: title {COLLIDING[1]!r} missing from HTML notes/o/r/t-ebcf7d0111fd.html",
    ]


# 10. One long title, one entry naming many code symbols: the work of each stage
# grows linearly with their size. Counted, not timed, as in section 13: the
# package's own lines run (tests/support/pywork.py) and its patterns' steps in
# the conversion; the nodes Sphinx reads and writes in the build.

from prnotes.render import render_pages, symbols as symbol_pages  # noqa: E402
from tests.support import pywork  # noqa: E402

TITLE_UNITS = ["CI ", "缓存 ", "前缀缓存命中", "MoE ", "`x` ", "#12 ", "o/r#1 ", "x.py ", "a-"]


def conversion(monkeypatch, seed) -> regexwork.Work:
    """The work of converting ``seed(n)`` in memory (parse, model, render), as a function of ``n``."""
    work = counted(monkeypatch)
    tax = taxonomy.load_taxonomy(ROOT)

    def run(n: int) -> None:
        with pywork.counting_lines(work):
            render_pages(model.build_site([parse.parse_seed("seeds/000.txt", seed(n).encode())], {}, tax))

    run(7)  # what a first run loads once
    return work, run


@pytest.mark.parametrize("unit", TITLE_UNITS)
def test_a_long_title_costs_linear_work_to_convert(monkeypatch, unit):
    work, run = conversion(monkeypatch, lambda n: f"o/r\n\n{unit * n}(#1)\n\n值得精读。CI 门禁。\n")
    assert growth(work, run, sizes=(100, 200, 400)) < 2.5


def many_symbols(n: int) -> str:
    return "o/r\n\nA CI (#1)\n\n值得精读。" + "、".join(f"`mod_{i}.func_{i}()`" for i in range(n)) + "。\n"


def test_many_code_symbols_cost_linear_work_to_convert(monkeypatch):
    # Two symbols a page: the symbol index's pages are many at a size a test affords.
    monkeypatch.setattr(symbol_pages, "SYMBOL_PAGE", 2)
    work, run = conversion(monkeypatch, many_symbols)
    assert growth(work, run, sizes=(100, 200, 400)) < 2.5


def test_many_code_symbols_cost_linear_work_to_build(tmp_path, monkeypatch):
    monkeypatch.setattr(symbol_pages, "SYMBOL_PAGE", 2)
    work = regexwork.Work()

    def count(app, doctree, *args) -> None:
        work.steps += sum(1 for _ in doctree.findall())

    def run(n: int) -> None:
        proj = copy_project(tmp_path / f"p{n}", {"000.txt": many_symbols(n)})
        assert convert(proj) == 0
        sphinx_build(proj, listeners=[("doctree-read", count), ("doctree-resolved", count)])

    assert growth(work, run, sizes=(100, 200, 400)) < 2.5
    pages = sorted((tmp_path / "p400/_build/html/notes/symbols/function-m").glob("p*.html"))
    assert len(pages) == 199  # and the newest, function-m.html


def test_a_full_page_of_a_long_list_links_to_few_pages():
    """A full page links to the newest page, the first, and the pages 1, 2, 4, … before it."""
    from prnotes.render.paging import entries_label, page_links, pages as cut

    listed = cut([(i,) for i in range(1, 100_001)], 100)
    links = [page_links("d", "d", listed, page, entries_label())[0] for page in listed]
    assert max(line.count("](") for line in links[:-1]) == 2 + 10  # 最新, the first, 1, 2, 4, … 512 back
    assert links[-1].count("](") == 999  # the list's own page: every full page
    assert links[9] == (
        "分页：[最新](d.md) · **第 901–1000 篇** · [第 801–900 篇](d/p9.md) · [第 701–800 篇](d/p8.md) · … · "
        "[第 501–600 篇](d/p6.md) · … · [第 101–200 篇](d/p2.md) · [第 1–100 篇](d/p1.md)"
    )


def test_init_where_a_folder_cannot_be_made_is_one_line(tmp_path, capsys):
    """A parent that is a file: one line naming the path, exit 1, no traceback."""
    from prnotes.commands.cli import main

    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert main(["init", str(tmp_path / "file" / "site")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("prnotes init: cannot write the site into ") and "Not a directory" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert (tmp_path / "file").read_text(encoding="utf-8") == "x"
