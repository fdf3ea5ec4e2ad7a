"""Benchmarks write their tables between markers and keep the prose around them."""

from __future__ import annotations

import pytest

from bench.markers import replace_between

B, E = "<!-- t: begin -->", "<!-- t: end -->"


def test_the_text_between_the_markers_is_replaced_and_the_prose_kept(tmp_path):
    path = tmp_path / "B.md"
    path.write_text(f"# B\n\nbefore\n\n{B}\nold\n{E}\n\nafter\n", encoding="utf-8")
    replace_between(path, B, E, "new table")
    assert path.read_text(encoding="utf-8") == f"# B\n\nbefore\n\n{B}\n\nnew table\n\n{E}\n\nafter\n"


def test_without_markers_a_section_is_appended_when_named(tmp_path):
    path = tmp_path / "B.md"
    path.write_text("# B\n\nprose\n", encoding="utf-8")
    replace_between(path, B, E, "rows", section="Search")
    assert path.read_text(encoding="utf-8") == f"# B\n\nprose\n\n## Search\n\n{B}\n\nrows\n\n{E}\n"


def test_without_markers_or_a_section_the_run_stops_and_says_where(tmp_path):
    path = tmp_path / "B.md"
    path.write_text("# B\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no <!-- t: begin -->"):
        replace_between(path, B, E, "rows")
    assert path.read_text(encoding="utf-8") == "# B\n"
