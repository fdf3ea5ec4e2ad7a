"""Renderers on models held in memory: no disk, no Sphinx."""

from __future__ import annotations

import pytest

from prnotes.render.myst import code, escape


def test_note_page_snapshot(pages, file_regression):
    file_regression.check(pages["notes/vllm-project/vllm/pr-51368.md"], extension=".md")


def test_subsystem_page_snapshot(pages, file_regression):
    file_regression.check(pages["notes/subsystem/spec-decode.md"], extension=".md")


def test_one_page_per_entry_plus_indexes(pages):
    notes = [p for p in pages if p.startswith("notes/vllm-project/")]
    assert len(notes) == 16
    assert {"index.md", "notes/pr-index.md", "notes/subsystem/ci.md"} <= set(pages)
    assert list(pages) == sorted(pages)


def test_every_page_starts_with_the_marker(pages):
    assert all(text.startswith("% prnotes: generated from ") for text in pages.values())


def test_backlink_and_mention(pages):
    text = pages["notes/vllm-project/vllm/pr-51368.md"]
    assert "{pr}`#52626 <vllm-project/vllm#52626>`" in text.split("## 相关")[1]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{eval-rst}", "\\{eval\\-rst\\}"),
        ("<script>", "\\<script\\>"),
        ("a\nb", "a b"),
        ("中文，全角", "中文，全角"),
        ("back\\slash", "back\\\\slash"),
    ],
)
def test_escape(text, expected):
    assert escape(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("x", "`x`"), ("a`b", "``a`b``"), ("`a", "`` `a ``"), (" a ", "`  a  `"), ("a\nb", "`a b`")],
)
def test_code(text, expected):
    assert code(text) == expected
