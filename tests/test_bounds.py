"""Resource bounds: big inputs convert in time linear in their size.

Each case converts a small input and one ten times larger, in memory (parse,
model, render), and compares the times. Linear work gives a ratio near 10; the
bound of 30 is generous for noise, while a quadratic spot gives about 100.
"""

from __future__ import annotations

import time

import pytest

from tests.support.sandbox import ROOT
from tests.support.timing import BOUND, FACTOR, growth
from prnotes.model import build_site
from prnotes.parse import parse_prs, parse_seed
from prnotes.render import render_site
from prnotes.taxonomy import load_taxonomy

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


def convert_in_memory(seed: str, prs: str) -> int:
    site = build_site(
        [parse_seed("seeds/big.txt", seed.encode())],
        parse_prs("seeds/prs.toml", prs.encode()),
        load_taxonomy(ROOT / "taxonomy.toml"),
    )
    pages = render_site(site)
    return sum(len(text) for text in pages.values())


def best_time(seed: str, prs: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        assert convert_in_memory(seed, prs) > len(seed) // 2  # nothing was dropped
        times.append(time.perf_counter() - start)
    return min(times)


@pytest.mark.parametrize(
    ("make", "large"),
    [(many_entries, 10_000), (long_body, 100_000), (big_file, 5_000_000)],
    ids=["10000-entries", "100000-char-body", "5MB-file"],
)
def test_conversion_time_is_linear(make, large):
    small_input, large_input = make(large // FACTOR), make(large)
    if make is big_file:
        assert len(large_input[0].encode()) >= 0.9 * large
    small = best_time(*small_input, runs=3)
    big = best_time(*large_input, runs=1)
    assert big < BOUND * small, f"{big:.3f}s for {FACTOR}x the input of {small:.3f}s"


def reject(data: bytes) -> None:
    from prnotes.diagnostics import InputError

    with pytest.raises(InputError) as info:
        parse_seed("seeds/bad.txt", data)
    assert len(info.value.problems) == data.count(b"\x01")  # one message per bad line


def test_rejecting_many_bad_lines_is_linear():
    def bad(lines: int) -> bytes:
        return b"o/r\n\nT\n\n" + b"x\x01\n" * lines

    # Every bad line is a Diagnostic object: timed with the garbage collector
    # off, the lowest ratio of a few tries (see tests/support/timing.py).
    ratio, measured = growth(reject, bad(20_000), bad(20_000 * FACTOR))
    assert ratio < BOUND, f"{FACTOR}x the input took {ratio:.0f}x as long: {measured}"
