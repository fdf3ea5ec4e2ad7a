"""Load ``taxonomy.toml``: subsystems, title rules, audiences, tags, aliases."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .diagnostics import Diagnostic, InputError

_WORD_RE = re.compile(r"[A-Za-z0-9_-]+")
_REGEX_META_RE = re.compile(r"[.^$*+?{}\[\]\\|()]")


def _literal_prefix(pattern: str) -> str:
    """Plain text every match of a regex starts with ('' when unsure)."""
    depth = 0
    for ch in re.sub(r"\\.", "", pattern):  # escaped characters never nest
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "|" and depth == 0:
            return ""  # top-level alternatives share no prefix
    match = _REGEX_META_RE.search(pattern)
    if match is None:
        return pattern
    prefix = pattern[: match.start()]
    # In "ab?" or "ab*" the "b" is optional.
    return prefix[:-1] if match.group() in "?*{" else prefix


def compile_pattern(pattern: str, regex: bool = False) -> re.Pattern[str]:
    """Compile a taxonomy pattern (see the header of ``taxonomy.toml``)."""
    if regex:
        return re.compile(pattern, re.IGNORECASE)
    if _WORD_RE.fullmatch(pattern):
        return re.compile(
            rf"(?<![A-Za-z0-9_]){re.escape(pattern)}(?![A-Za-z0-9_])", re.IGNORECASE
        )
    return re.compile(re.escape(pattern), re.IGNORECASE)


@dataclass(frozen=True)
class Matcher:
    """A named group of patterns, e.g. a subsystem's keywords or a tag.

    ``literals`` are plain patterns, checked with a substring test on the
    lower-cased text first (cheap, and most texts match no pattern), then with
    the word-boundary regex; ``regexes`` are regular expressions.
    """

    slug: str
    title: str
    literals: tuple[str, ...] = ()
    regexes: tuple[str, ...] = ()

    @cached_property
    def _compiled(self) -> tuple[tuple[str, re.Pattern[str]], ...]:
        return tuple((lit.lower(), compile_pattern(lit)) for lit in self.literals)

    @cached_property
    def _regexes(self) -> tuple[tuple[str, re.Pattern[str]], ...]:
        # Each regex with the literal text it must start with, as a prefilter.
        return tuple((_literal_prefix(r).lower(), compile_pattern(r, regex=True)) for r in self.regexes)

    def hits(self, text: str, lower: str | None = None) -> int:
        """Occurrences of any pattern; pass ``text.lower()`` if you have it."""
        lower = text.lower() if lower is None else lower
        count = sum(len(p.findall(text)) for lit, p in self._compiled if lit in lower)
        return count + sum(len(p.findall(text)) for lit, p in self._regexes if lit in lower)

    def matches(self, text: str, lower: str | None = None) -> bool:
        """Whether any pattern occurs; pass ``text.lower()`` if you have it."""
        lower = text.lower() if lower is None else lower
        if any(lit in lower and p.search(text) for lit, p in self._compiled):
            return True
        return any(lit in lower and p.search(text) for lit, p in self._regexes)


@dataclass(frozen=True)
class Subsystem:
    slug: str
    title: str
    intro: str
    keywords: Matcher


@dataclass(frozen=True)
class Rule:
    subsystem: str
    matcher: Matcher


@dataclass(frozen=True)
class Taxonomy:
    subsystems: tuple[Subsystem, ...]
    rules: tuple[Rule, ...]
    audiences: tuple[Matcher, ...]
    tags: tuple[Matcher, ...]
    aliases: tuple[tuple[str, str], ...]
    fallback: str = "other"

    def subsystem(self, slug: str) -> Subsystem:
        for sub in self.subsystems:
            if sub.slug == slug:
                return sub
        raise KeyError(slug)


def load_taxonomy(path: Path, rel: str = "taxonomy.toml") -> Taxonomy:
    """Read and check the taxonomy; errors name ``taxonomy.toml``."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        raise InputError(
            [Diagnostic(rel, int(match.group(1)) if match else 1, f"invalid TOML: {exc}")]
        ) from None
    try:
        subsystems = tuple(
            Subsystem(
                s["slug"],
                s["title"],
                s.get("intro", ""),
                Matcher(s["slug"], s["title"], tuple(s.get("keywords", []))),
            )
            for s in doc["subsystem"]
        )
        slugs = {s.slug for s in subsystems}
        rules = tuple(
            Rule(r["subsystem"], Matcher(r["subsystem"], "", tuple(r["patterns"])))
            for r in doc.get("rule", [])
        )
        audiences = tuple(
            Matcher(a["slug"], a["title"], regexes=tuple(a["patterns"]))
            for a in doc.get("audience", [])
        )
        tags = tuple(
            Matcher(t["slug"], t["title"], tuple(t["patterns"]))
            for t in doc.get("tag", [])
        )
        aliases = tuple(sorted(doc.get("aliases", {}).items()))
    except (KeyError, TypeError, re.error) as exc:
        raise InputError([Diagnostic(rel, 1, f"malformed taxonomy: {exc!r}")]) from None
    problems = [
        Diagnostic(rel, 1, f"rule names unknown subsystem {r.subsystem!r}")
        for r in rules
        if r.subsystem not in slugs
    ]
    if "other" not in slugs:
        problems.append(Diagnostic(rel, 1, "a subsystem with slug 'other' is required"))
    if problems:
        raise InputError(problems)
    return Taxonomy(subsystems, rules, audiences, tags, aliases)
