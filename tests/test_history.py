"""Digest dates on every kind of checkout: a full history, a shallow clone
(deepened, or with no remote to deepen from), a copy without git, a seed not
committed yet, and a commit whose author date git cannot print.

Each test makes its own git repositories from the stream fixture
(tests/roots/stream: three digests), one commit per digest at chosen dates.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from prnotes.parse import history
from prnotes.commands.cli import main
from prnotes.project import load
from prnotes.sphinxext.facts import buildtime
from tests.support import gitrepo
from tests.support.sandbox import ROOTS, copy_project

SEEDS = ROOTS / "stream" / "seeds"
DIGESTS = ("000_a1b2c3.txt", "001_d4e5f6.txt", "002_0718aa.txt")
DATES = ("2026-11-02T09:30:00+08:00", "2026-11-05T23:10:00-05:00", "2026-11-09T08:00:00+08:00")
ATOM = "{http://www.w3.org/2005/Atom}"
# An author date before 1970 in its own zone (epoch + 100 s, five hours west):
# git stores it, and `git log --format=%aI` stops at it.
BEFORE_1970 = "@100 -0500"


def seed(name: str) -> str:
    return f"seeds/{name}"


def origin(tmp_path: Path, author_dates: dict[str, str] | None = None) -> Path:
    """The project with its three digests committed, one commit each; everything else in a first commit."""
    proj = copy_project(tmp_path / "origin", {})
    shutil.copy2(SEEDS / "prs.toml", proj / "seeds/prs.toml")
    (proj / ".gitignore").write_text("/_build/\n/notes/\n/index.md\n/.prnotes-cache\n", encoding="utf-8")
    gitrepo.git(proj, "init", "-q", "-b", "main")
    gitrepo.git(proj, "add", "-A")
    gitrepo.git(proj, "commit", "-q", "-m", "project", date="2026-01-01T00:00:00+00:00")
    for name, date in zip(DIGESTS, DATES):
        shutil.copy2(SEEDS / name, proj / "seeds" / name)
        gitrepo.commit(proj, [seed(name)], date, author_date=(author_dates or {}).get(name))
    return proj


def shallow_clone(src: Path, dest: Path, depth: int) -> Path:
    # file://: a plain path would make a full local clone whatever --depth says.
    gitrepo.git(dest.parent, "clone", "-q", f"--depth={depth}", src.as_uri(), dest.name)
    return dest


def is_shallow(repo: Path) -> bool:
    return gitrepo.git(repo, "rev-parse", "--is-shallow-repository").strip() == "true"


def without_git(src: Path, dest: Path) -> Path:
    """What `git archive HEAD` holds, unpacked: a release tarball."""
    data = subprocess.run(["git", "archive", "HEAD"], cwd=src, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def build(proj: Path, *sphinx: str) -> int:
    """`make html`'s command (prnotes build --notes -- -W ...) on ``proj``."""
    return main(["build", "--notes", "--root", str(proj), "--", "-W", "--keep-going", "-q", "-b", "html",
                 "-d", "_build/doctrees", *sphinx, ".", "_build/html"])  # fmt: skip


def page(proj: Path, docname: str) -> str:
    text = (proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8")
    return text.split('<article class="bd-article">', 1)[1].split("</article>", 1)[0]


def digest_pages(proj: Path) -> dict[str, str]:
    """Seed path -> the article of its digest page."""
    return {d.path: page(proj, d.docname) for d in load(proj).digests}


def feed_entries(proj: Path) -> list[ET.Element]:
    return ET.parse(proj / "_build/html/feed.xml").getroot().findall(f"{ATOM}entry")


# -- what git says -----------------------------------------------------------


def test_raw_dates_read_as_git_prints_them_or_not_at_all():
    assert history.iso_time("1767312000 +0000") == "2026-01-02T00:00:00+00:00"
    assert history.iso_time("1793938200 -0500") == "2026-11-05T23:10:00-05:00"
    assert history.iso_time("18000 -0500") == "1970-01-01T00:00:00-05:00"  # the first instant git prints there
    assert history.iso_time("17999 -0500") is None
    assert history.iso_time("100 -0500") is None
    assert history.iso_time("100 +0500") == "1970-01-01T05:01:40+05:00"
    for junk in ("", "abc +0000", "100", "100 0500", "100 +05:00", "99999999999999999999 +0000"):
        assert history.iso_time(junk) is None, junk


def test_a_full_history_dates_each_digest_by_the_commit_that_added_it(tmp_path):
    repo = origin(tmp_path)
    past = history.read(repo)
    assert past.in_git and not past.shallow and not past.deepened
    assert {s: past.dates[s] for s in map(seed, DIGESTS)} == dict(zip(map(seed, DIGESTS), DATES))
    assert past.unknown == frozenset() and past.bad_dates == ()
    # The same strings git's own ISO format gives.
    printed = gitrepo.git(repo, "log", "--reverse", "--format=%aI", "--", "seeds/0*").split()
    assert printed == list(DATES)


def test_a_shallow_clone_is_deepened_when_its_remote_answers(tmp_path):
    repo = shallow_clone(origin(tmp_path), tmp_path / "clone", depth=1)
    assert is_shallow(repo)
    past = history.read(repo)
    assert past.deepened and not past.shallow and past.fetch_error == ""
    assert not is_shallow(repo)
    assert {s: past.dates[s] for s in map(seed, DIGESTS)} == dict(zip(map(seed, DIGESTS), DATES))


def test_a_shallow_clone_is_not_deepened_when_asked_not_to(tmp_path):
    repo = shallow_clone(origin(tmp_path), tmp_path / "clone", depth=1)
    past = history.read(repo, deepen=False)
    assert is_shallow(repo) and past.shallow and not past.deepened
    # Its one commit looks as if it added every file: no date at all, rather than that commit's.
    assert past.dates == {}
    assert set(map(seed, DIGESTS)) <= past.unknown


def test_a_shallow_clone_with_no_remote_leaves_only_the_dates_it_cannot_know_unknown(tmp_path):
    repo = shallow_clone(origin(tmp_path), tmp_path / "clone", depth=2)
    gitrepo.git(repo, "remote", "set-url", "origin", (tmp_path / "gone").as_uri())
    past = history.read(repo)
    assert past.shallow and not past.deepened
    assert "gone" in past.fetch_error or "repository" in past.fetch_error, past.fetch_error
    # The older commit of the two is the clone's edge: it seems to add the
    # first two digests (and every other file). The newest digest's commit
    # has its parent, so its date is right.
    assert past.shallow_seeds() == [seed(DIGESTS[0]), seed(DIGESTS[1])]
    assert past.dates[seed(DIGESTS[2])] == DATES[2]
    assert seed(DIGESTS[0]) not in past.dates and seed(DIGESTS[1]) not in past.dates


def test_no_git_means_no_dates(tmp_path):
    copy = without_git(origin(tmp_path), tmp_path / "tarball")
    assert (copy / "seeds" / DIGESTS[0]).is_file() and not (copy / ".git").exists()
    past = history.read(copy)
    assert not past.in_git and past.dates == {} and past.unknown == frozenset()
    assert past.reason == "not in a git repository"
    assert history.added_dates(copy) == {}


def test_a_seed_no_commit_holds_is_uncommitted_not_unknown(tmp_path):
    repo = origin(tmp_path)
    (repo / "seeds/003_new.txt").write_text((SEEDS / DIGESTS[0]).read_text(encoding="utf-8"), encoding="utf-8")
    past = history.read(repo)
    assert past.in_git and "seeds/003_new.txt" not in past.dates and "seeds/003_new.txt" not in past.unknown
    shown = {"dates": dict(past.dates), "unknown": sorted(past.unknown), "in_git": past.in_git}
    assert buildtime.label(shown, "seeds/003_new.txt") == buildtime.UNCOMMITTED
    assert buildtime.label({**shown, "in_git": False}, "seeds/003_new.txt") == buildtime.UNKNOWN
    assert buildtime.label(shown, seed(DIGESTS[0])) == DATES[0][:10]


def test_a_date_git_cannot_print_costs_only_its_own_digest(tmp_path):
    repo = origin(tmp_path, author_dates={DIGESTS[1]: BEFORE_1970})
    # The fixture is the case reported: git's ISO format stops at that commit.
    assert subprocess.run(["git", "log", "--format=%aI"], cwd=repo, capture_output=True).returncode != 0
    past = history.read(repo)
    bad_commit = gitrepo.git(repo, "log", "-1", "--format=%H", "--", seed(DIGESTS[1])).strip()
    assert past.bad_dates == (history.BadDate(seed(DIGESTS[1]), bad_commit, "100 -0500"),)
    assert past.unknown == {seed(DIGESTS[1])}
    assert past.dates[seed(DIGESTS[0])] == DATES[0] and past.dates[seed(DIGESTS[2])] == DATES[2]


# -- what the site shows -------------------------------------------------------


def test_a_shallow_clone_with_no_remote_fails_a_strict_build_saying_how_to_fix_it(tmp_path, capfd):
    repo = shallow_clone(origin(tmp_path), tmp_path / "clone", depth=2)
    gitrepo.git(repo, "remote", "set-url", "origin", (tmp_path / "gone").as_uri())
    assert build(repo) != 0
    err = capfd.readouterr().err
    assert "is shallow" in err and "`git fetch --unshallow`" in err, err
    assert f"{seed(DIGESTS[0])}, {seed(DIGESTS[1])}" in err
    # Without -W it builds, and shows no wrong date: the edge commit's is nowhere.
    edge_day = gitrepo.git(repo, "log", "-1", "--format=%aI", "--", seed(DIGESTS[1])).strip()[:10]
    status = main(["build", "--root", str(repo), "--", "-q", "-b", "html", "-d", "_build/doctrees", ".", "_build/html"])
    assert status == 0
    pages = digest_pages(repo)
    assert buildtime.UNKNOWN in pages[seed(DIGESTS[0])] and buildtime.UNKNOWN in pages[seed(DIGESTS[1])]
    assert DATES[2][:10] in pages[seed(DIGESTS[2])]
    assert all(edge_day not in p for s, p in pages.items() if s != seed(DIGESTS[2]))


def test_a_shallow_clone_builds_with_the_right_dates_when_it_can_be_deepened(tmp_path, capfd):
    repo = shallow_clone(origin(tmp_path), tmp_path / "clone", depth=1)
    assert build(repo) == 0, capfd.readouterr().err
    assert not is_shallow(repo)
    pages = digest_pages(repo)
    for name, date in zip(DIGESTS, DATES):
        assert date[:10] in pages[seed(name)], name
    assert {e.findtext(f"{ATOM}published") for e in feed_entries(repo)} == set(DATES)


def test_a_copy_without_git_builds_strictly_with_unknown_dates_one_warning_and_a_feed_in_digest_order(
    tmp_path, capfd
):
    copy = without_git(origin(tmp_path), tmp_path / "tarball")
    assert build(copy) == 0
    err = capfd.readouterr().err
    warnings = [line for line in err.splitlines() if "digest dates are unknown" in line]
    assert len(warnings) == 1 and warnings[0].startswith("warning: "), err
    site = load(copy)
    for digest in site.digests:
        shown = page(copy, digest.docname)
        assert buildtime.UNKNOWN in shown and buildtime.UNCOMMITTED not in shown, digest.path
    for note in site.notes:
        assert buildtime.UNCOMMITTED not in page(copy, note.docname), note.docname
    feed = (copy / "_build/html/feed.xml").read_text(encoding="utf-8")
    assert "1970" not in feed
    entries = feed_entries(copy)
    # Newest digest first, seed order within one; no publication date is claimed.
    expected = [docname for digest in reversed(site.digests) for docname in digest.notes]
    assert [re.sub(r"^(?:.*?/)?(notes/.*)\.html$", r"\1", e.find(f"{ATOM}link").get("href")) for e in entries] == expected
    assert all(e.find(f"{ATOM}published") is None and e.findtext(f"{ATOM}updated") for e in entries)


def test_a_date_git_cannot_print_is_one_warning_naming_the_digest_and_its_commit(tmp_path, capfd):
    repo = origin(tmp_path, author_dates={DIGESTS[1]: BEFORE_1970})
    bad_commit = gitrepo.git(repo, "log", "-1", "--format=%H", "--", seed(DIGESTS[1])).strip()
    assert build(repo) != 0  # a warning: -W stops
    err = capfd.readouterr().err
    named = [line for line in err.splitlines() if "git cannot print" in line]
    assert len(named) == 1 and seed(DIGESTS[1]) in named[0] and bad_commit[:12] in named[0], err
    assert main(["build", "--root", str(repo), "--", "-q", "-b", "html", "-d", "_build/doctrees", ".", "_build/html"]) == 0
    pages = digest_pages(repo)
    assert buildtime.UNKNOWN in pages[seed(DIGESTS[1])]
    assert DATES[0][:10] in pages[seed(DIGESTS[0])] and DATES[2][:10] in pages[seed(DIGESTS[2])]
    published = {e.findtext(f"{ATOM}published") for e in feed_entries(repo)}
    assert published == {DATES[0], DATES[2]}  # the other digests' entries are all there


# -- where 编辑来源 points -------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "ref"),
    [
        ({"READTHEDOCS_GIT_IDENTIFIER": "v1.x", "READTHEDOCS_VERSION_TYPE": "tag"}, "v1.x"),
        ({"READTHEDOCS_GIT_IDENTIFIER": "fix/typo", "READTHEDOCS_VERSION_TYPE": "branch"}, "fix/typo"),
        # A pull request build's identifier is its number: link the commit.
        ({"READTHEDOCS_GIT_IDENTIFIER": "123", "READTHEDOCS_VERSION_TYPE": "external",
          "READTHEDOCS_GIT_COMMIT_HASH": "1f94e04b"}, "1f94e04b"),  # fmt: skip
        ({"GITHUB_REF": "refs/heads/release", "GITHUB_REF_NAME": "release", "GITHUB_SHA": "abc"}, "release"),
        ({"GITHUB_REF": "refs/tags/v2", "GITHUB_REF_NAME": "v2", "GITHUB_SHA": "abc"}, "v2"),
        ({"GITHUB_REF": "refs/pull/7/merge", "GITHUB_REF_NAME": "7/merge", "GITHUB_SHA": "abc"}, "abc"),
    ],
)
def test_source_links_point_at_what_the_host_builds(tmp_path, environ, ref):
    assert buildtime.source_ref(tmp_path, "", environ) == ref
    assert buildtime.source_ref(tmp_path, "pinned", environ) == "pinned"


def test_source_links_point_at_the_branch_tag_or_commit_checked_out(tmp_path):
    repo = origin(tmp_path)
    assert buildtime.source_ref(repo, "", {}) == "main"
    gitrepo.git(repo, "checkout", "-q", "-b", "release-1")
    assert buildtime.source_ref(repo, "", {}) == "release-1"
    gitrepo.git(repo, "tag", "v1")
    gitrepo.git(repo, "checkout", "-q", "--detach")
    assert buildtime.source_ref(repo, "", {}) == "v1"
    gitrepo.git(repo, "checkout", "-q", "HEAD~1")
    assert buildtime.source_ref(repo, "", {}) == gitrepo.git(repo, "rev-parse", "HEAD").strip()
    assert buildtime.source_ref(tmp_path / "nowhere", "", {}) == buildtime.DEFAULT_REF


def test_a_build_of_a_branch_links_its_sources_on_that_branch(tmp_path, monkeypatch):
    repo = origin(tmp_path)
    gitrepo.git(repo, "checkout", "-q", "-b", "release-1")
    for name in ("GITHUB_REF_NAME", "READTHEDOCS_GIT_IDENTIFIER", "PRNOTES_SOURCE_BRANCH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PRNOTES_SOURCE_URL", "https://github.com/example/notes")
    assert build(repo) == 0
    note = load(repo).notes[0]
    shown = page(repo, note.docname)
    assert f'href="https://github.com/example/notes/blob/release-1/{note.path}#L{note.line}"' in shown


# -- hostile and odd histories (issue 45) -----------------------------------------


@pytest.mark.parametrize(
    "setting",
    [("log.showRoot", "false"), ("color.ui", "always"), ("log.diffMerges", "combined"), ("diff.renames", "false"),
     ("log.date", "relative"), ("core.quotePath", "true"), ("log.abbrevCommit", "true"), ("log.follow", "true")],
    ids=lambda s: "=".join(s),
)  # fmt: skip
def test_a_readers_git_settings_change_no_date(tmp_path, setting):
    """The first digest is in the repository's first commit: with log.showRoot
    false, a plain `git log` shows no files for it."""
    proj = copy_project(tmp_path / "p", {})
    shutil.copy2(SEEDS / "prs.toml", proj / "seeds/prs.toml")
    shutil.copy2(SEEDS / DIGESTS[0], proj / "seeds" / DIGESTS[0])
    gitrepo.git(proj, "init", "-q", "-b", "main")
    gitrepo.commit(proj, ["."], DATES[0])
    for name, date in zip(DIGESTS[1:], DATES[1:]):
        shutil.copy2(SEEDS / name, proj / "seeds" / name)
        gitrepo.commit(proj, [seed(name)], date)
    gitrepo.git(proj, "mv", seed(DIGESTS[2]), "seeds/002_重命名.txt")  # a rename keeps its date
    gitrepo.commit(proj, ["seeds"], "2026-12-01T00:00:00+00:00")
    gitrepo.git(proj, "config", *setting)  # the reader's own setting, in the repository
    past = history.read(proj)
    expected = {seed(DIGESTS[0]): DATES[0], seed(DIGESTS[1]): DATES[1], "seeds/002_重命名.txt": DATES[2]}
    assert {s: d for s, d in past.dates.items() if s.endswith(".txt")} == expected
    assert past.unknown == frozenset()


def merge_project(tmp_path: Path) -> Path:
    """A repository on main with the first digest; a branch ``side`` that adds the second."""
    proj = copy_project(tmp_path / "p", {})
    shutil.copy2(SEEDS / "prs.toml", proj / "seeds/prs.toml")
    (proj / ".gitignore").write_text("/_build/\n/notes/\n/index.md\n/.prnotes-cache\n/.prnotes.lock\n", encoding="utf-8")
    gitrepo.git(proj, "init", "-q", "-b", "main")
    gitrepo.commit(proj, ["."], "2026-01-01T00:00:00+00:00")
    shutil.copy2(SEEDS / DIGESTS[0], proj / "seeds" / DIGESTS[0])
    gitrepo.commit(proj, [seed(DIGESTS[0])], DATES[0])
    gitrepo.git(proj, "checkout", "-q", "-b", "side")
    shutil.copy2(SEEDS / DIGESTS[1], proj / "seeds" / DIGESTS[1])
    gitrepo.commit(proj, [seed(DIGESTS[1])], DATES[1])
    gitrepo.git(proj, "checkout", "-q", "main")
    return proj


MERGE_DATE = "2026-11-20T12:00:00+09:00"


def test_a_digest_added_by_a_merge_without_commit_is_dated_by_the_merge(tmp_path):
    proj = merge_project(tmp_path)
    gitrepo.git(proj, "merge", "-q", "--no-ff", "--no-commit", "side", date=MERGE_DATE)
    shutil.copy2(SEEDS / DIGESTS[2], proj / "seeds" / DIGESTS[2])  # added while merging
    gitrepo.git(proj, "add", "--", seed(DIGESTS[2]))
    gitrepo.git(proj, "commit", "-q", "--no-edit", date=MERGE_DATE)
    assert len(gitrepo.git(proj, "log", "-1", "--format=%P").split()) == 2  # a merge commit
    past = history.read(proj)
    # The branch's digest keeps its own commit's date; the merge's own digest has the merge's.
    assert {s: past.dates.get(s) for s in map(seed, DIGESTS)} == dict(zip(map(seed, DIGESTS), [*DATES[:2], MERGE_DATE]))


def test_a_digest_added_to_resolve_a_merge_conflict_is_dated_by_the_merge(tmp_path):
    proj = merge_project(tmp_path)
    # Both sides change prs.toml: the merge stops, and its resolution adds a digest.
    (proj / "seeds/prs.toml").write_text("# main\n" + (SEEDS / "prs.toml").read_text(encoding="utf-8"), encoding="utf-8")
    gitrepo.commit(proj, ["seeds/prs.toml"], "2026-11-10T00:00:00+00:00")
    gitrepo.git(proj, "checkout", "-q", "side")
    (proj / "seeds/prs.toml").write_text("# side\n" + (SEEDS / "prs.toml").read_text(encoding="utf-8"), encoding="utf-8")
    gitrepo.commit(proj, ["seeds/prs.toml"], "2026-11-11T00:00:00+00:00")
    gitrepo.git(proj, "checkout", "-q", "main")
    failed = subprocess.run(["git", "merge", "-q", "side"], cwd=proj, capture_output=True, text=True)
    assert failed.returncode != 0  # a conflict
    shutil.copy2(SEEDS / "prs.toml", proj / "seeds/prs.toml")
    shutil.copy2(SEEDS / DIGESTS[2], proj / "seeds" / DIGESTS[2])
    gitrepo.git(proj, "add", "--", "seeds")
    gitrepo.git(proj, "commit", "-q", "--no-edit", date=MERGE_DATE)
    past = history.read(proj)
    assert past.dates.get(seed(DIGESTS[2])) == MERGE_DATE
    assert past.dates.get(seed(DIGESTS[1])) == DATES[1]


def test_a_digest_added_by_a_merge_is_on_its_page_and_in_the_feed(tmp_path, capfd):
    proj = merge_project(tmp_path)
    gitrepo.git(proj, "merge", "-q", "--no-ff", "--no-commit", "side", date=MERGE_DATE)
    shutil.copy2(SEEDS / DIGESTS[2], proj / "seeds" / DIGESTS[2])
    gitrepo.git(proj, "add", "--", seed(DIGESTS[2]))
    gitrepo.git(proj, "commit", "-q", "--no-edit", date=MERGE_DATE)
    assert build(proj) == 0, capfd.readouterr().err
    shown = digest_pages(proj)[seed(DIGESTS[2])]
    assert MERGE_DATE[:10] in shown and buildtime.UNCOMMITTED not in shown
    assert MERGE_DATE in {e.findtext(f"{ATOM}published") for e in feed_entries(proj)}


@pytest.mark.parametrize(
    "remote",
    ["https://reader:ghp_S3CRET@github.com/example/notes.git", "https://ghp_S3CRET@github.com/example/notes",
     "https://reader:ghp_S3CRET@github.com:443/example/notes.git/", "ssh://reader:ghp_S3CRET@github.com/example/notes.git",
     "https://github.com/example/notes.git?token=ghp_S3CRET", "https://github.com/example/notes.git#ghp_S3CRET"],
)  # fmt: skip
def test_credentials_in_the_remote_are_never_published(tmp_path, monkeypatch, remote):
    port = ":443" if ":443" in remote else ""
    assert buildtime.web_url(remote) == f"https://github.com{port}/example/notes"
    assert buildtime.web_url(" git@github.com:example/notes.git ") == "https://github.com/example/notes"
    repo = origin(tmp_path)
    gitrepo.git(repo, "remote", "add", "origin", remote)
    for name in ("PRNOTES_SOURCE_URL", "GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "READTHEDOCS_GIT_CLONE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert build(repo) == 0
    note = load(repo).notes[0]
    assert f'href="https://github.com{port}/example/notes/blob/main/{note.path}#L{note.line}"' in page(repo, note.docname)
    leaked = [p for p in (repo / "_build/html").rglob("*") if p.is_file() and b"S3CRET" in p.read_bytes()]
    assert leaked == []


def test_credentials_in_a_configured_source_url_are_never_published(tmp_path, monkeypatch):
    repo = origin(tmp_path)
    monkeypatch.setenv("PRNOTES_SOURCE_URL", "https://x-access-token:ghs_S3CRET@github.com/example/notes.git")
    assert build(repo) == 0
    leaked = [p for p in (repo / "_build/html").rglob("*") if p.is_file() and b"S3CRET" in p.read_bytes()]
    assert leaked == []


# Year 10000 and a later one: git stores and prints them; Python's datetime stops at 9999.
AFTER_9999 = ("@253402300800 +0000", "10000-01-01T00:00:00+00:00")
FAR_AFTER = ("@999999999999 +0530", "33658-09-27T07:16:39+05:30")


def test_git_dates_are_printed_as_git_prints_them():
    for raw, printed in (AFTER_9999, FAR_AFTER, ("@1767312000 +0000", "2026-01-02T00:00:00+00:00")):
        assert history.git_time(raw.lstrip("@")) == printed
    assert history.git_time("100 -0500") is None  # git: "Timestamp before Unix epoch"


@pytest.mark.parametrize("date", [AFTER_9999, FAR_AFTER], ids=["year 10000", "year 33658"])
def test_a_date_after_9999_is_one_warning_that_says_so(tmp_path, capfd, date):
    raw, printed = date
    repo = origin(tmp_path, author_dates={DIGESTS[1]: raw})
    # git prints it; Python's datetime cannot hold it.
    assert gitrepo.git(repo, "log", "-1", "--format=%aI", "--", seed(DIGESTS[1])).strip() == printed
    past = history.read(repo)
    assert past.unknown == {seed(DIGESTS[1])} and seed(DIGESTS[0]) in past.dates
    bad_commit = gitrepo.git(repo, "log", "-1", "--format=%H", "--", seed(DIGESTS[1])).strip()
    assert build(repo) != 0  # a warning: -W stops
    err = capfd.readouterr().err
    assert "Traceback" not in err and "1970" not in err, err
    named = [line for line in err.splitlines() if bad_commit[:12] in line]
    assert len(named) == 1, err
    assert named[0].endswith(
        f"{seed(DIGESTS[1])}: the commit that added it, {bad_commit[:12]}, has an author date after the year 9999 "
        f"({printed}), which this site cannot show, so this digest's date is unknown ({buildtime.UNKNOWN}) [prnotes.dates]"
    ), named
    assert main(["build", "--root", str(repo), "--", "-q", "-b", "html", "-d", "_build/doctrees", ".", "_build/html"]) == 0
    assert buildtime.UNKNOWN in digest_pages(repo)[seed(DIGESTS[1])]
    assert {e.findtext(f"{ATOM}published") for e in feed_entries(repo)} == {DATES[0], DATES[2]}


def test_a_digest_is_dated_by_its_authors_day_and_the_feed_by_the_instant(tmp_path):
    """Decided (issue 45). A digest's date is the calendar day its author dated
    it, in the author's own time zone: the day every page shows, and the day
    今日 groups by. The feeds state each entry's instant with the author's
    offset (RFC 3339), which feed readers order by, in UTC. Near midnight the two
    orders differ: here the second digest is the later instant, the third the
    later day, and 今日 is the third's day."""
    from datetime import datetime

    from prnotes.sphinxext.facts import stream

    late_evening, next_morning = "2026-11-06T23:30:00-05:00", "2026-11-07T09:00:00+08:00"  # 04:30 and 01:00 UTC on the 7th
    repo = origin(tmp_path, author_dates={DIGESTS[1]: late_evening, DIGESTS[2]: next_morning})
    past = history.read(repo)
    assert past.dates[seed(DIGESTS[1])] == late_evening and past.dates[seed(DIGESTS[2])] == next_morning
    known = {"dates": dict(past.dates), "unknown": [], "in_git": True}
    labels = {seed(d): buildtime.label(known, seed(d)) for d in DIGESTS}
    assert labels[seed(DIGESTS[1])] == "2026-11-06" and labels[seed(DIGESTS[2])] == "2026-11-07"
    assert stream.choose_day(labels, {seed(d): i + 1 for i, d in enumerate(DIGESTS)}) == ("2026-11-07", [seed(DIGESTS[2])])
    assert datetime.fromisoformat(late_evening) > datetime.fromisoformat(next_morning)
