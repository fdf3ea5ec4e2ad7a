"""The page contract: rename a section or a field in prnotes.contract, and the
converter, the Sphinx extension and the search follow it."""

from __future__ import annotations

import json
import re

import pytest

from prnotes import contract
from prnotes.build.audit import audit
from tests.support.sandbox import convert, copy_project, sphinx_build

SEEDS = {
    "000_a.txt": (
        "o/r\n\n"
        "CI 门禁提速 (#52810)\n\n"
        "值得精读。把 `run_ci.py` 拆成两段。建议关注后续是否有 #52811 的跟进 PR。\n\n"
        "平台选择修复 (#52811)\n\n"
        "值得快速浏览，提到 #52810。\n"
    ),
    "prs.toml": '["o/r"]\n',
}
RENAMED = {
    "ADVICE_SECTION": "读法",
    "RELATED_SECTION": "关联笔记",
    "FOLLOWUPS_SECTION": "留意",
    "PR_FIELD": "拉取请求",
    "UPSTREAM_FIELD": "英文标题",
    "DIGEST_FIELD": "出自",
}


@pytest.fixture(scope="module")
def _renamed_build(tmp_path_factory):
    """SEEDS built once with the names of RENAMED."""
    with pytest.MonkeyPatch.context() as mp:
        for name, value in RENAMED.items():
            mp.setattr(contract, name, value)
        proj = copy_project(tmp_path_factory.mktemp("renamed") / "p", SEEDS)
        assert convert(proj) == 0
        app = sphinx_build(proj, freshenv=True)
    assert app.warning.getvalue() == ""
    return proj, app


@pytest.fixture
def renamed_site(_renamed_build, monkeypatch):
    """The renamed build, with RENAMED in force while the test reads it."""
    for name, value in RENAMED.items():
        monkeypatch.setattr(contract, name, value)
    return _renamed_build


def page(proj, docname: str) -> str:
    return (proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8")


def test_note_page_uses_the_new_names(renamed_site):
    proj, _ = renamed_site
    html = page(proj, "notes/o/r/pr-52810")
    for old, new in (("阅读建议", "读法"), ("相关", "关联笔记"), ("待跟进", "留意"), ("收录于", "出自")):
        assert new in html, new
        assert f">{old}<" not in html, old
    assert re.search(r"<dt[^>]*>拉取请求", html)


def test_summaries_follow_the_renamed_advice_section(renamed_site):
    # The digest page shows each note's first sentence, read from the advice section.
    proj, _ = renamed_site
    html = page(proj, "notes/digests/000_a")
    assert "把 <code" in html and "拆成两段" in html
    assert 'content="把 run_ci.py 拆成两段。"' in page(proj, "notes/o/r/pr-52810")


def test_watch_list_follows_the_renamed_box(renamed_site):
    proj, _ = renamed_site
    files = [proj / "_build/html/notes/followups.html", *(proj / "_build/html/notes/followups").glob("**/*.html")]
    watch = "".join(p.read_text(encoding="utf-8") for p in files if p.is_file())
    assert "的跟进 PR" in watch


def test_search_follows_the_renamed_fields_and_sections(renamed_site):
    proj, _ = renamed_site
    text = (proj / "_build/html/searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    doc = index["docnames"].index("notes/o/r/pr-52810")
    # The PR field ranks like the title; the related-notes list is left out.
    assert doc in _as_list(index["titleterms"]["#52810"])
    other_title = "平台选择修复"
    assert all(doc not in _as_list(docs) for term, docs in index["terms"].items() if term in other_title)


def test_the_audit_follows_them_too(renamed_site):
    proj, _ = renamed_site
    assert audit(proj).ok


def _as_list(value) -> list[int]:
    return value if isinstance(value, list) else [value]


def test_a_subsystem_title_two_repositories_share_is_told_apart_by_its_repository():
    labels = contract.subsystem_labels({
        "vllm-project/vllm/quant": "量化", "sgl-project/sglang/quant": "量化", "sgl-project/sglang/kv": "KV 缓存",
    })  # fmt: skip
    assert labels == {
        "vllm-project/vllm/quant": "量化（vllm-project/vllm）",
        "sgl-project/sglang/quant": "量化（sgl-project/sglang）",
        "sgl-project/sglang/kv": "KV 缓存",
    }
    # One repository's keys have no repository in them, and its titles are its own.
    assert contract.subsystem_labels({"quant": "量化", "kv": "KV 缓存"}) == {"quant": "量化", "kv": "KV 缓存"}
