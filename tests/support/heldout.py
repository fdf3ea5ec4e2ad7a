"""The held-out evaluation data (``tests/heldout/``) as a project, and its scores.

``tests/heldout/notes.tsv`` (the dev part), ``tests/heldout/dev2/notes.tsv``
(a second dev part, written later, about vLLM, SGLang and Transformers areas
no earlier data had shown; ``dev3`` holds only questions, harder ones, about
the notes of the two; ``dev4`` to ``dev17`` hold notes of
repositories without a set and, from ``dev5`` on, of more vLLM
areas; ``dev7`` and ``dev10`` to ``dev12`` also of PyTorch and SGLang areas) and
``tests/heldout/sealed/notes.tsv`` (the sealed
part, never read while the rules are tuned) hold notes of
repositories and vLLM areas the project had not seen when they were written,
each labelled with the area of its repository a maintainer would file it
under; ``queries.tsv`` holds reader questions, each naming the note it wants,
and ``similar_pairs.tsv`` the pairs of notes that deal with the same thing.

Each part's notes of one repository become one digest, so the project has a
digest per (part, repository); the scores say whether each area's notes stay
together (one subsystem), how many notes of a digest land in 其他, and, on the
built site, what the search finds and what 相似笔记 lists.
"""

from __future__ import annotations

import csv
import json
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from tests.support.sandbox import ROOT, copy_project

HELDOUT = ROOT / "tests" / "heldout"
PARTS = {"dev": HELDOUT, "dev2": HELDOUT / "dev2", "dev3": HELDOUT / "dev3", "dev4": HELDOUT / "dev4", "dev5": HELDOUT / "dev5", "dev6": HELDOUT / "dev6", "dev7": HELDOUT / "dev7", "dev8": HELDOUT / "dev8", "dev9": HELDOUT / "dev9", "dev10": HELDOUT / "dev10", "dev11": HELDOUT / "dev11", "dev12": HELDOUT / "dev12", "dev13": HELDOUT / "dev13", "dev14": HELDOUT / "dev14", "dev15": HELDOUT / "dev15", "dev16": HELDOUT / "dev16", "dev17": HELDOUT / "dev17", "sealed": HELDOUT / "sealed"}
SEALED = "sealed"
NOTE_COLUMNS = ("repo", "area", "pr", "title", "upstream", "advice")
QUERY_COLUMNS = ("query", "expected", "kind")


@dataclass(frozen=True)
class HeldNote:
    part: str
    repo: str
    area: str
    pr: int
    title: str
    upstream: str
    advice: str

    @property
    def key(self) -> str:
        return f"{self.repo}#{self.pr}"


@dataclass(frozen=True)
class Query:
    part: str
    query: str
    expected: str  # owner/repo#N
    kind: str


def _rows(path: Path, columns: tuple[str, ...]) -> list[dict[str, str]]:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    reader = csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
    if tuple(reader.fieldnames or ()) != columns:
        raise ValueError(f"{path}: the header must be {' '.join(columns)}")
    return [{k: (v or "").strip() for k, v in row.items()} for row in reader]


def notes(parts: tuple[str, ...] = tuple(PARTS)) -> list[HeldNote]:
    out = []
    for part in parts:
        for row in _rows(PARTS[part] / "notes.tsv", NOTE_COLUMNS):
            out.append(HeldNote(part, row["repo"], row["area"], int(row["pr"]), row["title"], row["upstream"], row["advice"]))
    return out


def queries(parts: tuple[str, ...] = tuple(PARTS)) -> list[Query]:
    return [Query(part, **row) for part in parts for row in _rows(PARTS[part] / "queries.tsv", QUERY_COLUMNS)]


def similar_labels() -> set[frozenset[str]]:
    """The labelled pairs: ``similar_pairs.tsv`` (dev and sealed notes), and a
    part folder's own (``dev2/similar_pairs.tsv``)."""
    pairs = set()
    files = [HELDOUT / "similar_pairs.tsv", *(folder / "similar_pairs.tsv" for folder in PARTS.values() if folder != HELDOUT)]
    for path in files:
        if path.exists():
            for row in _rows(path, ("note", "other", "why")):
                pairs.add(frozenset((row["note"], row["other"])))
    return pairs


def seeds(held: list[HeldNote]) -> dict[str, str]:
    """One digest per (part, repository), parts in order, and their prs.toml."""
    files: dict[str, str] = {}
    prs: dict[str, list[str]] = defaultdict(list)
    groups: dict[tuple[str, str], list[HeldNote]] = defaultdict(list)
    for note in held:
        groups[(note.part, note.repo)].append(note)
    order = sorted(groups, key=lambda g: (list(PARTS).index(g[0]), g[1].lower()))
    for k, (part, repo) in enumerate(order):
        mine = groups[(part, repo)]
        name = f"{k:03d}_{part}_{repo.replace('/', '_').lower()}.txt"
        files[name] = repo + "\n\n" + "".join(f"{n.title}\n\n{n.advice}\n\n" for n in mine)
        prs[repo] += [
            f"{json.dumps(n.title, ensure_ascii=False)} = {{ number = {n.pr}, upstream_title = {json.dumps(n.upstream, ensure_ascii=False)} }}"
            for n in mine
        ]
    files["prs.toml"] = "".join(f"[{json.dumps(repo)}]\n" + "\n".join(lines) + "\n" for repo, lines in sorted(prs.items()))
    return files


def project(dest: Path, parts: tuple[str, ...] = tuple(PARTS)) -> Path:
    return copy_project(dest, seeds(notes(parts)))


@dataclass(frozen=True)
class Filing:
    """How one part's areas were filed."""

    areas: int
    together: int  # areas whose notes share one subsystem
    apart: int  # areas that share their subsystem with no other area of the repository
    own: int  # areas together and apart: a subsystem that holds that area alone
    notes: int
    other: int  # notes filed under the fallback subsystem
    most_other: int  # the most notes of one digest under the fallback
    most_split: int  # the most areas of one repository that are not together
    split_known: int  # areas not together in repositories with a set
    split: tuple[str, ...]  # "repo area: subsystem×n, …" of the areas not together


def filing(held: list[HeldNote], filed: dict[str, str], fallback: str = "other", known: frozenset[str] = frozenset()) -> Filing:
    """Scores of ``filed`` (note key -> subsystem slug) on ``held``; ``known``:
    the repositories with a set of their own (lower-case)."""
    by_area: dict[tuple[str, str], list[str]] = defaultdict(list)
    for note in held:
        by_area[(note.repo, note.area)].append(filed[note.key])
    together = [a for a, subs in by_area.items() if len(set(subs)) == 1]
    main = {a: Counter(subs).most_common(1)[0][0] for a, subs in by_area.items()}
    shared = Counter((repo, sub) for (repo, _), sub in main.items())
    apart = [a for a in by_area if shared[(a[0], main[a])] == 1]
    other_by_digest = Counter((n.part, n.repo) for n in held if filed[n.key] == fallback)
    split = tuple(
        f"{repo} {area}: " + ", ".join(f"{s}×{c}" for s, c in Counter(subs).most_common())
        for (repo, area), subs in sorted(by_area.items())
        if len(set(subs)) > 1
    )
    split_by_repo = Counter(repo for (repo, _), subs in by_area.items() if len(set(subs)) > 1)
    return Filing(
        len(by_area), len(together), len(apart), len(set(together) & set(apart)), len(held), sum(other_by_digest.values()),
        max(other_by_digest.values(), default=0), max(split_by_repo.values(), default=0),
        sum(n for repo, n in split_by_repo.items() if repo.lower() in known), split,
    )
