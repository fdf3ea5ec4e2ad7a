"""The reader pages on the built site: reading lists, watch list, symbols, tags,
navigation, feed, Open Graph tags, 404, and how little a change re-reads."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import html
from html import unescape
from pathlib import Path

from docutils import nodes
from sphinx.testing.util import SphinxTestApp

from tests.support.sandbox import convert, copy_project, sphinx_build
from prnotes import contract
from prnotes.model.classify import VERDICT_BY_SLUG, verdict_rank
from prnotes.project import load

from prnotes.parse.refs import plain_text
from prnotes.sphinxext.facts.frozen import freeze, thaw
from prnotes.sphinxext.facts.notes import advice_paragraphs
from prnotes.sphinxext.facts.summaries import summary_nodes
from tests.support.summary import first_sentence
from prnotes.model.symbols import symbol_index
from prnotes.model.tags import tags_of_note

ATOM = "{http://www.w3.org/2005/Atom}"


def html_of(proj: Path, docname: str) -> str:
    return (proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8")


def article(page: str) -> str:
    return page.split('<article class="bd-article">', 1)[1].split("</article>", 1)[0]


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


def test_landing_page_opens_with_today_and_keeps_the_rest_short(built_site, site):
    """No git in the fixture's copy: 今日 is the newest digest file (日期未知),
    in verdict order; the 精读 notes of the archive are on 精读清单, not here."""
    html = article(html_of(built_site[0], "index"))
    assert re.findall(r"<h2>([^<]+)<", html) == ["今日", "更多", "子系统"]
    today = html.split("<h2>今日", 1)[1].split("<h2>", 1)[0]
    newest = [site.by_docname[d] for d in site.digests[-1].notes]
    expected = sorted(newest, key=lambda n: (verdict_rank(n.verdict), n.position))
    assert re.findall(r'<p class="prnotes-entry-title">.*?href="(notes/[^"]+)\.html"', today) == [n.docname for n in expected]
    assert text_of(today).startswith("#日期未知·第2期·8篇（精读4篇，速读2篇，按需2篇）")  # after the heading link
    assert 'class="sd-card' not in html
    subsystems = re.findall(r'<li[^>]*><p><a class="reference internal" href="notes/subsystem/([^"]+)\.html">.*?</a> (\d+) 篇</p></li>',
                            html.split("<h2>子系统", 1)[1])
    assert subsystems == [(s.key, str(len(site.in_subsystem(s.key)))) for s in site.subsystems]


def squash(fragment: str) -> str:
    """Text of an HTML fragment, runs of whitespace made one space."""
    return " ".join(unescape(re.sub(r"<[^>]+>", "", fragment)).split())


# The fixture site's watch list, section by section: each item's label, then
# what it names, the note and the digest. The copy is no git repository, so
# no digest has a known date (日期未知).
WATCH_LIST = {
    "spec-decode": [
        ("mgoin 提到的“draft 与 target attention 不同”的模型是否出现回归",
         "未指明 PR 或 issue · 出自 DSpark 未指定 backend 时继承 target，修复 DSV4 缓存崩溃 #52288 · 第 2 期 · 日期未知"),
        ("为 load_dspark_model 补充“显式继承/显式覆盖”的配置语义与回归测试",
         "未指明 PR 或 issue · 出自 DSpark 未指定 backend 时继承 target，修复 DSV4 缓存崩溃 #52288 · 第 2 期 · 日期未知"),
    ],
    "models": [
        ("dense MHA 路径 PCP 支持的跟进 PR，以及 PCP+DCP 组合下的数值一致性测试",
         "未指明 PR 或 issue · 出自 DSV3.2 接入 PCP 分片，fused kernel 物化 K 行，prefill 提升 2.65x #52046 · 第 1 期 · 日期未知"),
    ],
    "rocm": [
        ("aiter 侧 include 优先级缺陷（issue #4770）何时在 JIT 工具链中修复",
         "跟进：issue ROCm/aiter#4770 · 出自 移除 pip pybind11，修复 ROCm ABI 不匹配崩溃 #52400 · 第 2 期 · 日期未知"),
        ("#49925 是否会把 pybind11 纳入统一管理",
         "跟进：PR #49925 · 出自 移除 pip pybind11，修复 ROCm ABI 不匹配崩溃 #52400 · 第 2 期 · 日期未知"),
    ],
    "platform": [
        ("cpu_platform_plugin() 不会在 VLLM_TARGET_DEVICE=cpu 下返回 None 的不变量",
         "未指明 PR 或 issue · 出自 修复 ROCm CI 无 GPU Job 的 CPU 平台选择 #49515 · 第 2 期 · 日期未知"),
    ],
    "ci": [
        ("三份 shard 文件是手工维护的，后续新增或删除配置时需同步重平衡",
         "未指明 PR 或 issue · 出自 Humming H100 eval 拆 3 个并行 Job，关键路径提速约 3 倍 #52326 · 第 2 期 · 日期未知"),
        ("新增模型或评估口径变化时需要主动更新 4 个分片文件",
         "未指明 PR 或 issue · 出自 MoE B200 eval 拆 4 分片，关键路径提速 3.65x #52327 · 第 2 期 · 日期未知"),
        ("静态分片（技术债）",
         "未指明 PR 或 issue · 出自 MoE B200 eval 拆 4 分片，关键路径提速 3.65x #52327 · 第 2 期 · 日期未知"),
        ("mamba 个人 fork 引用",
         "未指明 PR 或 issue · 出自 为 Stage D 门禁新增 15 个 ROCm mirror，扩展 AMD CI 覆盖 #44969 · 第 1 期 · 日期未知"),
        ("将触发条件从手工命令列表改为读取脚本常量的重构机会",
         "未指明 PR 或 issue · 出自 新增 AMD 专属 PR 评论命令，独立映射 Buildkite amd-ci 流水线 #52822 · 第 1 期 · 日期未知"),
        ("标记与模块行为演化的漂移",
         "未指明 PR 或 issue · 出自 解锁 ROCm 注意力 kernel 测试，整组提速 4.6 倍 #52763 · 第 1 期 · 日期未知"),
    ],
}
WATCH_ITEM_RE = re.compile(r'<p class="prnotes-followup-label">(.*?)</p>\s*<p class="prnotes-followup-target">(.*?)</p>', re.S)


def test_watch_list_shows_what_to_watch_by_subsystem(built_site):
    html = article(html_of(built_site[0], contract.WATCHLIST))
    sections = re.findall(r'<section id="followups-([a-z0-9-]+)">\s*(?:<span[^>]*></span>)?<h2>([^<]+)<.*?<p>([^<]+)</p>(.*?)</section>', html, re.S)
    got = {slug: [(squash(label), squash(meta)) for label, meta in WATCH_ITEM_RE.findall(body)] for slug, _, _, body in sections}
    assert got == WATCH_LIST
    counts = {slug: count for slug, _, count, _ in sections}
    assert counts["ci"] == "6 条，来自 5 篇笔记。" and counts["rocm"] == "2 条，来自 1 篇笔记。"
    assert "共 12 条，来自 9 篇笔记" in squash(html)


def test_watch_list_links_the_item_the_note_and_the_marked_sentence(built_site):
    proj, _ = built_site
    html = html_of(proj, contract.WATCHLIST)
    rocm = html.split('id="followups-rocm"', 1)[1].split("</section>", 1)[0]
    assert 'href="https://github.com/ROCm/aiter/issues/4770"' in rocm
    assert 'href="https://github.com/vllm-project/vllm/pull/49925"' in rocm
    assert 'href="vllm-project/vllm/pr-52400.html#followup-2"' in rocm
    assert 'href="digests/001_0a6bc52359b14743.html"' in rocm
    # The anchor is the marked sentence on the note page.
    note = html_of(proj, "notes/vllm-project/vllm/pr-52400")
    marked = re.search(r'<span class="prnotes-followup" id="followup-2">(.*?)</span>(?=。)', note, re.S)
    assert marked and squash(marked.group(1)) == "#49925 是否会把 pybind11 纳入统一管理"


def test_note_marks_its_follow_ups_and_lists_their_labels_once(built_site, site):
    proj, _ = built_site
    for note in site.notes:
        html = html_of(proj, note.docname)
        advice = html.split("<h2>阅读建议", 1)[1].split('<div class="tip', 1)[0].split("<h2>", 1)[0]
        marks = re.findall(r'<span class="prnotes-followup" id="followup-(\d+)">(.*?)</span>(?=[；。，]|</p>)', advice, re.S)
        assert [(int(i), text_of(m)) for i, m in marks] == [
            (i, re.sub(r"\s+", "", f.text)) for i, f in enumerate(note.follow_ups, start=1)
        ], note.docname
        box = re.search(r'<div class="tip prnotes-followups admonition">(.*?)</div>', html, re.S)
        assert (box is not None) == bool(note.follow_ups), note.docname
        if box:
            labels = [squash(m) for m in re.findall(r'<span class="prnotes-followup-label">(.*?)</span> <span', box.group(1), re.S)]
            assert labels == [" ".join(plain_text(f.label).split()) for f in note.follow_ups]
            # The box holds labels, not the sentences again (unless a label is its whole sentence).
            assert len(re.findall(r"<li>", box.group(1))) == len(note.follow_ups)
    box = re.search(r'<div class="tip prnotes-followups admonition">(.*?)</div>', html_of(proj, "notes/vllm-project/vllm/pr-52327"), re.S)
    assert [squash(li) for li in re.findall(r"<li><p>(.*?)</p></li>", box.group(1), re.S)] == [
        "新增模型或评估口径变化时需要主动更新 4 个分片文件 · 未指明 PR 或 issue",
        "静态分片（技术债） · 未指明 PR 或 issue",
    ]


# The fixture site's symbol index: kind -> each symbol with the PR numbers of its notes, newest first.
SYMBOL_INDEX = {
    "文件路径": [("run_ci_command.py", [52822]), ("vllm/utils/gpu_sync_debug.py", [43107])],
    "环境变量": [("BUILDKITE_PARALLEL_JOB", [52327, 52326]), ("VLLM_GPU_SYNC_CHECK", [43107]), ("VLLM_TARGET_DEVICE", [49515])],
    "配置与类": [("MambaHybridModelState", [52374]), ("NONE_HASH", [51875])],
    "函数与变量": [
        ("async_tensor_h2d", [43107]), ("blocks_new_run", [52822]), ("cpu_platform_plugin()", [49515]),
        ("envs.disable_envs_cache()", [52374]), ("fused_allreduce_rms_norm", [49793]), ("fused_moe", [52603]),
        ("_fused_norm_rope_kernel", [52046]), ("get_top_tokens", [49793]), ("git_fetch_with_timeout", [52810]),
        ("gpu_sync_allowed()", [43107]), ("init_model_state", [52374]), ("init_none_hash", [51875]),
        ("is_comment_triggered_build", [52822]), ("keep_on_cpu", [43107]), ("load_dspark_model", [52288]),
        ("load_weights()", [51368]), ("quantization_emulation", [52603]), ("resolve_none_hash_seed", [51875]),
        ("skip_global_cleanup", [52763]), ("source_file_dependencies", [44969]), ("_sparse_indexer_and_attn", [52046]),
        ("use_local_argmax_reduction", [49793]),
    ],
}


def test_symbol_index_groups_symbols_by_kind_with_their_notes(built_site, site):
    html = article(html_of(built_site[0], contract.SYMBOLS))
    got = {}
    for body in re.split(r'<section id="symbols-[a-z]+">', html)[1:]:
        title = squash(re.search(r"<h2>(.*?)<a", body, re.S).group(1))
        got[title] = [
            (squash(code), [int(n) for n in re.findall(r'href="vllm-project/vllm/pr-(\d+)\.html"', rest)])
            for code, rest in re.findall(r"<li[^>]*><p>(<code.*?</code>)(.*?)</p></li>", body, re.S)
        ]
    assert got == SYMBOL_INDEX
    # Generic Python and torch names are not listed.
    listed = {name for symbols in got.values() for name, _ in symbols}
    assert not listed & {"None", "replace", "shutdown", "copy_()", ".item()", ".tolist()", "torch.Tensor.cpu()"}
    # The page itself and the model agree.
    assert sum(len(v) for v in got.values()) == len(symbol_index(site.notes))


def test_tag_badges_link_to_tag_pages(built_site, site):
    proj, _ = built_site
    for note in site.notes:
        html = html_of(proj, note.docname)
        for tag in tags_of_note(note, site.taxonomy):
            assert f'href="../../tags/{tag.slug}.html#{contract.tag_label(tag.slug)}"' in html, (note.docname, tag)
            assert note.docname.rsplit("/", 1)[1] in html_of(proj, contract.tag_docname(tag.slug))


def _prev_next(html: str) -> dict[str, str]:
    return dict(re.findall(r'class="(left-prev|right-next)"\s+href="([^"]+)"', html))


def test_previous_and_next_walk_the_digests_newest_first(built_site, site):
    """On a note, 下一篇 goes through its digest in the digest page's order, then
    on into the digest before it (tests/test_stream.py follows it in a dated archive)."""
    proj, _ = built_site
    walk = [site.by_docname[d] for digest in reversed(site.digests)
            for d in sorted(digest.notes, key=lambda d: (verdict_rank(site.by_docname[d].verdict), site.by_docname[d].position))]  # fmt: skip
    for index, note in enumerate(walk):
        links = _prev_next(html_of(proj, note.docname))
        name = lambda n: f"{n.docname.rsplit('/', 1)[1]}.html"  # noqa: E731 - one folder of notes
        assert links.get("left-prev") == (name(walk[index - 1]) if index else None), note.docname
        assert links.get("right-next") == (name(walk[index + 1]) if index + 1 < len(walk) else None), note.docname


def test_pages_next_to_the_notes_do_not_link_into_them(built_site, site):
    proj, _ = built_site
    used = [s.key for s in site.subsystems if site.in_subsystem(s.key)]
    assert _prev_next(html_of(proj, f"notes/subsystem/{used[0]}")) == {"left-prev": "../../index.html", "right-next": f"{used[1]}.html"}
    assert _prev_next(html_of(proj, f"notes/subsystem/{used[1]}"))["left-prev"] == f"{used[0]}.html"
    for docname in ("index", contract.READING_INDEX, contract.DIGESTS_INDEX, *(f"notes/subsystem/{s}" for s in used)):
        for target in _prev_next(html_of(proj, docname)).values():
            assert not re.search(r"/pr-\d+\.html$|digests/\d", target), (docname, target)


def _prev_next_labels(html: str) -> dict[str, str]:
    return dict(re.findall(r'class="(left-prev|right-next)".*?<p class="prev-next-subtitle">([^<]*)</p>', html, re.S))


def test_previous_and_next_name_what_they_lead_to(built_site, site):
    """上一篇/下一篇 to a note, 上一期/下一期 to a digest (下一期 the newer),
    上一页/下一页 to any other page; no page explains the rule."""
    proj, _ = built_site
    older, newer = site.digests
    first_of_newest = html_of(proj, sorted(newer.notes, key=lambda d: (verdict_rank(site.by_docname[d].verdict), site.by_docname[d].position))[0])
    assert _prev_next_labels(first_of_newest) == {"right-next": "下一篇"}
    assert _prev_next_labels(html_of(proj, older.notes[-1]))["left-prev"] == "上一篇"
    assert _prev_next_labels(html_of(proj, newer.docname)) == {"left-prev": "上一期"}
    assert _prev_next_labels(html_of(proj, older.docname)) == {"right-next": "下一期"}
    assert _prev_next_labels(html_of(proj, "notes/subsystem/ci")) == {"left-prev": "上一页", "right-next": "下一页"}
    for docname in ("notes/subsystem/ci", "index", contract.DIGESTS_INDEX):
        assert "上一篇/下一篇" not in article(html_of(proj, docname)), docname


def test_every_page_is_in_the_header_or_its_menu_once(built_site, site):
    """The header: the subsystems in one 子系统 menu, every other top-level page
    a link of its own; and no link to an empty general index."""
    proj, _ = built_site
    html = html_of(proj, "notes/subsystem/ci")
    header = re.search(r'<nav aria-label="页眉导航">(.*?)</nav>', html, re.S).group(1)
    menu = re.search(r'<ul id="prnotes-menu-1" class="dropdown-menu">(.*?)</ul>', header, re.S).group(1)
    assert re.search(r'<button [^>]*dropdown-toggle[^>]*>子系统</button>', header)
    used = [s.slug for s in site.subsystems if site.in_subsystem(s.key)]
    # The current subsystem links to its own page's top; the others to their pages.
    assert re.findall(r'href="([^"]+)"', menu) == ["#" if slug == "ci" else f"{slug}.html" for slug in used]
    links = re.findall(r'<a class="nav-link nav-internal" href="[^"]+">([^<]+)</a>', header)
    assert links == ["摘要归档", "本周", "阅读清单", "跟进清单", "代码符号索引", "标签", "PR 索引"]
    assert "genindex" not in html and not (proj / "_build/html/genindex.html").exists()


def test_breadcrumbs_lead_to_the_subsystem_but_a_note_has_none(built_site):
    """A note page's subsystem badge leads to the subsystem; other pages keep their breadcrumbs."""
    proj, _ = built_site
    assert 'class="bd-breadcrumbs"' not in html_of(proj, "notes/vllm-project/vllm/pr-52822")
    crumbs = re.search(r'<ul class="bd-breadcrumbs">(.*?)</ul>', html_of(proj, contract.verdict_docname("close")), re.S).group(1)
    assert 'href="index.html"' in crumbs and "阅读清单" in crumbs


def note_head(page: str) -> str:
    """A note page's article up to its advice: the title, badges, GitHub link and fields."""
    return re.split(r'<section [^>]*id="阅读建议"', article(page), maxsplit=1)[0]


def test_a_note_names_its_verdict_and_subsystem_once_each_as_badges_that_link(built_site, site):
    proj, _ = built_site
    for note in site.notes:
        head = note_head(html_of(proj, note.docname))
        verdict = VERDICT_BY_SLUG[note.verdict]
        sub = site.subsystem(note.subsystem)
        # One element says the verdict, one links to the subsystem: the badges.
        assert len(re.findall(rf">{verdict.title}<", head)) == 1, note.docname
        assert len(re.findall(rf'href="\.\./\.\./subsystem/{note.subsystem}\.html', head)) == 1, note.docname
        badges = dict(re.findall(r'<a class="[^"]*sd-badge[^"]*" href="([^"#]+)[^"]*"><span class="std std-ref">([^<]+)</span>', head))
        assert badges[f"../../reading/{note.verdict}.html"] == verdict.title
        assert badges[f"../../subsystem/{note.subsystem}.html"] == sub.title
        assert "阅读结论" not in head and ">子系统<" not in head


def test_a_note_opens_on_github_by_a_labelled_link(built_site, site):
    proj, _ = built_site
    for note in site.notes:
        links = re.findall(r'<a class="prnotes-github[^"]*" href="([^"]+)" title="([^"]+)">([^<]+)</a>', html_of(proj, note.docname))
        assert links == [(f"https://github.com/{note.repo}/pull/{note.number}",
                          f"在 GitHub 上打开 {note.repo}#{note.number}", f"在 GitHub 上打开 #{note.number}")], note.docname  # fmt: skip


def test_a_note_has_no_empty_section_and_readable_anchors(built_site, site):
    """相关 only when the note mentions a PR or another note mentions it; the
    sections' anchors are their titles, and the browser tab names the PR."""
    proj, _ = built_site
    without = 0
    for note in site.notes:
        page = html_of(proj, note.docname)
        related = bool(note.mentions) or any(d != note.docname for d in site.mentioned_by.get((note.repo, note.number), ()))
        assert bool(re.search(r'<section [^>]*id="相关"', page)) == related, note.docname
        assert "本篇没有提到" not in page
        without += not related
        assert re.search(r'<section [^>]*id="阅读建议"', page) and 'href="#阅读建议"' in page
        assert not re.search(r'<section [^>]*id="id\d+"', page), note.docname
        title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
        assert title == f"{html.escape(note.title)} · {note.repo}#{note.number} &#8212; PR 精读笔记", title
    assert without  # the fixture has such notes


def test_every_page_points_to_the_feed(built_site):
    # The feed's entries are dated by git: tests/test_stream.py checks them.
    proj, _ = built_site
    assert f'href="{"../" * 3}feed.xml"' in html_of(proj, "notes/vllm-project/vllm/pr-52822")
    assert ET.parse(proj / "_build/html/feed.xml").getroot().tag == f"{ATOM}feed"


def test_the_footer_is_in_chinese(built_site):
    proj, _ = built_site
    html = html_of(proj, "notes/vllm-project/vllm/pr-52822")
    assert '<p class="copyright">© PR 精读笔记</p>' in html
    assert "Copyright" not in html


def test_a_preview_has_no_sitemap_and_no_open_graph_url_and_a_404_page_of_relative_links(built_site):
    """The fixture is built without an address (a preview): nothing that needs one is written
    (the sitemap and its URLs: tests/test_hosting.py, tests/test_prlinks.py)."""
    proj, app = built_site
    assert app.config.html_baseurl == ""
    assert not (proj / "_build/html/sitemap.xml").exists()
    html = html_of(proj, "notes/vllm-project/vllm/pr-52400")
    assert 'property="og:url"' not in html and '<meta property="og:title"' in html
    assert '<meta property="og:description" content="值得快速浏览而不是精读：它演示了从“上游' in html
    notfound = (proj / "_build/html/404.html").read_text(encoding="utf-8")
    assert "页面不存在" in notfound and 'href="index.html"' in notfound
    assert 'href="_static/' in notfound  # the theme's styles, from the site's root


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
    assert "重新平衡" in html_of(proj, contract.WATCHLIST)


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


def test_a_marked_first_sentence_is_summarised_without_its_mark(tmp_path):
    """A follow-up in a note's first sentence: the reading list shows the
    sentence, cut where it ends, without the note page's mark and anchor."""
    proj = copy_project(tmp_path / "p", {
        "000.txt": "o/r\n\n[CI] 一 (#1)\n\n值得精读，建议跟踪 #7 何时合入？后面还有一句。\n\n"
                   "[CI] 二 (#2)\n\n值得精读，后续需要跟踪 `x_y` 的默认值！再一句。\n",
    })
    assert convert(proj) == 0
    _build(proj)
    html = html_of(proj, contract.verdict_docname("close"))
    assert sorted(summaries_on(html)) == ["值得精读，后续需要跟踪x_y的默认值！", "值得精读，建议跟踪#7何时合入？"]
    assert "followup" not in article(html)
    assert 'id="followup-1"' in html_of(proj, "notes/o/r/pr-1")


def test_lists_order_notes_as_the_model_does_across_repositories(tmp_path):
    """Notes without a PR number, and equal numbers, in two repositories: a
    list of both (a tag's) and the model agree (by repository, then newest
    number first, then title). Each repository has its own subsystem page, in
    the same order within it."""
    seeds = {
        # By title 丁 < 丙 < 乙 < 甲; by repository alpha < zeta.
        "000_a.txt": "o/zeta\n\n丁：修复调度 A\n\n值得精读。\n\n丙：修复调度 C (#7)\n\n值得精读。\n",
        "001_b.txt": "o/alpha\n\n甲：修复调度 B\n\n值得精读。\n\n乙：修复调度 D (#7)\n\n值得精读。\n",
    }
    proj = copy_project(tmp_path / "p", seeds)
    assert convert(proj) == 0
    _build(proj)
    site = load(proj)
    assert [s.repo for s in site.subsystems] == ["o/alpha", "o/zeta"]
    for sub in site.subsystems:
        model = ["/".join(n.docname.split("/")[-2:]) for n in site.in_subsystem(sub.key)]
        page = article(html_of(proj, contract.subsystem_docname(sub.key)))
        listed = ["/".join(href.removesuffix(".html").split("/")[-2:]) for href in re.findall(r'href="([^"#]+\.html)', page)]
        assert list(dict.fromkeys(d for d in listed if d in model)) == model
    tagged = sorted(site.notes, key=lambda n: n.sort_key)  # every title says 修复: the bugfix tag
    assert [n.title for n in tagged] == ["乙：修复调度 D", "甲：修复调度 B", "丙：修复调度 C", "丁：修复调度 A"]
    model = ["/".join(n.docname.split("/")[-2:]) for n in tagged]
    page = article(html_of(proj, contract.tag_docname("bugfix")))
    listed = ["/".join(href.removesuffix(".html").split("/")[-2:]) for href in re.findall(r'href="([^"#]+\.html)', page)]
    assert list(dict.fromkeys(d for d in listed if d in model)) == model


def test_the_header_links_the_one_upstream_repository_with_its_icon(built_site):
    proj, _ = built_site
    page = html_of(proj, "index")
    header = page.split('<ul class="navbar-icon-links"', 1)[1].split("</ul>", 1)[0]
    assert re.findall(r'href="(https://github.com/[^"]+)"', header) == ["https://github.com/vllm-project/vllm"]
    assert "prnotes-repos" not in page


def test_notes_titled_like_a_notes_sections_keep_their_advice(tmp_path):
    """A note titled 相关 or 阅读建议: its advice is still searched and summarised."""
    proj = copy_project(tmp_path / "p", {
        "000.txt": "o/r\n\n相关 (#1)\n\n值得精读。甲乙丙丁戊。\n\n阅读建议 (#2)\n\n值得精读。庚辛壬癸。\n",
    })
    assert convert(proj) == 0
    _build(proj)
    index = (proj / "_build/html/searchindex.js").read_text(encoding="utf-8")
    assert "甲乙" in index and "庚辛" in index
    assert '<meta name="description" content="庚辛壬癸。"' in html_of(proj, "notes/o/r/pr-2")


def test_a_short_code_span_keeps_the_punctuation_after_it(built_site):
    # The note on GPU syncs lists `keep_on_cpu`、`async_tensor_h2d`、…: each short
    # span and its 、 are one box, with a place to break before it.
    html = article(html_of(built_site[0], "notes/vllm-project/vllm/pr-43107"))
    glued = re.findall(r'<wbr><span class="prnotes-glue"><code [^>]*>(.*?)</code>(.)</span>', html)
    assert ('<span class="pre">keep_on_cpu</span>', "、") in glued
    assert all(mark in "，。、；：！？）】」』”’》〉" for _, mark in glued)
    # No span glued to anything else, and none longer than a phone's line.
    assert html.count('class="prnotes-glue"') == len(glued)
    assert all(len(re.sub(r"<[^>]+>", "", code)) <= 32 for code, _ in glued)
    # The punctuation is not written twice.
    assert "、、" not in re.sub(r"<[^>]+>", "", html)
