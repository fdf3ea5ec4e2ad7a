"""Back-links and cross-repository references, as a reader sees them on the note pages."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.support.sandbox import convert, copy_project, sphinx_build

SEED = """o/r

第五个 (#5)

值得精读。本篇自己的内容。

第七个 (#7)

值得精读。本篇自己的内容。

引用另一个仓库 (#10)

值得精读。对比 o/x#5 的做法，它与 #7 有关。

再提第七个 (#11)

值得精读。接着 #7 的工作，也见 O/R#5。
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    proj = copy_project(tmp_path_factory.mktemp("backlinks") / "p", {"000.txt": SEED})
    assert convert(proj) == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    return proj / "_build" / "html"


def _page(html, number: int) -> BeautifulSoup:
    return BeautifulSoup((html / f"notes/o/r/pr-{number}.html").read_text(encoding="utf-8"), "html.parser")


def _links_to_notes(soup: BeautifulSoup) -> set[str]:
    """The notes a page links to by reference or back-link; 相似笔记 is a measure, not a mention."""
    article = soup.find("article")
    for similar in article.select("section#similar-notes"):
        similar.decompose()
    return {a["href"].split("#")[0] for a in article.find_all("a", href=True) if a["href"].startswith("pr-")}


def test_a_third_repository_s_number_is_not_this_repository_s_note(site):
    soup = _page(site, 10)
    hrefs = [a["href"] for a in soup.find("article").find_all("a", href=True)]
    assert "https://github.com/o/x/pull/5" in hrefs
    assert "pr-5.html" not in _links_to_notes(soup), "o/x#5 must not lead to o/r's note #5"
    # And o/r's note #5 is mentioned only by the note that wrote O/R#5, not by o/x#5.
    assert _links_to_notes(_page(site, 5)) == {"pr-11.html"}


def test_a_pr_mentioned_by_two_notes_has_both_back_links(site):
    assert _links_to_notes(_page(site, 7)) >= {"pr-10.html", "pr-11.html"}


def test_a_repository_name_in_other_case_is_the_same_repository(site):
    # O/R#5 in o/r's note #11 links forward to note #5, and note #5 links back.
    assert "pr-5.html" in _links_to_notes(_page(site, 11))
    assert "pr-11.html" in _links_to_notes(_page(site, 5))
