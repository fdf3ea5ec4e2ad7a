"""A repository without a subsystem set is filed by its own layout.

The notes of such a repository cite its code: paths (``include/cutlass/gemm/
kernel/sm90_tile_scheduler.hpp``), file names and identifiers. Those name the
repository's own parts far better than any list of generic words, so its
notes are grouped by them, and each group is a subsystem page named from
them:

1. A cited path's **area** is the first folder of it that names something:
   folders that only hold others (``src``, ``include``, ``python``,
   ``tests``, ``packages``, :data:`CONTAINERS`) and the words of the
   repository's own name (``cutlass``, ``candle-``) are passed over; the area
   is the words left of the first folder that has any (``candle-metal-kernels``
   and ``metal_backend`` are both ``metal``; ``test/unit/gemm/`` and
   ``include/cutlass/gemm/`` both ``gemm``). A path whose folders all hold
   others names its area by its file (``tools/profiler.cu``: ``profiler``).
2. A note's area is that of the first path it cites; a note that cites no
   path names an area when every word of the area is a word of its code
   (``ggml_cuda_graph_update`` names ``cuda``). An area that at least
   :data:`MIN_GROUP` notes have, one of them by a path, is a **group**.
3. A note whose first path names no group takes the first group another of
   its paths names; else the group whose notes share most of its words
   (the words of its paths and identifiers, each weighed by how few groups
   have it), when they share a word few groups have.
4. Only a note that cites no code a group shares is filed by the generic
   words of ``taxonomy/default.toml``, as before; what those do not file
   goes to 其他.

A group's slug is its area's words joined by ``-`` (a page name that stays
while the archive grows: more notes only join groups, or make new ones);
its title is the area as the paths write it, and its introduction names the
folders its notes cite.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .filing import Layout, code_tokens, cited_paths
from .taxonomy import SLUG_MAX, SLUG_RE

# Folder names that hold other folders rather than name a part of the code.
CONTAINERS = frozenset(
    """
    src source sources lib libs include inc python py pkg pkgs package packages crate crates core internal
    common shared test tests testing unit units unittest unittests integration e2e spec specs example examples
    sample samples demo demos tools tool scripts script util utils third_party thirdparty 3rdparty vendor
    external cmd app apps main java js ts javascript typescript cpp cc csrc native impl impls private public
    dist build out api backend backends kernels ops
    """.split()
)
# A group holds at least this many notes.
MIN_GROUP = 2
# Words of identifiers shorter than this say nothing.
_MIN_WORD = 3
_SPLIT_RE = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_SEPARATOR_RE = re.compile(r"[^A-Za-z0-9]+")
_EXTENSION_RE = re.compile(r"\.[A-Za-z0-9]{1,6}$")
_NO_LAYOUT = Layout.of(())


def words(text: str) -> list[str]:
    """Lower-case words of a name: split at separators and camel-case humps."""
    return [w.lower() for w in _SPLIT_RE.split(text) if w]


def segment_words(text: str) -> list[str]:
    """Lower-case words of a folder or file name: split at separators only
    (``CuTeDSL`` is one word, ``metal_backend`` two)."""
    return [w.lower() for w in _SEPARATOR_RE.split(text) if w]


@dataclass(frozen=True)
class Area:
    """Where a cited path points: its key (the words that name it), how the
    path writes it, and the folder up to it."""

    key: str
    shown: str
    folder: str


def area_of(path: str, original: str, repo_words: frozenset[str]) -> Area | None:
    """The area a path names (see the module docstring), or None."""
    parts = path.strip("/").split("/")
    shown_parts = original.strip("/").split("/") if original.lower().strip("/") == path.strip("/") else parts
    folders, name = (parts, "") if path.endswith("/") else (parts[:-1], parts[-1])
    for i, segment in enumerate(folders):
        kept = [w for w in segment_words(shown_parts[i]) if _names(w, repo_words)]
        if kept:
            return Area("-".join(kept), _shown(shown_parts[i], kept), "/".join(shown_parts[: i + 1]) + "/")
    if name:
        stem = _EXTENSION_RE.sub("", shown_parts[len(folders)])
        kept = [w for w in segment_words(stem) if _names(w, repo_words)]
        if kept:
            return Area("-".join(kept), _shown(stem, kept), "/".join(shown_parts[: len(folders)]) + "/")
    return None


def _names(word: str, repo_words: frozenset[str]) -> bool:
    """Whether a word of a folder or file name names a part of the code: not a
    container, not the repository's own name, not a number or a single letter
    (Go's ``x/`` holds experiments)."""
    return len(word) > 1 and word not in CONTAINERS and word not in repo_words and not word.isdigit()


def _shown(segment: str, kept: list[str]) -> str:
    """The segment as written, without the words passed over."""
    pieces = [p for p in _SEPARATOR_RE.split(segment) if p]
    shown = [p for p in pieces if p.lower() in kept]
    return segment if len(shown) == len(pieces) else " ".join(shown)


@dataclass(frozen=True)
class Group:
    """One subsystem of a repository filed by its layout."""

    slug: str
    title: str
    intro: str


@dataclass(frozen=True)
class Grouping:
    """A repository's groups, biggest first, and the group of each note (by
    index) that one names; notes left out are filed by words."""

    groups: tuple[Group, ...]
    filed: dict[int, str]


@dataclass(frozen=True)
class Cited:
    """What one note cites: the areas of its paths, in order, and its words."""

    areas: tuple[Area, ...]
    words: frozenset[str]
    first: frozenset[str] = frozenset()  # the words of the first path it cites


def cited(title: str, upstream: str, body: str, repo_words: frozenset[str]) -> Cited:
    tokens = code_tokens(title) + code_tokens(upstream) + code_tokens(body)
    originals = {t.lower().strip("`'\"()[]").lstrip("./"): t.strip("`'\"()[]").lstrip("./") for t in tokens}
    paths = cited_paths(tokens, _NO_LAYOUT)
    areas = []
    for path in paths:
        area = area_of(path, originals.get(path, path), repo_words)
        if area is not None:
            areas.append(area)
    found, first = set(), set()
    for token in tokens:
        these = _token_words(token, repo_words)
        found |= these
        if paths and token.lower().strip("`'\"()[]").lstrip("./") == paths[0]:
            first = these
    return Cited(tuple(areas), frozenset(found), frozenset(first))


def _token_words(token: str, repo_words: frozenset[str]) -> set[str]:
    out = set()
    for part in re.split(r"[/\s]+", _EXTENSION_RE.sub("", token)):
        out |= {w for w in words(part) + segment_words(part) if len(w) >= _MIN_WORD and w not in CONTAINERS and w not in repo_words}
    return out


def repo_words(repo: str) -> frozenset[str]:
    """The words of a repository's owner and name: they name no part of it."""
    owner, _, name = repo.partition("/")
    return frozenset(words(owner) + words(name) + segment_words(owner) + segment_words(name) + [name.lower(), owner.lower()])


def _slug(key: str, taken: Iterable[str]) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")[:SLUG_MAX].strip("-") or "code"
    if not SLUG_RE.fullmatch(slug) or slug in taken:
        slug = f"{slug[: SLUG_MAX - 5]}-code".strip("-")
    return slug


def _named_areas(note: Cited, by_word: dict[str, list[str]]) -> list[str]:
    """The areas whose words all are words of the note's code, the most words
    first; ``by_word``: the areas by their first word (a note looks up its own
    words, not every area)."""
    found = [k for w in note.words for k in by_word.get(w, ()) if set(k.split("-")) <= note.words]
    return sorted(found, key=lambda k: (-len(k.split("-")), k))


def group_notes(notes: list[Cited], reserved: frozenset[str] = frozenset()) -> Grouping:
    """Group one repository's notes by the code they cite (the module docstring).

    ``reserved``: slugs a group may not take (the fallback's, ``other``).
    """
    primary = [c.areas[0].key if c.areas else None for c in notes]
    # A note that cites no path names an area by its identifiers' words
    # (`ggml_cuda_graph_update` names cuda): it counts towards that area's group.
    by_path = set(primary) - {None}  # the areas some note names by a path
    by_word: dict[str, list[str]] = {}  # an area's first word -> the areas
    for k in sorted(by_path):
        by_word.setdefault(k.split("-")[0], []).append(k)
    named = [_named_areas(c, by_word) if not c.areas else [] for c in notes]
    counts = Counter(k for k in primary if k) + Counter(k for ks in named for k in ks[:1])
    keys = sorted((k for k, n in counts.items() if n >= MIN_GROUP and k in by_path), key=lambda k: (-counts[k], k))
    if not keys:
        return Grouping((), {})
    members: dict[str, list[int]] = {k: [] for k in keys}
    filed: dict[int, str] = {}
    for i, c in enumerate(notes):
        k = primary[i] if primary[i] in members else next((k for k in named[i] if k in members), None)
        if k is not None:
            filed[i] = k
            members[k].append(i)
    # Words of each group, and how many groups have each word.
    group_words = {k: Counter(w for i in members[k] for w in notes[i].words) for k in keys}
    spread = Counter(w for k in keys for w in group_words[k])
    # The groups that have each word few groups have: a note looks up its own words.
    holders: dict[str, list[str]] = {}
    for k in keys:
        for w in group_words[k]:
            if spread[w] * 2 <= len(keys) + 1:
                holders.setdefault(w, []).append(k)
    rank = {k: n for n, k in enumerate(keys)}
    for i, c in enumerate(notes):
        if i in filed:
            continue
        scores: dict[str, float] = {}
        for w in sorted(c.words):
            for k in holders.get(w, ()):
                scores[k] = scores.get(k, 0.0) + math.log(1 + len(keys) / spread[w]) * (2 if w in c.first else 1)
        # The most shared; on a tie, the earlier group (the bigger one).
        best = min(scores, key=lambda k: (-scores[k], rank[k])) if scores else None
        if best is None:
            best = next((a.key for a in c.areas if a.key in members), None)
        if best is not None:
            filed[i] = best
            members[best].append(i)
    order = sorted(keys, key=lambda k: (-len(members[k]), k))
    groups, slugs, taken = [], {}, set(reserved)
    for k in order:
        shown = Counter(a.shown for i in members[k] for a in notes[i].areas if a.key == k)
        folders = Counter(a.folder for i in members[k] for a in notes[i].areas if a.key == k)
        slug = _slug(k, taken)
        slugs[k] = slug
        taken.add(slug)
        title = min(shown, key=lambda s: (-shown[s], s)) if shown else k
        where = "、".join(f for f, _ in sorted(folders.items(), key=lambda fc: (-fc[1], fc[0]))[:3])
        groups.append(Group(slug, title, f"按代码归组：笔记引用的 {where} 下的改动。"))
    return Grouping(tuple(groups), {i: slugs[k] for i, k in filed.items()})
