"""The search's two scripts: the loader every page holds, and the search script.

The search script is this package's JavaScript (``fold.js``, ``index.js``,
``rank.js``, ``mark.js``, ``ui.js``, in that order) after the data it needs,
written once per build into ``_search/`` under a name that holds its hash, so
a browser keeps it across builds until it changes. The loader (``loader.js``)
is inline on every page and loads it when a search starts.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from importlib import resources

from ... import contract
from . import glossary, tradsimp
from .tokens import STOPWORDS

PARTS = ("fold.js", "index.js", "rank.js", "mark.js", "ui.js")
_LEADING_COMMENT = re.compile(r"\A/\*.*?\*/\s*", re.DOTALL)


def _script(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def data_js() -> str:
    """What the scripts take from the page contract, tradsimp.json, glossary.toml and the stop words."""
    table = tradsimp.table()
    pattern = json.dumps(f"^{contract.NOTE_DOCNAME_PATTERN}$")
    return (
        f"const PRNOTES_NOTE_DOCNAME = new RegExp({pattern});\n"
        f"const PRNOTES_STOPWORDS = new Set({json.dumps(sorted(STOPWORDS))});\n"
        f"const PRNOTES_TRADITIONAL = {json.dumps(table['traditional'], ensure_ascii=False)};\n"
        f"const PRNOTES_SIMPLIFIED = {json.dumps(table['simplified'], ensure_ascii=False)};\n"
        + glossary.load().js()
    )


@functools.cache
def search_script() -> str:
    return data_js() + "".join(_script(name) for name in PARTS)


def search_script_name() -> str:
    """``search-<hash>.js``."""
    return f"search-{hashlib.sha256(search_script().encode()).hexdigest()[:12]}.js"


@functools.cache
def loader_script() -> str:
    """loader.js without its leading comment."""
    return _LEADING_COMMENT.sub("", _script("loader.js"))
