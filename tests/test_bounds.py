"""The inputs of the bounds benchmark (bench/bounds.py) convert whole.

How long each takes against an input a tenth of its size is a benchmark, not
a test: BENCHMARKS.md, "Bounds". Here each class converts, at a size a test
can afford, with nothing dropped and every bad line named.
"""

from __future__ import annotations

import pytest

from bench import bounds


@pytest.mark.parametrize("case", [c for c in bounds.CASES if c.run is bounds.convert_in_memory], ids=lambda c: c.name)
def test_each_large_input_converts_with_nothing_dropped(case):
    texts = case.make(case.size // case.factor // 10)
    assert bounds.convert_in_memory(texts) > len(texts[0]) // 2


def test_every_bad_line_is_named():
    bounds.reject_bad_lines(bounds.bad_lines(1000))
