"""Reader pages rendered from models in memory: snapshots and edge cases."""

from __future__ import annotations

import pytest

from tests.support.sandbox import TAXONOMY, fixture_site
from prnotes import contract
from prnotes.model.site import build_site
from prnotes.parse.seeds import parse_prs, parse_seed
from prnotes.render import render_pages
from prnotes.render.readinglists import cjk_join
from tests.support.summary import first_sentence
from prnotes.model.taxonomy import load_taxonomy


@pytest.mark.parametrize(
    "page",
    [
        "index.md",
        f"{contract.WATCHLIST}.md",
        f"{contract.SYMBOLS}.md",
        f"{contract.verdict_docname('optional')}.md",
        f"{contract.audience_docname('ci-maintainers')}.md",
        f"{contract.tag_docname('deepseek')}.md",
        "notes/vllm-project/vllm/pr-52400.md",
        f"{contract.UNREAD}.md",
        f"{contract.WEEK_INDEX}.md",
        f"{contract.week_docname(1)}.md",
    ],
)
def test_reader_page_snapshot(pages, page, file_regression):
    file_regression.check(pages[page], extension=".md", basename=page.replace("/", "__").removesuffix(".md"))


def test_hub_pages_hold_list_directives_not_note_text(pages):
    # A note's text and title live on the note; every list of notes is a
    # directive that Sphinx fills from the notes' facts when it writes the page.
    notes = fixture_site().notes
    for path, text in pages.items():
        if contract.is_note_docname(path.removesuffix(".md")) or path == "index.md":
            continue
        for note in notes:
            assert first_sentence(note.pieces) not in text, path
            assert f"]({note.docname.rsplit('/', 1)[1]}.md)" not in text, path
    lists = {p for p, t in pages.items() if f"{{{contract.LIST_DIRECTIVE}}}" in t}
    assert {"notes/reading/close.md", "notes/followups.md", "notes/symbols.md", "notes/pr-index.md"} <= lists


def _site(body_lines: list[str]):
    seed = "o/r\n\n" + "\n\n".join(body_lines) + "\n"
    return build_site([parse_seed("seeds/000.txt", seed.encode())], parse_prs("seeds/prs.toml", b""),
                      load_taxonomy(TAXONOMY / "taxonomy.toml"))


def test_the_landing_page_opens_with_today_and_stays_short_however_many_notes():
    """今日 is a directive the Sphinx side fills (the day is a build-time fact);
    the rest is a line of counts, links and the subsystems with their counts,
    the same length for 2 notes of a subsystem as for 30."""

    def landing(count: int) -> str:
        entries = []
        for number in range(1, count + 1):
            entries += [f"[CI] 第 {number} 个改动 (#{number})", "值得精读。"]
        return render_pages(_site(entries)).pages["index.md"]

    small, large = landing(2), landing(30)
    assert len(small.splitlines()) == len(large.splitlines())
    assert large.index("# PR 精读笔记") < large.index("## 今日") < large.index("## 更多") < large.index("## 子系统")
    today = large.split("## 今日", 1)[1].split("## ", 1)[0]
    assert today.strip() == ":::{prnotes-since}\n:::\n\n:::{prnotes-list} today\n:show: verdict summary subsystem\n:::"
    assert "notes/o/r/pr-" not in large  # no note is listed by the converter
    assert "- [CI 与构建](notes/subsystem/o/r/ci.md) 30 篇" in large
    assert "共 30 篇笔记（精读 30 篇）" in large


def test_hostile_text_stays_escaped_on_reader_pages():
    site = _site(["[CI] <b>x</b> (#1)", "值得精读。关注后续 <script>alert(1)</script> 与 `<img src=x>` 何时修复。"])
    pages = render_pages(site).pages
    for path in (f"{contract.WATCHLIST}.md", f"{contract.SYMBOLS}.md", "notes/o/r/pr-1.md", "index.md"):
        assert "<script>" not in pages[path] and "<b>" not in pages[path], path
    # The watch list shows the note's own box items; the box escapes them.
    assert (
        "- [\\<script\\>alert\\(1\\)\\<\\/script\\> 与 `<img src=x>` 何时修复]{.prnotes-followup-label}"
        in pages["notes/o/r/pr-1.md"]
    )
    # The mark in the advice holds the escaped text, so seed text cannot close it.
    assert "[关注后续 \\<script\\>alert\\(1\\)\\<\\/script\\> 与 `<img src=x>` 何时修复]{#followup-1 .prnotes-followup}" in pages["notes/o/r/pr-1.md"]
    # The symbol index lists it from the note's facts, where it is quoted.
    assert ":symbols: other:%3Cimg%20src%3Dx%3E" in pages["notes/o/r/pr-1.md"]


@pytest.mark.parametrize(
    ("parts", "expected"),
    [(("写给", "CI 维护者"), "写给 CI 维护者"), (("写给", "量化开发者"), "写给量化开发者"),
     (("Model Runner", "的全部笔记"), "Model Runner 的全部笔记"), (("平台/ROCm 负责人", "，"), "平台/ROCm 负责人，")],
)
def test_cjk_join(parts, expected):
    assert cjk_join(*parts) == expected


def test_a_long_watch_list_has_a_page_per_subsystem():
    from prnotes.render.watchlist import INLINE_FOLLOWUPS

    entries = []
    for number in range(1, INLINE_FOLLOWUPS + 2):
        prefix = "[CI]" if number % 2 else "[ROCm]"
        entries += [f"{prefix} 第 {number} 个改动 (#{number})", f"值得精读。后续需要跟踪 `f_{number}` 的默认值。"]
    site = _site(entries)
    pages = render_pages(site).pages
    index = pages[f"{contract.WATCHLIST}.md"]
    assert f"共 {INLINE_FOLLOWUPS + 1} 条" in index
    assert f"{{{contract.LIST_DIRECTIVE}}}" not in index
    keys = sorted({n.subsystem for n in site.notes})  # o/r's subsystems: o/r/<slug>
    assert len(keys) == 2 and all(k.startswith("o/r/") for k in keys)
    for key in keys:
        page = pages[f"{contract.watchlist_docname(key)}.md"]
        assert f":where: subsystem={key}\n" in page and ":order: newest" in page
        assert f"followups/{key}.md" in index


def test_a_short_watch_list_is_one_page():
    site = _site(["[CI] 一个改动 (#1)", "值得精读。后续需要跟踪 `f_1` 的默认值。"])
    pages = render_pages(site).pages
    assert [p for p in pages if p.startswith(f"{contract.WATCHLIST}")] == [f"{contract.WATCHLIST}.md"]
    assert f"({contract.watchlist_label(site.notes[0].subsystem)})=" in pages[f"{contract.WATCHLIST}.md"]


def test_marking_the_follow_ups_keeps_the_advice_text():
    """The marks are spans around the clauses; without them the advice reads as before."""
    import re

    from prnotes.render.myst import inline
    from prnotes.render.watchlist import marked_advice

    for note in fixture_site().notes:
        marked = marked_advice(note)
        unmarked = re.sub(r"\]\{#followup-\d+ \.prnotes-followup\}", "", marked)
        opened = unmarked.count("[") - inline(note.pieces).count("[")
        assert opened == len(note.follow_ups), note.number
        assert unmarked.replace("[", "") == inline(note.pieces).replace("[", ""), note.number
