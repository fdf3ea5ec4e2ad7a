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

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Diagnostic, InputError

REPO_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}")
# A trailing PR number in a title, with ASCII or full-width parentheses.
TITLE_NUMBER_RE = re.compile(r"\s*[(（]#(\d{1,9})[)）]\s*$")
# Labels the digest tool puts in front of a body; they are not advice text.
BODY_LABEL_RE = re.compile(r"^#{1,6}[ \t]*阅读建议[ \t]*")
# Control characters (Unicode category Cc) other than newline and tab.
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


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

    Invalid UTF-8 and control characters are errors naming the line.
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
    for match in _CONTROL_RE.finditer(text):
        lineno = text.count("\n", 0, match.start()) + 1
        if problems and problems[-1].line == lineno:
            continue
        problems.append(
            Diagnostic(path, lineno, f"control character U+{ord(match.group()):04X} is not allowed")
        )
    if problems:
        raise InputError(problems)
    return text


def _blocks(lines: list[str], start: int) -> list[tuple[int, list[str]]]:
    """Group non-blank lines into blocks, each with its 1-based first line."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    for index in range(start, len(lines)):
        line = lines[index].strip()
        if line:
            if not current:
                blocks.append((index + 1, current))
            current.append(line)
        else:
            current = []
    return blocks


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
    problems: list[Diagnostic] = []
    entries: list[RawEntry] = []
    blocks = _blocks(lines, 1)
    if not blocks:
        problems.append(Diagnostic(path, 1, "no entries after the repository line"))
    for i in range(0, len(blocks), 2):
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
            continue
        if i + 1 >= len(blocks):
            problems.append(
                Diagnostic(path, title_line, f"title {title_block[0]!r} has no body")
            )
            continue
        body_line, body_block = blocks[i + 1]
        title, number = split_title_number(title_block[0])
        first = BODY_LABEL_RE.sub("", body_block[0], count=1)
        body_lines = ([first] if first else []) + body_block[1:]
        if not title:
            problems.append(Diagnostic(path, title_line, "title is empty"))
            continue
        if not body_lines:
            problems.append(
                Diagnostic(path, body_line, f"body of {title!r} is only a label")
            )
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
    """Split a trailing ``(#N)`` off a title."""
    match = TITLE_NUMBER_RE.search(title)
    if not match:
        return title, None
    return title[: match.start()].rstrip(), int(match.group(1))


_TOML_KEY_RE = re.compile(r'^\s*(\[\s*)?"((?:[^"\\]|\\.)*)"')


def _key_lines(text: str) -> dict[str, int]:
    """Line of each quoted TOML key or table name, for messages about it."""
    lines: dict[str, int] = {}
    for lineno, line in enumerate(text.split("\n"), 1):
        match = _TOML_KEY_RE.match(line)
        if match:
            try:
                key = json.loads(f'"{match.group(2)}"')
            except ValueError:
                continue
            lines.setdefault(("[" if match.group(1) else "") + key, lineno)
    return lines


def parse_prs(path: str, data: bytes) -> dict[tuple[str, str], PrInfo]:
    """Parse ``prs.toml``: ``[repo]`` tables of ``"title" = {number, upstream_title}``."""
    text = decode(path, data)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        raise InputError(
            [Diagnostic(path, int(match.group(1)) if match else 1, f"invalid TOML: {exc}")]
        ) from None
    problems: list[Diagnostic] = []
    out: dict[tuple[str, str], PrInfo] = {}
    key_lines = _key_lines(text)
    for repo, table in doc.items():
        repo_line = key_lines.get("[" + repo, 1)
        if not REPO_RE.fullmatch(repo) or not isinstance(table, dict):
            problems.append(
                Diagnostic(path, repo_line, f"{repo!r} is not an owner/repo table")
            )
            continue
        for title, info in table.items():
            line = key_lines.get(title, repo_line)
            if not isinstance(info, dict):
                problems.append(
                    Diagnostic(path, line, f"{title!r}: expected {{ number = N, upstream_title = \"…\" }}")
                )
                continue
            number = info.get("number")
            upstream = info.get("upstream_title", "")
            unknown = sorted(set(info) - {"number", "upstream_title"})
            if not isinstance(number, int) or isinstance(number, bool) or number <= 0:
                problems.append(
                    Diagnostic(path, line, f"{title!r}: number must be a positive integer")
                )
            elif not isinstance(upstream, str) or "\n" in upstream:
                problems.append(
                    Diagnostic(path, line, f"{title!r}: upstream_title must be a one-line string")
                )
            elif unknown:
                problems.append(
                    Diagnostic(path, line, f"{title!r}: unknown keys {', '.join(unknown)}")
                )
            else:
                out[(repo, title)] = PrInfo(repo, title, number, upstream.strip(), path, line)
    if problems:
        raise InputError(problems)
    return out


def read_seeds(seeds_dir: Path, root: Path) -> tuple[list[SeedFile], dict[tuple[str, str], PrInfo]]:
    """Parse every ``*.txt`` seed (in name order) and ``prs.toml`` under ``seeds_dir``.

    All files are parsed before any error is raised, so one run reports every
    problem.
    """
    problems: list[Diagnostic] = []
    seeds: list[SeedFile] = []
    # Name order is arrival order: digest files are named with a sequence prefix.
    for file in sorted(seeds_dir.glob("*.txt")):
        rel = file.relative_to(root).as_posix()
        try:
            seeds.append(parse_seed(rel, file.read_bytes()))
        except InputError as exc:
            problems.extend(exc.problems)
    prs: dict[tuple[str, str], PrInfo] = {}
    prs_file = seeds_dir / "prs.toml"
    if prs_file.exists():
        try:
            prs = parse_prs(prs_file.relative_to(root).as_posix(), prs_file.read_bytes())
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return seeds, prs
