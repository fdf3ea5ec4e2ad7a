"""The search's own reliances on Sphinx internals (sphinxext/_internals.py), each
with a test that fails, saying what changed, when an upgrade breaks it. (The
indexer's, in prnotes.sphinxext._internals, are tested in test_internals.py.)"""

from __future__ import annotations

import pytest

from prnotes.sphinxext import _internals as internals
from prnotes.sphinxext.search import publish
from prnotes.sphinxext.search.language import Utf8JavaScriptIndex
from tests.support.sandbox import copy_project, convert, sphinx_build

SEEDS = {
    "000.txt": "o/r\n\n修复前缀缓存竞态 (#123)\n\n值得精读，结合 #456 看。\n",
    "prs.toml": '["o/r"]\n"修复前缀缓存竞态" = { number = 123, upstream_title = "[Core] Fix the prefix cache race" }\n',
}


def test_the_builder_writes_its_index_where_whole_index_reads_it():
    from sphinx.builders.html import StandaloneHTMLBuilder

    assert StandaloneHTMLBuilder.searchindex_filename == internals.SEARCHINDEX, (
        f"the HTML builder writes its index to {StandaloneHTMLBuilder.searchindex_filename}, "
        f"not {internals.SEARCHINDEX}: sphinxext/_internals.py's whole_index must look there"
    )


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
    highlight = [found for name, found in dropped if name == publish.HIGHLIGHT_SCRIPT]
    assert highlight and all(highlight), (
        f"Sphinx no longer lists {publish.HIGHLIGHT_SCRIPT} among a page's script_files by that filename: "
        "sphinxext/_internals.py's drop_script leaves it on every page"
    )
    page = (proj / "_build/html/notes/o/r/pr-123.html").read_text(encoding="utf-8")
    assert "sphinx_highlight.js" not in page and "documentation_options.js" in page
