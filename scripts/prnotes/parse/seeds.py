"""Read seed files and ``prs.toml`` into raw records.

This is the only place that looks at raw bytes. Everything downstream relies on
the shape produced here: decoded text, LF line endings, stripped lines, the
digest tool's ``### 阅读建议`` label removed, and a ``file:line`` for every record.

Seed format::

    owner/repo                  <- line 1, the repository of every entry

    Title of the first entry    <- one line, may end with (#123) or （#123）

    Body: the reading advice,   <- one or more lines
    possibly on several lines.

    Title of the second entry
    ...
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import tomllib
from collections import Counter
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import chars, regular
from ..diagnostics import Diagnostic, InputError

REPO_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}")
# Names REPO_RE lets through that are path steps: github.com/a/../pull/1 is
# github.com/pull/1.
_PATH_STEPS = frozenset({".", ".."})
# A trailing PR number in a title, with ASCII or full-width parentheses.
# ASCII digits only (int() would also read other scripts' digits), no #0.
# Full-width digits and ＃ count as ASCII ones: （＃１２） is #12.
TITLE_NUMBER_RE = re.compile(r"[(（][#＃]([1-9１-９][0-9０-９]{0,8})[)）]$")
# A title suffix that looks like a PR number but is not one: (#0), (#00012), (#1234567890).
NEAR_NUMBER_RE = re.compile(r"[(（]\s*[#＃]\s*[0-9０-９]+\s*[)）]$")
# The largest PR number a title or prs.toml may give: nine digits.
MAX_PR_NUMBER = 999_999_999
# The longest title suffix TITLE_NUMBER_RE can match: "（#123456789）".
_TITLE_NUMBER_MAX = 12
# Labels the digest tool puts in front of a body; they are not advice text.
BODY_LABEL_RE = re.compile(r"^#{1,6}[ \t]*阅读建议[ \t]*")
# What a seed file name may hold: any text a seed may hold, but no tab or
# newline (the name is shown on one line of every page of its notes).
_NAME_BAD_RE = chars.ONE_LINE_BAD_RE


# How advice often opens; a block that opens so is not read as a title when
# looking for the title that lacks its body.
ADVICE_OPENING_RE = re.compile(r"值得|建议|推荐(?!系统)|不必|无需|可以|可跳过|跳过|略读|速读|精读|必读|(?:Worth|Skim|Read)\b")


def is_repo(repo: str) -> bool:
    """Whether ``repo`` is an ``owner/name`` whose GitHub links stay on it."""
    return REPO_RE.fullmatch(repo) is not None and repo.split("/", 1)[1] not in _PATH_STEPS


@dataclass(frozen=True)
class RawEntry:
    """One title/body pair as it stands in a seed file."""

    repo: str
    title: str
    body: str
    number: int | None
    path: str
    line: int
    body_line: int


@dataclass(frozen=True)
class SeedFile:
    """A parsed seed file: its repository and entries, in file order."""

    path: str
    repo: str
    entries: tuple[RawEntry, ...]


@dataclass(frozen=True)
class PrInfo:
    """What ``prs.toml`` says about one entry title."""

    repo: str
    title: str
    number: int
    upstream_title: str
    path: str
    line: int


def decode(path: str, data: bytes) -> str:
    """Decode UTF-8 (BOM allowed) and normalise CRLF to LF.

    Invalid UTF-8 and the characters :mod:`prnotes.parse.chars` rejects are errors
    naming the line.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            [
                Diagnostic(
                    path,
                    line,
                    f"invalid UTF-8: byte 0x{data[exc.start]:02x} at column {col}",
                )
            ]
        ) from None
    text = text.replace("\r\n", "\n")
    problems = []
    # One problem per line, the first bad character in it; line numbers
    # are counted incrementally so many bad lines stay linear.
    lineno, last_pos, last_line = 1, 0, 0
    for match in chars.DISALLOWED_RE.finditer(text):
        lineno += text.count("\n", last_pos, match.start())
        last_pos = match.start()
        if lineno != last_line:
            last_line = lineno
            problems.append(Diagnostic(path, lineno, chars.problem(match.group())))
    if problems:
        raise InputError(problems)
    return text


def _visible(text: str) -> bool:
    """Whether ``text`` shows anything (:func:`prnotes.parse.chars.shows_nothing`): a line
    of only zero-width characters, Hangul fillers or blank braille cells looks blank."""
    return not chars.shows_nothing(text)


def _blocks(lines: list[str], start: int) -> list[tuple[int, list[str]]]:
    """Group non-blank lines into blocks, each with its 1-based first line.

    A line is blank when it shows nothing (:func:`_visible`), so an invisible
    character on an empty-looking line still separates a title from its body.
    """
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    for index in range(start, len(lines)):
        line = lines[index].strip()
        if _visible(line):
            if not current:
                blocks.append((index + 1, current))
            current.append(line)
        else:
            current = []
    return blocks


def _reads_as_title(block: list[str]) -> bool:
    """Whether a block looks like a title: one short line that ends no sentence
    and does not open as advice does."""
    line = block[0]
    return (
        len(block) == 1
        and len(line) <= 120
        and not line.endswith(("。", "！", "？", "；", ".", "!", "?", ";"))
        and not ADVICE_OPENING_RE.match(line)
        and not BODY_LABEL_RE.match(line)
    )


def _title_likeness(block: list[str]) -> int:
    """2 for a title with its PR number, 1 for a title-like block, 0 for a body-like one."""
    if not _reads_as_title(block):
        return 0
    return 2 if TITLE_NUMBER_RE.search(block[0]) else 1


def _title_without_body(blocks: list[tuple[int, list[str]]]) -> int | None:
    """The index of the title that lacks its body, when an odd number of blocks says one does.

    Titles and bodies alternate, so one missing body shifts every pair after
    it: the next title would be read as a body, and the pairing would run out
    only at the last block. Each title could be the one; the one blamed is
    the one that leaves the most pairs looking right (a title-like block,
    then a block that does not look like a title), the last one on a tie.
    A title ending in its PR number looks most like a title.
    """
    n = len(blocks)
    if n % 2 == 0:
        return None
    titled = [_title_likeness(block) for _, block in blocks]

    def fits(j: int) -> int:  # the pair (j, j + 1) read as title and body
        return titled[j] + 2 - titled[j + 1]

    before = [0] * (n + 1)  # before[k]: pairs (0, 1) … (k - 2, k - 1)
    for k in range(2, n + 1, 2):
        before[k] = before[k - 2] + fits(k - 2)
    after = [0] * (n + 2)  # after[k]: pairs (k + 1, k + 2) … (n - 2, n - 1)
    for k in range(n - 3, -1, -2):
        after[k] = after[k + 2] + fits(k + 1)
    return max(range(0, n, 2), key=lambda k: (before[k] + after[k], k))


def parse_seed(path: str, data: bytes) -> SeedFile:
    """Parse one seed file; raise :class:`InputError` listing every problem."""
    text = decode(path, data)
    lines = text.split("\n")
    if not text.strip():
        raise InputError([Diagnostic(path, 1, "empty file: expected owner/repo on line 1")])
    repo = lines[0].strip()
    if not REPO_RE.fullmatch(repo):
        raise InputError(
            [
                Diagnostic(
                    path,
                    1,
                    f"line 1 must be the repository as owner/repo, found {repo!r}",
                )
            ]
        )
    if not is_repo(repo):
        raise InputError(
            [Diagnostic(path, 1, f"{repo!r} is not a repository: a name of '.' or '..' would send its GitHub links elsewhere")]
        )
    problems: list[Diagnostic] = []
    entries: list[RawEntry] = []
    blocks = _blocks(lines, 1)
    if not blocks:
        problems.append(Diagnostic(path, 1, "no entries after the repository line"))
    missing = _title_without_body(blocks)
    i = 0
    while i < len(blocks):
        title_line, title_block = blocks[i]
        if len(title_block) > 1:
            problems.append(
                Diagnostic(
                    path,
                    title_line,
                    f"title block has {len(title_block)} lines; a title is one line, "
                    "followed by a blank line and its body",
                )
            )
            i += 2
            continue
        if i + 1 >= len(blocks) or i == missing:
            problems.append(Diagnostic(path, title_line, f"title {title_block[0]!r} has no body"))
            i += 1
            continue
        i += 2
        body_line, body_block = blocks[i - 1]
        title, number = split_title_number(title_block[0])
        first = BODY_LABEL_RE.sub("", body_block[0], count=1)
        body_lines = ([first] if _visible(first) else []) + body_block[1:]
        if not _visible(title):
            problems.append(Diagnostic(path, title_line, "title is empty"))
            continue
        if not body_lines:
            problems.append(Diagnostic(path, body_line, f"body of {title!r} is only a label"))
            continue
        entries.append(
            RawEntry(
                repo=repo,
                title=title,
                body="\n".join(body_lines),
                number=number,
                path=path,
                line=title_line,
                body_line=body_line,
            )
        )
    if problems:
        raise InputError(problems)
    return SeedFile(path=path, repo=repo, entries=tuple(entries))


def split_title_number(title: str) -> tuple[str, int | None]:
    """Split a trailing ``(#N)`` off a title.

    Only the title's tail is searched: a pattern starting with optional spaces would
    rescan a long run of spaces from every position in it.
    """
    stripped = title.rstrip()
    match = TITLE_NUMBER_RE.search(stripped, max(0, len(stripped) - _TITLE_NUMBER_MAX))
    if not match:
        return title, None
    return stripped[: match.start()].rstrip(), int(match.group(1))


_TOML_KEY = r"""(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)"""
_TOML_TABLE_RE = re.compile(rf"^\s*\[\s*({_TOML_KEY})\s*\]")
_TOML_PAIR_RE = re.compile(rf"^\s*({_TOML_KEY})\s*=")


_PLAIN_KEY_RE = re.compile(r'[A-Za-z0-9_-]+|"([^"\\]*)"|\'([^\']*)\'')


def _toml_key(raw: str) -> str | None:
    # Most keys have no escapes: read those directly, tomllib the rest.
    if plain := _PLAIN_KEY_RE.fullmatch(raw):
        if plain.group(1) is not None:
            return plain.group(1)
        return plain.group(2) if plain.group(2) is not None else raw
    try:
        return next(iter(tomllib.loads(f"{raw} = 0")))
    except tomllib.TOMLDecodeError:
        return None


def _key_lines(text: str) -> dict[tuple[str | None, str], int]:
    """Line of each ``[table]`` (key ``(None, table)``) and ``key =`` in a table.

    One pass over the lines, so the messages about a large ``prs.toml`` cost
    linear time; best effort (dotted keys are not followed).
    """
    lines: dict[tuple[str | None, str], int] = {}
    table: str | None = None
    for lineno, line in enumerate(text.split("\n"), 1):
        if match := _TOML_TABLE_RE.match(line):
            table = _toml_key(match.group(1))
            if table is not None:
                lines.setdefault((None, table), lineno)
        elif match := _TOML_PAIR_RE.match(line):
            key = _toml_key(match.group(1))
            if key is not None:
                lines.setdefault((table, key), lineno)
    return lines


_TOML_WHERE_RE = re.compile(r" \((?:at line (\d+), column (\d+)|at end of document)\)$")


# The escapes of a TOML basic string.
_TOML_ESCAPE_RE = re.compile(r'\\(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[btnfr"\\])')
_TOML_SHORT_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


def _toml_escapes(text: str) -> list[tuple[int, str, str]]:
    """``(line, escape, character)`` of every escape in the basic strings of valid TOML.

    Comments and literal strings hold no escapes, so a scan that knows only
    where strings start and end is enough for a file tomllib has accepted.
    """
    found = []
    pos, line, closing = 0, 1, ""  # closing: the delimiter of the open string
    while pos < len(text):
        ch = text[pos]
        if ch == "\n":
            line += 1
        if not closing:
            if ch == "#":
                pos = text.find("\n", pos)
                pos = len(text) if pos < 0 else pos
                continue
            if ch in "\"'":
                closing = ch * 3 if text.startswith(ch * 3, pos) else ch
                pos += len(closing)
                continue
        elif text.startswith(closing, pos):
            # A multi-line string may end in up to two quotes before its delimiter.
            run = len(closing)
            while len(closing) == 3 and run < 5 and text.startswith(closing[0], pos + run):
                run += 1
            pos += run
            closing = ""
            continue
        elif ch == "\\" and closing[0] == '"':
            match = _TOML_ESCAPE_RE.match(text, pos)
            if match:
                escape = match.group()
                code = int(escape[2:], 16) if escape[1] in "uU" else 0
                char = _TOML_SHORT_ESCAPES.get(escape[1]) or (chr(code) if code <= 0x10FFFF else "")
                found.append((line, escape, char))
                pos = match.end()
                continue
            pos += 1  # a line-ending backslash of a multi-line string
            continue
        pos += 1
    return found


def _strings(value) -> list[str]:
    """Every string in a parsed TOML document, keys included."""
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            found.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _escape_problems(path: str, text: str, doc: dict) -> list[Diagnostic]:
    """Characters :mod:`prnotes.parse.chars` rejects that TOML escapes put in strings.

    :func:`decode` has checked the raw text, so such a character comes from an
    escape (``\\u001b``, ``\\b``); the problem is reported on the line of
    that escape.
    """
    bad = {m.group() for s in _strings(doc) for m in chars.DISALLOWED_RE.finditer(s)}
    if not bad:
        return []
    problems: dict[int, Diagnostic] = {}
    for line, escape, char in _toml_escapes(text):
        if char in bad and line not in problems:  # one problem per line, as in decode
            problems[line] = Diagnostic(path, line, f"{chars.problem(char)} (written as {escape})")
    # Not found as an escape (it cannot be): still refuse the file.
    return list(problems.values()) or [Diagnostic(path, 1, chars.problem(min(bad)))]


def _deepest_line(text: str) -> int:
    """The line where brackets and braces nest deepest (strings not told apart)."""
    depth = deepest = 0
    line = where = 1
    for ch in text:
        if ch == "\n":
            line += 1
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, line
        elif ch in "]}":
            depth -= 1
    return where


def load_toml(path: str, data: bytes) -> tuple[str, dict]:
    """Decode and parse a TOML file; a syntax error names its line and column.

    Strings are checked after parsing too: escapes can write characters the
    raw text may not hold.
    """
    text = decode(path, data)
    try:
        doc = tomllib.loads(text)
    except RecursionError:
        # tomllib parses nested arrays and inline tables by recursion.
        raise InputError([Diagnostic(path, _deepest_line(text), "invalid TOML: arrays or tables nested too deeply")]) from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _TOML_WHERE_RE.search(message)
        if match is None:
            line, where = 1, ""
        elif match.group(1):
            line, where = int(match.group(1)), f" (column {match.group(2)})"
        else:
            line, where = text.count("\n") + 1, " (at the end of the file)"
        reason = message[: match.start()] if match else message
        raise InputError([Diagnostic(path, line, f"invalid TOML: {reason}{where}")]) from None
    problems = _escape_problems(path, text, doc)
    if problems:
        raise InputError(problems)
    return text, doc


def read_file(path: Path, rel: str) -> bytes:
    """The bytes of an input file; an unreadable file is an input error.

    Only a regular file is read, and at most :data:`~prnotes.parse.regular.MAX_INPUT_BYTES`
    of it: a named pipe or a device in its place is refused without waiting on it.
    """
    try:
        return regular.read_regular(path)
    except regular.NotRegularFile as exc:
        raise InputError([Diagnostic(rel, 1, f"{exc.strerror}; replace it with the file")]) from None
    except regular.FileTooLarge as exc:
        raise InputError([Diagnostic(rel, 1, f"{exc.strerror}; split it")]) from None
    except OSError as exc:
        raise InputError([Diagnostic(rel, 1, f"cannot read the file: {exc.strerror or exc}")]) from None


def parse_prs(path: str, data: bytes) -> dict[tuple[str, str], PrInfo]:
    """Parse ``prs.toml``: ``[repo]`` tables of ``"title" = {number, upstream_title}``.

    Keyed by the repository's name in lower case and the title: GitHub reads
    names case-insensitively, and so do the seeds (:class:`prnotes.model.site.RepoNames`).
    """
    text, doc = load_toml(path, data)
    problems: list[Diagnostic] = []
    out: dict[tuple[str, str], PrInfo] = {}
    key_lines = _key_lines(text)
    for repo, table in doc.items():
        repo_line = key_lines.get((None, repo), 1)
        if not is_repo(repo) or not isinstance(table, dict):
            problems.append(Diagnostic(path, repo_line, f"{repo!r} is not an owner/repo table"))
            continue
        for title, info in table.items():
            line = key_lines.get((repo, title), repo_line)
            if not isinstance(info, dict):
                problems.append(Diagnostic(path, line, f"{title!r}: expected {{ number = N, upstream_title = \"…\" }}"))
                continue
            number = info.get("number")
            upstream = info.get("upstream_title", "")
            unknown = sorted(set(info) - {"number", "upstream_title"})
            if not isinstance(number, int) or isinstance(number, bool) or not 0 < number <= MAX_PR_NUMBER:
                problems.append(Diagnostic(path, line, f"{title!r}: number must be a whole number from 1 to {MAX_PR_NUMBER}"))
            elif not isinstance(upstream, str) or "\n" in upstream:
                problems.append(Diagnostic(path, line, f"{title!r}: upstream_title must be a one-line string"))
            elif upstream.strip() and not _visible(upstream):
                problems.append(
                    Diagnostic(path, line, f"{title!r}: upstream_title shows nothing; leave it out or write the title")
                )
            elif unknown:
                problems.append(Diagnostic(path, line, f"{title!r}: unknown keys {', '.join(unknown)}"))
            elif (first := out.get((repo.lower(), title))) is not None:
                problems.append(Diagnostic(path, line, f"{title!r} of {repo} is given already (line {first.line}, {first.repo})"))
            else:
                out[(repo.lower(), title)] = PrInfo(repo, title, number, upstream.strip(), path, line)
    if problems:
        raise InputError(problems)
    return out


NAME_RULE = (
    "rename the file: a seed file name may be any UTF-8 text ending in .txt, spaces and punctuation included, "
    "but no control, bidirectional control, line separator, private-use or noncharacter code points"
)


# Pages and build files are named after a seed file (its digest page, the
# page's temporary file while it is written: 30 bytes more); file systems
# allow 255 bytes a name.
MAX_NAME_BYTES = 160


def resolved(path: Path) -> Path | None:
    """``path`` with every link followed, or None if its links loop. Python 3.12's
    ``resolve()`` raises RuntimeError on a loop; 3.13's returns a path, and only
    ``strict=True`` says ELOOP."""
    try:
        return path.resolve(strict=True)
    except RuntimeError:
        return None
    except OSError as error:
        return None if error.errno == errno.ELOOP else path.resolve()


def _check_inside(path: Path, real_seeds: Path, rel: str, names: Counter[tuple[int, int]]) -> None:
    """Refuse a file that is not a regular file inside ``seeds/``.

    A seed is published: a link to a file elsewhere would publish that file,
    and an error message about it would show its first line. So the check
    comes before the file is opened, and its message says nothing of the
    target. A hard link is such a link too when the file has more names than
    ``seeds/`` holds (``names``: the files of ``seeds/`` by device and inode).
    A FIFO or device would block or never end.
    """
    real = resolved(path)
    if real is None:
        raise InputError([Diagnostic(rel, 1, "is a link that loops back on itself; replace it with the file")])
    if not real.is_relative_to(real_seeds):
        raise InputError(
            [Diagnostic(rel, 1, "is a link to a file outside seeds/; copy the file into seeds/ instead")]
        )
    try:
        st = os.stat(path)
    except OSError:
        return  # read_file reports it
    if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        raise InputError([Diagnostic(rel, 1, "is not a regular file; a seed must be a text file")])
    if stat.S_ISREG(st.st_mode) and st.st_nlink > 1 and st.st_nlink > names[(st.st_dev, st.st_ino)]:
        raise InputError(
            [Diagnostic(rel, 1, "is a hard link to a file outside seeds/; copy the file into seeds/ instead")]
        )


def _names(folder: Path) -> Counter[tuple[int, int]]:
    """How many names each regular file has in ``folder`` itself, by device and inode."""
    found: Counter[tuple[int, int]] = Counter()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            found[(st.st_dev, st.st_ino)] += 1
    return found


def _parsed(
    path: Path, real_seeds: Path, rel: str, names: Counter[tuple[int, int]], parse: Callable[[str, bytes], Any],
    memo: MutableMapping | None,
) -> Any:  # fmt: skip
    """``parse(rel, bytes)`` of a file in ``seeds/``, checked first, and kept in
    ``memo`` by path and content (a seed file or ``prs.toml``)."""
    _check_inside(path, real_seeds, rel, names)
    data = read_file(path, rel)
    key = (rel, hashlib.sha1(data).hexdigest())
    parsed = memo.get(key) if memo is not None else None
    if parsed is None:
        parsed = parse(rel, data)
        if memo is not None:
            memo[key] = parsed
    return parsed


def read_seeds(
    seeds_dir: Path, root: Path, memo: MutableMapping[tuple[str, str], Any] | None = None
) -> tuple[list[SeedFile], dict[tuple[str, str], PrInfo]]:
    """Parse every ``*.txt`` seed (in name order) and ``prs.toml`` under ``seeds_dir``.

    All files are parsed before any error is raised, so one run reports every
    problem. ``memo`` keeps parsed files between runs, by path and content
    (:mod:`prnotes.write.cache`).
    """
    problems: list[Diagnostic] = []
    seeds: list[SeedFile] = []
    real_seeds = resolved(seeds_dir)
    if real_seeds is None:
        where = seeds_dir.relative_to(root).as_posix() + "/"
        raise InputError([Diagnostic(where, 1, "is a link that loops back on itself; the site keeps its pages")])
    names = _names(seeds_dir)
    # Name order is arrival order: digest files are named with a sequence prefix.
    for file in sorted(seeds_dir.glob("*.txt")):
        if file.name.startswith("."):
            continue  # hidden: an editor's lock or backup (.#001.txt), not a digest
        rel = file.relative_to(root).as_posix()
        if match := _NAME_BAD_RE.search(rel):
            # The name is shown on every page of its notes: a newline in it
            # would start a new line of MyST there, a direction control would
            # reorder the line, and a name that is not UTF-8 cannot be written.
            problems.append(Diagnostic(chars.shown(rel), 1, f"the file name has {chars.kind(match.group())}; {NAME_RULE}"))
            continue
        if (size := len(file.name.encode("utf-8", "surrogateescape"))) > MAX_NAME_BYTES:
            problems.append(
                Diagnostic(
                    rel, 1,
                    f"the file name is {size} bytes long; rename the file: a seed file name may have at most "
                    f"{MAX_NAME_BYTES} bytes in UTF-8 (its digest page and the build's files are named after it)",
                )
            )  # fmt: skip
            continue
        try:
            seeds.append(_parsed(file, real_seeds, rel, names, parse_seed, memo))
        except InputError as exc:
            problems.extend(exc.problems)
    prs: dict[tuple[str, str], PrInfo] = {}
    prs_file = seeds_dir / "prs.toml"
    if prs_file.exists() or prs_file.is_symlink():
        try:
            # It grows with the archive (about 36 ms at 1,000 entries): parsed once per content.
            prs = _parsed(prs_file, real_seeds, prs_file.relative_to(root).as_posix(), names, parse_prs, memo)
        except InputError as exc:
            problems.extend(exc.problems)
    if not seeds and not problems:
        # An archive does not lose its last digest by accident: a missing or
        # emptied folder would otherwise remove every page of the site.
        where = seeds_dir.relative_to(root).as_posix() + "/"
        what = "holds no digest (a .txt file)" if seeds_dir.is_dir() else "is not there"
        problems.append(Diagnostic(where, 1, f"the seeds folder {what}; the site keeps its pages"))
    if problems:
        raise InputError(problems)
    return seeds, prs
