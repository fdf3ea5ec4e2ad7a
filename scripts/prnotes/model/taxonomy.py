"""Load the taxonomy: ``taxonomy.toml`` and each repository's subsystems in ``taxonomy/``.

- ``taxonomy.toml`` holds what every repository shares: ``[weights]``, the
  ``[[rule]]`` tables that hold for every repository's set, ``[[audience]]``,
  ``[[tag]]`` and ``[aliases]``.
- ``taxonomy/<owner>__<repo>.toml`` is one repository's subsystem set: its
  ``[[subsystem]]`` tables (in the order the site lists them) and its
  ``[[rule]]`` tables (the prefixes, code paths and words that file its notes);
  ``taxonomy/default.toml`` is the set of every repository without a file.

The files' header comments describe the tables; :mod:`prnotes.model.filing`
describes how the signals file a note. Every problem is reported as
``file:line: what is wrong``.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import re2

from .. import contract
from ..diagnostics import Diagnostic, InputError
from ..parse.seeds import load_toml, read_file
from ..parse import regular

SHARED_FILE = "taxonomy.toml"
SETS_DIR = "taxonomy"
# The taxonomy a project without one of its own files by: the one `prnotes
# init` copies into a new site. A project with a taxonomy.toml or a taxonomy/
# folder of its own is filed by its own files only: the shared rules name the
# subsystems of the sets beside them.
PACKAGED = Path(__file__).resolve().parents[1] / "starter"
DEFAULT_SET = "default"  # taxonomy/default.toml: a repository without a set of its own
SET_FILE_RE = re.compile(r"([A-Za-z0-9][A-Za-z0-9-]*)__([A-Za-z0-9._-]+)\.toml")
_WORD_RE = re.compile(r"[A-Za-z0-9_-]+")
REPO_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+")
_REGEX_META_RE = re.compile(r"[.^$*+?{}\[\]\\|()]")
# One recipe for every slug: slugs become file names and URLs.
SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
SLUG_MAX = 40
# "index" names the tag index page, and every subsystem is also a tag.
RESERVED_SLUGS = frozenset({"index"})
FALLBACK = "other"
# Titles go into badges, links and headings as they are: characters that are
# markup there are refused rather than guessed at.
TITLE_MARKUP = "`<>\\"


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


def _re2_options() -> re2.Options:
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False  # a bad pattern is reported once, with its file and line
    return options


@lru_cache(maxsize=None)
def compile_regex(pattern: str):
    """A regular expression of the taxonomy (an audience's ``patterns``).

    Compiled by RE2, which matches in time linear in the text whatever the
    pattern (``(a+)+$`` included): the patterns come from a file anyone may
    edit. RE2 has no look-around or back-references; a pattern using them is
    refused at load time. Raises ``re2.error``.
    """
    return re2.compile(pattern, _re2_options())


def regex_error(exc: Exception) -> str:
    message = exc.args[0] if exc.args else exc
    return message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)


@lru_cache(maxsize=None)
def compile_pattern(pattern: str) -> re.Pattern[str]:
    """Compile a word pattern (see the header of ``taxonomy.toml``): always
    escaped, so it holds no quantifier of its own.

    Cached: callers compile a pattern when its prefilter first matches, as
    most of a taxonomy's thousand patterns never match a given archive."""
    if _WORD_RE.fullmatch(pattern):
        return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(pattern)}(?![A-Za-z0-9_])", re.IGNORECASE)
    if pattern.endswith("*") and pattern[:-1]:
        # "schedul*", "CUDA graph*": text that starts a word ("CUDA graphs").
        stem = pattern[:-1]
        lead = r"(?<![A-Za-z0-9_])" if _WORD_RE.match(stem[0]) else ""
        return re.compile(lead + re.escape(stem), re.IGNORECASE)
    return re.compile(re.escape(pattern), re.IGNORECASE)


def prefilter(pattern: str) -> str:
    """Lower-case text that every match of a plain pattern contains."""
    return pattern[:-1].lower() if pattern.endswith("*") else pattern.lower()


@dataclass(frozen=True)
class Matcher:
    """A named group of patterns, e.g. a subsystem's title words or a tag.

    ``literals`` are plain patterns, checked with a substring test on the
    lower-cased text first (cheap, and most texts match no pattern), then with
    the word-boundary regex; ``regexes`` are regular expressions (RE2).
    """

    slug: str
    title: str
    literals: tuple[str, ...] = ()
    regexes: tuple[str, ...] = ()

    @cached_property
    def _prefiltered(self) -> tuple[tuple[str, str], ...]:
        return tuple((prefilter(lit), lit) for lit in self.literals)

    @cached_property
    def _regexes(self) -> tuple:
        # Each regex with the literal text it must start with, as a prefilter.
        return tuple((_literal_prefix(r).lower(), compile_regex(r)) for r in self.regexes)

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
    words: Words


@dataclass(frozen=True)
class Rule:
    """One ``[[rule]]``: signals for one subsystem of a set."""

    subsystem: str
    weight: float
    prefixes: tuple[str, ...]
    code: tuple[str, ...]
    words: Words


@dataclass(frozen=True)
class SubsystemSet:
    """One file of ``taxonomy/``: a repository's subsystems and the rules that file its notes.

    ``repo`` is the repository the file is named for (``""`` for the default
    set). ``flat_pages``: the set's subsystem pages are ``notes/subsystem/<slug>``
    rather than under the repository's folder (see :func:`prnotes.contract.subsystem_key`).
    """

    path: str
    repo: str
    subsystems: tuple[Subsystem, ...]
    rules: tuple[Rule, ...]
    flat_pages: bool = False
    # [paths]: the repository's layout, a path prefix (a folder ends in "/")
    # -> the subsystem that claims it, lower-cased, sorted. A note that cites a
    # path is filed by the deepest prefix claimed (prnotes.model.filing).
    paths: tuple[tuple[str, str], ...] = ()

    @property
    def is_default(self) -> bool:
        return not self.repo

    @cached_property
    def order(self) -> dict[str, int]:
        """Subsystem slug -> its position in the file (display order)."""
        return {s.slug: i for i, s in enumerate(self.subsystems)}

    def subsystem(self, slug: str) -> Subsystem:
        return self.subsystems[self.order[slug]]


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
    """The loaded files. Compared by identity: they are loaded once per run."""

    sets: tuple[SubsystemSet, ...]  # the flat-page set, the others by file name, the default set last
    shared_rules: tuple[Rule, ...]  # taxonomy.toml's [[rule]]: for every set with that subsystem
    audiences: tuple[Matcher, ...]
    tags: tuple[Matcher, ...]
    aliases: tuple[tuple[str, str], ...]
    weights: Weights = field(default_factory=Weights)
    fallback: str = FALLBACK
    # Compiled signals per repository and filings per note (prnotes.model.filing):
    # the model and the tag pages both ask, and a taxonomy lives for one run.
    cache: dict = field(default_factory=dict, repr=False)

    @cached_property
    def _by_repo(self) -> dict[str, SubsystemSet]:
        return {s.repo.lower(): s for s in self.sets if s.repo}

    @property
    def default(self) -> SubsystemSet:
        return self.sets[-1]

    def set_for(self, repo: str) -> SubsystemSet:
        """The repository's own set, else the default one (names compare case-insensitively)."""
        return self._by_repo.get(repo.lower(), self.default)

    def rules_for(self, repo: str) -> tuple[Rule, ...]:
        """The shared rules for subsystems the repository's set has, then the set's own."""
        chosen = self.set_for(repo)
        return tuple(r for r in self.shared_rules if r.subsystem in chosen.order) + chosen.rules

    def subsystem_key(self, repo: str, slug: str) -> str:
        """The site-wide name of a repository's subsystem (:func:`prnotes.contract.subsystem_key`)."""
        return contract.subsystem_key(repo, slug, self.set_for(repo).flat_pages)

    def subsystem_of_key(self, key: str) -> Subsystem | None:
        """The subsystem a key (:meth:`subsystem_key`) names, whichever repository it is of; None if none.

        A key of two parts more than a slug is a repository's folder and a
        slug: its set is the one whose repository has that folder, else the
        default set (a repository without one)."""
        if not contract.is_subsystem_key(key):
            return None
        slug = contract.subsystem_slug(key)
        if "/" not in key:
            chosen = next((s for s in self.sets if s.flat_pages), None)
        else:
            chosen = next(
                (s for s in self.sets if s.repo and not s.flat_pages and contract.subsystem_key(s.repo, slug) == key),
                self.default,
            )
        return chosen.subsystem(slug) if chosen is not None and slug in chosen.order else None

    @cached_property
    def all_subsystems(self) -> tuple[Subsystem, ...]:
        """Every set's subsystems, each slug once (its first set's), in set order."""
        seen: dict[str, Subsystem] = {}
        for chosen in self.sets:
            for sub in chosen.subsystems:
                seen.setdefault(sub.slug, sub)
        return tuple(seen.values())


# --- loading and checking -------------------------------------------------

_SHARED_KEYS = ("weights", "rule", "audience", "tag", "aliases")
_SET_KEYS = ("flat_pages", "subsystem", "rule", "paths")
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

    def key_line(self, kind: str | None, index: int, key: str) -> int:
        """Line of ``key = …`` (the key bare or quoted) in the index-th ``[[kind]]``
        or ``[kind]`` table (else its header); ``kind`` None: a key before the first table."""
        start = self.line(kind, index) if kind else 0
        pair = re.compile(rf"^\s*(\"{re.escape(key)}\"|'{re.escape(key)}'|{re.escape(key)})\s*=")
        for n in range(start, len(self.lines)):
            text = self.lines[n]
            if text.lstrip().startswith("["):
                break
            if pair.match(text):
                return n + 1
        return start or 1

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

    def title(self, kind: str, index: int, item: dict) -> bool:
        """A title shows as it is written: markup characters in it are refused."""
        found = sorted({ch for ch in item["title"] if ch in TITLE_MARKUP})
        if found:
            shown = " ".join(found)
            self.add(kind, index, f"'title' holds {shown}: titles are shown in badges and links as written; leave out {' '.join(TITLE_MARKUP)}", "title")
            return False
        if not item["title"].strip():
            self.add(kind, index, "'title' is empty", "title")
            return False
        return True

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
            if regex:  # a plain pattern is escaped: it always compiles (and is compiled when first matched)
                try:
                    compile_regex(pattern)
                except re2.error as exc:
                    self.add(kind, index, f"invalid regular expression {pattern!r}: {regex_error(exc)}")
                    continue
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

    def unknown_tables(self, doc: dict, allowed: tuple[str, ...], hint: str = "") -> None:
        """Top-level keys the file may not hold, each at its header or its ``key =`` line."""
        for key in sorted(set(doc) - set(allowed)):
            line = self.line(key, 0) if key in self._headers else self.key_line(None, 0, key)
            self.error(line, f"unknown table {key!r} (expected one of {', '.join(allowed)}){hint}")


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
        if not check.title("subsystem", i, s):
            continue
        if not isinstance(s.get("intro", ""), str):
            check.add("subsystem", i, "'intro' must be a string", "intro")
            continue
        words = _words(check, "subsystem", i, s, s["slug"], check.weight("subsystem", i, s))
        out.append(Subsystem(s["slug"], s["title"], s.get("intro", ""), words))
    if out and FALLBACK not in {s.slug for s in out}:
        check.error(1, f"a subsystem with slug {FALLBACK!r} is required (where notes no rule speaks for go)")
    return out


def _rules(check: _Checker, doc: dict, slugs: set[str] | None, whose: str) -> list[Rule]:
    """The ``[[rule]]`` tables; ``slugs`` None: shared rules, checked against every set later."""
    rules = []
    owners: dict[tuple[str, str], str] = {}  # (kind, pattern) -> subsystem
    for k, rule in check.tables(doc, "rule"):
        kind = "rule"
        check.known_keys(kind, k, rule, _RULE_KEYS)
        if not check.fields(kind, k, rule, ("subsystem",), _RULE_LISTS):
            continue
        sub = rule["subsystem"]
        if slugs is not None and sub not in slugs:
            check.add(kind, k, f"names unknown subsystem {sub!r}", "subsystem")
            continue
        if not any(rule.get(key) for key in _RULE_LISTS):
            check.add(kind, k, "gives no prefixes, code, title_words or body_words")
            continue
        # A prefix or code pattern speaks for one subsystem per set; two
        # answers would make the result depend on the order of the file.
        for key, normal in (("prefixes", normalize_prefix), ("code", str.lower)):
            for value in rule.get(key, []):
                owner = owners.setdefault((key, normal(value)), sub)
                if owner != sub:
                    check.add(kind, k, f"{key} entry {value!r} already speaks for subsystem {owner!r} in {whose}", key)
        weight = check.weight(kind, k, rule)
        words = _words(check, kind, k, rule, sub, weight)
        rules.append(Rule(sub, weight, tuple(rule.get("prefixes", [])), tuple(rule.get("code", [])), words))
    return rules


def load_set(path: Path, rel: str) -> SubsystemSet:
    """One file of ``taxonomy/``; every problem names it and a line."""
    text, doc = load_toml(rel, read_file(path, rel))
    check = _Checker(rel, text)
    check.unknown_tables(doc, _SET_KEYS)
    name = rel.rsplit("/", 1)[-1]
    match = SET_FILE_RE.fullmatch(name)
    repo = f"{match.group(1)}/{match.group(2)}" if match else ""
    flat = doc.get("flat_pages", False)
    if not isinstance(flat, bool):
        check.error(check.key_line(None, 0, "flat_pages"), "'flat_pages' must be true or false")
        flat = False
    if flat and not repo:
        check.error(check.key_line(None, 0, "flat_pages"), "'flat_pages' is for a repository's set, not the default one")
    subsystems = _subsystems(check, doc)
    whose = f"{repo}'s rules" if repo else "the default set's rules"
    # Every slug a table names, also of one refused for another reason: a
    # rule naming it is not a second problem.
    named = {t.get("slug") for t in doc.get("subsystem", []) if isinstance(t, dict)} if isinstance(doc.get("subsystem"), list) else set()
    rules = _rules(check, doc, {s.slug for s in subsystems} | {n for n in named if isinstance(n, str)}, whose)
    paths = _paths(check, doc, {s.slug for s in subsystems} | {n for n in named if isinstance(n, str)})
    if check.problems:
        raise InputError(check.problems)
    return SubsystemSet(rel, repo, tuple(subsystems), tuple(rules), flat, paths)


_PATH_KEY_RE = re.compile(r"[A-Za-z0-9_.+@-][A-Za-z0-9_.+@/-]*")


def _paths(check: _Checker, doc: dict, slugs: set[str]) -> tuple[tuple[str, str], ...]:
    """The ``[paths]`` table: path prefix -> a subsystem slug of the set."""
    table = doc.get("paths", {})
    if not isinstance(table, dict):
        check.error(1, "[paths] must be a table of path prefix = subsystem slug")
        return ()
    out: dict[str, str] = {}
    for key, slug in table.items():
        if not _PATH_KEY_RE.fullmatch(key) or "//" in key:
            problem = f"[paths]: {key!r} is not a path (letters, digits, _ . + @ - and /; a folder ends in /)"
        elif not isinstance(slug, str) or slug not in slugs:
            problem = f"[paths]: {key!r} names {slug!r}, which is no subsystem of this set"
        elif key.lower() in out:
            problem = f"[paths]: {key!r} is given twice (paths compare case-insensitively)"
        else:
            out[key.lower()] = slug
            continue
        # Looked up only for a problem: a set holds a thousand paths.
        check.error(check.key_line("paths", 0, key), problem)
    return tuple(sorted(out.items()))


def _load_shared(path: Path, rel: str) -> tuple[_Checker, Weights, list[Rule], tuple, tuple, dict]:
    text, doc = load_toml(rel, read_file(path, rel))
    check = _Checker(rel, text)
    hint = f"; subsystems are per repository, in {SETS_DIR}/<owner>__<repo>.toml and {SETS_DIR}/{DEFAULT_SET}.toml" if "subsystem" in doc or "repo" in doc else ""
    check.unknown_tables(doc, _SHARED_KEYS, hint)
    weights = _weights(check, doc)
    rules = _rules(check, doc, None, "the shared rules")
    audience_items = check.tables(doc, "audience")
    check.slugs("audience", audience_items)
    audiences = tuple(
        Matcher(a["slug"], a["title"], regexes=check.patterns("audience", i, a.get("patterns", []), regex=True))
        for i, a in audience_items
        if check.fields("audience", i, a, ("slug", "title"), ("patterns",)) and check.title("audience", i, a)
    )
    tag_items = check.tables(doc, "tag")
    check.slugs("tag", tag_items)
    tags = tuple(
        Matcher(t["slug"], t["title"], check.patterns("tag", i, t.get("patterns", []), regex=False))
        for i, t in tag_items
        if check.fields("tag", i, t, ("slug", "title"), ("patterns",)) and check.title("tag", i, t)
    )
    aliases = doc.get("aliases", {})
    if not isinstance(aliases, dict) or not all(
        isinstance(v, str) and REPO_NAME_RE.fullmatch(v) for v in aliases.values()
    ):
        check.error(1, "[aliases] must map words to owner/repo strings")
        aliases = {}
    return check, weights, rules, audiences, tags, aliases


def _own_or_packaged(root: Path, name: str) -> tuple[Path, str]:
    """The project's ``name`` when it has a taxonomy of its own, else the package's."""
    if any(os.path.lexists(root / own) for own in (SHARED_FILE, SETS_DIR)):
        return root / name, name
    return PACKAGED / name, f"prnotes/starter/{name}"


def shared_file(root: Path) -> tuple[Path, str]:
    """``(path, relative name)`` of the ``taxonomy.toml`` the project at ``root`` is filed by."""
    return _own_or_packaged(root, SHARED_FILE)


def set_files(root: Path) -> list[tuple[Path, str]]:
    """``(path, relative name)`` of every set file of the project's ``taxonomy/``
    (the package's when it has none), by name; hidden files left out."""
    folder, rel = _own_or_packaged(root, SETS_DIR)
    if not folder.is_dir():
        return []
    return sorted(
        ((p, f"{rel}/{p.name}") for p in folder.iterdir() if p.suffix == ".toml" and not p.name.startswith(".")),
        key=lambda pr: pr[1],
    )


def taxonomy_files(root: Path) -> list[tuple[Path, str]]:
    """``taxonomy.toml`` and every set file: what the project at ``root`` is filed by."""
    return [shared_file(root), *set_files(root)]


def source_bytes(root: Path) -> bytes:
    """Every taxonomy file's name and bytes: what a conversion's cache depends on."""
    parts = []
    for path, rel in taxonomy_files(root):
        try:
            parts.append(rel.encode() + b"\0" + regular.read_regular(path))
        except OSError:
            parts.append(rel.encode() + b"\0")  # load_taxonomy reports it
    return b"\1".join(parts)


def load_taxonomy(where: Path) -> Taxonomy:
    """Read and check ``taxonomy.toml`` and ``taxonomy/*.toml`` of the project
    at ``where`` (its folder, or its ``taxonomy.toml``).

    Every problem names its file and a line; the problems of every file are
    reported together.
    """
    root = where if where.is_dir() else where.parent
    problems: list[Diagnostic] = []
    try:
        check, weights, shared_rules, audiences, tags, aliases = _load_shared(*shared_file(root))
    except InputError as exc:
        problems += exc.problems
        check, shared_rules = None, []
    sets: list[SubsystemSet] = []
    default: SubsystemSet | None = None
    repos: dict[str, SubsystemSet] = {}  # by contract.repo_key: its subsystems' page names
    for path, rel in set_files(root):
        name = rel.rsplit("/", 1)[-1]
        if name != f"{DEFAULT_SET}.toml" and not SET_FILE_RE.fullmatch(name):
            problems.append(
                Diagnostic(rel, 1, f"a subsystem set's file is named <owner>__<repo>.toml (like vllm-project__vllm.toml), or {DEFAULT_SET}.toml")
            )
            continue
        try:
            loaded = load_set(path, rel)
        except InputError as exc:
            problems += exc.problems
            continue
        if loaded.is_default:
            default = loaded
            continue
        if (first := repos.setdefault(contract.repo_key(loaded.repo), loaded)) is not loaded:
            problems.append(
                Diagnostic(rel, 1, f"{loaded.repo} has a set already ({first.path})")
                if first.repo.lower() == loaded.repo.lower()
                else Diagnostic(rel, 1, f"{loaded.repo} and {first.repo} ({first.path}) would have the same subsystem pages: only one can have a set")
            )
            continue
        sets.append(loaded)
    if default is None and not any(p.path.startswith(f"{SETS_DIR}/{DEFAULT_SET}.toml") for p in problems):
        problems.append(
            Diagnostic(f"{SETS_DIR}/{DEFAULT_SET}.toml", 1, "the default subsystem set is missing: every repository without a set of its own is filed by it")
        )
    flat = [s for s in sets if s.flat_pages]
    for extra in flat[1:]:
        problems.append(Diagnostic(extra.path, 1, f"'flat_pages' is already true in {flat[0].path}: only one set's pages can be notes/subsystem/<slug>"))
    if check is not None and default is not None:
        known = {s.slug for chosen in (*sets, default) for s in chosen.subsystems}
        for k, rule in enumerate(shared_rules):
            if rule.subsystem not in known:
                check.add("rule", k, f"names subsystem {rule.subsystem!r}, which no set in {SETS_DIR}/ has", "subsystem")
    if check is not None:
        problems += check.problems
    if problems:
        raise InputError(problems)
    ordered = sorted(sets, key=lambda s: (not s.flat_pages, s.path))
    return Taxonomy((*ordered, default), tuple(shared_rules), audiences, tags, tuple(sorted(aliases.items())), weights)
