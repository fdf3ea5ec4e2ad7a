"""Tag pages on the fixture site (tests/roots/vllm16): a tag never has a
subsystem's name, and a tag page lists every note of its topic, those filed
under the subsystem it stands for included (render/tags.py)."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from prnotes import contract
from prnotes.render.tags import tag_title
from prnotes.model.tags import all_tags, tag_index, tags_of_note


def page(proj, docname: str) -> BeautifulSoup:
    return BeautifulSoup((proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8"), "html.parser")


def listed(soup: BeautifulSoup) -> set[str]:
    return {li["data-pr"] for li in soup.select("article li.prnotes-note")}


def test_no_tag_shown_has_a_subsystems_name(built_site, site):
    proj, _ = built_site
    names = {s.title for s in site.taxonomy.all_subsystems}
    shown = {badge.get_text() for badge in page(proj, contract.TAGS_INDEX).select("article .sd-badge")}
    assert shown and not shown & names
    for note in site.notes:
        badges = {b.get_text() for b in page(proj, note.docname).select("article .sd-badge") if b.find_parent("a", href=re.compile("tags/"))}
        assert not badges & names, note.docname
    # The two the reader met: 注意力后端与 kernel and ROCm/AMD beside ROCm 与 AMD.
    assert {"涉及注意力后端与 kernel", "涉及 ROCm/AMD", "涉及 CI"} <= shown
    assert "NVIDIA" in shown  # a tag of its own keeps its name


@pytest.mark.parametrize("slug", ["rocm", "attention", "ci", "nvidia"])
def test_a_tag_page_lists_every_note_of_its_topic(built_site, site, slug):
    proj, _ = built_site
    tag = next(t for t in all_tags(site.taxonomy) if t.slug == slug)
    tagged = {n for n in site.notes if tag in tags_of_note(n, site.taxonomy)}
    filed = {n for n in site.notes if n.subsystem_slug == slug} if tag.subsystem else set()
    assert tagged <= set(tag_index(site).get(slug, ()))
    expected = {contract.note_key(n.repo, n.number, n.docname) for n in tagged | filed}
    assert expected and listed(page(proj, contract.tag_docname(slug))) == expected
    if slug == "rocm":
        assert filed and tagged  # the ROCm subsystem's own notes are there, with those filed under CI
    title = page(proj, contract.tag_docname(slug)).find("h1").get_text().rstrip("#")
    assert title == f"标签：{tag_title(tag, site)}"
