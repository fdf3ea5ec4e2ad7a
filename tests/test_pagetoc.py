"""The "On this page" sidebar: only on pages whose table of contents lists more than the title."""

from __future__ import annotations

import pytest


@pytest.mark.sphinx("html", testroot="pagetoc")
def test_sidebar_only_where_the_page_has_parts(app):
    app.build()
    assert app.warning.getvalue() == ""
    with_parts = (app.outdir / "index.html").read_text(encoding="utf-8")
    flat = (app.outdir / "flat.html").read_text(encoding="utf-8")
    assert with_parts.count('id="pst-page-toc-nav"') == 1
    assert "pst-page-toc-nav" not in flat and "bd-sidebar-secondary" not in flat
    assert app.env.metadata["flat"]["html_theme.sidebar_secondary.remove"] == "true"
    assert "html_theme.sidebar_secondary.remove" not in app.env.metadata["index"]
