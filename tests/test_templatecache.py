"""The HTML templates are compiled once, and again when one changes."""

from __future__ import annotations

from pathlib import Path

import jinja2

from prnotes.sphinxext import templatecache
from tests.support.sandbox import sphinx_build

CONF = """\
exclude_patterns = ["_build"]
templates_path = ["_templates"]
def setup(app):
    from prnotes.sphinxext import templatecache
    templatecache.setup(app)
"""


def _project(root: Path) -> Path:
    (root / "_templates").mkdir(parents=True)
    (root / "conf.py").write_text(CONF, encoding="utf-8")
    (root / "index.rst").write_text("Home\n====\n\ntext\n", encoding="utf-8")
    (root / "_templates" / "layout.html").write_text('{% extends "!layout.html" %}\n', encoding="utf-8")
    return root


def _compiled(root: Path, monkeypatch) -> list[str]:
    """Build from scratch (the pages, not the cache); the templates Jinja compiled."""
    names = []
    original = jinja2.Environment.compile

    def compile(self, source, name=None, filename=None, *args, **kwargs):
        if name is not None:
            names.append(name)
        return original(self, source, name, filename, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(jinja2.Environment, "compile", compile)
        sphinx_build(root, freshenv=True)
    return sorted(names)


def test_a_second_build_loads_the_templates_and_an_edited_one_is_compiled_again(tmp_path, monkeypatch):
    root = _project(tmp_path / "proj")
    first = _compiled(root, monkeypatch)
    assert "layout.html" in first and "!layout.html" in first
    assert sorted(p.suffix for p in (root / "_build" / "doctrees" / templatecache.FOLDER).iterdir()) == [".cache"] * len(first)
    assert _compiled(root, monkeypatch) == []
    (root / "_templates" / "layout.html").write_text('{% extends "!layout.html" %}\n{# edited #}\n', encoding="utf-8")
    assert _compiled(root, monkeypatch) == ["layout.html"]
