"""The archive in volumes (prnotes/build/volumes.py, ``prnotes volumes``):
which pages each volume holds, the link map across them, and a closed
volume's pages found current, changed or damaged by hash (docs/volumes.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from prnotes.build import volumes
from prnotes.commands.cli import main
from prnotes.project import load
from tests.support.sandbox import FIXTURE, copy_project

# A third digest whose one note cites a note of the first (#52046).
CITING = """vllm-project/vllm

禁止 PCP 分片在 CPU 上回退到旧路径 (#60001)

值得精读。它修的是 #52046 引入的 PCP 分片在 CPU 上的回退路径，建议两篇对照阅读。
"""


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    project = copy_project(tmp_path / "proj")
    assert main(["notes", "--root", str(project), "-q"]) == 0
    return project


def _fake_site(project: Path, parts) -> None:
    """Each volume's output folder holding a page for each of its pages, with its whole
    search index and each page's snippet text, as its build would leave it."""
    for part in parts:
        html = volumes.output(project, part)
        for docname in part.pages:
            for path, text in ((html / f"{docname}.html", f"<html>{docname}</html>\n"), (html / volumes.SEARCH_TEXTS / f"{docname}.txt", docname)):
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
        (html / volumes.SEARCH_INDEX).write_text("Search.setIndex({})", encoding="utf-8")


def test_each_note_and_digest_is_in_exactly_one_volume_and_only_the_newest_is_open(proj):
    site = load(proj)
    parts = volumes.partition(site, 5)
    assert [(p.name, p.closed, p.volume.first, p.volume.last) for p in parts] == [("v1", True, 1, 1), ("v2", False, 2, 2)]
    held = [d for p in parts for d in p.pages]
    assert sorted(held) == sorted({n.docname for n in site.notes} | {d.docname for d in site.digests})
    assert len(held) == len(set(held))
    # A digest is never cut: its page and its notes are in one volume.
    for part in parts:
        for digest in site.digests:
            assert (digest.docname in part.pages) == all(n in part.pages for n in digest.notes)
    # One volume when the archive is smaller than a volume: nothing is closed.
    assert [(p.name, p.closed) for p in volumes.partition(site, 500)] == [("v1", False)]
    with pytest.raises(ValueError):
        volumes.partition(site, 0)


def test_the_link_map_names_every_page_its_volume_and_every_label_its_page(proj):
    site = load(proj)
    parts = volumes.partition(site, 5)
    path = volumes.write_link_map(proj, site, parts)
    mapped = json.loads(path.read_text(encoding="utf-8"))
    for part in parts:
        for docname in part.pages:
            assert mapped["pages"][docname] == part.volume.number
    assert mapped["pages"]["index"] == 0 and mapped["pages"]["notes/reading/close"] == 0
    note = next(n for n in site.notes if n.number == 52046)
    assert mapped["labels"][note.label] == note.docname
    assert mapped["labels"]["reading-close"] == "notes/reading/close"
    # Written only when it changed: a second run leaves the file as it was.
    before = path.stat().st_mtime_ns
    volumes.write_link_map(proj, site, parts)
    assert path.stat().st_mtime_ns == before


def test_a_closed_volume_is_reused_until_its_inputs_or_its_output_change(proj):
    parts = volumes.partition(load(proj), 5)
    _fake_site(proj, parts)
    [status] = volumes.check(proj, parts)
    assert (status.part.name, status.reason) == ("v1", "never built")
    assert volumes.record(proj, [status]) == ["v1"]
    assert [s.reason for s in volumes.check(proj, parts)] == [""]

    # A page of the output changed by hand, or lost: found by hash.
    page = volumes.output(proj, parts[0]) / f"{parts[0].pages[-1]}.html"
    page.write_text("<html>damaged</html>\n", encoding="utf-8")
    assert [s.reason for s in volumes.check(proj, parts)] == ["its output differs from what was built (damaged)"]
    page.unlink()
    assert [s.reason for s in volumes.check(proj, parts)] == ["a page of its output is missing"]
    # What the hub's search reads of it, likewise.
    _fake_site(proj, parts)
    index = volumes.output(proj, parts[0]) / volumes.SEARCH_INDEX
    index.write_text("Search.setIndex({damaged})", encoding="utf-8")
    assert [s.reason for s in volumes.check(proj, parts)] == ["its output differs from what was built (damaged)"]
    (volumes.output(proj, parts[0]) / volumes.SEARCH_TEXTS / f"{parts[0].pages[0]}.txt").unlink()
    assert [s.reason for s in volumes.check(proj, parts)] == ["a page of its output is missing"]

    # Copied elsewhere (a CI cache restored onto a fresh checkout): the hashes are of contents.
    _fake_site(proj, parts)
    volumes.record(proj, volumes.check(proj, parts))
    moved = proj.parent / "moved"
    shutil.copytree(proj, moved)
    assert [s.reason for s in volumes.check(moved, parts)] == [""]

    # The open volume's pages are none of the closed one's inputs.
    open_page = proj / f"{parts[1].pages[-1]}.md"
    open_page.write_text(open_page.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert [s.reason for s in volumes.check(proj, parts)] == [""]
    # The closed volume's own pages, the settings and the taxonomy are.
    for changed in (proj / f"{parts[0].pages[1]}.md", proj / "conf.py", proj / "taxonomy.toml"):
        before = changed.read_bytes()
        changed.write_bytes(before + b"\n")
        assert [s.reason for s in volumes.check(proj, parts)] == ["its inputs changed"], changed
        changed.write_bytes(before)
    assert [s.reason for s in volumes.check(proj, parts)] == [""]


def test_a_new_note_citing_a_closed_volume_gives_that_volume_its_back_link_and_a_build(proj):
    parts = volumes.partition(load(proj), 8)
    _fake_site(proj, parts)
    volumes.record(proj, volumes.check(proj, parts))
    assert [(p.name, p.closed) for p in parts] == [("v1", True), ("v2", False)]

    (proj / "seeds" / "002_citing.txt").write_text(CITING, encoding="utf-8")
    assert main(["notes", "--root", str(proj), "-q"]) == 0
    site = load(proj)
    after = volumes.partition(site, 8)
    assert [(p.name, p.closed) for p in after] == [("v1", True), ("v2", True), ("v3", False)]
    cited = next(n for n in site.notes if n.number == 52046)
    assert cited.docname in after[0].pages
    assert "pr-60001" in (proj / f"{cited.docname}.md").read_text(encoding="utf-8")  # the back-link, in its source
    reasons = {s.part.name: s.reason for s in volumes.check(proj, after)}
    # v1 holds the cited note: built again; v2 is closed now and was never built as a closed volume.
    assert reasons == {"v1": "its inputs changed", "v2": "never built"}


def test_a_digest_that_cites_no_closed_note_leaves_the_closed_volumes_current(proj):
    """A day's notes in the archive's repositories and subsystems change no page of a
    closed volume, nor the stubs of the pages around it: nothing closed is built again."""
    parts = volumes.partition(load(proj), 8)
    _fake_site(proj, parts)
    volumes.record(proj, volumes.check(proj, parts))
    plain = "vllm-project/vllm\n\n给 CI 加一个夜间任务 (#60002)\n\n值得快速浏览。CI 门禁多了一个夜间任务。\n"
    (proj / "seeds" / "002_plain.txt").write_text(plain, encoding="utf-8")
    assert main(["notes", "--root", str(proj), "-q"]) == 0
    after = volumes.partition(load(proj), 8)
    assert [(p.name, p.closed) for p in after] == [("v1", True), ("v2", True), ("v3", False)]
    assert {s.part.name: s.reason for s in volumes.check(proj, after)}["v1"] == ""


def test_a_new_repository_or_subsystem_in_the_navigation_makes_closed_volumes_out_of_date(proj):
    """Every page's header and sidebar list the archive's repositories and
    subsystems: a digest of another repository changes what a closed page shows."""
    parts = volumes.partition(load(proj), 8)
    _fake_site(proj, parts)
    volumes.record(proj, volumes.check(proj, parts))
    assert [s.reason for s in volumes.check(proj, parts)] == [""]
    other = "o/r\n\nNew CI job (#7)\n\n值得精读。CI 门禁。\n"
    (proj / "seeds" / "002_other.txt").write_text(other, encoding="utf-8")
    assert main(["notes", "--root", str(proj), "-q"]) == 0
    after = volumes.partition(load(proj), 8)
    assert after[0].pages == parts[0].pages
    assert {s.part.name: s.reason for s in volumes.check(proj, after)}["v1"] == volumes.CHANGED


def test_the_command_says_what_each_volume_needs_and_check_fails_until_it_is_built(proj, capsys):
    root = ["--root", str(proj)]
    assert main(["volumes", *root, "--size", "5", "--check"]) == 1
    out = capsys.readouterr().out
    assert "v1 第 1 期, 8 notes: closed, to build: never built" in out
    assert "v2 第 2 期, 8 notes: open, built with the hub" in out
    parts = volumes.partition(load(proj), 5)
    _fake_site(proj, parts)
    assert volumes.record(proj, volumes.check(proj, parts)) == ["v1"]
    assert main(["volumes", *root, "--size", "5", "--check"]) == 0
    assert "v1 第 1 期, 8 notes: closed, reused" in capsys.readouterr().out
    assert main(["volumes", *root, "--size", "0"]) == 1
    assert "a volume holds at least one note" in capsys.readouterr().err
    assert main(["volumes", *root, "--build", "-j", "0"]) == 1
    assert "at least one volume at a time" in capsys.readouterr().err


def test_the_fixture_is_two_digests():
    # The tests above cut the fixture's two digests of eight notes each.
    assert sorted(p.name for p in (FIXTURE / "seeds").glob("*.txt")) == ["000_50c46ef36472ac24.txt", "001_0a6bc52359b14743.txt"]


def test_a_closed_volume_whose_digest_is_dated_again_is_built_again(proj):
    from tests.support import gitrepo

    gitrepo.init(proj)
    gitrepo.commit(proj, ["seeds"], "2026-03-01T09:00:00+00:00")
    parts = volumes.partition(load(proj), 5)
    _fake_site(proj, parts)
    volumes.record(proj, volumes.check(proj, parts))
    assert [s.reason for s in volumes.check(proj, parts)] == [""]
    # The first digest's first commit is what dates it (its pages show the date): rewritten history, a new date.
    gitrepo.git(proj, "commit", "-q", "--amend", "--no-edit", "--date=2026-03-02T09:00:00+00:00")
    assert [s.reason for s in volumes.check(proj, parts)] == ["its inputs changed"]


def test_the_folders_of_volumes_the_archive_no_longer_has_are_removed(proj):
    parts = volumes.partition(load(proj), 5)
    _fake_site(proj, parts)
    statuses = volumes.check(proj, parts)
    volumes.record(proj, statuses)
    gone = proj / volumes.FOLDER / "v7" / "html" / "index.html"
    gone.parent.mkdir(parents=True)
    gone.write_text("old", encoding="utf-8")
    # Every closed volume current: nothing is built, and the folder of v7 goes.
    assert volumes.build(proj, volumes.check(proj, parts)) == ([], [])
    assert not gone.parent.parent.exists()
    assert volumes.output(proj, parts[0]).is_dir()
    assert (proj / volumes.LINK_MAP).parent.is_dir()


def test_a_closed_volume_is_built_with_stubs_of_the_pages_around_it(proj):
    """The landing page with the site's toctrees, every page they name under its title, and
    the pages on the way to the volume's own, each holding what it holds of these: the
    header, the sidebar and the breadcrumbs of the volume's pages come out as the site's."""
    site = load(proj)
    [part, _] = volumes.partition(site, 5)
    around = volumes.stubs(volumes.tree(proj), part)
    assert "notes/subsystem/ci.md" in around and "notes/digests/index.md" in around and "index.md" in around
    assert not set(around) & {f"{d}.md" for d in part.pages}
    assert "# CI 与构建" in around["notes/subsystem/ci.md"]
    landing = around["index.md"]
    assert ":caption: 子系统" in landing and "/notes/subsystem/ci" in landing and "/notes/digests/index" in landing
    # A subsystem page's stub holds the volume's notes filed there, and only those.
    held = {f"/{n.docname}" for n in site.notes if n.docname in part.pages and n.subsystem_slug == "ci"}
    assert held and all(entry in around["notes/subsystem/ci.md"] for entry in held)
    others = {f"/{n.docname}" for n in site.notes if n.docname not in part.pages}
    assert not any(entry in text.split() for text in around.values() for entry in others)
    # A subsystem renamed in the taxonomy changes the stubs, hence the volume's inputs.
    page = proj / "notes" / "subsystem" / "ci.md"
    page.write_text(page.read_text(encoding="utf-8").replace("# CI 与构建", "# 持续集成"), encoding="utf-8")
    assert "# 持续集成" in volumes.stubs(volumes.tree(proj), part)["notes/subsystem/ci.md"]


def test_only_the_volumes_named_are_built_and_the_others_out_of_date_stay_unrecorded(proj, capsys):
    (proj / "seeds" / "002_citing.txt").write_text(CITING, encoding="utf-8")
    assert main(["notes", "--root", str(proj), "-q"]) == 0
    parts = volumes.partition(load(proj), 8)
    _fake_site(proj, parts)
    volumes.record(proj, volumes.check(proj, parts))
    # v2's output damaged; a job of a matrix that builds v1 only builds nothing (v1 is current)
    # and takes v2's record away, so that it is still built (never reused as it is).
    page = volumes.output(proj, parts[1]) / f"{parts[1].pages[-1]}.html"
    page.write_text("damaged", encoding="utf-8")
    assert volumes.build(proj, volumes.check(proj, parts), only=frozenset({"v1"})) == ([], [])
    page.write_text(f"<html>{parts[1].pages[-1]}</html>\n", encoding="utf-8")  # as recorded: still not trusted
    assert [(s.part.name, s.reason) for s in volumes.check(proj, parts)] == [("v1", ""), ("v2", "never built")]
    root = ["--root", str(proj), "--size", "8"]
    assert main(["volumes", *root, "--build", "--only", "v3"]) == 1
    assert "--only v3: not a closed volume of the archive (closed: v1 v2)" in capsys.readouterr().err


def test_a_file_where_a_volume_s_build_writes_a_folder_is_one_line_naming_it(proj, capsys):
    (proj / "seeds" / "002_citing.txt").write_text(CITING, encoding="utf-8")
    assert main(["notes", "--root", str(proj), "-q"]) == 0
    root = ["--root", str(proj), "--size", "8"]
    folder = proj / volumes.FOLDER
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("not a folder", encoding="utf-8")
    assert main(["volumes", *root]) == 1
    err = capsys.readouterr().err.strip()  # one line; the path as from the current folder
    assert err.startswith("prnotes volumes: cannot create the build folder: ") and err.endswith("_build/volumes is not a folder; nothing built")
    assert "\n" not in err
    folder.unlink()
    folder.mkdir()
    (folder / "v1").write_text("not a folder", encoding="utf-8")
    assert main(["volumes", *root, "--build"]) == 1
    assert "_build/volumes/v1 is not a folder" in capsys.readouterr().err
    (folder / "v1").unlink()
    # A folder of pages in a volume's output: that volume fails, naming it, before Sphinx starts.
    parts = volumes.partition(load(proj), 8)
    _fake_site(proj, parts)
    volumes.record(proj, volumes.check(proj, parts))
    pages = volumes.output(proj, parts[1]) / "notes"
    shutil.rmtree(pages)
    pages.write_text("not a folder", encoding="utf-8")
    assert main(["volumes", *root, "--build"]) == 1
    err = capsys.readouterr().err
    assert "v2: cannot create the build folder: " in err and "_build/volumes/v2/html/notes is not a folder" in err and "Traceback" not in err
    assert pages.read_text(encoding="utf-8") == "not a folder"
