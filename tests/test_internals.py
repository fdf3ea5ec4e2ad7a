"""Each accessor of ``prnotes.sphinxext._internals``: what it relies on in
Sphinx or sphinx-design that they do not document, and a test that fails,
naming the reliance, when an upgrade takes it away.

These tests are what guards an upgrade: nothing checks versions or source
text at build time. ``make test-latest`` runs them on the newest releases
that ``pyproject.toml`` allows.
"""

from __future__ import annotations

import pytest
from docutils import nodes

from prnotes.sphinxext import _internals

pytestmark = pytest.mark.sphinx("html", testroot="internals", freshenv=True)


def test_title_terms_go_into_the_search_index(app):
    """add_title_terms: ``builder.indexer`` and ``IndexBuilder._title_mapping``."""
    seen = []

    def add(app, doctree, docname):
        if docname == "other":
            seen.append(_internals.add_title_terms(app.builder, docname, ["quokka"]))

    app.connect("doctree-resolved", add)
    app.build()
    assert seen == [True], "StandaloneHTMLBuilder.indexer is not an IndexBuilder when pages are resolved"
    assert "quokka" in app.builder.indexer._title_mapping, "IndexBuilder._title_mapping is gone"
    index = (app.outdir / "searchindex.js").read_text(encoding="utf-8")
    assert '"quokka"' in index, "IndexBuilder no longer writes _title_mapping into titleterms"


def test_prune_takes_a_set_and_keeps_the_result(app):
    """prune_index_with_a_set: ``IndexBuilder.prune(docnames)`` keeps the words of ``docnames``."""
    from sphinx.search import IndexBuilder

    _internals.prune_index_with_a_set()
    assert hasattr(IndexBuilder.prune, "__wrapped__")
    app.build()
    index = (app.outdir / "searchindex.js").read_text(encoding="utf-8")
    assert '"zebra"' in index, "IndexBuilder.prune no longer keeps the words of the documents given"


def test_index_format_can_be_replaced(app):
    """html_builders: ``StandaloneHTMLBuilder.indexer_format`` and ``indexer_dumps_unicode``."""

    class Marked:
        def dumps(self, data):
            return "MARKED(" + str(sorted(data)) + ")"

        def dump(self, data, f):
            f.write(self.dumps(data))

        def load(self, f):
            raise ValueError

        def loads(self, s):
            raise ValueError

    html, dirhtml = _internals.html_builders(indexer_format=Marked())
    assert (html.name, dirhtml.name) == ("html", "dirhtml")
    builder = html(app, app.env)
    builder.init()
    builder.build_all()
    assert (app.outdir / "searchindex.js").read_text(encoding="utf-8").startswith("MARKED("), (
        "StandaloneHTMLBuilder no longer writes searchindex.js with indexer_format"
    )


def test_page_tree_and_relations(app):
    """page_tree (``BuildEnvironment.collect_relations``) and relations (``StandaloneHTMLBuilder.relations``)."""
    seen = {}
    app.connect("env-updated", lambda app, env: seen.setdefault("tree", _internals.page_tree(env)) and [])
    app.connect("html-page-context", lambda app, *args: seen.setdefault("relations", _internals.relations(app.builder)) and None)
    app.build()
    for found in (seen["tree"], seen["relations"]):
        assert found["other"] == ["index", "index", "last"], "[parent, previous, next] per document is gone"


def test_html_builds_write_a_search_index(app):
    """writes_search_index: ``StandaloneHTMLBuilder.search``."""
    assert _internals.writes_search_index(app.builder) is True, "the HTML builder's search attribute is gone"


@pytest.mark.sphinx("epub", testroot="internals", freshenv=True)
def test_epub_builds_write_none(app):
    assert _internals.writes_search_index(app.builder) is False, "the EPUB builder no longer turns search off"


@pytest.mark.sphinx("epub", testroot="internals", freshenv=True)
def test_epub_guide_titles(app):
    """titled_epub_builder: ``EpubBuilder.guide_titles``, which titles nav.xhtml."""
    builder = _internals.titled_epub_builder({"toc": "目录"})(app, app.env)
    builder.init()
    builder.build_all()
    nav = (app.outdir / "nav.xhtml").read_text(encoding="utf-8")
    assert "<title>目录</title>" in nav and "Table of Contents" not in nav, (
        "the EPUB builder no longer titles nav.xhtml from guide_titles['toc']"
    )


@pytest.mark.sphinx("html", testroot="internals", freshenv=True, parallel=2)
def test_process_hooks_choose_how_a_batch_is_read_and_written(app):
    """ProcessHooks: ``Builder.read`` calls ``_read_parallel`` (else ``_read_serial``) and
    ``write_documents`` calls ``_write_parallel`` with ``parallel - 1`` workers (else ``_write_serial``)."""
    asked, merged = [], []

    class Serial:
        def reads_serially(self, docnames):
            asked.append(("read", sorted(docnames)))
            return True

        def write_workers(self, docnames, workers):
            asked.append(("write", workers))
            return 0

    app.connect("env-merge-info", lambda app, env, docnames, other: merged.append(docnames))
    html, _ = _internals.html_builders(Serial)
    builder = html(app, app.env)
    builder.init()
    builder.build_all()
    assert asked == [("read", ["index", "last", "other"]), ("write", 1)], (
        "Builder.read no longer calls _read_parallel, or write_documents _write_parallel with parallel - 1"
    )
    assert merged == [], "_read_serial no longer reads in the main process"
    assert (app.outdir / "other.html").is_file(), "_write_serial no longer writes the pages"


def test_design_badges_are_as_sphinx_design_makes_them(app):
    """design_badge and the DESIGN_* classes: sphinx-design's badge and card classes."""
    app.build()
    doctree = app.env.get_doctree("index")
    badges = [n for n in doctree.findall(nodes.inline) if _internals.DESIGN_BADGE in n["classes"]]
    assert len(badges) == 2, "sphinx-design's badges no longer carry the sd-badge class"
    ours = _internals.design_badge("精读", "danger")
    assert ours["classes"] == badges[0]["classes"], "a {bdg-danger} badge has other classes than design_badge makes"
    assert any(c.startswith(_internals.DESIGN_BADGE_OUTLINE) for c in badges[1]["classes"]), "line badges lost sd-outline-"
    cards = [n for n in doctree.findall(nodes.container) if _internals.DESIGN_CARD in n["classes"]]
    assert cards, "cards no longer carry sd-card"
    titles = [n for n in cards[0].findall(nodes.Element) if _internals.DESIGN_CARD_TITLE in n["classes"]]
    links = [n for n in cards[0].findall(nodes.Element) if _internals.DESIGN_STRETCHED_LINK in n["classes"]]
    assert titles and links, "a card's title or stretched link lost its class"
    _internals.unwrap_stretched_link(links[0])
    assert not list(cards[0].findall(lambda n: _internals.DESIGN_STRETCHED_LINK in getattr(n, "get", lambda *a: ())("classes", ()))), (
        "unwrap_stretched_link left the stretched link in its card: PassthroughTextElement is gone"
    )


@pytest.mark.sphinx("latex", testroot="internals", freshenv=True)
def test_included_document_names_each_file_of_the_book(app):
    """included_document: the docname of the LaTeX builder's start_of_file nodes."""
    from sphinx import addnodes

    seen = []
    app.connect("doctree-resolved", lambda app, doctree, docname: seen.extend(
        _internals.included_document(n) for n in doctree.findall(addnodes.start_of_file)
    ))
    app.build()
    assert seen == ["other", "last"], "start_of_file no longer carries the docname of the file it holds"


def test_octicons_are_as_sphinx_design_draws_them():
    """octicon_svg and octicon_drawing: ``sphinx_design.icons.get_octicon`` and
    ``get_octicon_data``, the drawings of its ``{octicon}`` role."""
    import re

    svg = _internals.octicon_svg("mark-github", ["prnotes-icon", "fa-lg"])
    assert svg.startswith("<svg") and 'aria-hidden="true"' in svg, "get_octicon no longer draws a hidden SVG"
    assert re.search(r'class="[^"]*\bprnotes-icon fa-lg"', svg), "get_octicon no longer takes the classes it is given"
    assert 'height="1.0em"' in svg or 'height="1em"' in svg, "get_octicon no longer draws at the height asked for"
    width, drawing = _internals.octicon_drawing("mark-github")
    assert width == 16 and drawing.startswith("<path") and drawing in svg, "get_octicon_data's 16 px drawing is not what get_octicon draws"


def test_symbols_print_as_written():
    """print_as_written: ``texescape._tex_escape_map_without_unicode``, which ``escape()`` uses for xelatex."""
    from sphinx.util import texescape

    texescape.init()
    _internals.print_as_written(lambda ch: f"[{ord(ch)}]")
    try:
        assert texescape.escape("✔", "xelatex") == f"[{ord('✔')}]", "texescape.escape no longer reads the map"
    finally:
        texescape.init()


def test_references_resolver_priority():
    """REFERENCES_RESOLVER_PRIORITY: ``ReferencesResolver.default_priority``, so prlinks' one-pass resolver runs first."""
    from sphinx.transforms.post_transforms import ReferencesResolver

    assert ReferencesResolver.default_priority == _internals.REFERENCES_RESOLVER_PRIORITY, (
        "ReferencesResolver's priority changed: ResolvePrLinks may run after it, one node at a time again"
    )


def test_saved_environment(app):
    """saved_environment and environment_file: ``sphinx.application.ENV_PICKLE_FILENAME`` in the doctree folder."""
    app.build()
    path = _internals.environment_file(app.doctreedir)
    assert path.is_file(), f"Sphinx no longer saves its environment as {path.name}"
    assert set(_internals.saved_environment(app.doctreedir).all_docs) == {"index", "other", "last"}


def test_page_assets_are_found_by_their_names(app):
    """drop_script, drop_stylesheet (page/assets.py): a page's ``script_files`` and ``css_files``
    name Sphinx's and sphinx-design's files ``_static/…``."""
    from prnotes.sphinxext.page import assets

    app.connect("html-page-context", assets.page_assets)
    app.build()
    plain = (app.outdir / "other.html").read_text(encoding="utf-8")
    rich = (app.outdir / "last.html").read_text(encoding="utf-8")  # a code block and a tab set
    assert "documentation_options.js" in plain
    for name in ("doctools.js", "design-tabs.js", "pygments.css"):
        assert name not in plain, f"{name} is no longer listed as _static/{name}: page/assets.py leaves it on every page"
    assert "doctools.js" not in rich
    assert "design-tabs.js" in rich and "pygments.css" in rich, "a page with tabs and code lost what they need"


def test_the_sources_are_known_before_they_are_read(app):
    """sources: ``BuildEnvironment.found_docs`` holds every page with a source before any
    is read (``documents``, ``env.all_docs``, only those read)."""
    seen = {}

    def first(app, env, docnames):
        seen["sources"], seen["documents"] = set(_internals.sources(env)), set(_internals.documents(env))

    app.connect("env-before-read-docs", first)
    app.build()
    assert seen["sources"] == {"index", "other", "last"}, "BuildEnvironment.found_docs no longer lists every source"
    assert seen["documents"] == set()


def test_the_doctrees_read_wait_for_the_writers_until_dropped(app):
    """drop_read_doctrees (site/speedups.py): a serial read leaves each doctree in
    ``env._write_doc_doctree_cache`` for the writers, who read it back from its pickle once it is gone."""
    dropped = []
    app.connect("env-updated", lambda app, env: dropped.append(_internals.drop_read_doctrees(env)) or [], priority=1)
    app.build()
    assert dropped and dropped[0] == 3, "BuildEnvironment._write_doc_doctree_cache no longer holds the doctrees read"
    assert "other" in (app.outdir / "other.html").read_text(encoding="utf-8")
