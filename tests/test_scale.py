"""The site as the archive grows: hub pages paged by count, and what a new digest costs.

Sizes here are small; the page sizes are lowered so that a site of a few dozen
notes has several pages in every list. The figures at 1,000 to 20,000 notes
are in BENCHMARKS.md (bench/scale.py), which also checks that no page of a
dense archive passes 300 KB.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from bench.corpus import DENSE_REPOS, dense_day, generate, generate_dense, subsystem_words
from prnotes import contract
from prnotes.model import site as model
from prnotes.project import load
from prnotes.render import digests, paging, prindex, symbols, watchlist
from tests.support.sandbox import convert, copy_project, sphinx_build

NEW_DIGEST = """vllm-project/vllm

调度器按优先级抢占 (#90001)

值得精读。结合 #90002 看抢占后 `Scheduler._preempt` 的重算路径，后续跟进 `vllm/v1/core/sched/` 的拆分。

采样器合并 top-k kernel (#90002)

值得快速浏览：改动集中在 `vllm/v1/sample/sampler.py`。

CI 为多模态测试加分片 (#90003)

建议 CI 维护者阅读：按时长切分 `tests/models/multimodal/`。
"""
# Page sizes of the split site: (module, name, value).
SMALL = (
    (model, "VOLUME_NOTES", 20),
    (paging, "NOTE_PAGE", 2),
    (watchlist, "INLINE_FOLLOWUPS", 5),
    (watchlist, "FOLLOWUP_PAGE", 3),
    (prindex, "INLINE_NUMBERS", 5),
    (prindex, "PR_PAGE", 9),
    (symbols, "INLINE_SYMBOLS", 5),
    (symbols, "SYMBOL_PAGE", 4),
    (digests, "DIGEST_PAGE", 3),
)


def html(proj: Path, docname: str) -> str:
    page = (proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8")
    return page.split('<article class="bd-article">', 1)[1].split("</article>", 1)[0]


def title_links(page: str) -> list[str]:
    """Note pages a list links by title (the note's own page name), in order."""
    return re.findall(r'href="[^"]*/(pr-\d+|t-[0-9a-f]{12})\.html"><span class="std std-doc">', page)


def list_items(page: str) -> int:
    """The entries of the page's lists."""
    return len(re.findall(r'<li class="[^"]*(?:prnotes-note|prnotes-followup-entry|no-search)[^"]*"', page))


def parts(proj: Path, docname: str) -> list[str]:
    """A list page and its full pages (``<docname>/p<k>``), by number."""
    found = [docname]
    folder = proj / "_build/html" / docname
    if folder.is_dir():
        found += sorted((f"{docname}/{p.stem}" for p in folder.glob("p*.html")), key=lambda d: int(d.rsplit("/p", 1)[1]))
    return found


def _build_split(proj: Path, seeds: dict[str, str]):
    """``seeds`` converted and built from nothing with the page sizes of
    :data:`SMALL`: ``(project, site)``."""
    with pytest.MonkeyPatch.context() as mp:
        for module, name, value in SMALL:
            mp.setattr(module, name, value)
        copy_project(proj, seeds)
        assert convert(proj) == 0
        app = sphinx_build(proj, freshenv=True)
        assert app.warning.getvalue() == ""
        return proj, load(proj)


@pytest.fixture(scope="module")
def split_archive(tmp_path_factory):
    """110 notes of the dense archive in digests of 10, every list in several
    pages: ``(project, site)``. The re-read test adds digests to it."""
    return _build_split(tmp_path_factory.mktemp("split") / "p", generate_dense(110, per_file=10))


@pytest.fixture(scope="module")
def split_site(split_archive, tmp_path_factory):
    """The split archive's pages as first built, kept aside from the digests
    the re-read test adds: ``(folder with _build/html, site)``."""
    proj, site = split_archive
    kept = tmp_path_factory.mktemp("split-pages")
    shutil.copytree(proj / "_build" / "html", kept / "_build" / "html")
    return kept, site


def test_the_archive_has_several_volumes(split_site):
    _, site = split_site
    assert len(site.volumes) >= 3


def _check_pages(proj: Path, docname: str, size: int) -> list[str]:
    """The list's pages: every full page holds exactly ``size`` entries, the list's own 1 to ``size``."""
    found = parts(proj, docname)
    counts = [list_items(html(proj, part)) for part in found]
    assert all(c == size for c in counts[1:]), (docname, counts)
    assert 1 <= counts[0] <= size, (docname, counts)
    return found


def test_subsystem_pages_list_each_note_once(split_site):
    proj, site = split_site
    paged = 0
    for sub in site.subsystems:
        notes = site.in_subsystem(sub.key)
        if not notes:
            continue
        found = _check_pages(proj, contract.subsystem_docname(sub.key), 2)
        paged += len(found) > 1
        listed = Counter(n for part in found for n in title_links(html(proj, part)))
        assert listed == Counter(n.docname.rsplit("/", 1)[1] for n in notes), sub.slug
    assert paged


def test_reading_list_and_tag_pages_list_each_note_once(split_site):
    proj, site = split_site
    pages = {contract.verdict_docname(v): [n for n in site.notes if n.verdict == v] for v in ("close", "skim", "optional")}
    for docname, notes in pages.items():
        assert len(notes) > 2, docname
        found = _check_pages(proj, docname, 2)
        listed = Counter(n for part in found for n in title_links(html(proj, part)))
        assert listed == Counter(n.docname.rsplit("/", 1)[1] for n in notes), docname
        # Pages by arrival: each full page's notes arrived before the next page's.
        digest_of = {n.docname.rsplit("/", 1)[1]: site.digest_of(n).number for n in notes}
        spans = [[digest_of[n] for n in title_links(html(proj, part))] for part in found[1:] + found[:1]]
        assert all(max(a) <= min(b) for a, b in zip(spans, spans[1:])), docname


def test_watch_list_pages_list_each_follow_up_once(split_site):
    proj, site = split_site
    for sub in site.subsystems:
        notes = [n for n in site.in_subsystem(sub.key) if n.follow_ups]
        if not notes:
            continue
        found = _check_pages(proj, contract.watchlist_docname(sub.key), 3)
        # Each item links the sentence it comes from: the note, at #followup-<k>.
        seen = Counter()
        for part in found:
            seen.update(re.findall(r'href="[^"]*/(pr-\d+|t-[0-9a-f]{12})\.html#(followup-\d+)"', html(proj, part)))
        assert seen == Counter((n.docname.rsplit("/", 1)[1], f"followup-{i}") for n in notes for i in range(1, len(n.follow_ups) + 1))


def test_pr_index_pages_list_each_number_once(split_site):
    proj, site = split_site
    own = Counter()
    numbers = Counter()
    for repo in DENSE_REPOS:
        found = _check_pages(proj, contract.pr_list_docname(repo), 9)
        assert len(found) > 1
        for part in found:
            page = html(proj, part)
            # Each item: the number, then its note's title if it has one.
            own.update(re.findall(r'<li[^>]*><p><span class="prnotes-ref"><a[^>]*href="[^"]*/(pr-\d+)\.html"', page))
            numbers.update((repo, n) for n in re.findall(r'<li[^>]*><p><span class="prnotes-ref">.*?/(?:pull|issues)/(\d+)"', page))
    assert own == Counter(n.docname.rsplit("/", 1)[1] for n in site.notes if n.number is not None)
    assert set(numbers.values()) == {1}


def test_symbol_index_pages_hold_every_symbol_once(split_site):
    proj, site = split_site
    names = Counter()
    for page in (proj / "_build/html" / contract.SYMBOLS).glob("*.html"):
        docname = f"{contract.SYMBOLS}/{page.stem}"
        for part in _check_pages(proj, docname, 4):
            names.update(re.findall(r'<li[^>]*><p><code class="docutils literal notranslate"><span class="pre">([^<]+)</span>', html(proj, part)))
    expected = {s.name for n in site.notes for s in n.symbols}
    assert expected and {n.replace(" ", "") for n in names} == {n.replace(" ", "") for n in expected}
    assert set(names.values()) == {1}


def test_archive_pages_list_each_digest_once(split_site):
    proj, site = split_site
    archive = parts(proj, contract.DIGESTS_INDEX)
    assert len(archive) == (len(site.digests) - 1) // 3 + 1
    listed = Counter()
    for part in archive:
        listed.update(re.findall(r'<li[^>]*><p><a class="reference internal" href="(?:\.\./)?([^"/]+)\.html"', html(proj, part)))
    assert listed == Counter(d.docname.rsplit("/", 1)[1] for d in site.digests)
    # The archive's own page holds the newest digests, newest first.
    newest = [d.docname.rsplit("/", 1)[1] for d in site.digests[(len(site.digests) - 1) // 3 * 3 :]]
    first = re.findall(r'<li[^>]*><p><a class="reference internal" href="([^"/]+)\.html"', html(proj, contract.DIGESTS_INDEX))
    assert first == newest[::-1]


def test_old_addresses_redirect_to_the_page_that_holds_their_first_entry(split_site):
    proj, site = split_site
    out = proj / "_build/html"
    redirects = [p for p in sorted(out.glob("notes/**/v*.html")) if re.fullmatch(r"v\d+", p.stem)]
    redirects += sorted(out.glob(f"{contract.PR_INDEX}/*-[0-9]*.html"))
    assert len(redirects) > 10
    for path in redirects:
        text = path.read_text(encoding="utf-8")
        target = re.search(r'<meta http-equiv="refresh" content="0; url=([^"]+)">', text).group(1)
        assert (path.parent / target).resolve().is_file(), path
    # The first volume of a subsystem leads to the page of its oldest note.
    sub = next(s for s in site.subsystems if (out / contract.subsystem_docname(s.key) / "v1.html").exists())
    oldest = min(site.in_subsystem(sub.key), key=lambda n: (site.digest_of(n).number, n.position))
    page = out / contract.subsystem_docname(sub.key) / "v1.html"
    target = re.search(r'url=([^"]+)"', page.read_text(encoding="utf-8")).group(1)
    assert oldest.docname.rsplit("/", 1)[1] in title_links((page.parent / target).read_text(encoding="utf-8"))


def _new_digest(first: int) -> str:
    """:data:`NEW_DIGEST` with the numbers ``first`` to ``first + 2``."""
    text = NEW_DIGEST
    for k in (3, 2, 1):
        text = text.replace(f"#9000{k}", f"#{first + k - 1}")
    return text


# Seven notes that bring an archive of 33 (or 113) notes to a full volume of
# 40 (or 120), filed under the scheduler like NEW_DIGEST's first note.
FILLER = "vllm-project/vllm\n\n" + "".join(
    f"调度器补充说明第 {k} 篇 (#{90100 + k})\n\n值得快速浏览：`Scheduler` 的第 {k} 处小改动。\n\n" for k in range(7)
)


def _build_counting(proj: Path, digest: str, name: str) -> tuple[set[str], set[str]]:
    """Add ``digest`` as ``seeds/<name>``, convert and build: the documents
    read, and the pages the digest added."""
    before = {p.relative_to(proj).with_suffix("").as_posix() for p in (proj / "notes").rglob("*.md")}
    (proj / "seeds" / name).write_text(digest, encoding="utf-8")
    assert convert(proj) == 0
    after = {p.relative_to(proj).with_suffix("").as_posix() for p in (proj / "notes").rglob("*.md")}
    read: list[str] = []
    app = sphinx_build(proj, listeners=[("env-before-read-docs", lambda app, env, docs: read.extend(docs))])
    assert app.warning.getvalue() == ""
    return set(read), after - before


HUB_DIRS = tuple(
    f"{d}/" for d in (contract.DIGESTS_DIR, "notes/subsystem", contract.READING_DIR, contract.TAGS_DIR,
                      contract.WATCHLIST, contract.SYMBOLS, contract.PR_INDEX)
) + (contract.WATCHLIST, contract.SYMBOLS, contract.PR_INDEX, contract.BOOK_ROOT, contract.FEEDS_PAGE)  # fmt: skip


def _check_bounded(read: set[str], added: set[str], first: int) -> int:
    new_notes = {f"notes/vllm-project/vllm/pr-{first + k}" for k in range(3)}
    # The new notes, and pages that list or count them; no other note.
    assert new_notes <= read
    assert {d for d in read if contract.is_note_docname(d)} == new_notes
    assert not {d for d in read - new_notes if d != "index" and not d.startswith(HUB_DIRS)}, sorted(read)
    # A full page never changes: none is read again (a page that fills today is new).
    old_parts = {d for d in read if re.search(r"/p\d+$", d)} - added
    assert not old_parts, sorted(old_parts)
    return len(read)


# Pages of a few entries (SMALL), digests of 10, both archives dense. On an
# ordinary day the new digest joins the newest volume (30 and 110 notes); on
# the day a volume opens (40 and 120) it starts a new one, and every list
# gains the redirect of the closed volume's old page. Either way, nearly four
# times the archive is about the same work, and no full page is read again.
# Each archive has both days: the ordinary one, seven notes that fill the
# volume, then the day that opens the next. The larger archive is the split
# archive the tests above read; asking for split_site first has its pages
# copied aside before this test adds to them.
def test_a_new_digest_rereads_a_bounded_number_of_pages(split_archive, split_site, tmp_path, monkeypatch):
    small = _build_split(tmp_path / "n30", generate_dense(30, per_file=10))
    for module, name, value in SMALL:
        monkeypatch.setattr(module, name, value)
    ordinary, opening = [], []
    for proj, site in (small, split_archive):
        size = len(site.notes)
        ordinary.append(_check_bounded(*_build_counting(proj, _new_digest(90001), "997_new.txt"), 90001))
        _build_counting(proj, FILLER, "998_filler.txt")
        assert len(load(proj).notes) == size + 10 and (size + 10) % model.VOLUME_NOTES == 0
        opening.append(_check_bounded(*_build_counting(proj, _new_digest(90011), "999_new.txt"), 90011))
    # What grows is only which lists happen to fill a page today.
    for counts in (ordinary, opening):
        assert counts[1] <= counts[0] + 8, counts
        assert max(counts) <= 60, counts


def test_the_benchmark_corpus_files_every_note_under_a_rule(tmp_path, capsys):
    """A benchmark measures an archive the conversion files cleanly: no note
    of the synthetic corpus falls to 其他 with a warning (vLLM's own names stay
    in vLLM's digests)."""
    proj = copy_project(tmp_path / "p", generate(1000, per_file=16))
    capsys.readouterr()
    assert convert(proj, "--strict") == 0
    assert "no subsystem rule matches" not in capsys.readouterr().err


def test_the_dense_corpus_is_as_dense_as_a_busy_repository(tmp_path, capsys):
    """The dense benchmark archive: several repositories, consecutive numbers,
    four or more references per note, every subsystem, some notes without a
    number, follow-ups and symbols; filed without a warning."""
    proj = copy_project(tmp_path / "p", generate_dense(600))
    capsys.readouterr()
    assert convert(proj, "--strict") == 0
    assert "no subsystem rule matches" not in capsys.readouterr().err
    site = load(proj)
    assert len(site.notes) == 600
    assert set(site.repos) == set(DENSE_REPOS)
    for repo in DENSE_REPOS:
        numbers = sorted(n.number for n in site.notes if n.repo == repo and n.number is not None)
        gaps = Counter(b - a for a, b in zip(numbers, numbers[1:]))
        # About 87 % of the steps are 1 by construction (9 in 10 numbers follow
        # the last, 3 % of notes have none); 150 notes of a repository vary.
        assert gaps[1] >= 0.7 * len(numbers), (repo, gaps)
        filed = {n.subsystem_slug for n in site.notes if n.repo == repo}
        assert filed == {slug for slug, _ in subsystem_words(repo)}, repo
    assert all(len(n.mentions) >= 4 for n in site.notes)
    assert 0 < sum(n.number is None for n in site.notes) < 60
    assert sum(bool(n.follow_ups) for n in site.notes) > 300
    assert sum(bool(n.symbols) for n in site.notes) == 600
    # Each noted PR is mentioned about four times, by notes of other digests too.
    noted = [(n.repo, n.number) for n in site.notes if n.number is not None]
    assert sum(len(site.mentioned_by.get(k, ())) for k in noted) >= 3 * len(noted)


def test_a_dense_day_continues_the_archive(tmp_path):
    """A day's digest of the dense archive: ten notes from every repository, in files that sort after the archive's."""
    archive = generate_dense(200)
    day = dense_day(200)
    added = sorted(set(day) - {"prs.toml"})
    assert added and min(added) > max(set(archive) - {"prs.toml"})
    assert {text.split("\n", 1)[0] for name, text in day.items() if name in added} == set(DENSE_REPOS)
    proj = copy_project(tmp_path / "p", {**archive, **day})
    assert convert(proj, "--strict") == 0
    site = load(proj)
    assert len(site.notes) == 210
    # The archive's own notes are the same as without the day.
    alone = load(copy_project(tmp_path / "q", archive))
    assert {n.docname for n in alone.notes} <= {n.docname for n in site.notes}
