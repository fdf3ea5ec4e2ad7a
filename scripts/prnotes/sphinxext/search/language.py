"""The site's search language: bigram Chinese plus identifier-aware English.

Registered as ``zh_prnotes`` (``html_search_language`` in ``conf.py``). The
Python side splits indexed text with :func:`.tokens.tokens`; the browser's
search script (:mod:`.scripts`: ``fold.js`` and the rest) splits queries the
same way, expands them (glossary, variants), ranks results over the split
index, lists them as the reader types, and marks what matched. No page loads
Sphinx's searchtools.js or language_data.js.

**The index file.** Sphinx's whole index, searchindex.js, is written as UTF-8 text instead of ``\\uXXXX`` escapes.

The browser never loads this whole index (:mod:`.split` cuts it into the
files a query needs); Sphinx reads it again in the next build to keep the
terms of the pages it does not read again, and :mod:`.publish` reads it to
split it.

Sphinx's writer escapes every non-ASCII character: six bytes for each CJK
character of every term and title, where UTF-8 needs three. The HTML builder
writes and reads the file as UTF-8 already.

Terms that no page holds any more are left out. Sphinx keeps the words of
a deleted page, with no page to go to, in every later incremental build; a
clean build has none, and an index should not depend on the pages' history.

Two characters stay escaped: U+2028 and U+2029 are valid in JSON strings but
ended a line in JavaScript before ES2019, so older browsers reject a script
that holds them raw.
"""

from __future__ import annotations

import json
from typing import Any

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


class Utf8JavaScriptIndex:
    """``Search.setIndex({...})`` with the JSON in UTF-8, keys sorted."""

    PREFIX = "Search.setIndex("
    SUFFIX = ")"

    def dumps(self, data: Any) -> str:
        if isinstance(data, dict):
            data = {key: _without_empty_terms(value) if key in ("terms", "titleterms") else value for key, value in data.items()}
        text = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
        # Outside strings JSON has no such characters, so this escapes only string content.
        text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
        return self.PREFIX + text + self.SUFFIX

    def loads(self, s: str) -> Any:
        if not s.startswith(self.PREFIX) or not s.endswith(self.SUFFIX):
            raise ValueError("invalid data")
        return json.loads(s[len(self.PREFIX) : -len(self.SUFFIX)])

    def dump(self, data: Any, f) -> None:
        f.write(self.dumps(data))

    def load(self, f) -> Any:
        return self.loads(f.read())


def _without_empty_terms(terms: Any) -> Any:
    """A term map without the terms that point to no page (``[]``)."""
    if not isinstance(terms, dict):
        return terms
    return {term: pages for term, pages in terms.items() if pages != []}
