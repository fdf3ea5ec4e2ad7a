"""Load ``taxonomy.toml``: subsystems, title rules, audiences, tags, aliases."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .diagnostics import Diagnostic, InputError
from .parse import load_toml, read_file

_WORD_RE = re.compile(r"[A-Za-z0-9_-]+")
REPO_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+")
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


def _header_lines(text: str, kind: str) -> list[int]:
    """Line numbers of the ``[[kind]]`` headers, in order."""
    header = re.compile(rf"^\s*\[\[\s*{kind}\s*\]\]")
    return [n for n, line in enumerate(text.split("\n"), 1) if header.match(line)]


class _Checker:
    """Collects problems about the tables of one taxonomy file."""

    def __init__(self, rel: str, text: str) -> None:
        self.rel, self.text = rel, text
        self.problems: list[Diagnostic] = []
        self._headers: dict[str, list[int]] = {}

    def line(self, kind: str, index: int) -> int:
        lines = self._headers.setdefault(kind, _header_lines(self.text, kind))
        return lines[index] if index < len(lines) else 1

    def add(self, kind: str, index: int, message: str) -> None:
        self.problems.append(Diagnostic(self.rel, self.line(kind, index), f"[[{kind}]] #{index + 1}: {message}"))

    def tables(self, doc: dict, kind: str, required: bool = False) -> list[tuple[int, dict]]:
        items = doc.get(kind, [])
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            self.problems.append(Diagnostic(self.rel, 1, f"{kind!r} must be written as [[{kind}]] tables"))
            return []
        if required and not items:
            self.problems.append(Diagnostic(self.rel, 1, f"no [[{kind}]] tables"))
        return list(enumerate(items))

    def fields(self, kind: str, index: int, item: dict, strings: tuple[str, ...], lists: tuple[str, ...]) -> bool:
        ok = True
        for key in strings:
            if not isinstance(item.get(key), str):
                self.add(kind, index, f"{key!r} must be a string")
                ok = False
        for key in lists:
            value = item.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                self.add(kind, index, f"{key!r} must be a list of strings")
                ok = False
        return ok

    def patterns(self, kind: str, index: int, patterns: list[str], regex: bool) -> tuple[str, ...]:
        """The patterns that compile; each one that does not is a problem."""
        out = []
        for pattern in patterns:
            try:
                compile_pattern(pattern, regex)
            except re.error as exc:
                self.add(kind, index, f"invalid regular expression {pattern!r}: {exc.msg}")
            else:
                out.append(pattern)
        return tuple(out)


def load_taxonomy(path: Path, rel: str = "taxonomy.toml") -> Taxonomy:
    """Read and check the taxonomy; every problem names ``taxonomy.toml`` and a line."""
    text, doc = load_toml(rel, read_file(path, rel))
    check = _Checker(rel, text)
    subsystems = []
    for i, s in check.tables(doc, "subsystem", required=True):
        if check.fields("subsystem", i, s, ("slug", "title"), ("keywords",)):
            if not isinstance(s.get("intro", ""), str):
                check.add("subsystem", i, "'intro' must be a string")
                continue
            keywords = check.patterns("subsystem", i, s.get("keywords", []), regex=False)
            subsystems.append(Subsystem(s["slug"], s["title"], s.get("intro", ""), Matcher(s["slug"], s["title"], keywords)))
    slugs = {s.slug for s in subsystems}
    rules = []
    for i, r in check.tables(doc, "rule"):
        if check.fields("rule", i, r, ("subsystem",), ("patterns",)):
            if r["subsystem"] not in slugs:
                check.add("rule", i, f"names unknown subsystem {r['subsystem']!r}")
            if not r.get("patterns"):
                check.add("rule", i, "'patterns' must list at least one pattern")
            patterns = check.patterns("rule", i, r.get("patterns", []), regex=False)
            rules.append(Rule(r["subsystem"], Matcher(r["subsystem"], "", patterns)))
    audiences = tuple(
        Matcher(a["slug"], a["title"], regexes=check.patterns("audience", i, a.get("patterns", []), regex=True))
        for i, a in check.tables(doc, "audience")
        if check.fields("audience", i, a, ("slug", "title"), ("patterns",))
    )
    tags = tuple(
        Matcher(t["slug"], t["title"], check.patterns("tag", i, t.get("patterns", []), regex=False))
        for i, t in check.tables(doc, "tag")
        if check.fields("tag", i, t, ("slug", "title"), ("patterns",))
    )
    aliases = doc.get("aliases", {})
    if not isinstance(aliases, dict) or not all(
        isinstance(v, str) and REPO_NAME_RE.fullmatch(v) for v in aliases.values()
    ):
        check.problems.append(Diagnostic(rel, 1, "[aliases] must map words to owner/repo strings"))
        aliases = {}
    if subsystems and "other" not in slugs:
        check.problems.append(Diagnostic(rel, 1, "a subsystem with slug 'other' is required"))
    if check.problems:
        raise InputError(check.problems)
    return Taxonomy(tuple(subsystems), tuple(rules), audiences, tags, tuple(sorted(aliases.items())))
