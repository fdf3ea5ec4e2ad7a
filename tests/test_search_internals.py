"""Each of the search's reliances on Sphinx internals (search/internals.py),
with a test that fails, saying what changed, when an upgrade breaks it."""

from __future__ import annotations

import copy
import random

import pytest

from prnotes.sphinxext.search import internals, publish
from prnotes.sphinxext.search.indexfile import Utf8JavaScriptIndex
from tests.support.sandbox import copy_project, convert, sphinx_build

SEEDS = {
    "000.txt": "o/r\n\n修复前缀缓存竞态 (#123)\n\n值得精读，结合 #456 看。\n",
    "prs.toml": '["o/r"]\n"修复前缀缓存竞态" = { number = 123, upstream_title = "[Core] Fix the prefix cache race" }\n',
}


def _names(function) -> tuple[str, ...]:
    return getattr(function, "__wrapped__", function).__code__.co_names


def test_the_indexer_keeps_title_terms_where_add_title_terms_writes_them():
    from sphinx.search import IndexBuilder

    assert "_title_mapping" in _names(IndexBuilder.__init__) and "_title_mapping" in _names(IndexBuilder.feed), (
        "Sphinx's IndexBuilder no longer keeps a page's title terms in _title_mapping: "
        "search/internals.py's add_title_terms (the upstream title and PR number as title terms) must change"
    )


def test_the_builder_writes_and_reads_the_index_with_its_indexer_format():
    from sphinx.builders.html import StandaloneHTMLBuilder

    for name in ("dump_search_index", "load_indexer"):
        assert {"indexer_format", "indexer_dumps_unicode"} <= set(_names(getattr(StandaloneHTMLBuilder, name))), (
            f"StandaloneHTMLBuilder.{name} no longer uses indexer_format and indexer_dumps_unicode: "
            "search/internals.py's use_index_format cannot choose how searchindex.js is written"
        )
    assert StandaloneHTMLBuilder.searchindex_filename == internals.SEARCHINDEX, (
        f"the HTML builder writes its index to {StandaloneHTMLBuilder.searchindex_filename}, "
        f"not {internals.SEARCHINDEX}: search/internals.py's whole_index must look there"
    )


def test_the_index_is_pruned_with_a_set_to_the_same_result():
    from sphinx.search import IndexBuilder

    original = getattr(IndexBuilder.prune, "__wrapped__", IndexBuilder.prune)
    assert {"intersection_update"} <= set(original.__code__.co_names), (
        "IndexBuilder.prune no longer intersects each term's pages with the documents given: "
        "search/internals.py's prune_with_a_set must be checked against it"
    )
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
    original(expected, kept)
    internals.prune_with_a_set()
    assert hasattr(IndexBuilder.prune, "__wrapped__")
    indexer.prune(kept)
    for store in ("_titles", "_all_titles", "_filenames", "_mapping", "_title_mapping"):
        assert getattr(indexer, store) == getattr(expected, store), store
    assert list(indexer._titles) == list(expected._titles)  # the same order too


@pytest.fixture(scope="module")
def small_site(tmp_path_factory):
    proj = copy_project(tmp_path_factory.mktemp("internals") / "p", SEEDS)
    assert convert(proj) == 0
    dropped: list[tuple[str, bool]] = []
    real = internals.drop_script

    def recording(context, filename):
        found = real(context, filename)
        dropped.append((filename, found))
        return found

    internals.drop_script = recording
    try:
        app = sphinx_build(proj)
    finally:
        internals.drop_script = real
    assert app.warning.getvalue() == ""
    return proj, dropped


def test_the_whole_index_has_what_the_split_reads(small_site):
    proj, _ = small_site
    raw, data = internals.whole_index(proj / "_build/html", Utf8JavaScriptIndex())
    assert set(internals.INDEX_KEYS) <= set(data), (
        f"searchindex.js has no {set(internals.INDEX_KEYS) - set(data)}: Sphinx's index data changed shape"
    )
    assert len(data["docnames"]) == len(data["titles"])
    assert "notes/o/r/pr-123" in data["docnames"]
    assert "#123" in data["titleterms"]  # the PR number, added by add_title_terms


def test_a_missing_or_reshaped_index_is_said_plainly(tmp_path):
    with pytest.raises(internals.IndexShapeError, match="cannot be read"):
        internals.whole_index(tmp_path, Utf8JavaScriptIndex())
    (tmp_path / internals.SEARCHINDEX).write_text('Search.setIndex({"docnames":[]})', encoding="utf-8")
    with pytest.raises(internals.IndexShapeError, match="has no titles, terms, titleterms"):
        internals.whole_index(tmp_path, Utf8JavaScriptIndex())


def test_sphinx_highlight_is_among_the_page_scripts_to_leave_out(small_site):
    proj, dropped = small_site
    assert dropped and all(name == publish.HIGHLIGHT_SCRIPT for name, _ in dropped)
    assert all(found for _, found in dropped), (
        f"Sphinx no longer lists {publish.HIGHLIGHT_SCRIPT} among a page's script_files by that filename: "
        "search/internals.py's drop_script leaves it on every page"
    )
    page = (proj / "_build/html/notes/o/r/pr-123.html").read_text(encoding="utf-8")
    assert "sphinx_highlight.js" not in page and "documentation_options.js" in page
