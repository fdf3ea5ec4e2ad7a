"""The split index (search/split.py, search/publish.py): what the browser loads
holds exactly what the whole index holds, and the build writes it as it must."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prnotes import contract
from prnotes.sphinxext.search import split
from prnotes.sphinxext.search.publish import ENTRY, SEARCH_DIR, text_path
from tests.support.sandbox import ROOTS, convert, copy_project, sphinx_build

SCRIPT = Path(split.__file__).with_name("index.js")


def decode_ids(text: str) -> list[int]:
    """The inverse of :func:`split.encode_ids`, as index.js reads it."""
    ids: list[int] = []
    previous, value = -1, 0
    for c in text:
        more = split.MORE.find(c)
        if more >= 0:
            value = (value << 5) | more
            continue
        previous += ((value << 5) | split.LAST.index(c)) + 1
        ids.append(previous)
        value = 0
    return ids


@given(st.lists(st.integers(0, 2**40), unique=True))
def test_page_numbers_round_trip(ids):
    ids = sorted(ids)
    text = split.encode_ids(ids)
    assert decode_ids(text) == ids
    assert set(text) <= set(split.LAST + split.MORE)


def test_page_numbers_are_gaps_in_base_32():
    assert split.encode_ids([0, 1, 2, 40]) == "000x5"
    assert split.encode_ids([]) == ""


def load_whole(html: Path) -> dict:
    text = (html / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text.removeprefix("Search.setIndex(").removesuffix(")"))


def load_split(html: Path) -> tuple[dict, dict[str, object]]:
    root = html / SEARCH_DIR
    entry = json.loads((root / ENTRY).read_text(encoding="utf-8"))
    folder = root / entry["version"]
    files = {p.relative_to(folder).as_posix(): json.loads(p.read_text(encoding="utf-8")) for p in folder.rglob("*.json")}
    return entry, files


def _ids(value) -> list[int]:
    return sorted([value] if isinstance(value, int) else value)


def test_the_split_holds_exactly_the_whole_index(built_site):
    proj, _ = built_site
    html = proj / "_build/html"
    whole = load_whole(html)
    entry, files = load_split(html)
    # Pages: every page once, notes first, each group by title then docname.
    rows = [row for k in range(-(-entry["pages"] // entry["shard"])) for row in files[f"d/{k}.json"]]
    docnames = [r[0] for r in rows]
    assert sorted(docnames) == sorted(whole["docnames"]) and entry["pages"] == len(docnames)
    notes = [contract.is_note_docname(d) for d in docnames]
    assert notes == sorted(notes, reverse=True) and sum(notes) == entry["notes"]
    title = dict(zip(whole["docnames"], whole["titles"]))
    for group in (rows[: entry["notes"]], rows[entry["notes"] :]):
        assert [(r[1], r[0]) for r in group] == sorted((title[r[0]], r[0]) for r in group)
    assert all(r[1] == title[r[0]] for r in rows)
    # Terms: each in the chunk its hash names, with the same pages.
    number = {d: i for i, d in enumerate(docnames)}
    expected: dict[str, list[list[int]]] = {}
    for slot, key in ((0, "titleterms"), (1, "terms")):
        for term, value in whole[key].items():
            pages = sorted(number[whole["docnames"][i]] for i in _ids(value))
            if pages:
                expected.setdefault(term, [[], []])[slot] = pages
    found = {}
    for k in range(entry["chunks"]):
        chunk = dict(files[f"t/{k}.json"])
        # The dictionary's words (tests/test_search_fallback.py), each in the chunk its hash names.
        for word in chunk.pop(split.DICTIONARY_KEY, {}):
            assert split.bucket_of(word, entry["chunks"]) == k, word
        for term, (t, b, *_pairs) in chunk.items():  # pairs: tests/test_search_fallback.py
            assert split.bucket_of(term, entry["chunks"]) == k, term
            found[term] = [decode_ids(t), decode_ids(b)]
    assert found == expected
    # Key buckets: every ASCII term in the bucket of each of its grams, in the
    # lists of the maps that hold it; nothing else.
    buckets = [files[f"g/{k}.json"] for k in range(len(entry["buckets"]))]
    assert entry["buckets"] == [len(set(b["t"]) | set(b["b"])) for b in buckets]
    listed = {(k, slot, term) for k, b in enumerate(buckets) for slot in "tb" for term in b[slot]}
    wanted = {
        (split.bucket_of(g, len(buckets)), slot, term)
        for term, (t, b) in expected.items()
        if split.is_ascii_term(term)
        for g in split.grams(term)
        for slot, pages in (("t", t), ("b", b))
        if pages
    }
    assert listed == wanted
    # Hub pages that repeat a hub page's title point to it.
    for later, first in entry["sameTitle"]:
        assert rows[later][1] == rows[first][1] and entry["notes"] <= first < later


def decode(code: str) -> int:
    number = 0
    for character in code:
        number = number * len(split.CODES) + split.CODES.index(character)
    return number


@pytest.mark.parametrize("values", [1, 91, 92, 8281, 8282])
def test_a_filter_of_many_values_codes_each_page_wider(values):
    """Many repositories' subsystems are more than 91 values: two characters a page."""
    width = split.code_width(values)
    assert width == (1 if values <= 91 else 2 if values <= 91 * 91 else 3)
    codes = [split.filter_code(n, width) for n in range(values)]
    assert {len(c) for c in codes} == {width} and len(set(codes)) == values
    assert [decode(c) for c in codes] == list(range(values))
    assert split.NO_CODE * width not in codes


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the search's index.js")
def test_the_search_script_reads_the_codes_the_split_writes():
    values = [f"s{n}" for n in range(100)]
    codes = "".join(split.filter_code(n, 2) for n in (0, 99, 91)) + split.NO_CODE * 2
    script = (SCRIPT.read_text(encoding="utf-8") + f"""
const view = {{entry: {{filters: {{subsystem: {json.dumps(values)}}}}}, _file: () => {json.dumps(codes)}}};
console.log(JSON.stringify([0, 1, 2, 3].map((p) => PrnotesIndex.prototype.filterValue.call(view, "subsystem", p))));""")
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == ["s0", "s99", "s91", None]


def test_an_archive_of_more_repositories_than_one_character_codes_builds(tmp_path):
    """95 repositories, a note each: the repository filter codes each page in two characters."""
    seeds = {f"{k:03d}.txt": f"o{k}/r\n\n第 {k} 号仓库的修复 (#{k + 1})\n\n值得快速浏览。`src/a{k}.py` 修了一处边界。\n" for k in range(95)}
    proj = copy_project(tmp_path / "p", seeds)
    assert convert(proj) == 0
    sphinx_build(proj)
    entry, files = load_split(proj / "_build/html")
    assert len(entry["filters"]["repo"]) == 95
    assert len(files["f/repo.json"]) == 2 * entry["pages"]


def test_filters_and_rows_give_each_notes_facts(built_site):
    proj, _ = built_site
    html = proj / "_build/html"
    entry, files = load_split(html)
    rows = [row for k in range(-(-entry["pages"] // entry["shard"])) for row in files[f"d/{k}.json"]]
    for name, at in (("verdict", 2), ("repo", 3), ("subsystem", 6)):
        codes = files[f"f/{name}.json"]
        values = [v[0] if isinstance(v, list) else v for v in entry["filters"][name]]
        width = split.code_width(len(values))
        assert len(codes) == width * entry["pages"]
        for k, row in enumerate(rows):
            code = codes[k * width : (k + 1) * width]
            if len(row) == 2:
                assert code == split.NO_CODE * width
            else:
                assert values[decode(code)] == row[at]
    assert entry["filters"]["verdict"] == ["精读", "速读", "按需"]
    page = (html / "notes/vllm-project/vllm/pr-52810.html").read_text(encoding="utf-8")
    row = next(r for r in rows if r[0] == "notes/vllm-project/vllm/pr-52810")
    assert row[2:5] == ["精读", "vllm-project/vllm", 52810]
    assert f'<span class="prnotes-date">{row[5]}</span>' in page
    assert row[6] == "ci"


def test_each_page_has_its_snippet_text(built_site):
    proj, _ = built_site
    html = proj / "_build/html"
    whole = load_whole(html)
    for docname in whole["docnames"]:
        assert (html / SEARCH_DIR / text_path(docname)).is_file(), docname
    advice = (html / SEARCH_DIR / text_path("notes/vllm-project/vllm/pr-52810")).read_text(encoding="utf-8")
    assert advice.startswith("值得精读") and "git_fetch_with_timeout" in advice
    for furniture in ("阅读建议", "仓库", "上游标题", "收录于", "相关"):
        assert furniture not in advice
    landing = (html / SEARCH_DIR / text_path("index")).read_text(encoding="utf-8")
    assert landing and not landing.startswith("PR 精读笔记")


def _tree(root: Path) -> dict[str, tuple[int, bytes]]:
    return {p.relative_to(root).as_posix(): (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_build_without_changes_rewrites_nothing_and_a_removed_page_leaves(tmp_path):
    seeds = ROOTS / "search" / "seeds"
    proj = copy_project(tmp_path / "p", seeds)
    assert convert(proj) == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    root = proj / "_build/html" / SEARCH_DIR
    before = _tree(root)
    sphinx_build(proj)
    assert _tree(root) == before
    # A digest goes: its notes' texts, and the old version of the index, go too.
    (proj / "seeds/001_beta.txt").unlink()
    assert convert(proj) == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    after = _tree(root)
    assert text_path("notes/p/beta/pr-4242") in before and text_path("notes/p/beta/pr-4242") not in after
    old = json.loads(before[ENTRY][1])["version"]
    new = json.loads(after[ENTRY][1])["version"]
    assert old != new and not any(p.startswith(f"{old}/") for p in after)
    assert not [p for p in after if p.endswith(".prnotes-tmp")]
    # The same as a clean build of what is left.
    clean = copy_project(tmp_path / "clean", proj / "seeds")
    assert convert(clean) == 0
    sphinx_build(clean)
    assert {p: b for p, (_, b) in after.items()} == {p: b for p, (_, b) in _tree(clean / "_build/html" / SEARCH_DIR).items()}


def test_the_search_is_not_on_the_pages(built_site):
    proj, _ = built_site
    html = proj / "_build/html"
    for page in [html / "index.html", html / "search.html", *sorted(html.glob("notes/vllm-project/vllm/*.html"))[:3]]:
        text = page.read_text(encoding="utf-8")
        for script in ("searchtools.js", "language_data.js", "searchindex.js", "sphinx_highlight.js"):
            assert script not in text, (page, script)
        assert text.count("prnotesSearchStart") == 1, page
    assert os.path.getsize(html / SEARCH_DIR / ENTRY) < 4000
