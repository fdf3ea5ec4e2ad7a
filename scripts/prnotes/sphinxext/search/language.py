"""The site's search language: bigram Chinese plus identifier-aware English.

Registered as ``zh_prnotes`` (``html_search_language`` in ``conf.py``). The
Python side splits indexed text with :func:`.tokens.tokens`; the browser's
search script (:mod:`.scripts`: ``fold.js`` and the rest) splits queries the
same way, expands them (glossary, variants), ranks results over the split
index, lists them as the reader types, and marks what matched. No page loads
Sphinx's searchtools.js or language_data.js.
"""

from __future__ import annotations

from sphinx.search import SearchLanguage
from sphinx.search.en import SearchEnglish

from .tokens import tokens


LANG = "zh_prnotes"


class SearchPrnotes(SearchLanguage):
    """Chinese by CJK bigrams; ASCII words whole and in parts; PR numbers."""

    lang = LANG
    language_name = "Chinese (bigrams)"
    # No stemmer: Sphinx's JavaScript English stemmer and the Python
    # snowballstemmer disagree on some words ("internal"), and a full stemmer
    # mangles identifiers and conflates more than a reader expects. The
    # splitter folds plain inflection instead, in Python and JavaScript alike
    # (tokens.fold), leaving identifiers whole. stem() below is the
    # identity, as the browser's is.
    stopwords = SearchEnglish.stopwords

    def split(self, input: str) -> list[str]:
        return tokens(input)

    def stem(self, word: str) -> str:
        return word.lower()

    def word_filter(self, word: str) -> bool:
        return bool(word) and word not in self.stopwords
