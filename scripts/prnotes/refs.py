"""Split advice text into inline pieces: text, code spans and PR references.

Seed text is plain text with backtick code spans, nothing more: every other
character is literal. References are ``#N`` (the note's repository),
``owner/repo#N``, and ``#N`` in a clause that names an aliased project
(``aiter 侧 … issue #4770`` is ROCm/aiter's). A code span that holds only a
reference (`` `#52626` ``) is a reference too, shown as code.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

# ``owner/repo`` within GitHub's length limits (owner <= 39, name <= 100). The
# bounds also keep the scan linear: unbounded runs would let every ``-`` in a
# long ``a-a-a-…`` run restart a scan to the end of the run.
_REPO_PART = r"[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{0,99}[A-Za-z0-9_]"
REF_RE = re.compile(
    r"(?<![A-Za-z0-9_&#/])"
    rf"(?:(?P<repo>{_REPO_PART}))?"
    r"#(?P<num>[1-9][0-9]{0,8})(?![A-Za-z0-9_])"
)
CODE_REF_RE = re.compile(rf"(?:(?P<repo>{_REPO_PART}))?#(?P<num>[1-9][0-9]{{0,8}})")
ISSUE_WORD_RE = re.compile(r"issues?\s*$", re.IGNORECASE)
# Punctuation that ends the clause an alias word must stand in.
CLAUSE_END = "。；！？\n;"
_BACKTICKS_RE = re.compile(r"`+")
# How far back an alias word may stand; keeps the scan linear in long bodies.
ALIAS_WINDOW = 80


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Ref:
    """A reference to a PR (``kind="pull"``) or issue (``kind="issues"``)."""

    text: str
    repo: str
    number: int
    kind: str = "pull"
    code: bool = False

    @property
    def target(self) -> str:
        return f"{self.repo}#{self.number}"


@dataclass(frozen=True)
class Break:
    """The end of a seed line; each line of advice is its own paragraph."""

    text: str = "\n"


Inline = Text | Code | Ref | Break


def code_spans(text: str) -> list[tuple[int, int, int]]:
    """CommonMark code spans: ``(start, end, fence length)`` of each.

    A run of N backticks opens a span closed by the next run of exactly N;
    a run with no partner is literal text.
    """
    runs = [(m.start(), m.end()) for m in _BACKTICKS_RE.finditer(text)]
    by_width: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_width.setdefault(end - start, []).append(index)
    spans = []
    i = 0
    while i < len(runs):
        start, end = runs[i]
        width = end - start
        same = by_width[width]
        k = bisect.bisect_right(same, i)
        if k < len(same):
            j = same[k]
            spans.append((start, runs[j][1], width))
            i = j + 1
        else:
            i += 1
    return spans


def _alias_repo(text: str, pos: int, aliases: tuple[tuple[str, str], ...]) -> str | None:
    """The aliased repository named last in the clause before ``pos``."""
    window = max(0, pos - ALIAS_WINDOW)
    clause_start = max(text.rfind(ch, window, pos) for ch in CLAUSE_END) + 1
    clause_start = max(clause_start, window)
    clause = text[clause_start:pos].lower()
    best: tuple[int, str] | None = None
    for word, repo in aliases:
        for m in re.finditer(rf"(?<![a-z0-9_]){re.escape(word.lower())}(?![a-z0-9_])", clause):
            if best is None or m.start() > best[0]:
                best = (m.start(), repo)
    return best[1] if best else None


def _ref(text: str, match: re.Match[str], abs_pos: int, full: str, repo: str, aliases, code: bool) -> Ref:
    number = int(match.group("num"))
    explicit = match.group("repo")
    target = explicit or _alias_repo(full, abs_pos, aliases) or repo
    kind = "issues" if ISSUE_WORD_RE.search(full[max(0, abs_pos - 12) : abs_pos]) else "pull"
    return Ref(text=text, repo=target, number=number, kind=kind, code=code)


def _text_pieces(full: str, start: int, end: int, repo: str, aliases) -> list[Inline]:
    pieces: list[Inline] = []
    pos = start
    for m in REF_RE.finditer(full, start, end):
        if m.start() > pos:
            pieces.append(Text(full[pos : m.start()]))
        pieces.append(_ref(m.group(0), m, m.start(), full, repo, aliases, code=False))
        pos = m.end()
    if pos < end:
        pieces.append(Text(full[pos:end]))
    return pieces


def segment(text: str, repo: str, aliases: tuple[tuple[str, str], ...] = ()) -> tuple[Inline, ...]:
    """Split ``text`` into pieces, line by line; code spans do not cross lines."""
    pieces: list[Inline] = []
    for index, line in enumerate(text.split("\n")):
        if index:
            pieces.append(Break())
        pieces.extend(_segment_line(line, repo, aliases))
    return tuple(pieces)


def _segment_line(text: str, repo: str, aliases: tuple[tuple[str, str], ...]) -> list[Inline]:
    pieces: list[Inline] = []
    pos = 0
    for start, end, width in code_spans(text):
        pieces.extend(_text_pieces(text, pos, start, repo, aliases))
        content = text[start + width : end - width]
        stripped = content.strip()
        match = CODE_REF_RE.fullmatch(stripped)
        if match:
            pieces.append(_ref(stripped, match, start, text, repo, aliases, code=True))
        else:
            pieces.append(Code(content))
        pos = end
    pieces.extend(_text_pieces(text, pos, len(text), repo, aliases))
    return pieces


def plain_text(pieces: tuple[Inline, ...]) -> str:
    """The text a reader sees: code spans without their backticks, lines by newlines."""
    return "".join(p.text for p in pieces)
