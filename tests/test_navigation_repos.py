"""Navigation on an archive of several repositories (issue 33): each
repository's own subsystems, grouped by repository, and a reader of one
repository's pages sees only that repository's areas.

The fixture project is ``tests/roots/filing`` (nine-note digests of PyTorch,
Transformers, SGLang and TensorRT-LLM, which has no set of its own) with the
two vLLM digests of ``tests/roots/vllm16``.
"""

from __future__ import annotations

import posixpath
import re
import shutil

import pytest
from bs4 import BeautifulSoup

from prnotes import contract
from prnotes.project import load
from tests.support.sandbox import ROOTS, convert, copy_project, sphinx_build

VLLM = "vllm-project/vllm"
REPOS = ["huggingface/transformers", "NVIDIA/TensorRT-LLM", "pytorch/pytorch", "sgl-project/sglang", VLLM]


@pytest.fixture(scope="module")
def several(tmp_path_factory):
    seeds = tmp_path_factory.mktemp("seeds") / "seeds"
    shutil.copytree(ROOTS / "filing" / "seeds", seeds)
    for path in (ROOTS / "vllm16" / "seeds").iterdir():
        shutil.copy2(path, seeds / path.name)
    proj = copy_project(tmp_path_factory.mktemp("several") / "p", seeds)
    assert convert(proj, "--strict") == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    return proj, load(proj)


def _html(proj, docname: str) -> BeautifulSoup:
    return BeautifulSoup((proj / "_build/html" / f"{docname}.html").read_text(encoding="utf-8"), "html.parser")


def _menu(page: BeautifulSoup) -> list[tuple[str, list[str]]]:
    """The header's 子系统 drop-down: (repository heading, subsystem titles) per part."""
    menu = page.select_one('.bd-header ul.dropdown-menu[id^="prnotes-menu-"]')
    parts: list[tuple[str, list[str]]] = []
    for li in menu.find_all("li", recursive=False):
        header = li.select_one(".prnotes-menu-part")
        if header is not None:
            parts.append((header.get_text(strip=True), []))
        else:
            if not parts:
                parts.append(("", []))
            parts[-1][1].append(li.get_text(strip=True))
    return parts


def _relative(from_doc: str, to_doc: str) -> str:
    return posixpath.relpath(f"{to_doc}.html", posixpath.dirname(from_doc))


def _sidebar_parts(page: BeautifulSoup) -> list[str]:
    nav = page.select_one(".bd-sidebar-primary .prnotes-sidenav")
    return [p.get_text(strip=True) for p in nav.select(".prnotes-sidenav__part")]


def test_each_repository_has_its_own_subsystem_pages(several):
    proj, site = several
    # Most notes first (vLLM's sixteen), ties by name (nine each).
    assert list(site.repos) == [VLLM, *sorted(set(REPOS) - {VLLM}, key=str.lower)]
    for repo in REPOS:
        chosen = site.taxonomy.set_for(repo)
        for sub in site.subsystems_of(repo):
            assert sub.slug in chosen.order
            assert (proj / "_build/html" / f"{sub.docname}.html").is_file()
    # vLLM's pages keep their addresses; the others' are under their repository.
    assert {s.docname for s in site.subsystems_of(VLLM)} >= {"notes/subsystem/ci", "notes/subsystem/rocm"}
    assert "notes/subsystem/pytorch/pytorch/inductor" in {s.docname for s in site.subsystems}
    assert "notes/subsystem/nvidia/tensorrt-llm/ci" in {s.docname for s in site.subsystems}


def test_a_reader_of_one_repository_sees_only_its_areas(several):
    proj, site = several
    inductor = next(n for n in site.notes if n.repo == "pytorch/pytorch")
    for docname in (inductor.docname, site.subsystem(inductor.subsystem).docname):
        page = _html(proj, docname)
        menu = _menu(page)
        assert [heading for heading, _ in menu] == ["pytorch/pytorch"]
        assert menu[0][1] == [s.heading for s in site.subsystems_of("pytorch/pytorch")]
        assert _sidebar_parts(page) == ["pytorch/pytorch"]
        text = page.select_one(".bd-sidebar-primary .prnotes-sidenav").get_text(" ")
        for vllm_only in ("Model Runner", "KV Connector", "投机解码"):
            assert vllm_only not in text and vllm_only not in str(page.select_one(".bd-header")), (docname, vllm_only)
    # A vLLM note: vLLM's areas only.
    vllm_note = next(n for n in site.notes if n.repo == VLLM)
    menu = _menu(_html(proj, vllm_note.docname))
    assert menu == [(VLLM, [s.heading for s in site.subsystems_of(VLLM)])]


def test_pages_of_no_one_repository_list_every_repository_s_areas_grouped(several):
    proj, site = several
    for docname in ("index", contract.TAGS_INDEX, site.digests[0].docname):
        page = _html(proj, docname)
        assert [heading for heading, _ in _menu(page)] == list(site.repos)
        assert _menu(page) == [(r, [s.heading for s in site.subsystems_of(r)]) for r in site.repos]
        assert _sidebar_parts(page) == list(site.repos)
    # The landing page's 子系统 section: a heading per repository, its cards under it.
    landing = _html(proj, "index")
    headings = [h.find(string=True, recursive=False) or h.get_text() for h in landing.select("article h3")]
    assert [h.strip() for h in headings if h.strip() in site.repos] == list(site.repos)


def test_a_name_shared_by_two_repositories_is_a_page_each_linked_to_the_other(several):
    proj, site = several
    vllm = site.subsystem("ci")
    trt = site.subsystem("nvidia/tensorrt-llm/ci")
    assert vllm.title == trt.title == "CI 与构建"
    assert site.namesakes(vllm.key) == (trt,) and site.namesakes(trt.key) == (vllm,)
    for here, there in ((vllm, trt), (trt, vllm)):
        article = _html(proj, here.docname).select_one("article")
        links = {a["href"] for a in article.find_all("a", href=True)}
        target = _relative(here.docname, there.docname)
        assert target in links, (here.key, sorted(links))
        assert f"仓库：{here.repo}" in article.get_text()


def test_the_model_exposes_each_note_s_repository_and_subsystem(several):
    """What filters need: a note's repository and subsystem slug, and the subsystems per repository."""
    _, site = several
    for note in site.notes:
        sub = site.subsystem(note.subsystem)
        assert (sub.repo.lower(), sub.slug) == (note.repo.lower(), note.subsystem_slug)
        assert sub in site.subsystems_of(sub.repo)
    assert re.fullmatch(r"subsystem-[a-z0-9-]+", site.subsystem("ci").label)


def test_the_search_filters_name_every_repository_s_subsystems():
    """Subsystem pages are keys (no /, or two); their later parts are not subsystems."""
    from prnotes.sphinxext.search.publish import subsystem_names

    data = {
        "docnames": ["notes/subsystem/ci", "notes/subsystem/ci/v2", "notes/subsystem/o/r/kernels", "notes/subsystem/o/r/kernels/v2", "index"],
        "titles": ["CI 与构建", "CI 与构建（第 1 卷）", "算子与 kernel", "算子与 kernel（第 1 卷）", "PR 精读笔记"],
    }
    assert subsystem_names(data) == {"ci": "CI 与构建", "o/r/kernels": "算子与 kernel"}


def test_the_grouped_navigation_passes_the_page_checks(several):
    """axe-core on the pages whose navigation has a part per repository (the
    landing page: all of them; a note: its repository's), wide and on a
    phone with the drawer open, and the Nu checker on their HTML."""
    from playwright import sync_api as playwright

    from tests.support.browserguard import guarded_context
    from tests.support.pagechecks import axe_violations, nu_errors
    from tests.support.searchbrowser import serve

    proj, site = several
    outdir = proj / "_build" / "html"
    note = next(n for n in site.notes if n.repo == "pytorch/pytorch")
    pages = ["index.html", f"{note.docname}.html"]
    problems = [str(m) for m in nu_errors([outdir / p for p in pages])]
    with serve(outdir) as base, playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            for width in (1280, 390):
                context, guard = guarded_context(browser, viewport={"width": width, "height": 900}, locale="zh-CN")
                tab = context.new_page()
                for path in pages:
                    tab.goto(base + path)
                    tab.wait_for_load_state("load")
                    if width == 1280:
                        tab.click('.bd-header button.dropdown-toggle[aria-controls^="prnotes-menu-"]')
                    problems += [f"{path} {width}: {line}" for line in axe_violations(tab)]
                context.close()
                guard.check()
        finally:
            browser.close()
    assert problems == []


# --- issue 44: repositories by note count, and a shared title names its repository ---


def _text(node) -> str:
    return " ".join(node.get_text().split()).rstrip("#").strip()


def test_repositories_go_by_note_count_wherever_they_are_listed(several):
    """vLLM has the most notes (sixteen), the others nine each: vLLM first,
    then by name, on the landing page, in the filters, the sidebar, the
    header's list of repositories, the 订阅 page, the PR index and the book."""
    proj, site = several
    order = list(site.repos)
    assert order == [VLLM, "huggingface/transformers", "NVIDIA/TensorRT-LLM", "pytorch/pytorch", "sgl-project/sglang"]
    landing = _html(proj, "index")
    assert f"来自 5 个仓库（{'、'.join(order)}）" in _text(landing.select_one("article"))
    assert _sidebar_parts(landing) == order
    assert [_text(a) for a in landing.select(".bd-header .prnotes-repos .dropdown-item")] == order
    # A list of several repositories' notes: its filter offers them in that order.
    options = [o["value"] for o in _html(proj, contract.verdict_docname("close")).select('form.prnotes-filters select[name="repo"] option')]
    assert options[0] == "" and options[1:] == [r for r in order if r in options]
    assert len(options) > 3
    feeds = _html(proj, contract.FEEDS_PAGE)
    assert [_text(h) for h in feeds.select("article h2")] == ["全部笔记", *order]
    prindex = [_text(h) for h in _html(proj, contract.PR_INDEX).select("article h2")]
    assert [h for h in prindex if h in order] == order
    # The book: a chapter per subsystem, by repository in that order.
    book = (proj / f"{contract.BOOK_ROOT}.md").read_text(encoding="utf-8")
    chapters = re.findall(r"^subsystem/(\S+)$", book, re.M)
    assert chapters == [s.key for s in site.subsystems]
    ranks = [order.index(site.subsystem(key).repo) for key in chapters]
    assert ranks == sorted(ranks) and ranks[0] == 0


def test_a_subsystem_title_two_repositories_share_names_its_repository(several):
    """CI 与构建 is the title of a subsystem of vLLM's and of TensorRT-LLM's: the
    pages' titles, the tabs, the navigation, the feeds and the book's chapters
    say whose; a title no other repository has stays as it is."""
    proj, site = several
    vllm, trt = site.subsystem("ci"), site.subsystem("nvidia/tensorrt-llm/ci")
    assert (vllm.heading, trt.heading) == ("CI 与构建（vllm-project/vllm）", "CI 与构建（NVIDIA/TensorRT-LLM）")
    assert site.subsystem("pytorch/pytorch/inductor").heading == site.subsystem("pytorch/pytorch/inductor").title
    for sub in (vllm, trt):
        page = _html(proj, sub.docname)
        assert _text(page.select_one("article h1")) == sub.heading
        assert page.title.get_text().startswith(sub.heading)
    note = next(n for n in site.notes if n.subsystem == vllm.key)
    sidebar = [_text(a) for a in _html(proj, note.docname).select(".bd-sidebar-primary .prnotes-sidenav a")]
    assert vllm.heading in sidebar and "CI 与构建" not in sidebar
    feed = (proj / "_build/html" / contract.subsystem_feed(trt.key)).read_text(encoding="utf-8")
    assert re.search(r"<title>[^<]*CI 与构建（NVIDIA/TensorRT-LLM）</title>", feed)
    # The filters of a list of both name them so too (contract.subsystem_labels keeps them apart).
    labels = [_text(o) for o in _html(proj, contract.verdict_docname("close")).select('select[name="subsystem"] option')]
    assert not any(label == "CI 与构建" for label in labels)


def test_the_books_chapters_name_the_repository_of_a_shared_title(several):
    """The LaTeX of the whole book: its chapters are the subsystem pages, their titles as the site has them."""
    proj, site = several
    app = sphinx_build(proj, "latex")
    tex = (proj / "_build/latex/prnotes.tex").read_text(encoding="utf-8")
    chapters = [c.replace("\\sphinxhyphen{}", "-") for c in re.findall(r"^\\chapter\{(.*)\}$", tex, re.M)]
    assert chapters == [s.heading for s in site.subsystems]  # vLLM's first: it has the most notes
    assert {"CI 与构建（vllm-project/vllm）", "CI 与构建（NVIDIA/TensorRT-LLM）"} <= set(chapters)
    assert app.warning.getvalue() == ""
