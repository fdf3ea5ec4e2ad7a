"""Sections of a built page, as the tests read them."""

from __future__ import annotations

from bs4 import BeautifulSoup


def section_text(html: str, heading: str) -> str | None:
    """Text of the section under an ``<h2>`` reading ``heading``, without the heading."""
    soup = BeautifulSoup(html, "html.parser")
    for link in soup.select("a.headerlink"):
        link.decompose()
    for h2 in soup.find_all("h2"):
        if h2.get_text().strip() == heading:
            section = h2.parent
            h2.extract()
            return section.get_text() if section else ""
    return None
