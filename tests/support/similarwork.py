"""What one build's 相似笔记 did, seen from outside: how many notes it scored
(calls of :meth:`prnotes.model.similar.Index.pick`) and which pages it
wrote again for their lists (what :func:`prnotes.sphinxext.links.similar.lists_after`
returned)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from prnotes.model import similar
from prnotes.sphinxext.links import similar as similarnotes


@dataclass
class Work:
    scored: int = 0
    pages: list[str] = field(default_factory=list)

    def reset(self) -> None:
        self.scored, self.pages = 0, []


def watch(monkeypatch: pytest.MonkeyPatch) -> Work:
    """Count the 相似笔记 work of the builds that follow, in this process."""
    work = Work()
    score, after = similar.Index.pick, similarnotes.lists_after

    def counted_similar(self, *args, **kwargs):
        work.scored += 1
        return score(self, *args, **kwargs)

    def recorded_after(*args, **kwargs):
        pages = after(*args, **kwargs)
        work.pages = list(pages)
        return pages

    monkeypatch.setattr(similar.Index, "pick", counted_similar)
    monkeypatch.setattr(similarnotes, "lists_after", recorded_after)
    return work
