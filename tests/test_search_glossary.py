"""The search glossary (search/glossary.toml): its data and its loader."""

from __future__ import annotations

import functools
import re

import pytest

from prnotes.diagnostics import InputError
from prnotes.sphinxext.search import glossary
from prnotes.sphinxext.search.language import SearchPrnotes
from prnotes.sphinxext.search.tokens import normalize, tokens
from tests.support.sandbox import FIXTURE, TAXONOMY


@functools.cache
def _wording_texts() -> tuple[str, ...]:
    """What the notes and the site say: the fixture project's seed entries
    (titles, advice) and upstream titles, and the taxonomy (taxonomy.toml and taxonomy/: subsystem names,
    descriptions, filing words). The fixture, not seeds/: seeds/ changes with
    every digest, and a deleted digest must not fail the suite."""
    texts: list[str] = []
    taxonomy = [TAXONOMY / "taxonomy.toml", *sorted((TAXONOMY / "taxonomy").glob("*.toml"))]
    for path in sorted((FIXTURE / "seeds").glob("*.txt")) + [FIXTURE / "seeds/prs.toml", *taxonomy]:
        texts += path.read_text(encoding="utf-8").splitlines()
    return tuple(texts)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", normalize(text).lower())


def test_the_glossary_has_at_least_80_pairs():
    entries = glossary.load().entries
    assert len(entries) >= 80
    assert sum(len(e.wordings) for e in entries) >= 80


@pytest.mark.parametrize("entry", glossary.load().entries, ids=lambda e: e.english)
def test_each_chinese_side_is_the_notes_wording_and_its_terms_match_there(entry):
    lang = SearchPrnotes({})
    lines = _wording_texts()
    for wording in entry.wordings:
        terms = tokens(wording)
        assert terms and all(lang.word_filter(t) for t in terms), (wording, terms)
        found = [line for line in lines if _squash(wording) in _squash(line)]
        assert found, f"{wording!r} ({entry.english}) occurs nowhere in the fixture's seeds or the taxonomy"
        # A line that has the wording has every term the query side makes of it.
        assert any(set(terms) <= set(tokens(line)) for line in found), (wording, terms, found[:2])
    assert glossary.phrase_units(entry.english)


def test_phrase_units_ignore_spacing_case_inflection_and_script():
    units = glossary.phrase_units
    assert units("前缀 缓存") == units("前缀缓存") == units("前綴緩存") == list("前缀缓存")
    assert units("Prefix-Caching") == units("prefix cache") == ["prefix", "cach"]
    assert units("mixture of experts") == ["mixtur", "expert"]
    assert units("KV 缓存") == ["kv", "缓", "存"]
    assert units("PR 52810") == ["pr", "#52810"]


BAD = [
    ('[terms]\n"kv cache" = 3\n', 2, "must be a string or a non-empty list"),
    ('[terms]\n"kv cache" = []\n', 2, "must be a string or a non-empty list"),
    ('[terms]\n"ok" = "好"\n"前缀缓存" = "prefix caching"\n', 3, "must be an English term"),
    ('[terms]\n"of the" = "的"\n', 2, "must be an English term"),
    ('[terms]\n"prefix caching" = "前缀缓存"\n\n"prefix cache" = "前缀缓存"\n', 4, "same term as line 2"),
    ('[terms]\n"race" = ["竞态", "、"]\n', 2, "'、' has no search terms"),
    ('[terms]\n"race" = "Races"\n', 2, "is the term itself"),
    ('[terms]\n"race" = ["竞态", "競態"]\n', 2, "listed twice"),
    ('[terms]\n"race" = "竞态"\n\n[extra]\n', 4, "unknown key 'extra'"),
    ('[terms]\n"race" = "竞态"\n"crash" = \n', 3, "invalid TOML"),
    ('terms = 1\n', 1, "no [terms] table"),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD)
def test_a_malformed_glossary_is_rejected_with_file_and_line(text, line, message):
    with pytest.raises(InputError) as caught:
        glossary.parse("search/glossary.toml", text.encode())
    report = str(caught.value)
    assert f"search/glossary.toml:{line}: " in report and message in report, report


def test_a_good_glossary_is_read_in_order_and_written_for_the_script():
    text = '[terms]\n"race condition" = "竞态"\n"mixture of experts" = ["MoE", "混合专家"]\n'
    parsed = glossary.parse("g.toml", text.encode())
    assert [(e.english, e.wordings, e.line) for e in parsed.entries] == [
        ("mixture of experts", ("MoE", "混合专家"), 3),
        ("race condition", ("竞态",), 2),
    ]
    assert parsed.js() == 'const PRNOTES_GLOSSARY = [["mixture of experts",["MoE","混合专家"]],["race condition",["竞态"]]];\n'


def test_a_malformed_glossary_stops_the_build_naming_its_line(tmp_path, monkeypatch):
    from sphinx.errors import ExtensionError

    from tests.support.sandbox import convert, copy_project, sphinx_build

    bad = '[terms]\n"race" = "竞态"\n"prefix cache" = "前缀缓存"\n"prefix caching" = "前缀缓存"\n'

    def load():
        return glossary.parse("search/glossary.toml", bad.encode())

    monkeypatch.setattr(glossary, "load", load)
    proj = copy_project(tmp_path / "p")
    assert convert(proj) == 0
    with pytest.raises(ExtensionError, match=r"search/glossary.toml:4: 'prefix caching': the same term as line 3"):
        sphinx_build(proj)
