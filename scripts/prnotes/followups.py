"""Follow-up sentences: what a note tells its reader to keep an eye on.

An advice text is split into clauses (:mod:`prnotes.sentences`); a clause is a
follow-up when one of these rules holds, checked in order:

1. it uses a follow-up word (:data:`FOLLOW_UP_RE`): ``跟踪`` (but not
   ``正在跟踪``, which describes the reader: "若你正在跟踪 MRV2 …"), ``跟进``,
   ``技术债``, ``关注后续``, ``建议后续``, ``后续维护``, ``后续新增``,
   ``后续可/需/应/再 …``, ``考虑后续``;
2. it asks a watch question (:data:`WATCH_QUESTION_RE`): ``关注`` or ``留意``
   followed, in the same clause, by ``何时``, ``是否会``, ``是否有`` or ``能否``;
3. it is an enumerated item whose lead-in announces things to watch
   (:data:`WATCH_LEAD_RE`: ``关注两点：一是 …；二是 …``) or itself matches
   rule 1.

``重点关注`` / ``重点留意`` mean "while reading, look at", not "watch later", so
they do not count for rules 2 and 3. ``后续`` alone does not count either:
``后续开发`` and ``与后续 PR 对照阅读`` are reading advice.

Each follow-up is one clause, without its enumerator and trailing separator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .refs import Inline, plain_text
from .sentences import Clause, clauses, sentences

FOLLOW_UP_RE = re.compile(
    r"(?<!正在)跟踪|跟进|技术债|关注后续|建议后续|后续维护|后续新增|后续[可需应再]|考虑后续"
)
WATCH_QUESTION_RE = re.compile(r"(?<!重点)(?:关注|留意)[^，,；;。]*?(?:何时|是否会|是否有|能否)")
WATCH_LEAD_RE = re.compile(r"(?<!重点)(?:关注|留意|跟踪)[两三四五六七八九十几0-9]+(?:点|件事|个方面)")


@dataclass(frozen=True)
class FollowUp:
    """One thing to watch, as the note words it."""

    pieces: tuple[Inline, ...]

    @property
    def text(self) -> str:
        return plain_text(self.pieces)


def is_follow_up(clause: Clause) -> bool:
    """Whether a clause is a follow-up, by the rules in the module docstring."""
    text = clause.text
    if FOLLOW_UP_RE.search(text) or WATCH_QUESTION_RE.search(text):
        return True
    return bool(clause.lead) and bool(WATCH_LEAD_RE.search(clause.lead) or FOLLOW_UP_RE.search(clause.lead))


def _may_hold_follow_up(text: str) -> bool:
    # A clause and its lead-in are parts of the sentence: if no rule matches
    # the whole sentence, none matches a part. Most sentences stop here.
    return bool(FOLLOW_UP_RE.search(text) or WATCH_QUESTION_RE.search(text) or WATCH_LEAD_RE.search(text))


def follow_ups_in(pieces: tuple[Inline, ...]) -> tuple[FollowUp, ...]:
    """Every follow-up clause of an advice text, in text order."""
    return tuple(
        FollowUp(clause.pieces)
        for sentence in sentences(pieces)
        if _may_hold_follow_up(plain_text(sentence))
        for clause in clauses(sentence)
        if is_follow_up(clause)
    )
