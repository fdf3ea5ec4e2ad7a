"""The bilingual glossary of the search: English terms and how notes write them.

``glossary.toml`` is data: one line per English term, ``"term" = ["中文",
…]``. The query side (``fold.js``) expands a query through it in both
directions: a query holding an English term also looks for its Chinese
wordings, and one holding a Chinese wording also looks for the English terms
that list it. Phrases match by :func:`phrase_units`, which both sides compute
alike (the browser tests compare them).

A malformed file stops the build with ``glossary.toml:LINE: what is wrong``.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ...diagnostics import Diagnostic, InputError
from ...parse.seeds import _key_lines, load_toml
from .tokens import _CAMEL, _PART_SEP, _RUN, CJK, STOPWORDS, fold, normalize

GLOSSARY_FILE = "glossary.toml"
TABLE = "terms"
_CJK_CHAR = re.compile(f"[{CJK}]")


def phrase_units(text: str) -> list[str]:
    """What a phrase is matched by: each CJK character, each ASCII word part
    (lower case, folded, two characters or more, not a stop word; digits as
    ``#digits``), in order. Spaces and punctuation do not count, so
    ``前缀 缓存`` and ``prefix-caching`` match ``前缀缓存`` and ``prefix caching``.
    """
    units: list[str] = []
    for match in _RUN.finditer(normalize(text)):
        run = match.group()
        if "\u3400" <= run[0]:
            units.extend(run)
            continue
        for part in _PART_SEP.split(run):
            for piece in _CAMEL.split(part):
                word = piece.lower()
                if len(word) < 2 or word in STOPWORDS:
                    continue
                units.append(f"#{word}" if word.isdigit() else fold(word))
    return units


@dataclass(frozen=True)
class Entry:
    """One English term and the wordings of the notes it stands for."""

    english: str
    wordings: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Glossary:
    path: str
    entries: tuple[Entry, ...]

    def js(self) -> str:
        """The glossary for fold.js: ``[[english, [wordings]], …]``, sorted."""
        data = sorted([e.english, list(e.wordings)] for e in self.entries)
        return f"const PRNOTES_GLOSSARY = {json.dumps(data, ensure_ascii=False, separators=(',', ':'))};\n"


def _check(path: str, doc: dict, lines: dict) -> tuple[list[Entry], list[Diagnostic]]:
    problems: list[Diagnostic] = []
    for key in doc:
        if key != TABLE:
            line = lines.get((None, key), 1)
            problems.append(Diagnostic(path, line, f"unknown key {key!r}: the glossary has only [{TABLE}]"))
    table = doc.get(TABLE)
    if not isinstance(table, dict):
        problems.append(Diagnostic(path, 1, f"no [{TABLE}] table"))
        return [], problems
    entries: list[Entry] = []
    seen: dict[tuple[str, ...], int] = {}
    for english, value in table.items():
        line = lines.get((TABLE, english), 1)

        def bad(message: str) -> None:
            problems.append(Diagnostic(path, line, f"{english!r}: {message}"))

        wordings = [value] if isinstance(value, str) else value
        if not isinstance(wordings, list) or not wordings or not all(isinstance(w, str) for w in wordings):
            bad("the value must be a string or a non-empty list of strings")
            continue
        units = tuple(phrase_units(english))
        if _CJK_CHAR.search(english) or not units:
            bad("the key must be an English term of at least one word that is not a stop word")
            continue
        if units in seen:
            bad(f"the same term as line {seen[units]} once inflection is folded")
            continue
        seen[units] = line
        kept: list[str] = []
        for wording in wordings:
            wunits = phrase_units(wording)
            if not wunits:
                bad(f"{wording!r} has no search terms")
            elif tuple(wunits) == units:
                bad(f"{wording!r} is the term itself")
            elif any(phrase_units(k) == wunits for k in kept):
                bad(f"{wording!r} is listed twice")
            else:
                kept.append(wording)
        if len(kept) == len(wordings):
            entries.append(Entry(english, tuple(kept), line))
    return entries, problems


def parse(path: str, data: bytes) -> Glossary:
    """Read a glossary; raises :class:`InputError` with every problem found."""
    text, doc = load_toml(path, data)
    entries, problems = _check(path, doc, _key_lines(text))
    if problems:
        raise InputError(problems)
    return Glossary(path, tuple(sorted(entries, key=lambda e: e.english)))


@functools.cache
def load() -> Glossary:
    """The package's glossary."""
    resource = resources.files(__package__).joinpath(GLOSSARY_FILE)
    with resources.as_file(resource) as real:
        return parse(str(Path(real)), real.read_bytes())
