"""The daily reader's pages as built (issue 44): 本周 and the weeks before it,
未读, the archive's repositories, and the end of a digest; on the follow
fixture (tests/roots/follow) committed at dates that span ISO weeks. The
browser side is tests/test_follow_browser.py.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from prnotes import contract
from prnotes.model.classify import verdict_rank
from prnotes.project import load
from tests.support import gitrepo
from tests.support.followsite import DIGESTS, SEEDS, build, follow_project
from tests.support.sandbox import convert, copy_project, sphinx_build

# Digest 1 on a Friday of week 47; digest 2 on the Sunday ending week 48, late
# in the evening; digest 3 on the Monday of week 49 at 07:00 in UTC+8, which is
# still Sunday in UTC (a digest's day is its author's); digest 4 on Thursday.
DATES = ("2026-11-20T09:00:00+08:00", "2026-11-29T23:30:00+08:00", "2026-11-30T07:00:00+08:00", "2026-12-03T09:30:00+08:00")
HOUR_ZERO = "2026-12-07T10:00:00+08:00"  # the Monday of week 50


@pytest.fixture(scope="module")
def weekly(tmp_path_factory):
    proj = follow_project(tmp_path_factory.mktemp("weekly") / "p", dates=DATES)
    build(proj)
    return proj, load(proj)


def soup(proj: Path, docname: str) -> BeautifulSoup:
    return BeautifulSoup((proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8"), "html.parser")


def squash(node) -> str:
    return " ".join(node.get_text().split())


def reading(model, digests: list[int]) -> list[str]:
    """The notes of those digests in reading order (精读, 速读, 按需; digest, then seed order)."""
    notes = [model.by_docname[d] for digest in model.digests if digest.number in digests for d in digest.notes]
    notes.sort(key=lambda n: (verdict_rank(n.verdict), model.digest_of(n).number, n.position))
    return [n.docname for n in notes]


def listed(page: BeautifulSoup, kind: str) -> list[str]:
    """Docnames of the entries of the page's list of that kind, from their titles' links (pages under notes/week/)."""
    out = []
    for li in page.select(f"article ul.prnotes-list-{kind} > li.prnotes-note"):
        href = li.select_one("a.reference.internal")["href"]
        out.append(re.sub(r"^(\.\./)+", "notes/", href).removesuffix(".html"))
    return out


def week_lines(page: BeautifulSoup) -> tuple[str, str]:
    return squash(page.select_one("article p.prnotes-week-lead")), squash(page.select_one("article p.prnotes-weeks"))


def test_this_week_is_the_notes_of_the_newest_iso_week_monday_to_sunday(weekly):
    proj, model = weekly
    page = soup(proj, contract.WEEK_INDEX)
    assert page.select_one("article h1").get_text().rstrip("#") == "本周"
    lead, weeks = week_lines(page)
    # Digest 3 (Monday 07:00 in UTC+8) is of this week, though it was Sunday in UTC.
    assert lead == "2026-W49 · 2026-11-30 至 2026-12-06 · 第 3 期、第 4 期 · 7 篇（精读 3 篇，速读 1 篇，按需 3 篇）"
    assert listed(page, "week") == reading(model, [3, 4])
    # Each entry as on 今日: verdict, title, PR and subsystem, first sentence; and the filters with 只看未读.
    first = page.select_one("article ul.prnotes-list-week > li")
    assert first.select_one(".sd-badge").get_text() == "精读" and first.select_one(".prnotes-summary")
    assert page.select_one("article form.prnotes-filters input[name=unread]")
    assert weeks.startswith("按周：本周（W49，7 篇） · 上周（W48，4 篇） · 2 周前（W47，4 篇） · 3 周前（W46，0 篇）")
    assert weeks.endswith("8 周前（W41，0 篇）")


def test_each_week_before_has_its_page_and_every_week_page_links_the_others(weekly):
    proj, model = weekly
    pages = {back: soup(proj, contract.week_docname(back)) for back in range(contract.WEEKS_BACK + 1)}
    assert week_lines(pages[1])[0] == "2026-W48 · 2026-11-23 至 2026-11-29 · 第 2 期 · 4 篇（精读 2 篇，速读 2 篇）"
    assert listed(pages[1], "week") == reading(model, [2])
    assert week_lines(pages[2])[0] == "2026-W47 · 2026-11-16 至 2026-11-22 · 第 1 期 · 4 篇（精读 2 篇，速读 1 篇，按需 1 篇）"
    assert listed(pages[2], "week") == reading(model, [1])
    assert week_lines(pages[3])[0] == "2026-W46 · 2026-11-09 至 2026-11-15 · 这一周没有摘要"
    assert squash(pages[3].select_one("article p.prnotes-empty")) == "（暂无）"
    for back, page in pages.items():
        line = page.select_one("article p.prnotes-weeks")
        assert squash(line.select_one("strong")).startswith(contract.week_title(back)), back
        links = {a.get_text().split("（")[0]: a["href"] for a in line.select("a")}
        here = contract.week_docname(back)
        expected = {contract.week_title(k): Path(contract.week_docname(k)).relative_to(Path(here).parent).as_posix() + ".html"
                    for k in range(contract.WEEKS_BACK + 1) if k != back}  # fmt: skip
        assert links == expected, back
        assert page.title.get_text().startswith(contract.week_title(back))
    # 本周 is a reader tool of the header; 下一页 leads on to 上周.
    header = soup(proj, "index").select_one(".bd-header nav")
    assert "本周" in [a.get_text(strip=True) for a in header.select("a.nav-link")]
    assert pages[0].select_one("a.right-next")["href"] == "before-1.html"


def test_a_digest_of_a_new_week_moves_this_week_on(tmp_path):
    proj = follow_project(tmp_path / "p", digests=3, dates=DATES)
    build(proj)
    assert week_lines(soup(proj, contract.WEEK_INDEX))[0].startswith("2026-W49 · 2026-11-30 至 2026-12-06 · 第 3 期 · 3 篇")
    shutil.copy2(SEEDS / DIGESTS[3], proj / "seeds" / DIGESTS[3])
    gitrepo.commit(proj, [f"seeds/{DIGESTS[3]}"], HOUR_ZERO)
    assert build(proj)
    model = load(proj)
    this, last = soup(proj, contract.WEEK_INDEX), soup(proj, contract.week_docname(1))
    assert week_lines(this)[0] == "2026-W50 · 2026-12-07 至 2026-12-13 · 第 4 期 · 4 篇（精读 1 篇，速读 1 篇，按需 2 篇）"
    assert listed(this, "week") == reading(model, [4])
    assert week_lines(last)[0].startswith("2026-W49 · 2026-11-30 至 2026-12-06 · 第 3 期 · 3 篇")


def test_a_digest_not_committed_yet_joins_this_week_and_without_git_there_is_no_week(tmp_path):
    proj = follow_project(tmp_path / "p", digests=3, dates=DATES)
    shutil.copy2(SEEDS / DIGESTS[3], proj / "seeds" / DIGESTS[3])
    build(proj)
    assert week_lines(soup(proj, contract.WEEK_INDEX))[0].startswith("2026-W49 · 2026-11-30 至 2026-12-06 · 第 3 期、第 4 期 · 7 篇")
    bare = copy_project(tmp_path / "bare", SEEDS)
    assert convert(bare) == 0
    sphinx_build(bare)
    page = soup(bare, contract.WEEK_INDEX)
    assert squash(page.select_one("article p.prnotes-today-lead")).startswith("摘要没有日期")
    assert page.select("article li.prnotes-note") == []


def test_unread_lists_every_note_of_the_digests_the_count_covers_newest_first(weekly):
    """未读 holds the notes of the digests the landing page counts, newest digest
    first, each in reading order; the browser shows those new and unread. It
    has the count's line (but no link to itself), no filters, and says what
    it shows without JavaScript."""
    proj, model = weekly
    page = soup(proj, contract.UNREAD)
    walk = [d for number in (4, 3, 2, 1) for d in reading(model, [number])]
    assert [li["data-pr"] for li in page.select("article ul.prnotes-list-unread > li.prnotes-note")] == [
        contract.note_key(model.by_docname[d].repo, model.by_docname[d].number, d) for d in walk
    ]
    (box,) = page.select("article div.prnotes-since")
    landing = soup(proj, "index").select_one("article div.prnotes-since")
    assert box["data-digests"] == landing["data-digests"] == "4:4 3:3 2:4 1:4"
    assert box["data-today"] == landing["data-today"] == "4"  # 今日: 2026-12-03, digest 4 alone
    assert not box.has_attr("data-unread") and landing["data-unread"] == "notes/unread.html"
    assert page.select("form.prnotes-filters") == []
    assert "最近各期摘要的全部笔记" in page.select_one("article noscript").get_text()
    # Reached from the count, not from the navigation.
    assert "未读笔记" not in squash(page.select_one(".bd-header"))


def test_the_archive_names_each_digests_repository(weekly):
    proj, model = weekly
    rows = [squash(li) for li in soup(proj, contract.DIGESTS_INDEX).select("article li")]
    assert rows == [
        f"第 {d.number} 期 · {DATES[d.number - 1][:10]} · {d.repo} · {len(d.notes)} 篇（{counts}）"
        for d, counts in zip(reversed(model.digests), ("精读 1 篇，速读 1 篇，按需 2 篇", "精读 2 篇，按需 1 篇", "精读 2 篇，速读 2 篇", "精读 2 篇，速读 1 篇，按需 1 篇"))
    ]  # fmt: skip


def test_a_digests_last_note_says_the_digest_ends_and_where_next_leads(weekly):
    """下一篇 from the last note of 第 4 期 names 第 3 期 and its date; the notes before it say nothing more."""
    proj, model = weekly
    order = reading(model, [4])
    last, before = soup(proj, order[-1]), soup(proj, order[-2])
    assert squash(last.select_one("p.prnotes-digest-end")) == "第 4 期到此读完"
    assert squash(last.select_one("a.right-next .prev-next-subtitle")) == "下一篇 · 上一期：第 3 期 · 2026-11-30"
    assert last.select_one("a.right-next")["href"].endswith(f"{reading(model, [3])[0].rsplit('/', 1)[1]}.html")
    assert before.select_one("p.prnotes-digest-end") is None
    assert squash(before.select_one("a.right-next .prev-next-subtitle")) == "下一篇"
    # The oldest digest's last note has no 下一篇, and so no end line.
    assert soup(proj, reading(model, [1])[-1]).select_one("p.prnotes-digest-end") is None


def test_the_end_of_a_digest_gets_the_date_of_the_one_before_when_it_is_committed(tmp_path):
    """未提交, then the commit's day: the last note of the newer digest is written again, not read again."""
    proj = follow_project(tmp_path / "p", digests=2, dates=DATES)
    shutil.copy2(SEEDS / DIGESTS[2], proj / "seeds" / DIGESTS[2])
    shutil.copy2(SEEDS / DIGESTS[3], proj / "seeds" / DIGESTS[3])
    build(proj)
    model = load(proj)
    last = reading(model, [4])[-1]
    subtitle = lambda: squash(soup(proj, last).select_one("a.right-next .prev-next-subtitle"))  # noqa: E731
    assert subtitle() == "下一篇 · 上一期：第 3 期 · 未提交"
    gitrepo.commit(proj, [f"seeds/{DIGESTS[2]}"], DATES[2])
    read, written = [], []
    app = sphinx_build(proj, listeners=[("env-before-read-docs", lambda app, env, docs: read.extend(docs)),
                                        ("html-page-context", lambda app, name, *rest: written.append(name))])  # fmt: skip
    assert app.warning.getvalue() == ""
    assert last in written and last not in read
    assert subtitle() == "下一篇 · 上一期：第 3 期 · 2026-11-30"


def test_the_new_pages_are_valid_html(weekly):
    """The Nu HTML checker on 未读 (its noscript line), 本周, the landing page (the
    count's line, the filters with 只看未读) and a digest's last note (its end line,
    the j/k switch)."""
    from tests.support.pagechecks import nu_errors

    proj, model = weekly
    out = proj / "_build/html"
    pages = [contract.UNREAD, contract.WEEK_INDEX, contract.week_docname(3), "index", reading(model, [4])[-1]]
    assert [str(e) for e in nu_errors([out / f"{d}.html" for d in pages])] == []
