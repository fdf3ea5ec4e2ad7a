"""The feeds a reader can follow (sphinxext/site/feeds.py, render/landing.py):
every note, the 精读 notes, each repository and each subsystem, on the follow
fixture (tests/roots/follow, committed in git at its dates). Every feed is
valid Atom (RFC 4287), and its ids are tag: URIs (RFC 4151) that the site's
address does not enter."""

from __future__ import annotations

import posixpath
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser
import pytest
from bs4 import BeautifulSoup

from prnotes import contract
from prnotes.project import load
from prnotes.sphinxext.site import feeds as feedmod
from tests.support import gitrepo
from tests.support.followsite import DATES, DIGESTS, SEEDS, build, follow_project
from tests.support.sandbox import sphinx_build

VERDICTS = {"close": "精读", "skim": "速读", "optional": "按需"}
ATOM = "{http://www.w3.org/2005/Atom}"
# RFC 4151: tag:<DNS name or e-mail>,<year[-month[-day]]>:<specific>, the specific part of pchar and "/" and "?".
TAG_URI = re.compile(r"tag:(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|[^@\s,:]+@[a-z0-9.-]+),\d{4}(?:-\d\d(?:-\d\d)?)?:[\w.~!$&'()*+,;=:@/?%-]+", re.I)
ENTITY = "tag:prnotes.invalid,2026-11-29:"
AUTHOR = "PR 精读笔记"
# SGLang's own subsystem (taxonomy/sgl-project__sglang.toml): two notes, 精读 and 按需.
MEM_CACHE = "sgl-project/sglang/mem-cache"


def parsed(html_dir: Path, path: str):
    result = feedparser.parse((html_dir / path).read_bytes())
    assert not result.bozo, (path, result.get("bozo_exception"))
    return result


def note_of(path: str, link: str) -> str:
    """The docname an entry's link names, relative to the feed's file in a build without an address."""
    assert "://" not in link, link
    return posixpath.normpath(posixpath.join(posixpath.dirname(path), link)).removesuffix(".html")


def feed_files(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*.xml") if p.name != "sitemap.xml")


def rfc4287_problems(path: Path) -> list[str]:
    """What RFC 4287 requires of a feed and its entries that the file lacks (section 4.1)."""
    root = ET.parse(path).getroot()
    problems = []

    def once(element: ET.Element, tag: str, where: str) -> None:
        if len(element.findall(f"{ATOM}{tag}")) != 1:
            problems.append(f"{where}: {len(element.findall(f'{ATOM}{tag}'))} atom:{tag}")

    def alternates_unique(element: ET.Element, where: str) -> None:
        kinds = [(link.get("type"), link.get("hreflang")) for link in element.findall(f"{ATOM}link") if link.get("rel", "alternate") == "alternate"]
        if len(kinds) != len(set(kinds)):
            problems.append(f"{where}: two alternate links of one type and language")

    if root.tag != f"{ATOM}feed":
        return [f"the root is {root.tag}"]
    for tag in ("id", "title", "updated"):
        once(root, tag, "feed")
    alternates_unique(root, "feed")
    authors = [a.findtext(f"{ATOM}name") for a in root.findall(f"{ATOM}author")]
    if not authors or not all(authors):
        problems.append(f"feed: authors {authors}")  # no entry has one of its own: the feed must
    if [link.get("rel") for link in root.findall(f"{ATOM}link")].count("self") != 1:
        problems.append("feed: not one self link")
    ids = [root.findtext(f"{ATOM}id")]
    for number, entry in enumerate(root.findall(f"{ATOM}entry")):
        where = f"entry {number}"
        for tag in ("id", "title", "updated"):
            once(entry, tag, where)
        for tag in ("content", "summary", "published"):
            if len(entry.findall(f"{ATOM}{tag}")) > 1:
                problems.append(f"{where}: more than one atom:{tag}")
        alternates_unique(entry, where)
        if entry.find(f"{ATOM}content") is None and not entry.findall(f"{ATOM}link"):
            problems.append(f"{where}: neither content nor an alternate link")
        ids.append(entry.findtext(f"{ATOM}id"))
    problems += [f"id {i!r} is not a tag: URI" for i in ids if not TAG_URI.fullmatch(i or "")]
    if len(ids) != len(set(ids)):
        problems.append("two entries share an id")
    return problems


def expected_feeds(model) -> set[str]:
    paths = {contract.FEED, contract.verdict_feed("close")}
    paths |= {contract.repo_feed(r) for r in model.repos}
    paths |= {contract.subsystem_feed(n.subsystem) for n in model.notes}
    return paths


def newest_first(model, notes) -> list[str]:
    """Docnames, newest digest first, seed order within one."""
    order = {d: (digest.number, i) for digest in model.digests for i, d in enumerate(digest.notes)}
    return [n.docname for n in sorted(notes, key=lambda n: (-order[n.docname][0], order[n.docname][1]))]


@pytest.fixture(scope="module")
def site(follow_site):
    proj, app = follow_site
    return proj, proj / "_build/html", load(proj), app.config.html_baseurl


def test_every_feed_is_valid_atom_and_there_is_one_per_repository_subsystem_and_for_close_reads(site):
    proj, out, model, _ = site
    written = set(feed_files(out))
    assert written == expected_feeds(model)
    for path in sorted(written):
        assert parsed(out, path).version == "atom10", path


def test_every_feed_keeps_rfc_4287_and_names_its_author(site):
    """Each feed has its id, title, updated time, author and self link; each
    entry its id, title and updated time, and content; every id a tag: URI."""
    _, out, _, _ = site
    for path in feed_files(out):
        assert rfc4287_problems(out / path) == [], path
        feed = parsed(out, path).feed
        assert feed.author_detail.name == AUTHOR, path
        assert feed.id == ENTITY + path


def test_entry_ids_name_the_repository_and_the_pr_or_the_page(site):
    _, out, model, _ = site
    ids = {note_of(contract.FEED, e.link): e.id for e in parsed(out, contract.FEED).entries}
    assert len(ids) == len(model.notes)
    for note in model.notes:
        specific = f"{note.repo.lower()}/pull/{note.number}" if note.number is not None else f"{note.repo.lower()}/note/{note.docname.rsplit('/', 1)[1]}"
        assert ids[note.docname] == ENTITY + specific
    assert ids["notes/sgl-project/sglang/pr-40201"] == "tag:prnotes.invalid,2026-11-29:sgl-project/sglang/pull/40201"


def feed_ids(out: Path) -> dict[str, list[str]]:
    """Each feed's id, then its entries' ids, by path."""
    found = {}
    for path in feed_files(out):
        result = parsed(out, path)
        found[path] = [result.feed.id, *(e.id for e in result.entries)]
    return found


def entry_links(out: Path) -> list[str]:
    """Every entry's link, checking that the content names the same address."""
    links = []
    for path in feed_files(out):
        for entry in parsed(out, path).entries:
            assert f"笔记：{entry.link}" in entry.content[0].value.split("\n")
            links.append(entry.link)
    return links


def test_a_site_moved_to_another_address_keeps_every_id(tmp_path, monkeypatch):
    """The same site built under two addresses (PRNOTES_BASEURL), one after the
    other: every link moves, no feed's id and no entry's id does."""
    proj = follow_project(tmp_path / "p")
    out = proj / "_build/html"
    monkeypatch.setenv("PRNOTES_BASEURL", "https://notes.example.com/prnotes/")
    build(proj)
    before, links_before = feed_ids(out), entry_links(out)
    monkeypatch.setenv("PRNOTES_BASEURL", "https://someone.github.io/")
    build(proj)
    after, links_after = feed_ids(out), entry_links(out)
    assert len(links_before) == len(links_after) > 0
    assert all(link.startswith("https://notes.example.com/prnotes/notes/") for link in links_before)
    assert all(link.startswith("https://someone.github.io/notes/") for link in links_after)
    assert after == before
    assert all(TAG_URI.fullmatch(i) for ids in after.values() for i in ids)


@pytest.mark.parametrize(
    "path, holds",
    [
        (contract.FEED, lambda n: True),
        (contract.verdict_feed("close"), lambda n: n.verdict == "close"),
        (contract.repo_feed("sgl-project/sglang"), lambda n: n.repo == "sgl-project/sglang"),
        (contract.subsystem_feed("kv-cache"), lambda n: n.subsystem == "kv-cache"),
        (contract.subsystem_feed("sgl-project/sglang/mem-cache"), lambda n: n.subsystem == "sgl-project/sglang/mem-cache"),
    ],
)
def test_a_feed_holds_its_notes_newest_digest_first(site, path, holds):
    _, out, model, _ = site
    notes = [note_of(path, e.link) for e in parsed(out, path).entries]
    assert notes == newest_first(model, [n for n in model.notes if holds(n)])


def test_entries_name_the_verdict_and_pr_and_link_the_note_and_github_in_plain_text(site):
    _, out, model, _ = site
    path = contract.subsystem_feed(MEM_CACHE)
    entries = parsed(out, path).entries
    assert len(entries) == 2
    for entry in entries:
        note = model.by_docname[note_of(path, entry.link)]
        key = contract.note_key(note.repo, note.number, note.docname)
        assert entry.title.startswith(f"[{VERDICTS[note.verdict]}] {key} ")
        assert re.fullmatch(r"\[(精读|速读|按需)\] [\w.-]+/[\w.-]+#\d+ .+", entry.title)
        (content,) = entry.content
        assert content.type == "text/plain"
        # No address known (a preview): the entry's link is the note's only address.
        assert "笔记：" not in content.value
        assert f"GitHub：https://github.com/{note.repo}/pull/{note.number}" in content.value
    # The date of each is its digest's commit.
    first = model.by_docname[note_of(path, entries[0].link)]
    assert entries[0].published.startswith(DATES[model.digest_of(first).number - 1][:10])


def test_a_note_without_a_number_is_named_after_its_page_and_links_no_pull_request(site):
    _, out, model, _ = site
    (note,) = [n for n in model.notes if n.number is None]
    (entry,) = [e for e in parsed(out, contract.FEED).entries if note_of(contract.FEED, e.link) == note.docname]
    assert entry.title.startswith(f"[速读] {note.repo}#t-")
    assert "GitHub：" not in entry.content[0].value


def alternates(out: Path, docname: str) -> list[tuple[str, str]]:
    page = BeautifulSoup((out / f"{docname}.html").read_text(encoding="utf-8"), "html.parser")
    found = page.find_all("link", rel="alternate", type="application/atom+xml")
    base = (out / docname).parent
    return [(link["title"], (base / link["href"]).resolve().relative_to(out.resolve()).as_posix()) for link in found]


def test_each_page_announces_its_own_feed_first_and_the_site_feed_last(site):
    _, out, model, _ = site
    project = "PR 精读笔记"
    assert alternates(out, contract.subsystem_docname("kv-cache")) == [
        (f"{project} · KV 缓存、前缀缓存与 KV Connector", contract.subsystem_feed("kv-cache")),
        (project, contract.FEED),
    ]
    assert alternates(out, contract.verdict_docname("close"))[0] == (f"{project} · 精读", contract.verdict_feed("close"))
    assert alternates(out, "notes/digests/001_s1")[0] == (f"{project} · sgl-project/sglang", contract.repo_feed("sgl-project/sglang"))
    note = "notes/sgl-project/sglang/pr-40201"
    assert [p for _, p in alternates(out, note)] == [
        contract.subsystem_feed(MEM_CACHE), contract.repo_feed("sgl-project/sglang"), contract.FEED]  # fmt: skip
    assert alternates(out, contract.subsystem_docname(MEM_CACHE))[0][1] == contract.subsystem_feed(MEM_CACHE)
    assert alternates(out, contract.SYMBOLS) == [(project, contract.FEED)]
    assert {p for _, p in alternates(out, contract.FEEDS_PAGE)} == expected_feeds(model)


def test_the_subscription_page_lists_every_feed_and_the_landing_page_links_to_it(site):
    _, out, model, _ = site
    page = BeautifulSoup((out / f"{contract.FEEDS_PAGE}.html").read_text(encoding="utf-8"), "html.parser")
    links = {(out / "notes" / a["href"]).resolve().relative_to(out.resolve()).as_posix(): a.get_text()
             for a in page.select("article a.prnotes-feed")}  # fmt: skip
    assert set(links) == expected_feeds(model)
    assert links[contract.subsystem_feed("kv-cache")] == "KV 缓存、前缀缓存与 KV Connector"
    assert links[contract.repo_feed("vllm-project/vllm")] == "vllm-project/vllm 的全部笔记"
    text = page.get_text()
    assert "vllm-project/vllm 的全部笔记：7 篇" in text and "sgl-project/sglang 的全部笔记：8 篇" in text
    # Each repository's subsystems under its own heading.
    assert [h.get_text().rstrip("#") for h in page.select("article h2")] == ["全部笔记", "sgl-project/sglang", "vllm-project/vllm"]
    landing = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="notes/feeds.html"' in landing


def test_a_list_page_with_a_feed_ends_with_a_line_linking_to_it(site):
    _, out, _, _ = site
    page = BeautifulSoup((out / f"{contract.subsystem_docname('kv-cache')}.html").read_text(encoding="utf-8"), "html.parser")
    (line,) = page.select("article p.prnotes-feed-line")
    assert [a["href"] for a in line.find_all("a")] == ["../../feeds/subsystem/kv-cache.xml", "../feeds.html"]
    assert line.get_text() == "订阅：KV 缓存、前缀缓存与 KV Connector 的新笔记（Atom） · 全部订阅源"


def made_feeds(monkeypatch) -> list[str]:
    """The paths of the feeds the next builds make (not merely compare)."""
    made: list[str] = []
    original = feedmod.build_feed

    def counting(app, feed, entries):
        made.append(feed.path)
        return original(app, feed, entries)

    monkeypatch.setattr(feedmod, "build_feed", counting)
    return made


def test_feeds_are_made_only_when_they_change_and_removed_when_their_subsystem_goes(tmp_path, monkeypatch):
    proj = follow_project(tmp_path / "p", digests=3)
    build(proj)
    out = proj / "_build/html"
    made = made_feeds(monkeypatch)
    times = {p: p.stat().st_mtime_ns for p in out.rglob("*.xml") if p.name != "sitemap.xml"}
    assert sphinx_build(proj).warning.getvalue() == ""
    assert made == []
    assert {p: p.stat().st_mtime_ns for p in times} == times
    # The fourth digest: SGLang notes of its mem-cache, constrained, speculative and sampling subsystems.
    shutil.copy2(SEEDS / DIGESTS[3], proj / "seeds" / DIGESTS[3])
    gitrepo.commit(proj, [f"seeds/{DIGESTS[3]}"], DATES[3])
    build(proj)
    new = {contract.FEED, contract.verdict_feed("close"), contract.repo_feed("sgl-project/sglang")}
    new |= {contract.subsystem_feed(f"sgl-project/sglang/{s}") for s in ("mem-cache", "constrained", "speculative", "sampling")}
    # 投机解码 becomes a title of both repositories: vLLM's names its repository now,
    # in its feed's title and in the category of its notes (in vLLM's feed too).
    new |= {contract.subsystem_feed("spec-decode"), contract.repo_feed("vllm-project/vllm")}
    assert sorted(made) == sorted(new)
    assert {p for p in times if p.stat().st_mtime_ns != times[p]} == {out / p for p in new if (out / p) in times}
    # The only CI note goes: so does the CI feed.
    made.clear()
    (proj / "seeds" / DIGESTS[2]).unlink()
    gitrepo.commit(proj, [f"seeds/{DIGESTS[2]}"], "2026-12-04T09:00:00+08:00")
    build(proj)
    assert not (out / contract.subsystem_feed("ci")).exists()
    assert contract.subsystem_feed("ci") not in made


def test_a_feed_holds_the_newest_entries_only(tmp_path, monkeypatch):
    monkeypatch.setattr(feedmod, "FEED_ENTRIES", 2)
    proj = follow_project(tmp_path / "p")
    build(proj)
    out = proj / "_build/html"
    model = load(proj)
    for path in expected_feeds(model):
        assert len(parsed(out, path).entries) <= 2, path
    newest = model.digests[-1].notes[:2]
    assert [e.link.rsplit("/", 1)[1] for e in parsed(out, contract.FEED).entries] == [f"{d.rsplit('/', 1)[1]}.html" for d in newest]


def test_feeds_without_entries_look_up_the_sources_time_once(tmp_path, monkeypatch):
    """A feed with no entry is dated by when the sources last changed (a git
    call, or a look at every seed): one look-up per build, not one per feed."""
    from prnotes.parse import history
    from tests.support.sandbox import copy_project

    calls = []
    real = history.source_time
    monkeypatch.setattr(history, "source_time", lambda *args: calls.append(args) or real(*args))
    proj = copy_project(tmp_path / "p", {name: (SEEDS / name).read_text(encoding="utf-8") for name in DIGESTS})
    gitrepo.init(proj)  # the digests are not committed: no feed has an entry yet
    build(proj)
    feeds = sorted((proj / "_build/html").rglob("*.xml"))
    assert len(feeds) > 3 and all(not feedparser.parse(f.read_bytes()).entries for f in feeds if f.name != "sitemap.xml")
    assert len(calls) == 1
