"""What the search's serving side relies on that Sphinx does not document.

The indexer's internals (title terms, the index format, pruning) are
accessors of :mod:`prnotes.sphinxext._internals`. These two are the split
index's and the pages', each with a test in ``tests/test_search_internals.py``
that fails with a message naming what changed:

- :func:`whole_index`: where the HTML builder writes ``searchindex.js`` and
  the keys its data has (search/publish.py splits it).
- :func:`drop_script`: the page context's ``script_files`` entries name their
  file in ``filename`` (search/publish.py leaves sphinx_highlight.js out).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

# Where the HTML builder writes the whole index, and the keys of its data
# that the split reads.
SEARCHINDEX = "searchindex.js"
INDEX_KEYS = ("docnames", "titles", "terms", "titleterms")


class IndexShapeError(Exception):
    """The whole index is not what the search was written for."""


def whole_index(outdir: Path, index_format: Any) -> tuple[bytes, dict]:
    """The whole index as the build wrote it: its bytes and its data.

    Raises :class:`IndexShapeError` when the file is missing or its data
    lacks one of :data:`INDEX_KEYS`.
    """
    path = Path(outdir) / SEARCHINDEX
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise IndexShapeError(f"{path} cannot be read ({exc.strerror}): the HTML builder did not write its index there") from None
    try:
        data = index_format.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise IndexShapeError(f"{path} is not in the format search/indexfile.py writes: {exc}") from None
    missing = [key for key in INDEX_KEYS if not isinstance(data, dict) or key not in data]
    if missing:
        raise IndexShapeError(f"{path} has no {', '.join(missing)}: Sphinx's index data changed shape")
    return raw, data


def drop_script(context: dict, filename: str) -> bool:
    """Leave ``filename`` (``_static/…``) out of the page's scripts; False if it was not there.

    The list is changed in place: it is the builder's own, to which other
    handlers of the same event add their page's scripts (and which the
    builder puts back as it was for the next page).
    """
    files = context.get("script_files")
    if not isinstance(files, list):
        return False
    kept = [js for js in files if str(getattr(js, "filename", js)) != filename]
    dropped = len(kept) != len(files)
    files[:] = kept
    return dropped
