"""The one place where prnotes relies on what Sphinx and other extensions do not promise.

Everything else in the extension uses documented events and APIs. What
follows is not documented, and an upgrade may change it without notice:

- Sphinx's search indexer: ``builder.indexer`` and its title-term map
  ``IndexBuilder._title_mapping``, written only here (:func:`add_title_terms`,
  for search/titles.py);
  ``StandaloneHTMLBuilder.indexer_format`` and ``indexer_dumps_unicode``
  (:func:`use_index_format`, for search/indexfile.py).
- ``IndexBuilder.prune``, which intersects each word's set of pages with
  the documents it is given, and which :func:`prune_index_with_a_set`
  wraps to give it a set (for search/__init__.py).
- ``StandaloneHTMLBuilder.relations``, each page's (parent, previous, next)
  (:func:`relations`, for prevnext.py).
- The functions of searchtools.js's ``Search`` object that search.js
  replaces or calls, the ``Search._index`` it reads, and sphinx_highlight.js's
  ``_highlightText``, which it calls (:data:`SEARCHTOOLS_REPLACED`,
  :data:`SPHINX_JS_SHAPES`, :func:`searchtools_js`). Each function's source
  text must hash as recorded here: a patch release that changes one of them
  stops the build until search.js has been checked against it. search.js is
  the one script that touches these, and checks their arity again in the
  browser (a console error when one differs).
- sphinx-sitemap's queue of pages, ``app.sitemap_links``, and its
  ``is_excluded`` (:func:`sitemap_queue`, :func:`sitemap_excluded`, for
  sitemap.py).
- That importing sphinxext-opengraph without matplotlib prints a notice,
  and nothing else (:func:`quiet_opengraph_import`).
- The shape of sphinxext-opengraph's ``<meta>`` tags (:data:`META_TAG_RE`,
  for metatags.py).
- sphinx-design's node classes and CSS classes for badges and cards, and the
  wrapper around a card's stretched link (:func:`unwrap_stretched_link`, for
  latex_print.py).
- Sphinx's saved environment, ``environment.pickle``
  (:func:`saved_environment`, for the audit).
- ``Sphinx.parallel``, the ``-j`` of the build, which ``Builder.read`` reads
  after the ``env-before-read-docs`` event, and the writing after that
  (:func:`set_parallel`, for batching.py).
- MyST's Sphinx parser, ``MystParser.parse``, which :func:`markdown_parser`
  repeats with a renderer of its own, and that renderer's
  ``SphinxRenderer.render_link_unknown`` and ``_process_wrap_node``, whose
  node for a link to a page it makes the same way (for doclinks.py). Both
  functions' source text must hash as recorded here.
- The function ``sphinx.cmd.build.build_main`` reports an error with,
  ``sphinx._cli.util.errors.handle_exception``, and its ``save_traceback``
  (:func:`short_sphinx_errors`, for prnotes/sphinx_build.py).
- The Jinja environment of the HTML builder's templates,
  ``builder.templates.environment`` (:func:`cache_templates`, for
  templatecache.py).

:func:`setup` checks, before anything else happens, that the installed
versions are the ones this was written for (the minor series pinned in
``requirements/site.txt``) and that each of these is still there. If not, the
build stops with one line per problem, naming the package, the version found
and the versions supported: :class:`Incompatible`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import pickle
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from docutils import nodes
from packaging.version import InvalidVersion, Version
from sphinx.application import Sphinx

PIN_HINT = "install the pinned versions: pip install -r requirements/site.txt"


class Incompatible(SystemExit):
    """The installed Sphinx or an extension is not what prnotes was written for.

    A ``SystemExit`` so that ``sphinx-build`` stops with the message alone
    (Python prints it to stderr and exits with status 1), not with the report
    it gives for a bug; the message is what the reader needs to act.
    """

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(f"prnotes: {p}" for p in problems))
        self.problems = tuple(problems)


# --- versions ---------------------------------------------------------------


@dataclass(frozen=True)
class Series:
    """A distribution and the minor series of it this module was written for."""

    distribution: str
    major: int
    minor: int

    def __str__(self) -> str:
        return f"{self.distribution} {self.major}.{self.minor}.x"

    def accepts(self, version: str) -> bool:
        try:
            release = Version(version).release
        except InvalidVersion:
            return False
        return release[:2] == (self.major, self.minor)


# The pins of requirements/site.txt (tests/test_compat.py keeps them equal).
WRITTEN_FOR = (
    Series("sphinx", 9, 1),
    Series("myst-parser", 5, 2),
    Series("sphinx-design", 0, 8),
    Series("sphinx-sitemap", 2, 9),
    Series("sphinxext-opengraph", 0, 13),
    Series("pydata-sphinx-theme", 0, 24),
)


def version_problems() -> list[str]:
    """One sentence per distribution that is missing or outside its series."""
    problems = []
    for series in WRITTEN_FOR:
        try:
            found = metadata.version(series.distribution)
        except metadata.PackageNotFoundError:
            problems.append(f"{series.distribution} is not installed; this site needs {series}; {PIN_HINT}")
            continue
        if not series.accepts(found):
            problems.append(
                f"{series.distribution} {found} is installed, but this site supports {series} only; {PIN_HINT}"
            )
    return problems


# --- what is relied on, and how each is checked -------------------------------


def _names(function: Callable) -> tuple[str, ...]:
    """The attribute and global names a function's own code uses."""
    return getattr(function, "__func__", function).__code__.co_names


@dataclass(frozen=True)
class Reliance:
    """Something undocumented that prnotes uses, and how to see that it is still there."""

    name: str  # as the reader would look it up
    distribution: str
    user: str  # the module that needs it
    present: Callable[[], bool]


def _indexer_title_mapping() -> bool:
    from sphinx.search import IndexBuilder

    return "_title_mapping" in _names(IndexBuilder.__init__)


def _html_builder_has(*names: str) -> Callable[[], bool]:
    def present() -> bool:
        from sphinx.builders.html import StandaloneHTMLBuilder

        return all(hasattr(StandaloneHTMLBuilder, n) for n in names)

    return present


def _html_builder_sets(name: str) -> Callable[[], bool]:
    def present() -> bool:
        from sphinx.builders.html import StandaloneHTMLBuilder

        return name in _names(StandaloneHTMLBuilder.prepare_writing)

    return present


# searchtools.js and sphinx_highlight.js as the basic theme ships them.
SEARCHTOOLS = "themes/basic/static/searchtools.js"
SPHINX_HIGHLIGHT = "themes/basic/static/sphinx_highlight.js"
# The functions of searchtools.js's ``Search`` object that search.js
# replaces (in that order), with the number of parameters each takes; the
# data it reads. search.js checks them again in the browser.
SEARCHTOOLS_REPLACED = {"_parseQuery": 1, "_performSearch": 5, "makeSearchSummary": 3}
SEARCHTOOLS_READ = ("_index",)


@dataclass(frozen=True)
class ScriptFunction:
    """A function of Sphinx's JavaScript that search.js replaces or calls, and
    the SHA-256 (first 16 hex digits) of its source text in the version this
    was written for: a member of ``Search`` (``Search._parseQuery``) or a
    top-level ``const`` (``_highlightText``)."""

    file: str  # under the sphinx package
    name: str
    sha256: str

    def source(self) -> str | None:
        """The function's text in the installed Sphinx, or None without it."""
        import sphinx

        text = (Path(sphinx.__file__).parent / self.file).read_text(encoding="utf-8")
        member = self.name.removeprefix("Search.")
        if member != self.name:
            # ``  name: ...`` up to the next member of the object literal.
            start = re.search(rf"^  {re.escape(member)}:", text, flags=re.MULTILINE)
            end_re = re.compile(r"^  [A-Za-z_]\w*:|^};", flags=re.MULTILINE)
        else:
            # ``const name = ...`` up to the first line that starts with ``}``, included.
            start = re.search(rf"^const {re.escape(member)} =", text, flags=re.MULTILINE)
            end_re = re.compile(r"(?<=^\}).*$", flags=re.MULTILINE)
        if start is None:
            return None
        end = end_re.search(text, start.end())
        cut = (end.start() if member != self.name else end.end()) if end else len(text)
        body = text[start.start() : cut]
        # The comment before the next member belongs to that one.
        body = re.sub(r"\s*/\*\*(?:(?!\*/).)*\*/\s*$", "", body, flags=re.DOTALL)
        return body.rstrip()

    def digest(self) -> str | None:
        source = self.source()
        return None if source is None else hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


# What search.js replaces, and what it calls in its place (Search.query calls
# the replaced functions on the search page; _highlightText marks the terms
# on the page opened from a result, where sphinx_highlight.js does not since
# searchtools.js is loaded). Recorded from Sphinx 9.1.0.
SPHINX_JS_SHAPES = (
    ScriptFunction(SEARCHTOOLS, "Search._parseQuery", "e16a34a1f978b604"),
    ScriptFunction(SEARCHTOOLS, "Search._performSearch", "8e9a6d14f8aadd5b"),
    ScriptFunction(SEARCHTOOLS, "Search.makeSearchSummary", "9b873888c447fd8e"),
    ScriptFunction(SEARCHTOOLS, "Search.query", "0ce92aec40ef712f"),
    ScriptFunction(SEARCHTOOLS, "Search.setIndex", "8891d9a09186b941"),
    ScriptFunction(SPHINX_HIGHLIGHT, "_highlightText", "a286cd27a89cc830"),
)


def _script_function(function: ScriptFunction) -> Callable[[], bool]:
    return lambda: function.digest() == function.sha256


def _searchtools_member(name: str) -> Callable[[], bool]:
    def present() -> bool:
        import sphinx

        source = (Path(sphinx.__file__).parent / SEARCHTOOLS).read_text(encoding="utf-8")
        # Members of the object literal ``const Search = { name: ..., }``.
        return re.search(rf"^\s*{re.escape(name)}\s*:", source, flags=re.MULTILINE) is not None

    return present


def _sitemap_queue() -> bool:
    import sphinx_sitemap

    return hasattr(sphinx_sitemap, "is_excluded") and "sitemap_links" in _names(sphinx_sitemap.record_builder_type)


# What sphinxext-opengraph writes (its make_tag): ``<meta property="og:…"
# content="…" />``, double quotes in the content replaced, nothing else.
# Groups: 1 the tag up to the content, 2 property or name, 3 its value, 4 the
# content, 5 the end of the tag.
META_TAG_RE = re.compile(r'(<meta\s+(property|name)="([^"<>]*)"\s+content=")([^"]*)("\s*/?>)')


def _opengraph_tags() -> bool:
    from sphinxext import opengraph

    make_tag = getattr(opengraph, "make_tag", None)
    if make_tag is None:
        return False
    match = META_TAG_RE.fullmatch(make_tag("og:title", 'a"<&'))
    return match is not None and match.group(4) == "a&quot;<&"


def _design_stretched_link() -> bool:
    from sphinx_design import cards, shared

    return hasattr(shared, "PassthroughTextElement") and "PassthroughTextElement" in _names(
        cards.CardDirective._create_link
    )


def _parallel_read_after_event() -> bool:
    import inspect

    from sphinx.builders import Builder

    source = inspect.getsource(Builder.read)
    event = source.find("'env-before-read-docs'")
    return 0 <= event < source.find("self._app.parallel", event) and "self.parallel = parallel" in inspect.getsource(
        Sphinx.__init__
    )


def _write_workers_after_event() -> bool:
    import inspect

    from sphinx.builders import Builder

    write, documents = inspect.getsource(Builder.write), inspect.getsource(Builder.write_documents)
    event = write.find("'write-started'")
    return 0 <= event < write.find("self.write_documents(") and "nproc=self._app.parallel - 1" in documents


@dataclass(frozen=True)
class PythonFunction:
    """A function of an installed package that prnotes repeats or imitates, and
    the SHA-256 (first 16 hex digits) of its source text in the version this
    was written for."""

    module: str
    qualname: str
    sha256: str

    def digest(self) -> str:
        import importlib
        import inspect

        target: Any = importlib.import_module(self.module)
        for name in self.qualname.split("."):
            target = getattr(target, name)
        return hashlib.sha256(inspect.getsource(target).encode("utf-8")).hexdigest()[:16]


# What markdown_parser repeats (parse) and imitates for one kind of link
# (render_link_unknown). Recorded from myst-parser 5.2.0.
MYST_SHAPES = (
    PythonFunction("myst_parser.parsers.sphinx_", "MystParser.parse", "0d71d5731b4a6f7c"),
    PythonFunction("myst_parser.mdit_to_docutils.sphinx_", "SphinxRenderer.render_link_unknown", "6d3e19c74b403f02"),
)


def _python_function(function: PythonFunction) -> Callable[[], bool]:
    return lambda: function.digest() == function.sha256


def _myst_wrap_node() -> bool:
    import inspect

    from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer

    parameters = list(inspect.signature(SphinxRenderer._process_wrap_node).parameters)
    return parameters == ["self", "wrap_node", "token", "explicit", "classes", "path_dest"]


def _template_environment() -> bool:
    import inspect

    from sphinx.jinja2glue import BuiltinTemplateLoader

    return "self.environment = " in inspect.getsource(BuiltinTemplateLoader.init)


def _index_prune_intersects() -> bool:
    import inspect

    from sphinx.search import IndexBuilder

    prune = getattr(IndexBuilder.prune, "__wrapped__", IndexBuilder.prune)
    source = inspect.getsource(prune)
    return "def prune(self, docnames" in source and "wordnames.intersection_update(docnames)" in source


def _sphinx_error_report() -> bool:
    import inspect

    import sphinx._cli.util.errors as errors
    from sphinx.cmd import build

    parameters = inspect.signature(errors.handle_exception).parameters
    return {"stderr", "print_traceback", "message_log", "extensions"} <= set(parameters) and (
        "sphinx._cli.util.errors.handle_exception(" in inspect.getsource(build.build_main)
    ) and hasattr(errors, "save_traceback")


# Characters Sphinx's LaTeX writer prints as others, even for xelatex
# (sphinx.util.texescape.tex_replacements: ✔ as a bold ✓ drawn three times,
# ✕ as ×, ⎽ as _, ℯ as e), because a font may lack them. The book prints
# them as written: :func:`print_as_written` replaces their entries in the
# map Sphinx escapes text with for xelatex.
SUBSTITUTED = "✓✔✕✖⎽ℯⅈ"


def _escape_map_for_xelatex() -> bool:
    from sphinx.util import texescape

    table = getattr(texescape, "_tex_escape_map_without_unicode", None)
    substituted = {ch for ch, _ in getattr(texescape, "tex_replacements", ())}
    return (
        isinstance(table, dict)
        and "_tex_escape_map_without_unicode" in _names(texescape.escape)
        and set(SUBSTITUTED) <= substituted
    )


def print_as_written(latex_for: Callable[[str], str]) -> None:
    """Escape each character of :data:`SUBSTITUTED` as ``latex_for(ch)`` for xelatex.

    Call it once the LaTeX builder is set up (``builder-inited``): its set-up
    fills the map from ``tex_replacements`` again."""
    from sphinx.util import texescape

    for ch in SUBSTITUTED:
        texescape._tex_escape_map_without_unicode[ord(ch)] = latex_for(ch)


def _environment_pickle() -> bool:
    import sphinx.application

    return hasattr(sphinx.application, "ENV_PICKLE_FILENAME")


RELIANCES = (
    Reliance("sphinx.search.IndexBuilder._title_mapping", "sphinx", "search/titles.py", _indexer_title_mapping),
    Reliance("StandaloneHTMLBuilder.indexer", "sphinx", "search/titles.py", _html_builder_sets("indexer")),
    Reliance(
        "StandaloneHTMLBuilder.indexer_format",
        "sphinx",
        "search/indexfile.py",
        _html_builder_has("indexer_format", "indexer_dumps_unicode"),
    ),
    Reliance("StandaloneHTMLBuilder.relations", "sphinx", "prevnext.py", _html_builder_sets("relations")),
    *(
        Reliance(f"{f.name} in {Path(f.file).name} as in Sphinx 9.1", "sphinx", "search/search.js", _script_function(f))
        for f in SPHINX_JS_SHAPES
    ),
    *(
        Reliance(f"Search.{name} in searchtools.js", "sphinx", "search/search.js", _searchtools_member(name))
        for name in SEARCHTOOLS_READ
    ),
    Reliance("sphinx.application.ENV_PICKLE_FILENAME", "sphinx", "audit.py", _environment_pickle),
    Reliance("IndexBuilder.prune(docnames) intersecting each word's pages", "sphinx", "search/__init__.py", _index_prune_intersects),
    Reliance("build_main's sphinx._cli.util.errors.handle_exception", "sphinx", "sphinx_build.py", _sphinx_error_report),
    Reliance("Sphinx.parallel, read after env-before-read-docs", "sphinx", "batching.py", _parallel_read_after_event),
    Reliance(
        "Builder.write_documents: parallel - 1 workers, after write-started", "sphinx", "batching.py", _write_workers_after_event
    ),
    *(
        Reliance(f"{f.qualname} as in myst-parser 5.2", "myst-parser", "doclinks.py", _python_function(f))
        for f in MYST_SHAPES
    ),
    Reliance("SphinxRenderer._process_wrap_node(wrap_node, token, explicit, classes, path_dest)", "myst-parser", "doclinks.py", _myst_wrap_node),
    Reliance("BuiltinTemplateLoader.environment", "sphinx", "templatecache.py", _template_environment),
    Reliance("the app.sitemap_links queue", "sphinx-sitemap", "sitemap.py", _sitemap_queue),
    Reliance("<meta> tags from make_tag with only double quotes escaped", "sphinxext-opengraph", "metatags.py", _opengraph_tags),
    Reliance("PassthroughTextElement around a card's stretched link", "sphinx-design", "latex_print.py", _design_stretched_link),
    Reliance("texescape._tex_escape_map_without_unicode, used by escape()", "sphinx", "latex_print.py", _escape_map_for_xelatex),
)


def reliance_problems() -> list[str]:
    """One sentence per reliance that is gone."""
    problems = []
    for reliance in RELIANCES:
        try:
            present = reliance.present()
        except (ImportError, AttributeError, OSError):
            present = False
        if not present:
            found = metadata.version(reliance.distribution)
            problems.append(
                f"{reliance.distribution} {found} lacks what prnotes relies on: {reliance.name} ({reliance.user}); {PIN_HINT}"
            )
    return problems


def check() -> None:
    """Raise :class:`Incompatible` unless everything relied on is as expected."""
    # A wrong version explains any missing attribute: report only that.
    problems = version_problems() or reliance_problems()
    if problems:
        raise Incompatible(problems)


def setup(app: Sphinx) -> None:
    quiet_opengraph_import()  # before check() imports it
    check()


@contextlib.contextmanager
def short_sphinx_errors(tool: str) -> Iterator[None]:
    """While inside, an error that stops ``build_main`` is said in two lines.

    Sphinx prints its report (versions, extensions, the last messages and
    the traceback) for whatever stops a build, an unknown builder included.
    Here it says what stopped it, and where Sphinx saved that report. With
    ``-T`` or ``-v`` (``print_traceback``) Sphinx prints its own report. If
    Sphinx's reporting is not what this was written for, it is left alone.
    """
    if not _sphinx_error_report():
        yield
        return
    import sphinx._cli.util.errors as errors
    from sphinx.errors import SphinxError

    full = errors.handle_exception

    def short(
        exception: BaseException,
        /,
        *,
        stderr: Any = sys.stderr,
        use_pdb: bool = False,
        print_traceback: bool = False,
        message_log: Any = (),
        extensions: Any = (),
    ) -> None:
        context = {"use_pdb": use_pdb, "message_log": message_log, "extensions": extensions}
        if print_traceback or use_pdb or isinstance(exception, KeyboardInterrupt):
            return full(exception, stderr=stderr, print_traceback=print_traceback, **context)
        what = _one_line(exception)
        if isinstance(exception, SphinxError):
            what = f"{exception.category}: {what}"
        else:
            what = f"{type(exception).__name__}: {what}"
        report = errors.save_traceback(exception, message_log=message_log, extensions=extensions)
        print(f"{tool}: Sphinx stopped. {what}", file=stderr)
        print(f"{tool}: Sphinx's full report, with its traceback, is in {report}", file=stderr)
        return None

    errors.handle_exception = short
    try:
        yield
    finally:
        errors.handle_exception = full


_FRAME_RE = re.compile(r'^\s*File "([^"]+)", line (\d+)')


def _one_line(exception: BaseException) -> str:
    """An exception's message on one line. A message that holds a traceback
    (Sphinx's for an error raised in conf.py) becomes its first line, the
    error it ends with, and the file and line of the last frame."""
    lines = [line for line in str(exception).splitlines() if line.strip()]
    if len(lines) <= 1:
        return lines[0].strip() if lines else ""
    frames = [m for m in map(_FRAME_RE.match, lines) if m]
    if not frames:
        return " ".join(line.strip() for line in lines)
    where = f" ({frames[-1].group(1)}:{frames[-1].group(2)})"
    return f"{lines[0].strip()} {lines[-1].strip()}{where}"


def quiet_opengraph_import() -> None:
    """Import sphinxext-opengraph before Sphinx does, without its notice.

    On import, without matplotlib, it prints "matplotlib is not installed,
    social cards will not be generated" to standard output, bypassing
    Sphinx's logging and ``-q``: a line in every build. The site makes no
    social cards, so the notice says nothing.
    """
    import io

    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(ImportError):
        import sphinxext.opengraph  # noqa: F401


# --- the accessors ------------------------------------------------------------


def add_title_terms(builder: Any, docname: str, terms: list[str]) -> bool:
    """Count ``terms`` (stemmed, filtered) as title terms of ``docname``; False without an indexer.

    ``IndexBuilder.feed`` fills its title-term map from the page's title and
    leaves out of the body terms any word already in it; there is no public
    way to add to it, so this is the one place that writes it.
    """
    from sphinx.search import IndexBuilder

    indexer = getattr(builder, "indexer", None)
    if not isinstance(indexer, IndexBuilder):
        return False
    for term in terms:
        indexer._title_mapping.setdefault(term, set()).add(docname)
    return True


def search_language(builder: Any) -> Any:
    """The search indexer's language object, or None without an indexer."""
    from sphinx.search import IndexBuilder

    indexer = getattr(builder, "indexer", None)
    return indexer.lang if isinstance(indexer, IndexBuilder) else None


class _DocnameSet(frozenset):
    """The documents to keep, as a set, iterating in the order given."""

    def __new__(cls, docnames: list[str]) -> "_DocnameSet":
        members = super().__new__(cls, docnames)
        members._order = docnames
        return members

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)


def prune_index_with_a_set() -> None:
    """Make the search indexer's ``prune`` take its documents as a set.

    ``IndexBuilder.prune(docnames)`` runs ``intersection_update(docnames)``
    on the set of pages of every word, and the HTML builder passes the
    environment's ``all_docs``, a dict: each call makes a set of every
    document again, words × documents in all (0.1 s of each build at 1,000
    notes, growing as the square of the archive). Given a set, it is the
    same result, in the same order, at the cost of the words' own sets.
    """
    from sphinx.search import IndexBuilder

    original = IndexBuilder.prune
    if hasattr(original, "__wrapped__"):
        return

    @functools.wraps(original)
    def prune(self: Any, docnames: Any) -> None:
        return original(self, _DocnameSet(list(docnames)))

    IndexBuilder.prune = prune


def use_index_format(builder: Any, index_format: Any) -> bool:
    """Make an HTML builder write searchindex.js with ``index_format``; False if it cannot."""
    from sphinx.builders.html import StandaloneHTMLBuilder

    if not isinstance(builder, StandaloneHTMLBuilder) or not builder.indexer_dumps_unicode:
        return False
    builder.indexer_format = index_format
    return True


def page_tree(env: Any) -> dict[str, list[str | None]]:
    """Docname -> [parent, previous, next] in toctree order, from the environment after reading."""
    return env.collect_relations()


def relations(builder: Any) -> dict[str, list[str | None]]:
    """Docname -> [parent, previous, next] in toctree order, as the HTML builder found them."""
    return getattr(builder, "relations", {})


def searchtools_js() -> str:
    """The JavaScript constants that name what search.js replaces in searchtools.js."""
    return (
        f"const PRNOTES_SEARCH_REPLACED = {json.dumps(SEARCHTOOLS_REPLACED)};\n"
        f"const PRNOTES_SEARCH_READ = {json.dumps(SEARCHTOOLS_READ)};\n"
    )


def parallel(app: Sphinx) -> int:
    """The build's ``-j``: the number of processes Sphinx may use."""
    return app.parallel


def set_parallel(app: Sphinx, processes: int) -> None:
    """Change the processes Sphinx uses from here on (the reading decides after ``env-before-read-docs``)."""
    app.parallel = processes


def set_write_workers(app: Sphinx, workers: int) -> None:
    """Write pages with ``workers`` processes besides the main one, from here on.

    ``Builder.write_documents`` writes with ``parallel - 1`` worker processes
    and keeps the main process to prepare the pages."""
    app.parallel = workers + 1


def sitemap_queue(app: Sphinx) -> Any:
    """sphinx-sitemap's queue of ``(link, last updated)`` for this build, or None."""
    return getattr(app, "sitemap_links", None)


def set_sitemap_queue(app: Sphinx, links: Any) -> None:
    """Give sphinx-sitemap the queue it writes the sitemap from (it reads
    ``app.sitemap_links`` when the build finishes)."""
    app.sitemap_links = links


def sitemap_excluded(link: str, patterns: list[str]) -> bool:
    """Whether sphinx-sitemap leaves ``link`` out for ``sitemap_excludes``."""
    from sphinx_sitemap import is_excluded

    return is_excluded(link, patterns)


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


def unwrap_stretched_link(link: nodes.Element) -> None:
    """Take a card's stretched link out of the wrapper sphinx-design puts it in, and drop the wrapper."""
    from sphinx_design.shared import PassthroughTextElement

    wrapper = link.parent
    if isinstance(wrapper, PassthroughTextElement):
        wrapper.parent.remove(wrapper)
    else:
        wrapper.remove(link)


def saved_environment(doctree_dir: Path) -> Any:
    """The build environment Sphinx saved in ``doctree_dir`` (read with the same Sphinx)."""
    from sphinx.application import ENV_PICKLE_FILENAME

    with open(doctree_dir / ENV_PICKLE_FILENAME, "rb") as fh:
        return pickle.load(fh)


def environment_file(doctree_dir: Path) -> Path:
    """Where Sphinx saves its environment in ``doctree_dir``."""
    from sphinx.application import ENV_PICKLE_FILENAME

    return doctree_dir / ENV_PICKLE_FILENAME


def markdown_parser(doc_link: Callable[[Any, str], str | None]) -> type:
    """MyST's Sphinx parser, but for a Markdown link whose target
    ``doc_link(env, href)`` names as a document.

    MyST turns such an href into a file path, asks the file system whether it
    is a file, and turns the path back into a document name: half a
    millisecond a link, most of it pathlib's, and the hub pages hold hundreds
    of links. For those links this parser makes the node MyST makes (a
    ``pending_xref`` to the document, which MyST resolves as before) from the
    name alone; every other link is MyST's.
    """
    from myst_parser.config.main import TopmatterReadError, merge_file_level, read_topmatter
    from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer
    from myst_parser.parsers.mdit import create_md_parser
    from myst_parser.parsers.sphinx_ import MystParser
    from myst_parser.warnings_ import create_warning
    from sphinx import addnodes

    class Renderer(SphinxRenderer):
        def render_link_unknown(self, token: Any) -> None:
            href = self.md.normalizeLinkText(str(token.attrGet("href") or ""))
            # An included file's links are relative to it (MyST's "relative-docs").
            docname = None if self.md_env.get("relative-docs") else doc_link(self.sphinx_env, href)
            if docname is None:
                super().render_link_unknown(token)
                return
            explicit = token.info != "auto" and bool(token.children)
            node = addnodes.pending_xref(
                refdomain="doc",
                reftarget=docname,
                reftargetid=None,
                refdoc=self.sphinx_env.docname,
                reftype="myst",
                refexplicit=explicit,
            )
            self._process_wrap_node(node, token, explicit, ["xref", "myst"], href)

    class Parser(MystParser):
        # MystParser.parse as in myst-parser 5.2, with Renderer for SphinxRenderer.
        def parse(self, inputstring: str, document: nodes.document) -> None:
            config = document.settings.env.myst_config
            try:
                topmatter = read_topmatter(inputstring)
            except TopmatterReadError:
                pass  # reported during the render
            else:
                if topmatter:
                    def warning(wtype: Any, msg: str) -> None:
                        create_warning(document, msg, wtype, line=1, append_to=document)

                    config = merge_file_level(config, topmatter, warning)
            parser = create_md_parser(config, Renderer)
            parser.options["document"] = document
            parser.render(inputstring)

    return Parser


def cache_templates(builder: Any, folder: Path) -> bool:
    """Keep the compiled templates of an HTML builder in ``folder``; False if it has none.

    Sphinx compiles every Jinja template again in each process of each
    build; with a bytecode cache a build loads them (Jinja checks each
    template's source against its entry)."""
    from jinja2 import FileSystemBytecodeCache

    environment = getattr(getattr(builder, "templates", None), "environment", None)
    if environment is None:
        return False
    folder.mkdir(parents=True, exist_ok=True)
    environment.bytecode_cache = FileSystemBytecodeCache(str(folder))
    return True
