"""Lists paged by count of entries (prnotes.render.paging): the arithmetic,
and page boundaries that a new digest leaves as they were, pinned on a small
archive held in memory (page sizes lowered so that three digests fill pages)."""

from __future__ import annotations

import re

import pytest

from prnotes import contract
from prnotes.model import site as model
from prnotes.model.site import build_site
from prnotes.parse.seeds import parse_prs, parse_seed
from prnotes.render import digests, paging, prindex, render_pages, symbols, watchlist
from prnotes.render.paging import Page, page_of, pages
from prnotes.model.taxonomy import load_taxonomy
from tests.support.sandbox import TAXONOMY


def test_pages_are_full_but_the_newest():
    keys = [(1, i) for i in range(1, 12)]
    listed = pages(keys, 5)
    assert [(p.number, p.start, p.end, p.full) for p in listed] == [(1, 1, 5, True), (2, 6, 10, True), (3, 11, 11, False)]
    assert listed[1].first == (1, 6) and listed[1].last == (1, 10)
    # The newest page holds 1 to size entries: exactly two full pages of entries leave the second on the list's page.
    assert [(p.count, p.full) for p in pages(keys[:10], 5)] == [(5, True), (5, False)]
    assert pages([], 5) == []
    assert page_of(listed, (1, 7)).number == 2
    assert page_of(listed, (1, 11)).number == 3


def test_a_page_states_its_range_of_arrival_keys():
    assert Page(1, 1, 5, (1, 1), (2, 3), True).where() == {"arrival": "1.1..2.3"}
    assert Page(3, 11, 12, (4, 1), (4, 2), False).where() == {"arrival": "4.1.."}  # the list's own page: open-ended
    assert Page(1, 1, 2, (1, 1), (1, 2), False).where() == {}  # the only page: no condition


def test_more_entries_never_move_an_entry_to_another_full_page():
    keys = [(d, p) for d in range(1, 40) for p in range(1, 4)]
    for size in (1, 2, 5, 7):
        before = pages(keys[:50], size)
        after = pages(keys, size)
        assert [p for p in before if p.full] == after[: len([p for p in before if p.full])]
        assert all(p.count == size for p in after if p.full) and 1 <= after[-1].count <= size


def _digest(number: int, count: int, first_pr: int) -> str:
    lines = ["o/r", ""]
    for n in range(first_pr, first_pr + count):
        # Each note names a PR the archive has no note of (n + 100): two numbers a note.
        lines += [f"[CI] 第 {n} 个改动 (#{n})", "", f"值得精读。结合 #{n + 100} 看，后续需要跟踪 `f_{n}` 的默认值。", ""]
    return "\n".join(lines)


def _pages(digest_count: int) -> dict[str, str]:
    seeds = [parse_seed(f"seeds/{i:03d}.txt", _digest(i, 4, 4 * i + 1).encode()) for i in range(digest_count)]
    site = build_site(seeds, parse_prs("seeds/prs.toml", b""), load_taxonomy(TAXONOMY / "taxonomy.toml"))
    assert len({n.subsystem for n in site.notes}) == 1  # every note in one subsystem: CI
    return render_pages(site).pages


def _ci() -> str:
    """The key of the subsystem the archive's notes are filed in."""
    seed = parse_seed("seeds/000.txt", _digest(0, 1, 1).encode())
    return build_site([seed], parse_prs("seeds/prs.toml", b""), load_taxonomy(TAXONOMY / "taxonomy.toml")).notes[0].subsystem


@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(model, "VOLUME_NOTES", 5)
    monkeypatch.setattr(paging, "NOTE_PAGE", 5)
    monkeypatch.setattr(watchlist, "INLINE_FOLLOWUPS", 3)
    monkeypatch.setattr(watchlist, "FOLLOWUP_PAGE", 5)
    monkeypatch.setattr(prindex, "INLINE_NUMBERS", 3)
    monkeypatch.setattr(prindex, "PR_PAGE", 5)
    monkeypatch.setattr(symbols, "INLINE_SYMBOLS", 3)
    monkeypatch.setattr(symbols, "SYMBOL_PAGE", 5)
    monkeypatch.setattr(digests, "DIGEST_PAGE", 2)
    return _pages


def _where(page: str) -> list[str]:
    return re.findall(r"^:where: (.*)$", page, re.M)


def test_page_boundaries_pinned_and_kept_when_a_digest_arrives(small_pages):
    """Three digests of four notes, pages of five: then a fourth digest."""
    before, after = small_pages(3), small_pages(4)
    key = _ci()
    ci = contract.subsystem_docname(key)
    # Notes by arrival (digest, place): 12 notes are two full pages and two on the list's page.
    assert _where(before[f"{ci}/p1.md"]) == [f"subsystem={key} arrival=1.1..2.1"]
    assert _where(before[f"{ci}/p2.md"]) == [f"subsystem={key} arrival=2.2..3.2"]
    assert _where(before[f"{ci}.md"]) == [f"subsystem={key} arrival=3.3.."]
    # Four more: the full pages stay byte for byte, one more fills, the list's page moves on.
    assert after[f"{ci}/p1.md"] == before[f"{ci}/p1.md"]
    assert after[f"{ci}/p2.md"] == before[f"{ci}/p2.md"]
    assert _where(after[f"{ci}/p3.md"]) == [f"subsystem={key} arrival=3.3..4.3"]
    assert _where(after[f"{ci}.md"]) == [f"subsystem={key} arrival=4.4.."]
    assert f"{ci}/p3.md" not in before
    # The PR index: a number's key is its first note's, then the number (own #n, then #n+100).
    repo = contract.pr_list_docname("o/r")
    assert _where(before[f"{repo}/p1.md"]) == ["repo=o/r arrival=1.1.1..1.3.3"]
    assert _where(before[f"{repo}.md"]) == ["repo=o/r arrival=3.3.11.."]
    assert all(after[f"{repo}/p{k}.md"] == before[f"{repo}/p{k}.md"] for k in range(1, 5))
    # The digest archive, two digests a page.
    archive = contract.DIGESTS_INDEX
    assert f"{archive}/p1.md" in before and f"{archive}/p2.md" not in before
    assert after[f"{archive}/p1.md"] == before[f"{archive}/p1.md"]
    assert "第 1–2 期" in before[f"{archive}/p1.md"] and "（最新）" not in before[f"{archive}/p1.md"]
    # Watch list and symbol index pages: the same rule.
    followups = contract.watchlist_docname(key)
    assert _where(before[f"{followups}/p1.md"]) == [f"subsystem={key} arrival=1.1.1..2.1.1"]
    assert after[f"{followups}/p1.md"] == before[f"{followups}/p1.md"]
    part = contract.symbols_docname("function", "f")
    assert _where(before[f"{part}/p1.md"]) == ["kind=function initial=f arrival=1.1.0..2.1.0"]
    assert after[f"{part}/p1.md"] == before[f"{part}/p1.md"]


def test_the_old_addresses_lead_to_the_pages_that_hold_their_entries(small_pages):
    pages_ = small_pages(3)
    ci = contract.subsystem_docname(_ci())
    # Volumes of five notes: 第 1–2 期 (8 notes) and 第 3 期. The old page of the
    # first volume leads to the page of its first note.
    redirects = re.search(r":::\{prnotes-redirects\}\n(.*?):::", pages_[f"{ci}.md"], re.S).group(1).split("\n")
    assert redirects == [f"{ci}/v1 {ci}/p1", ""]
    archive = re.search(r":::\{prnotes-redirects\}\n(.*?):::", pages_[f"{contract.DIGESTS_INDEX}.md"], re.S).group(1)
    assert archive == f"{contract.DIGESTS_INDEX}/v1 {contract.DIGESTS_INDEX}/p1\n"
    # The ranges of 500 numbers: #1–#12 and #101–#112 are the ranges 0 and 0 (one page),
    # so one old address, to the page of #1.
    repo = contract.pr_list_docname("o/r")
    ranges = re.search(r":::\{prnotes-redirects\}\n(.*?):::", pages_[f"{repo}.md"], re.S).group(1)
    assert ranges == f"{contract.pr_range_docname('o/r', 0)} {repo}/p1\n"
