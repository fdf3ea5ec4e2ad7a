"""The classification evaluation sets (``tests/classify_*.tsv``) and their scores.

Each row becomes a note of its repository (``vllm-project/vllm`` unless the
file says ``# repo: owner/name`` or has a ``repo`` column) in one seed file
per repository, with its upstream title in ``prs.toml``, and goes through the
real converter (parse, then model), so the scores measure what the site would
show. :data:`SETS` lists the files: an evaluation part, which the rules were
tuned on, and a held-out part, which they never were, for each repository's
set and for the default set.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from prnotes.model.classify import VERDICT_BY_SLUG
from prnotes.model.site import build_site
from prnotes.parse.seeds import parse_prs, parse_seed
from prnotes.model.taxonomy import Taxonomy

REPO = "vllm-project/vllm"
NO_VERDICT = "未注明"
FIRST_NUMBER = 900001  # far from real PR numbers, so no row links to another
COLUMNS = ("area", "subsystem", "verdict", "signal", "borrows", "title", "upstream", "advice")
_REPO_COMMENT = "# repo: "
# (whose set, evaluation file, held-out file): the default set's rows name their repositories.
SETS = (
    ("vllm-project/vllm", "tests/classify_eval.tsv", "tests/classify_holdout.tsv"),
    ("sgl-project/sglang", "tests/classify_eval_sglang.tsv", "tests/classify_holdout_sglang.tsv"),
    ("pytorch/pytorch", "tests/classify_eval_pytorch.tsv", "tests/classify_holdout_pytorch.tsv"),
    ("huggingface/transformers", "tests/classify_eval_transformers.tsv", "tests/classify_holdout_transformers.tsv"),
    ("default set", "tests/classify_eval_default.tsv", "tests/classify_holdout_default.tsv"),
)


@dataclass(frozen=True)
class Row:
    area: str
    subsystem: str  # a slug of the repository's set
    verdict: str
    signal: str
    borrows: str
    title: str
    upstream: str
    advice: str
    repo: str = REPO


@dataclass(frozen=True)
class Outcome:
    row: Row
    subsystem: str
    verdict: str

    @property
    def subsystem_ok(self) -> bool:
        return self.subsystem == self.row.subsystem

    @property
    def verdict_ok(self) -> bool:
        return self.verdict == self.row.verdict


def load_rows(path: Path) -> list[Row]:
    """Read the TSV; lines starting with ``#`` are comments, but ``# repo: owner/name``,
    which names the repository of every row (else a ``repo`` column names each)."""
    text = path.read_text(encoding="utf-8").splitlines()
    named = [line.removeprefix(_REPO_COMMENT).strip() for line in text if line.startswith(_REPO_COMMENT)]
    lines = [line for line in text if line and not line.startswith("#")]
    reader = csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
    if tuple(reader.fieldnames or ()) not in (COLUMNS, (*COLUMNS, "repo")):
        raise ValueError(f"{path}: the header must be {' '.join(COLUMNS)}, and optionally repo")
    rows = []
    for row in reader:
        values = {k: (v or "").strip() for k, v in row.items()}
        values.setdefault("repo", named[0] if named else REPO)
        rows.append(Row(**values))
    return rows


def run(rows: list[Row], taxonomy: Taxonomy) -> list[Outcome]:
    """Convert the rows as one digest file per repository and read back each
    note's filing (the slug of its subsystem in its repository's set)."""
    repos = sorted({r.repo for r in rows})
    seeds, prs = [], ""
    for k, repo in enumerate(repos):
        mine = [(i, r) for i, r in enumerate(rows) if r.repo == repo]
        text = repo + "\n\n" + "".join(f"{r.title}\n\n{r.advice}\n\n" for _, r in mine)
        seeds.append(parse_seed(f"classify_eval_{k}.txt", text.encode()))
        prs += f'["{repo}"]\n' + "".join(
            f"{json.dumps(r.title, ensure_ascii=False)} = "
            f"{{ number = {FIRST_NUMBER + i}, upstream_title = {json.dumps(r.upstream, ensure_ascii=False)} }}\n"
            for i, r in mine
        )
    site = build_site(seeds, parse_prs("prs.toml", prs.encode()), taxonomy)
    by_number = {(n.repo, n.number): n for n in site.notes}
    outcomes = []
    for i, row in enumerate(rows):
        note = by_number[(row.repo, FIRST_NUMBER + i)]
        verdict = VERDICT_BY_SLUG[note.verdict].title if note.verdict else NO_VERDICT
        outcomes.append(Outcome(row, note.subsystem_slug, verdict))
    return outcomes


@dataclass(frozen=True)
class Scores:
    rows: int
    subsystem_accuracy: float
    verdict_accuracy: float
    other_share: float
    areas: int
    subsystems: int


def scores(outcomes: list[Outcome], fallback: str = "other") -> Scores:
    n = len(outcomes)
    return Scores(
        rows=n,
        subsystem_accuracy=sum(o.subsystem_ok for o in outcomes) / n,
        verdict_accuracy=sum(o.verdict_ok for o in outcomes) / n,
        other_share=sum(o.subsystem == fallback for o in outcomes) / n,
        areas=len({o.row.area for o in outcomes}),
        subsystems=len({o.row.subsystem for o in outcomes}),
    )


def report(outcomes: list[Outcome], source: str = "tests/classify_eval.tsv") -> str:
    """Markdown: the scores, accuracy by deciding signal, and every miss."""
    s = scores(outcomes)
    repos = sorted({o.row.repo for o in outcomes})
    lines = [
        f"{s.rows} notes from {s.areas} areas, expected in {s.subsystems} subsystems "
        f"(`{source}`), converted as notes of {', '.join(f'`{r}`' for r in repos)}.",
        "",
        "| measure | value |",
        "| --- | ---: |",
        f"| subsystem accuracy | {s.subsystem_accuracy:.1%} |",
        f"| verdict accuracy | {s.verdict_accuracy:.1%} |",
        f"| filed under 其他 | {s.other_share:.1%} |",
        f"| notes that borrow another area's words | {sum(1 for o in outcomes if o.row.borrows)} |",
        f"| … of them filed as expected | {sum(1 for o in outcomes if o.row.borrows and o.subsystem_ok)} |",
        "",
        "Subsystem accuracy by the signal that should decide:",
        "",
        "| signal | notes | filed as expected |",
        "| --- | ---: | ---: |",
    ]
    by_signal = Counter(o.row.signal for o in outcomes)
    right = Counter(o.row.signal for o in outcomes if o.subsystem_ok)
    for signal in ("prefix", "code", "title", "body"):
        if by_signal[signal]:
            lines.append(f"| {signal} | {by_signal[signal]} | {right[signal]} |")
    lines += ["", "Subsystem misses (expected → filed):", ""]
    misses = [o for o in outcomes if not o.subsystem_ok]
    if misses:
        lines += ["| expected | filed | count | titles |", "| --- | --- | ---: | --- |"]
        pairs = Counter((o.row.subsystem, o.subsystem) for o in misses)
        for (expected, got), count in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0])):
            titles = "；".join(o.row.title for o in misses if (o.row.subsystem, o.subsystem) == (expected, got))
            lines.append(f"| {expected} | {got} | {count} | {titles} |")
    else:
        lines.append("none")
    lines += ["", "Verdict misses (expected → read):", ""]
    vmisses = [o for o in outcomes if not o.verdict_ok]
    if vmisses:
        lines += ["| expected | read | advice opening |", "| --- | --- | --- |"]
        for o in vmisses:
            lines.append(f"| {o.row.verdict} | {o.verdict} | {o.row.advice[:40]}… |")
    else:
        lines.append("none")
    return "\n".join(lines)
