"""The "On this page" sidebar: on the pages whose table of contents lists more
than the title, rendered once."""

from __future__ import annotations

import pytest
from docutils import nodes

from prnotes.sphinxext.pagetoc import has_page_toc
from tests.support.sandbox import convert, copy_project, sphinx_build


def toc(*headings: list) -> nodes.bullet_list:
    """A page's table of contents: each heading a list of its sections' headings."""
    out = nodes.bullet_list()
    for sections in headings:
        item = nodes.list_item("", nodes.paragraph(text="h1"))
        if sections is not None:
            sub = nodes.bullet_list()
            sub += [nodes.list_item("", nodes.paragraph(text=s)) for s in sections]
            item += sub
        out += item
    return out


@pytest.mark.parametrize(
    ("tree", "shown"),
    [
        (None, False),  # a page without a document (search)
        (toc(), False),
        (toc(None), False),  # only the title
        (toc([]), False),  # the title and an empty list under it
        (toc(["a"]), True),  # the title and a section
        (toc(None, None), True),  # two top-level headings
    ],
)
def test_page_toc_as_the_theme_decides(tree, shown):
    assert has_page_toc(tree) is shown


def test_pages_with_sections_get_the_sidebar_once(tmp_path):
    proj = copy_project(tmp_path / "p")
    assert convert(proj) == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    html = proj / "_build" / "html"
    note = next((html / "notes/vllm-project/vllm").glob("pr-*.html")).read_text(encoding="utf-8")
    # Rendered once: the theme's unique id has no -2 from a first, discarded rendering.
    assert note.count('id="pst-page-toc-nav"') == 1 and 'id="pst-page-navigation-heading"' in note
    assert "pst-page-navigation-heading-2" not in note
    digest = next((html / "notes/digests").glob("0*.html")).read_text(encoding="utf-8")
    assert "pst-page-toc-nav" not in digest and "bd-sidebar-secondary" not in digest
