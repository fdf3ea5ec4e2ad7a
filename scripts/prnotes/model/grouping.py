"""A repository without a subsystem set is filed by its own layout.

The notes of such a repository cite its code: paths (``include/cutlass/gemm/
kernel/sm90_tile_scheduler.hpp``), file names and identifiers. Those name the
repository's own parts far better than any list of generic words, so its
notes are grouped by them, and each group is a subsystem page named from
them:

1. A cited path's **area** is the first folder of it that names something:
   folders that only hold others (``src``, ``include``, ``python``,
   ``tests``, ``packages``, ``prototype``, :data:`CONTAINERS`) and the words of the
   repository's own name (``cutlass``, ``candle-``; ``torchao`` of pytorch/ao
   ends it after the end of its owner's) are passed over; the area
   is the words left of the first folder that has any (``candle-metal-kernels``
   and ``metal_backend`` are both ``metal``; ``test/unit/gemm/`` and
   ``include/cutlass/gemm/`` both ``gemm``); the repository's words are
   passed over only where they lead a name (tokenizers' ``pre_tokenizers``
   keeps them), one shortened after one written whole too (``flash_attn``);
   below a container, a folder of the repository's name alone names the
   area when nothing after it does (``csrc/flash_attn/``). A path whose
   folders all hold others names its area by its file
   (``tools/profiler.cu``: ``profiler``), unless that is a manifest
   (:data:`MANIFESTS`: ``Cargo.toml``, ``package.json``); where such files
   of one folder share a word and no two notes name one of them
   (``csrc/mem_kernels.cu``, ``csrc/mp_mem_kernels.cu``), the folder is
   their area (``csrc``). Where the file names nothing either
   (``csrc/kernels.cu``), the innermost folder does, unless it is the
   repository's name or in :data:`SOURCE_ROOTS` (``src/lib.rs`` names
   nothing), and the files of that folder that are each one note's area
   join it (``csrc/gemm_4bit.cu``).
   A path is read from where the repository's own parts start: when
   another note cites a path that starts with two of its folders
   (``layers/attention/``, cited from inside the tree), the folders before
   them (``server/text_generation_server/``) only hold the code, so
   ``server/text_generation_server/layers/attention/kv_cache.py`` names the
   area ``layers`` as ``layers/attention/flashinfer.py`` does.
2. A note's area is that of the first path it cites; a note that cites no
   path names an area by its title's label (``[jinja] …``, ``ggml-cpu :
   …``: :func:`~prnotes.model.filing.labels_of`) when every word of the
   area is a word of the label, else when every word of the area is a word
   of its code (``ggml_cuda_graph_update`` names ``cuda``). The label's
   words are words of its code too where some note cites them as code
   (``[jinja]``; not ``[Bugfix]``, a kind of change).
3. A note that names no area joins the area of the notes it shares most
   code with: the words of their paths and identifiers (two letters and
   more: ``vk`` of ``ggml_vk_create_buffer``) and the PRs of the repository
   they are or mention (``紧跟 #1266 的修复``: :func:`linked`), each weighed by how few
   notes have it (``ln(N / df)``, words of more than :data:`NEAR_DF` notes
   left out); its :data:`NEAREST` nearest notes vote, each with what it
   shares. This goes in :data:`ROUNDS` rounds, each reading only the notes
   placed before it, so that a note can join through another that joined,
   and the order of the notes never matters.
4. An area is a **group** when some note names it by a path and at least
   :data:`MIN_GROUP` notes name it, or one more than that has joined it
   (one note by a path and one that shares a word with it is too little,
   but in a repository of at most :data:`SMALL` notes, a first digest,
   whose areas hold two or three notes each).
   A note whose area is no group takes the first group another of its
   paths names, else a group its label or its code names as in (2)
   (``csrc/trtllm_fused_moe_dev_kernel.cu`` and ``BatchedGemmInterface``:
   ``gemm``), else joins a group as in (3). In a small repository such a
   note is its area's only one: it joins a group only when the group's area
   is read from its folder (``ops/cross_entropy.py``, ``ops/fused_moe.py``),
   else the generic words file it (6), and what they do not file joins the
   group it shares most code with (:func:`nearest`, in ``prnotes.model.site``).
5. A note that shares no code with a group is read by the names its prose
   mentions, of those another note cites as code (``launcher 收到终止信号后``,
   ``minijinja 不认识``): a group they name as in (2), else the notes it
   shares most of them with, as in (3).
6. Only a note that shares nothing with a group is filed by the generic
   words of ``taxonomy/default.toml``, as before; what those do not file
   goes to 其他.

A group's slug is its area's words joined by ``-`` (a page name that stays
while the archive grows: more notes only join groups, or make new ones; a
pair of a small first digest that is no group once the repository is larger
leads on to where its notes went: ``prnotes.model.site``);
its title is the area as the paths write it, and its introduction names the
folders its notes cite.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..sphinxext.search.tokens import STOPWORDS
from .filing import Layout, code_tokens, cited_paths, labels_of
from .taxonomy import SLUG_MAX, SLUG_RE

# Folder names that hold other folders rather than name a part of the code.
CONTAINERS = frozenset(
    """
    src source sources lib libs include inc python py pkg pkgs package packages crate crates core internal
    common shared test tests testing unit units unittest unittests integration e2e spec specs example examples
    sample samples demo demos tools tool scripts script util utils third_party thirdparty 3rdparty vendor
    external cmd app apps main java js ts javascript typescript cpp cc csrc native impl impls private public
    dist build out api backend backends kernels ops components component prototype experimental contrib
    """.split()
)
# Holders of all of a project's source: no part of it, even where nothing else names one.
SOURCE_ROOTS = frozenset("src source sources lib libs python py pkg pkgs package packages crate crates internal".split())
# Files that build, describe or pin a project rather than hold a part of its code:
# a path to one (``tokenizers/Cargo.toml``, ``package.json``) names no area.
MANIFESTS = frozenset(
    """
    cargo package package-lock pnpm-lock yarn pyproject setup requirements makefile cmakelists meson build
    go readme license changelog contributing dockerfile tsconfig manifest codeowners
    """.split()
)
# A group holds at least this many notes.
MIN_GROUP = 2
# A repository of at most this many notes (a first digest) has areas of two or three.
SMALL = 8
# A word of more notes than this is not looked up to find a note's nearest note.
NEAR_DF = 30
# The nearest notes that vote for the area a note joins.
NEAREST = 3
# Rounds of joining the nearest note: a note may join through a chain this long.
ROUNDS = 3
# Words of identifiers shorter than this say nothing.
_MIN_WORD = 2
_SPLIT_RE = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_SEPARATOR_RE = re.compile(r"[^A-Za-z0-9]+")
_VERSION_RE = re.compile(r"v?[0-9]+")
_EXTENSION_RE = re.compile(r"\.[A-Za-z0-9]{1,6}$")
_NO_LAYOUT = Layout.of(())
_CODE_SPAN_RE = re.compile(r"`[^`]*`")
_PROSE_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]+")


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
    by_file: bool = False  # read from a file's name: no folder of the path names anything


def area_of(path: str, original: str, repo_words: frozenset[str]) -> Area | None:
    """The area a path names (see the module docstring), or None."""
    parts = path.strip("/").split("/")
    shown_parts = original.strip("/").split("/") if original.lower().strip("/") == path.strip("/") else parts
    folders, name = (parts, "") if path.endswith("/") else (parts[:-1], parts[-1])
    # The first folder below another named by the repository's words alone: a
    # build of its own (``csrc/flash_attn/`` of flash-attention, its C++ kernels).
    own = None
    for i, segment in enumerate(folders):
        written = segment_words(shown_parts[i])
        kept = _kept(written, repo_words)
        if kept:
            return Area("-".join(kept), _shown(shown_parts[i], kept), "/".join(shown_parts[: i + 1]) + "/")
        if own is None and i and written and not set(written) & CONTAINERS and not _VERSION_RE.fullmatch(written[0]):
            own = i
    if name:
        stem = _EXTENSION_RE.sub("", shown_parts[len(folders)])
        kept = _kept(segment_words(stem), repo_words)
        if kept and "-".join(segment_words(stem)) not in MANIFESTS:
            return Area("-".join(kept), _shown(stem, kept), "/".join(shown_parts[: len(folders)]) + "/", True)
    manifest = bool(name) and "-".join(segment_words(_EXTENSION_RE.sub("", name))) in MANIFESTS
    if own is not None and own + 1 < len(folders) + bool(name) and not manifest:
        # Nothing after it names a part: the folder that holds the code, by its own name.
        return Area("-".join(segment_words(shown_parts[own])), shown_parts[own], "/".join(shown_parts[: own + 1]) + "/")
    # Only holders and a file that names nothing (`csrc/kernels.cu`): the innermost
    # folder, not the repository's name nor a root of all its source (`src/lib.rs`),
    # holds that code, as it holds its files of other names.
    roots = repo_words | SOURCE_ROOTS
    if name and not manifest and (inner := next((i for i in reversed(range(len(folders))) if not set(segment_words(shown_parts[i])) <= roots), None)) is not None:
        return Area("-".join(segment_words(shown_parts[inner])), shown_parts[inner], "/".join(shown_parts[: inner + 1]) + "/", True)
    return None


def _kept(segment: list[str], repo_words: frozenset[str]) -> list[str]:
    """The words of a folder or file name that name a part of the code: not a
    container, not a number, a version (``v1/``) or a single letter (Go's
    ``x/`` holds experiments), and not the repository's own name where it
    leads the name (``candle-metal``, ``ggml_cuda``; tokenizers'
    ``pre_tokenizers`` keeps it), a word of it shortened after one written
    whole included (``flash_attn`` of flash-attention)."""
    lead = 0
    while lead < len(segment) and (segment[lead] in repo_words or (lead and _shortens(segment[lead], repo_words))):
        lead += 1
    return [w for w in segment[lead:] if len(w) > 1 and w not in CONTAINERS and not _VERSION_RE.fullmatch(w)]


def _shortens(word: str, repo_words: frozenset[str]) -> bool:
    """Whether ``word`` is a word of the repository's name shortened: three letters or
    more of it, in order, the first the same (``attn`` of attention, ``gen`` of generation)."""
    return len(word) >= 3 and any(
        len(whole) > len(word) and whole[0] == word[0] and _in_order(word, whole) for whole in repo_words
    )


def _in_order(short: str, whole: str) -> bool:
    letters = iter(whole)
    return all(ch in letters for ch in short)


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
    """What one note cites: its paths (lower-case, and as written), in order,
    and its words; ``repo``: the words of its repository's name."""

    paths: tuple[tuple[str, str], ...]
    words: frozenset[str]
    first: frozenset[str] = frozenset()  # the words of the first path it cites
    labels: frozenset[str] = frozenset()  # the words of the title's labels: "[hub] …", "vulkan: …"
    repo: frozenset[str] = frozenset()
    prose: frozenset[str] = frozenset()  # the Latin words of its text outside code: "launcher", "minijinja"
    # The area of each path read from its first folder (None: it names none), worked out once.
    plain: tuple[Area | None, ...] = ()

    def areas(self, starts: frozenset[str] = frozenset()) -> tuple[Area, ...]:
        """The areas of its paths, each read from the first of ``starts``
        (:func:`_starts`) it holds after its first folder, else from its first folder."""
        out = []
        for (path, original), plain in zip(self.paths, self.plain, strict=True):
            parts = path.split("/")
            k = next((k for k in range(1, len(parts) - 2) if f"{parts[k]}/{parts[k + 1]}/" in starts), 0) if starts else 0
            area = plain if not k else _area_within(path, original, k, self.repo)
            if area is not None:
                out.append(area)
        return tuple(out)


def _area_within(path: str, original: str, k: int, repo_words: frozenset[str]) -> Area | None:
    """The area of ``path`` read from its ``k``-th folder on; its folder written whole."""
    parts, shown = path.split("/"), original.split("/")
    area = area_of("/".join(parts[k:]), "/".join(shown[k:]) if len(shown) == len(parts) else "", repo_words)
    return area if area is None or not k else replace(area, folder="/".join(shown[:k]) + "/" + area.folder)


def _starts(notes: list[Cited]) -> frozenset[str]:
    """The first two folders of every path a note cites (``layers/attention/``):
    where a path cited from inside the tree starts."""
    return frozenset(f"{parts[0]}/{parts[1]}/" for c in notes for path, _ in c.paths if len(parts := path.split("/")) > 2)


def cited(title: str, upstream: str, body: str, repo_words: frozenset[str], repo: str = "") -> Cited:
    tokens = code_tokens(title, repo) + code_tokens(upstream, repo) + code_tokens(body, repo)
    originals = {t.lower().strip("`'\"()[]").lstrip("./"): t.strip("`'\"()[]").lstrip("./") for t in tokens}
    paths = cited_paths(tokens, _NO_LAYOUT)
    found, first = set(), set()
    for token in tokens:
        these = _token_words(token, repo_words)
        found |= these
        if paths and token.lower().strip("`'\"()[]").lstrip("./") == paths[0]:
            first = these
    labels = {w for label in labels_of(upstream) + labels_of(title) for w in _token_words(label, repo_words)}
    prose = {
        w
        for text in (title, upstream, body)
        for name in _PROSE_WORD_RE.findall(_CODE_SPAN_RE.sub(" ", text))
        for w in words(name)
        if len(w) >= _MIN_WORD and w not in STOPWORDS and w not in CONTAINERS and w not in repo_words
    }
    pairs = tuple((p, originals.get(p, p)) for p in paths)
    return Cited(
        pairs,
        frozenset(found),
        frozenset(first),
        frozenset(labels),
        repo_words,
        frozenset(prose),
        tuple(_area_within(p, o, 0, repo_words) for p, o in pairs),
    )


def linked(note: Cited, pulls: Iterable[int]) -> Cited:
    """The note with its own PR and the PRs of its repository it mentions
    among its words (``#1266``): a note that follows another ("紧跟 #1266 的修复")
    shares that word with it, as two notes that cite one function do."""
    return replace(note, words=note.words | {f"#{n}" for n in pulls})


def _token_words(token: str, repo_words: frozenset[str]) -> set[str]:
    out = set()
    for part in re.split(r"[/\s]+", _EXTENSION_RE.sub("", token)):
        out |= {w for w in words(part) + segment_words(part) if len(w) >= _MIN_WORD and w not in CONTAINERS and w not in repo_words}
    return out


def repo_words(repo: str) -> frozenset[str]:
    """The words of a repository's owner and name, its name written as one
    word (``mistralrs`` of ``mistral.rs``, as its crates write it), and its
    name after the end of its owner's (``torchao`` of pytorch/ao): they name
    no part of it."""
    owner, _, name = repo.partition("/")
    joined = "".join(segment_words(name))
    led = [whole[i:] + joined for whole in segment_words(owner) for i in range(len(whole) - 1)]
    return frozenset(words(owner) + words(name) + segment_words(owner) + segment_words(name) + [name.lower(), owner.lower(), joined] + led)


def _slug(key: str, taken: Iterable[str]) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")[:SLUG_MAX].strip("-") or "code"
    if not SLUG_RE.fullmatch(slug) or slug in taken:
        slug = f"{slug[: SLUG_MAX - 5]}-code".strip("-")
    return slug


def _by_first_word(keys: Iterable[str]) -> dict[str, list[str]]:
    """Areas by their first word, so that a note looks up its own words, not every area."""
    out: dict[str, list[str]] = {}
    for k in sorted(keys):
        out.setdefault(k.split("-")[0], []).append(k)
    return out


def _named_areas(note: Cited, by_word: dict[str, list[str]]) -> list[str]:
    """The areas of ``by_word`` (:func:`_by_first_word`) that the note's label
    names (every word of the area a word of the label), else that its code
    names; the most words first."""
    for words in (note.labels, note.words):
        if found := {k for w in words for k in by_word.get(w, ()) if set(k.split("-")) <= words}:
            return sorted(found, key=lambda k: (-len(k.split("-")), k))
    return []


class _Neighbours:
    """Which note a note shares most code with: the words of their paths and
    identifiers, each weighed by how few notes have it (``ln(N / df)``);
    words of more than :data:`NEAR_DF` notes say too little to look up, and
    the weight of the first path's words is doubled."""

    def __init__(self, notes: list[Cited]) -> None:
        self.notes = notes
        df = Counter(w for c in notes for w in c.words)
        self.weight = {w: math.log(len(notes) / n) for w, n in df.items() if 2 <= n <= NEAR_DF}
        self.postings: dict[str, list[int]] = {}
        for i, c in enumerate(notes):
            for w in sorted(c.words & self.weight.keys()):
                self.postings.setdefault(w, []).append(i)

    def nearest(self, i: int, among: dict[int, str], voters: int = NEAREST) -> str | None:
        """The key ``among`` gives the notes most like note ``i``: of its
        ``voters`` nearest notes (:data:`NEAREST`), the key whose notes share
        most with it; ties go to the key first in order, never to the order
        of the notes."""
        scores: dict[int, float] = {}
        mine = self.notes[i]
        for w in mine.words & self.weight.keys():
            weight = self.weight[w] * (2 if w in mine.first else 1)
            for j in self.postings[w]:
                if j != i and j in among:
                    scores[j] = scores.get(j, 0.0) + weight
        if not scores:
            return None
        votes: dict[str, float] = {}
        for j in sorted(scores, key=lambda j: (-scores[j], among[j]))[:voters]:
            votes[among[j]] = votes.get(among[j], 0.0) + scores[j]
        return min(votes, key=lambda k: (-votes[k], k))

    def attach(self, filed: dict[int, str], rest: list[int], voters: int = NEAREST) -> dict[int, str]:
        """The keys of the ``rest`` notes, each the key of the filed note most
        like it; in rounds, so that a note can join through one filed in the
        round before (each round reads only the notes filed before it, so the
        order of the notes does not matter)."""
        known, out = dict(filed), {}
        for _ in range(ROUNDS):
            found = {i: k for i in rest if i not in out and (k := self.nearest(i, known, voters)) is not None}
            if not found:
                break
            out |= found
            known |= found
        return out


def _labelled(notes: list[Cited]) -> list[Cited]:
    """The notes with their labels' words among their words, of those some
    note cites as code (``[jinja]``, where ``packages/jinja/`` is cited; not
    ``[Bugfix]``, a kind of change that names no part of the code)."""
    names = frozenset().union(*(c.words for c in notes))
    return [replace(c, words=c.words | (c.labels & names)) for c in notes]


def _read(notes: list[Cited]) -> list[Cited]:
    """The notes with the names their prose mentions among their words: of
    those some note cites as code ("minijinja"; not "kernel" or "PR")."""
    names = frozenset().union(*(c.words for c in notes))
    return [replace(c, words=c.words | (c.prose & names), labels=frozenset()) for c in notes]


def nearest(notes: list[Cited], filed: dict[int, str], rest: list[int]) -> dict[int, str]:
    """Where each of the ``rest`` notes goes: where the ``filed`` note it
    shares most code names with went (its code, and the names its prose
    mentions), weighed as when a note joins an area (the module docstring, 3),
    the one nearest note deciding; a note that shares none is left out."""
    return _Neighbours(_read(_labelled(notes))).attach(filed, rest, voters=1)


def group_notes(notes: list[Cited], reserved: frozenset[str] = frozenset()) -> Grouping:
    """Group one repository's notes by the code they cite (the module docstring).

    ``reserved``: slugs a group may not take (the fallback's, ``other``).
    """
    notes = _labelled(notes)
    few = len(notes) <= SMALL
    starts = _starts(notes)
    areas_of = [c.areas(starts) for c in notes]
    primary = [a[0].key if a else None for a in areas_of]
    # Files of one folder that only holds others whose names share a word
    # (`csrc/mem_kernels.cu`, `csrc/mp_mem_kernels.cu`), each the only note of
    # its area: the folder is their area; not the package of the repository's
    # name (`python/xgrammar/`).
    cites, alone = Counter(primary), {}
    for i, a in enumerate(areas_of):
        if a and a[0].by_file and cites[a[0].key] < MIN_GROUP:
            alone.setdefault(a[0].folder, []).append(i)
    for folder, these in sorted(alone.items()):
        name = folder.rstrip("/").rpartition("/")[2]
        key = "-".join(segment_words(name))
        shared = Counter(w for k in {primary[i] for i in these} for w in k.split("-"))
        # Those whose names share a word, or all of them when one is read from the folder itself.
        these = these if key in shared else [i for i in these if any(shared[w] >= MIN_GROUP for w in primary[i].split("-"))]
        if len(these) >= MIN_GROUP and key and not set(segment_words(name)) <= notes[these[0]].repo:
            for i in these:
                areas_of[i] = (Area(key, name, folder), *areas_of[i][1:])
                primary[i] = key
    # A note that cites no path names an area by its identifiers' words
    # (`ggml_cuda_graph_update` names cuda): it counts towards that area's group.
    by_path = set(primary) - {None}  # the areas some note names by a path
    by_word = _by_first_word(by_path)
    named = [_named_areas(c, by_word) if not areas_of[i] else [] for i, c in enumerate(notes)]
    near = _Neighbours(notes)
    # Every area a note names, even one of a single note: the notes that name
    # none join the area of the note they share most code with.
    area = {i: k for i, k in enumerate(primary) if k} | {i: ks[0] for i, ks in enumerate(named) if ks and primary[i] is None}
    cited_by = Counter(area.values())
    area |= near.attach(area, [i for i in range(len(notes)) if i not in area])
    counts = Counter(area.values())
    # A group: notes that cite the area, or one more when they are joined by what they share.
    keys = sorted(
        (k for k, n in counts.items() if k in by_path and (cited_by[k] >= MIN_GROUP or n > MIN_GROUP or (few and n >= MIN_GROUP))),
        key=lambda k: (-counts[k], k),
    )
    if not keys:
        return Grouping((), {})
    members: dict[str, list[int]] = {k: [] for k in keys}
    group_by_word = _by_first_word(keys)
    filed: dict[int, str] = {}
    for i, c in enumerate(notes):
        # An area too small to be a group: the note's other paths, then a
        # group its label or its code names, then the note it shares most with.
        k = area.get(i) if area.get(i) in members else next((a.key for a in areas_of[i] if a.key in members), None)
        if k is None:
            k = next(iter(_named_areas(c, group_by_word)), None)
        if k is not None:
            filed[i] = k
            members[k].append(i)
    # In a small repository, a note whose path names an area no group holds
    # is that area's only note: filed by words, not joined to a group.
    lone = {i for i in range(len(notes)) if areas_of[i] and i not in filed} if few else set()
    # ... unless a group's area is read from the same folder (``ops/cross_entropy.py``
    # and ``ops/fused_moe_kernels.py``): it joins that group.
    folders: dict[str, str] = {}
    for k in keys:  # the biggest group first
        for i in members[k]:
            folders.update((a.folder, k) for a in areas_of[i] if a.key == k and a.folder not in folders)
    for i in sorted(lone):
        if (k := folders.get(areas_of[i][0].folder)) is not None:
            filed[i] = k
            members[k].append(i)
            lone.discard(i)
    for i, k in near.attach(filed, [i for i in range(len(notes)) if i not in filed and i not in lone]).items():
        filed[i] = k
        members[k].append(i)
    # What shares no code with a group: the names its prose mentions.
    rest = [i for i in range(len(notes)) if i not in filed and i not in lone]
    read = _read(notes) if rest else notes
    found = {i: k for i in rest if (k := next(iter(_named_areas(read[i], group_by_word)), None))}
    if unnamed := [i for i in rest if i not in found]:
        found |= _Neighbours(read).attach(filed | found, unnamed)
    for i, k in sorted(found.items()):
        filed[i] = k
        members[k].append(i)
    order = sorted(keys, key=lambda k: (-len(members[k]), k))
    groups, slugs, taken = [], {}, set(reserved)
    for k in order:
        shown = Counter(a.shown for i in members[k] for a in areas_of[i] if a.key == k)
        folders = Counter(a.folder for i in members[k] for a in areas_of[i] if a.key == k)
        slug = _slug(k, taken)
        slugs[k] = slug
        taken.add(slug)
        title = min(shown, key=lambda s: (-shown[s], s)) if shown else k
        where = "、".join(f for f, _ in sorted(folders.items(), key=lambda fc: (-fc[1], fc[0]))[:3])
        groups.append(Group(slug, title, f"按代码归组：笔记引用的 {where} 下的改动。"))
    return Grouping(tuple(groups), {i: slugs[k] for i, k in filed.items()})
