"""Sphinx side of prnotes: register the PR roles and their resolver."""

from __future__ import annotations

from sphinx.application import Sphinx

from . import prlinks, search


def setup(app: Sphinx) -> dict:
    prlinks.setup(app)
    search.setup(app)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
