"""The site's search language: bigram Chinese plus identifier-aware English.

Registered as ``zh_prnotes`` (``html_search_language`` in ``conf.py``). The
Python side splits indexed text with :func:`.tokens.tokens`; the JavaScript
side (``search.js``, inserted into ``language_data.js``) splits queries the
same way, ranks results, lists them as the reader types in the search
dialog, takes snippets from the advice and highlights what the reader typed.
It is the one script that touches searchtools.js's internals.
"""

from __future__ import annotations

import json
from importlib import resources

from sphinx.search import SearchLanguage
from sphinx.search.en import SearchEnglish

from ... import contract
from .. import _compat
from .tokens import tokens


def contract_js() -> str:
    """What the search script takes from the page contract."""
    pattern = json.dumps(f"^{contract.NOTE_DOCNAME_PATTERN}$")
    return f"const PRNOTES_NOTE_DOCNAME = new RegExp({pattern});\n"

LANG = "zh_prnotes"


class SearchPrnotes(SearchLanguage):
    """Chinese by CJK bigrams; ASCII words whole and in parts; PR numbers."""

    lang = LANG
    language_name = "Chinese (bigrams)"
    # No stemming: Sphinx's JavaScript English stemmer and the Python
    # snowballstemmer disagree on some words ("internal"), stemming mangles
    # identifiers, and the search (search.js) matches a query term inside longer
    # terms anyway ("race" finds "races"). The base class's js_stemmer_code
    # is the identity, as stem() below is.
    # search.js, after the constants it takes from the page contract and from
    # _compat (the searchtools.js functions it replaces).
    js_splitter_code = (
        contract_js() + _compat.searchtools_js() + resources.files(__package__).joinpath("search.js").read_text(encoding="utf-8")
    )
    stopwords = SearchEnglish.stopwords

    def split(self, input: str) -> list[str]:
        return tokens(input)

    def stem(self, word: str) -> str:
        return word.lower()

    def word_filter(self, word: str) -> bool:
        return bool(word) and word not in self.stopwords
