"""Links across volumes (sphinxext/links/volumes.py): a build that holds some
pages of the archive links to the others where the link map says they are,
at the URLs one build of the whole site gives them; without a map, nothing
changes."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup


def _hrefs(app, page: str) -> list[str]:
    soup = BeautifulSoup((app.outdir / page).read_text(encoding="utf-8"), "html.parser")
    return [a["href"] for a in soup.find("div", class_="body").find_all("a", href=True)]


@pytest.mark.sphinx("html", testroot="volumes", freshenv=True)
def test_references_to_pages_of_other_volumes_go_to_their_urls(app):
    app.build()
    assert app.warning.getvalue() == ""
    hrefs = _hrefs(app, "index.html")
    # A PR whose note another volume holds: the note, and GitHub beside it; one without a note: GitHub.
    assert "notes/o/r/pr-1.html" in hrefs and "https://github.com/o/r/pull/1" in hrefs
    assert "https://github.com/o/r/pull/2" in hrefs and "notes/o/r/pr-2.html" not in hrefs
    assert "notes/o/r/pr-3.html" in hrefs
    # Markdown links and labels: to the page (and anchor) the map names.
    assert "notes/digests/d1.html" in hrefs
    assert hrefs.count("notes/reading/close.html#reading-close") == 3  # a Markdown link, a {ref}, an {any} (the badges)
    assert "notes/o/r/pr-3.html#local-label" in hrefs
    note = _hrefs(app, "notes/o/r/pr-3.html")
    assert "pr-1.html" in note and "pr-1.html#pr-o-r-1" in note and "../../../index.html" in note


@pytest.mark.sphinx("html", testroot="volumes", freshenv=True, confoverrides={"prnotes_link_map": ""})
def test_without_a_link_map_the_pages_of_other_volumes_are_missing_as_before(app):
    app.build()
    warnings = app.warning.getvalue()
    assert "notes/digests/d1.md" in warnings and "reading-close" in warnings
    hrefs = _hrefs(app, "index.html")
    assert "https://github.com/o/r/pull/1" in hrefs and "notes/o/r/pr-1.html" not in hrefs


def test_the_build_names_the_setting_the_extension_reads():
    from prnotes.build import volumes as building
    from prnotes.sphinxext.links import volumes as linking

    assert building.LINK_MAP_SETTING == linking.CONFIG
