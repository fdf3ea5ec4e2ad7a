"""The search index a build writes: terms, title terms, no jieba."""

from __future__ import annotations

import json
import re
from pathlib import Path


from prnotes.sphinxext.search.tokens import fold, tokens
from tests.support.sandbox import convert, copy_project, sphinx_build

SEEDS = {
    "000.txt": "o/r\n\n默认固定种子，跨节点前缀缓存开箱即用\n\n值得精读。核心是 `resolve_none_hash_seed`，并且 prefix 一词只在正文。修復 caching 競態。\n\n"
    "禁用自动维护 (#456)\n\n值得精读，结合 #123 看。\n",
    "prs.toml": '["o/r"]\n"默认固定种子，跨节点前缀缓存开箱即用" = { number = 123, upstream_title = "[Core] Make NONE_HASH deterministic" }\n',
}


def load_index(outdir: Path) -> dict:
    text = (outdir / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text.removeprefix("Search.setIndex(").removesuffix(")"))


def docs_of(mapping: dict, term: str) -> set[int]:
    value = mapping.get(term, [])
    return {value} if isinstance(value, int) else set(value)


def test_index_terms(tmp_path):
    proj = copy_project(tmp_path / "p", SEEDS)
    assert convert(proj) == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    assert "jieba" not in app.status.getvalue().lower()
    index = load_index(app.outdir)
    note = index["docnames"].index("notes/o/r/pr-123")
    titleterms, terms = index["titleterms"], index["terms"]
    # Page title: bigrams.
    for term in ("前缀", "缀缓", "缓存", "跨节"):
        assert note in docs_of(titleterms, term), term
    # Upstream title and PR number count as title terms, and only as those.
    for term in ("none_hash", fold("none"), "hash", "deterministic", "#123"):
        assert note in docs_of(titleterms, term), term
        assert note not in docs_of(terms, term), term
    # Body: identifier whole and in parts, English words.
    for term in ("resolve_none_hash_seed", fold("resolve"), "seed", "prefix"):
        assert note in docs_of(terms, term), term
    # Inflection and traditional characters are folded in the index too.
    for term in ("cach", "修复", "竞态"):
        assert note in docs_of(terms, term), term
    for term in ("caching", "修復", "競態"):
        assert term not in terms and term not in titleterms, term
    assert note not in docs_of(titleterms, "prefix")
    # Lists that repeat other notes' titles are not indexed: the 相关 section
    # of #456 and the hub pages' lists name #123's title, but only #123 has it.
    for term in ("跨节", "开箱"):
        assert docs_of(terms, term) | docs_of(titleterms, term) == {note}, term
    other = index["docnames"].index("notes/o/r/pr-456")
    assert other in docs_of(terms, "#123")  # the advice text's own reference stays
    # Written as UTF-8, not as \\uXXXX escapes.
    raw = (app.outdir / "searchindex.js").read_text(encoding="utf-8")
    assert "前缀" in raw and "\\u524d" not in raw


def test_field_lists_and_badges_stay_out_of_the_index_but_the_subsystem(tmp_path):
    proj = copy_project(tmp_path / "p", SEEDS)
    assert convert(proj) == 0
    app = sphinx_build(proj)
    index = load_index(app.outdir)
    note = index["docnames"].index("notes/o/r/pr-123")
    everywhere = lambda term: docs_of(index["terms"], term) | docs_of(index["titleterms"], term)  # noqa: E731
    # Field names, on every note page, and the 在 GitHub 上打开 link are not indexed.
    for term in ("收录", "仓库", "打开"):
        assert note not in everywhere(term), term
    html = (app.outdir / "notes/o/r/pr-123.html").read_text(encoding="utf-8")
    assert "收录于" in html and "在 GitHub 上打开" in html and '<section class="prnotes-advice"' in html
    # The subsystem's name (its badge) stays searchable.
    subsystem = re.search(r'<span class="prnotes-subsystem"><a[^>]*><span[^>]*>([^<]+)<', html).group(1)
    for term in tokens(subsystem):
        assert note in everywhere(term.lower()), term
