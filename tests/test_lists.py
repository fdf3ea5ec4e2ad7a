"""Lists of notes built from the facts the note pages declare (sphinxext/lists.py),
and the pages written again when a note joins, leaves or changes a list
(the collectors of sphinxext/facts/state.py), on a fixture project of four pages."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.sphinx("html", testroot="lists", freshenv=True)


def _listed(app) -> list[str]:
    """The note links of the hub page's list, in order."""
    import re

    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    block = html[html.index("prnotes-list-notes") :]
    block = block[: block.index("</ul>")]
    return list(dict.fromkeys(re.findall(r'href="(notes/o/r/pr-\d+)\.html"', block)))


def test_the_list_holds_the_notes_that_match_newest_first(app):
    app.build()
    assert app.warning.getvalue() == ""
    assert _listed(app) == ["notes/o/r/pr-2", "notes/o/r/pr-1"]
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert html.count("sd-badge") == 2  # :show: verdict


def test_a_note_that_joins_the_list_rewrites_the_hub_without_reading_it(app):
    app.build()
    page = app.srcdir / "notes/o/r/pr-3.md"
    page.write_text(page.read_text(encoding="utf-8").replace(":subsystem: docs", ":subsystem: ci"), encoding="utf-8")
    read, written = [], []
    app.connect("env-before-read-docs", lambda app, env, docnames: read.extend(docnames))
    app.connect("html-page-context", lambda app, pagename, *rest: written.append(pagename))
    app.build()
    assert read == ["notes/o/r/pr-3"]
    assert "index" in written
    assert _listed(app) == ["notes/o/r/pr-3", "notes/o/r/pr-2", "notes/o/r/pr-1"]


def test_an_unrelated_edit_leaves_the_hub_alone(app):
    app.build()
    page = app.srcdir / "notes/o/r/pr-3.md"
    page.write_text(page.read_text(encoding="utf-8").replace("的建议。", "的建议，改过。"), encoding="utf-8")
    written = []
    app.connect("html-page-context", lambda app, pagename, *rest: written.append(pagename))
    app.build()
    assert "index" not in written and "notes/o/r/pr-3" in written


def test_a_listed_note_read_again_with_the_same_facts_leaves_the_hub_alone(app):
    """A day's digest reads again the notes whose back-links it changes; what
    the lists show of them (their facts) stays, so the lists are not written again."""
    app.build()
    page = app.srcdir / "notes/o/r/pr-1.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n## 相关\n\n提到本篇的笔记：第 9 篇。\n", encoding="utf-8")
    read, written = [], []
    app.connect("env-before-read-docs", lambda app, env, docnames: read.extend(docnames))
    app.connect("html-page-context", lambda app, pagename, *rest: written.append(pagename))
    app.build()
    assert read == ["notes/o/r/pr-1"]
    assert "index" not in written and "notes/o/r/pr-1" in written
    # Its title is a fact: changing it writes the hub again.
    page.write_text(page.read_text(encoding="utf-8").replace("# 第 1 篇", "# 第一篇"), encoding="utf-8")
    written.clear()
    app.build()
    assert "index" in written
