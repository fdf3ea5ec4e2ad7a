"""Property-based tests: generated seeds, hostile text included.

Seeds are built from Chinese and Latin text, full-width punctuation, MyST and
Markdown syntax, emoji, zero-width and other invisible characters, rare
spaces; raw seeds also hold control characters, noncharacters, bidirectional
controls, line separators and private-use characters, and ``prs.toml`` holds
TOML escapes of all of those. The properties:

* the conversion never crashes: it accepts the input or raises
  ``InputError`` whose every problem is ``file:line: message``, the line inside
  the file; accepted text holds none of the characters
  :mod:`prnotes.parse.chars` rejects;
* an accepted entry keeps all of its text (in the model, in memory);
* a Sphinx build of accepted seeds never warns, and each page shows the title
  and the advice exactly as the seed wrote them, apart from whitespace and the
  backticks of code spans; so do the feed, the search index and the meta
  tags; the audit finds nothing missing;
* the PDF book of accepted seeds holds every title and advice (the audit reads
  it), or, when the fonts lack a glyph, the build fails naming the seed lines
  that hold it.

Examples hypothesis once found are kept as explicit ``@example`` cases.
``PRNOTES_HYPOTHESIS=explore`` runs many more, randomised examples (the
profiles: ``tests/support/hypothesis_profiles.py``).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

from bs4 import BeautifulSoup
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.support.committed import commit_everything
from tests.support.hypothesis_profiles import EXPLORE
from tests.support.sandbox import TAXONOMY, convert, copy_project, sphinx_build
from prnotes.parse import chars
from prnotes import contract
from prnotes.build.audit import audit, page_text, squash
from tests.support.sections import section_text
from prnotes.diagnostics import InputError
from prnotes.model.site import build_site
from prnotes.parse.seeds import BODY_LABEL_RE, parse_prs, parse_seed
from prnotes.parse.refs import code_spans
from prnotes.render import render_pages
from prnotes.sphinxext.search.language import Utf8JavaScriptIndex
from prnotes.model.taxonomy import load_taxonomy


TAXONOMY = load_taxonomy(TAXONOMY / "taxonomy.toml")

CHINESE = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
LATIN = st.sampled_from("abcxyzABCXYZ0123456789")
FULL_WIDTH = st.sampled_from("，。；：！？（）【】《》「」、…—～·“”‘’＃＄％＊＿｀")
MARKUP = st.sampled_from(
    [
        "`", "``", "```", "`code`", "``a`b``", "{role}`x`", "{eval-rst}`x`", "{pr}`#1 <o/r#1>`",
        "```{include} /etc/passwd```", ":::", "::::{note}", "$", "$$", "$x^2$", "[x](y)",
        "[x](javascript:alert(1))", "<tag>", "</tag>", "<script>", "<!-- c -->", "|", "| a | b |",
        "*", "**", "_", "__", "~~", "#", "# ", "### ", "> ", "1. ", "1) ", "- ", "+ ", "%", "% ",
        "(label)=", "+++", "\\", "\\`", "\\\\", "&amp;", "&#60;", "&lt;", "---", "===", "{{", "}}",
        "{%", "@", "~~~", "[^1]", "[^1]: x", "<https://x.org>", "https://x.org", "#12", "o/r#3",
        "`#5`", "issue #7", "aiter 侧", "值得精读。", "值得快速浏览：", "(#9)", "（#9）", ":x:", "{#id}",
        "^", "~", "=", "\"", "'", "!", "![i](j)", "*a*", "_b_", ".. raw:: html", "::",
    ]
)
EMOJI = st.sampled_from(["😀", "👍🏽", "🇨🇳", "👨‍👩‍👧", "❤️", "🀄", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"])
# Accepted: invisible format characters, variation selectors, rare spaces.
INVISIBLE = st.sampled_from(
    ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\ufe0f", "\U000e0101", "\u180e", "\u2009", "\u202f"]
)
SPACE = st.sampled_from([" ", "  ", "\t", "\u3000", "\xa0"])
CONTROL = st.sampled_from([chr(c) for c in [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)]])
# Rejected besides the controls (see prnotes.parse.chars).
REJECTED = st.sampled_from(
    ["\ufffe", "\uffff", "\ufdd0", "\U0010fffe", "\u202a", "\u202e", "\u2066", "\u2069", "\u200e", "\u061c",
     "\u2028", "\u2029", "\ue000", "\U000f0000"]
)  # fmt: skip

TOKEN = st.one_of(
    st.text(CHINESE, min_size=1, max_size=4),
    st.text(LATIN, min_size=1, max_size=5),
    FULL_WIDTH,
    MARKUP,
    EMOJI,
    INVISIBLE,
    SPACE,
)
# What the book's fonts can show: the emoji go (see test_pdf_shows_the_seed_text).
PRINTABLE_TOKEN = st.one_of(
    st.text(CHINESE, min_size=1, max_size=4),
    st.text(LATIN, min_size=1, max_size=5),
    FULL_WIDTH,
    MARKUP,
    INVISIBLE,
    SPACE,
)


def _line(token: st.SearchStrategy[str], max_tokens: int = 8) -> st.SearchStrategy[str]:
    return st.lists(token, min_size=1, max_size=max_tokens).map("".join)


# A line that stays a line: it shows something besides whitespace and
# invisible characters (a line that shows nothing is blank to the parser).
LINE = _line(TOKEN).filter(lambda s: chars.for_print(s).strip() != "")
PRINTABLE_LINE = _line(PRINTABLE_TOKEN).filter(lambda s: chars.for_print(s).strip() != "")


@st.composite
def entry_texts(draw, index: int, line: st.SearchStrategy[str] = LINE) -> tuple[str, str, int | None]:
    """``(title, body, number)``: a unique title, and a body that is not only a label."""
    number = draw(st.one_of(st.none(), st.just(index + 1)))
    title = f"{draw(line)} T{index}" + (f" (#{number})" if number else "")
    body = draw(st.lists(line, min_size=1, max_size=4)).copy()
    body[0] = BODY_LABEL_RE.sub("", body[0].strip(), count=1)
    if not chars.for_print(body[0]).strip():
        body[0] = "正文"
    return title, "\n".join(body), number


# File names are shown on the pages too; "/" would make a folder, and a
# control character is rejected (see test_messages.py).
FILE_NAME = (
    st.lists(TOKEN, max_size=3)
    .map("".join)
    .filter(lambda s: "/" not in s and "\t" not in s and len(s.encode()) < 100)
)


@st.composite
def seed_files(draw, max_files: int = 4, max_entries: int = 4, line: st.SearchStrategy[str] = LINE) -> dict[str, str]:
    """Valid seed files, each for its own repository."""
    files = {}
    counter = 0
    for k in range(draw(st.integers(1, max_files))):
        entries = []
        for _ in range(draw(st.integers(1, max_entries))):
            entries.append(draw(entry_texts(counter, line)))
            counter += 1
        blank = draw(st.sampled_from(["\n\n", "\n\n\n", "\n \u3000\n"]))
        # Owners that look like the site's own folders, names with punctuation.
        owner = draw(st.sampled_from(["h", "subsystem", "pr-index", "A-1"]))
        repo = f"{owner}/e{k}{draw(st.sampled_from(['', '.js', '_x', '-y', '.-_']))}"
        text = repo + "".join(f"{blank}{title}{blank}{body}" for title, body, _ in entries) + "\n"
        files[f"{k:03d}{draw(FILE_NAME)}.txt"] = text
    return files


def reader_text(text: str) -> str:
    """What a reader should see of seed text: code spans lose their backticks."""
    out = []
    for line in text.split("\n"):
        pos = 0
        for start, end, width in code_spans(line):
            out.append(line[pos:start] + line[start + width : end - width])
            pos = end
        out.append(line[pos:] + "\n")
    return "".join(out)


def expected_body(body: str) -> str:
    lines = [line.strip() for line in body.split("\n") if line.strip()]
    lines[0] = BODY_LABEL_RE.sub("", lines[0], count=1)
    return squash(reader_text("\n".join(line for line in lines if line)))


# --- in memory: never crash, reject with file:line, lose nothing -------------

# Anything at all, line by line: tokens, rejected characters, blank lines.
RAW_LINE = st.one_of(_line(st.one_of(TOKEN, CONTROL, REJECTED), 6), st.just(""), st.just("  "))


@st.composite
def raw_seeds(draw) -> bytes:
    repo = draw(st.one_of(st.just("o/r"), st.sampled_from(["o/r.", "o", "", "a b/c", "😀/x"]), LINE))
    lines = draw(st.lists(RAW_LINE, max_size=20))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    data = newline.join([repo, *lines]).encode("utf-8")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    if draw(st.integers(0, 9)) == 0:
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + b"\xff" + data[cut:]
    return data


PROBLEM_RE = re.compile(r"seeds/x\.txt:(\d+): \S.*")


@settings(max_examples=4000 if EXPLORE else 300)
@given(raw_seeds())
@example(b"o/r\n\n\xe2\x80\xa8\n\nx")  # a lone U+2028 line: rejected, on line 3
@example("o/r\n\nT \u202e (#1)\n\n\ufffe\n".encode())  # one problem per line, both named
@example(b"o/r\n\nT (#\xd9\xa1)\n\nb")  # a title "number" in Arabic-Indic digits stays text
@example(("o/r\n\n" + "a" + " " * 5000 + "x (#1)\n\n" + "a-" * 5000 + "\n").encode())
def test_conversion_accepts_or_names_file_and_line(data):
    try:
        seed = parse_seed("seeds/x.txt", data)
        site = build_site([seed], {}, TAXONOMY)
        pages = render_pages(site).pages
    except InputError as exc:
        assert exc.problems
        line_count = data.count(b"\n") + 1
        for problem in exc.problems:
            match = PROBLEM_RE.fullmatch(str(problem))
            assert match, str(problem)
            assert 1 <= int(match.group(1)) <= line_count
        return
    # Accepted: every entry became a note with all its text, and a page;
    # no rejected character got through.
    for page in pages.values():
        assert chars.DISALLOWED_RE.search(page) is None
    assert len(site.notes) == len(seed.entries)
    notes = {(n.title, n.number): n for n in site.notes}
    for entry in seed.entries:
        note = notes[(entry.title, entry.number)]
        assert squash("".join(p.text for p in note.pieces)) == squash(reader_text(entry.body))
        assert f"{note.docname}.md" in pages


@settings(max_examples=100 if EXPLORE else 30)
@given(seed_files(max_files=2, max_entries=6), st.booleans())
def test_prs_toml_numbers_and_warnings_never_crash(files, drop_numbers):
    seeds = [parse_seed(f"seeds/{name}", text.encode()) for name, text in sorted(files.items())]
    prs_lines = []
    for seed in seeds:
        prs_lines.append(f'["{seed.repo}"]')
        for i, entry in enumerate(seed.entries):
            key = entry.title.replace("\\", "\\\\").replace('"', '\\"')
            if entry.number is None and not drop_numbers:
                prs_lines.append(f'"{key}" = {{ number = {100000 + i}, upstream_title = "x" }}')
        prs_lines.append('"不存在的标题" = { number = 1 }')
    prs = parse_prs("seeds/prs.toml", "\n".join(prs_lines).encode())
    site = build_site(seeds, prs, TAXONOMY)
    unused = [w for w in site.warnings if "matches no seed entry" in str(w)]
    assert len(unused) == len(seeds)
    assert all(re.fullmatch(r"seeds/prs\.toml:\d+: .+", str(w)) for w in unused)
    render_pages(site).pages


# --- through Sphinx: one build per example, many seeds per build -------------


ATOM = "{http://www.w3.org/2005/Atom}"
FEED_PREFIX = re.compile(r"^(?:\[(?:精读|速读|按需)\] )?[^\s#/]+/[^\s#]+#\S+ ")


def check_built_project(files: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proj = copy_project(Path(tmp) / "p", files)
        assert convert(proj) == 0
        commit_everything(proj)  # the feed lists committed digests
        app = sphinx_build(proj)
        assert app.warning.getvalue() == ""
        html_dir = proj / "_build/html"
        feed = ET.parse(html_dir / "feed.xml").getroot()
        # An entry's title is "[精读] owner/repo#N " and the note's title (sphinxext/feed.py).
        feed_titles = sorted(squash(FEED_PREFIX.sub("", e.findtext(f"{ATOM}title") or "")) for e in feed.findall(f"{ATOM}entry"))
        index_text = (html_dir / "searchindex.js").read_text(encoding="utf-8")
        assert re.search("[\u2028\u2029]", index_text) is None
        index = Utf8JavaScriptIndex().loads(index_text)
        index_titles = dict(zip(index["docnames"], index["titles"]))
        titles = []
        for name, text in files.items():
            for entry in parse_seed(f"seeds/{name}", text.encode()).entries:
                docname = contract.note_docname(entry.repo, entry.number, entry.title)
                html = (html_dir / f"{docname}.html").read_text(encoding="utf-8")
                title, _ = page_text(html)
                expected = squash(reader_text(entry.title))
                titles.append(expected)
                assert squash(title) == expected, entry.title
                advice = section_text(html, "阅读建议")
                assert advice is not None
                assert squash(advice) == expected_body(entry.body), entry.body
                # The same text in the search index and the meta tags.
                assert squash(index_titles[docname]) == expected
                soup = BeautifulSoup(html, "html.parser")
                assert squash(soup.find("meta", attrs={"property": "og:title"})["content"]) == expected
                description = soup.find("meta", attrs={"name": "description"})["content"]
                assert squash(description) in expected_body(entry.body)
        assert feed_titles == sorted(titles)
        report = audit(proj)
        assert report.findings == ()


HOSTILE_EXAMPLE = {
    "000 `x` *y* {r}`z` %.txt": "h/e0\n\n"
    + "".join(
        f"{title} T{i} (#{i + 1})\n\n{body}\n\n"
        for i, (title, body) in enumerate(
            [
                ("`#5` 标题 {role}`x`", "```{include} /etc/passwd```\n> 引用\n1. 列表\n(label)=\n+++\n% 注释"),
                ("[x](y) <tag> $m$ 😀\u200b", ":::\n::::{note}\n| a | b |\n\\\n\\`\n# 标题\n\u2060"),
                ("**粗** _斜_ ｀全角｀\u200d", "值得精读。``a`b`` `x` `` ` `` 末尾\u00ad\n\ufeff\u3000缩进\ufe0f"),
            ]
        )
    )
}


@settings(max_examples=12 if EXPLORE else 4)
@given(seed_files())
@example(HOSTILE_EXAMPLE)
def test_built_pages_show_the_seed_text(files):
    check_built_project(files)


# --- prs.toml: TOML escapes write what the raw text may not hold --------------

TOML_ESCAPE = st.sampled_from(
    ["\\u0000", "\\u001b", "\\u001B", "\\b", "\\f", "\\r", "\\t", "\\n", "\\\\", '\\"', "\\u00e9", "\\u200b",
     "\\uFFFE", "\\uffff", "\\u202E", "\\u2066", "\\u2028", "\\u2029", "\\uE000", "\\U0001F600", "\\U000F0000",
     "\\\\u0000"]
)  # fmt: skip
TOML_TEXT = st.lists(
    st.one_of(TOML_ESCAPE, st.text(CHINESE, min_size=1, max_size=3), st.text(LATIN, min_size=1, max_size=4),
              st.sampled_from([" ", "#", "'", "[x]", "=", "{"])),
    min_size=1, max_size=6,
).map("".join)  # fmt: skip


@st.composite
def prs_tomls(draw) -> str:
    """A ``prs.toml`` whose basic strings, literal strings and comments hold escapes."""
    lines = [draw(st.sampled_from(['["o/r"]', '["o/r"] # \\u0007', "['o/r']"]))]
    for i in range(draw(st.integers(1, 5))):
        key, value = draw(TOML_TEXT), draw(TOML_TEXT)
        kind = draw(st.sampled_from(["basic", "literal", "comment"]))
        if kind == "basic":
            lines.append(f'"{key} {i}" = {{ number = {i + 1}, upstream_title = "{value}" }}')
        elif kind == "literal":
            # Literal strings hold no escapes: a backslash there is text.
            key, value = key.replace("'", ""), value.replace("'", "")
            lines.append(f"'{key} {i}' = {{ number = {i + 1}, upstream_title = '{value}' }}")
        else:
            lines.append(f"# {key}")
    return "\n".join(lines) + "\n"


@settings(max_examples=2000 if EXPLORE else 300)
@given(prs_tomls())
@example('["o/r"]\n"a" = { number = 1, upstream_title = "x\\u001b[31m \\b" }\n# \\u0000\n')
@example("[\"o/r\"]\n'a\\u202e' = { number = 1, upstream_title = '\\r\\u2028' }\n")
def test_prs_toml_escapes_are_checked_after_parsing(text):
    lines = text.split("\n")
    try:
        prs = parse_prs("seeds/prs.toml", text.encode())
    except InputError as exc:
        for problem in exc.problems:
            match = re.fullmatch(r"seeds/prs\.toml:(\d+): (.+)", str(problem))
            assert match, str(problem)
            line = int(match.group(1))
            assert 1 <= line <= len(lines)
            # An escape is reported on the line that holds it.
            if written := re.search(r"\(written as (\S+)\)$", match.group(2)):
                assert written.group(1) in lines[line - 1]
        return
    for info in prs.values():
        assert chars.DISALLOWED_RE.search(info.title) is None
        assert chars.DISALLOWED_RE.search(info.upstream_title) is None


# --- through the PDF: a few builds, xelatex is slow ----------------------------

PRINTABLE_EXAMPLE = {
    "000 `x` *y* {r}`z` %.txt": "h/e0\n\n"
    + "".join(
        f"{title} T{i} (#{i + 1})\n\n{body}\n\n"
        for i, (title, body) in enumerate(
            [
                ("`#5` 标题 {role}`x`\u200b", "```{include} /etc/passwd```\n> 引用 $x$ \\\n(label)=\n% 注释\u2060"),
                ("**粗** _斜_ ｀全角｀\u200d\u00ad", "值得精读。``a`b`` `x` 末尾\u00ad\n\ufeff\u3000缩进\ufe0f\u2009\u202f"),
            ]
        )
    )
}
EMOJI_EXAMPLE = {"000 😀.txt": "o/r\n\n标题 👍🏽 T0 (#1)\n\n值得精读。\n第二行 ❤️ 与 🏴\U000e0067\U000e0062\U000e007f。\n"}


def check_book(files: dict[str, str]) -> None:
    """The book holds every title and advice, or its build names the seed lines it cannot print."""
    with tempfile.TemporaryDirectory() as tmp:
        proj = copy_project(Path(tmp) / "p", files)
        assert convert(proj) == 0
        assert sphinx_build(proj).warning.getvalue() == ""
        proc = subprocess.run(
            [sys.executable, "-m", "prnotes.commands.cli", "pdf", "--root", str(proj), "-j", "1"],
            capture_output=True, text=True, env=dict(os.environ, TMPDIR=tmp),
        )  # fmt: skip
        if proc.returncode == 0:
            assert audit(proj).findings == ()  # the audit reads the PDF's text too
            return
        problems = proc.stderr.splitlines()
        assert problems[-1] == f"prnotes pdf: {len(problems) - 1} error(s); the PDF was not updated", proc.stderr
        for problem in problems[:-1]:
            match = re.fullmatch(
                r"error: (seeds/.+):(\d+): the book's fonts have no glyph for (.+?)( in the file name)?; "
                r"the PDF cannot show it",
                problem,
            )
            assert match, problem
            path, line = match.group(1), int(match.group(2))
            named = re.findall(r"(.) \(U\+([0-9A-F]{4,6})\)", match.group(3))
            assert named and all(ch == chr(int(cp, 16)) for ch, cp in named)
            text = path if match.group(4) else (proj / path).read_text(encoding="utf-8").split("\n")[line - 1]
            assert all(ch in text for ch, _ in named), problem


@settings(max_examples=6 if EXPLORE else 1)
@given(seed_files(max_files=2, max_entries=3, line=PRINTABLE_LINE))
@example(PRINTABLE_EXAMPLE)
@example(EMOJI_EXAMPLE)
def test_pdf_shows_the_seed_text(files):
    check_book(files)
