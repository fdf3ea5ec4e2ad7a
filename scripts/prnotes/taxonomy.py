"""Load ``taxonomy.toml``: subsystems, title rules, audiences, tags, aliases."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import Diagnostic, InputError

_WORD_RE = re.compile(r"[A-Za-z0-9_-]+")


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
    """A named group of patterns, e.g. a subsystem's keywords or a tag."""

    slug: str
    title: str
    patterns: tuple[re.Pattern[str], ...]

    def hits(self, text: str) -> int:
        return sum(len(p.findall(text)) for p in self.patterns)

    def matches(self, text: str) -> bool:
        return any(p.search(text) for p in self.patterns)


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
                Matcher(s["slug"], s["title"], tuple(compile_pattern(k) for k in s.get("keywords", []))),
            )
            for s in doc["subsystem"]
        )
        slugs = {s.slug for s in subsystems}
        rules = tuple(
            Rule(r["subsystem"], Matcher(r["subsystem"], "", tuple(compile_pattern(p) for p in r["patterns"])))
            for r in doc.get("rule", [])
        )
        audiences = tuple(
            Matcher(a["slug"], a["title"], tuple(compile_pattern(p, regex=True) for p in a["patterns"]))
            for a in doc.get("audience", [])
        )
        tags = tuple(
            Matcher(t["slug"], t["title"], tuple(compile_pattern(p) for p in t["patterns"]))
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
