"""Linking badges resolve through the standard domain, not through every domain."""

from __future__ import annotations

import re

from sphinx.domains.cpp import CPPDomain

from tests.support.sandbox import convert, copy_project, sphinx_build


def test_badges_link_without_asking_every_domain(tmp_path, monkeypatch):
    asked = []
    original = CPPDomain.resolve_any_xref

    def counting(self, env, fromdocname, builder, target, node, contnode):
        asked.append(target)
        return original(self, env, fromdocname, builder, target, node, contnode)

    monkeypatch.setattr(CPPDomain, "resolve_any_xref", counting)
    proj = copy_project(tmp_path / "p")
    assert convert(proj) == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    assert asked == []
    # Each note's badges still link to their labels: the verdict's reading list first, then the subsystem.
    page = next((proj / "_build/html/notes/vllm-project/vllm").glob("pr-*.html")).read_text(encoding="utf-8")
    hrefs = re.findall(r'<a class="[^"]*sd-badge[^"]*reference internal" href="([^"]+)"><span class="std std-ref">', page)
    assert re.fullmatch(r"(\.\./)+reading/[a-z-]+\.html#reading-[a-z-]+", hrefs[0]), hrefs
    assert re.fullmatch(r"(\.\./)+subsystem/[a-z-]+\.html#subsystem-[a-z-]+", hrefs[1]), hrefs
