"""Ratio-based time checks: how much longer a larger input takes.

Absolute times depend on the machine; a ratio does not. Linear work on
``factor`` times the input takes about ``factor`` times as long, quadratic
work about ``factor²`` times: :func:`linear_bound` lies between the two.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


def linear_bound(factor: int) -> float:
    """The highest ratio that still counts as linear: three times ``factor``, room for noise."""
    return 3 * factor


FACTOR = 10
BOUND = linear_bound(FACTOR)


def fastest(fn: Callable[[Any], Any], arg: Any, runs: int) -> float:
    """The shortest of ``runs`` timings of ``fn(arg)``, in seconds, garbage collector off (as timeit does)."""
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


def growth(fn: Callable[[Any], Any], small: Any, large: Any, bound: float = BOUND, trials: int = 3) -> tuple[float, str]:
    """The time of ``fn(large)`` over that of ``fn(small)``, and the times it came from.

    Other work on the machine can make one measurement look worse but cannot
    make quadratic work look linear, so up to ``trials`` measurements are
    taken and the lowest ratio counts; it stops at the first one under ``bound``.
    """
    best = float("inf"), ""
    for _ in range(trials):
        small_s, large_s = fastest(fn, small, 5), fastest(fn, large, 3)
        ratio = large_s / small_s
        if ratio < best[0]:
            best = ratio, f"{large_s:.3f}s for the large input, {small_s:.4f}s for the small one"
        if ratio < bound:
            break
    return best
