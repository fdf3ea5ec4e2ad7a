"""The conversion cache: a run renders only the note pages whose inputs changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from prnotes.write import cache
from prnotes.model.taxonomy import source_bytes
from prnotes.render import note as note_renderer
from tests.support.sandbox import convert, copy_project

SEEDS = {
    "000_a.txt": "o/r\n\nA CI 门禁 (#1)\n\n值得精读。结合 #2 看。\n\nB 平台选择 (#2)\n\n值得快速浏览，ROCm。\n",
    "001_b.txt": "o/r\n\nC 前缀缓存 (#3)\n\n值得精读，独立的一篇。\n",
}


@pytest.fixture
def counted(monkeypatch) -> list[str]:
    """The docnames of the note pages rendered from now on."""
    rendered: list[str] = []
    real = note_renderer.render_note

    def counting(note, site, links=True):
        rendered.append(note.docname)
        return real(note, site, links)

    monkeypatch.setattr("prnotes.render.render_note", counting)
    return rendered


@pytest.fixture
def project(tmp_path) -> Path:
    proj = copy_project(tmp_path / "p", SEEDS)
    assert convert(proj) == 0
    return proj


def test_second_run_renders_no_note(project, counted):
    assert convert(project) == 0
    assert counted == []


def test_a_new_digest_renders_its_notes_and_the_notes_it_links(project, counted):
    (project / "seeds/002_c.txt").write_text("o/r\n\nD 新 CI 流水线 (#4)\n\n值得精读。接着 #3 做。\n", encoding="utf-8")
    assert convert(project) == 0
    # #4 is new; #3 gains a back-link. #1 and #2 are untouched.
    assert sorted(counted) == ["notes/o/r/pr-3", "notes/o/r/pr-4"]


def test_the_run_after_a_new_digest_renders_and_rewrites_nothing(project, counted):
    """A note analysed in one run and loaded from the cache in the next has the same page key."""
    entries = [f"新增调度路径 {i} 的抢占统计 (#{10 + i})\n\n值得精读。重点看 `Scheduler._preempt_{i}` 的重算路径，结合 #{10 + (i + 1) % 3} 看。后续跟进 `vllm/v1/core/sched/` 的拆分。" for i in range(3)]
    (project / "seeds/002_c.txt").write_text("o/r\n\n" + "\n\n".join(entries) + "\n", encoding="utf-8")
    assert convert(project) == 0
    saved = (project / cache.CACHE_NAME).stat().st_mtime_ns
    counted.clear()
    assert convert(project) == 0
    assert counted == []
    assert (project / cache.CACHE_NAME).stat().st_mtime_ns == saved


def test_an_edited_body_renders_that_note_and_the_notes_that_show_its_title(project, counted):
    seed = project / "seeds/000_a.txt"
    seed.write_text(seed.read_text(encoding="utf-8").replace("B 平台选择", "B 平台选择改名"), encoding="utf-8")
    assert convert(project) == 0
    # #2's title changed: #2 itself, and #1, which lists it among the PRs it mentions.
    assert sorted(counted) == ["notes/o/r/pr-1", "notes/o/r/pr-2"]


def test_a_page_changed_by_hand_is_written_again(project, counted):
    page = project / "notes/o/r/pr-3.md"
    original = page.read_text(encoding="utf-8")
    page.write_text(original + "\n手改\n", encoding="utf-8")
    assert convert(project) == 0
    assert counted == ["notes/o/r/pr-3"]
    assert page.read_text(encoding="utf-8") == original


def test_another_taxonomy_is_another_cache(project, counted):
    taxonomy = project / "taxonomy.toml"
    taxonomy.write_text(taxonomy.read_text(encoding="utf-8") + "\n# a comment changes nothing but the bytes\n", encoding="utf-8")
    assert convert(project) == 0
    assert sorted(counted) == ["notes/o/r/pr-1", "notes/o/r/pr-2", "notes/o/r/pr-3"]


@pytest.mark.parametrize("damage", [b"", b"not a pickle", b"\x80\x05K\x01."], ids=["empty", "garbage", "other-object"])
def test_a_damaged_cache_is_an_empty_one(project, counted, damage):
    (project / cache.CACHE_NAME).write_bytes(damage)
    before = {p: p.read_bytes() for p in sorted((project / "notes").rglob("*.md"))}
    assert convert(project) == 0
    assert len(counted) == 3
    assert {p: p.read_bytes() for p in sorted((project / "notes").rglob("*.md"))} == before


def test_the_cache_keeps_only_what_the_archive_holds(project):
    (project / "seeds/001_b.txt").unlink()
    assert convert(project) == 0
    kept = cache.load(project, _version(project))
    assert len(kept.analyses) == 2 and len(kept.seeds) == 1
    assert set(kept.pages) == {"notes/o/r/pr-1.md", "notes/o/r/pr-2.md"}


def _version(project: Path) -> str:
    return cache.code_version(source_bytes(project))
