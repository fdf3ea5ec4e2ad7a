"""The site as the archive grows: split hub pages, and what a new digest costs.

Sizes here are small; the thresholds that split pages are lowered so that a
site of a few dozen notes has several volumes, PR-number ranges and
symbol-index parts. The figures at 1,000 to 5,000 notes are in BENCHMARKS.md.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from bench.corpus import DENSE_REPOS, dense_day, generate, generate_dense, subsystem_words
from prnotes import contract, model
from prnotes.project import load
from prnotes.render import prindex, symbols, watchlist
from tests.support.sandbox import convert, copy_project, sphinx_build

NEW_DIGEST = """vllm-project/vllm

调度器按优先级抢占 (#90001)

值得精读。结合 #90002 看抢占后 `Scheduler._preempt` 的重算路径，后续跟进 `vllm/v1/core/sched/` 的拆分。

采样器合并 top-k kernel (#90002)

值得快速浏览：改动集中在 `vllm/v1/sample/sampler.py`。

CI 为多模态测试加分片 (#90003)

建议 CI 维护者阅读：按时长切分 `tests/models/multimodal/`。
"""


def html(proj: Path, docname: str) -> str:
    page = (proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8")
    return page.split('<article class="bd-article">', 1)[1].split("</article>", 1)[0]


def title_links(page: str) -> list[str]:
    """Note pages a list links by title (the note's own page name), in order."""
    return re.findall(r'href="[^"]*/(pr-\d+|t-[0-9a-f]{12})\.html"><span class="std std-doc">', page)


def parts(proj: Path, docname: str) -> list[str]:
    """A list page and its earlier parts (``<docname>/v<k>``)."""
    found = [docname]
    folder = proj / "_build/html" / docname
    if folder.is_dir():
        found += sorted(f"{docname}/{p.stem}" for p in folder.glob("v*.html"))
    return found


@pytest.fixture(scope="module")
def split_site(tmp_path_factory):
    """60 notes in volumes of 20, PR ranges of 200, symbol parts above 5 symbols, watch-list pages above 5 items."""
    mp = pytest.MonkeyPatch()
    mp.setattr(model, "VOLUME_NOTES", 20)
    mp.setattr(prindex, "RANGE", 200)
    mp.setattr(prindex, "INLINE_NUMBERS", 5)
    mp.setattr(symbols, "INLINE_SYMBOLS", 5)
    mp.setattr(watchlist, "INLINE_FOLLOWUPS", 5)
    try:
        proj = copy_project(tmp_path_factory.mktemp("split") / "p", generate(60, per_file=10))
        assert convert(proj) == 0
        app = sphinx_build(proj, freshenv=True)
        assert app.warning.getvalue() == ""
        site = load(proj)
    finally:
        mp.undo()
    return proj, site


def test_the_archive_has_several_volumes(split_site):
    _, site = split_site
    assert len(site.volumes) >= 3
    assert [v.notes for v in site.volumes[:-1]] == [20] * (len(site.volumes) - 1)


def test_subsystem_parts_list_each_note_once(split_site):
    proj, site = split_site
    for sub in site.subsystems:
        notes = site.in_subsystem(sub.key)
        if not notes:
            continue
        listed = Counter(n for part in parts(proj, contract.subsystem_docname(sub.key)) for n in title_links(html(proj, part)))
        assert listed == Counter(n.docname.rsplit("/", 1)[1] for n in notes), sub.slug


def test_reading_list_and_tag_parts_list_each_note_once(split_site):
    proj, site = split_site
    pages = {contract.verdict_docname(v): [n for n in site.notes if n.verdict == v] for v in ("close", "skim", "optional")}
    for tag in ("bugfix", "perf"):
        pages[contract.tag_docname(tag)] = [n for n in site.notes if tag in {t for t in n.tags} | set(n.secondary)]
    for docname, notes in pages.items():
        if not notes:
            continue
        listed = Counter(n for part in parts(proj, docname) for n in title_links(html(proj, part)))
        assert listed == Counter(n.docname.rsplit("/", 1)[1] for n in notes), docname


def test_watch_list_parts_list_each_note_with_follow_ups_once(split_site):
    proj, site = split_site
    for sub in site.subsystems:
        notes = [n for n in site.in_subsystem(sub.key) if n.follow_ups]
        if not notes:
            continue
        # Each item links the sentence it comes from: the note, at #followup-<k>.
        seen = Counter()
        for part in parts(proj, contract.watchlist_docname(sub.key)):
            seen.update(set(re.findall(r'href="[^"]*/(pr-\d+|t-[0-9a-f]{12})\.html#followup-\d+"', html(proj, part))))
        assert seen == Counter(n.docname.rsplit("/", 1)[1] for n in notes), sub.slug


def test_pr_index_ranges_list_each_note_once(split_site):
    proj, site = split_site
    ranges = sorted(p.stem for p in (proj / "_build/html" / contract.PR_INDEX).glob("*.html"))
    assert len(ranges) > 3
    own = Counter()
    for name in ranges:
        page = html(proj, f"{contract.PR_INDEX}/{name}")
        # Each item: the number, then its note's title if it has one.
        own.update(re.findall(r'<li[^>]*><p><span class="prnotes-ref"><a[^>]*href="[^"]*/(pr-\d+)\.html"', page))
    assert own == Counter(n.docname.rsplit("/", 1)[1] for n in site.notes if n.number is not None)


def test_symbol_index_parts_hold_every_symbol(split_site):
    proj, site = split_site
    names = {s.name for n in site.notes for s in n.symbols}
    shown = ""
    for page in (proj / "_build/html" / contract.SYMBOLS).glob("*.html"):
        shown += html(proj, f"{contract.SYMBOLS}/{page.stem}")
    found = set(re.findall(r'<li[^>]*><p><code class="docutils literal notranslate"><span class="pre">([^<]+)</span>', shown))
    assert names and {n.replace(" ", "") for n in names} == {f.replace(" ", "") for f in found}


def test_archive_parts_list_each_digest_once(split_site):
    proj, site = split_site
    archive = parts(proj, contract.DIGESTS_INDEX)
    assert len(archive) == len(site.volumes)
    listed = Counter()
    for part in archive:
        listed.update(re.findall(r'<li[^>]*><p><a class="reference internal" href="(?:\.\./)?([^"/]+)\.html"', html(proj, part)))
    assert listed == Counter(d.docname.rsplit("/", 1)[1] for d in site.digests)
    # The archive's own page holds the newest volume's digests only.
    newest = [d.docname.rsplit("/", 1)[1] for d in site.digests if d.volume == len(site.volumes)]
    first = re.findall(r'<li[^>]*><p><a class="reference internal" href="([^"/]+)\.html"', html(proj, contract.DIGESTS_INDEX))
    assert first == newest[::-1]


def _reread_after_a_digest(tmp_path: Path, notes: int) -> set[str]:
    proj = copy_project(tmp_path / f"n{notes}", generate(notes, per_file=10))
    assert convert(proj) == 0
    sphinx_build(proj, freshenv=True)
    (proj / "seeds/999_new.txt").write_text(NEW_DIGEST, encoding="utf-8")
    assert convert(proj) == 0
    read: list[str] = []
    app = sphinx_build(proj, listeners=[("env-before-read-docs", lambda app, env, docs: read.extend(docs))])
    assert app.warning.getvalue() == ""
    return set(read)


HUB_DIRS = tuple(
    f"{d}/" for d in (contract.DIGESTS_DIR, "notes/subsystem", contract.READING_DIR, contract.TAGS_DIR,
                      contract.WATCHLIST, contract.SYMBOLS, contract.PR_INDEX)
) + (contract.WATCHLIST, contract.SYMBOLS, contract.PR_INDEX, contract.BOOK_ROOT)  # fmt: skip


# Volumes of 20 notes, digests of 10. On an ordinary day the new digest joins
# the newest volume (30 and 130 notes); on the day a volume opens (40 and 140)
# it starts a new one. Either way, four times the archive (and five times the
# volumes) is about the same work.
@pytest.mark.parametrize("sizes", [(30, 130), (40, 140)], ids=["ordinary-day", "volume-opens"])
def test_a_new_digest_rereads_a_bounded_number_of_pages(tmp_path, sizes, monkeypatch):
    monkeypatch.setattr(model, "VOLUME_NOTES", 20)
    new_notes = {"notes/vllm-project/vllm/pr-90001", "notes/vllm-project/vllm/pr-90002", "notes/vllm-project/vllm/pr-90003"}
    counts = []
    for size in sizes:
        read = _reread_after_a_digest(tmp_path, size)
        # The new notes, and pages that list or count them; no other note.
        assert new_notes <= read
        assert {d for d in read if contract.is_note_docname(d)} == new_notes
        assert all(d == "index" or d.startswith(HUB_DIRS) for d in read - new_notes), sorted(read)
        # An earlier volume's part never changes (a new part may be added).
        old_parts = {d for d in read if re.search(r"/v\d+$", d)}
        assert len(old_parts) <= 12, sorted(old_parts)
        # The archive's parts: none on an ordinary day, the closed volume's on the day one opens.
        archive_parts = {d for d in read if d.startswith(contract.DIGESTS_INDEX + "/")}
        assert len(archive_parts) <= (size % 20 == 0), sorted(archive_parts)
        counts.append(len(read))
    # Only a new PR-number range or symbol part may be added.
    assert counts[1] <= counts[0] + 4, counts
    assert max(counts) <= 40, counts


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
        assert gaps[1] >= 0.8 * len(numbers), (repo, gaps)
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
