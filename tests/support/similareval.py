"""The labelled set of similar notes (tests/similar_pairs.tsv) and its corpus.

The corpus is the notes of six fixture projects together (tests/roots/vllm16,
stream, follow, morning, filing and search: 81 notes of vLLM, SGLang,
PyTorch, Transformers, TensorRT-LLM and two made-up repositories; morning
repeats stream's digests, which count once), built as one site; the labels
are the pairs a reader would agree deal with the same thing. Used by
tests/test_similar.py and bench/similar.py.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from tests.support.sandbox import ROOT, ROOTS, copy_project

CORPUS = ("vllm16", "stream", "follow", "morning", "filing", "search")
LABELS = ROOT / "tests" / "similar_pairs.tsv"


def corpus_seeds() -> dict[str, str]:
    """The seed files of the corpus, and one prs.toml made of theirs."""
    files: dict[str, str] = {}
    prs: dict[str, dict[str, dict]] = {}
    for name in CORPUS:
        for path in sorted((ROOTS / name / "seeds").iterdir()):
            if path.name == "prs.toml":
                for repo, entries in tomllib.loads(path.read_text(encoding="utf-8")).items():
                    prs.setdefault(repo, {}).update(entries)
            else:
                text = path.read_text(encoding="utf-8")
                assert files.get(path.name, text) == text, path  # the same digest in two fixtures counts once
                files[path.name] = text
    lines = []
    for repo, entries in sorted(prs.items()):
        lines.append(f"[{json.dumps(repo, ensure_ascii=False)}]")
        for title, info in sorted(entries.items()):
            fields = ", ".join(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in sorted(info.items()))
            lines.append(f"{json.dumps(title, ensure_ascii=False)} = {{ {fields} }}")
    files["prs.toml"] = "\n".join(lines) + "\n"
    return files


def corpus_project(dest: Path) -> Path:
    return copy_project(dest, corpus_seeds())


def labels() -> set[frozenset[str]]:
    """The labelled pairs, by note key (``owner/repo#N``)."""
    pairs = set()
    for line in LABELS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        a, b, _why = line.split("\t")
        pairs.add(frozenset((a, b)))
    return pairs


@dataclass(frozen=True)
class Precision:
    listed: int  # (note, similar note) pairs the site lists
    agreed: int  # of them, labelled pairs
    notes_listing: int  # notes with a 相似笔记 section
    notes: int
    labelled_notes: int  # notes with at least one labelled pair they may list
    labelled_found: int  # of them, notes that list at least one of their labelled pairs

    @property
    def precision(self) -> float:
        return self.agreed / self.listed if self.listed else 0.0


def measure(lists: dict[str, tuple[str, ...]], keys: set[str]) -> Precision:
    """Precision of ``lists`` (note key -> the keys it lists) against the labels."""
    pairs = labels()
    unknown = {k for pair in pairs for k in pair} - keys
    assert not unknown, f"labels name notes the corpus lacks: {sorted(unknown)}"
    listed = [(a, b) for a, found in lists.items() for b in found]
    agreed = sum(frozenset(p) in pairs for p in listed)
    findable = {a: {b for b in keys if frozenset((a, b)) in pairs} for a in keys}
    labelled = [a for a, others in findable.items() if others]
    found = [a for a in labelled if findable[a] & set(lists.get(a, ()))]
    return Precision(len(listed), agreed, sum(1 for v in lists.values() if v), len(keys), len(labelled), len(found))
