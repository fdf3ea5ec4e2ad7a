#!/usr/bin/env python3
"""Score the classification on the evaluation sets, per repository; print the misses.

    .venv/bin/python -m bench.classify [--write BENCHMARKS.md]

Runs every file of :data:`tests.support.classifyeval.SETS` through the
converter: for each repository's set (vLLM, SGLang, PyTorch, Transformers)
and for the default set (notes of repositories without a set of their own),
an evaluation part, which the rules were tuned on, and a held-out part,
written before the rules and never used to tune them. It prints one table of
subsystem and verdict accuracy per set and part, then for each part the
accuracy by the signal that should decide and a confusion table of the
misses. With ``--write FILE`` the output goes between the markers of FILE's
``## Classification`` section (the section is appended when missing).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prnotes.model.taxonomy import load_taxonomy
from tests.support.classifyeval import SETS, load_rows, report, run, scores
from tests.support.sandbox import ROOT
from bench.markers import replace_between

BEGIN, END = "<!-- bench/classify.py: begin -->", "<!-- bench/classify.py: end -->"


def body() -> str:
    taxonomy = load_taxonomy(ROOT)
    table = [
        "| set | part | notes | subsystems | subsystem accuracy | verdict accuracy | filed under 其他 |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    details = []
    for whose, *parts in SETS:
        for part, rel in zip(("evaluation", "held-out"), parts):
            outcomes = run(load_rows(ROOT / rel), taxonomy)
            s = scores(outcomes)
            table.append(
                f"| {whose} | {part} | {s.rows} | {s.subsystems} | {s.subsystem_accuracy:.1%} | "
                f"{s.verdict_accuracy:.1%} | {s.other_share:.1%} |"
            )
            details.append(f"### {whose}, {part} part\n\n{report(outcomes, rel)}")
    return "\n".join(table) + "\n\n" + "\n\n".join(details)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="write into the '## Classification' section of this Markdown file")
    args = parser.parse_args(argv)
    text = body()
    print(text)
    if args.write:
        replace_between(args.write, BEGIN, END, text, section="Classification")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
