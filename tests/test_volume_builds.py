"""Closed volumes built on their own (``prnotes volumes --build``, prnotes/build/volumes.py):
the fixture archive in three volumes, two of them closed and each built by a
Sphinx build of its own, against the same archive in one build. A page of a
closed volume, a note's or a digest's, links where the one build's does (its
badges, PR links, 本篇提到 and 提到本篇的笔记, a back-link from a later volume
included, its list's entries), at the same URL; a volume whose output is current is not built again, and one whose
output is damaged is, alone (docs/volumes.md)."""

from __future__ import annotations

import json
import posixpath
import shutil
import subprocess
import sys
from pathlib import Path

import feedparser
import pytest
from bs4 import BeautifulSoup

from prnotes.build import volumes
from prnotes.commands.cli import main
from prnotes.project import load
from tests.support.sandbox import copy_project
from tests.support.searchbrowser import search_page
from tests.test_volumes import CITING

SIZE = "8"  # the fixture's two digests of eight notes close two volumes; the citing digest is the third


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """``(project, parts, one)``: the volumes built, and the whole archive built once into ``one``."""
    proj = copy_project(tmp_path_factory.mktemp("volumes") / "proj")
    (proj / "seeds" / "002_citing.txt").write_text(CITING, encoding="utf-8")
    assert main(["notes", "--root", str(proj), "-q"]) == 0
    assert main(["volumes", "--root", str(proj), "--size", SIZE, "--build"]) == 0
    one = proj / "_build" / "one"
    subprocess.run(
        [sys.executable, "-m", "prnotes.build.sphinx_build", "-b", "html", "-W", "--keep-going", "-q", "-j", "1",
         "-d", str(proj / "_build" / "one-doctrees"), str(proj), str(one)],
        cwd=proj, check=True, capture_output=True,
    )  # fmt: skip
    return proj, volumes.partition(load(proj), int(SIZE)), one


def _article_links(page: Path) -> list[tuple[str, str]]:
    """The links of a page's article (its own content, not the site's navigation), in order,
    its 相似笔记 included, which every build of the archive in volumes takes from the lists
    scored over the whole archive (docs/volumes.md)."""
    article = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find("article")
    return [(a["href"], a.get_text(" ", strip=True)) for a in article.find_all("a", href=True)]


def test_the_archive_is_two_closed_volumes_and_an_open_one(archive):
    proj, parts, _ = archive
    assert [(p.name, p.closed, len(p.pages)) for p in parts] == [("v1", True, 9), ("v2", True, 9), ("v3", False, 2)]
    for part in parts[:2]:
        for docname in part.pages:
            assert (volumes.output(proj, part) / f"{docname}.html").is_file(), docname


def test_a_closed_note_links_where_the_one_build_links_at_the_same_urls(archive):
    proj, parts, one = archive
    compared = 0
    for part in parts[:2]:
        for docname in part.pages:
            mine = _article_links(volumes.output(proj, part) / f"{docname}.html")
            assert mine == _article_links(one / f"{docname}.html"), docname
            compared += 1
    assert compared == 18  # 16 notes, 2 digests


def _around(page: Path) -> str:
    """A page but its article: the header, the sidebar, the breadcrumbs, the page's table of
    contents, the walk (上一篇/下一篇, the digest's end), the head's links, as a reader's
    browser gets them."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    for left_out in soup.find_all("article"):
        left_out.decompose()
    return soup.prettify()


def test_a_closed_page_shows_the_site_s_navigation_as_the_one_build_does(archive):
    """The header's menu and links, the sidebar and the breadcrumbs of a closed volume's
    pages: the site's, from the stubs of the pages around the volume; and the walk across
    the volume's edges, from the pages beside it (docs/volumes.md)."""
    proj, parts, one = archive
    for part in parts[:2]:
        for docname in part.pages:
            assert _around(volumes.output(proj, part) / f"{docname}.html") == _around(one / f"{docname}.html"), docname
    digest = BeautifulSoup((volumes.output(proj, parts[0]) / f"{parts[0].pages[0]}.html").read_text(encoding="utf-8"), "html.parser")
    assert [a.get_text(strip=True) for a in digest.select(".bd-breadcrumbs a")][1:] == ["摘要归档"]
    assert "子系统" in [b.get_text(strip=True) for b in digest.select("header button.dropdown-toggle")]


def test_a_note_of_a_later_volume_is_a_back_link_on_a_closed_page(archive):
    proj, parts, one = archive
    cited = next(n for n in load(proj).notes if n.number == 52046)
    assert cited.docname in parts[0].pages
    page = volumes.output(proj, parts[0]) / f"{cited.docname}.html"
    assert ("pr-60001.html", "禁止 PCP 分片在 CPU 上回退到旧路径") in _article_links(page)


def test_a_closed_digest_page_links_where_the_one_build_links(archive):
    proj, parts, one = archive
    for part in parts[:2]:
        digest = next(d for d in part.pages if d.startswith("notes/digests/"))
        mine = _article_links(volumes.output(proj, part) / f"{digest}.html")
        assert mine == _article_links(one / f"{digest}.html"), digest
        assert ("../feeds.html", "全部订阅源") in mine


def test_a_current_volume_is_reused_and_a_damaged_one_alone_is_built_again(archive, capsys):
    proj, parts, _ = archive
    root = ["--root", str(proj), "--size", SIZE]
    first = volumes.output(proj, parts[0]) / f"{parts[0].pages[1]}.html"
    before = first.stat().st_mtime_ns
    assert main(["volumes", *root, "--build"]) == 0
    out = capsys.readouterr().out
    assert "closed, reused" in out and "built into" not in out

    damaged = volumes.output(proj, parts[1]) / f"{parts[1].pages[-1]}.html"
    good = damaged.read_bytes()
    damaged.write_bytes(good[: len(good) // 2])
    assert main(["volumes", *root, "--build"]) == 0
    out = capsys.readouterr().out
    assert "v2 第 2 期, 8 notes: closed, to build: its output differs from what was built (damaged)" in out
    assert "v2: built into _build/volumes/v2/html" in out and "v1: built" not in out
    assert damaged.read_bytes() == good
    assert first.stat().st_mtime_ns == before
    assert main(["volumes", *root, "--check"]) == 0


def _local_links(html: Path, rel: str) -> list[str]:
    """The relative links of page ``rel`` of the output ``html``, resolved to paths in it."""
    soup = BeautifulSoup((html / rel).read_text(encoding="utf-8"), "html.parser")
    out = []
    for a in soup.find_all("a", href=True):
        href = a["href"].split("#")[0].split("?")[0]
        if href and "://" not in href and not href.startswith("mailto:"):
            out.append(posixpath.normpath(posixpath.join(posixpath.dirname(rel), href)))
    return out


def test_the_hub_joined_to_the_closed_volumes_shows_what_the_one_build_shows(archive, capsys):
    """``--hub``: the hub is built without the closed volumes' pages (its lists' toctrees
    leave them out, without a warning, as ``-W`` proves), with the facts of their notes
    (facts/across.py), and their pages are joined to it as the volumes built them: the
    same pages as one build, each page's article linking as the one build's does (but
    相似笔记, still scored per build: docs/volumes.md, "What is left"), and the same feeds."""
    proj, parts, one = archive
    assert main(["volumes", "--root", str(proj), "--size", SIZE, "--build", "--hub"]) == 0
    assert "the site in volumes: _build/html" in capsys.readouterr().out
    hub = proj / "_build" / "html"

    def pages(html: Path) -> set[str]:
        return {p.relative_to(html).as_posix() for p in html.rglob("*.html") if p.relative_to(html).parts[0] != "_static"}

    assert pages(hub) == pages(one)
    for part in parts[:2]:
        for docname in part.pages:
            assert (hub / f"{docname}.html").read_bytes() == (volumes.output(proj, part) / f"{docname}.html").read_bytes()
    assert not (proj / "_build" / "volumes" / "hub" / "src" / f"{parts[0].pages[-1]}.md").exists()
    compared = 0
    for rel in sorted(pages(one)):
        if BeautifulSoup((one / rel).read_text(encoding="utf-8"), "html.parser").find("article") is not None:
            assert _article_links(hub / rel) == _article_links(one / rel), rel
            compared += 1
    assert compared > 40
    # A subsystem page of the hub lists a note of a closed volume, at its URL.
    closed_note = next(d for d in parts[0].pages if not d.startswith("notes/digests/"))
    assert any(closed_note + ".html" in _local_links(hub, rel) for rel in pages(hub) if rel.startswith("notes/subsystem/"))

    def entries(feed: Path) -> list[str]:
        return [e.id for e in feedparser.parse(feed.read_bytes()).entries]

    feeds = sorted(p.relative_to(one).as_posix() for p in one.rglob("*.xml") if p.parent.name != "_static")
    assert feeds and feeds == sorted(p.relative_to(hub).as_posix() for p in hub.rglob("*.xml") if p.parent.name != "_static")
    for feed in feeds:
        assert entries(hub / feed) == entries(one / feed), feed
    assert len(entries(hub / "feed.xml")) == 17


def test_the_hub_s_search_finds_the_closed_volumes_notes_as_the_one_build_s_does(archive, capsys):
    """The hub's search holds the closed volumes' notes and digests (their whole
    indexes and snippet texts, ``prnotes_search_in``): the same pages, and each
    query the same results in the same order as the one build's search."""
    proj, parts, one = archive
    assert main(["volumes", "--root", str(proj), "--size", SIZE, "--build", "--hub"]) == 0
    capsys.readouterr()
    hub = proj / "_build" / "html"
    closed = [d for part in parts[:2] for d in part.pages]
    by_docname = load(proj).by_docname
    titles = [by_docname[d].title for d in closed if d in by_docname]
    queries = [*(t[:6] for t in titles[:6]), "调度", "kernel", "#52810"]
    results = []
    for html in (one, hub):
        with search_page(html) as tab:
            results.append({q: tab.search(q, again=True).docnames for q in queries})
    assert results[1] == results[0]
    assert len({d for found in results[1].values() for d in found} & set(closed)) >= 6
    for docname in closed:
        assert (hub / "_search" / "text" / f"{docname}.txt").read_bytes() == (one / "_search" / "text" / f"{docname}.txt").read_bytes()


def test_volumes_built_by_the_jobs_of_a_matrix_are_joined_without_building_them_again(tmp_path, capsys):
    """A CI matrix: each job builds one closed volume in a checkout of its own
    (``--build --only vK``) and hands on that volume's folder, its record beside its
    output; the job that joins the folders finds every volume current and builds the hub alone."""

    def checkout(name: str) -> Path:
        proj = copy_project(tmp_path / name)
        (proj / "seeds" / "002_citing.txt").write_text(CITING, encoding="utf-8")
        return proj

    jobs = {name: checkout(name) for name in ("v1", "v2")}
    # The matrix: the closed volumes to build, as JSON and nothing else on stdout.
    assert main(["volumes", "--root", str(jobs["v1"]), "--size", SIZE, "--matrix"]) == 0
    assert json.loads(capsys.readouterr().out) == ["v1", "v2"]
    for name, proj in jobs.items():
        assert main(["volumes", "--root", str(proj), "--size", SIZE, "--build", "--only", name]) == 0
        assert f"{name}: built into _build/volumes/{name}/html" in capsys.readouterr().out
    join = checkout("join")
    for name, proj in jobs.items():
        shutil.copytree(proj / volumes.FOLDER / name, join / volumes.FOLDER / name)
    assert main(["volumes", "--root", str(join), "--size", SIZE, "--matrix"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["volumes", "--root", str(join), "--size", SIZE, "--check"]) == 0
    out = capsys.readouterr().out
    assert "v1 第 1 期, 8 notes: closed, reused" in out and "v2 第 2 期, 8 notes: closed, reused" in out
    assert main(["volumes", "--root", str(join), "--size", SIZE, "--build", "--hub"]) == 0
    out = capsys.readouterr().out
    assert "built into" not in out and "the site in volumes: _build/html" in out
    # A job's folder damaged on the way is found by its hashes, and that volume alone is built.
    (join / volumes.FOLDER / "v2" / "html" / volumes.SEARCH_INDEX).write_text("damaged", encoding="utf-8")
    assert main(["volumes", "--root", str(join), "--size", SIZE, "--build"]) == 0
    assert "v2: built into" in (out := capsys.readouterr().out) and "v1: built into" not in out


def test_make_html_builds_an_archive_of_several_volumes_in_volumes(tmp_path, monkeypatch, capsys):
    """``make html`` (``prnotes build --notes``) on an archive past one volume builds it in
    volumes, as ``make volumes`` does: each closed volume a build of its own, then the hub,
    into ``_build/html``, never one Sphinx build of the whole archive; run again, it reuses
    every closed volume. An archive of one volume stays one build (tests/test_build.py)."""
    import prnotes.model.site as site_model

    monkeypatch.setattr(site_model, "VOLUME_NOTES", int(SIZE))
    proj = copy_project(tmp_path / "proj")
    (proj / "seeds" / "002_citing.txt").write_text(CITING, encoding="utf-8")
    assert main(["build", "--notes", "--root", str(proj)]) == 0
    out = capsys.readouterr().out
    assert "v1: built into _build/volumes/v1/html" in out and "v2: built into _build/volumes/v2/html" in out
    assert out.rstrip().endswith("the site in volumes: _build/html")
    html, parts = proj / "_build" / "html", volumes.partition(load(proj))
    assert [p.closed for p in parts] == [True, True, False]
    assert all((html / f"{d}.html").is_file() for part in parts for d in part.pages)
    assert not (proj / "_build" / "doctrees" / "environment.pickle").exists()  # no one build of the archive ran
    # make audit finds every note on the site and in one subsystem's toctree: the hub's or its volume's.
    assert main(["audit", "--root", str(proj)]) == 0
    assert "17 entries, 17 pages, 0 missing" in capsys.readouterr().out
    # Run again with nothing changed: the stamp of the site says so, as for one build.
    assert main(["build", "--notes", "--root", str(proj)]) == 0
    assert "nothing changed since the last build" in capsys.readouterr().out
    # A page of the site damaged: built again, in volumes, every closed volume reused; the
    # hub's build leaves the closed volumes' pages in place (not stale: the link map has them).
    (html / f"{parts[0].pages[-1]}.html").write_text("damaged", encoding="utf-8")
    kept = html / f"{parts[1].pages[-1]}.html"
    before = kept.stat().st_ino, kept.stat().st_mtime_ns
    assert main(["build", "--notes", "--root", str(proj)]) == 0
    out = capsys.readouterr().out
    assert "built into" not in out and "v1 第 1 期, 8 notes: closed, reused" in out
    assert (kept.stat().st_ino, kept.stat().st_mtime_ns) == before
    assert (html / f"{parts[0].pages[-1]}.html").read_bytes() == (volumes.output(proj, parts[0]) / f"{parts[0].pages[-1]}.html").read_bytes()
    # A day whose note cites a note of v1: v1 is built again for its new back-link, and
    # its notes' facts, as the hub reads them, are the same, so the hub writes only what changed.
    facts = (proj / volumes.FOLDER / "hub" / "facts.sha256").read_bytes()
    cited = next(d for d in parts[0].pages if d.startswith("notes/vllm-project/vllm/pr-") and d != "notes/vllm-project/vllm/pr-52046")
    (proj / "seeds" / "003_day.txt").write_text(CITING.replace("#60001", "#60002").replace("#52046", "#" + cited.rpartition("-")[2]), encoding="utf-8")
    assert main(["build", "--notes", "--root", str(proj)]) == 0
    assert "v1: built into" in capsys.readouterr().out
    assert (proj / volumes.FOLDER / "hub" / "facts.sha256").read_bytes() == facts
    # make pdf then: a book per volume, and the hub again, whose landing page links them.
    assert main(["pdf", "--root", str(proj)]) == 0
    out = capsys.readouterr().out
    assert "was current: building it again to link the book" in out and "the site in volumes: _build/html" in out
    links = _local_links(html, "index.html")
    assert all(f"pdf/prnotes-v{k}.pdf" in links and (html / "pdf" / f"prnotes-v{k}.pdf").is_file() for k in (1, 2, 3))


def test_the_hub_is_built_only_after_every_closed_volume(archive, capsys):
    proj, _, _ = archive
    root = ["volumes", "--root", str(proj), "--size", SIZE]
    assert main([*root, "--hub"]) == 1
    assert "--hub builds the hub after the volumes: use it with --build" in capsys.readouterr().err
    assert main([*root, "--build", "--only", "v1", "--hub"]) == 1
    assert "build them all, without --only" in capsys.readouterr().err


def test_a_hand_written_file_in_the_hub_s_sources_is_named_and_kept(archive, capsys):
    proj, _, _ = archive
    mine = proj / "_build" / "volumes" / "hub" / "src" / "notes" / "subsystem" / "moe.md"
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text("# 手写\n", encoding="utf-8")
    try:
        assert main(["volumes", "--root", str(proj), "--size", SIZE, "--build", "--hub"]) == 1
        err = capsys.readouterr().err
        assert "_build/volumes/hub/src/notes/subsystem/moe.md:1: exists and was not generated by prnotes" in err
        assert mine.read_text(encoding="utf-8") == "# 手写\n"
    finally:
        mine.unlink()


def test_a_volume_whose_facts_are_missing_is_built_again(archive, capsys):
    proj, parts, _ = archive
    root = ["volumes", "--root", str(proj), "--size", SIZE]
    facts = volumes.facts_file(proj, parts[0])
    assert facts.is_file()
    facts.unlink()
    assert main([*root, "--check"]) == 1
    assert "v1 第 1 期, 8 notes: closed, to build: its notes' facts, which the hub reads, are missing or damaged" in capsys.readouterr().out
    assert main([*root, "--build"]) == 0
    assert facts.is_file() and main([*root, "--check"]) == 0
