"""The search term splitter (Python side) and the search language."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prnotes.sphinxext.search.language import SearchPrnotes
from prnotes.sphinxext.search.tokens import tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("前缀缓存", ["前缀", "缀缓", "缓存"]),
        ("前缀 缓存", ["前缀", "缓存"]),
        ("拆", ["拆"]),
        ("ROCm CI 竞态", ["rocm", "ci", "竞态"]),
        ("草稿token", ["草稿", "token"]),
        ("resolve_none_hash_seed", ["resolve_none_hash_seed", "resolve", "none", "hash", "seed"]),
        ("run_ci_command.py", ["run_ci_command.py", "run", "ci", "command", "py"]),
        ("MambaHybridModelState", ["mambahybridmodelstate", "mamba", "hybrid", "model", "state"]),
        ("all-reduce", ["all-reduce", "all", "reduce"]),
        ("#52810 与 52810", ["#52810", "与"]),
        ("拆 3 个", ["拆", "个"]),
        ("ＲＯＣｍ（#4770）", ["rocm", "#4770"]),
        ("cpu_platform_plugin()", ["cpu_platform_plugin", "cpu", "platform", "plugin"]),
        ("a, b, <script>", ["script"]),
    ],
)
def test_tokens(text, expected):
    assert tokens(text) == expected


CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)


@given(st.text(CJK, min_size=2, max_size=30), st.data())
def test_unspaced_chinese_query_terms_are_terms_of_any_text_containing_it(text, data):
    start = data.draw(st.integers(0, len(text) - 2))
    end = data.draw(st.integers(start + 2, len(text)))
    assert set(tokens(text[start:end])) <= set(tokens(text))


@given(st.lists(st.text(CJK, min_size=1, max_size=6), min_size=1, max_size=5))
def test_spaced_chinese_query_terms_are_terms_of_the_unspaced_text(words):
    spaced = [w for w in words if len(w) >= 2]
    assert set(tokens(" ".join(spaced))) <= set(tokens("".join(words)))


@given(st.from_regex(r"[a-z]{2,6}(_[a-z]{2,6}){1,4}", fullmatch=True), st.data())
def test_a_run_of_identifier_parts_is_found_in_the_identifier(ident, data):
    parts = ident.split("_")
    i = data.draw(st.integers(0, len(parts) - 1))
    j = data.draw(st.integers(i + 1, len(parts)))
    query = "_".join(parts[i:j])
    indexed = tokens(ident)
    # Each part is a term of the identifier, so a part ranks as a whole word.
    assert set(parts[i:j]) <= set(indexed)
    # search.js finds a query term as a term, or (longer than two characters)
    # inside a longer term: a run of parts inside the whole identifier.
    for term in tokens(query):
        assert term in indexed or (len(term) > 2 and any(term in t for t in indexed)), (term, indexed)


@given(st.text(max_size=60))
def test_tokens_are_deterministic_and_unique(text):
    out = tokens(text)
    assert out == tokens(text)
    assert len(out) == len(set(out))
    assert all(out)


def test_language_keeps_numbers_and_does_not_stem():
    lang = SearchPrnotes({})
    assert lang.word_filter(lang.stem("#52810"))
    assert lang.stem("Races") == "races"
    assert lang.stem("前缀") == "前缀"
    assert not lang.word_filter("the")
