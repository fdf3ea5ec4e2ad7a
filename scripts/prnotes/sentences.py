"""Split advice text into sentences and clauses, keeping its inline pieces.

The follow-up watch list and the reading-list summaries both work on parts of
an advice text. They split the note's own pieces (see :mod:`prnotes.refs`), so
a clause keeps its code spans and its PR references exactly as the note has
them; only plain text is ever cut.

* A **sentence** ends after ``。！？`` (and any closing quote or bracket right
  after it) or at the end of a seed line.
* A sentence splits into **clauses** at ``；``. When a ``：`` is followed by an
  enumerator (``一是``, ``①``, ``（1）``, ``1.``), the text before it is the
  **lead-in** and the clauses after it are the enumerated items; each item
  remembers its lead-in, without its enumerator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .refs import Break, Inline, Text, plain_text

SENTENCE_END = frozenset("。！？!?")
CLOSERS = frozenset("”’」』）)】")
CLAUSE_END = frozenset("；;")
LEAD_END = frozenset("：:")
ENUMERATOR_RE = re.compile(r"\s*(?:[一二三四五六七八九十]是|[①-⑳]|[（(][0-9一二三四五六七八九十]{1,2}[）)]|[0-9]{1,2}[.、])\s*")
# What is trimmed from both ends of a clause: whitespace and separators.
_TRIM = " \t\u3000；;，,。：:"


@dataclass(frozen=True)
class Clause:
    """Part of a sentence; ``lead`` is the lead-in of an enumerated item, else ``""``."""

    pieces: tuple[Inline, ...]
    lead: str = ""

    @property
    def text(self) -> str:
        return plain_text(self.pieces)


Atom = str | Inline  # one character of plain text, or a whole code span / reference


def _atoms(pieces: tuple[Inline, ...]) -> list[Atom]:
    atoms: list[Atom] = []
    for piece in pieces:
        if isinstance(piece, Text):
            atoms.extend(piece.text)
        else:
            atoms.append(piece)
    return atoms


def _pieces(atoms: list[Atom]) -> tuple[Inline, ...]:
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


def _trim(atoms: list[Atom]) -> list[Atom]:
    start, end = 0, len(atoms)
    while start < end and isinstance(atoms[start], str) and atoms[start] in _TRIM:
        start += 1
    while end > start and isinstance(atoms[end - 1], str) and atoms[end - 1] in _TRIM:
        end -= 1
    return atoms[start:end]


def _text_of(atoms: list[Atom]) -> str:
    return "".join(a if isinstance(a, str) else a.text for a in atoms)


_SENTENCE_END_RE = re.compile("[" + "".join(sorted(SENTENCE_END)) + "][" + "".join(sorted(CLOSERS)) + "]*")


def sentences(pieces: tuple[Inline, ...]) -> list[tuple[Inline, ...]]:
    """The sentences of an advice text, in order, each with its end mark.

    Only plain text is cut: a sentence ends after an end mark and the closing
    quotes or brackets right after it, or at a line break.
    """
    out: list[tuple[Inline, ...]] = []
    current: list[Inline] = []

    def flush() -> None:
        if plain_text(tuple(current)).strip():
            out.append(tuple(current))
        current.clear()

    for piece in pieces:
        if isinstance(piece, Break):
            flush()
        elif not isinstance(piece, Text):
            current.append(piece)
        else:
            text, pos = piece.text, 0
            for match in _SENTENCE_END_RE.finditer(text):
                current.append(Text(text[pos : match.end()]))
                pos = match.end()
                flush()
            if pos < len(text):
                current.append(Text(text[pos:]))
    flush()
    return out


def _split_at(atoms: list[Atom], marks: frozenset[str]) -> list[list[Atom]]:
    parts: list[list[Atom]] = [[]]
    for atom in atoms:
        parts[-1].append(atom)
        if isinstance(atom, str) and atom in marks:
            parts.append([])
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


def _strip_enumerator(atoms: list[Atom]) -> list[Atom]:
    match = ENUMERATOR_RE.match(_plain_head(atoms))
    # The enumerator is plain text: one atom per character.
    return atoms[match.end() :] if match else atoms


def clauses(sentence: tuple[Inline, ...]) -> list[Clause]:
    """The clauses of one sentence; enumerated items carry their lead-in."""
    atoms = _atoms(sentence)
    out: list[Clause] = []
    colon = _enumeration_colon(atoms)
    if colon is None:
        before, items = atoms, []
    else:
        before, items = atoms[:colon], atoms[colon + 1 :]
    before_parts = _split_at(before, CLAUSE_END)
    lead = ""
    for index, part in enumerate(before_parts):
        trimmed = _trim(part)
        if not trimmed:
            continue
        if colon is not None and index == len(before_parts) - 1:
            lead = _text_of(trimmed)  # the lead-in is context, not a clause of its own
        else:
            out.append(Clause(_pieces(trimmed)))
    for part in _split_at(items, CLAUSE_END) if colon is not None else []:
        trimmed = _trim(_strip_enumerator(_trim(part)))
        if trimmed:
            out.append(Clause(_pieces(trimmed), lead))
    return out
