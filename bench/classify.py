#!/usr/bin/env python3
"""Score the classification on the evaluation sets; print the misses.

    .venv/bin/python -m bench.classify [--write BENCHMARKS.md]

Runs ``tests/classify_eval.tsv`` (the set the rules are checked against) and
``tests/classify_holdout.tsv`` (written after the rules, never used to tune
them) through the converter as ``vllm-project/vllm`` notes, and prints for
each: subsystem accuracy, verdict accuracy, the share filed under 其他, the
accuracy by the signal that should decide, and a confusion table of the
misses. With ``--write FILE`` the output goes between the markers of FILE's
``## Classification`` section (the section is appended when missing).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from prnotes.taxonomy import load_taxonomy
from tests.support.classifyeval import load_rows, report, run
from tests.support.sandbox import ROOT
from bench.markers import replace_between

SETS = (
    ("Evaluation set", "tests/classify_eval.tsv"),
    ("Held-out set", "tests/classify_holdout.tsv"),
)
BEGIN, END = "<!-- bench/classify.py: begin -->", "<!-- bench/classify.py: end -->"


def body() -> str:
    taxonomy = load_taxonomy(ROOT / "taxonomy.toml")
    parts = []
    for name, rel in SETS:
        outcomes = run(load_rows(ROOT / rel), taxonomy)
        parts.append(f"### {name}\n\n{report(outcomes, rel)}")
    return "\n\n".join(parts)


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
