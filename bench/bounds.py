#!/usr/bin/env python3
"""Input-size bounds: each class of large input, against one a tenth (or a
thirtieth) of its size, converted in memory (parse, model, render); and the
Sphinx build of hostile input against plain input of the same size.

    python -m bench.bounds [--write BENCHMARKS.md]

Linear work gives a ratio near the size factor; a quadratic spot gives about
its square. Each ratio is the lowest of three measurements (other work on the
machine can make one look worse, never make quadratic work look linear),
each the fastest of a few runs with the garbage collector off. The table is
printed, and with ``--write`` replaces the "Bounds" section of that file.
"""

from __future__ import annotations

import argparse
import gc
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.markers import replace_between
from prnotes.model.site import build_site
from prnotes.parse.seeds import parse_prs, parse_seed
from prnotes.parse.refs import code_spans
from prnotes.render import render_pages
from prnotes.model.taxonomy import load_taxonomy
from tests.support.sandbox import TAXONOMY

BEGIN, END = "<!-- bounds:begin -->", "<!-- bounds:end -->"

# Text that has tripped regular expressions before: runs that a pattern could
# rescan from every position (``a-a-a-``, spaces, backticks), references,
# alias words, markup, Chinese and full-width punctuation.
HOSTILE = (
    "值得精读。a-b-c-d-e-f-g-h " + " " * 40 + "o/r#12 `#34` aiter 侧 issue #56，"
    "``x`y`` ` [a](b) {role}`t` $m$ <i>|*_ 1. > # % (l)= +++ \\ 😀\u200b　，。；！？"
)


def _seed(titles_bodies: list[tuple[str, str]]) -> str:
    return "o/r\n\n" + "".join(f"{title}\n\n{body}\n\n" for title, body in titles_bodies)


def many_entries(n: int) -> tuple[str, str]:
    """``n`` short entries, half numbered by their title, half by prs.toml."""
    entries = [(f"标题 {i} {HOSTILE[:20]}" + (f" (#{i + 1})" if i % 2 else ""), HOSTILE) for i in range(n)]
    prs = '["o/r"]\n' + "".join(
        f'"{title}" = {{ number = {i + 1}, upstream_title = "t {i}" }}\n'
        for i, (title, _) in enumerate(entries)
        if not i % 2
    )
    return _seed(entries), prs


def many_areas(n: int) -> tuple[str, str]:
    """``n`` entries of a repository without a set, citing ``n / 4`` areas of it: half
    by a path, half by an identifier only (the grouping of :mod:`prnotes.model.grouping`)."""
    entries = []
    for i in range(n):
        area = f"area{(i * 7919) % max(1, n // 4)}"
        code = f"`src/{area}/mod_{i}.py` 的 `{area}_helper_{i}()`" if i % 2 else f"`{area}_fn_{i}()` 与 `Other{i}Thing`"
        entries.append((f"改动 {i} (#{i + 1})", f"值得快速浏览。{code}。"))
    return _seed(entries), ""


def long_body(n: int) -> tuple[str, str]:
    """One entry whose body is one line of ``n`` characters, half of it a ``a-a-…`` run."""
    body = (HOSTILE * (n // 2 // len(HOSTILE) + 1))[: n // 2] + "a-" * (n // 4)
    title = "长标题" + " " * (n // 10) + "x (#1)"
    return _seed([(title, body)]), ""


def big_file(n_bytes: int) -> tuple[str, str]:
    """A seed file of about ``n_bytes``, in entries of about 5 KB each."""
    body = "\n".join([HOSTILE] * 40)
    count = max(1, n_bytes // len(_seed([("标题 00000", body)]).encode()))
    return _seed([(f"标题 {i} (#{i + 1})", body) for i in range(count)]), ""


def convert_in_memory(texts: tuple[str, str]) -> int:
    seed, prs = texts
    site = build_site(
        [parse_seed("seeds/big.txt", seed.encode())],
        parse_prs("seeds/prs.toml", prs.encode()),
        load_taxonomy(TAXONOMY / "taxonomy.toml"),
    )
    return sum(len(text) for text in render_pages(site).pages.values())


def reject_bad_lines(data: bytes) -> None:
    from prnotes.diagnostics import InputError

    try:
        parse_seed("seeds/bad.txt", data)
    except InputError as exc:
        assert len(exc.problems) == data.count(b"\x01")  # one message per bad line
    else:
        raise AssertionError("bad lines were accepted")


def bad_lines(lines: int) -> bytes:
    return b"o/r\n\nT\n\n" + b"x\x01\n" * lines


def closed_far_away(n: int) -> str:
    """``n`` runs of 1 to 50 backticks: each opener's partner is 50 runs on."""
    return "".join("`" * (i % 50 + 1) + "x" for i in range(n))


def never_closed(n: int) -> str:
    """Openers of distinct widths that nothing closes, then ``n`` single backticks."""
    return "".join("`" * w + "y" for w in range(2, math.isqrt(n) + 2)) + "`x" * n


def repeated_phrase(unit: str, before: str = "") -> Callable[[int], tuple[str, str]]:
    """One entry whose second sentence is ``before`` and ``unit`` repeated to ``n`` characters:
    a phrase that starts a scan to the end of its clause or sentence (issue 30)."""

    def make(n: int) -> tuple[str, str]:
        return _seed([("A CI (#1)", f"值得精读。{before}{unit * (n // len(unit))}。")]), ""

    return make


@dataclass(frozen=True)
class Case:
    name: str
    run: Callable[[Any], Any]
    make: Callable[[int], Any]
    size: int  # of the large input
    factor: int


CASES = (
    Case("10,000 entries", convert_in_memory, many_entries, 10_000, 10),
    Case("10,000 entries citing 2,500 areas of a repository without a set", convert_in_memory, many_areas, 10_000, 10),
    Case("a 100,000-character body", convert_in_memory, long_body, 100_000, 10),
    Case("a 5 MB seed file", convert_in_memory, big_file, 5_000_000, 10),
    Case("200,000 bad lines rejected", reject_bad_lines, bad_lines, 200_000, 10),
    Case("code spans: 300,000 runs closed far away", code_spans, closed_far_away, 300_000, 30),
    Case("code spans: 300,000 never closed", code_spans, never_closed, 300_000, 30),
    Case("a 300,000-character sentence of 如果，", convert_in_memory, repeated_phrase("如果，"), 300_000, 10),
    Case("a 300,000-character sentence of 关注", convert_in_memory, repeated_phrase("关注"), 300_000, 10),
    Case("a 300,000-character follow-up: 跟进长期长期…", convert_in_memory, repeated_phrase("长期", "跟进"), 300_000, 10),
)


def fastest(fn: Callable[[Any], Any], arg: Any, runs: int) -> float:
    times = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            start = time.perf_counter()
            fn(arg)
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return min(times)


def measure(case: Case, trials: int = 3) -> tuple[float, float, float]:
    """(small seconds, large seconds, the lowest ratio of ``trials``)."""
    small_input, large_input = case.make(case.size // case.factor), case.make(case.size)
    best = (0.0, 0.0, float("inf"))
    for _ in range(trials):
        small, large = fastest(case.run, small_input, 3), fastest(case.run, large_input, 1)
        if large / small < best[2]:
            best = (small, large, large / small)
    return best


def table(rows: list[tuple[Case, tuple[float, float, float]]]) -> str:
    lines = [
        "| input | size factor | small (s) | large (s) | ratio | linear would be | quadratic would be |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for case, (small, large, ratio) in rows:
        lines.append(
            f"| {case.name} | {case.factor} | {small:.4f} | {large:.3f} | {ratio:.1f} | {case.factor} | {case.factor**2} |"
        )
    return "\n".join(lines)


# --- against plain input of the same size (where a stage has a fixed cost) -------


def references(n: int) -> dict[str, str]:
    """One note whose advice is one paragraph of ``n`` PR references (issue 30)."""
    return {"000.txt": "o/r\n\nA CI (#1)\n\n值得精读：" + "".join(f"见 #{i + 2}，" for i in range(n)) + "完。\n"}


def plain_like(hostile: Callable[[int], dict[str, str]]) -> Callable[[int], dict[str, str]]:
    """The same seed with its advice's characters replaced by plain Chinese text, length kept."""

    def make(n: int) -> dict[str, str]:
        seeds = hostile(n)
        head, _, body = seeds["000.txt"].partition("值得精读：")
        text = "一二三四五六七，" * (len(body) // 8 + 1)
        return {"000.txt": head + "值得精读：" + text[: len(body) - 1] + "\n"}

    return make


def sphinx_seconds(seeds: dict[str, str]) -> float:
    """A fresh HTML build of a project with these seeds, in seconds (the conversion not counted)."""
    import tempfile

    from tests.support.committed import commit_everything
    from tests.support.sandbox import convert, copy_project, sphinx_build

    with tempfile.TemporaryDirectory() as tmp:
        proj = copy_project(Path(tmp) / "p", seeds)
        assert convert(proj) == 0
        commit_everything(proj)
        start = time.perf_counter()
        sphinx_build(proj, freshenv=True)
        return time.perf_counter() - start


@dataclass(frozen=True)
class Against:
    """A hostile input and a plain one of the same size, at two sizes."""

    name: str
    seconds: Callable[[Any], float]
    make: Callable[[int], Any]
    plain: Callable[[int], Any]
    size: int
    factor: int


AGAINST = (Against("Sphinx: a paragraph of 8,000 PR references", sphinx_seconds, references, plain_like(references), 8_000, 4),)


def measure_against(case: Against, trials: int = 2) -> tuple[float, float, float, float]:
    """(plain seconds, hostile seconds, their ratio, the ratio at 1/factor the size); the lowest of ``trials``."""
    out = []
    for size in (case.size, case.size // case.factor):
        plain = min(case.seconds(case.plain(size)) for _ in range(trials))
        hostile = min(case.seconds(case.make(size)) for _ in range(trials))
        out.append((plain, hostile, hostile / plain))
    return (*out[0], out[1][2])


def against_table(rows: list[tuple[Against, tuple[float, float, float, float]]]) -> str:
    lines = [
        "| input | plain, same size (s) | hostile (s) | ratio | ratio at 1/factor the size | size factor |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for case, (plain, hostile, ratio, smaller) in rows:
        lines.append(f"| {case.name} | {plain:.1f} | {hostile:.1f} | {ratio:.1f} | {smaller:.1f} | {case.factor} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", type=Path, help="replace the Bounds section of this file (BENCHMARKS.md)")
    args = parser.parse_args(argv)
    text = table([(case, measure(case)) for case in CASES])
    text += (
        "\n\nAgainst a plain input of the same size, where a stage's fixed cost would hide a ratio of sizes: "
        "linear work keeps the ratio about the same at both sizes, quadratic work multiplies it by about the "
        "size factor.\n\n"
    ) + against_table([(case, measure_against(case)) for case in AGAINST])
    print(text)
    if args.write:
        replace_between(args.write, BEGIN, END, text, section="Bounds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
