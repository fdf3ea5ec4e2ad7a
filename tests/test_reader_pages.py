"""The reader pages on the built site: reading lists, watch list, symbols, tags,
navigation, feed, sitemap, 404, and how little a change re-reads."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html import unescape
from pathlib import Path

from docutils import nodes
from sphinx.testing.util import SphinxTestApp

from tests.support.sandbox import convert, copy_project, sphinx_build
from prnotes import contract
from prnotes.project import load

from prnotes.refs import plain_text
from prnotes.sphinxext.frozen import freeze, thaw
from prnotes.sphinxext.notefacts import advice_paragraphs
from prnotes.sphinxext.summaries import summary_nodes
from prnotes.summary import first_sentence
from prnotes.symbols import symbol_index
from prnotes.tags import tags_of_note

ATOM = "{http://www.w3.org/2005/Atom}"


def html_of(proj: Path, docname: str) -> str:
    return (proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8")


def text_of(fragment: str) -> str:
    return re.sub(r"\s+", "", unescape(re.sub(r"<[^>]+>", "", fragment)))


def summaries_on(html: str) -> list[str]:
    return [text_of(m) for m in re.findall(r'<span class="prnotes-summary">(.*?)</span></p>', html, re.S)]


def test_reading_lists_show_each_note_with_its_first_sentence(built_site, site):
    proj, _ = built_site
    for verdict in ("close", "skim", "optional"):
        notes = [n for n in site.notes if n.verdict == verdict]
        html = html_of(proj, contract.verdict_docname(verdict))
        expected = sorted(re.sub(r"\s+", "", first_sentence(n.pieces)) for n in notes)
        assert sorted(summaries_on(html)) == expected
        for note in notes:
            assert f'href="../{note.docname.removeprefix("notes/")}.html"' in html
    html = html_of(proj, contract.audience_docname("ci-maintainers"))
    assert len(summaries_on(html)) == 3
    assert "写给CI维护者" in text_of(html)


def test_summary_keeps_its_pr_links(built_site):
    html = html_of(built_site[0], contract.verdict_docname("close"))
    assert 'href="https://github.com/vllm-project/vllm/pull/46646"' in html


def test_landing_page_leads_with_first_reads_as_cards(built_site, site):
    html = html_of(built_site[0], "index")
    headings = re.findall(r"<h2>([^<]+)<", html)
    assert headings[:2] == ["最新一期", "先读这些"]
    first = html.split("<h2>先读这些", 1)[1].split("<h2>", 1)[0]
    assert first.count('class="sd-card ') == len({n.subsystem for n in site.notes if n.verdict == "close"})
    linked = set(re.findall(r'href="(notes/vllm-project/vllm/pr-\d+)\.html"', first))
    assert linked == {n.docname for n in site.notes if n.verdict == "close"}


def test_watch_list_has_every_follow_up_under_its_note(built_site, site):
    proj, _ = built_site
    index = html_of(proj, contract.WATCHLIST)
    items, html = [], ""
    for sub in site.taxonomy.subsystems:
        notes = [n for n in site.in_subsystem(sub.slug) if n.follow_ups]
        page = contract.watchlist_docname(sub.slug)
        assert (f'href="followups/{sub.slug}.html"' in index) == bool(notes), sub.slug
        if not notes:
            continue
        part = html_of(proj, page)
        html += part
        items += [text_of(li) for li in re.findall(r"<li(?: class=\"[^\"]*\")?><p>((?:(?!</p>).)*)</p></li>", part, re.S)]
        for note in notes:
            assert f'href="../{note.docname.removeprefix("notes/")}.html"' in part
    expected = [re.sub(r"\s+", "", f.text) for n in site.notes for f in n.follow_ups]
    assert sorted(items) == sorted(expected)
    assert 'href="https://github.com/ROCm/aiter/issues/4770"' in html


def test_note_shows_its_follow_ups_in_a_box(built_site, site):
    proj, _ = built_site
    for note in site.notes:
        html = html_of(proj, note.docname)
        box = re.search(r'<div class="tip prnotes-followups admonition">(.*?)</div>', html, re.S)
        items = note.follow_ups
        assert (box is not None) == bool(items), note.docname
        if box:
            got = [text_of(li) for li in re.findall(r"<li><p>(.*?)</p></li>", box.group(1), re.S)]
            assert got == [re.sub(r"\s+", "", f.text) for f in items]


def test_symbol_index_lists_every_symbol_with_its_notes(built_site, site):
    html = html_of(built_site[0], contract.SYMBOLS)
    items = {
        text_of(code): sorted(re.findall(r'href="([^"]+)\.html"', rest))
        for code, rest in re.findall(r"<li(?: class=\"[^\"]*\")?><p>(<code.*?</code>)(.*?)</li>", html, re.S)
    }
    expected = {
        re.sub(r"\s+", "", symbol.name): sorted(d.removeprefix("notes/") for d in docs)
        for symbol, docs in symbol_index(site).items()
    }
    assert items == expected


def test_tag_badges_link_to_tag_pages(built_site, site):
    proj, _ = built_site
    for note in site.notes:
        html = html_of(proj, note.docname)
        for tag in tags_of_note(note, site.taxonomy):
            assert f'href="../../tags/{tag.slug}.html#{contract.tag_label(tag.slug)}"' in html, (note.docname, tag)
            assert note.docname.rsplit("/", 1)[1] in html_of(proj, contract.tag_docname(tag.slug))


def _prev_next(html: str) -> dict[str, str]:
    return dict(re.findall(r'class="(left-prev|right-next)"\s+href="([^"]+)"', html))


def test_previous_and_next_stay_within_the_subsystem(built_site, site):
    proj, _ = built_site
    for sub in site.taxonomy.subsystems:
        notes = site.in_subsystem(sub.slug)
        for index, note in enumerate(notes):
            links = _prev_next(html_of(proj, note.docname))
            expected_prev = f"../../subsystem/{sub.slug}.html" if index == 0 else f"{notes[index - 1].docname.rsplit('/', 1)[1]}.html"
            assert links.get("left-prev") == expected_prev, note.docname
            expected_next = f"{notes[index + 1].docname.rsplit('/', 1)[1]}.html" if index + 1 < len(notes) else None
            assert links.get("right-next") == expected_next, note.docname


def test_pages_next_to_the_notes_do_not_link_into_them(built_site, site):
    proj, _ = built_site
    prev = _prev_next(html_of(proj, contract.READING_INDEX)).get("left-prev", "")
    assert not re.search(r"/pr-\d+\.html$", prev)
    used = [s.slug for s in site.taxonomy.subsystems if site.in_subsystem(s.slug)]
    assert _prev_next(html_of(proj, f"notes/subsystem/{used[0]}")) == {
        "left-prev": "../../index.html",
        "right-next": f"../vllm-project/vllm/{site.in_subsystem(used[0])[0].docname.rsplit('/', 1)[1]}.html",
    }
    assert _prev_next(html_of(proj, f"notes/subsystem/{used[1]}"))["left-prev"] == f"{used[0]}.html"


def _prev_next_labels(html: str) -> dict[str, str]:
    return dict(re.findall(r'class="(left-prev|right-next)".*?<p class="prev-next-subtitle">([^<]*)</p>', html, re.S))


def test_previous_and_next_name_what_they_lead_to(built_site, site):
    """上一篇/下一篇 to a note (as the subsystem pages say), 上一期/下一期 to a
    digest, 上一页/下一页 to any other page."""
    proj, _ = built_site
    first, second = site.in_subsystem("ci")[:2]
    assert _prev_next_labels(html_of(proj, "notes/subsystem/ci")) == {"left-prev": "上一页", "right-next": "下一篇"}
    assert _prev_next_labels(html_of(proj, first.docname)) == {"left-prev": "上一页", "right-next": "下一篇"}
    assert _prev_next_labels(html_of(proj, second.docname))["left-prev"] == "上一篇"
    newest = site.digests[-1].docname
    assert _prev_next_labels(html_of(proj, newest))["left-prev"] == "上一期"
    assert _prev_next_labels(html_of(proj, site.digests[0].docname))["right-next"] == "下一期"
    assert "上一篇/下一篇" in html_of(proj, "notes/subsystem/ci")


def test_every_page_is_in_the_header_or_its_menu_once(built_site, site):
    """The header: the subsystems in one 子系统 menu, every other top-level page
    a link of its own; and no link to an empty general index."""
    proj, _ = built_site
    html = html_of(proj, "notes/subsystem/ci")
    header = re.search(r'<nav aria-label="页眉导航">(.*?)</nav>', html, re.S).group(1)
    menu = re.search(r'<ul id="prnotes-menu-1" class="dropdown-menu">(.*?)</ul>', header, re.S).group(1)
    assert re.search(r'<button [^>]*dropdown-toggle[^>]*>子系统</button>', header)
    used = [s.slug for s in site.taxonomy.subsystems if site.in_subsystem(s.slug)]
    # The current subsystem links to its own page's top; the others to their pages.
    assert re.findall(r'href="([^"]+)"', menu) == ["#" if slug == "ci" else f"{slug}.html" for slug in used]
    links = re.findall(r'<a class="nav-link nav-internal" href="[^"]+">([^<]+)</a>', header)
    assert links == ["摘要归档", "阅读清单", "跟进清单", "代码符号索引", "标签", "PR 索引"]
    assert "genindex" not in html and not (proj / "_build/html/genindex.html").exists()


def test_breadcrumbs_lead_to_the_subsystem(built_site):
    html = html_of(built_site[0], "notes/vllm-project/vllm/pr-52822")
    crumbs = re.search(r'<ul class="bd-breadcrumbs">(.*?)</ul>', html, re.S).group(1)
    assert 'href="../../subsystem/ci.html"' in crumbs and "CI 与构建" in crumbs


def test_every_page_points_to_the_feed(built_site):
    # The feed's entries are dated by git: tests/test_stream.py checks them.
    proj, _ = built_site
    assert f'href="{"../" * 3}feed.xml"' in html_of(proj, "notes/vllm-project/vllm/pr-52822")
    assert ET.parse(proj / "_build/html/feed.xml").getroot().tag == f"{ATOM}feed"


def test_sitemap_lists_every_page_once(built_site):
    proj, app = built_site
    root = ET.parse(proj / "_build/html/sitemap.xml").getroot()
    locs = [e.text for e in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert locs == sorted(f"{app.config.html_baseurl}{d}.html" for d in app.env.all_docs)


def test_open_graph_tags_and_404_page(built_site):
    proj, app = built_site
    html = html_of(proj, "notes/vllm-project/vllm/pr-52400")
    url = f"{app.config.html_baseurl}notes/vllm-project/vllm/pr-52400.html"
    assert f'<meta property="og:url" content="{url}" />' in html
    assert '<meta property="og:description" content="值得快速浏览而不是精读：它演示了从“上游' in html
    notfound = (proj / "_build/html/404.html").read_text(encoding="utf-8")
    assert "页面不存在" in notfound and f'href="{app.config.notfound_urls_prefix}index.html"' in notfound


def _build(proj: Path, read: list[str] | None = None) -> SphinxTestApp:
    listeners = [] if read is None else [("source-read", lambda app, docname, source: read.append(docname))]
    app = sphinx_build(proj, freshenv=read is None, listeners=listeners)
    assert app.warning.getvalue() == ""
    return app


def test_editing_a_note_rereads_only_what_shows_its_text(tmp_path):
    proj = copy_project(tmp_path / "p")
    assert convert(proj) == 0
    _build(proj)
    seed = next((proj / "seeds").glob("001_*.txt"))
    seed.write_text(seed.read_text(encoding="utf-8").replace("简洁示例", "简明示例"), encoding="utf-8")
    assert convert(proj) == 0
    read: list[str] = []
    _build(proj, read)
    # The first sentence changed: the note is re-read, the reading lists that
    # show that sentence are only written again.
    assert read == ["notes/vllm-project/vllm/pr-52326"]
    for page in (contract.verdict_docname("optional"), contract.audience_docname("ci-maintainers")):
        assert "简明示例" in html_of(proj, page)
    # A follow-up sentence changed: the note is re-read, the watch list written again.
    seed.write_text(seed.read_text(encoding="utf-8").replace("同步重平衡", "重新平衡"), encoding="utf-8")
    assert convert(proj) == 0
    read = []
    _build(proj, read)
    assert read == ["notes/vllm-project/vllm/pr-52326"]
    assert "重新平衡" in html_of(proj, contract.watchlist_docname(load(proj).by_docname["notes/vllm-project/vllm/pr-52326"].subsystem))


def test_adding_a_digest_rereads_no_other_note(tmp_path):
    proj = copy_project(tmp_path / "p")
    assert convert(proj) == 0
    _build(proj)
    old_notes = {n.docname for n in load(proj).notes}
    (proj / "seeds/002_new.txt").write_text(
        "vllm-project/vllm\n\n新增一个 ROCm 开关 (#60001)\n\n值得精读。关注后续是否有 `VLLM_NEW_FLAG` 的默认值调整。\n",
        encoding="utf-8",
    )
    assert convert(proj) == 0
    read: list[str] = []
    _build(proj, read)
    assert "notes/vllm-project/vllm/pr-60001" in read
    assert not set(read) & old_notes
    assert "VLLM_NEW_FLAG" in html_of(proj, contract.SYMBOLS)


def test_summary_nodes_survive_freezing(built_site):
    _, app = built_site
    doctree = app.env.get_doctree("notes/vllm-project/vllm/pr-52374")
    found = summary_nodes(advice_paragraphs(doctree))
    assert any(not isinstance(n, nodes.Text) for n in found)
    thawed = [thaw(freeze(n)) for n in found]
    assert [n.pformat() for n in thawed] == [n.pformat() for n in found]
