"""Incremental builds: what Sphinx re-reads after a change, and parallel builds."""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.testing.util import SphinxTestApp

from tests.support.sandbox import convert, copy_project, sphinx_build

NOTE = "notes/vllm-project/vllm/pr-52810"


def build(proj: Path, parallel: int = 0, freshenv: bool = False) -> tuple[SphinxTestApp, list[str]]:
    """Build incrementally; return the app and the docnames Sphinx read."""
    read: list[str] = []
    listeners = [("env-before-read-docs", lambda app, env, docnames: read.extend(docnames))]
    app = sphinx_build(proj, freshenv=freshenv, parallel=parallel, listeners=listeners)
    assert app.warning.getvalue() == ""
    return app, sorted(read)


def edit_body(proj: Path, old: str, new: str) -> None:
    seed = proj / "seeds/000_50c46ef36472ac24.txt"
    text = seed.read_text(encoding="utf-8")
    assert old in text
    seed.write_text(text.replace(old, new), encoding="utf-8")


def test_rereads_after_no_change_edit_and_new_digest(tmp_path):
    proj = copy_project(tmp_path / "p")
    assert convert(proj) == 0
    build(proj, freshenv=True)

    assert convert(proj) == 0
    assert build(proj)[1] == []

    edit_body(proj, "重点关注 `git_fetch_with_timeout`", "重点关注 `git_fetch_with_timeout`（补充）")
    assert convert(proj) == 0
    read = build(proj)[1]
    assert NOTE in read and len(read) <= 3

    (proj / "seeds/002_new.txt").write_text(
        "vllm-project/vllm\n\n新的 CI 修复 (#60001)\n\n值得精读。结合 #52810 看。\n\n"
        "另一个 MoE 改动 (#60002)\n\n值得快速浏览。\n",
        encoding="utf-8",
    )
    assert convert(proj) == 0
    app, read = build(proj)
    new = {"notes/vllm-project/vllm/pr-60001", "notes/vllm-project/vllm/pr-60002"}
    assert new <= set(read)
    # Besides the new notes, only listing pages and the note the new one
    # mentions (its back-links changed) are read again.
    other_notes = {d for d in read if re.fullmatch(r"notes/[^/]+/[^/]+/(pr|t)-[^/]+", d)} - new
    assert other_notes == {NOTE}
    html = (proj / "_build/html" / f"{NOTE}.html").read_text(encoding="utf-8")
    assert 'href="pr-60001.html"' in html


def test_parallel_build_matches_serial(tmp_path):
    serial = copy_project(tmp_path / "serial")
    parallel = copy_project(tmp_path / "parallel")
    for proj in (serial, parallel):
        assert convert(proj) == 0
    app1, _ = build(serial, freshenv=True)
    app2, _ = build(parallel, parallel=2, freshenv=True)
    for store in ("prnotes_mentions", "prnotes_note_facts", "prnotes_summaries", "prnotes_buildtime_users"):
        assert getattr(app2.env, store) == getattr(app1.env, store), store
    # The note links the PR its advice mentions; its own number goes to GitHub.
    assert app1.env.prnotes_mentions["notes/vllm-project/vllm/pr-51368"] == {"notes/vllm-project/vllm/pr-52626"}
    assert len(app1.env.prnotes_note_facts) == 16
    for page in ("notes/vllm-project/vllm/pr-51368.html", "notes/pr-index.html", "index.html"):
        a = (serial / "_build/html" / page).read_text(encoding="utf-8")
        b = (parallel / "_build/html" / page).read_text(encoding="utf-8")
        assert a == b


def test_neighbours_of_an_added_or_deleted_note_are_rewritten(tmp_path):
    """A note's 上一篇/下一篇 follow the walk of the digests after a note beside it comes or goes."""
    proj = copy_project(tmp_path / "p")
    assert convert(proj) == 0
    build(proj, freshenv=True)
    html = proj / "_build/html"

    def links_to(target: str) -> list[str]:
        return sorted(
            p.relative_to(html).as_posix()
            for p in html.rglob("*.html")
            if re.search(rf'<a class="(?:left-prev|right-next)"\s+href="[^"]*{re.escape(target)}"', p.read_text(encoding="utf-8"))
        )

    (proj / "seeds/002_new.txt").write_text("vllm-project/vllm\n\n[CI] 新的 CI 修复 (#70700)\n\n值得精读。CI 内容，`zyxwvut_flag`。\n", encoding="utf-8")
    assert convert(proj) == 0
    build(proj)
    beside = links_to("pr-70700.html")
    # The new digest is the newest: its note comes first in the walk, and the
    # note after it (the first of the digest before) points back to it.
    assert beside == ["notes/vllm-project/vllm/pr-52288.html"], beside

    (proj / "seeds/002_new.txt").unlink()
    assert convert(proj) == 0
    build(proj)
    assert not (html / "notes/vllm-project/vllm/pr-70700.html").exists()
    assert links_to("pr-70700.html") == []

    # The search index forgets the deleted note's words: it is the clean build's.
    index = (html / "searchindex.js").read_text(encoding="utf-8")
    assert "zyxwvut" not in index
    clean = copy_project(tmp_path / "clean")
    assert convert(clean) == 0
    build(clean, freshenv=True)
    assert index == (clean / "_build/html/searchindex.js").read_text(encoding="utf-8")


def test_neighbours_follow_a_title_not_a_body(tmp_path):
    """A page read again under the same title leaves its neighbours alone; a new title rewrites their buttons."""
    proj = copy_project(tmp_path / "p")
    assert convert(proj) == 0
    app, _ = build(proj, freshenv=True)
    prev, nxt = app.env.prnotes_neighbours[NOTE]  # as prevnext.py set them
    assert prev and nxt
    html = proj / "_build/html"

    def written() -> list[str]:
        pages: list[str] = []
        app = sphinx_build(proj, listeners=[("html-page-context", lambda app, name, *rest: pages.append(name))])
        assert app.warning.getvalue() == ""
        return pages

    edit_body(proj, "重点关注 `git_fetch_with_timeout`", "重点关注 `git_fetch_with_timeout`（补充）")
    assert convert(proj) == 0
    pages = written()
    assert NOTE in pages and prev not in pages and nxt not in pages

    old, new = "禁用 Git 自动维护，修复 ROCm CI 浅克隆 fetch 竞态", "禁用 Git 自动维护，修复 ROCm CI 浅克隆 fetch 竞态问题"
    for name in ("seeds/000_50c46ef36472ac24.txt", "seeds/prs.toml"):
        path = proj / name
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new), encoding="utf-8")
    assert convert(proj) == 0
    pages = written()
    assert prev in pages and nxt in pages
    for neighbour in (prev, nxt):
        assert new in (html / f"{neighbour}.html").read_text(encoding="utf-8"), neighbour


def test_a_renamed_subsystem_is_renamed_on_every_page(tmp_path):
    """Every page's header and sidebar name the subsystems, and a subsystem page's
    上一页 leads back over the previous subsystem's notes to its page: a subsystem
    renamed in its set (taxonomy/) is renamed on all of them, not only on the pages read again."""
    proj = copy_project(tmp_path / "p")
    assert convert(proj) == 0
    app, _ = build(proj, freshenv=True)
    relations = app.builder.relations
    # A subsystem page whose previous page is a note of the subsystem before it.
    page, before = next(
        (doc, links[1])
        for doc, links in sorted(relations.items())
        if doc.startswith("notes/subsystem/") and links[1] and links[1].startswith("notes/vllm-project/")
    )
    while not before.startswith("notes/subsystem/"):
        before = relations[before][1]
    slug = before.rsplit("/", 1)[1]
    taxonomy = proj / "taxonomy/vllm-project__vllm.toml"
    text = taxonomy.read_text(encoding="utf-8")
    old = re.search(rf'slug = "{slug}"\ntitle = "([^"]+)"', text).group(1)
    taxonomy.write_text(text.replace(f'slug = "{slug}"\ntitle = "{old}"', f'slug = "{slug}"\ntitle = "{old}（新名）"'), encoding="utf-8")
    assert convert(proj) == 0
    read = build(proj)[1]
    html = proj / "_build/html"
    assert f"{old}（新名）" in (html / f"{page}.html").read_text(encoding="utf-8")
    assert page not in read  # written again, not read again
    stale = sorted(p.name for p in html.rglob("*.html") if f">{old}<" in p.read_text(encoding="utf-8"))
    assert stale == []
    # A day's digest leaves the navigation alone: only what it changes is written.
    (proj / "seeds/002_new.txt").write_text("vllm-project/vllm\n\n新的 CI 修复 (#60001)\n\n值得精读。\n", encoding="utf-8")
    assert convert(proj) == 0
    written: list[str] = []
    sphinx_build(proj, listeners=[("html-page-context", lambda app, name, *rest: written.append(name))])
    assert 0 < len(written) < len(relations) // 2
