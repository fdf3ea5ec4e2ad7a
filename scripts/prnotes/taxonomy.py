"""Load ``taxonomy.toml``: subsystems, signals, audiences, tags, aliases.

The file's header comment describes the tables; :mod:`prnotes.filing`
describes how the signals file a note. Every problem is reported as
``taxonomy.toml:line: what is wrong``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from .diagnostics import Diagnostic, InputError
from .parse import load_toml, read_file

_WORD_RE = re.compile(r"[A-Za-z0-9_-]+")
REPO_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+")
EVERY_REPO = "*"  # a [[repo]] section by this name holds for every repository
_REGEX_META_RE = re.compile(r"[.^$*+?{}\[\]\\|()]")
# One recipe for every slug: slugs become file names and URLs.
SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
SLUG_MAX = 40
# "index" names the tag index page, and every subsystem is also a tag.
RESERVED_SLUGS = frozenset({"index"})


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


@lru_cache(maxsize=None)
def compile_pattern(pattern: str, regex: bool = False) -> re.Pattern[str]:
    """Compile a taxonomy pattern (see the header of ``taxonomy.toml``).

    Cached: callers compile a pattern when its prefilter first matches, as
    most of a taxonomy's thousand patterns never match a given archive."""
    if regex:
        return re.compile(pattern, re.IGNORECASE)
    if _WORD_RE.fullmatch(pattern):
        return re.compile(
            rf"(?<![A-Za-z0-9_]){re.escape(pattern)}(?![A-Za-z0-9_])", re.IGNORECASE
        )
    if pattern.endswith("*") and _WORD_RE.fullmatch(pattern[:-1]):
        # "schedul*": a word that starts with "schedul".
        return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(pattern[:-1])}", re.IGNORECASE)
    return re.compile(re.escape(pattern), re.IGNORECASE)


def prefilter(pattern: str) -> str:
    """Lower-case text that every match of a plain pattern contains."""
    return pattern[:-1].lower() if pattern.endswith("*") else pattern.lower()


@dataclass(frozen=True)
class Matcher:
    """A named group of patterns, e.g. a subsystem's title words or a tag.

    ``literals`` are plain patterns, checked with a substring test on the
    lower-cased text first (cheap, and most texts match no pattern), then with
    the word-boundary regex; ``regexes`` are regular expressions.
    """

    slug: str
    title: str
    literals: tuple[str, ...] = ()
    regexes: tuple[str, ...] = ()

    @cached_property
    def _prefiltered(self) -> tuple[tuple[str, str], ...]:
        return tuple((prefilter(lit), lit) for lit in self.literals)

    @cached_property
    def _regexes(self) -> tuple[tuple[str, re.Pattern[str]], ...]:
        # Each regex with the literal text it must start with, as a prefilter.
        return tuple((_literal_prefix(r).lower(), compile_pattern(r, regex=True)) for r in self.regexes)

    def matches(self, text: str, lower: str | None = None) -> bool:
        """Whether any pattern occurs; pass ``text.lower()`` if you have it."""
        lower = text.lower() if lower is None else lower
        if any(pre in lower and compile_pattern(lit).search(text) for pre, lit in self._prefiltered):
            return True
        return any(lit in lower and p.search(text) for lit, p in self._regexes)


@dataclass(frozen=True)
class Words:
    """Title and body words that speak for one subsystem, with a weight."""

    subsystem: str
    weight: float
    title: Matcher
    body: Matcher


@dataclass(frozen=True)
class Subsystem:
    slug: str
    title: str
    intro: str
    words: Words  # shared by every repository


@dataclass(frozen=True)
class RepoRule:
    """One ``[[repo.rule]]``: a repository's signals for one subsystem."""

    subsystem: str
    weight: float
    prefixes: tuple[str, ...]
    code: tuple[str, ...]
    words: Words


@dataclass(frozen=True)
class Repo:
    name: str
    rules: tuple[RepoRule, ...]


@dataclass(frozen=True)
class Weights:
    """What one piece of evidence is worth, and how much of each kind counts."""

    prefix: float = 10
    code: float = 5
    title: float = 4
    body: float = 1
    code_cap: int = 3
    title_cap: int = 2
    body_cap: float = 6
    tag: float = 4.5


def normalize_prefix(prefix: str) -> str:
    """``"Spec Decode"``, ``"spec-decode"`` and ``"SpecDecode"`` are one prefix."""
    return re.sub(r"[\s_.-]+", "", prefix).lower()


@dataclass(frozen=True, eq=False)
class Taxonomy:
    """The loaded file. Compared by identity: it is loaded once per run."""

    subsystems: tuple[Subsystem, ...]
    repos: tuple[Repo, ...]
    audiences: tuple[Matcher, ...]
    tags: tuple[Matcher, ...]
    aliases: tuple[tuple[str, str], ...]
    weights: Weights = field(default_factory=Weights)
    fallback: str = "other"
    # Compiled signals per repository and filings per note (prnotes.filing):
    # the model and the tag pages both ask, and a taxonomy lives for one run.
    cache: dict = field(default_factory=dict, repr=False)

    def subsystem(self, slug: str) -> Subsystem:
        for sub in self.subsystems:
            if sub.slug == slug:
                return sub
        raise KeyError(slug)

    @cached_property
    def order(self) -> dict[str, int]:
        """Subsystem slug -> its position in the file (display order)."""
        return {s.slug: i for i, s in enumerate(self.subsystems)}

    @cached_property
    def _repos(self) -> dict[str, Repo]:
        return {r.name.lower(): r for r in self.repos}

    def repo_rules(self, repo: str) -> tuple[RepoRule, ...]:
        """The ``[[repo.rule]]`` tables that apply to a repository: those of the
        ``name = "*"`` section, which hold for every repository, then its own."""
        shared = self._repos.get(EVERY_REPO)
        found = self._repos.get(repo.lower())
        return (shared.rules if shared else ()) + (found.rules if found and repo != EVERY_REPO else ())


# --- loading and checking -------------------------------------------------

_TOP_KEYS = ("weights", "subsystem", "repo", "audience", "tag", "aliases")
_HEADER_RE = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\"' -]+?)\s*\]\]?")


class _Checker:
    """Collects problems about the tables of one taxonomy file."""

    def __init__(self, rel: str, text: str) -> None:
        self.rel = rel
        self.lines = text.split("\n")
        self.problems: list[Diagnostic] = []
        self._headers: dict[str, list[int]] = {}
        for n, line in enumerate(self.lines, 1):
            match = _HEADER_RE.match(line)
            if match:
                name = re.sub(r"\s+", "", match.group(1))
                self._headers.setdefault(name, []).append(n)

    def line(self, kind: str, index: int) -> int:
        lines = self._headers.get(kind, [])
        return lines[index] if index < len(lines) else 1

    def key_line(self, kind: str, index: int, key: str) -> int:
        """Line of ``key = …`` in the index-th ``[[kind]]`` table (else its header)."""
        start = self.line(kind, index)
        pair = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for n in range(start, len(self.lines)):
            text = self.lines[n]
            if text.lstrip().startswith("["):
                break
            if pair.match(text):
                return n + 1
        return start

    def error(self, line: int, message: str) -> None:
        self.problems.append(Diagnostic(self.rel, line, message))

    def add(self, kind: str, index: int, message: str, key: str | None = None) -> None:
        line = self.key_line(kind, index, key) if key else self.line(kind, index)
        self.error(line, f"[[{kind}]] #{index + 1}: {message}")

    def tables(self, doc: dict, kind: str, required: bool = False) -> list[tuple[int, dict]]:
        items = doc.get(kind, [])
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            self.error(1, f"{kind!r} must be written as [[{kind}]] tables")
            return []
        if required and not items:
            self.error(1, f"no [[{kind}]] tables")
        return list(enumerate(items))

    def known_keys(self, kind: str, index: int, item: dict, allowed: tuple[str, ...]) -> None:
        for key in sorted(set(item) - set(allowed)):
            self.add(kind, index, f"unknown key {key!r} (expected one of {', '.join(allowed)})", key)

    def fields(self, kind: str, index: int, item: dict, strings: tuple[str, ...], lists: tuple[str, ...]) -> bool:
        ok = True
        for key in strings:
            if not isinstance(item.get(key), str):
                self.add(kind, index, f"{key!r} must be a string", key)
                ok = False
        for key in lists:
            value = item.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                self.add(kind, index, f"{key!r} must be a list of non-empty strings", key)
                ok = False
        return ok

    def weight(self, kind: str, index: int, item: dict) -> float:
        value = item.get("weight", 1)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
            self.add(kind, index, "'weight' must be a positive number", "weight")
            return 1.0
        return float(value)

    def patterns(self, kind: str, index: int, patterns: list[str], regex: bool) -> tuple[str, ...]:
        """The patterns that compile; each one that does not is a problem."""
        out = []
        for pattern in patterns:
            try:
                if regex:  # a plain pattern is escaped: it always compiles (and is compiled when first matched)
                    compile_pattern(pattern, regex)
            except re.error as exc:
                self.add(kind, index, f"invalid regular expression {pattern!r}: {exc.msg}")
            else:
                out.append(pattern)
        return tuple(out)

    def slugs(self, kind: str, items: list[tuple[int, dict]]) -> None:
        """Every slug of one kind: the one recipe, not reserved, not twice."""
        first: dict[str, int] = {}
        for i, item in items:
            slug = item.get("slug")
            if not isinstance(slug, str):
                continue
            line = self.key_line(kind, i, "slug")
            if not SLUG_RE.fullmatch(slug) or len(slug) > SLUG_MAX:
                self.error(
                    line,
                    f"[[{kind}]] #{i + 1}: slug {slug!r} must be lower-case letters and digits "
                    f"joined by single hyphens, at most {SLUG_MAX} characters (like 'kv-cache')",
                )
            elif slug in RESERVED_SLUGS:
                self.error(line, f"[[{kind}]] #{i + 1}: slug {slug!r} is reserved for the tag index page")
            elif slug in first:
                self.error(line, f"[[{kind}]] #{i + 1}: duplicate slug {slug!r} (first at line {first[slug]})")
            else:
                first[slug] = line


def _words(check: _Checker, kind: str, i: int, item: dict, subsystem: str, weight: float) -> Words:
    title = check.patterns(kind, i, item.get("title_words", []), regex=False)
    body = check.patterns(kind, i, item.get("body_words", []), regex=False)
    return Words(subsystem, weight, Matcher(subsystem, "", title), Matcher(subsystem, "", body))


_WEIGHT_KEYS = {f for f in Weights.__dataclass_fields__}
_INT_WEIGHTS = ("code_cap", "title_cap")


def _weights(check: _Checker, doc: dict) -> Weights:
    table = doc.get("weights", {})
    if not isinstance(table, dict):
        check.error(1, "[weights] must be a table")
        return Weights()
    values = {}
    for key, value in table.items():
        line = check.key_line("weights", 0, key)
        if key not in _WEIGHT_KEYS:
            check.error(line, f"[weights]: unknown weight {key!r} (expected one of {', '.join(sorted(_WEIGHT_KEYS))})")
        elif key in _INT_WEIGHTS and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            check.error(line, f"[weights]: {key!r} must be a whole number ≥ 0")
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
            check.error(line, f"[weights]: {key!r} must be a number ≥ 0")
        else:
            values[key] = value
    return Weights(**values)


_SUBSYSTEM_KEYS = ("slug", "title", "intro", "weight", "title_words", "body_words")
_RULE_KEYS = ("subsystem", "weight", "prefixes", "code", "title_words", "body_words")
_RULE_LISTS = ("prefixes", "code", "title_words", "body_words")


def _subsystems(check: _Checker, doc: dict) -> list[Subsystem]:
    items = check.tables(doc, "subsystem", required=True)
    check.slugs("subsystem", items)
    out = []
    for i, s in items:
        check.known_keys("subsystem", i, s, _SUBSYSTEM_KEYS)
        if not check.fields("subsystem", i, s, ("slug", "title"), ("title_words", "body_words")):
            continue
        if not isinstance(s.get("intro", ""), str):
            check.add("subsystem", i, "'intro' must be a string", "intro")
            continue
        words = _words(check, "subsystem", i, s, s["slug"], check.weight("subsystem", i, s))
        out.append(Subsystem(s["slug"], s["title"], s.get("intro", ""), words))
    return out


def _repos(check: _Checker, doc: dict, slugs: set[str]) -> list[Repo]:
    """The ``[[repo]]`` sections, each with its ``[[repo.rule]]`` tables."""
    repos, seen = [], {}
    rule_index = 0  # [[repo.rule]] headers are numbered across the whole file
    for r, item in check.tables(doc, "repo"):
        rules_raw = item.get("rule", [])
        if not isinstance(rules_raw, list) or not all(isinstance(x, dict) for x in rules_raw):
            check.add("repo", r, "'rule' must be written as [[repo.rule]] tables")
            rules_raw = []
        first_rule, rule_index = rule_index, rule_index + len(rules_raw)
        check.known_keys("repo", r, item, ("name", "rule"))
        name = item.get("name")
        if not isinstance(name, str) or not (name == EVERY_REPO or REPO_NAME_RE.fullmatch(name)):
            check.add("repo", r, "'name' must be an owner/repo string, or \"*\" for every repository", "name")
            continue
        if name.lower() in seen:
            check.add("repo", r, f"{name!r} has a section already (line {seen[name.lower()]})", "name")
            continue
        seen[name.lower()] = check.key_line("repo", r, "name")
        rules = []
        owners: dict[tuple[str, str], str] = {}  # (kind, pattern) -> subsystem, per repository
        for j, rule in enumerate(rules_raw):
            k = first_rule + j
            rule_rules = _repo_rule(check, k, rule, name, slugs, owners)
            if rule_rules is not None:
                rules.append(rule_rules)
        repos.append(Repo(name, tuple(rules)))
    return repos


def _repo_rule(
    check: _Checker, k: int, rule: dict, repo: str, slugs: set[str], owners: dict[tuple[str, str], str]
) -> RepoRule | None:
    kind = "repo.rule"
    check.known_keys(kind, k, rule, _RULE_KEYS)
    if not check.fields(kind, k, rule, ("subsystem",), _RULE_LISTS):
        return None
    sub = rule["subsystem"]
    if sub not in slugs:
        check.add(kind, k, f"names unknown subsystem {sub!r}", "subsystem")
        return None
    if not any(rule.get(key) for key in _RULE_LISTS):
        check.add(kind, k, "gives no prefixes, code, title_words or body_words")
        return None
    # A prefix or code pattern speaks for one subsystem per repository;
    # two answers would make the result depend on the order of the file.
    for key, normal in (("prefixes", normalize_prefix), ("code", str.lower)):
        for value in rule.get(key, []):
            owner = owners.setdefault((key, normal(value)), sub)
            if owner != sub:
                check.add(kind, k, f"{key} entry {value!r} already speaks for subsystem {owner!r} in {repo}'s rules", key)
    weight = check.weight(kind, k, rule)
    words = _words(check, kind, k, rule, sub, weight)
    return RepoRule(sub, weight, tuple(rule.get("prefixes", [])), tuple(rule.get("code", [])), words)


def load_taxonomy(path: Path, rel: str = "taxonomy.toml") -> Taxonomy:
    """Read and check the taxonomy; every problem names ``taxonomy.toml`` and a line."""
    text, doc = load_toml(rel, read_file(path, rel))
    check = _Checker(rel, text)
    for key in sorted(set(doc) - set(_TOP_KEYS)):
        check.error(1, f"unknown table {key!r} (expected one of {', '.join(_TOP_KEYS)})")
    weights = _weights(check, doc)
    subsystems = _subsystems(check, doc)
    slugs = {s.slug for s in subsystems}
    repos = _repos(check, doc, slugs)
    audience_items = check.tables(doc, "audience")
    check.slugs("audience", audience_items)
    audiences = tuple(
        Matcher(a["slug"], a["title"], regexes=check.patterns("audience", i, a.get("patterns", []), regex=True))
        for i, a in audience_items
        if check.fields("audience", i, a, ("slug", "title"), ("patterns",))
    )
    tag_items = check.tables(doc, "tag")
    check.slugs("tag", tag_items)
    tags = tuple(
        Matcher(t["slug"], t["title"], check.patterns("tag", i, t.get("patterns", []), regex=False))
        for i, t in tag_items
        if check.fields("tag", i, t, ("slug", "title"), ("patterns",))
    )
    aliases = doc.get("aliases", {})
    if not isinstance(aliases, dict) or not all(
        isinstance(v, str) and REPO_NAME_RE.fullmatch(v) for v in aliases.values()
    ):
        check.error(1, "[aliases] must map words to owner/repo strings")
        aliases = {}
    if subsystems and "other" not in slugs:
        check.error(1, "a subsystem with slug 'other' is required")
    if check.problems:
        raise InputError(check.problems)
    return Taxonomy(
        tuple(subsystems), tuple(repos), audiences, tags, tuple(sorted(aliases.items())), weights
    )
