"""相似笔记: precision on the labelled pairs, and what the lists cost.

    python -m bench.similar [--sizes 1000,2000,5000] [--write BENCHMARKS.md]

1. Precision. The labelled corpus (tests/support/similareval.py: the notes of
   six fixture projects, 81 of vLLM, SGLang, PyTorch, Transformers and
   TensorRT-LLM) is built once with Sphinx; the notes' terms are read from
   its environment, exactly as the site has them, and the lists are made by
   each rule of :data:`RULES`: an absolute cut-off alone (the rule before
   issue 41) at several values, then the site's rule and the same with one
   of its numbers moved. Each row gives the (note, listed note) pairs, how
   many of them the labels hold (precision), how many notes show a section,
   and of the notes with a labelled pair they may list, how many list one.
2. Cost. For each size, a dense synthetic archive (bench/corpus.py,
   ``generate_dense``) and the day that follows it (``dense_day``): the
   terms of every note (from the model: title, advice and symbols), the
   time to index them and score every note (a first build); for the day,
   the time to index the archive again (counting every note's terms: the
   part that grows with the archive), the notes its digests make the build
   score again (:func:`prnotes.sphinxext.links.similar.rescored`, as a build
   does) and that time. CPU seconds of the process (time.process_time), medians of
   3 runs: the machine is shared, and wall times there vary by more.

With ``--write`` the tables replace those between the ``similar-table``
markers of the file.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.corpus import dense_day, generate_dense
from bench.markers import replace_between
from prnotes.model import similar
from prnotes.sphinxext.links import similar as similarnotes
from tests.support.sandbox import ROOT, convert, copy_project, sphinx_build
from tests.support.similareval import corpus_project, measure

# (label, keyword arguments of prnotes.model.similar.Index.pick); the empty one is the site's.
RULES = [
    *((f"absolute {t}", {"threshold": t, "certain": t, "standout": math.inf, "mutual": math.inf, "cited": ()}) for t in (0.05, 0.08, 0.1, 0.12, 0.15, 0.2)),
    ("the site's", {}),
    ("without the mutual rule", {"mutual": math.inf}),
    ("without the notes cited", {"cited": ()}),
    *((f"mutual {m}", {"mutual": m}) for m in (0.04, 0.05, 0.08)),
    *((f"floor {f}", {"floor": f}) for f in (0.06, 0.07, 0.08, 0.1)),
    *((f"standout {r}", {"standout": r}) for r in (1.2, 1.5, 2.0)),
    *((f"certain {c}", {"certain": c}) for c in (0.12, 0.2)),
    *((f"threshold {t}", {"threshold": t}) for t in (0.08, 0.12)),
]


def corpus_env(work: Path):
    proj = corpus_project(work / "corpus")
    assert convert(proj) == 0
    app = sphinx_build(proj)
    return app.env


def precision_rows(env) -> list[str]:
    from prnotes import contract
    from prnotes.sphinxext.facts.notes import Facts

    facts = Facts.of(env)
    terms = {d: t for d, (_, t) in sorted(similarnotes.Terms.of(env).items())}
    key = {d: contract.note_key(f.repo, f.number, d) for d, f in facts.items()}
    index = similar.Index(terms)
    subsystem_of = {d: f.subsystem for d, f in facts.items()}
    bests = {d: index.pick(d, subsystem_of).best for d in terms}
    cited = similarnotes.citations(facts, terms.keys())
    rows = []
    for label, kwargs in RULES:
        picks = {d: index.pick(d, subsystem_of, **{"cited": cited.get(d, ()), **kwargs}) for d in terms}
        lists = {key[d]: tuple(key[o] for o in pick.listed(d, bests)) for d, pick in picks.items()}
        p = measure(lists, set(key.values()))
        if label == "the site's":
            label = (
                f"**the site's**: best ≥ {similar.CERTAIN}, or ≥ {similar.FLOOR} and ≥ {similar.STANDOUT} × the next, "
                f"or each other's best and ≥ {similar.MUTUAL}; then others ≥ {similar.THRESHOLD}, then the notes cited ≥ {similar.CITED}"
            )
        rows.append(
            f"| {label} | {p.listed} | {p.agreed} | {p.precision:.0%} | {p.notes_listing} / {p.notes} ({p.notes_listing / p.notes:.0%}) "
            f"| {p.labelled_found} / {p.labelled_notes} |"
        )
    return rows


def model_terms(seeds: dict[str, str], work: Path) -> dict[str, dict[str, int]]:
    from prnotes.project import load

    proj = copy_project(work, seeds)
    site = load(proj)
    out = {}
    for note in site.notes:
        title = "".join(getattr(p, "text", "") for p in note.title_pieces)
        out[note.docname] = similar.note_terms(title, note.body, (s.name for s in note.symbols))
    return out


def cost_row(size: int, work: Path, repeat: int) -> str:
    before = model_terms(generate_dense(size), work / f"a{size}")
    after = model_terms({**generate_dense(size), **dense_day(size)}, work / f"b{size}")
    lengths = {d: similar.length(t) for d, t in after.items()}
    added = set(after) - set(before)
    full, index_times, score_times, rescored = [], [], [], 0
    for _ in range(repeat):
        start = time.process_time()
        index = similar.Index(before, lengths)
        picks, bests = similarnotes.repick(index, {}, {}, {}, set(before))
        lists = {d: p.listed(d, bests) for d, p in picks.items()}
        full.append(time.process_time() - start)
        start = time.process_time()
        index = similar.Index(after, lengths)
        middle = time.process_time()
        touched = similarnotes.rescored(index, after, added, {}, similar.cap(len(before)))
        picks, bests = similarnotes.repick(index, {}, {}, bests, touched)
        lists |= {d: p.listed(d, bests) for d, p in picks.items()}
        touched = set(picks)
        index_times.append(middle - start)
        score_times.append(time.process_time() - middle)
        rescored = len(touched)
    terms = sum(len(t) for t in after.values()) / len(after)
    return (
        f"| {size:,} | {terms:.0f} | {similar.cap(size)} | {statistics.median(full):.2f} | {len(added)} "
        f"| {statistics.median(index_times):.2f} | {rescored:,} ({rescored / len(after):.0%}) | {statistics.median(score_times):.2f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,2000,5000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--write", type=Path)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = corpus_env(work)
        precision = [
            "| rule | listed pairs | labelled | precision | notes with a section | notes with a labelled pair that list one |",
            "|---:|---:|---:|---:|---:|---:|",
            *precision_rows(env),
        ]
        cost = [
            "| notes | terms per note | cap | first build: index and score every note (s) | notes a day adds "
            "| the day: index (s) | notes scored again | scoring them (s) |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|",
            *(cost_row(int(size), work, args.repeat) for size in args.sizes.split(",")),
        ]
    text = "\n".join(["Precision on tests/similar_pairs.tsv:", "", *precision, "", "Cost (bench/corpus.py's dense archive):", "", *cost])
    print(text)
    if args.write:
        replace_between(args.write, "<!-- similar-table -->", "<!-- /similar-table -->", text, section="Similar notes")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
