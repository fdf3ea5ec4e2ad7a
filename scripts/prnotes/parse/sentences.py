"""Split advice text into sentences and clauses, keeping its inline pieces.

The follow-up watch list and the reading-list summaries both work on parts of
an advice text. They split the note's own pieces (see :mod:`prnotes.parse.refs`), so
a clause keeps its code spans and its PR references exactly as the note has
them; only plain text is ever cut.

* A **sentence** ends after ``。！？`` (and any closing quote or bracket right
  after it), after ``!``, ``?`` or an English full stop
  (:data:`ENGLISH_PERIOD`) followed by a space, a closing quote or bracket,
  or the end (not in ``search?q=1`` or ``<!--``), or at the end of a seed line.
* A sentence splits into **clauses** at ``；``. When a ``：`` is followed by an
  enumerator (``一是``, ``①``, ``（1）``, ``1.``), the text before it is the
  **lead-in** and the clauses after it are the enumerated items; each item
  remembers its lead-in, without its enumerator.

Each part knows where it starts in the plain text it was cut from
(:func:`sentence_spans`, :attr:`Clause.start`), so a page can mark it in place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .refs import Break, Inline, Text, plain_text

SENTENCE_END = frozenset("。！？")
ASCII_END = r"[!?](?=[\s”’」』）)】]|$)"
# An English full stop: after a letter or a closing bracket or quote (not
# after a digit, as in the enumerator "1. "), before white space, and not in
# e.g., i.e., etc. or vs. A file name (utils.py) has no space after its dot.
ENGLISH_PERIOD = r"(?:(?<=[A-Za-z)\]'\"`])|^)(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)\.(?=\s)"
CLOSERS = frozenset("”’」』）)】")
CLAUSE_END = frozenset("；;")
LEAD_END = frozenset("：:")
ENUMERATOR_RE = re.compile(r"\s*(?:[一二三四五六七八九十]是|[①-⑳]|[（(][0-9一二三四五六七八九十]{1,2}[）)]|[0-9]{1,2}[.、])\s*")
# What is trimmed from both ends of a clause: whitespace and separators.
_TRIM = " \t\u3000；;，,。：:"


@dataclass(frozen=True)
class Clause:
    """Part of a sentence; ``lead`` is the lead-in of an enumerated item, else ``""``.

    ``start`` is where the clause begins in the sentence's plain text.
    """

    pieces: tuple[Inline, ...]
    lead: str = ""
    start: int = field(default=0, compare=False)

    @property
    def text(self) -> str:
        return plain_text(self.pieces)


Atom = str | Inline  # one character of plain text, or a whole code span / reference


def atoms_of(pieces: tuple[Inline, ...]) -> list[Atom]:
    """Plain text as one atom per character; code spans and references whole."""
    atoms: list[Atom] = []
    for piece in pieces:
        if isinstance(piece, Text):
            atoms.extend(piece.text)
        else:
            atoms.append(piece)
    return atoms


def pieces_of(atoms: list[Atom]) -> tuple[Inline, ...]:
    """Atoms joined back into pieces (the inverse of :func:`atoms_of`)."""
    out: list[Inline] = []
    buf: list[str] = []
    for atom in atoms:
        if isinstance(atom, str):
            buf.append(atom)
            continue
        if buf:
            out.append(Text("".join(buf)))
            buf = []
        out.append(atom)
    if buf:
        out.append(Text("".join(buf)))
    return tuple(out)


def _trim(atoms: list[Atom], start: int, end: int) -> tuple[int, int]:
    """``atoms[start:end]`` without separators and whitespace at either end, as indices."""
    while start < end and isinstance(atoms[start], str) and atoms[start] in _TRIM:
        start += 1
    while end > start and isinstance(atoms[end - 1], str) and atoms[end - 1] in _TRIM:
        end -= 1
    return start, end


_SENTENCE_END_RE = re.compile(
    "(?:[" + "".join(sorted(SENTENCE_END)) + "]|" + ASCII_END + "|" + ENGLISH_PERIOD + ")[" + "".join(sorted(CLOSERS)) + "]*"
)
# The same, or a line break: where a summary's sentence ends in plain text (prnotes.model.summary).
SENTENCE_BREAK_RE = re.compile("\n|" + _SENTENCE_END_RE.pattern)


def sentence_spans(pieces: tuple[Inline, ...]) -> list[tuple[int, tuple[Inline, ...]]]:
    """The sentences of an advice text, in order, each with its end mark and
    where it starts in the text's plain text (:func:`prnotes.parse.refs.plain_text`).

    Only plain text is cut: a sentence ends after an end mark and the closing
    quotes or brackets right after it, or at a line break.
    """
    out: list[tuple[int, tuple[Inline, ...]]] = []
    current: list[Inline] = []
    offset = start = 0  # plain text consumed so far; where `current` starts

    def flush() -> None:
        nonlocal start
        if plain_text(tuple(current)).strip():
            out.append((start, tuple(current)))
        current.clear()
        start = offset

    for piece in pieces:
        if isinstance(piece, Break):
            offset += len(piece.text)
            flush()
        elif not isinstance(piece, Text):
            current.append(piece)
            offset += len(piece.text)
        else:
            text, pos = piece.text, 0
            for match in _SENTENCE_END_RE.finditer(text):
                current.append(Text(text[pos : match.end()]))
                offset += match.end() - pos
                pos = match.end()
                flush()
            if pos < len(text):
                current.append(Text(text[pos:]))
                offset += len(text) - pos
    flush()
    return out


def _split_at(atoms: list[Atom], start: int, end: int, marks: frozenset[str]) -> list[tuple[int, int]]:
    """``atoms[start:end]`` cut after each mark, as index ranges."""
    parts: list[tuple[int, int]] = []
    lo = start
    for index in range(start, end):
        atom = atoms[index]
        if isinstance(atom, str) and atom in marks:
            parts.append((lo, index + 1))
            lo = index + 1
    parts.append((lo, end))
    return parts


def _plain_head(atoms: list[Atom], start: int = 0, limit: int = 8) -> str:
    """Up to ``limit`` characters of plain text from ``start``, stopping at a code span or reference."""
    out = []
    for atom in atoms[start : start + limit]:
        if not isinstance(atom, str):
            break
        out.append(atom)
    return "".join(out)


def _enumeration_colon(atoms: list[Atom]) -> int | None:
    """Index of the first ``：`` that an enumerator follows."""
    for index, atom in enumerate(atoms):
        if isinstance(atom, str) and atom in LEAD_END and ENUMERATOR_RE.match(_plain_head(atoms, index + 1)):
            return index
    return None


def _strip_enumerator(atoms: list[Atom], start: int) -> int:
    """Where the item starting at ``start`` begins after its enumerator."""
    match = ENUMERATOR_RE.match(_plain_head(atoms, start))
    # The enumerator is plain text: one atom per character.
    return start + match.end() if match else start


def clauses(sentence: tuple[Inline, ...]) -> list[Clause]:
    """The clauses of one sentence; enumerated items carry their lead-in."""
    atoms = atoms_of(sentence)
    offsets = [0]  # offsets[i]: where atom i starts in the sentence's plain text
    for atom in atoms:
        offsets.append(offsets[-1] + len(atom if isinstance(atom, str) else atom.text))

    def clause(lo: int, hi: int, lead: str = "") -> Clause:
        return Clause(pieces_of(atoms[lo:hi]), lead, offsets[lo])

    out: list[Clause] = []
    colon = _enumeration_colon(atoms)
    before_end = len(atoms) if colon is None else colon
    before_parts = _split_at(atoms, 0, before_end, CLAUSE_END)
    lead = ""
    for index, (lo, hi) in enumerate(before_parts):
        lo, hi = _trim(atoms, lo, hi)
        if lo == hi:
            continue
        if colon is not None and index == len(before_parts) - 1:
            lead = "".join(a if isinstance(a, str) else a.text for a in atoms[lo:hi])  # the lead-in is context, not a clause of its own
        else:
            out.append(clause(lo, hi))
    if colon is not None:
        for lo, hi in _split_at(atoms, colon + 1, len(atoms), CLAUSE_END):
            lo, hi = _trim(atoms, lo, hi)
            lo, hi = _trim(atoms, _strip_enumerator(atoms, lo), hi)
            if lo < hi:
                out.append(clause(lo, hi, lead))
    return out
