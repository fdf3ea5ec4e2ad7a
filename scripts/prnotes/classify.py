"""Derive a note's verdict, audiences, subsystem and tags from its text.

Verdict rules (the opening of the advice, up to the first 。 or ：, is read;
the first rule that matches wins):

1. 按需 — a conditional recommendation: ``若/如果 … 值得 …`` or ``建议 X 阅读``;
2. 速读 — ``值得快速浏览``, ``值得快速阅读``, ``快速浏览而不是精读``;
3. 精读 — ``值得精读`` (also ``值得深读``, ``值得仔细阅读``).

An opening that matches none has no verdict (``None``); the conversion warns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .taxonomy import Taxonomy


@dataclass(frozen=True)
class Verdict:
    slug: str
    title: str
    badge: str  # sphinx-design badge colour
    meaning: str


VERDICTS = (
    Verdict("close", "精读", "danger", "值得逐段精读：设计决策、实现细节都值得看。"),
    Verdict("skim", "速读", "primary", "值得快速浏览：了解做了什么、记住要点即可。"),
    Verdict("optional", "按需", "secondary", "与你的方向相关时再读：笔记会说明适合谁。"),
)
VERDICT_BY_SLUG = {v.slug: v for v in VERDICTS}

_OPENING_RE = re.compile(r"^[^。：:]*")
VERDICT_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("optional", re.compile(r"^(若|如果)[^。]*?值得")),
    ("optional", re.compile(r"^建议[^。：]*?阅读")),
    ("skim", re.compile(r"值得快速浏览|值得快速阅读|快速浏览而不是精读")),
    ("close", re.compile(r"值得精读|值得深读|值得仔细阅读")),
)


def verdict_of(body: str) -> str | None:
    """Verdict slug of an advice text, by the rules in the module docstring."""
    opening = _OPENING_RE.match(body).group(0)
    for slug, pattern in VERDICT_RULES:
        if pattern.search(opening):
            return slug
    return None


def audiences_of(body: str, taxonomy: Taxonomy) -> tuple[str, ...]:
    """Slugs of every audience the body names, in taxonomy order."""
    return tuple(a.slug for a in taxonomy.audiences if a.matches(body))


def subsystem_of(title: str, upstream_title: str, body: str, taxonomy: Taxonomy) -> tuple[str, bool]:
    """The subsystem slug, and whether any rule or keyword matched at all.

    See the header of ``taxonomy.toml`` for the rules.
    """
    heading = f"{title}\n{upstream_title}"
    lower = heading.lower()
    for rule in taxonomy.rules:
        if rule.matcher.matches(heading, lower):
            return rule.subsystem, True
    best, best_hits = taxonomy.fallback, 0
    body_lower = body.lower()
    # Ties keep the earlier subsystem: taxonomy order is the tie-break.
    for sub in taxonomy.subsystems:
        hits = sub.keywords.hits(body, body_lower)
        if hits > best_hits:
            best, best_hits = sub.slug, hits
    return best, best_hits > 0


def tags_of(title: str, upstream_title: str, body: str, subsystem: str, taxonomy: Taxonomy) -> tuple[str, ...]:
    """Tag slugs in taxonomy order: hardware, models, topics.

    The tag named like the note's own subsystem is left out (it would repeat
    the subsystem badge).
    """
    text = f"{title}\n{upstream_title}\n{body}"
    lower = text.lower()
    return tuple(t.slug for t in taxonomy.tags if t.slug != subsystem and t.matches(text, lower))
