#!/usr/bin/env python3
"""Filing, search and 相似笔记 on the held-out data, per part (dev, sealed).

    .venv/bin/python -m bench.heldout [--no-search] [--write BENCHMARKS.md]

The held-out notes (tests/support/heldout.py) are converted and built as one
site, a digest per part and repository, beside nothing else. It prints:

1. Filing, per part: how many areas of each repository stay together (all
   their notes under one subsystem), how many are kept apart from the
   repository's other areas, how many are both (a subsystem that holds that
   area alone), and the notes filed under 其他 (all, and the
   most of one digest); the areas split, with where their notes went.
2. Search, per part and kind of question: the questions whose note is among
   the first three results of the search page (in headless Chromium, as a
   reader's browser runs it), the first result, and the questions answered
   with an empty page.
3. 相似笔记: the notes whose page points to a similar note (in the 相似笔记
   section, or with a 相似 badge on a link of its 相关 section), those that
   show the section, and of the listed pairs, how many the labels
   (tests/heldout/similar_pairs.tsv) hold.

The sealed part's figures are printed only as counts: its notes and
questions are never read while the rules are tuned.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from bench.markers import replace_between
from tests.support import heldout
from tests.support.sandbox import convert, sphinx_build

BEGIN, END = "<!-- bench/heldout.py: begin -->", "<!-- bench/heldout.py: end -->"


def filing_table(proj: Path, held: list[heldout.HeldNote]) -> tuple[str, list[str]]:
    from prnotes.project import load

    site = load(proj)
    filed = {f"{n.repo}#{n.number}": n.subsystem_slug for n in site.notes}
    lines = [
        "| part | notes | areas | together | kept apart | both | most split in one repository | split in a repository with a set | filed under 其他 | most under 其他 in one digest |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    split = []
    for part in heldout.PARTS:
        mine = [n for n in held if n.part == part]
        if not mine:
            continue  # a part of questions only (dev3)
        known = frozenset(s.repo.lower() for s in site.taxonomy.sets if s.repo)
        f = heldout.filing(mine, filed, known=known)
        lines.append(
            f"| {part} | {f.notes} | {f.areas} | {f.together} | {f.apart} | {f.own} | {f.most_split} | {f.split_known} | {f.other} | {f.most_other} |"
        )
        if part != heldout.SEALED:
            split += [f"- {part}: {s}" for s in f.split]
        elif f.split:
            split.append(f"- sealed: {len(f.split)} areas split (not shown)")
    return "\n".join(lines), split


def search_table(html: Path, held: list[heldout.HeldNote]) -> tuple[str, list[str]]:
    from prnotes import contract
    from tests.support.searchbrowser import search_page

    docname = {n.key: contract.note_docname(n.repo, n.pr, n.title) for n in held}
    questions = heldout.queries()
    ranks = []
    with search_page(html) as tab:
        for q in questions:
            found = tab.search(q.query, again=True).docnames
            target = docname[q.expected]
            ranks.append((q, found.index(target) + 1 if target in found else 0, len(found)))
    lines = [
        "| part | kind | questions | in the first 3 | first | empty page |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    misses = []
    for part in heldout.PARTS:
        mine = [r for r in ranks if r[0].part == part]
        kinds = sorted({r[0].kind for r in mine})
        for kind in [*kinds, "all"]:
            rows = [r for r in mine if kind in ("all", r[0].kind)]
            top3 = sum(1 for _, rank, _ in rows if 0 < rank <= 3)
            first = sum(1 for _, rank, _ in rows if rank == 1)
            empty = sum(1 for _, _, n in rows if n == 0)
            name = f"**{kind}**" if kind == "all" else kind
            lines.append(f"| {part} | {name} | {len(rows)} | {top3} | {first} | {empty} |")
        if part != heldout.SEALED:
            misses += [f"- {part}: `{q.query}` ({q.kind}): {'empty' if n == 0 else f'rank {rank or 'none'}'}" for q, rank, n in mine if not 0 < rank <= 3]
    return "\n".join(lines), misses


def similar_table(env, held: list[heldout.HeldNote]) -> str:
    from prnotes import contract
    from prnotes.sphinxext.links import similar as similarnotes

    key = {contract.note_docname(n.repo, n.pr, n.title): n.key for n in held}
    lists = similarnotes.lists(env)
    labels = heldout.similar_labels()
    lines = [
        "| part | notes | point to a similar note | of them in a 相似笔记 section | pairs listed | of them across parts | of the others labelled | precision | counting across parts as wrong |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    part_of = {n.key: n.part for n in held}
    # Only the parts with labelled pairs; a pair of notes of two parts has no
    # label either way (each part's writers labelled their own notes): it is
    # counted apart, and the precision is of the others, then with it as wrong.
    labelled = {part_of[k] for pair in labels for k in pair if k in part_of}
    for part in [*(p for p in heldout.PARTS if p in labelled), "all"]:
        docs = [d for d, k in key.items() if part_of[k] in labelled and part in ("all", part_of[k])]
        if not docs:
            continue  # a part of questions only (dev3)
        showing = sum(1 for d in docs if lists.get(d))
        section = sum(1 for d in docs if similarnotes.shown(env, d)[0])
        pairs = [(key[d], key.get(o)) for d in docs for o in lists.get(d, ())]
        across = sum(1 for a, b in pairs if part_of.get(b) != part_of[a])
        agreed = sum(1 for a, b in pairs if b and frozenset((a, b)) in labels)
        within = len(pairs) - across
        precision = f"{agreed / within:.0%}" if within else "–"
        strict = f"{agreed / len(pairs):.0%}" if pairs else "–"
        lines.append(
            f"| {part} | {len(docs)} | {showing} ({showing / len(docs):.0%}) | {section} ({section / len(docs):.0%}) | {len(pairs)} | {across} | {agreed} | {precision} | {strict} |"
        )
    return "\n".join(lines)


def body(search: bool = True) -> str:
    held = heldout.notes()
    with tempfile.TemporaryDirectory() as work:
        proj = heldout.project(Path(work) / "heldout")
        assert convert(proj) == 0
        filing, split = filing_table(proj, held)
        app = sphinx_build(proj)
        if app.warning.getvalue():
            print(app.warning.getvalue(), file=sys.stderr)
        similar = similar_table(app.env, held)
        out = ["Filing (the repository's areas, each labelled by its maintainers' layout):", "", filing]
        if split:
            out += ["", "Areas split (dev parts):", "", *split]
        if search:
            table, misses = search_table(proj / "_build" / "html", held)
            out += ["", "Search (the questions' notes among the search page's results):", "", table]
            if misses:
                out += ["", "Questions missed (dev parts):", "", *misses]
        out += ["", "相似笔记 (labelled pairs: tests/heldout/similar_pairs.tsv):", "", similar]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-search", action="store_true", help="leave out the search (no browser)")
    parser.add_argument("--write", type=Path, help="write into the '## Held-out data' section of this Markdown file")
    args = parser.parse_args(argv)
    text = body(search=not args.no_search)
    print(text)
    if args.write:
        replace_between(args.write, BEGIN, END, text, section="Held-out data")
    return 0


if __name__ == "__main__":
    sys.exit(main())
