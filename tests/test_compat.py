"""The seam with Sphinx: prnotes.sphinxext._compat and what it guards."""

from __future__ import annotations

import ast
import html
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from docutils import nodes

from prnotes.sphinxext import _compat
from tests.support.sandbox import ROOT, copy_project

HINT = "install the pinned versions: pip install -r requirements/site.txt"


def test_the_installed_packages_are_the_supported_ones():
    assert _compat.version_problems() == []
    assert _compat.reliance_problems() == []


def test_the_supported_series_are_the_pinned_ones():
    pins = dict(
        line.split("==")
        for line in (ROOT / "requirements/site.txt").read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.lstrip().startswith("#")
    )
    for series in _compat.WRITTEN_FOR:
        assert series.distribution in pins, series
        assert series.accepts(pins[series.distribution].split()[0]), (series, pins[series.distribution])


def test_a_series_accepts_its_patch_releases_only():
    series = _compat.Series("sphinx-design", 0, 8)
    assert series.accepts("0.8.0") and series.accepts("0.8.3") and series.accepts("0.8.1.post1")
    assert not series.accepts("0.9.0")
    assert not series.accepts("1.8.0")
    assert not series.accepts("not a version")
    assert str(series) == "sphinx-design 0.8.x"


# How to take each reliance away, as an upgrade might: reliance name -> remover.


def _sphinx_js_with(file: str, old: str, new: str, flags: int = re.MULTILINE):
    """Point ``sphinx.__file__`` at a copy of Sphinx's static JavaScript where
    ``old`` (a regular expression) is replaced by ``new`` in ``file``."""

    def change(monkeypatch, tmp_path):
        import sphinx

        real = Path(sphinx.__file__).parent
        for name in (_compat.SEARCHTOOLS, _compat.SPHINX_HIGHLIGHT):
            source = (real / name).read_text(encoding="utf-8")
            if name == file:
                changed = re.sub(old, new, source, count=1, flags=flags)
                assert changed != source
                source = changed
            fake = tmp_path / "sphinx" / name
            fake.parent.mkdir(parents=True, exist_ok=True)
            fake.write_text(source, encoding="utf-8")
        monkeypatch.setattr(sphinx, "__file__", str(tmp_path / "sphinx" / "__init__.py"))

    return change


def _searchtools_without(member: str):
    return _sphinx_js_with(_compat.SEARCHTOOLS, rf"^(\s*){member}(\s*:)", rf"\1{member}Renamed\2")


def _script_function_changed(function: _compat.ScriptFunction):
    """The function's first line gains a statement, as a patch release might."""
    member = function.name.removeprefix("Search.")
    start = rf"^(  {re.escape(member)}: .*)$" if member != function.name else rf"^(const {re.escape(member)} = .*)$"
    return _sphinx_js_with(function.file, start, r"\1\n    void 0;")


def _no_title_mapping(monkeypatch, tmp_path):
    from sphinx.search import IndexBuilder

    monkeypatch.setattr(IndexBuilder, "__init__", lambda self, *args, **kwargs: None)


def _prepare_writing_sets_only(name: str):
    def remove(monkeypatch, tmp_path):
        from sphinx.builders.html import StandaloneHTMLBuilder

        if name == "indexer":
            def prepare_writing(self, docnames):
                self.indexer = None
        else:
            def prepare_writing(self, docnames):
                self.relations = {}

        monkeypatch.setattr(StandaloneHTMLBuilder, "prepare_writing", prepare_writing)

    return remove


def _no_indexer_format(monkeypatch, tmp_path):
    from sphinx.builders.html import StandaloneHTMLBuilder

    monkeypatch.delattr(StandaloneHTMLBuilder, "indexer_format")


def _prune_keeping_a_list(self, docnames):  # IndexBuilder.prune, were a release to filter differently
    self._titles = {d: t for d, t in self._titles.items() if d in docnames}


def _index_pruned_otherwise(monkeypatch, tmp_path):
    from sphinx.search import IndexBuilder

    monkeypatch.setattr(IndexBuilder, "prune", _prune_keeping_a_list)


def _no_saved_error_report(monkeypatch, tmp_path):
    import sphinx._cli.util.errors as errors

    monkeypatch.delattr(errors, "save_traceback")


def _no_env_pickle_name(monkeypatch, tmp_path):
    import sphinx.application

    monkeypatch.delattr(sphinx.application, "ENV_PICKLE_FILENAME")


def _sitemap_without_queue(monkeypatch, tmp_path):
    import sphinx_sitemap

    monkeypatch.setattr(sphinx_sitemap, "record_builder_type", lambda app: None)


def _opengraph_escaping_everything(monkeypatch, tmp_path):
    from sphinxext import opengraph

    monkeypatch.setattr(
        opengraph, "make_tag", lambda prop, content, type_="property": f'<meta {type_}="{prop}" content="{html.escape(content)}" />'
    )


def _design_without_passthrough(monkeypatch, tmp_path):
    from sphinx_design import shared

    monkeypatch.delattr(shared, "PassthroughTextElement")


def _texescape_without_its_map(monkeypatch, tmp_path):
    from sphinx.util import texescape

    monkeypatch.delattr(texescape, "_tex_escape_map_without_unicode")


def _read_deciding_before_the_event(self):  # Builder.read, were -j decided before the event
    parallel = self._app.parallel > 1
    self.events.emit('env-before-read-docs', self.env, [])
    return parallel


def _parallel_decided_early(monkeypatch, tmp_path):
    from sphinx.builders import Builder

    monkeypatch.setattr(Builder, "read", _read_deciding_before_the_event)


def _write_documents_with_all_processes(self, docnames):  # Builder.write_documents, were the main process to write too
    self._write_parallel(sorted(docnames), nproc=self._app.parallel)


def _writing_counts_every_process(monkeypatch, tmp_path):
    from sphinx.builders import Builder

    monkeypatch.setattr(Builder, "write_documents", _write_documents_with_all_processes)


def _parse_changed(self, inputstring, document):  # MystParser.parse, were a release to change it
    document.settings.env.myst_config.changed = True


def _myst_parse_changed(monkeypatch, tmp_path):
    from myst_parser.parsers.sphinx_ import MystParser

    monkeypatch.setattr(MystParser, "parse", _parse_changed)


def _render_link_unknown_changed(self, token):  # were MyST to make another node for a link
    self.current_node.append(nodes.reference("", "", refuri=token.attrGet("href")))


def _myst_link_changed(monkeypatch, tmp_path):
    from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer

    monkeypatch.setattr(SphinxRenderer, "render_link_unknown", _render_link_unknown_changed)


def _wrap_node_with_another_signature(self, wrap_node, token, explicit, classes, path_dest, title=None):
    pass


def _myst_wrap_node_changed(monkeypatch, tmp_path):
    from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer

    monkeypatch.setattr(SphinxRenderer, "_process_wrap_node", _wrap_node_with_another_signature)


def _init_without_environment(self, builder, theme=None, dirs=None):  # were the loader to keep its Jinja environment elsewhere
    self.jinja = None


def _templates_elsewhere(monkeypatch, tmp_path):
    from sphinx.jinja2glue import BuiltinTemplateLoader

    monkeypatch.setattr(BuiltinTemplateLoader, "init", _init_without_environment)


REMOVERS = {
    "sphinx.search.IndexBuilder._title_mapping": _no_title_mapping,
    "StandaloneHTMLBuilder.indexer": _prepare_writing_sets_only("relations"),
    "StandaloneHTMLBuilder.indexer_format": _no_indexer_format,
    "StandaloneHTMLBuilder.relations": _prepare_writing_sets_only("indexer"),
    **{f"{f.name} in {Path(f.file).name} as in Sphinx 9.1": _script_function_changed(f) for f in _compat.SPHINX_JS_SHAPES},
    "Search._index in searchtools.js": _searchtools_without("_index"),
    "sphinx.application.ENV_PICKLE_FILENAME": _no_env_pickle_name,
    "build_main's sphinx._cli.util.errors.handle_exception": _no_saved_error_report,
    "IndexBuilder.prune(docnames) intersecting each word's pages": _index_pruned_otherwise,
    "Sphinx.parallel, read after env-before-read-docs": _parallel_decided_early,
    "Builder.write_documents: parallel - 1 workers, after write-started": _writing_counts_every_process,
    "MystParser.parse as in myst-parser 5.2": _myst_parse_changed,
    "SphinxRenderer.render_link_unknown as in myst-parser 5.2": _myst_link_changed,
    "SphinxRenderer._process_wrap_node(wrap_node, token, explicit, classes, path_dest)": _myst_wrap_node_changed,
    "BuiltinTemplateLoader.environment": _templates_elsewhere,
    "the app.sitemap_links queue": _sitemap_without_queue,
    "<meta> tags from make_tag with only double quotes escaped": _opengraph_escaping_everything,
    "PassthroughTextElement around a card's stretched link": _design_without_passthrough,
    "texescape._tex_escape_map_without_unicode, used by escape()": _texescape_without_its_map,
}


def test_every_reliance_can_be_taken_away_here():
    assert set(REMOVERS) == {r.name for r in _compat.RELIANCES}


@pytest.mark.parametrize("reliance", _compat.RELIANCES, ids=lambda r: r.name)
def test_a_missing_internal_is_named_with_its_package_and_version(reliance, monkeypatch, tmp_path):
    REMOVERS[reliance.name](monkeypatch, tmp_path)
    found = metadata.version(reliance.distribution)
    message = f"{reliance.distribution} {found} lacks what prnotes relies on: {reliance.name} ({reliance.user}); {HINT}"
    assert _compat.reliance_problems() == [message]
    with pytest.raises(_compat.Incompatible) as info:
        _compat.check()
    assert str(info.value) == f"prnotes: {message}"


@pytest.mark.parametrize("function", _compat.SPHINX_JS_SHAPES, ids=lambda f: f.name)
def test_a_replaced_sphinx_function_that_is_gone_is_named_too(function, monkeypatch, tmp_path):
    member = function.name.removeprefix("Search.")
    pattern = rf"^(\s*){re.escape(member)}(\s*:)" if member != function.name else rf"^const {re.escape(member)} ="
    replacement = rf"\1{member}Renamed\2" if member != function.name else f"const {member}Renamed ="
    _sphinx_js_with(function.file, pattern, replacement)(monkeypatch, tmp_path)
    assert function.source() is None
    assert [p for p in _compat.reliance_problems() if function.name in p] != []


def test_the_javascript_constants_name_the_replaced_functions_and_their_parameters():
    js = _compat.searchtools_js()
    assert 'const PRNOTES_SEARCH_REPLACED = {"_parseQuery": 1, "_performSearch": 5, "makeSearchSummary": 3};' in js
    replaced = {f.name.removeprefix("Search.") for f in _compat.SPHINX_JS_SHAPES}
    assert set(_compat.SEARCHTOOLS_REPLACED) <= replaced


def _sphinx_build_after(patch: str, proj: Path) -> subprocess.CompletedProcess:
    """``sphinx-build -b html`` on ``proj`` in a fresh Python that first runs ``patch``."""
    code = f"{patch}\nimport sys\nfrom sphinx.cmd.build import main\nsys.exit(main(sys.argv[1:]))\n"
    return subprocess.run(
        [sys.executable, "-c", code, "-q", "-b", "html", str(proj), str(proj / "_build/html")],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_sphinx_build_stops_with_one_line_when_a_private_sphinx_api_is_gone(tmp_path):
    proj = copy_project(tmp_path / "p")
    patch = "from sphinx.builders.html import StandaloneHTMLBuilder\ndel StandaloneHTMLBuilder.indexer_format"
    proc = _sphinx_build_after(patch, proj)
    assert proc.returncode == 1
    assert proc.stderr == (
        f"prnotes: sphinx {metadata.version('sphinx')} lacks what prnotes relies on: "
        f"StandaloneHTMLBuilder.indexer_format (search/indexfile.py); {HINT}\n"
    )
    assert not (proj / "_build/html").exists()


def test_sphinx_build_stops_when_a_searchtools_function_search_js_replaces_has_changed(tmp_path):
    """A patch release of Sphinx that edits Search._performSearch: the build
    stops before search.js could replace a function it was not written for."""
    proj = copy_project(tmp_path / "p")
    patch = (
        "import re, shutil, sphinx, pathlib\n"
        f"fake = pathlib.Path({str(tmp_path / 'fake')!r})\n"
        "real = pathlib.Path(sphinx.__file__).parent\n"
        "for name in ('themes/basic/static/searchtools.js', 'themes/basic/static/sphinx_highlight.js'):\n"
        "    (fake / name).parent.mkdir(parents=True, exist_ok=True)\n"
        "    text = (real / name).read_text(encoding='utf-8')\n"
        "    text = re.sub(r'^(  _performSearch: .*)$', r'\\1\\n    void 0;', text, count=1, flags=re.M)\n"
        "    (fake / name).write_text(text, encoding='utf-8')\n"
        "sphinx.__file__ = str(fake / '__init__.py')"
    )
    proc = _sphinx_build_after(patch, proj)
    assert proc.returncode == 1
    assert proc.stderr == (
        f"prnotes: sphinx {metadata.version('sphinx')} lacks what prnotes relies on: "
        f"Search._performSearch in searchtools.js as in Sphinx 9.1 (search/search.js); {HINT}\n"
    )


def test_sphinx_build_stops_with_one_line_on_an_unsupported_version(tmp_path):
    proj = copy_project(tmp_path / "p")
    patch = (
        "import importlib.metadata as m\n"
        "real = m.version\n"
        "m.version = lambda name: '0.9.0' if name == 'sphinx-design' else real(name)"
    )
    proc = _sphinx_build_after(patch, proj)
    assert proc.returncode == 1
    assert proc.stderr == f"prnotes: sphinx-design 0.9.0 is installed, but this site supports sphinx-design 0.8.x only; {HINT}\n"


def test_every_problem_gets_its_own_line():
    error = _compat.Incompatible(["a is wrong", "b is missing"])
    assert str(error) == "prnotes: a is wrong\nprnotes: b is missing"
    assert error.problems == ("a is wrong", "b is missing")


# Names that only _compat may use: Sphinx's and other extensions' internals.
INTERNALS = re.compile(
    r"_title_mapping|_stopwords|indexer_format|indexer_dumps_unicode|\.relations\b|\.indexer\b|IndexBuilder"
    r"|sitemap_links|sphinx_sitemap|sphinx_design|sphinxext\.opengraph|sd-[a-z]|environment\.pickle|pickle\.load"
    r"|_parseQuery|searchtools|[\"'](?:relations|indexer)[\"']"
)
# Uses of _compat itself.
OUR_SEAM = re.compile(r"\.?\b_compat(?:\.\w+)?")
# Attribute access to a leading-underscore name of anything but our own
# objects (self, our modules, our attributes on Sphinx's objects) and the
# standard library's documented os._exit.
PRIVATE_ATTRIBUTE = re.compile(r"(?<!self)(?<!PrnotesSearch)(?<!\bos)\.(_(?!_|prnotes)[a-z]\w*)")


def _docstring_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and ast.get_docstring(node):
            first = node.body[0]
            lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


# The conversion reads its own cache with pickle (prnotes/cache.py); that is no
# one else's internal.
OWN_PICKLE = ROOT / "scripts" / "prnotes" / "cache.py"


def test_only_compat_touches_internals():
    package = ROOT / "scripts" / "prnotes"
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "_compat.py":
            continue
        source = path.read_text(encoding="utf-8")
        prose = _docstring_lines(ast.parse(source))
        for number, line in enumerate(source.splitlines(), 1):
            code = "" if number in prose else OUR_SEAM.sub("", line.split("#")[0])
            if path == OWN_PICKLE:
                code = code.replace("pickle.load", "")
            if INTERNALS.search(code) or PRIVATE_ATTRIBUTE.search(code):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_index_is_pruned_with_a_set_to_the_same_result():
    import copy
    import random

    from sphinx.search import IndexBuilder

    rng = random.Random(7)
    docs = {f"notes/o/r/pr-{i}": None for i in range(300)}
    indexer = IndexBuilder.__new__(IndexBuilder)
    indexer._titles = {d: d for d in docs}
    indexer._all_titles = {d: [] for d in docs}
    indexer._filenames = {d: f"{d}.md" for d in docs}
    indexer._mapping = {f"w{i}": set(rng.sample(sorted(docs), 3)) for i in range(2000)}
    indexer._title_mapping = {f"t{i}": set(rng.sample(sorted(docs), 2)) for i in range(500)}
    kept = dict(list(docs.items())[:-40])  # as Sphinx passes it: env.all_docs, a dict
    expected = copy.deepcopy(indexer)
    getattr(IndexBuilder.prune, "__wrapped__", IndexBuilder.prune)(expected, kept)
    _compat.prune_index_with_a_set()
    assert hasattr(IndexBuilder.prune, "__wrapped__")
    indexer.prune(kept)
    for store in ("_titles", "_all_titles", "_filenames", "_mapping", "_title_mapping"):
        assert getattr(indexer, store) == getattr(expected, store), store
    assert list(indexer._titles) == list(expected._titles)  # the same order too
