"""The summary sentence of a note's pieces as plain text: what the pages show
(:func:`prnotes.model.summary.first_sentence_span`, which the Sphinx side cuts
the advice's nodes with), worked out from the model's pieces as an oracle."""

from __future__ import annotations

from prnotes.model.summary import first_sentence_span
from prnotes.parse.refs import Break, Inline, Text


def first_sentence(pieces: tuple[Inline, ...]) -> str:
    """The summary sentence as plain text; only plain text may hold a sentence end."""
    segments = [(p.text, isinstance(p, (Text, Break))) for p in pieces]
    start, end = first_sentence_span(segments)
    return "".join(text for text, _ in segments)[start:end]
