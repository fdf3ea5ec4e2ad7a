"""The site's search language: bigram Chinese plus identifier-aware English.

Registered as ``zh_prnotes`` (``html_search_language`` in ``conf.py``). The
Python side splits indexed text with :func:`.tokens.tokens`; the JavaScript
side (``search.js``, inserted into ``language_data.js``) splits queries the
same way, ranks results and highlights what the reader typed.
"""

from __future__ import annotations

from importlib import resources

import snowballstemmer
from sphinx.search import SearchLanguage
from sphinx.search._stopwords.en import ENGLISH_STOPWORDS

from .tokens import tokens

LANG = "zh_prnotes"


class SearchPrnotes(SearchLanguage):
    """Chinese by CJK bigrams; ASCII words whole and in parts; PR numbers."""

    lang = LANG
    language_name = "Chinese (bigrams)"
    # searchtools.js stems each query term with this snowball stemmer; stem()
    # below is the same algorithm, so both sides agree on every term.
    js_stemmer_rawcode = "english-stemmer.js"
    js_splitter_code = resources.files(__package__).joinpath("search.js").read_text(encoding="utf-8")
    stopwords = ENGLISH_STOPWORDS

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        self._stemmer = snowballstemmer.stemmer("english")

    def split(self, input: str) -> list[str]:
        return tokens(input)

    def stem(self, word: str) -> str:
        return self._stemmer.stemWord(word.lower())

    def word_filter(self, word: str) -> bool:
        return bool(word) and word not in self.stopwords
