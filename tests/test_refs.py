"""Splitting advice text into text, code spans and PR references."""

from __future__ import annotations


import pytest

from prnotes.parse.refs import Code, Ref, Text, code_spans, plain_text, segment
from bench.bounds import closed_far_away, never_closed

ALIASES = (("aiter", "ROCm/aiter"),)


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("见 #12。", (Text("见 "), Ref("#12", "o/r", 12), Text("。"))),
        ("`#52626`（x）", (Ref("#52626", "o/r", 52626, code=True), Text("（x）"))),
        ("a/b#3 与 #4", (Ref("a/b#3", "a/b", 3), Text(" 与 "), Ref("#4", "o/r", 4))),
        (
            "aiter 侧缺陷（issue #4770）；二是 #49925",
            (
                Text("aiter 侧缺陷（issue "),
                Ref("#4770", "ROCm/aiter", 4770, kind="issues"),
                Text("）；二是 "),
                Ref("#49925", "o/r", 49925),
            ),
        ),
        ("&#12; x#5 #0 #abc", (Text("&#12; x#5 #0 #abc"),)),
        ("PR#12修复", (Text("PR#12修复"),)),
        ("`x` and ``a`b``", (Code("x"), Text(" and "), Code("a`b"))),
        ("unclosed `tick", (Text("unclosed `tick"),)),
        ("`` x ` y", (Text("`` x ` y"),)),
    ],
    ids=["hash", "code-ref", "owner-repo", "alias-clause", "not-refs", "glued", "code", "unclosed", "mismatched"],
)
def test_segment(text, pieces):
    assert segment(text, "o/r", ALIASES) == pieces


def test_plain_text_round_trips_except_backticks():
    text = "a `b` c #1 `#2`"
    assert plain_text(segment(text, "o/r")) == "a b c #1 #2"


def test_hostile_runs_pair_as_commonmark_says():
    text = closed_far_away(1000)
    spans = code_spans(text)
    assert len(spans) == 1000 // 51  # a span holds its opener, the 49 runs inside and its closer
    for start, end, width in spans:
        assert text[start : start + width] == text[end - width : end] == "`" * width
    # Only the single backticks pair up, two by two.
    spans = code_spans(never_closed(1000))
    assert len(spans) == 500 and {w for _, _, w in spans} == {1}
