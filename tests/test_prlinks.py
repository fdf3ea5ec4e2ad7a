"""PR references (sphinxext/prlinks.py), the sitemap and the meta tags, on a
fixture project of two pages: a reference goes to the site's note when there
is one, else to GitHub, and a page is written again when its target comes."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from bs4 import BeautifulSoup

pytestmark = pytest.mark.sphinx("html", testroot="prlinks", freshenv=True)
NOTE = """# Another note

## 阅读建议

Text.
"""


def _hrefs(app) -> list[str]:
    """The links of the page's paragraph of references."""
    soup = BeautifulSoup((app.outdir / "index.html").read_text(encoding="utf-8"), "html.parser")
    return [a["href"] for a in soup.find("div", class_="body").find("p").find_all("a", href=True)]


def test_a_reference_goes_to_the_note_and_beside_it_to_github(app):
    app.build()
    assert app.warning.getvalue() == ""
    hrefs = _hrefs(app)
    assert "notes/o/r/pr-1.html" in hrefs and "https://github.com/o/r/pull/1" in hrefs
    assert "https://github.com/o/r/pull/2" in hrefs and "notes/o/r/pr-2.html" not in hrefs
    assert "https://github.com/o/r/issues/3" in hrefs
    # Another repository's #1 is not this one's note.
    assert "https://github.com/o/x/pull/1" in hrefs and hrefs.count("notes/o/r/pr-1.html") == 1


def test_a_note_that_arrives_turns_the_reference_into_a_link_to_it(app):
    app.build()
    note, index = app.srcdir / "notes/o/r/pr-2.md", app.srcdir / "index.md"
    before = index.read_text(encoding="utf-8")
    try:
        note.write_text("---\norphan: true\n---\n\n" + NOTE, encoding="utf-8")
        written = []
        app.connect("html-page-context", lambda app, pagename, *rest: written.append(pagename))
        app.build()
        # The page that mentions #2 is written again, though its source did not change.
        assert "index" in written
        assert "notes/o/r/pr-2.html" in _hrefs(app)
    finally:
        note.unlink()
        index.write_text(before, encoding="utf-8")


def test_the_sitemap_lists_every_page_sorted_on_the_base_url(app):
    app.build()
    root = ET.parse(app.outdir / "sitemap.xml").getroot()
    locs = [e.text for e in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert locs == ["https://notes.example.org/site/index.html", "https://notes.example.org/site/notes/o/r/pr-1.html"]
    before = (app.outdir / "sitemap.xml").stat().st_mtime_ns
    app.build()
    assert (app.outdir / "sitemap.xml").stat().st_mtime_ns == before  # unchanged, not rewritten


def test_meta_tags_are_escaped_once(app):
    app.build()
    raw = (app.outdir / "notes/o/r/pr-1.html").read_text(encoding="utf-8")
    head = raw[: raw.index("</head>")]
    assert re.search(r'content="[^"]*[<>]', head) is None
    metas = {(m.get("property") or m.get("name")): m["content"] for m in BeautifulSoup(head, "html.parser").find_all("meta") if m.get("content")}
    assert metas["og:title"] == 'A note "with" <markup> & more'
    assert metas["og:site_name"] == "Fixture & <site>"
    assert metas["og:url"] == "https://notes.example.org/site/notes/o/r/pr-1.html"
    assert metas["og:description"] == metas["description"] == "The advice of the note."
