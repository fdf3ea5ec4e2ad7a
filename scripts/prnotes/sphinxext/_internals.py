"""The one place where prnotes uses what Sphinx and sphinx-design do not document.

Every other module of the extension uses documented events, APIs and page
metadata. Each accessor here names what it relies on, and
``tests/test_internals.py`` has a test per accessor that fails, naming the
reliance, when an upgrade takes it away. Nothing here runs a check at build
time: an upgrade that breaks one of these fails that test, not every build.
"""

from __future__ import annotations

import functools
import os
import pickle
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

# --- the search indexer (search/) ---------------------------------------------


def add_title_terms(builder: Any, docname: str, terms: list[str]) -> bool:
    """Count ``terms`` (stemmed, filtered) as title terms of ``docname``; False without an indexer.

    Relies on ``builder.indexer`` and ``IndexBuilder._title_mapping``: the
    map ``IndexBuilder.feed`` fills from the page's title, which has no
    public way to be added to.
    """
    from sphinx.search import IndexBuilder

    indexer = getattr(builder, "indexer", None)
    if not isinstance(indexer, IndexBuilder):
        return False
    for term in terms:
        indexer._title_mapping.setdefault(term, set()).add(docname)
    return True


class _DocnameSet(frozenset):
    """The documents to keep, as a set, iterating in the order given."""

    def __new__(cls, docnames: list[str]) -> "_DocnameSet":
        members = super().__new__(cls, docnames)
        members._order = docnames
        return members

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)


def prune_index_with_a_set() -> None:
    """Make ``IndexBuilder.prune`` take its documents as a set.

    ``prune(docnames)`` intersects the set of pages of every word with
    ``docnames``, which the HTML builder passes as a dict: each word makes a
    set of every document again (words × documents in all). Given a set, the
    result is the same at the cost of the words' own sets.
    """
    from sphinx.search import IndexBuilder

    original = IndexBuilder.prune
    if hasattr(original, "__wrapped__"):
        return

    @functools.wraps(original)
    def prune(self: Any, docnames: Any) -> None:
        return original(self, _DocnameSet(list(docnames)))

    IndexBuilder.prune = prune


def writes_search_index(builder: Any) -> bool:
    """Whether this builder writes a search index: ``StandaloneHTMLBuilder.search``, which the
    EPUB and single-page builders turn off (they share the HTML builders' format)."""
    return bool(getattr(builder, "search", False))


# --- the web site's builders (site/__init__.py) --------------------------------


def html_builders(*mixins: type, **attributes: Any) -> tuple[type, ...]:
    """Sphinx's HTML builders (``html``, ``dirhtml``) with ``mixins`` before
    them and these class attributes, for ``app.add_builder(…, override=True)``.

    Relies on ``StandaloneHTMLBuilder.indexer_format``, the module that writes
    searchindex.js (read where ``indexer_dumps_unicode`` is set), when
    ``attributes`` set it; and, through :class:`ProcessHooks`, on how
    ``Builder`` reads and writes a batch.
    """
    from sphinx.builders.dirhtml import DirectoryHTMLBuilder
    from sphinx.builders.html import StandaloneHTMLBuilder

    return tuple(
        type(f"Prnotes{base.__name__}", (*mixins, ProcessHooks, base), attributes)
        for base in (StandaloneHTMLBuilder, DirectoryHTMLBuilder)
    )


class ProcessHooks:
    """A builder mixin that asks two methods of a mixin before it how many
    processes read and write a batch, so that nothing sets ``Sphinx.parallel``:
    ``reads_serially(docnames)``, whether a parallel build reads the batch in
    its main process, and ``write_workers(docnames, workers)``, the workers
    that write it of Sphinx's ``workers`` (0: serially).

    Relies on ``Builder.read`` calling ``_read_parallel(docnames, nproc)``
    when ``-j`` is over 1 (else ``_read_serial``), and on
    ``Builder.write_documents`` calling ``_write_parallel(docnames, nproc)``
    with ``parallel - 1`` workers (else ``_write_serial``).
    """

    def _read_parallel(self, docnames: list[str], nproc: int) -> None:
        if self.reads_serially(docnames):
            self._read_serial(docnames)
        else:
            super()._read_parallel(docnames, nproc)

    def _write_parallel(self, docnames: list[str], nproc: int) -> None:
        workers = self.write_workers(list(docnames), nproc)
        if workers < 1:
            self._write_serial(docnames)
        else:
            super()._write_parallel(docnames, workers)


# --- the page tree (prevnext.py) ----------------------------------------------


def page_tree(env: Any) -> dict[str, list[str | None]]:
    """Docname -> [parent, previous, next] in toctree order (``BuildEnvironment.collect_relations``)."""
    return env.collect_relations()


def relations(builder: Any) -> dict[str, list[str | None]]:
    """The same, as the HTML builder found it (``StandaloneHTMLBuilder.relations``)."""
    return getattr(builder, "relations", {})


# --- the EPUB (epub.py) --------------------------------------------------------


def titled_epub_builder(titles: dict[str, str]) -> type:
    """Sphinx's EPUB builder whose table of contents and cover have these
    titles (``{"toc": …, "cover": …}``), for ``app.add_builder(…, override=True)``.

    Relies on ``EpubBuilder.guide_titles``, the English titles Sphinx writes
    into ``nav.xhtml`` and the package's guide whatever the language.
    """
    from sphinx.builders.epub3 import Epub3Builder

    return type("TitledEpub3Builder", (Epub3Builder,), {"guide_titles": {**Epub3Builder.guide_titles, **titles}})


# --- sphinx-design (lists.py, book/latex.py, badgerefs.py) --------------------

# sphinx-design's CSS classes, as they stand on its nodes.
DESIGN_BADGE = "sd-badge"
DESIGN_BADGE_FILL = "sd-bg-"
DESIGN_BADGE_TEXT = "sd-bg-text-"
DESIGN_BADGE_OUTLINE = "sd-outline-"
DESIGN_CARD = "sd-card"
DESIGN_CARD_TITLE = "sd-card-title"
DESIGN_STRETCHED_LINK = "sd-stretched-link"


def design_badge(text: str, colour: str) -> nodes.inline:
    """A filled badge as sphinx-design's ``{bdg-<colour>}`` role makes it."""
    classes = ["sd-sphinx-override", DESIGN_BADGE, f"{DESIGN_BADGE_FILL}{colour}", f"{DESIGN_BADGE_TEXT}{colour}"]
    return nodes.inline(text, text, classes=classes)


def octicon_svg(name: str, classes: list[str]) -> str:
    """The octicon as sphinx-design's ``{octicon}`` role draws it, 1em high
    (``sphinx_design.icons.get_octicon``), hidden from assistive technology."""
    from sphinx_design.icons import get_octicon

    return get_octicon(name, height="1em", classes=classes)


def octicon_drawing(name: str) -> tuple[int, str]:
    """The width of the octicon's 16-pixel-high drawing and its SVG elements
    (``<path d=…></path>``), from ``sphinx_design.icons.get_octicon_data``."""
    from sphinx_design.icons import get_octicon_data

    drawing = get_octicon_data()[name]["heights"]["16"]
    return int(drawing["width"]), drawing["path"]


def unwrap_stretched_link(link: nodes.Element) -> None:
    """Take a card's stretched link out of the ``PassthroughTextElement`` sphinx-design wraps it in."""
    from sphinx_design.shared import PassthroughTextElement

    wrapper = link.parent
    if isinstance(wrapper, PassthroughTextElement):
        wrapper.parent.remove(wrapper)
    else:
        wrapper.remove(link)


# --- the LaTeX writer (book/latex.py) ----------------------------------------

# Characters Sphinx's LaTeX writer prints as others even for xelatex
# (``sphinx.util.texescape.tex_replacements``: ✔ as a bold ✓, ✕ as ×, ⎽ as
# _, ℯ as e). The book prints them as written.
SUBSTITUTED = "✓✔✕✖⎽ℯⅈ"


def print_as_written(latex_for: Callable[[str], str]) -> None:
    """Escape each character of :data:`SUBSTITUTED` as ``latex_for(ch)`` for xelatex,
    in ``texescape._tex_escape_map_without_unicode``, the map ``escape()`` uses.

    Call it once the LaTeX builder is set up (``builder-inited``): its set-up
    fills the map from ``tex_replacements`` again."""
    from sphinx.util import texescape

    for ch in SUBSTITUTED:
        texescape._tex_escape_map_without_unicode[ord(ch)] = latex_for(ch)


def included_document(node: nodes.Element) -> str:
    """The document a ``start_of_file`` node of the LaTeX builder's assembled
    tree holds (its ``docname`` attribute, which the builder sets and its
    writer reads; the node is documented, the attribute is not)."""
    return node.get("docname", "")


# --- resolving references (prlinks.py) ------------------------------------------

# The priority of Sphinx's ReferencesResolver post-transform
# (``sphinx.transforms.post_transforms.ReferencesResolver.default_priority``),
# which resolves the pending_xref nodes it finds one at a time. A
# post-transform of a lower priority runs before it.
REFERENCES_RESOLVER_PRIORITY = 10


# --- the saved environment (build/audit.py, build/stamp.py) --------------------------


def environment_file(doctree_dir: Path) -> Path:
    """Where Sphinx saves its environment in ``doctree_dir`` (``sphinx.application.ENV_PICKLE_FILENAME``)."""
    from sphinx.application import ENV_PICKLE_FILENAME

    return doctree_dir / ENV_PICKLE_FILENAME


def saved_environment(doctree_dir: Path) -> Any:
    """The build environment Sphinx saved in ``doctree_dir`` (read with the same Sphinx)."""
    from ..parse import regular  # a named pipe in its place is refused, not waited on

    with os.fdopen(regular.open_regular(environment_file(doctree_dir)), "rb") as fh:
        return pickle.load(fh)


# --- the search's serving side (search/publish.py) ---------------------------
# The whole index's file and the keys of its data the split reads
# (whole_index), and the pages' script_files and css_files entries
# (drop_script, drop_stylesheet; also page/assets.py).

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
        raise IndexShapeError(f"{path} is not in the format search/language.py writes: {exc}") from None
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
    return _drop(context, "script_files", filename)


def drop_stylesheet(context: dict, filename: str) -> bool:
    """Leave ``filename`` (``_static/…``) out of the page's stylesheets, as :func:`drop_script` does scripts."""
    return _drop(context, "css_files", filename)


def _drop(context: dict, key: str, filename: str) -> bool:
    files = context.get(key)
    if not isinstance(files, list):
        return False
    kept = [asset for asset in files if str(getattr(asset, "filename", asset)) != filename]
    dropped = len(kept) != len(files)
    files[:] = kept
    return dropped


def documents(env: Any) -> dict[str, Any]:
    """The documents the environment holds (read, not removed), by docname: ``env.all_docs``."""
    return env.all_docs


def sources(env: Any) -> set[str]:
    """Every page this build has a source for, read yet or not: ``env.found_docs``."""
    return env.found_docs


def drop_read_doctrees(env: Any) -> int:
    """Forget the doctrees read this build that wait for the writers
    (``env._write_doc_doctree_cache``, Sphinx 7.3 on, filled by a serial
    read): each writer reads its page's doctree back from its pickle.
    Returns how many were dropped."""
    cache = getattr(env, "_write_doc_doctree_cache", None) or {}
    return len([cache.pop(docname) for docname in list(cache)])
