"""Sphinx builds of converted projects, with sphinx.testing."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from docutils import nodes
from sphinx.testing.util import SphinxTestApp

from tests.support.sandbox import convert, copy_project, sphinx_build
from prnotes import contract
from prnotes.parse.seeds import read_seeds
from prnotes.project import load
from prnotes.parse.refs import plain_text

HOSTILE_BODY = "\n".join(
    [
        "值得精读。```{include} /etc/passwd``` 与 {raw}`<b>x</b>` 和 {eval-rst}`x`",
        "<script>alert(1)</script> <img src=x onerror=alert(1)> [点我](javascript:alert(1))",
        "$x^2$ 与 $$y$$，还有 **粗** _斜_ ~~删~~ &amp; &#60; \\` | a | b |",
        "# 不是标题",
        "> 不是引用",
        "1. 不是列表",
        "- 也不是",
        "(label)=",
        "% 不是注释",
        "+++",
        ":::{note}",
        "    缩进四格",
        "---",
        "===",
        "{{ jinja }} {% if %} @{x} [^1] <https://example.com>",
    ]
)


def build(proj: Path, builder: str = "html", freshenv: bool = True) -> SphinxTestApp:
    return sphinx_build(proj, builder, freshenv=freshenv)


def advice_text(app: SphinxTestApp, docname: str) -> str:
    doctree = app.env.get_doctree(docname)
    for section in doctree.findall(nodes.section):
        if section[0].astext() == "阅读建议":
            # The advice is the section's paragraphs; the 待跟进 box repeats parts of it.
            return " ".join(child.astext() for child in section[1:] if isinstance(child, nodes.paragraph))
    raise AssertionError(f"{docname} has no 阅读建议 section")


def norm(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(params=["fixture", "real"])
def any_site(request):
    """The fixture project (pinned) and the project's own seeds (invariants)."""
    return request.getfixturevalue("built_site" if request.param == "fixture" else "real_site")


def test_seeds_build_without_warnings(any_site):
    _, app = any_site
    assert app.warning.getvalue() == ""


def test_every_entry_has_its_page_with_its_body_verbatim(any_site):
    proj, app = any_site
    site = load(proj)
    entries = sum(len(seed.entries) for seed in read_seeds(proj / "seeds", proj)[0])
    assert len(site.notes) == entries > 0
    for note in site.notes:
        assert (proj / "_build/html" / f"{note.docname}.html").exists()
        assert norm(advice_text(app, note.docname)) == norm(plain_text(note.pieces)), note.docname
        # A title is rendered like the advice: a `code` span in it is code.
        title = app.env.titles[note.docname].astext()
        assert title == plain_text(note.title_pieces), note.docname


def test_every_note_is_in_exactly_one_toctree(any_site):
    proj, app = any_site
    counts = Counter(doc for includes in app.env.toctree_includes.values() for doc in includes)
    notes = [d for d in app.env.all_docs if contract.is_note_docname(d)]
    assert sorted(notes) == sorted(n.docname for n in load(proj).notes)
    assert {d: counts[d] for d in notes} == {d: 1 for d in notes}
    subsystem_parents = {
        parent for parent, children in app.env.toctree_includes.items() for d in children if d in notes
    }
    assert all(p.startswith("notes/subsystem/") for p in subsystem_parents)


def hrefs(html: str, text: str) -> list[str]:
    return re.findall(rf'<a [^>]*href="([^"]+)"[^>]*>(?:<[^>]+>)*{re.escape(text)}<', html)


def test_pr_reference_in_code_span_goes_to_vllm_pr(built_site):
    proj, _ = built_site
    html = (proj / "_build/html/notes/vllm-project/vllm/pr-51368.html").read_text(encoding="utf-8")
    assert hrefs(html, "#52626")[0] == "https://github.com/vllm-project/vllm/pull/52626"


def test_aliased_issue_does_not_go_to_vllm(built_site):
    proj, _ = built_site
    html = (proj / "_build/html/notes/vllm-project/vllm/pr-52400.html").read_text(encoding="utf-8")
    links = hrefs(html, "#4770")
    assert links and all(link == "https://github.com/ROCm/aiter/issues/4770" for link in links)
    assert hrefs(html, "#49925")[0] == "https://github.com/vllm-project/vllm/pull/49925"


def test_reference_to_a_note_on_the_site_is_internal_and_follows_new_notes(tmp_path):
    proj = copy_project(tmp_path / "p", {"000.txt": "o/r\n\nA (#1)\n\n值得精读，结合 #2 与 `#3` 看。\n"})
    assert convert(proj) == 0
    build(proj)
    page = proj / "_build/html/notes/o/r/pr-1.html"
    assert hrefs(page.read_text(encoding="utf-8"), "#2")[0] == "https://github.com/o/r/pull/2"
    # A new digest brings the note for #2: the old page must now link to it.
    (proj / "seeds/001.txt").write_text("o/r\n\nB (#2)\n\n值得精读。\n", encoding="utf-8")
    assert convert(proj) == 0
    app = build(proj, freshenv=False)
    assert app.warning.getvalue() == ""
    html = page.read_text(encoding="utf-8")
    assert hrefs(html, "#2")[0] == "pr-2.html"
    assert hrefs(html, "#3")[0] == "https://github.com/o/r/pull/3"
    backlinks = (proj / "_build/html/notes/o/r/pr-2.html").read_text(encoding="utf-8").split("提到本篇的笔记")[1]
    assert 'href="pr-1.html"' in backlinks


def test_hostile_seed_is_literal_text(tmp_path):
    title = "<script>alert(1)</script> {eval-rst}`x` $y$ [a](b) *c*"
    proj = copy_project(tmp_path / "p", {"000.txt": f"o/r\n\n{title} (#1)\n\n{HOSTILE_BODY}\n"})
    assert convert(proj) == 0
    app = build(proj)
    assert app.warning.getvalue() == ""
    note = load(proj).notes[0]
    assert app.env.titles[note.docname].astext() == plain_text(note.title_pieces)
    assert norm(advice_text(app, note.docname)) == norm(plain_text(note.pieces))
    html = (proj / "_build/html/notes/o/r/pr-1.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html
    assert "<img src=x" not in html
    assert 'href="javascript:' not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def inventory_names(path: Path, kind: str) -> set[str]:
    """Names of one ``domain:role`` in an objects.inv (version 2: four header lines, then zlib)."""
    import zlib

    header, _, body = path.read_bytes().partition(b"zlib.\n")
    assert header.startswith(b"# Sphinx inventory version 2"), header[:40]
    lines = zlib.decompress(body).decode("utf-8").splitlines()
    return {line.split(" ", 1)[0] for line in lines if line.split(" ")[1:2] == [kind]}


def test_follow_up_anchors_stay_on_their_page(built_site):
    """Every note has a ``followup-1``: as a site-wide label in objects.inv it
    would point to whichever note was read last, which depends on ``-j``."""
    proj, app = built_site
    outdir = Path(app.outdir)
    labels = inventory_names(outdir / "objects.inv", "std:label")
    assert labels, "objects.inv lists no label at all"
    assert not [name for name in labels if name.startswith("followup-")]
    anchored = [page for page in outdir.glob("notes/*/*/pr-*.html") if 'id="followup-1"' in page.read_text(encoding="utf-8")]
    assert anchored, "no note page kept the anchor of its first follow-up"


def test_dirhtml_is_the_web_site_too(tmp_path):
    """One predicate says which builders make the web site (sphinxext.site.web_site):
    dirhtml gets the feeds, the sitemap and the meta tags, and a second build
    unpublishes none of its pages (each is <docname>/index.html)."""
    proj = copy_project(tmp_path / "p")
    assert convert(proj) == 0
    app = sphinx_build(proj, "dirhtml", confoverrides={"html_baseurl": "https://notes.example.com/"})  # for the sitemap
    assert app.warning.getvalue() == ""
    out = Path(app.outdir)
    assert (out / "feed.xml").is_file() and (out / "sitemap.xml").is_file()
    note = next(d for d in app.env.found_docs if d.startswith("notes/vllm-project/vllm/"))
    page = out / note / "index.html"
    assert '<meta property="og:title"' in page.read_text(encoding="utf-8")
    assert f"{note}/" in (out / "sitemap.xml").read_text(encoding="utf-8")
    sphinx_build(proj, "dirhtml", confoverrides={"html_baseurl": "https://notes.example.com/"})
    assert page.is_file()
    assert len(list((out / "notes").rglob("index.html"))) >= len([d for d in app.env.found_docs if d.startswith("notes/")])
