"""The garbage collector is set for a build, and given back as it was."""

from __future__ import annotations

import gc

from prnotes.sphinxext import collector


def test_a_build_freezes_what_it_has_loaded_and_read_and_gives_the_collector_back():
    before, kept = gc.get_threshold(), [object() for _ in range(10)]
    collector.start(None)
    assert gc.get_threshold() == (collector.THRESHOLD, *before[1:])
    assert gc.get_freeze_count() > len(kept)
    collector.read(None, None)
    collector.end(None, None)
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_a_failed_build_gives_it_back_too():
    before = gc.get_threshold()
    collector.start(None)
    collector.end(None, RuntimeError("the build failed"))
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
