"""The site as a stream of digests: digest pages, dates from git, the feed, the
PR one click away, and honest deletions and renames.

The fixture (tests/roots/stream) has three digests from two repositories;
each test commits them at chosen dates into a fresh git repository.
"""

from __future__ import annotations

from datetime import datetime

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from prnotes import contract
from prnotes.build.audit import audit
from prnotes.model.classify import verdict_rank
from prnotes.project import load
from prnotes.sphinxext.site import feeds as feed
from tests.support import gitrepo, similarwork
from tests.support.pagechecks import nu_errors
from tests.support.sandbox import ROOTS, convert, copy_project, sphinx_build

SEEDS = ROOTS / "stream" / "seeds"
DIGESTS = ("000_a1b2c3.txt", "001_d4e5f6.txt", "002_0718aa.txt")
DATES = ("2026-11-02T09:30:00+08:00", "2026-11-05T23:10:00-05:00", "2026-11-09T08:00:00+08:00")
ATOM = "{http://www.w3.org/2005/Atom}"


def html(proj: Path, docname: str) -> str:
    return (proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8")


def article(page: str) -> str:
    return page.split('<article class="bd-article">', 1)[1].split("</article>", 1)[0]


def stream_project(tmp_path: Path, committed: int = 3) -> Path:
    """The stream fixture with its first ``committed`` digests committed, one commit each."""
    return gitrepo.digest_project(tmp_path / "p", SEEDS, DIGESTS, DATES, committed)


def build(proj: Path, freshenv: bool = False, **config):
    assert convert(proj) == 0
    app = sphinx_build(proj, freshenv=freshenv, confoverrides=config or None)
    assert app.warning.getvalue() == ""
    return app


@pytest.fixture(scope="module")
def stream_site(tmp_path_factory):
    proj = stream_project(tmp_path_factory.mktemp("stream"))
    app = build(proj, freshenv=True, prnotes_source_url="https://github.com/example/notes.git")
    return proj, app


def build_counting(proj: Path):
    """A build of the converted project, and the documents it read and the pages it wrote."""
    read: list[str] = []
    written: list[str] = []
    app = sphinx_build(proj, listeners=[
        ("env-before-read-docs", lambda app, env, docs: read.extend(docs)),
        ("html-page-context", lambda app, name, *rest: written.append(name)),
    ])  # fmt: skip
    return app, read, written


def listed_notes(page: str) -> list[str]:
    """Docnames of the notes a list page links to, in order, each once."""
    titles = re.findall(r'<a class="reference internal" href="(?:\.\./)*(?:notes/)?([^"#]*?/pr-\d+)\.html"><span class="std std-doc">', page)
    return list(dict.fromkeys(titles))


def reading_order(model, docnames) -> list[str]:
    """Docnames (without ``notes/``) as a digest is read: 精读, 速读, 按需, none; seed order within each."""
    notes = [model.by_docname[d] for d in docnames]
    ordered = sorted(notes, key=lambda n: (verdict_rank(n.verdict), n.seq))
    return [n.docname.split("notes/", 1)[1] for n in ordered]


def test_every_digest_has_a_page_with_exactly_its_notes_in_reading_order(stream_site):
    proj, _ = stream_site
    model = load(proj)
    assert [d.path for d in model.digests] == [f"seeds/{n}" for n in DIGESTS]
    for digest, date in zip(model.digests, DATES):
        page = html(proj, digest.docname)
        assert f"<h1>{digest.title}" in page
        assert date[:10] in article(page).split("</p>", 1)[0]
        assert listed_notes(article(page)) == reading_order(model, digest.notes), digest.path
    # 第 3 期 lists a 精读, a 速读 and a 按需 note in seed order; the order is the verdicts'.
    assert [model.by_docname[d].verdict for d in model.digests[2].notes] == ["close", "skim", "optional"]


def test_digest_titles_follow_file_name_order(stream_site):
    proj, _ = stream_site
    assert [d.title for d in load(proj).digests] == ["第 1 期", "第 2 期", "第 3 期"]


def test_archive_lists_digests_newest_first_with_dates_and_counts(stream_site):
    proj, _ = stream_site
    page = article(html(proj, contract.DIGESTS_INDEX))
    items = re.findall(r"<li[^>]*><p>(.*?)</p>", page, re.S)
    assert [re.search(r"第 \d 期", i).group() for i in items] == ["第 3 期", "第 2 期", "第 1 期"]
    assert [re.search(r"\d{4}-\d\d-\d\d", i).group() for i in items] == [d[:10] for d in reversed(DATES)]
    assert "3 篇（精读 1 篇，速读 1 篇，按需 1 篇）" in re.sub(r"<[^>]+>", "", items[0])


def test_dates_are_the_authors_calendar_day(stream_site):
    # 2026-11-05T23:10-05:00 is the 6th in UTC; the digest shows the 5th.
    proj, _ = stream_site
    assert "2026-11-05" in article(html(proj, load(proj).digests[1].docname))


def test_each_note_says_which_digest_it_came_from(stream_site):
    proj, _ = stream_site
    model = load(proj)
    for note in model.notes:
        digest = model.digest_by_docname[note.digest]
        page = article(html(proj, note.docname))
        field = re.search(rf"{contract.DIGEST_FIELD}.*?</dd>", page, re.S).group()
        assert digest.title in field and DATES[digest.number - 1][:10] in field
        assert f'{digest.docname.rsplit("/", 1)[1]}.html"' in field


def test_landing_page_opens_with_the_newest_day_which_is_one_digest_here(stream_site):
    proj, _ = stream_site
    model = load(proj)
    page = article(html(proj, "index"))
    today = page.split("<h2>今日", 1)[1].split("<h2>", 1)[0]
    lead = today.split("</p>", 1)[0]
    assert DATES[-1][:10] in lead and "第 3 期" in lead and "第 2 期" not in lead
    assert listed_notes(today) == reading_order(model, model.digests[-1].notes)


def test_feed_is_dated_by_digest_newest_first_in_seed_order(stream_site):
    proj, app = stream_site
    model = load(proj)
    entries = ET.parse(proj / "_build/html/feed.xml").getroot().findall(f"{ATOM}entry")
    expected = [d for digest in reversed(model.digests) for d in digest.notes]
    base = app.config.html_baseurl
    assert [e.find(f"{ATOM}link").get("href") for e in entries] == [f"{base}{d}.html" for d in expected]
    by_digest = {d: digest.number for digest in model.digests for d in digest.notes}
    for entry, docname in zip(entries, expected):
        published = datetime.fromisoformat(entry.find(f"{ATOM}published").text)
        assert published == datetime.fromisoformat(DATES[by_digest[docname] - 1]), docname


def test_note_links_its_pull_request_and_repository(stream_site):
    proj, _ = stream_site
    page = article(html(proj, "notes/sgl-project/sglang/pr-3001"))
    assert 'href="https://github.com/sgl-project/sglang/pull/3001"' in page
    assert 'href="https://github.com/sgl-project/sglang"' in page
    # A reference to a PR that has a note goes to the note, with GitHub beside it.
    ref = re.search(r'<span class="prnotes-ref">(.*?)</a></span>', page, re.S).group(1)
    assert 'href="../../vllm-project/vllm/pr-61001.html"' in ref
    assert 'href="https://github.com/vllm-project/vllm/pull/61001"' in ref


def test_lists_link_every_pr_number(stream_site):
    proj, _ = stream_site
    # Two repositories on the site: lists show owner/repo#N, linked. A
    # subsystem's list links it to the note, with GitHub beside it; a digest's
    # entry links its title to the note and the number to GitHub.
    page = article(html(proj, contract.subsystem_docname("engine")))
    assert re.search(r'href="\.\./vllm-project/vllm/pr-61001\.html"[^>]*><span class="xref prnotes-pr">vllm-project/vllm#61001<', page)
    assert 'href="https://github.com/vllm-project/vllm/pull/61001"' in page
    page = article(html(proj, load(proj).digests[0].docname))
    assert re.search(r'<a [^>]*href="\.\./vllm-project/vllm/pr-61001\.html"><span class="std std-doc">调度器支持按优先级抢占<', page)
    assert re.search(r'href="https://github.com/vllm-project/vllm/pull/61001"[^>]*><span class="xref prnotes-pr">vllm-project/vllm#61001<', page)


def test_header_links_each_upstream_repository(stream_site):
    """Several repositories: one GitHub icon that opens a list of them by
    name, not a row of identical icons; valid HTML in both places the theme
    puts it (the header and the phone's drawer)."""
    proj, _ = stream_site
    page = html(proj, "index")
    menus = re.findall(r'<div class="navbar-icon-links dropdown prnotes-repos">(.*?)</div>', page, re.S)
    assert len(menus) == 2
    for menu in menus:
        assert len(re.findall(r'<svg [^>]*class="sd-octicon sd-octicon-mark-github prnotes-icon fa-lg"', menu)) == 1
        # Most notes first: vLLM's five, SGLang's two.
        assert re.findall(r'<a class="dropdown-item" href="(https://github.com/[^"]+)" rel="noopener">([^<]+)</a>', menu) == [
            ("https://github.com/vllm-project/vllm", "vllm-project/vllm"),
            ("https://github.com/sgl-project/sglang", "sgl-project/sglang"),
        ]
    if shutil.which("java"):
        assert [str(e) for e in nu_errors([proj / "_build/html/index.html"])] == []


def test_source_link_is_small_at_the_bottom_and_nowhere_else(stream_site):
    proj, _ = stream_site
    page = article(html(proj, "notes/vllm-project/vllm/pr-61002"))
    links = re.findall(r'<p class="prnotes-source no-search"><a class="reference external" href="([^"]+)"[^>]*>编辑来源</a></p>', page)
    assert links == ["https://github.com/example/notes/blob/main/seeds/000_a1b2c3.txt#L7"]
    assert page.rstrip().endswith("</section>") or page.rfind("编辑来源") > page.rfind(contract.RELATED_SECTION)
    assert "来源:" not in page and "000_a1b2c3.txt:" not in page
    for hub in ("index", load(proj).digests[0].docname, contract.verdict_docname("skim")):
        assert "编辑来源" not in html(proj, hub)


def test_no_source_link_without_a_repository_address(tmp_path):
    proj = copy_project(tmp_path / "p", SEEDS)
    build(proj, freshenv=True)
    page = article(html(proj, "notes/vllm-project/vllm/pr-61002"))
    assert "编辑来源" not in page and "prnotes-source" not in page


def test_uncommitted_digest_says_so_then_gets_its_date_without_a_reread(tmp_path):
    proj = stream_project(tmp_path, committed=2)
    build(proj, freshenv=True)
    newest = load(proj).digests[-1]
    assert "未提交" in article(html(proj, newest.docname))
    assert "未提交" in article(html(proj, newest.notes[0]))
    feed = (proj / "_build/html/feed.xml").read_text(encoding="utf-8")
    assert newest.notes[0] not in feed  # the feed follows what is committed
    gitrepo.commit(proj, [f"seeds/{DIGESTS[2]}"], DATES[2])
    assert convert(proj) == 0
    read: list[str] = []
    app = sphinx_build(proj, listeners=[("env-before-read-docs", lambda app, env, docs: read.extend(docs))])
    assert app.warning.getvalue() == ""
    assert read == []
    for docname in (newest.docname, newest.notes[0], "index", contract.DIGESTS_INDEX):
        page = article(html(proj, docname))
        assert "未提交" not in page and DATES[2][:10] in page, docname
    assert newest.notes[0] in (proj / "_build/html/feed.xml").read_text(encoding="utf-8")


def test_watch_list_dates_each_item_by_its_digest_and_follows_the_commit(tmp_path):
    proj = stream_project(tmp_path, committed=0)
    build(proj, freshenv=True)

    def item() -> str:
        page = article(html(proj, contract.WATCHLIST))
        found = re.search(r'<p class="prnotes-followup-label">(.*?)</p>\s*<p class="prnotes-followup-target">(.*?)</p>', page, re.S)
        return " ".join(re.sub(r"<[^>]+>", "", found.group(1) + " | " + found.group(2)).split())

    # Two repositories: every number names its own.
    assert item() == (
        "#61010 的 FlashInfer 采样路径 | 跟进：PR vllm-project/vllm#61010 · "
        "出自 采样器合并 top-k 与 top-p 的 kernel vllm-project/vllm#61002 · 第 1 期 · 未提交"
    )
    gitrepo.commit(proj, [f"seeds/{name}" for name in DIGESTS] + ["seeds/prs.toml"], DATES[0])
    assert convert(proj) == 0
    read: list[str] = []
    app = sphinx_build(proj, listeners=[("env-before-read-docs", lambda app, env, docs: read.extend(docs))])
    assert app.warning.getvalue() == ""
    assert read == []  # the date is new, the pages are not: written again, not read again
    assert item().endswith(f"第 1 期 · {DATES[0][:10]}")


def test_deleted_digest_leaves_the_site_and_the_audit_tells_the_truth(tmp_path, capsys):
    proj = stream_project(tmp_path)
    build(proj, freshenv=True)
    gone = load(proj).digests[1]
    assert (proj / "_build/html" / f"{gone.notes[0]}.html").exists()
    gitrepo.git(proj, "rm", "-q", f"seeds/{DIGESTS[1]}")
    gitrepo.commit(proj, [f"seeds/{DIGESTS[1]}"], "2026-11-10T00:00:00+00:00")
    assert convert(proj) == 0
    # Converted, not yet built: the site still publishes the notes, and the audit says so.
    report = audit(proj)
    assert [str(s) for s in report.stale] == [
        f"html/{d}.html:1: published note that no seed entry holds; rebuild with `make html`" for d in gone.notes
    ]
    assert report.summary == "5 entries, 5 pages, 0 missing, 2 stale", report.findings
    build(proj)
    for docname in (*gone.notes, gone.docname):
        assert not (proj / "_build/html" / f"{docname}.html").exists(), docname
    assert not (proj / "_build/html/notes/sgl-project").exists()
    report = audit(proj)
    assert report.ok and report.summary == "5 entries, 5 pages, 0 missing"
    feed = (proj / "_build/html/feed.xml").read_text(encoding="utf-8")
    assert "sgl-project" not in feed
    assert "sgl-project" not in html(proj, "index").split('<ul class="navbar-icon-links"', 1)[1].split("</ul>", 1)[0]


def test_renamed_digest_keeps_its_date_and_moves_its_page(tmp_path):
    proj = stream_project(tmp_path)
    build(proj, freshenv=True)
    gitrepo.git(proj, "mv", f"seeds/{DIGESTS[0]}", "seeds/000_renamed.txt")
    gitrepo.commit(proj, ["seeds"], "2026-11-20T00:00:00+00:00")
    build(proj)
    assert not (proj / "_build/html/notes/digests/000_a1b2c3.html").exists()
    page = article(html(proj, "notes/digests/000_renamed"))
    assert DATES[0][:10] in page and "2026-11-20" not in page


def test_removed_digest_with_keys_left_in_prs_toml_warns_and_builds(tmp_path, capsys):
    proj = stream_project(tmp_path)
    (proj / "seeds" / DIGESTS[2]).unlink()
    assert convert(proj) == 0
    err = capsys.readouterr().err
    assert (
        "warning: seeds/prs.toml:2: prs.toml entry '文档：补充结构化输出的示例' of vllm-project/vllm matches no seed entry"
        in err
    )
    app = sphinx_build(proj, freshenv=True)
    assert app.warning.getvalue() == ""


def test_odd_digest_file_names_get_pages_of_their_own(tmp_path):
    seeds = {
        "2026-11-30 evening: part 1.txt": (SEEDS / DIGESTS[0]).read_text(encoding="utf-8"),
        "2026-11-30 Evening: Part 1.txt": (SEEDS / DIGESTS[1]).read_text(encoding="utf-8"),
        "第三期.txt": (SEEDS / DIGESTS[2]).read_text(encoding="utf-8").replace("\n文档：补充结构化输出的示例\n", "\n文档：补充结构化输出的示例 (#61004)\n"),
    }
    proj = copy_project(tmp_path / "p", seeds)
    build(proj, freshenv=True)
    docnames = [d.docname for d in load(proj).digests]
    assert len(set(docnames)) == 3
    for docname in docnames:
        assert re.fullmatch(r"notes/digests/[a-z0-9-]+-[0-9a-f]{8}", docname)
        assert (proj / "_build/html" / f"{docname}.html").exists()


def test_new_digests_added_to_the_real_ones_keep_every_invariant(tmp_path):
    """What `make test` checks over seeds/ holds after two more digests, one from another repository."""
    from tests.support.sandbox import ROOT

    proj = copy_project(tmp_path / "p", ROOT / "seeds")
    # Names that sort after any real digest's, and a PR number no real note will have.
    shutil.copy2(SEEDS / DIGESTS[1], proj / "seeds/zzzz_990_sglang.txt")
    text = (SEEDS / DIGESTS[2]).read_text(encoding="utf-8").replace("文档：补充结构化输出的示例", "文档：补充结构化输出的示例 (#99999001)")
    (proj / "seeds/zzzz_991_vllm.txt").write_text(text, encoding="utf-8")
    app = build(proj, freshenv=True)
    model = load(proj)
    assert [d.path for d in model.digests][-2:] == ["seeds/zzzz_990_sglang.txt", "seeds/zzzz_991_vllm.txt"]
    report = audit(proj)
    assert report.ok and report.entries == report.pages == len(model.notes)
    assert set(model.digests[-1].notes) <= set(app.env.all_docs)


def test_feed_holds_the_newest_notes_and_is_rewritten_only_when_they_change(tmp_path, monkeypatch):
    monkeypatch.setattr(feed, "FEED_ENTRIES", 5)
    proj = stream_project(tmp_path)
    build(proj, freshenv=True)
    path = proj / "_build/html/feed.xml"
    entries = ET.parse(path).getroot().findall(f"{ATOM}entry")
    model = load(proj)
    newest = [d for digest in reversed(model.digests) for d in digest.notes][:5]
    assert [e.find(f"{ATOM}link").get("href").rsplit("/", 1)[1] for e in entries] == [
        f"{d.rsplit('/', 1)[1]}.html" for d in newest
    ]
    before = path.stat().st_mtime_ns
    build(proj)
    assert path.stat().st_mtime_ns == before


# --- the reader's morning: 今日 and the walk through the digests ----------------
# tests/roots/morning: four digests over three days, the last two on 2026-11-09.

from tests.support import morning  # noqa: E402


@pytest.fixture(scope="module")
def morning_site(tmp_path_factory):
    proj = morning.morning_project(tmp_path_factory.mktemp("morning") / "p")
    return proj, build(proj, freshenv=True)


def today_of(proj: Path) -> tuple[str, list[str]]:
    """The landing page's 今日: its lead line as text, and the notes it lists."""
    section = article(html(proj, "index")).split("<h2>今日", 1)[1].split("</section>", 1)[0]
    lead = re.search(r'<p class="prnotes-today-lead">(.*?)</p>', section, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", "", lead).split()), listed_notes(section)


def neighbours(proj: Path, docname: str) -> dict[str, tuple[str, str]]:
    """A page's previous and next page, from the footer and from the head, as
    docnames (resolved against the page's folder), with the footer's labels."""
    page = html(proj, docname)
    here = Path(docname).parent
    found = {}
    for kind, cls in (("prev", "left-prev"), ("next", "right-next")):
        head = re.search(rf'<link rel="{kind}" title="[^"]*" href="([^"]+)" />', page)
        foot = re.search(rf'<a class="{cls}"\s+href="([^"]+)">.*?<p class="prev-next-subtitle">([^<]*)</p>', page, re.S)
        assert (head is None) == (foot is None), (docname, kind)
        if foot:
            assert head.group(1) == foot.group(1), (docname, kind)
            target = (here / foot.group(1)).as_posix().removesuffix(".html")
            found[kind] = (_normal(target), foot.group(2))
    return found


def _normal(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return "/".join(parts)


def expected_walk(model) -> list[str]:
    """Every note: the newest digest first, each in reading order."""
    return [f"notes/{d}" for digest in reversed(model.digests) for d in reading_order(model, digest.notes)]


def test_today_holds_exactly_the_newest_days_notes_in_verdict_order(morning_site):
    proj, _ = morning_site
    model = load(proj)
    lead, listed = today_of(proj)
    assert lead == "2026-11-09 · 第 3 期、第 4 期 · 6 篇（精读 2 篇，速读 2 篇，按需 1 篇，未注明 1 篇）"
    newest = model.digests[2].notes + model.digests[3].notes
    by_verdict = sorted(newest, key=lambda d: (verdict_rank(model.by_docname[d].verdict), model.by_docname[d].seq))
    assert listed == [d.split("notes/", 1)[1] for d in by_verdict]
    # Across the two digests: each verdict's notes of 第 3 期, then of 第 4 期.
    assert [model.by_docname[f"notes/{d}"].number for d in listed] == [61003, 3011, 61004, 3010, 61005, 3012]


def test_each_entry_of_today_shows_verdict_pr_subsystem_and_first_sentence(morning_site):
    proj, _ = morning_site
    section = article(html(proj, "index")).split("<h2>今日", 1)[1].split("</section>", 1)[0]
    items = re.findall(r"<li[^>]*>(.*?)</li>", section, re.S)
    assert len(items) == 6
    first = items[0]
    assert re.search(r'<p class="prnotes-entry-title"><span class="[^"]*sd-badge[^"]*">精读</span> <a [^>]*href="notes/vllm-project/vllm/pr-61003.html"', first)
    meta = re.search(r'<p class="prnotes-entry-meta">(.*?)</p>', first, re.S).group(1)
    assert 'href="https://github.com/vllm-project/vllm/pull/61003"' in meta and ">vllm-project/vllm#61003<" in meta
    assert 'href="notes/subsystem/lora.html">LoRA</a>' in meta
    assert '<span class="prnotes-summary">结合 ' in first
    # A note whose advice names no verdict says so, last.
    assert ">未注明</span>" in items[-1] and "pr-3012.html" in items[-1]


def test_a_day_of_more_notes_than_today_shows_lists_the_first_and_says_where_the_rest_are(tmp_path, monkeypatch):
    """An archive's first day holds every digest committed with it: 今日 stays
    a page's worth (the first in reading order), names the day's first and last
    digest when there are many, and says how many more there are."""
    from prnotes.sphinxext.facts import stream

    monkeypatch.setattr(stream, "TODAY_SHOWN", 4)
    monkeypatch.setattr(stream, "TODAY_DIGESTS_NAMED", 1)
    proj = morning.morning_project(tmp_path / "p")
    build(proj, freshenv=True)
    model = load(proj)
    lead, listed = today_of(proj)
    assert lead == "2026-11-09 · 第 3 期 至 第 4 期（共 2 期） · 6 篇（精读 2 篇，速读 2 篇，按需 1 篇，未注明 1 篇）"
    newest = model.digests[2].notes + model.digests[3].notes
    by_verdict = sorted(newest, key=lambda d: (verdict_rank(model.by_docname[d].verdict), model.by_docname[d].seq))
    assert listed == [d.split("notes/", 1)[1] for d in by_verdict[:4]]
    section = article(html(proj, "index")).split("<h2>今日", 1)[1].split("</section>", 1)[0]
    rest = re.search(r'<p class="prnotes-today-rest">(.*?)</p>', section, re.S).group(1)
    assert re.sub(r"<[^>]+>", "", rest).startswith("今日另有 2 篇")
    assert 'href="notes/digests/index.html"' in rest


def test_today_is_the_uncommitted_digest_then_its_day_once_committed(tmp_path):
    """A digest not committed yet is the newest arrival: it alone is 今日, with
    未提交 for its date. Committed on the day of the one before it, it joins
    that day, and the landing page is written again without being read again."""
    proj = morning.morning_project(tmp_path / "p", committed=3)
    build(proj, freshenv=True)
    lead, listed = today_of(proj)
    assert lead == "未提交 · 第 4 期 · 3 篇（精读 1 篇，速读 1 篇，未注明 1 篇）"
    assert [d.rsplit("-", 1)[1] for d in listed] == ["3011", "3010", "3012"]
    gitrepo.commit(proj, [f"seeds/{morning.DIGESTS[3]}"], morning.DATES[3])
    assert convert(proj) == 0
    app, read, written = build_counting(proj)
    assert app.warning.getvalue() == ""
    assert read == [] and "index" in written
    assert today_of(proj)[0].startswith("2026-11-09 · 第 3 期、第 4 期 · 6 篇")


def test_without_git_today_is_the_newest_digest_file(tmp_path):
    proj = copy_project(tmp_path / "p", morning.SEEDS)
    build(proj, freshenv=True)
    lead, listed = today_of(proj)
    assert lead == "日期未知 · 第 4 期 · 3 篇（精读 1 篇，速读 1 篇，未注明 1 篇）"
    assert [d.rsplit("-", 1)[1] for d in listed] == ["3011", "3010", "3012"]


def test_next_walks_the_newest_digest_then_the_older_ones_without_a_dead_end(morning_site):
    proj, _ = morning_site
    model = load(proj)
    expected = expected_walk(model)
    assert expected[0] == "notes/sgl-project/sglang/pr-3011"  # the 精读 of the newest digest
    visited = [expected[0]]
    # The end of each digest shows: its last note says so, and 下一篇 names the digest before, dated.
    dates = {1: "2026-11-02", 2: "2026-11-05", 3: "2026-11-09"}
    digest_of = {n.docname: model.digest_of(n).number for n in model.notes}
    while "next" in (links := neighbours(proj, visited[-1])):
        target, label = links["next"]
        here, there = digest_of[visited[-1]], digest_of[target]
        end = re.findall(r'<p class="prnotes-digest-end">([^<]*)</p>', html(proj, visited[-1]))
        if here == there:
            assert (label, end) == ("下一篇", []), visited[-1]
        else:
            assert (label, end) == (f"下一篇 · 上一期：第 {there} 期 · {dates[there]}", [f"第 {here} 期到此读完"]), visited[-1]
        visited.append(target)
        assert len(visited) <= len(expected)
    assert visited == expected  # every note, once, and the walk ends at the oldest digest's last note
    assert "prev" not in neighbours(proj, expected[0])
    for before, after in zip(expected, expected[1:]):
        assert neighbours(proj, after)["prev"] == (before, "上一篇")


def test_digests_step_to_older_and_newer_and_the_archive_agrees(morning_site):
    proj, _ = morning_site
    digests = load(proj).digests
    for index, digest in enumerate(digests):
        links = neighbours(proj, digest.docname)
        assert links.get("prev") == ((digests[index - 1].docname, "上一期") if index else None), digest.title
        assert links.get("next") == ((digests[index + 1].docname, "下一期") if index + 1 < len(digests) else None)
        line = re.sub(r"<[^>]+>", "", article(html(proj, digest.docname)).split("<ul", 1)[0])
        if index:
            assert f"上一期：{digests[index - 1].title}" in line
        if index + 1 < len(digests):
            assert f"下一期：{digests[index + 1].title}" in line
    # The archive lists 第 4 期 first; its own buttons lead to other pages, not into 第 1 期.
    archive = neighbours(proj, contract.DIGESTS_INDEX)
    assert all(label in ("上一页", "下一页") for _, label in archive.values()), archive
    page = article(html(proj, contract.DIGESTS_INDEX))
    assert re.findall(r"第 \d 期", page)[:4] == ["第 4 期", "第 3 期", "第 2 期", "第 1 期"]


def test_subsystem_pages_lead_to_subsystem_pages_not_into_their_notes(morning_site):
    proj, _ = morning_site
    for docname in ("index", "notes/subsystem/engine", "notes/subsystem/sgl-project/sglang/mem-cache", contract.READING_INDEX):
        for target, label in neighbours(proj, docname).values():
            assert not contract.is_note_docname(target) and not contract.is_digest_docname(target), (docname, target)
            assert label in ("上一页", "下一页")


def test_a_new_digest_rewrites_only_the_pages_whose_neighbours_change(tmp_path, monkeypatch):
    """Counted, not timed: a new digest is read; of the old notes only the one
    that now follows it (the newest digest's first) is written again, and the
    digest before it gains its 下一期. An older vLLM digest of one note about
    nothing else comes first, so that vLLM leads (six notes to SGLang's five)
    and a vLLM digest leaves the repositories' order, and with it the
    navigation, as it was."""
    proj = morning.morning_project(tmp_path / "p")
    (proj / "seeds/000_0older.txt").write_text("vllm-project/vllm\n\n更新 README 徽章的图片地址 (#60999)\n\n值得快速浏览，只改了徽章。\n", encoding="utf-8")
    gitrepo.commit(proj, ["seeds/000_0older.txt"], "2026-10-01T09:00:00+08:00")
    build(proj, freshenv=True)
    (proj / "seeds/004_new.txt").write_text(
        # Filed under subsystems that have notes already: the navigation stays as it was.
        "vllm-project/vllm\n\n调度器：抢占后按优先级恢复请求 (#61020)\n\n值得精读。抢占后的请求按优先级重新进入调度队列，关注 Scheduler 的恢复路径。\n\n"
        "CI 缓存 Docker 层以缩短构建 (#61021)\n\n值得快速浏览，构建镜像时复用 Docker 层。\n",
        encoding="utf-8",
    )
    assert convert(proj) == 0
    work = similarwork.watch(monkeypatch)
    app, read, written = build_counting(proj)
    assert app.warning.getvalue() == ""
    old_notes = {n for n in app.env.all_docs if contract.is_note_docname(n)} - {
        "notes/vllm-project/vllm/pr-61020", "notes/vllm-project/vllm/pr-61021"}  # fmt: skip
    rewritten = set(written) - set(read)
    # Besides the neighbour, the notes whose 相似笔记 a new note joins (sphinxext/links/similar.py):
    # the scheduler's preemption, as the new note on restoring preempted requests, and the CI
    # note on test shards, whose best by far is the new CI note (of 12 notes, the two say "CI").
    similar = set(work.pages) & old_notes
    assert similar == {"notes/vllm-project/vllm/pr-61001", "notes/vllm-project/vllm/pr-61005"}
    assert rewritten & old_notes == {"notes/sgl-project/sglang/pr-3011"} | similar
    assert "notes/digests/003_9c0ffe" in written  # read again: its line names 第 6 期
    assert neighbours(proj, "notes/sgl-project/sglang/pr-3011")["prev"] == ("notes/vllm-project/vllm/pr-61021", "上一篇")
    assert neighbours(proj, "notes/digests/003_9c0ffe")["next"] == ("notes/digests/004_new", "下一期")
    # Nothing changed: no page is written (Sphinx writes its search page and the 404 page every time).
    written.clear()
    app = sphinx_build(proj, listeners=[("html-page-context", lambda app, name, *rest: written.append(name))])
    assert [w for w in written if w in app.env.all_docs] == []


def pdf_item(proj: Path) -> str | None:
    """The landing page's PDF line, as text with each link's address, or None without one."""
    found = re.search(r"<li[^>]*><p>PDF：(.*?)</p></li>", article(html(proj, "index")), re.S)
    if found is None:
        return None
    return " · ".join(f"{t}={h}" for h, t in re.findall(r'<a class="prnotes-pdf reference external" href="([^"]+)">([^<]+)</a>', found.group(1)))


def test_the_landing_page_links_the_pdf_books_that_are_there(tmp_path):
    """No book built: no link to one. Books in _build/latex/ (make pdf): each
    copied into the site (_build/html/pdf/) and linked there, and the landing
    page is written again, not read again. A published book (prnotes_pdf_url,
    as on Read the Docs): the whole book there, and no copy."""
    proj = copy_project(tmp_path / "p", morning.SEEDS)
    build(proj, freshenv=True)
    assert pdf_item(proj) is None and "PDF" not in article(html(proj, "index"))
    latex = proj / "_build/latex"
    latex.mkdir(parents=True)
    for name in ("prnotes.pdf", "prnotes-v1.pdf", "prnotes-close.pdf"):
        (latex / name).write_bytes(b"%PDF-1.5\n")
    app, read, written = build_counting(proj)
    assert app.warning.getvalue() == "" and read == [] and "index" in written
    # A book of a selection (make pdf VERDICT=精读) is not one of the site's books.
    assert pdf_item(proj) == "全书=pdf/prnotes.pdf · 第 1–4 期=pdf/prnotes-v1.pdf"
    copies = proj / "_build/html/pdf"
    assert sorted(p.name for p in copies.iterdir()) == ["prnotes-v1.pdf", "prnotes.pdf"]
    app = sphinx_build(proj, freshenv=True, confoverrides={"prnotes_pdf_url": "/_/downloads/zh-cn/latest/pdf/"})
    assert pdf_item(proj) == "全书=/_/downloads/zh-cn/latest/pdf/"
    assert not copies.exists()
