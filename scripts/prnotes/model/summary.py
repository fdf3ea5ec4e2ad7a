"""The first sentence of an advice text: what a reading list shows of a note.

A sentence that is only the verdict (``值得精读。``, ``建议精读。``,
``扫一眼即可。``, ``Skim it.``) says nothing a badge does not, so the summary
is the first sentence with more to it. "Only the verdict" is what is left of a
sentence that states a verdict (:func:`prnotes.model.classify.verdict_of_sentence`)
once its verdict phrases and filler words are taken out: fewer than three
characters. Sentences end as in
:mod:`prnotes.parse.sentences`.

The reading lists do not copy this text: they hold a placeholder that the
Sphinx extension fills from the note's own doctree when the page is written
(:mod:`prnotes.sphinxext.facts.summaries`), so editing a note re-reads only the note.
Both sides cut the text with :func:`first_sentence_span`, on plain text where
code spans and references are marked as not cuttable.
"""

from __future__ import annotations

import re

from .classify import verdict_of_sentence, verdict_phrases
from ..parse.sentences import SENTENCE_BREAK_RE

# What a verdict sentence may hold besides its phrases and still say nothing more.
_FILLER_RE = re.compile(
    r"(?:本|这个|这|该|此)\s*(?:PR|篇|个)|建议|推荐|可以|可|值得|即可|就好|就行|一下|一遍|一眼|无需|不必|不需要|不用"
    r"|非常|很|了|吧|的|[\W_]|\b(?:it|this|one|the|PR|is|a|an|just)\b",
    re.I,
)


def verdict_only(sentence: str) -> bool:
    """Whether a sentence says nothing but its verdict (see the module docstring)."""
    if verdict_of_sentence(sentence) is None:
        return False
    chars = list(sentence)
    for start, end in verdict_phrases(sentence):
        chars[start:end] = " " * (end - start)
    return len(_FILLER_RE.sub("", "".join(chars))) < 3

Segment = tuple[str, bool]  # (text, whether a sentence may end inside it)


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
    chosen = next((s for s in spans if not verdict_only(full[s[0] : s[1]])), spans[0])
    start, end = chosen
    while start < end and full[start].isspace():
        start += 1
    while end > start and full[end - 1].isspace():
        end -= 1
    return (start, end)

