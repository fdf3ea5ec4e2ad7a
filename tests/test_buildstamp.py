"""`make html` leaves the site alone when nothing it could read has changed,
and builds whenever something has: the fingerprint (prnotes/build/stamp.py)
on folders of its own, then `prnotes build` on a project under git."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from prnotes.build import stamp as buildstamp
from prnotes.build.stamp import Layout
from tests.support import gitrepo
from tests.support.sandbox import convert, copy_project

ARGV = ["-b", "html", "-q"]


@pytest.fixture
def built(tmp_path: Path) -> Layout:
    """A source folder and the output of a 'build' of it, stamped."""
    src = tmp_path / "proj"
    (src / "notes").mkdir(parents=True)
    (src / "notes" / "a.md").write_text("# A\n", encoding="utf-8")
    (src / "conf.py").write_text("project = 'x'\n", encoding="utf-8")
    layout = Layout(src, src / "_build" / "html", src / "_build" / "doctrees")
    layout.output.mkdir(parents=True)
    layout.doctrees.mkdir(parents=True)
    (layout.output / "a.html").write_text("<p>A</p>", encoding="utf-8")
    (layout.doctrees / "environment.pickle").write_bytes(b"env")
    _, before = buildstamp.up_to_date(layout, ARGV)
    buildstamp.remember(layout, before)
    return layout


def current(layout: Layout, argv: list[str] = ARGV) -> bool:
    return buildstamp.up_to_date(layout, argv)[0]


def later(path: Path) -> None:
    """Touch ``path`` so that its time differs from the stamp's, whatever the clock's grain."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def test_nothing_changed_is_current(built):
    assert current(built)
    assert built.stamp.parent == built.output.parent  # beside the output, never published with it
    assert not built.stamp.is_relative_to(built.output)


@pytest.mark.parametrize(
    "change",
    [
        lambda l: later(l.source / "notes" / "a.md"),  # a page touched
        lambda l: (l.source / "notes" / "a.md").write_text("# B\n", encoding="utf-8"),  # edited
        lambda l: (l.source / "notes" / "b.md").write_text("# B\n", encoding="utf-8"),  # added
        lambda l: (l.source / "notes" / "a.md").unlink(),  # removed
        lambda l: (l.source / "_templates").mkdir() or (l.source / "_templates" / "x.html").write_text("x"),
        lambda l: later(l.source / "conf.py"),
        lambda l: (l.output / "a.html").unlink(),  # an output page removed by hand
        lambda l: (l.output / "a.html").write_text("<p>hand edit</p>", encoding="utf-8"),
        lambda l: later(l.doctrees / "environment.pickle"),  # another builder saved the environment
        lambda l: l.stamp.write_text("{not json", encoding="utf-8"),
        lambda l: l.stamp.unlink(),
    ],
    ids=["touched", "edited", "added", "removed", "template", "conf", "output-gone", "output-edited", "environment", "bad-stamp", "no-stamp"],
)
def test_any_change_to_what_a_build_reads_or_wrote_means_a_build(built, change):
    change(built)
    assert not current(built)


def test_other_arguments_environment_variables_and_forcing_mean_a_build(built, monkeypatch):
    assert not current(built, ["-b", "html"])
    assert not current(built, [*ARGV, "-E"]) and not current(built, [*ARGV, "--write-all"])
    for name, value in (("PRNOTES_BASEURL", "https://elsewhere.example.org/"), ("GITHUB_REPOSITORY", "someone/fork")):
        before = os.environ.get(name)  # as the build saw it (set on GitHub Actions)
        monkeypatch.setenv(name, value)
        assert not current(built), name
        if before is None:
            monkeypatch.delenv(name)
        else:
            monkeypatch.setenv(name, before)
        assert current(built), name
    monkeypatch.setenv("SOMETHING_ELSE", "1")  # not read by the build
    monkeypatch.setenv("GITHUB_RUN_ID", "12345")  # changes on every CI run; not read either
    assert current(built)


def test_the_build_folders_and_caches_are_not_inputs(built):
    (built.output.parent / "latex").mkdir()
    (built.output.parent / "latex" / "book.tex").write_text("x", encoding="utf-8")  # another builder's output
    (built.source / "__pycache__").mkdir()
    (built.source / "__pycache__" / "conf.cpython.pyc").write_bytes(b"x")
    (built.source / ".git").mkdir()
    (built.source / ".git" / "index").write_bytes(b"x")
    assert current(built)


def test_a_book_beside_the_site_is_an_input_and_alone_lets_prnotes_pdf_build_the_site_again(built):
    """The site copies and links the books in _build/latex/ (book/pdflinks.py): a new, changed or
    removed book means a build. When nothing else changed, the stamp gives prnotes pdf the last
    build's command line; when anything else did too, it gives none (make html decides)."""
    latex = built.output.parent / "latex"
    latex.mkdir()
    assert buildstamp.current_but_for_books(built) is None  # nothing changed
    (latex / "prnotes.pdf").write_bytes(b"%PDF-1.5\n")
    assert not current(built)
    assert buildstamp.current_but_for_books(built) == ARGV
    later(built.source / "notes" / "a.md")
    assert buildstamp.current_but_for_books(built) is None
    _, before = buildstamp.up_to_date(built, ARGV)
    buildstamp.remember(built, before)
    assert current(built)
    (latex / "prnotes.pdf").unlink()
    assert not current(built) and buildstamp.current_but_for_books(built) == ARGV


def test_forget_removes_the_stamp_before_a_build(built):
    buildstamp.forget(built)
    assert not built.stamp.exists() and not current(built)


# --- end to end ----------------------------------------------------------------


def prnotes_build(proj: Path, *extra: str) -> str:
    cmd = [
        sys.executable, "-m", "prnotes.commands.cli", "build", "--root", str(proj), "--", "-W", "--keep-going", "-q",
        "-b", "html", "-d", str(proj / "_build" / "doctrees"), *extra, str(proj), str(proj / "_build" / "html"),
    ]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=proj)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def snapshot(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


def test_make_html_twice_rewrites_nothing_and_a_commit_or_an_edit_builds_again(tmp_path):
    proj = copy_project(tmp_path / "proj")
    gitrepo.init(proj)
    gitrepo.commit(proj, ["seeds"], "2026-02-01T09:00:00+08:00")
    assert convert(proj) == 0
    assert "nothing changed" not in prnotes_build(proj)
    html = proj / "_build" / "html"
    before = snapshot(html)

    assert "nothing changed since the last build" in prnotes_build(proj)
    assert snapshot(html) == before  # Sphinx with nothing to do would write the search index and more again

    # A new commit can change the digests' dates: build.
    (proj / "README.md").write_text("x\n", encoding="utf-8")
    gitrepo.commit(proj, ["README.md"], "2026-02-02T09:00:00+08:00")
    assert "nothing changed" not in prnotes_build(proj)
    assert "nothing changed" in prnotes_build(proj)

    # An edited page is built; so is a page removed from the output.
    page = next((proj / "notes").rglob("pr-[0-9]*.md"))
    page.write_text(page.read_text(encoding="utf-8").replace("## 阅读建议", "## 阅读建议\n\n补充。", 1), encoding="utf-8")
    prnotes_build(proj)
    built_page = html / page.relative_to(proj).with_suffix(".html")
    assert "补充。" in built_page.read_text(encoding="utf-8")
    built_page.unlink()
    assert "nothing changed" not in prnotes_build(proj)
    assert built_page.is_file()


def test_a_failed_build_leaves_no_stamp(tmp_path):
    proj = copy_project(tmp_path / "proj")
    assert convert(proj) == 0
    prnotes_build(proj)
    page = next((proj / "notes").rglob("pr-[0-9]*.md"))
    page.write_text(page.read_text(encoding="utf-8") + "\n{unknown-role}`x`\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "prnotes.commands.cli", "build", "--root", str(proj), "--", "-W", "-q", "-b", "html",
           "-d", str(proj / "_build" / "doctrees"), str(proj), str(proj / "_build" / "html")]  # fmt: skip
    assert subprocess.run(cmd, capture_output=True, text=True, cwd=proj).returncode != 0
    assert not (proj / "_build" / f"{buildstamp.STAMP_PREFIX}html.json").exists()
    # Run again: Sphinx runs (whatever it then makes of the page), not skipped.
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=proj)
    assert "nothing changed" not in proc.stdout


def test_build_with_notes_converts_first_and_stops_on_bad_input_with_the_conversion_s_messages(tmp_path):
    # `make html` is `prnotes build --notes`: the conversion and the build in one process.
    proj = copy_project(tmp_path / "proj")
    cmd = [sys.executable, "-m", "prnotes.commands.cli", "build", "--notes", "--root", str(proj), "--", "-W", "-q", "-b", "html",
           "-d", str(proj / "_build" / "doctrees"), str(proj), str(proj / "_build" / "html")]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=proj)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"prnotes notes: \d+ notes, \d+ pages: \d+ written, 0 unchanged, 0 removed", done.stdout.splitlines()[0])
    assert (proj / "_build" / "html" / "index.html").is_file()
    again = subprocess.run(cmd, capture_output=True, text=True, cwd=proj)
    assert " 0 written, " in again.stdout and "nothing changed" in again.stdout

    seed = sorted((proj / "seeds").glob("*.txt"))[0]
    (proj / "seeds" / "zzz_copy.txt").write_text(seed.read_text(encoding="utf-8"), encoding="utf-8")  # the same PRs again
    before = {p: p.stat().st_mtime_ns for p in (proj / "_build" / "html").rglob("*.html")}
    bad = subprocess.run(cmd, capture_output=True, text=True, cwd=proj)
    assert bad.returncode == 1 and bad.stdout == ""
    problems = bad.stderr.splitlines()
    assert re.match(r"error: seeds/\S+\.txt:\d+: ", problems[0]) and problems[-1].startswith("prnotes notes: ")
    assert problems[-1].endswith("error(s); nothing written")
    assert {p: p.stat().st_mtime_ns for p in (proj / "_build" / "html").rglob("*.html")} == before
