"""The feed says when each note arrived, in any time zone, and carries seed
text as text; markup in a prs.toml upstream title shows literally."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import datetime

import pytest
from bs4 import BeautifulSoup

from tests.support import gitrepo
from tests.support.sandbox import convert, copy_project, sphinx_build

ATOM = "{http://www.w3.org/2005/Atom}"
# Committed at these times, in time zones east and west of UTC.
WHEN = {"000.txt": "2026-11-02T09:30:00+08:00", "001.txt": "2026-11-05T23:10:00-05:00"}
UPSTREAM = '<script>alert(1)</script> **bold** {sub}`x` [link](http://e.example) &amp; `code`'


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    seeds = {
        "000.txt": "o/r\n\n第一篇 CI\n\n值得精读。<b>粗体</b> & <script>x</script> 是正文。\n",
        "001.txt": "o/r\n\n第二篇 CI (#2)\n\n值得快速浏览。正文。\n",
        "prs.toml": f'["o/r"]\n"第一篇 CI" = {{ number = 1, upstream_title = "{UPSTREAM}" }}\n',
    }
    proj = copy_project(tmp_path_factory.mktemp("feed") / "p", seeds)
    gitrepo.init(proj)
    for name, when in WHEN.items():
        gitrepo.commit(proj, [f"seeds/{name}", "seeds/prs.toml"] if name == "000.txt" else [f"seeds/{name}"], when)
    assert convert(proj) == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    return proj / "_build" / "html"


def test_feed_times_are_the_commit_times_in_any_zone(site):
    entries = {e.find(f"{ATOM}link").get("href").rsplit("/", 1)[1]: e for e in ET.parse(site / "feed.xml").getroot().iter(f"{ATOM}entry")}
    for page, name in (("pr-1.html", "000.txt"), ("pr-2.html", "001.txt")):
        for field in ("published", "updated"):
            stamp = datetime.fromisoformat(entries[page].find(f"{ATOM}{field}").text)
            assert stamp == datetime.fromisoformat(WHEN[name]), (page, field)


def test_feed_content_is_text_never_html(site):
    raw = (site / "feed.xml").read_text(encoding="utf-8")
    entries = list(ET.parse(site / "feed.xml").getroot().iter(f"{ATOM}entry"))
    for entry in entries:
        for tag in ("content", "summary", "title"):
            element = entry.find(f"{ATOM}{tag}")
            if element is not None:
                assert element.get("type", "text") == "text", (tag, element.get("type"))
    assert "<script>" not in raw and "&lt;script&gt;" in raw


def test_markup_in_an_upstream_title_shows_literally(site):
    soup = BeautifulSoup((site / "notes/o/r/pr-1.html").read_text(encoding="utf-8"), "html.parser")
    article = soup.find("article")
    assert UPSTREAM in article.get_text(), "the upstream title must read as written"
    assert article.find("script") is None and article.find("strong") is None
    assert not any(a.get("href") == "http://e.example" for a in article.find_all("a"))
