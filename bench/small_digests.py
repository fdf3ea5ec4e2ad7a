#!/usr/bin/env python3
"""Filing of small digests of a repository without a set, on the held-out notes.

    .venv/bin/python -m bench.small_digests [--draws 80] [--seed 1] [--sizes 3-8]

A repository's first digest is small. Each draw takes 3 to 8 (``--sizes``) held-out notes
of one repository without a set (dev parts only; the sealed part is never
read), converts them as a digest of their own, and scores the filing as
``bench.heldout`` does: the areas that stay together, the areas kept apart
from the repository's other areas (a digest filed under one subsystem keeps
every area together and none apart), the areas that are both (a subsystem
that holds that area alone: what a reader of the digest wants), and the
notes under 其他.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from prnotes.model.taxonomy import load_taxonomy
from prnotes.project import load
from tests.support import heldout
from tests.support.sandbox import ROOT, copy_project

DEV_PARTS = tuple(p for p in heldout.PARTS if p != heldout.SEALED)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="3-8", help="notes per draw, LOW-HIGH (at most a repository's notes)")
    args = parser.parse_args(argv)
    known = {s.repo.lower() for s in load_taxonomy(ROOT).sets if s.repo}
    held = [n for n in heldout.notes(DEV_PARTS) if n.repo.lower() not in known]
    repos = sorted({n.repo for n in held})
    rng = random.Random(args.seed)
    low, high = (int(x) for x in args.sizes.split("-"))
    areas = together = apart = own = other = most_other = 0
    for _ in range(args.draws):
        repo = rng.choice(repos)
        pick = rng.sample([n for n in held if n.repo == repo], min(rng.randint(low, high), sum(1 for n in held if n.repo == repo)))
        with tempfile.TemporaryDirectory() as work:
            site = load(copy_project(Path(work) / "p", heldout.seeds(pick)))
        f = heldout.filing(pick, {f"{n.repo}#{n.number}": n.subsystem_slug for n in site.notes})
        areas, together, apart, own = areas + f.areas, together + f.together, apart + f.apart, own + f.own
        other, most_other = other + f.other, max(most_other, f.most_other)
    print("| draws | repositories | areas | together | kept apart | both: a subsystem of its own | filed under 其他 | most under 其他 in one draw |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(
        f"| {args.draws} | {len(repos)} | {areas} | {together} ({together / areas:.0%}) | {apart} ({apart / areas:.0%}) "
        f"| {own} ({own / areas:.0%}) | {other} | {most_other} |"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
