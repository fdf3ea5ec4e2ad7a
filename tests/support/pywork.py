"""The work prnotes' own Python code does, counted: lines executed.

:mod:`tests.support.regexwork` counts the steps of the project's regular
expressions; a loop in Python that compares every match of a title with
every other (issue 45) does no regular-expression work at all. This counts
every line of the package's code that starts, every call and generator
resumption of its functions and every jump or branch in them
(``sys.monitoring``; any other code is counted not at all and, after its
first run, costs nothing): a deterministic proxy for the time the package's
own Python takes, in which a step quadratic in its input counts
quadratically.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PACKAGE = str(Path(__file__).resolve().parents[2] / "scripts" / "prnotes") + "/"
_TOOL = 4  # a tool id no debugger, coverage tool or profiler takes (0, 1, 2, 5)


class Lines:
    """A counter of the package's work: lines, calls and loop steps run."""

    def __init__(self) -> None:
        self.steps = 0


@contextmanager
def counting_lines(work: Lines, package: str = PACKAGE) -> Iterator[Lines]:
    """While the block runs, add one to ``work.steps`` for each line of ``package``
    that starts, each call (and generator resumption) of its functions, and each
    jump or branch in them: a loop on one line (``any(… for o in matches)``)
    counts each of its steps."""
    monitoring = sys.monitoring
    events = monitoring.events
    disable = monitoring.DISABLE
    ours: dict[object, bool] = {}

    def step(code, *args):
        mine = ours.get(code)
        if mine is None:
            mine = ours[code] = code.co_filename.startswith(package)
        if not mine:
            return disable
        work.steps += 1
        return None

    watched = (events.LINE, events.PY_START, events.PY_RESUME, events.JUMP, events.BRANCH)
    monitoring.use_tool_id(_TOOL, "prnotes-pywork")
    try:
        for event in watched:
            monitoring.register_callback(_TOOL, event, step)
        monitoring.restart_events()  # what an earlier count disabled counts again
        monitoring.set_events(_TOOL, sum(watched))
        yield work
    finally:
        monitoring.set_events(_TOOL, 0)
        for event in watched:
            monitoring.register_callback(_TOOL, event, None)
        monitoring.free_tool_id(_TOOL)
