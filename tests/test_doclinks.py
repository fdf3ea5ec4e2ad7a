"""Links between pages are resolved from their names, as MyST resolves them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from prnotes.sphinxext import doclinks
from tests.support.sandbox import sphinx_build

FOUND = {"index", "notes/pr-index", "notes/digests/index", "notes/digests/062", "notes/vllm/pr-7"}


@pytest.mark.parametrize(
    ("href", "docname"),
    [
        ("062.md", "notes/digests/062"),
        ("./062.md", "notes/digests/062"),
        ("../pr-index.md", "notes/pr-index"),
        ("../vllm/pr-7.md", "notes/vllm/pr-7"),
        ("../../index.md", "index"),
        ("../digests/../vllm/pr-7.md", "notes/vllm/pr-7"),
    ],
)
def test_a_relative_link_to_a_page_names_the_page(href, docname):
    env = SimpleNamespace(docname="notes/digests/index", found_docs=FOUND)
    assert doclinks.target(env, href) == docname


@pytest.mark.parametrize(
    "href",
    [
        "missing.md",  # no such page
        "../../../index.md",  # above the project
        "/notes/pr-index.md",  # from the project's root: MyST's
        "062.md#part",  # a fragment: MyST's
        "062.md?x=1",
        "https://example.org/062.md",
        "mailto:062.md",
        "..\\pr-index.md",
        "062",  # not a Markdown file
        "062.txt",
        "",
    ],
)
def test_anything_else_is_left_to_myst(href):
    env = SimpleNamespace(docname="notes/digests/index", found_docs=FOUND)
    assert doclinks.target(env, href) is None


PAGES = {
    "index.md": "# 首页\n\n```{toctree}\nnotes/a\nnotes/sub/b\n```\n\n"
    "- [甲](notes/a.md) [乙 `code`](notes/sub/b.md) [](notes/a.md)\n"
    "- [缺](notes/missing.md) [根](/notes/a.md) [锚](notes/a.md#part) [文件](data.txt)\n"
    "- [外](https://example.org/a.md) [本页](#top)\n",
    "notes/a.md": "# 甲\n\n(part)=\n## 部分\n\n[回到首页](../index.md)，[乙](sub/b.md)，[上两层](../../x.md)。\n",
    "notes/sub/b.md": "# 乙\n\n[甲](../a.md) [首页](../../index.md)\n",
    "data.txt": "not a page\n",
}


def _project(root: Path, ours: bool) -> Path:
    for name, text in PAGES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    setup = "def setup(app):\n    from prnotes.sphinxext import doclinks\n    doclinks.setup(app)\n" if ours else ""
    (root / "conf.py").write_text(
        f'extensions = ["myst_parser"]\nexclude_patterns = ["_build"]\nsuppress_warnings = []\n{setup}', encoding="utf-8"
    )
    return root


def _build(root: Path, monkeypatch):
    """Build; return each page's doctree as read, its HTML body, the warnings,
    and how many links MyST's own ``render_link_unknown`` resolved."""
    from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer

    calls = []
    original = SphinxRenderer.render_link_unknown

    def counted(self, token):
        calls.append(token.attrGet("href"))
        return original(self, token)

    with monkeypatch.context() as patch:
        patch.setattr(SphinxRenderer, "render_link_unknown", counted)
        app = sphinx_build(root)
    doctrees = {name: app.env.get_doctree(name).pformat().replace(str(root), "ROOT") for name in sorted(app.env.found_docs)}
    html = {
        name: (root / "_build" / "html" / f"{name}.html").read_text(encoding="utf-8").split('<div class="body"', 1)[1]
        for name in sorted(app.env.found_docs)
    }
    warnings = app.warning.getvalue().replace(str(root), "ROOT")
    return doctrees, html, warnings, calls


def test_the_pages_are_what_myst_makes_and_myst_resolves_only_the_other_links(tmp_path, monkeypatch):
    myst = _build(_project(tmp_path / "myst", ours=False), monkeypatch)
    ours = _build(_project(tmp_path / "ours", ours=True), monkeypatch)
    assert ours[0] == myst[0]  # the doctrees, pending references included
    assert ours[1] == myst[1]  # the HTML
    assert ours[2] == myst[2] and "missing" in ours[2] and "x.md" in ours[2]
    assert sorted(ours[3]) == sorted(["notes/missing.md", "/notes/a.md", "notes/a.md#part", "data.txt", "../../x.md"])
    assert len(myst[3]) == len(ours[3]) + 7
