"""What the page around a note shows of it: the browser tab's title, and no breadcrumbs.

A reader with several notes open tells the tabs apart by the pull request: a
note's ``<title>`` is ``<note title> · owner/repo#N - PR 精读笔记``
(``prnotes_tab_title``, shown by ``templates/layout.html``). A note page has
no breadcrumbs (``prnotes_note_page``, read by ``templates/breadcrumbs.html``):
they would name its subsystem a second time above the title, where the
subsystem's badge already leads to it, and push the advice down a phone's
screen.
"""

from __future__ import annotations

from sphinx.application import Sphinx

from ..facts.notes import Facts


def tab_title(title: str, repo: str, number: int | None) -> str:
    return f"{title} · {repo}#{number}" if number is not None else f"{title} · {repo}"


def note_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    facts = Facts.of(app.env).get(pagename)
    if facts is None or pagename not in app.env.titles:
        return
    context["prnotes_note_page"] = True
    context["prnotes_tab_title"] = tab_title(app.env.titles[pagename].astext(), facts.repo, facts.number)


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.connect("html-page-context", note_page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
