"""What one conversion keeps for the next, so a day's digest costs a day's work.

Three memos, all keyed by content, never by file times:

- parsed seed files and prs.toml, by path and the hash of their bytes;
- each entry's :class:`~prnotes.model.site.Analysis` (subsystem, verdict, pieces,
  follow-ups, symbols, summary), by the hash of its repository, titles and
  body;
- for each note page, the hash of everything the page is rendered from
  (:func:`prnotes.render.note.page_key`) and the size and mtime the page had
  when that conversion left it: a page whose key and file are unchanged is
  neither rendered nor read again.

The whole cache belongs to one version of the code and the taxonomy (a hash
of the package's source files and ``taxonomy.toml``); any other version, or a
file that does not load, is an empty cache. It lives in ``.prnotes-cache`` in
the project folder (ignored by git) and is written with the same
temporary-file-and-rename as the pages, under the conversion's lock.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..parse import regular
from .files import WriteError, write_file

CACHE_NAME = ".prnotes-cache"
# A cache larger than this is not read (the next run starts afresh): about
# 2 kB a note, it holds half a million notes.
MAX_CACHE_BYTES = 1 << 30
_PACKAGE = Path(__file__).resolve().parents[1]  # prnotes


def code_version(taxonomy: bytes) -> str:
    """A hash of this package's source, the taxonomy and the Python version."""
    digest = hashlib.sha1(sys.version.encode())
    for path in sorted(_PACKAGE.rglob("*")):
        if path.suffix in {".py", ".toml", ".js", ".sty", ".txt"} and path.is_file():
            digest.update(path.relative_to(_PACKAGE).as_posix().encode())
            digest.update(path.read_bytes())
    digest.update(taxonomy)
    return digest.hexdigest()


@dataclass
class Cache:
    version: str
    seeds: dict = field(default_factory=dict)  # (rel, sha1 of bytes) -> SeedFile, or prs.toml's entries
    analyses: dict = field(default_factory=dict)  # analysis key -> Analysis
    pages: dict = field(default_factory=dict)  # rel -> (page key, size, mtime_ns)

    def page_is_current(self, root: Path, rel: str, key: str) -> bool:
        """Whether ``rel`` is the page this cache saw written from ``key``, untouched since."""
        kept = self.pages.get(rel)
        if kept is None or kept[0] != key:
            return False
        try:
            st = os.stat(os.path.join(root, rel))
        except OSError:
            return False
        return (st.st_size, st.st_mtime_ns) == kept[1:]

    @property
    def changed(self) -> bool:
        """Whether this run added to the memos or the pages differ from what was loaded."""
        added = any(isinstance(m, Memo) and m.added for m in (self.seeds, self.analyses))
        return added or self.pages != getattr(self, "_loaded_pages", None)

    def record_pages(self, root: Path, keys: dict[str, str]) -> None:
        """After a conversion: the files of the keyed pages as they now are; others are forgotten."""
        self._loaded_pages = getattr(self, "_loaded_pages", self.pages)
        pages = {}
        for rel, key in keys.items():
            try:
                st = os.stat(os.path.join(root, rel))
            except OSError:
                continue
            pages[rel] = (key, st.st_size, st.st_mtime_ns)
        self.pages = pages


class Memo(dict):
    """A memo that remembers which keys a run looked up or added, so that
    :meth:`kept` drops what the archive no longer holds."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.used: set = set()
        self.added = False

    def get(self, key, default=None):
        self.used.add(key)
        return super().get(key, default)

    def __setitem__(self, key, value) -> None:
        self.used.add(key)
        self.added = True
        super().__setitem__(key, value)

    def kept(self) -> dict:
        return {k: v for k, v in self.items() if k in self.used}


def load(root: Path, version: str) -> Cache:
    """The project's cache if it belongs to ``version``, else an empty one; memos wrapped in :class:`Memo`."""
    cache = _read(root, version)
    cache.seeds, cache.analyses = Memo(cache.seeds), Memo(cache.analyses)
    return cache


def _read(root: Path, version: str) -> Cache:
    try:
        data = regular.read_regular(root / CACHE_NAME, MAX_CACHE_BYTES)
    except regular.NotRegularFile as exc:
        # Not ours to remove, and never to be waited on or read without end.
        raise WriteError(
            f"{CACHE_NAME} {exc.strerror}; remove it: it is the conversion's cache, made again by the next run; nothing written"
        ) from None
    except OSError:  # missing, unreadable or too large: start afresh
        return Cache(version)
    try:
        cache = pickle.loads(data)  # our own file, written by save() below
    except Exception:  # damaged or from other code: start afresh
        return Cache(version)
    if not isinstance(cache, Cache) or cache.version != version:
        return Cache(version)
    return cache


def save(root: Path, cache: Cache) -> None:
    """Write the cache if this run changed it; a failure only costs the next run its speed."""
    dropped = any(isinstance(m, Memo) and len(m.used) < len(m) for m in (cache.seeds, cache.analyses))
    if not cache.changed and not dropped:
        return
    path = root / CACHE_NAME
    # Only what this run used, as plain dicts: the cache never outgrows the archive.
    cache = Cache(
        cache.version,
        dict(cache.seeds.kept() if isinstance(cache.seeds, Memo) else cache.seeds),
        dict(cache.analyses.kept() if isinstance(cache.analyses, Memo) else cache.analyses),
        cache.pages,
    )
    try:
        write_file(path, pickle.dumps(cache, protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        pass  # a cache that cannot be written costs the next run its speed, nothing more
