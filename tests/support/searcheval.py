"""The search evaluation set (``tests/search_eval.tsv``) and its scores."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from prnotes import contract

DEFAULT_REPO = "vllm-project/vllm"


@dataclass(frozen=True)
class EvalCase:
    query: str
    expected: str  # docname of the note
    kind: str
    category: str = ""  # what the per-category figures group by


@dataclass(frozen=True)
class Ranked:
    case: EvalCase
    docnames: tuple[str, ...]

    @property
    def rank(self) -> int | None:
        """1-based rank of the expected note, or None when it is not listed."""
        try:
            return self.docnames.index(self.case.expected) + 1
        except ValueError:
            return None


def load_cases(path: Path, repo: str = DEFAULT_REPO) -> list[EvalCase]:
    """Read the TSV: lines starting with ``# `` (hash, space) are comments.

    The expected column is a PR number of ``repo`` or a docname.
    """
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("# ")]
    rows = list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    cases = []
    for row in rows:
        expected = row["expected"]
        if re.fullmatch(r"\d+", expected):
            expected = contract.note_docname(repo, int(expected), "")
        cases.append(EvalCase(row["query"], expected, row["kind"], row.get("category") or row["kind"]))
    return cases


def recall_at(ranked: Iterable[Ranked], k: int) -> float:
    ranked = list(ranked)
    return sum(1 for r in ranked if r.rank is not None and r.rank <= k) / len(ranked)


def by_category(ranked: Sequence[Ranked]) -> str:
    """A Markdown table: recall@1 and recall@3 per category, then all."""
    groups: dict[str, list[Ranked]] = {}
    for r in ranked:
        groups.setdefault(r.case.category, []).append(r)
    lines = ["| category | queries | recall@1 | recall@3 |", "| --- | ---: | ---: | ---: |"]
    for name, rows in sorted(groups.items()) + [("all", list(ranked))]:
        lines.append(f"| {name} | {len(rows)} | {recall_at(rows, 1):.3f} | {recall_at(rows, 3):.3f} |")
    return "\n".join(lines)


def report(ranked: Sequence[Ranked]) -> str:
    """A plain-text table: one line per query, then recall@1 and recall@3."""
    lines = [f"{'rank':>4}  {'category':<18} query"]
    for r in ranked:
        lines.append(f"{r.rank or '-':>4}  {r.case.category:<18} {r.case.query}")
    lines.append(f"recall@1 = {recall_at(ranked, 1):.3f}  recall@3 = {recall_at(ranked, 3):.3f}  ({len(ranked)} queries)")
    return "\n".join(lines)
