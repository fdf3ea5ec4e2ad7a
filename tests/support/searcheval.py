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
        cases.append(EvalCase(row["query"], expected, row["kind"]))
    return cases


def recall_at(ranked: Iterable[Ranked], k: int) -> float:
    ranked = list(ranked)
    return sum(1 for r in ranked if r.rank is not None and r.rank <= k) / len(ranked)


def report(ranked: Sequence[Ranked]) -> str:
    """A plain-text table: one line per query, then recall@1 and recall@3."""
    lines = [f"{'rank':>4}  {'kind':<24} query"]
    for r in ranked:
        lines.append(f"{r.rank or '-':>4}  {r.case.kind:<24} {r.case.query}")
    lines.append(f"recall@1 = {recall_at(ranked, 1):.3f}  recall@3 = {recall_at(ranked, 3):.3f}  ({len(ranked)} queries)")
    return "\n".join(lines)
