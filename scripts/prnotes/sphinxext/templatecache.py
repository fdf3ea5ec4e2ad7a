"""The HTML templates, compiled once and kept with the doctrees.

Sphinx compiles the theme's Jinja templates again in every process of every
build: a tenth of a second for each, which adding a day's digest pays in full.
Jinja's bytecode cache keeps the compiled templates in the doctree folder and
checks each against its template's source when loading it, so an edited
template is compiled again.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

from . import _compat

FOLDER = "prnotes-templates"


def cache(app: Sphinx) -> None:
    _compat.cache_templates(app.builder, Path(app.doctreedir) / FOLDER)


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", cache)
