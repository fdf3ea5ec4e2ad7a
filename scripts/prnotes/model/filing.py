"""Where a note is filed: the subsystem with most evidence, and the runners-up.

Each repository's notes are filed into its own subsystem set
(``taxonomy/<owner>__<repo>.toml``, else ``taxonomy/default.toml``). The
signals and their weights are data: ``[weights]`` and the shared ``[[rule]]``
tables of ``taxonomy.toml``, the set's ``[[subsystem]]`` words and its
``[[rule]]`` tables; :func:`file_note` describes how they are weighed.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..parse.refs import code_spans
from .symbols import generic_names
from .taxonomy import Taxonomy, compile_pattern, normalize_prefix, prefilter

# Leading bracketed prefixes of a title: "[Bugfix][Spec Decode] …", "[ROCm]: …".
_PREFIXES_RE = re.compile(r"^\s*((?:[\[【][^\]】\n]{1,40}[\]】]\s*:?\s*)+)")
_BRACKET_RE = re.compile(r"[\[【]([^\]】\n]{1,40})[\]】]")
# Code-like words outside code spans, as the symbol index reads them: names
# with an underscore, file names with an extension, Dockerfiles.
_BARE_CODE_RE = re.compile(
    r"(?<![A-Za-z0-9_./-])(?:https?://github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/(?:blob|tree)/[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]*[A-Za-z0-9_-]"
    r"|_?[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?:\(\))?"
    r"|(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.(?:py|pyi|sh|yaml|yml|toml|json|cu|cuh|cpp|cc|c|h|hpp|md|go|rs|ts|tsx|js|jsx|java|kt|swift|proto|svelte|vue|metal)"
    r"|Dockerfile(?:\.[A-Za-z0-9]+)?)(?![A-Za-z0-9_])"
)
# A link to a file or folder of a repository on GitHub: its path there.
_GITHUB_FILE_RE = re.compile(r"https?://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/(?:blob|tree)/[A-Za-z0-9_.-]+/([A-Za-z0-9_./%+@~,-]+)")


def prefixes_of(title: str) -> list[str]:
    """The bracketed prefixes a title starts with, normalised; ``[CI/Build]``
    stays whole, and also gives its parts."""
    match = _PREFIXES_RE.match(title)
    if not match:
        return []
    out = []
    for raw in _BRACKET_RE.findall(match.group(1)):
        out.append(normalize_prefix(raw))
        parts = [normalize_prefix(p) for p in re.split(r"[/|,，]", raw)]
        out += [p for p in parts if len(parts) > 1 and p]
    return out


# A title's leading "area: " label, as Go and C projects write it: "vulkan : …", "model/parsers: …".
_COLON_LABEL_RE = re.compile(r"^\s*([A-Za-z][\w.+/-]*(?:\s*,\s*[A-Za-z][\w.+/-]*)*)\s*:\s")


def labels_of(title: str) -> list[str]:
    """The labels a title starts with, as written: its bracketed prefixes
    (``[Inference Providers]``), else a leading ``area:`` (``ggml-cpu : …``)."""
    match = _PREFIXES_RE.match(title)
    if match:
        return _BRACKET_RE.findall(match.group(1))
    match = _COLON_LABEL_RE.match(title)
    return re.split(r"\s*,\s*", match.group(1)) if match else []


def _strip_prefixes(title: str) -> str:
    match = _PREFIXES_RE.match(title)
    return title[match.end() :] if match else title


def code_tokens(text: str, repo: str = "") -> list[str]:
    """Code spans and code-like words of a text, in order of appearance; a
    link to a file on GitHub is that file's path, if it is of ``repo`` (when
    given: a link into another repository names none of this one's code)."""
    tokens, last = [], 0
    for start, end, width in code_spans(text):
        tokens += _BARE_CODE_RE.findall(text, last, start)
        inner = text[start + width : end - width].strip()
        if inner:
            tokens.append(inner)
        last = end
    tokens += _BARE_CODE_RE.findall(text, last)
    out = []
    for token in tokens:
        if not (link := _GITHUB_FILE_RE.match(token)):
            out.append(token)
        elif not repo or link.group(1).lower() == repo.lower():
            out.append(link.group(2))
    return out


@dataclass(frozen=True)
class Evidence:
    """How much each signal says for one subsystem."""

    subsystem: str
    prefix: float = 0
    code: float = 0
    title: float = 0
    body: float = 0

    @property
    def total(self) -> float:
        return self.prefix + self.code + self.title + self.body

    @property
    def strong(self) -> bool:
        """Whether more than the body speaks for it."""
        return bool(self.prefix or self.code or self.title)


@dataclass(frozen=True)
class Filing:
    """Where a note goes: a subsystem of its repository's set (a slug of that
    set), every subsystem with evidence, and the runners-up."""

    subsystem: str
    matched: bool
    evidence: tuple[Evidence, ...]  # strongest first
    # Other subsystems with evidence beyond the body and at least ``tag`` of
    # [weights], in the set's order: the note's tags.
    runners_up: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Signals:
    """One repository's signals, compiled: shared words plus its own rules."""

    prefixes: dict[str, tuple[str, float]]
    code_re: re.Pattern[str] | None
    code: dict[str, tuple[str, float]]
    title_words: _WordSet
    body_words: _WordSet
    layout: Layout


# A cited path: a code token with a "/" (no URL), or a dotted module name.
_URL_RE = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)
_PATH_TAIL_RE = re.compile(r"(?::\d+(?:[-:]\d+)*|::\S*|#L\d+\S*)$")
_DOTTED_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){2,}")
# What a file path is made of: no spaces, no markup (`<think>…</think>`) and no
# URL query or template (`api/models/{id}?expand[]=…`).
_PATH_CHARS_RE = re.compile(r"[A-Za-z0-9_.+@~*%,-]*(?:/[A-Za-z0-9_.+@~*%,-]*)+")


@dataclass(frozen=True)
class Layout:
    """A set's ``[paths]``, ready to look up: the deepest prefix a cited path has.

    ``folders``: claimed folder prefixes ("vllm/v1/metrics/"); ``files``: the
    other claims (a file, or a file-name prefix like "tests/v1/test_sched"),
    by their folder; ``tails``: a folder claim without its leading segments
    ("v1/metrics/" of "vllm/v1/metrics/", two segments at least), for paths
    cited from inside the tree, when only one claim has that tail.
    """

    folders: dict[str, tuple[str, int]]
    files: dict[str, tuple[tuple[str, str, int], ...]]
    tails: dict[str, tuple[str, int]]
    roots: frozenset[str]  # first segments of the claims: what a dotted name must start with
    defined: dict[str, str]  # a name -> the module that defines it (definitions/<owner>__<repo>.txt)
    deepest: int = 0  # segments of the deepest claim: a cited path's later segments match nothing
    folders_held: frozenset[str] = frozenset()  # the folders of those modules, and theirs
    named: dict[str, list[str]] = dataclasses.field(default_factory=dict)  # a file name -> those modules

    @classmethod
    def of(cls, paths: tuple[tuple[str, str], ...], defined: dict[str, str] | None = None) -> Layout:
        folders, files, tails, seen = {}, {}, {}, {}
        for key, slug in paths:
            depth = key.rstrip("/").count("/") + 1
            if key.endswith("/"):
                folders[key] = (slug, depth)
                parts = key.rstrip("/").split("/")
                for i in range(1, len(parts) - 1):
                    tail = "/".join(parts[i:]) + "/"
                    seen.setdefault(tail, set()).add((slug, depth))
            else:
                folder, _, name = key.rpartition("/")
                files.setdefault(folder + "/" if folder else "", []).append((name, slug, depth))
        tails = {t: next(iter(v)) for t, v in seen.items() if len(v) == 1 and t not in folders}
        roots = frozenset(k.split("/", 1)[0] for k, _ in paths)
        deepest = max((k.rstrip("/").count("/") + 1 for k, _ in paths), default=0)
        modules, named = sorted(set((defined or {}).values())), {}
        for module in modules:
            named.setdefault(module.rpartition("/")[2], []).append(module)
        held = frozenset(m[: i + 1] for m in modules for i, ch in enumerate(m) if ch == "/")
        return cls(folders, {k: tuple(v) for k, v in sorted(files.items())}, tails, roots, defined or {}, deepest, held, named)

    def moved(self, path: str) -> str:
        """Where a cited module is now: a module of the release of that name,
        if it is the only one and the path's folder is gone from the package
        (`vllm/model_executor/parallel_utils/communication_op.py`, now
        `vllm/distributed/communication_op.py`); else the path."""
        folder, _, name = path.rpartition("/")
        gone = folder + "/" not in self.folders_held and path.split("/", 1)[0] + "/" in self.folders_held
        found = self.named.get(name, []) if gone else []
        return found[0] if len(found) == 1 else path

    def claim(self, path: str) -> tuple[str, int] | None:
        """``(slug, depth)`` of the deepest prefix claimed for ``path`` (lower-case)."""
        best: tuple[str, int] | None = None
        # A claim of n segments looks at n + 1 at most: the rest of a path
        # (however deep, `a/a/…/a.py`) is never read.
        parts = path.split("/", self.deepest + 1)[: self.deepest + 1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i]) + "/" if i < len(parts) else None
            here = "/".join(parts[: i - 1]) + "/" if i > 1 else ""
            for name, slug, depth in self.files.get(here, ()):
                if parts[i - 1].startswith(name) and (best is None or depth >= best[1]):
                    best = (slug, depth)
            if folder is not None:
                hit = self.folders.get(folder) or (self.tails.get(folder) if best is None else None)
                if hit and (best is None or hit[1] >= best[1]):
                    best = hit
        return best


DEFINITIONS = Path(__file__).with_name("definitions")
_NAME_RE = re.compile(r"_?[A-Za-z][A-Za-z0-9_]*")
_OWN = ("self", "cls")  # an object's own attribute: the name after it is the repository's


@functools.cache
def definitions(repo: str) -> dict[str, str]:
    """Where the repository defines each name: ``definitions/<owner>__<repo>.txt``
    (written from a release by tests/layouts/definitions.py), or nothing."""
    path = DEFINITIONS / f"{repo.lower().replace('/', '__')}.txt"
    if "/" not in repo or not path.is_file():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            module, *names = line.split()
            out.update(dict.fromkeys(names, module.lower()))
    return out


def defining_module(token: str, layout: Layout) -> str | None:
    """The module that defines the name a code token starts with: the class
    of ``StructuredOutputManager.grammar_bitmask()``, the function of
    ``grammar_bitmask()`` or ``self.grammar_bitmask()``; nothing for a name
    of another library's namespace (``torch.cuda.synchronize()``)."""
    if not layout.defined:
        return None
    parts = token.strip().strip("`'\"").lstrip(".").split(".")
    if len(parts) > 1 and parts[0] in _OWN:
        parts = parts[1:]
    elif len(parts) > 1 and parts[0] in generic_names().namespaces:
        return None
    if len(parts) > 1 and parts[1] != "py" and len(modules := layout.named.get(f"{parts[0]}.py", ())) == 1:
        return modules[0]  # `envs.compile_factors()`: a name of the one module `envs.py` (not a file name)
    match = _NAME_RE.match(parts[0])
    return layout.defined.get(match.group()) if match else None


def cited_paths(tokens: list[str], layout: Layout) -> list[str]:
    """The paths among a note's code tokens, lower-cased, in order: tokens with
    a "/" (no URL, no line number), and dotted names that start at a claimed
    top folder (``vllm.v1.metrics.loggers``). A token that starts at the root
    or the home folder is no path of the repository: a server's route
    (``/metrics``, ``/v1/score``) or a file of the machine (``/dev/shm``,
    ``~/.config/vllm``)."""
    out = []
    for token in tokens:
        token = _PATH_TAIL_RE.sub("", token.strip().strip("`'\"()[]"))
        if token.startswith(("/", "~")):
            continue
        if "/" in token and not _URL_RE.match(token) and _PATH_CHARS_RE.fullmatch(token):
            out.append(token.lstrip("./").lower())
        elif _DOTTED_RE.fullmatch(token) and token.split(".", 1)[0].lower() in layout.roots:
            out.append(token.replace(".", "/").lower() + "/")
    return out


def path_claims(paths: list[str], layout: Layout) -> list[tuple[str, int, int]]:
    """``(slug, depth, position)`` of every cited path (:func:`cited_paths`) the layout claims."""
    return [(*hit, position) for position, path in enumerate(paths) if (hit := layout.claim(layout.moved(path)))]


def definition_claims(tokens: list[str], layout: Layout, fallback: str) -> list[tuple[str, int, int]]:
    """``(slug, depth, position)`` of the modules that define the names the tokens start with
    (``XgrammarBackend``), as the layout claims them."""
    out = []
    for position, token in enumerate(tokens):
        if (module := defining_module(token, layout)) and (hit := layout.claim(module)) and hit[0] != fallback:
            out.append((*hit, position))
    return out


# A whole word of letters, digits and "_" matches exactly where the text has
# that run of characters, so those words are looked up, not searched for.
_ASCII_RUN_RE = re.compile(r"[a-z0-9_]+")


def _frozen(groups: dict[str, list]) -> dict[str, tuple]:
    return {k: tuple(v) for k, v in sorted(groups.items())}


@dataclass(frozen=True)
class _WordSet:
    """Title or body words of every subsystem, as ``(prefilter, literal,
    subsystem, weight, word)`` entries: whole ASCII words by their text, the
    others by their first character. A literal is compiled
    (:func:`~prnotes.model.taxonomy.compile_pattern`) only once its prefilter matches."""

    by_run: dict[str, tuple]
    by_first: dict[str, tuple]

    @classmethod
    def of(cls, words_lists, attribute: str) -> _WordSet:
        by_run: dict[str, list] = {}
        by_first: dict[str, list] = {}
        for words in words_lists:
            for lit in getattr(words, attribute).literals:
                entry = (prefilter(lit), lit, words.subsystem, words.weight, lit.lower())
                if _ASCII_RUN_RE.fullmatch(entry[0]) and not lit.endswith("*"):
                    by_run.setdefault(entry[0], []).append(entry)
                else:
                    by_first.setdefault(entry[0][0], []).append(entry)
        return cls(_frozen(by_run), _frozen(by_first))

    def present(self, lower: str) -> list:
        """The entries whose literal text occurs in ``lower``: a cheap test
        before the word-boundary regex, as most words occur nowhere. Sorted,
        so that the result does not depend on set order."""
        found = [e for run in set(_ASCII_RUN_RE.findall(lower)) for e in self.by_run.get(run, ())]
        found += [e for ch in set(lower) for e in self.by_first.get(ch, ()) if e[0] in lower]
        return sorted(found, key=lambda e: (e[2], e[4]))


def _signals(taxonomy: Taxonomy, repo: str) -> _Signals:
    """The repository's signals, compiled once per taxonomy."""
    key = ("signals", repo.lower())
    if key not in taxonomy.cache:
        taxonomy.cache[key] = _compile_signals(taxonomy, repo)
    return taxonomy.cache[key]


def _compile_signals(taxonomy: Taxonomy, repo: str) -> _Signals:
    rules = taxonomy.rules_for(repo)
    prefixes = {normalize_prefix(p): (r.subsystem, r.weight) for r in rules for p in r.prefixes}
    code = {c.lower(): (r.subsystem, r.weight) for r in rules for c in r.code}
    # Longest first: at one position the longest pattern is the one that matches.
    alternatives = sorted(code, key=lambda c: (-len(c), c))
    code_re = re.compile("|".join(map(re.escape, alternatives))) if alternatives else None
    chosen = taxonomy.set_for(repo)
    words = tuple(s.words for s in chosen.subsystems) + tuple(r.words for r in rules)
    return _Signals(prefixes, code_re, code, _WordSet.of(words, "title"), _WordSet.of(words, "body"), Layout.of(chosen.paths, definitions(chosen.repo)))


def _boundaries(token: str):
    """Where a code pattern may start: the token's start, a non-alphanumeric
    character or the one after it, a camel-case hump, a letter after a digit."""
    previous = ""
    for i, ch in enumerate(token):
        if (
            i == 0
            or not ch.isalnum()
            or not previous.isalnum()
            or (previous.islower() and ch.isupper())
            or (previous.isdigit() and ch.isalpha())
        ):
            yield i
        previous = ch


def code_subsystem(token: str, signals: _Signals) -> tuple[str, float] | None:
    """The subsystem a code token speaks for: the pattern that matches earliest
    in it (the outer directory of a path), the longest one at that place."""
    if signals.code_re is None:
        return None
    lower = token.lower()
    for i in _boundaries(token):
        match = signals.code_re.match(lower, i)
        if match:
            return signals.code[match.group()]
    return None


def _title_evidence(heading: str, title_words: tuple, cap: int) -> dict[str, tuple[float, int]]:
    """Subsystem -> (sum of the weights of its words in one title, where the first one starts).

    ``title_words`` are the candidates (see :meth:`_WordSet.present`). Each word counts
    once, at most ``cap`` words per subsystem (the heaviest), and a match
    inside a longer match of the same subsystem does not count ("前缀缓存命中"
    is one word, not also "前缀缓存").
    """
    if not heading:
        return {}
    found: dict[str, list[tuple[int, int, float, str]]] = {}
    for _, literal, sub, weight, word in title_words:
        for m in compile_pattern(literal).finditer(heading):
            found.setdefault(sub, []).append((m.start(), m.end(), weight, word))
    out = {}
    for sub, matches in found.items():
        kept = _outermost(matches)
        best: dict[str, float] = {}
        for _, _, weight, key in kept:
            best[key] = max(best.get(key, 0.0), weight)
        out[sub] = (sum(sorted(best.values(), reverse=True)[:cap]), min(m[0] for m in kept))
    return out


def _outermost(matches: list[tuple[int, int, float, str]]) -> list[tuple[int, int, float, str]]:
    """The matches no longer match holds: one sweep in order of start, longest
    first (each match against every other was quadratic in a long title's words)."""
    reach = -1  # the furthest end of the spans before the current one
    inside = set()
    for start, end in sorted({(m[0], m[1]) for m in matches}, key=lambda span: (span[0], -span[1])):
        if reach >= end:
            inside.add((start, end))
        reach = max(reach, end)
    return [m for m in matches if (m[0], m[1]) not in inside]


def _claimed(claims: list[tuple[str, int, int]], weight: dict[str, float]) -> str:
    """The subsystem most of the note's claims are for (its cited paths, or
    the modules that define the names it cites), then, of those cited as
    often, the one with more evidence in ``weight`` (its prefix and words say
    which of the code it names the PR is about: `[P/D]` of a connector's
    field that the model runner reads), then the one with the deeper
    claim, then the one cited first: a note cites its own code most
    (`c10/util/env.h`, `c10/util/env.cpp`; `init_tracer()`,
    `maybe_init_worker_tracer()`) and what it touches once
    (`c10/cuda/CUDADeviceAssertionHost.cpp`; `WorkerProc`), however deep
    the set claims that."""
    count = Counter(slug for slug, _, _ in claims)
    return min(claims, key=lambda c: (-count[c[0]], -weight.get(c[0], 0), -c[1], c[2]))[0]


def file_note(title: str, upstream_title: str, body: str, taxonomy: Taxonomy, repo: str = "") -> Filing:
    """Where a note goes (see :func:`_file_note`); remembered per taxonomy."""
    key = ("filing", title, upstream_title, body, repo)
    filing = taxonomy.cache.get(key)
    if filing is None:
        filing = taxonomy.cache[key] = _file_note(title, upstream_title, body, taxonomy, repo)
    return filing


def _above_topics(chosen, sub: str) -> bool:
    """Whether the set weighs subsystem ``sub`` above topics (a weight above 1:
    a kind of change, documentation, CI, or a hardware)."""
    return sub in chosen.order and chosen.subsystem(sub).words.weight > 1


def _file_note(title: str, upstream_title: str, body: str, taxonomy: Taxonomy, repo: str) -> Filing:
    """Weigh the signals for every subsystem; the one with most evidence wins.

    Signals, strongest first (weights and caps in ``[weights]`` of the
    taxonomy, times the weight of the table that gives the pattern):

    1. a bracketed prefix of the upstream title or the title (``[Frontend]``),
       by the repository's ``prefixes``; the best one per subsystem counts;
    2. code spans and code-like words of titles and body, by the repository's
       ``code`` patterns (each token speaks for one subsystem, see
       :func:`code_subsystem`); at most ``code_cap`` tokens per subsystem;
    3. title words, in the title and in the upstream title: in each, every
       word once, at most ``title_cap`` words per subsystem (see
       :func:`_title_evidence`); for a repository with rules of its own the
       leading prefixes are left out, as (1) has read them;
    4. body words, every occurrence, at most ``body_cap`` per subsystem.

    Ties go to the subsystem whose strongest signal is stronger (prefix, then
    code, title, body), then to the one the title names first, then to the
    earlier one in the taxonomy. Without any evidence the note goes to the
    fallback subsystem (``matched`` is false).

    The repository's layout (the set's ``[paths]``) comes first: a note that
    cites a path the layout claims is filed by the subsystem most of its
    cited paths are claimed for, each by its deepest claimed prefix
    (:func:`_claimed`), whatever its words say, unless the subsystem
    with most evidence is one the set weighs above topics (a weight above 1:
    a kind of change or a hardware) and the PR's prefix names it.
    A note that cites no path, or whose paths only whole top folders of a
    kind of change claim (``examples/``, ``benchmarks/``: where the PR's
    example or benchmark lies, not what it is about), is filed likewise by
    the modules that define the names it cites (:func:`definition_claims`),
    with the same exception, and unless the top subsystem's prefix names
    it and more of the note's code tokens speak for it; else by its evidence.
    """
    w = taxonomy.weights
    signals = _signals(taxonomy, repo)
    scores: dict[str, dict[str, float]] = {}

    def add(sub: str, kind: str, value: float) -> None:
        slot = scores.setdefault(sub, {"prefix": 0.0, "code": 0.0, "title": 0.0, "body": 0.0})
        slot[kind] = max(slot[kind], value) if kind == "prefix" else slot[kind] + value

    for prefix in prefixes_of(upstream_title) + prefixes_of(title):
        if prefix in signals.prefixes:
            sub, weight = signals.prefixes[prefix]
            add(sub, "prefix", w.prefix * weight)
    counted: dict[str, int] = {}
    tokens = list(dict.fromkeys(code_tokens(title, repo) + code_tokens(upstream_title, repo) + code_tokens(body, repo)))
    paths = cited_paths(tokens, signals.layout)
    claims = [c for c in path_claims(paths, signals.layout) if c[0] != taxonomy.fallback]
    # A note that cites no path, or only whole top folders the set gives a
    # kind of change (`examples/`, `docs/`: a PR's example or its docs): the
    # modules that define the names it cites.
    chosen = taxonomy.set_for(repo)
    aside = not paths or (claims and all(depth == 1 and _above_topics(chosen, sub) for sub, depth, _ in claims))
    defined = definition_claims(tokens, signals.layout, taxonomy.fallback) if aside else []
    # Such a folder is evidence, not a claim: where the PR's example or
    # benchmark lies, not what it is about.
    evidence_only, claims = (claims, []) if aside else ([], claims)
    for token in tokens:
        hit = code_subsystem(token, signals)
        if hit and counted.get(hit[0], 0) < w.code_cap:
            counted[hit[0]] = counted.get(hit[0], 0) + 1
            add(hit[0], "code", w.code * hit[1])
    for sub in {c[0] for c in claims + defined + evidence_only}:
        if not counted.get(sub):
            add(sub, "code", w.code)
    if signals.prefixes:
        # The prefixes were read as prefixes; the words are the rest.
        title, upstream_title = _strip_prefixes(title), _strip_prefixes(upstream_title)
    first: dict[str, int] = {}  # where a subsystem's first title word starts: the title, then the upstream title
    candidates = signals.title_words.present(f"{title}\n{upstream_title}".lower())
    for offset, heading in ((0, title), (len(title) + 1, upstream_title)):
        for sub, (value, start) in _title_evidence(heading, candidates, w.title_cap).items():
            add(sub, "title", w.title * value)
            first.setdefault(sub, offset + start)
    for _, literal, sub, weight, _ in signals.body_words.present(body.lower()):
        if n := len(compile_pattern(literal).findall(body)):
            add(sub, "body", w.body * weight * n)
    evidence = [
        Evidence(sub, s["prefix"], s["code"], s["title"], min(s["body"], w.body_cap))
        for sub, s in scores.items()
        if sub != taxonomy.fallback
    ]
    order, never = taxonomy.set_for(repo).order, len(title) + len(upstream_title) + 2
    # Most evidence first; then the stronger signal; then the subject, which a
    # Chinese title names first ("LoRA 支持 …"); then taxonomy order.
    evidence.sort(key=lambda e: (-e.total, -e.prefix, -e.code, -e.title, -e.body, first.get(e.subsystem, never), order.get(e.subsystem, 0)))
    evidence = [e for e in evidence if e.total > 0]
    if not evidence:
        return Filing(taxonomy.fallback, False, ())
    # The cited paths the layout claims decide (most of them, each by its
    # deepest claim). Only what the set weighs above topics (a kind of
    # change or a hardware: its subsystem's weight is above 1, docs, CI,
    # ROCm) outranks the layout, as
    # it outranks any topic, when the PR's prefix names it: a word of the
    # title (`ARC`, a cache policy, is also Intel's Arc) or a code token
    # (`current_platform`) is a mention, not what the PR is.
    top = evidence[0]
    totals = {e.subsystem: e.total for e in evidence}
    codes = {e.subsystem: e.code for e in evidence}
    outranks = top.prefix and _above_topics(chosen, top.subsystem)
    if claims and not outranks:
        winner = _claimed(claims, totals)
    elif defined and not outranks and not (top.prefix and top.code > max(codes.get(sub, 0) for sub, _, _ in defined)):
        # Where a name is defined decides as a cited path does: the code the
        # note names, before what its words say; but not against a prefix
        # that more of the note's code speaks for (`[Spec Decode]` and
        # `EagleProposer`, `eagle3` against `LlamaForCausalLM`, a class
        # the PR passes through).
        winner = _claimed(defined, totals)
    else:
        winner = top.subsystem
    runners_up = sorted(
        {e.subsystem for e in evidence if e.strong and e.total >= w.tag and e.subsystem != winner}, key=order.__getitem__
    )
    return Filing(winner, True, tuple(evidence), tuple(runners_up))
