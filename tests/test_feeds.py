"""The feeds a reader can follow (sphinxext/feed.py, render/landing.py): every
note, the 精读 notes, each repository and each subsystem, on the follow
fixture (tests/roots/follow, committed in git at its dates)."""

from __future__ import annotations

import re
import shutil
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
# SGLang's own subsystem (taxonomy/sgl-project__sglang.toml): two notes, 精读 and 按需.
MEM_CACHE = "sgl-project/sglang/mem-cache"


def parsed(html_dir: Path, path: str):
    result = feedparser.parse((html_dir / path).read_bytes())
    assert not result.bozo, (path, result.get("bozo_exception"))
    return result


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
    written = {p.relative_to(out).as_posix() for p in out.rglob("*.xml") if p.name != "sitemap.xml"}
    assert written == expected_feeds(model)
    for path in sorted(written):
        assert parsed(out, path).version == "atom10", path


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
    _, out, model, base = site
    links = [e.link for e in parsed(out, path).entries]
    assert links == [f"{base}{d}.html" for d in newest_first(model, [n for n in model.notes if holds(n)])]


def test_entries_name_the_verdict_and_pr_and_link_the_note_and_github_in_plain_text(site):
    _, out, model, base = site
    entries = parsed(out, contract.subsystem_feed(MEM_CACHE)).entries
    assert len(entries) == 2
    for entry in entries:
        note = model.by_docname[entry.link.removeprefix(base).removesuffix(".html")]
        key = contract.note_key(note.repo, note.number, note.docname)
        assert entry.title.startswith(f"[{VERDICTS[note.verdict]}] {key} ")
        assert re.fullmatch(r"\[(精读|速读|按需)\] [\w.-]+/[\w.-]+#\d+ .+", entry.title)
        (content,) = entry.content
        assert content.type == "text/plain"
        assert f"笔记：{entry.link}" in content.value
        assert f"GitHub：https://github.com/{note.repo}/pull/{note.number}" in content.value
    # The date of each is its digest's commit.
    first = model.by_docname[entries[0].link.removeprefix(base).removesuffix(".html")]
    assert entries[0].published.startswith(DATES[model.digest_of(first).number - 1][:10])


def test_a_note_without_a_number_is_named_after_its_page_and_links_no_pull_request(site):
    _, out, model, base = site
    (note,) = [n for n in model.notes if n.number is None]
    (entry,) = [e for e in parsed(out, contract.FEED).entries if e.link == f"{base}{note.docname}.html"]
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
