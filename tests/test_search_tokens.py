"""The search term splitter (Python side) and the search language."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prnotes.sphinxext.search.language import SearchPrnotes
from prnotes.sphinxext.search import tradsimp
from prnotes.sphinxext.search.tokens import STOPWORDS, fold, normalize, tokens


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("前缀缓存", ["前缀", "缀缓", "缓存"]),
        ("前缀 缓存", ["前缀", "缓存"]),
        ("拆", ["拆"]),
        ("ROCm CI 竞态", ["rocm", "ci", "竞态"]),
        ("草稿token", ["草稿", "token"]),
        ("resolve_none_hash_seed", ["resolve_none_hash_seed", "resolvenonehashseed", "resolv", "non", "hash", "seed"]),
        ("run_ci_command.py", ["run_ci_command.py", "runcicommand", "run", "ci", "command", "py"]),
        # An identifier stays whole; its parts fold like words.
        ("MambaHybridModelState", ["mambahybridmodelstate", "mamba", "hybrid", "model", "stat"]),
        # A piece joined by "_" or "-" also gives itself written solid, folded as a word.
        ("all-reduce", ["all-reduce", "allreduc", "all", "reduc"]),
        ("block-wise blockwise", ["block-wise", "blockwis", "block", "wis"]),
        ("fp8-e4m3", ["fp8-e4m3", "fp8e4m3", "fp8", "e4m3"]),
        ("max_completion_tokens", ["max_completion_tokens", "maxcompletiontoken", "max", "completion", "token"]),
        ("#52810 与 52810", ["#52810", "与"]),
        ("拆 3 个", ["拆", "个"]),
        ("ＲＯＣｍ（#4770）", ["rocm", "#4770"]),
        ("cpu_platform_plugin()", ["cpu_platform_plugin", "cpuplatformplugin", "cpu", "platform", "plugin"]),
        # Inflection folds on words; traditional characters become simplified.
        ("Caching cached caches cache", ["cach"]),
        ("Prevent Git maintenance races", ["prevent", "git", "maintenanc", "rac"]),
        ("前綴緩存 投機解碼", ["前缀", "缀缓", "缓存", "投机", "机解", "解码"]),
        ("gpu_sync_allowed syncs", ["gpu_sync_allowed", "gpusyncallow", "gpu", "sync", "allow"]),
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
    assert {fold(p) for p in parts[i:j]} <= set(indexed)
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


# Inflection: each row folds to one term; the browser test folds the same words.
FOLDS = [
    ("cache", "caches", "cached", "caching"),
    ("race", "races", "raced", "racing"),
    ("sync", "syncs", "synced", "syncing"),
    ("quantize", "quantizes", "quantized", "quantizing"),
    ("run", "runs", "running"),
    ("dependency", "dependencies"),
    ("shard", "shards", "sharded", "sharding"),
    ("embedding", "embeddings", "embedded"),
    ("install", "installs", "installed", "installing"),
    ("process", "processes", "processed", "processing"),
]


@pytest.mark.parametrize("words", FOLDS)
def test_inflections_fold_to_one_term(words):
    assert len({fold(w) for w in words}) == 1, [fold(w) for w in words]


@pytest.mark.parametrize(
    ("word", "folded"),
    [
        # Stop words, short words, and endings that are part of the word.
        ("does", "does"), ("this", "this"), ("was", "was"), ("use", "use"), ("ci", "ci"),
        ("class", "class"), ("status", "status"), ("analysis", "analysis"), ("alias", "alias"),
        ("speed", "speed"), ("need", "need"), ("bring", "bring"),
        # Derivations are not inflections.
        ("quantization", "quantization"), ("scheduler", "scheduler"),
        # Identifiers and numbers are not words.
        ("x86", "x86"), ("Cached", "Cached"),
    ],
)
def test_fold_leaves_stop_words_short_words_and_word_endings_alone(word, folded):
    assert fold(word) == folded


@given(st.from_regex(r"[a-z]{1,12}", fullmatch=True))
def test_fold_never_grows_a_word_nor_touches_stop_words(word):
    assert len(fold(word)) <= len(word)
    assert fold(word) == word or word not in STOPWORDS


def test_traditional_characters_fold_to_simplified():
    assert normalize("前綴緩存、投機解碼、競態、淺克隆、權重") == "前缀缓存、投机解码、竞态、浅克隆、权重"
    assert tokens("前綴緩存") == tokens("前缀缓存")
    # Simplified text is not touched, nor is the rest.
    simplified = "前缀缓存、投机解码、什么、着、后、里、发、只 KV cache #52810"
    assert normalize(simplified) == simplified


def test_the_traditional_table_is_generated_from_opencc_and_current():
    committed = tradsimp.table()
    generated = tradsimp.generate()
    assert generated == committed, "run: .venv/bin/python -m prnotes.sphinxext.search.tradsimp"
    trad, simp = committed["traditional"], committed["simplified"]
    assert len(trad) == len(simp) > 2000
    assert all(t != s for t, s in zip(trad, simp))  # only characters that differ
    assert list(trad) == sorted(set(trad))
    assert normalize(simp) == simp  # folding twice changes nothing
