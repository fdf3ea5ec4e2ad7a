"""Split the whole search index into the small files a query loads.

Sphinx's indexer, fed by the site's search language, gives one index of
every page (``searchindex.js``): page names and titles, and for each term the
pages that have it in a title and in the text. A reader's query needs a
sliver of it, so the browser never loads it whole (as Pagefind does with its
own index). :func:`split` turns it into:

- ``entry.json``: what every search needs first, a few KB whatever the site's
  size: how many pages there are, how many of them are notes, how many term
  chunks, key buckets and typo buckets, the size of each key bucket, the
  filter values, and the hub pages whose title another hub page has already.
- ``t/<k>.json``: term chunk ``k``, the terms whose CRC-32 (of their UTF-8)
  modulo the chunk count is ``k``: ``{term: [title pages, text pages]}``,
  and for a term under which bilingual pairs are stored (:mod:`.pairs`), a
  third item, ``[[phrase, [partners]], …]``: a query that holds the term
  loads its chunk anyway, so the pairs cost no file of their own. Under
  the key ``""`` (never a term), the English words of the dictionary
  (:func:`.pairs.translate`) that hash to ``k``, each with the Chinese
  words of the notes it translates: ``{"": {word: [Chinese words]}}``; a
  query loads the chunk of each of its words, so these cost no file either.
- ``g/<k>.json``: key bucket ``k``: the ASCII terms whose letters (``_ . -``
  taken out) hold a three-character gram that hashes to ``k``, as
  ``{"t": [title terms], "b": [text terms]}``. The search matches a typed
  identifier inside the index's terms (``pybind`` in ``pybind11``,
  ``nonehash`` in ``resolve_none_hash_seed``): every term that holds a word
  holds each of its grams, so one bucket (the smallest of the word's grams)
  lists every candidate.
- ``e/<k>.json``: typo bucket ``k``: for each ASCII term of
  :data:`TYPO_SHORTEST` to :data:`TYPO_LONGEST` letters once ``_ . -`` are
  taken out, each of its one-edit keys (the squashed term, and the squashed
  term with one letter left out) in the bucket that key hashes to, as
  ``{key: [terms]}``. Two words one edit apart (an insertion, a deletion, a
  substitution or a swap of two adjacent letters) share a key, so a word of
  five to eight letters that no term holds finds every term one edit off it
  in the buckets of its own keys (index.js's ``near``). Longer words, which
  may be two edits off, find their candidates in the key buckets instead:
  a term within two edits holds one of the word's thirds unchanged.
- ``d/<k>.json``: page shard ``k``, pages ``k * SHARD`` on: ``[docname,
  title]``, and for a note also its verdict, repository, number, date and
  subsystem, for the result rows.
- ``f/<name>.json``: one filter (verdict, repo, subsystem): a string with one
  code character per page, loaded only when the reader filters by it.

Pages are numbered notes first, then the other pages, each group by title
(then docname), so the ranking's tie-break by title is the order of the
numbers, and "is a note" is "number below the note count". Page lists are
sorted page numbers written as gaps (:func:`encode_ids`).

The snippet text of each page is not here: :mod:`.fragments` writes it per
page. ``search.js`` reads all of these; :data:`FORMAT` changes with them.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ... import contract

FORMAT = 4
# The key of a term chunk under which the dictionary's English words are (no term is empty).
DICTIONARY_KEY = ""
# Page numbers are written as gaps in base 32, most significant digit first:
# every digit but the last from MORE, the last from LAST.
LAST = "0123456789abcdefghijklmnopqrstuv"
MORE = "wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"
SHARD = 16  # pages per page shard
CHUNK_BYTES = 12_000  # the term chunks' mean size aimed at (bytes of JSON)
BUCKET_KEYS = 400  # the key buckets' mean size aimed at (terms listed)
GRAM = 3
TYPO_BYTES = 6_000  # the typo buckets' mean size aimed at (bytes of JSON)
# The terms a word of 5 to 8 letters may be one edit off (index.js's PRNOTES_TYPO_*).
TYPO_SHORTEST, TYPO_LONGEST = 4, 9
_CJK = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_SQUASH = re.compile(r"[._\-]")
# Filter codes: a value's number in base len(CODES), as wide as the filter's
# most values need (one character up to 91 values, two up to 8,281: many
# repositories' subsystems), per page; a page without the fact has NO_CODE.
CODES = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&()*+,-./:;<=>?@[]^_`{|}~"
NO_CODE = " "
FILTERS = ("verdict", "repo", "subsystem")  # the URL parameters, as the list pages use them


def code_width(values: int) -> int:
    """How many characters a filter of ``values`` values codes each page with (index.js's prnotesCodeWidth)."""
    width = 1
    while len(CODES) ** width < values:
        width += 1
    return width


def filter_code(number: int, width: int) -> str:
    """Value ``number`` of a filter, in ``width`` characters of :data:`CODES`, the most significant first."""
    digits = []
    for _ in range(width):
        number, digit = divmod(number, len(CODES))
        digits.append(CODES[digit])
    return "".join(reversed(digits))


def encode_ids(ids: Iterable[int]) -> str:
    """Sorted distinct page numbers as their gaps: ``[0, 1, 2, 40]`` -> ``"000x6"``."""
    out: list[str] = []
    previous = -1
    for n in ids:
        gap = n - previous - 1
        if gap < 0:
            raise ValueError("page numbers must be sorted and distinct")
        previous = n
        digits = [LAST[gap & 31]]
        gap >>= 5
        while gap:
            digits.append(MORE[gap & 31])
            gap >>= 5
        out.extend(reversed(digits))
    return "".join(out)


def bucket_of(text: str, count: int) -> int:
    """The chunk or bucket of a term or gram: CRC-32 of its UTF-8, modulo ``count``."""
    return zlib.crc32(text.encode("utf-8")) % count


def squash(term: str) -> str:
    """A term without ``_ . -`` (fold.js's prnotesSquash)."""
    return _SQUASH.sub("", term)


def grams(term: str) -> set[str]:
    """The three-character grams of a squashed term (none for a shorter one)."""
    s = squash(term)
    return {s[i : i + GRAM] for i in range(len(s) - GRAM + 1)}


def is_ascii_term(term: str) -> bool:
    """Whether a term is of the kind a typed word may match inside (not CJK)."""
    return _CJK.search(term) is None


def typo_keys(term: str) -> set[str]:
    """A term's one-edit keys: its squashed form, and that with one letter left out."""
    s = squash(term)
    return {s} | {s[:i] + s[i + 1 :] for i in range(len(s))}


def _power_of_two(n: float) -> int:
    count = 1
    while count < n:
        count *= 2
    return count


def _json(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    # Valid JSON, but no line terminator a JavaScript parser could trip on.
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _utf16(text: str) -> bytes:
    """A sort key that orders as JavaScript compares strings (UTF-16 code units)."""
    return text.encode("utf-16-be", "surrogatepass")


@dataclass(frozen=True)
class NoteRow:
    """What a result row shows of a note besides its title, and what it is filtered by."""

    verdict: str  # the Chinese verdict word (精读)
    repo: str  # owner/repo
    number: int | None
    date: str  # YYYY-MM-DD, or the placeholder of an uncommitted digest
    subsystem: str  # the subsystem's key (prnotes.contract.subsystem_key: its slug for vLLM)


@dataclass(frozen=True)
class Split:
    entry: dict
    files: dict[str, str]  # path under the version folder -> text

    @property
    def version(self) -> str:
        return self.entry["version"]


def _pages(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    return list(zip(data["docnames"], data["titles"], strict=True))


def page_order(pages: list[tuple[str, str]]) -> list[int]:
    """Sphinx's page numbers in the split's order: notes, then the rest, each by title, then docname."""
    return sorted(
        range(len(pages)),
        key=lambda i: (not contract.is_note_docname(pages[i][0]), _utf16(pages[i][1]), _utf16(pages[i][0])),
    )


def _postings(value: Any) -> list[int]:
    return [value] if isinstance(value, int) else list(value)


def joined(data: Mapping[str, Any], other: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``data`` (a whole index) with the notes and digests of ``other`` (the
    whole index of another build of the site) that it lacks, and their
    docnames: what one build of both would index (docnames, titles, terms,
    title terms)."""
    have = set(data["docnames"])
    take = [i for i, d in enumerate(other["docnames"]) if d not in have and (contract.is_note_docname(d) or contract.is_digest_docname(d))]
    new_id = {i: len(data["docnames"]) + k for k, i in enumerate(take)}
    out = {**data, "docnames": [*data["docnames"], *(other["docnames"][i] for i in take)]}
    out["titles"] = [*data["titles"], *(other["titles"][i] for i in take)]
    for key in ("terms", "titleterms"):
        merged = {term: _postings(value) for term, value in data[key].items()}
        for term, value in other[key].items():
            if ids := [new_id[i] for i in _postings(value) if i in new_id]:
                merged[term] = sorted({*merged.get(term, ()), *ids})
        out[key] = merged
    return out, [other["docnames"][i] for i in take]


def split(
    data: Mapping[str, Any],
    notes: Mapping[str, NoteRow],
    subsystems: Mapping[str, str],
    verdicts: tuple[str, ...],
    links: Mapping[str, list] | None = None,
    translations: Mapping[str, list[str]] | None = None,
) -> Split:
    """The split index of Sphinx's index ``data`` (the dict searchindex.js holds).

    ``notes`` gives each note's row facts by docname, ``subsystems`` each
    subsystem's name by slug, ``verdicts`` the verdict words in their order,
    ``links`` the bilingual pairs by the term they are stored under
    (:func:`.pairs.links`; a term the index lacks keeps none),
    ``translations`` the dictionary's English words with the Chinese words
    each stands for (:func:`.pairs.translate`).
    """
    pages = _pages(data)
    order = page_order(pages)
    new_id = {old: new for new, old in enumerate(order)}
    docnames = [pages[old][0] for old in order]
    titles = [pages[old][1] for old in order]
    note_count = sum(1 for d in docnames if contract.is_note_docname(d))

    # Terms: {term: [title pages, text pages]} in the new numbering.
    merged: dict[str, list[list[int]]] = {}
    for slot, key in ((0, "titleterms"), (1, "terms")):
        for term, value in data[key].items():
            ids = sorted(new_id[i] for i in _postings(value))
            if ids:
                merged.setdefault(term, [[], []])[slot] = ids
    encoded: dict[str, list] = {term: [encode_ids(t), encode_ids(b)] for term, (t, b) in merged.items()}
    for term, pairs in (links or {}).items():
        if term in encoded and pairs:
            encoded[term].append(pairs)
    words = {word: list(chinese) for word, chinese in (translations or {}).items() if word and chinese}
    total = sum(len(term.encode()) + len(t) + len(b) + 8 for term, (t, b, *_) in encoded.items())
    total += sum(len(word) + 6 + sum(len(c.encode()) + 3 for c in chinese) for word, chinese in words.items())
    chunks = _power_of_two(total / CHUNK_BYTES)
    chunk_terms: list[dict[str, Any]] = [{} for _ in range(chunks)]
    for term, value in encoded.items():
        chunk_terms[bucket_of(term, chunks)][term] = value
    for word, chinese in words.items():
        chunk_terms[bucket_of(word, chunks)].setdefault(DICTIONARY_KEY, {})[word] = chinese

    # Key buckets: the ASCII terms, by their grams.
    ascii_terms = sorted(t for t in merged if is_ascii_term(t) and len(squash(t)) >= GRAM)
    bucket_count = _power_of_two(sum(len(grams(t)) for t in ascii_terms) / BUCKET_KEYS)
    buckets: list[tuple[set[str], set[str]]] = [(set(), set()) for _ in range(bucket_count)]
    for term in ascii_terms:
        in_title, in_text = (bool(ids) for ids in merged[term])
        for gram in grams(term):
            title_keys, text_keys = buckets[bucket_of(gram, bucket_count)]
            if in_title:
                title_keys.add(term)
            if in_text:
                text_keys.add(term)

    # Typo buckets: the terms of TYPO_SHORTEST to TYPO_LONGEST letters, by their one-edit keys.
    typo_terms = [t for t in merged if is_ascii_term(t) and not t.startswith("#") and TYPO_SHORTEST <= len(squash(t)) <= TYPO_LONGEST]
    keyed: dict[str, set[str]] = {}
    for term in typo_terms:
        for key in typo_keys(term):
            keyed.setdefault(key, set()).add(term)
    typo_total = sum(len(k) + 6 + sum(len(t) + 3 for t in ts) for k, ts in keyed.items())
    typo_count = _power_of_two(typo_total / TYPO_BYTES)
    typo_buckets: list[dict[str, list[str]]] = [{} for _ in range(typo_count)]
    for key, terms in keyed.items():
        typo_buckets[bucket_of(key, typo_count)][key] = sorted(terms)

    # Page shards and filters.
    def row(i: int) -> list:
        docname, title = docnames[i], titles[i]
        facts = notes.get(docname)
        if facts is None:
            return [docname, title]
        return [docname, title, facts.verdict, facts.repo, facts.number, facts.date, facts.subsystem]

    shards = [[row(i) for i in range(start, min(start + SHARD, len(docnames)))] for start in range(0, len(docnames), SHARD)]
    repos = sorted({n.repo for n in notes.values()}, key=lambda r: (r.lower(), r))
    values = {"verdict": [v for v in verdicts], "repo": repos, "subsystem": sorted({n.subsystem for n in notes.values()} | set(subsystems))}
    filters = {}
    for name in FILTERS:
        width = code_width(len(values[name]))
        code = {value: filter_code(i, width) for i, value in enumerate(values[name])}
        filters[name] = "".join(
            code.get(getattr(notes[d], name), NO_CODE * width) if d in notes else NO_CODE * width for d in docnames
        )

    # Hub pages that repeat the title of a hub page listed before them.
    same_title: list[list[int]] = []
    first: dict[str, int] = {}
    for i in range(note_count, len(docnames)):
        if titles[i] in first:
            same_title.append([i, first[titles[i]]])
        else:
            first[titles[i]] = i

    files: dict[str, str] = {}
    for k, terms in enumerate(chunk_terms):
        files[f"t/{k}.json"] = _json(terms)
    for k, (title_keys, text_keys) in enumerate(buckets):
        files[f"g/{k}.json"] = _json({"t": sorted(title_keys), "b": sorted(text_keys)})
    for k, keys in enumerate(typo_buckets):
        files[f"e/{k}.json"] = _json(keys)
    for k, shard in enumerate(shards):
        files[f"d/{k}.json"] = _json(shard)
    for name, codes in filters.items():
        files[f"f/{name}.json"] = _json(codes)
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(f"{path}\n{files[path]}\n".encode())
    entry = {
        "format": FORMAT,
        "version": digest.hexdigest()[:16],
        "pages": len(docnames),
        "notes": note_count,
        "shard": SHARD,
        "chunks": chunks,
        "buckets": [len(t | b) for t, b in buckets],
        "typo": typo_count,
        "filters": {
            "verdict": values["verdict"],
            "repo": values["repo"],
            "subsystem": [[slug, subsystems.get(slug, slug)] for slug in values["subsystem"]],
        },
        "sameTitle": same_title,
    }
    return Split(entry, files)


def entry_text(entry: Mapping[str, Any]) -> str:
    return _json(entry)
