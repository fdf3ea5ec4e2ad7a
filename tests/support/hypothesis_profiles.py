"""Hypothesis settings for the whole suite, loaded once by ``tests/conftest.py``.

By default every run tries the same examples (``derandomize``), so a failure
repeats; ``PRNOTES_HYPOTHESIS=explore`` runs many more, randomised examples.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

EXPLORE = os.environ.get("PRNOTES_HYPOTHESIS") == "explore"


def load() -> None:
    settings.register_profile("prnotes", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("explore", deadline=None, max_examples=1000, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("explore" if EXPLORE else "prnotes")
