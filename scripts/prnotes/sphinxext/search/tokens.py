"""Split text into search terms, identically for the index and the query.

``search.js`` holds the same algorithm in JavaScript (``prnotesTokens``, with
the folding of ``fold.js``); the browser tests check that both give the same
terms. Change them together.

- Text is NFKC-normalised (full-width letters and punctuation become ASCII),
  and traditional characters are folded to simplified ones
  (:mod:`.tradsimp`, OpenCC's character table), so that ``前綴緩存`` finds
  ``前缀缓存``.
- A run of CJK ideographs gives its overlapping bigrams (``前缀缓存`` ->
  ``前缀 缀缓 缓存``), or itself when it is one character long. Indexing and
  querying by bigrams needs no dictionary, and an unspaced query's bigrams are
  a subset of the bigrams of any text that contains it.
- A run of ASCII letters, digits and ``_``, joined by ``.`` or ``-``, is a word
  (``run_ci_command.py``, ``all-reduce``). It gives itself and its parts split
  at ``_ . -`` and at camel-case humps (``MambaHybridModelState``), so that
  ``none_hash`` and ``hash`` find ``resolve_none_hash_seed``. Each piece
  between dots that ``_`` or ``-`` join also gives itself written solid,
  folded as a word is (``block-wise`` -> ``blockwis``, as ``blockwise``;
  ``max_completion_tokens`` -> ``maxcompletiontoken``), so that
  ``all-reduce`` and ``allreduce``, ``maxcompletiontokens`` and
  ``max_completion_tokens`` find each other.
- A term of letters only is folded (:func:`fold`): plain English inflection
  goes, so ``cache``, ``caches``, ``cached`` and ``caching`` are all ``cach``.
  A word with ``_ . -`` or digits is kept whole as it is; its parts are
  folded like any word.
- Digits alone become ``#digits``: Sphinx's search drops all-digit terms, and
  ``#52810`` is how a PR number is written anyway. Single digits are dropped.
- Other ASCII terms shorter than two characters are dropped.
"""

from __future__ import annotations

import re
import unicodedata

from sphinx.search.en import SearchEnglish

from .tradsimp import translation

# BMP ranges only, so that JavaScript's UTF-16 strings see the same characters.
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUN = re.compile(rf"[A-Za-z0-9_]+(?:[.\-][A-Za-z0-9_]+)*|[{CJK}]+")
_PART_SEP = re.compile(r"[._\-]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z][a-z])")
_LETTERS = re.compile(r"[a-z]+")
_JOINED = re.compile(r"[_\-]+")
# Stop words are not folded: Sphinx drops them after splitting, and "does"
# folded to "doe" would no longer be one.
STOPWORDS = frozenset(SearchEnglish.stopwords)
# A plural "s" after these is part of the word: "class", "status", "analysis", "alias".
_KEEP_S = ("ss", "us", "is", "as")
_KEEP_DOUBLE = "lsz"  # "install-ing" keeps its "ll"; "run-n-ing" loses one "n"


def fold(word: str) -> str:
    """Plain English inflection off a lower-case word of letters.

    Stop words and words under four letters stay as they are. Otherwise, in
    order, each step at most once:

    1. plural: ``-ies`` -> ``-y``; else a final ``s`` goes, unless the word
       ends in ``ss us is as``;
    2. ``-ing`` or ``-ed`` (not ``-eed``: ``speed``) goes when three letters
       stay, and then a doubled final consonant (not ``l s z``) loses one:
       ``running`` -> ``run``;
    3. a final ``e`` goes when three letters stay.

    ``cache caches cached caching`` -> ``cach``; ``race races racing`` ->
    ``rac``; ``sync syncs synced`` -> ``sync``; ``quantize quantized`` ->
    ``quantiz``. Derivations (``quantization``) are not inflections and are
    left alone; the glossary relates such words where it matters.
    """
    if len(word) < 4 or word in STOPWORDS or not _LETTERS.fullmatch(word):
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(_KEEP_S):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("eed"):
            word = word[: -len(suffix)]
            if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in _KEEP_DOUBLE:
                word = word[:-1]
            break
    if word.endswith("e") and len(word) >= 4:
        word = word[:-1]
    return word


def normalize(text: str) -> str:
    """NFKC, then traditional characters folded to simplified ones."""
    return unicodedata.normalize("NFKC", text).translate(translation())


def _ascii_term(word: str, folded: bool = True) -> str | None:
    if word.isdigit():
        return f"#{word}" if len(word) >= 2 else None
    if len(word) < 2:
        return None
    return fold(word.lower()) if folded else word.lower()


def _ascii_terms(run: str) -> list[str]:
    parts = _PART_SEP.split(run)
    # The whole word; an identifier (parts or humps) stays as written.
    terms = [_ascii_term(run, folded=len(parts) == 1 and len(_CAMEL.split(run)) == 1)]
    terms.extend(_ascii_term("".join(pieces)) for piece in run.split(".") if len(pieces := _JOINED.split(piece)) > 1)
    for part in parts:
        pieces = _CAMEL.split(part)
        terms.append(_ascii_term(part, folded=len(pieces) == 1))
        if len(pieces) > 1:
            terms.extend(_ascii_term(p) for p in pieces)
    return [t for t in terms if t]


def _cjk_terms(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def tokens(text: str) -> list[str]:
    """Search terms of ``text``, in order of appearance, without repeats."""
    out: dict[str, None] = {}
    for match in _RUN.finditer(normalize(text)):
        run = match.group()
        terms = _cjk_terms(run) if "\u3400" <= run[0] else _ascii_terms(run)
        out.update(dict.fromkeys(terms))
    return list(out)
