"""Atomic output: bad input writes nothing; a killed run is repaired by the next."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.sandbox import convert, copy_project

SEEDS = {
    "000_a.txt": "o/r\n\nA CI (#1)\n\n值得精读。见 #2。\n\nB CI (#2)\n\n值得精读。\n\nC 平台\n\n值得快速浏览：ROCm。\n",
    "001_b.txt": "o/s\n\nD CI (#7)\n\n值得精读。CI 门禁。\n",
    "prs.toml": '["o/r"]\n"C 平台" = { number = 3, upstream_title = "[ROCm] C" }\n',
}
NEW_SEEDS = {
    "000_a.txt": "o/r\n\nA CI (#1)\n\n值得精读。改过了。\n\nC 平台\n\n值得快速浏览：ROCm。\n",
    "002_c.txt": "o/t\n\nE CI (#9)\n\n值得精读。提到 o/r#1。\n",
}


def tree(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of a project except its inputs, with content and mtime."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        # The conversion's cache and lock are its own state, not its output.
        if path.is_file() and not path.is_symlink() and not rel.startswith(("seeds/", "scripts/", ".prnotes")):
            out[rel] = (path.read_bytes(), path.stat().st_mtime_ns)
    return out


def contents(root: Path) -> dict[str, bytes]:
    return {rel: data for rel, (data, _) in tree(root).items() if rel != "taxonomy.toml"}


@pytest.fixture
def converted(tmp_path) -> Path:
    proj = copy_project(tmp_path / "p", SEEDS)
    assert convert(proj) == 0
    return proj


def _bad_seed(p: Path) -> None:
    (p / "seeds/000_a.txt").write_text(SEEDS["000_a.txt"] + "\n孤零零的标题\n", encoding="utf-8")


def _bad_prs(p: Path) -> None:
    (p / "seeds/prs.toml").write_text('["o/r"]\n"C 平台" = { number = "3" }\n', encoding="utf-8")


def _bad_taxonomy(p: Path) -> None:
    (p / "taxonomy.toml").write_text('[[subsystem]]\nslug = "ci"\ntitle = "CI"\n', encoding="utf-8")


def _duplicate_across_files(p: Path) -> None:
    (p / "seeds/002_dup.txt").write_text("o/r\n\nZ (#2)\n\n值得精读。\n", encoding="utf-8")


def _shared_page(p: Path) -> None:
    (p / "seeds/002_dup.txt").write_text("o/r.\n\nZ (#1)\n\n值得精读。\n", encoding="utf-8")


def _invalid_utf8(p: Path) -> None:
    (p / "seeds/002_bin.txt").write_bytes(b"o/r\n\n\xff\n\nx\n")


def _foreign_page_in_the_way(p: Path) -> None:
    # A new entry whose page exists but was written by hand.
    (p / "seeds/002_new.txt").write_text("o/r\n\nN CI (#5)\n\n值得精读。\n", encoding="utf-8")
    (p / "notes/o/r/pr-5.md").write_text("# 手写\n", encoding="utf-8")


@pytest.mark.parametrize(
    "breakage",
    [_bad_seed, _bad_prs, _bad_taxonomy, _duplicate_across_files, _shared_page, _invalid_utf8, _foreign_page_in_the_way],
    ids=lambda f: f.__name__.strip("_"),
)
@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_invalid_input_leaves_every_file_as_it_was(converted, breakage, strict):
    # Also change a valid seed, so a run that wrote anything would show.
    (converted / "seeds/001_b.txt").write_text("o/s\n\nD CI (#7)\n\n值得精读。改了。\n", encoding="utf-8")
    breakage(converted)
    before = tree(converted)
    assert convert(converted, *(["--strict"] if strict else [])) == 1
    assert tree(converted) == before
    assert "index.md" in before and "notes/pr-index.md" in before


def test_strict_warning_leaves_every_file_as_it_was(converted):
    (converted / "seeds/001_b.txt").write_text("o/s\n\nD CI (#7)\n\n没有结论的一段话，CI。\n", encoding="utf-8")
    before = tree(converted)
    assert convert(converted, "--strict") == 1
    assert tree(converted) == before
    assert convert(converted) == 0  # only a warning without --strict
    assert tree(converted) != before


class Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs, not even ``except Exception``."""


def reference(tmp_path: Path, seeds: dict[str, str]) -> dict[str, bytes]:
    ref = copy_project(tmp_path / "ref", seeds)
    assert convert(ref) == 0
    return contents(ref)


def use_seeds(root: Path, seeds: dict[str, str]) -> None:
    for path in (root / "seeds").iterdir():
        path.unlink()
    for name, text in seeds.items():
        (root / "seeds" / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("when", ["before-rename", "after-rename"])
@pytest.mark.parametrize("kill_at", [0, 3, -1], ids=["first", "fourth", "last"])
@pytest.mark.parametrize("next_seeds", ["same", "reverted"])
def test_killed_run_is_repaired_by_the_next(converted, tmp_path, monkeypatch, when, kill_at, next_seeds):
    from prnotes.write import files as write

    use_seeds(converted, NEW_SEEDS)
    to_write = write.plan(converted, _pages(converted)).write
    assert len(to_write) >= 5
    target = to_write[kill_at]
    real_replace = os.replace

    def dying_replace(src, dst):
        if Path(dst).relative_to(converted).as_posix() == target:
            if when == "after-rename":
                real_replace(src, dst)
            raise Killed
        real_replace(src, dst)

    monkeypatch.setattr(write.os, "replace", dying_replace)
    with pytest.raises(Killed):
        convert(converted)
    monkeypatch.undo()
    if when == "before-rename":
        assert list(converted.rglob(f"*{write.TMP_SUFFIX}"))
    # The next run may see the same seeds, or the old ones again (then the
    # file the killed run was writing is current and is not written again).
    if next_seeds == "reverted":
        use_seeds(converted, SEEDS)
    expected = reference(tmp_path, NEW_SEEDS if next_seeds == "same" else SEEDS)
    assert convert(converted) == 0
    assert contents(converted) == expected
    assert not list(converted.rglob(f"*{write.TMP_SUFFIX}"))


def _pages(root: Path) -> dict[str, str]:
    from prnotes.project import load
    from prnotes.render import render_pages

    return render_pages(load(root)).pages


@pytest.mark.parametrize("fail_at", [0, 3, -1], ids=["first", "fourth", "last"])
def test_a_page_the_disk_will_not_replace_leaves_every_page_as_it_was(converted, monkeypatch, capsys, fail_at):
    """Renaming the new pages into place fails for one of them (an immutable
    file, say): the pages already replaced go back, and the new folders go."""
    from prnotes.write import files as write

    use_seeds(converted, NEW_SEEDS)
    plan = write.plan(converted, _pages(converted))
    assert len(plan.write) >= 5 and plan.remove
    target = plan.write[fail_at]
    before = tree(converted)
    real_replace = os.replace

    def refusing_replace(src, dst):
        if Path(dst).relative_to(converted).as_posix() == target:
            raise PermissionError(1, "Operation not permitted")
        real_replace(src, dst)

    monkeypatch.setattr(write.os, "replace", refusing_replace)
    assert convert(converted) == 1
    monkeypatch.undo()
    assert f"cannot replace {target}: Operation not permitted; every file is as it was" in capsys.readouterr().err
    assert tree(converted) == before
    assert not list(converted.rglob(f"*{write.TMP_SUFFIX}"))
