"""The site's search language: bigram Chinese plus identifier-aware English.

Registered as ``zh_prnotes`` (``html_search_language`` in ``conf.py``). The
Python side splits indexed text with :func:`.tokens.tokens`; the JavaScript
side (``search.js`` and ``fold.js``, inserted into ``language_data.js``)
splits queries the same way, expands them (glossary, variants), ranks
results, lists them as the reader types in the search dialog, takes
snippets from the advice and highlights what the reader typed. ``search.js``
is the one script that touches searchtools.js's internals.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

from sphinx.search import SearchLanguage
from sphinx.search.en import SearchEnglish

from ... import contract
from .. import _internals
from . import glossary, tradsimp
from .tokens import tokens


def contract_js() -> str:
    """What the search script takes from the page contract."""
    pattern = json.dumps(f"^{contract.NOTE_DOCNAME_PATTERN}$")
    return f"const PRNOTES_NOTE_DOCNAME = new RegExp({pattern});\n"


def _script(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def fold_data_js() -> str:
    """What fold.js takes from tradsimp.json and glossary.toml."""
    table = tradsimp.table()
    return (
        f"const PRNOTES_TRADITIONAL = {json.dumps(table['traditional'], ensure_ascii=False)};\n"
        f"const PRNOTES_SIMPLIFIED = {json.dumps(table['simplified'], ensure_ascii=False)};\n"
        + glossary.load().js()
    )


@functools.cache
def splitter_js() -> str:
    """language_data.js's splitter code: search.js, after the constants it
    takes from the page contract and from _internals (the searchtools.js
    functions it replaces), then fold.js with its data."""
    return contract_js() + _internals.searchtools_js() + _script("search.js") + fold_data_js() + _script("fold.js")


LANG = "zh_prnotes"


class SearchPrnotes(SearchLanguage):
    """Chinese by CJK bigrams; ASCII words whole and in parts; PR numbers."""

    lang = LANG
    language_name = "Chinese (bigrams)"
    # No stemmer: Sphinx's JavaScript English stemmer and the Python
    # snowballstemmer disagree on some words ("internal"), and a full stemmer
    # mangles identifiers and conflates more than a reader expects. The
    # splitter folds plain inflection instead, in Python and JavaScript alike
    # (tokens.fold), leaving identifiers whole. The base class's
    # js_stemmer_code is the identity, as stem() below is.
    stopwords = SearchEnglish.stopwords

    @property
    def js_splitter_code(self) -> str:  # read when language_data.js is written
        return splitter_js()

    def split(self, input: str) -> list[str]:
        return tokens(input)

    def stem(self, word: str) -> str:
        return word.lower()

    def word_filter(self, word: str) -> bool:
        return bool(word) and word not in self.stopwords
