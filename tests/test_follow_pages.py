"""What the pages give the reader's browser for read marks and filters
(sphinxext/readmarks.py, sphinxext/filters.py, the entries of sphinxext/lists.py),
pinned on the follow fixture (tests/roots/follow); the browser side is
tests/test_follow_browser.py."""

from __future__ import annotations

import posixpath
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from prnotes import contract
from prnotes.model.classify import verdict_rank
from prnotes.project import load

KEYS = ("pr", "verdict", "repo", "subsystem", "digest")


def soup(proj: Path, docname: str) -> BeautifulSoup:
    return BeautifulSoup((proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8"), "html.parser")


def entries(page: BeautifulSoup) -> list[dict[str, str]]:
    return [{k: li[f"data-{k}"] for k in KEYS} for li in page.select("article li.prnotes-note")]


@pytest.fixture(scope="module")
def model(follow_site):
    return load(follow_site[0])


def expected_entry(model, docname: str) -> dict[str, str]:
    note = model.by_docname[docname]
    verdict = {"close": "精读", "skim": "速读", "optional": "按需"}.get(note.verdict or "", "")
    return {
        "pr": f"{note.repo}#{note.number}" if note.number is not None else f"{note.repo}#{docname.rsplit('/', 1)[1]}",
        "verdict": verdict,
        "repo": note.repo,
        "subsystem": note.subsystem,
        "digest": str(model.digest_of(note).number),
    }


def test_every_entry_of_a_digest_page_names_its_note(follow_site, model):
    proj, _ = follow_site
    for digest in model.digests:
        # In reading order: 精读, 速读, 按需, then none; seed order within each.
        ordered = sorted(digest.notes, key=lambda d: (verdict_rank(model.by_docname[d].verdict), model.by_docname[d].position))
        assert entries(soup(proj, digest.docname)) == [expected_entry(model, d) for d in ordered]


def test_a_note_without_a_pr_number_is_named_after_its_page(follow_site, model):
    proj, _ = follow_site
    (note,) = [n for n in model.notes if n.number is None]
    key = f"sgl-project/sglang#{note.docname.rsplit('/', 1)[1]}"
    assert key.startswith("sgl-project/sglang#t-") and len(key.rsplit("-", 1)[1]) == 12
    page = soup(proj, model.digest_of(note).docname)
    assert [e["pr"] for e in entries(page) if e["pr"].startswith("sgl-project/sglang#t-")] == [key]
    assert soup(proj, note.docname).find("meta", attrs={"name": "prnotes-note"})["content"] == key


@pytest.mark.parametrize(
    "docname",
    ["index", contract.subsystem_docname("sgl-project/sglang/mem-cache"), contract.verdict_docname("close"), contract.tag_docname("llama")],
)
def test_every_list_of_notes_has_the_hooks(follow_site, model, docname):
    proj, _ = follow_site
    page = soup(proj, docname)
    items = page.select("article ul.prnotes-list-notes > li, article ul.prnotes-list-today > li")
    assert items and all("prnotes-note" in li["class"] for li in items)
    for item, entry in zip(items, entries(page)):
        href = item.select_one("a.reference.internal")["href"]
        target = posixpath.normpath(posixpath.join(posixpath.dirname(docname), href.removesuffix(".html")))
        assert entry == expected_entry(model, target)


def test_follow_up_entries_carry_their_notes_facts(follow_site, model):
    proj, _ = follow_site
    items = soup(proj, contract.WATCHLIST).select("article li.prnotes-followup-entry")
    assert items
    for item in items:
        assert item["data-pr"] in {expected_entry(model, d)["pr"] for d in model.by_docname}
        assert "prnotes-note" not in item["class"]


def test_each_note_page_names_its_note_and_digest(follow_site, model):
    proj, _ = follow_site
    for note in model.notes:
        meta = soup(proj, note.docname).find_all("meta", attrs={"name": "prnotes-note"})
        entry = expected_entry(model, note.docname)
        assert [(m["content"], m["data-digest"]) for m in meta] == [(entry["pr"], entry["digest"])]
    assert soup(proj, "index").find("meta", attrs={"name": "prnotes-note"}) is None


def test_the_landing_page_has_the_counts_of_the_newest_digests_hidden(follow_site, model):
    proj, _ = follow_site
    (box,) = soup(proj, "index").select("article div.prnotes-since")
    # Empty, for the script to fill; the theme hides it without JavaScript.
    assert "pst-js-only" in box["class"] and not box.has_attr("hidden") and box.get_text() == ""
    counts = [(d.number, len(d.notes)) for d in reversed(model.digests)]
    assert box["data-digests"] == " ".join(f"{n}:{c}" for n, c in counts) == "4:4 3:3 2:4 1:4"
    # A first visit counts 今日 (digests 3 and 4, the newest day); the count links to 未读.
    assert box["data-today"] == "3" and box["data-unread"] == "notes/unread.html"


def test_the_read_marks_script_is_deferred_on_every_page(follow_site):
    proj, _ = follow_site
    for docname in ("index", "search", contract.SYMBOLS, "notes/vllm-project/vllm/pr-70101"):
        scripts = [s for s in soup(proj, docname).find_all("script", src=True) if "prnotes-readmarks.js" in s["src"]]
        assert len(scripts) == 1 and scripts[0].has_attr("defer"), docname
    assert (proj / "_build/html/_static/prnotes-readmarks.js").is_file()


def controls(page: BeautifulSoup) -> dict[str, list[tuple[str, str]]]:
    (form,) = page.select("article form.prnotes-filters")
    # On the page from the start, the theme hides it without JavaScript; 只看未读 always.
    assert "pst-js-only" in form["class"] and not form.has_attr("hidden")
    assert [(i["name"], i["value"], i["type"]) for i in form.find_all("input")] == [("unread", "1", "checkbox")]
    return {s["name"]: [(o["value"], o.get_text()) for o in s.find_all("option")] for s in form.find_all("select")}


def test_a_subsystem_page_filters_by_verdict_only(follow_site, model):
    """Each repository has its own subsystems, so a subsystem page is one
    repository's: it filters by verdict, and has no repository control."""
    proj, _ = follow_site
    assert len(model.repos) > 1
    mixed = [s for s in model.subsystems if len({n.verdict for n in model.in_subsystem(s.key)}) > 1]
    assert mixed
    for sub in model.subsystems:
        found = controls(soup(proj, sub.docname)) if sub in mixed else {}
        assert set(found) <= {"verdict"}, sub.key
    sub = mixed[0]
    verdicts = {n.verdict for n in model.in_subsystem(sub.key)}
    shown = [t for v, t in (("close", "精读"), ("skim", "速读"), ("optional", "按需")) if v in verdicts]
    assert controls(soup(proj, sub.docname)) == {"verdict": [("", "全部结论"), *((t, t) for t in shown)]}


def test_a_reading_list_filters_by_subsystem_in_the_sites_order_before_its_first_section(follow_site, model):
    proj, _ = follow_site
    page = soup(proj, contract.verdict_docname("close"))
    found = controls(page)
    assert list(found) == ["repo", "subsystem"]  # every note of it is 精读
    order = [s.key for s in model.subsystems]
    slugs = [v for v, _ in found["subsystem"][1:]]
    assert slugs == sorted({n.subsystem for n in model.notes if n.verdict == "close"}, key=order.index)
    assert found["subsystem"][1][1] == model.subsystem(slugs[0]).title
    form = page.select_one("form.prnotes-filters")
    # Not inside the first subsystem's section, which the filters may hide.
    assert form.find_parent("section").find_parent("section") is None
    assert form.find_next_sibling("section") is not None


def test_filters_load_their_script_only_where_there_is_a_form(follow_site):
    proj, _ = follow_site
    for docname, expected in (("index", True), (contract.subsystem_docname("sgl-project/sglang/mem-cache"), True), (contract.SYMBOLS, False),
                              ("notes/vllm-project/vllm/pr-70101", False)):  # fmt: skip
        page = soup(proj, docname)
        scripts = [s for s in page.find_all("script", src=True) if "prnotes-filters.js" in s["src"]]
        assert bool(scripts) == expected == bool(page.select("form.prnotes-filters")), docname
        assert all(s.has_attr("defer") for s in scripts)
