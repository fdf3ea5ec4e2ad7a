"""Split text into search terms, identically for the index and the query.

``search.js`` holds the same algorithm in JavaScript (``prnotesTokens``); the
browser tests check that both give the same terms. Change them together.

- Text is NFKC-normalised (full-width letters and punctuation become ASCII).
- A run of CJK ideographs gives its overlapping bigrams (``前缀缓存`` ->
  ``前缀 缀缓 缓存``), or itself when it is one character long. Indexing and
  querying by bigrams needs no dictionary, and an unspaced query's bigrams are
  a subset of the bigrams of any text that contains it.
- A run of ASCII letters, digits and ``_``, joined by ``.`` or ``-``, is a word
  (``run_ci_command.py``, ``all-reduce``). It gives itself and its parts split
  at ``_ . -`` and at camel-case humps (``MambaHybridModelState``), so that
  ``none_hash`` and ``hash`` find ``resolve_none_hash_seed``.
- Digits alone become ``#digits``: Sphinx's search drops all-digit terms, and
  ``#52810`` is how a PR number is written anyway. Single digits are dropped.
- Other ASCII terms shorter than two characters are dropped.
"""

from __future__ import annotations

import re
import unicodedata

# BMP ranges only, so that JavaScript's UTF-16 strings see the same characters.
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUN = re.compile(rf"[A-Za-z0-9_]+(?:[.\-][A-Za-z0-9_]+)*|[{CJK}]+")
_PART_SEP = re.compile(r"[._\-]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z][a-z])")


def _ascii_term(word: str) -> str | None:
    if word.isdigit():
        return f"#{word}" if len(word) >= 2 else None
    return word.lower() if len(word) >= 2 else None


def _ascii_terms(run: str) -> list[str]:
    terms = [_ascii_term(run)]
    for part in _PART_SEP.split(run):
        pieces = _CAMEL.split(part)
        terms.append(_ascii_term(part))
        if len(pieces) > 1:
            terms.extend(_ascii_term(p) for p in pieces)
    return [t for t in terms if t]


def _cjk_terms(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def tokens(text: str) -> list[str]:
    """Search terms of ``text``, in order of appearance, without repeats."""
    text = unicodedata.normalize("NFKC", text)
    out: dict[str, None] = {}
    for match in _RUN.finditer(text):
        run = match.group()
        terms = _cjk_terms(run) if "\u3400" <= run[0] else _ascii_terms(run)
        out.update(dict.fromkeys(terms))
    return list(out)
