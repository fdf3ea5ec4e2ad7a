"""Split advice text into inline pieces: text, code spans and PR references.

Seed text is plain text with backtick code spans, nothing more: every other
character is literal. References are ``#N`` (the note's repository),
``owner/repo#N``, and ``#N`` in a clause that names an aliased project
(``aiter 侧 … issue #4770`` is ROCm/aiter's). A code span that holds only a
reference (`` `#52626` ``) is a reference too, shown as code.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

# A reference is found at its "#": the number after it, then an optional
# owner/repo glued before it. Scanning for "#" first keeps long texts cheap.
NUMBER_RE = re.compile(r"#([1-9][0-9]{0,8})(?![A-Za-z0-9_])")
REPO_BEFORE_RE = re.compile(r"(?<![A-Za-z0-9_&#/])([A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]*[A-Za-z0-9_])$")
# What may not stand right before a bare "#N" ("&#12;", "x#5", "a/#5").
_GLUED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_&#/")
CODE_REF_RE = re.compile(
    r"(?:(?P<repo>[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]*[A-Za-z0-9_]))?#(?P<num>[1-9][0-9]{0,8})"
)
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
    if "``" not in text:
        # Only single backticks: each one closes the one before it.
        ticks = [m.start() for m in _BACKTICKS_RE.finditer(text)]
        return [(ticks[i], ticks[i + 1] + 1, 1) for i in range(0, len(ticks) - 1, 2)]
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
    nearby = text[window:pos].lower()
    if not any(word.lower() in nearby for word, _ in aliases):
        return None
    clause_start = max(text.rfind(ch, window, pos) for ch in CLAUSE_END) + 1
    clause_start = max(clause_start, window)
    clause = text[clause_start:pos].lower()
    best: tuple[int, str] | None = None
    for word, repo in aliases:
        for m in _alias_re(word).finditer(clause):
            if best is None or m.start() > best[0]:
                best = (m.start(), repo)
    return best[1] if best else None


@functools.lru_cache(maxsize=256)
def _alias_re(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z0-9_]){re.escape(word.lower())}(?![a-z0-9_])")


def _ref(text: str, number: int, explicit: str | None, abs_pos: int, full: str, repo: str, aliases, code: bool) -> Ref:
    target = explicit or _alias_repo(full, abs_pos, aliases) or repo
    kind = "issues" if ISSUE_WORD_RE.search(full[max(0, abs_pos - 12) : abs_pos]) else "pull"
    return Ref(text=text, repo=target, number=number, kind=kind, code=code)


def _find_refs(full: str, start: int, end: int):
    """``(start, end, number, repo or None)`` of each reference in a text range."""
    pos = full.find("#", start, end)
    while pos != -1:
        match = NUMBER_RE.match(full, pos, end)
        if match:
            ref_start, explicit = pos, None
            before = REPO_BEFORE_RE.search(full, max(start, pos - 140), pos)
            if before:
                ref_start, explicit = before.start(), before.group(1)
            if explicit or pos == start or full[pos - 1] not in _GLUED:
                yield ref_start, match.end(), int(match.group(1)), explicit
            pos = full.find("#", match.end(), end)
        else:
            pos = full.find("#", pos + 1, end)


def _text_pieces(full: str, start: int, end: int, repo: str, aliases) -> list[Inline]:
    pieces: list[Inline] = []
    pos = start
    for ref_start, ref_end, number, explicit in _find_refs(full, start, end):
        if ref_start > pos:
            pieces.append(Text(full[pos:ref_start]))
        pieces.append(_ref(full[ref_start:ref_end], number, explicit, ref_start, full, repo, aliases, code=False))
        pos = ref_end
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
    if "`" not in text and "#" not in text:
        return [Text(text)] if text else []  # most lines: nothing to split
    pieces: list[Inline] = []
    pos = 0
    for start, end, width in code_spans(text):
        pieces.extend(_text_pieces(text, pos, start, repo, aliases))
        content = text[start + width : end - width]
        stripped = content.strip()
        match = CODE_REF_RE.fullmatch(stripped)
        if match:
            number = int(match.group("num"))
            pieces.append(_ref(stripped, number, match.group("repo"), start, text, repo, aliases, code=True))
        else:
            pieces.append(Code(content))
        pos = end
    pieces.extend(_text_pieces(text, pos, len(text), repo, aliases))
    return pieces


def plain_text(pieces: tuple[Inline, ...]) -> str:
    """The text a reader sees: code spans without their backticks, lines by newlines."""
    return "".join(p.text for p in pieces)
