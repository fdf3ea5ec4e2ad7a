"""The first sentence of an advice text: what a reading list shows of a note.

A sentence that is only the verdict (``值得精读。``) says nothing a badge does
not, so the summary is the first sentence with more to it. Sentences end as in
:mod:`prnotes.sentences`.

The reading lists do not copy this text: they hold a placeholder that the
Sphinx extension fills from the note's own doctree when the page is written
(:mod:`prnotes.sphinxext.summaries`), so editing a note re-reads only the note.
Both sides cut the text with :func:`first_sentence_span`, on plain text where
code spans and references are marked as not cuttable.
"""

from __future__ import annotations

import re

from .refs import Break, Inline, Text
from .sentences import SENTENCE_BREAK_RE

# A sentence made only of a verdict phrase, e.g. "值得精读。".
VERDICT_ONLY_RE = re.compile(
    r"\s*(?:(?:本\s*PR\s*)?值得(?:精读|深读|仔细阅读|快速浏览|快速阅读)[。！!]?"
    r"|(?i:(?:worth a close read|a must[- ]read|skim(?: it)?|optional)[.!]?))\s*"
)

Segment = tuple[str, bool]  # (text, whether a sentence may end inside it)


def segments_of(pieces: tuple[Inline, ...]) -> list[Segment]:
    """Plain text of pieces; only plain text may hold a sentence end."""
    return [(p.text, isinstance(p, (Text, Break))) for p in pieces]


def _ends(segs: list[Segment]) -> list[int]:
    """Offsets just past each sentence end, in the concatenated text."""
    ends: list[int] = []
    pos = 0
    for text, cuttable in segs:
        if cuttable:
            ends += [pos + m.end() for m in SENTENCE_BREAK_RE.finditer(text)]
        pos += len(text)
    ends.append(pos)
    return ends


def first_sentence_span(segs: list[Segment]) -> tuple[int, int]:
    """``(start, end)`` of the summary sentence in the concatenated text."""
    full = "".join(text for text, _ in segs)
    start = 0
    spans = []
    for end in _ends(segs):
        if full[start:end].strip():
            spans.append((start, end))
        start = end
    if not spans:
        return (0, 0)
    chosen = next((s for s in spans if not VERDICT_ONLY_RE.fullmatch(full[s[0] : s[1]])), spans[0])
    start, end = chosen
    while start < end and full[start].isspace():
        start += 1
    while end > start and full[end - 1].isspace():
        end -= 1
    return (start, end)


def first_sentence(pieces: tuple[Inline, ...]) -> str:
    """The summary sentence as plain text."""
    segs = segments_of(pieces)
    start, end = first_sentence_span(segs)
    return "".join(text for text, _ in segs)[start:end]
