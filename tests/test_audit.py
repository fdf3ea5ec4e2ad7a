"""The audit: a built site that lost anything of a seed entry is caught."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.sandbox import convert, copy_project, sphinx_build
from prnotes.build.audit import Finding, audit, check_pdf_text, seed_entries
from prnotes.commands.cli import main as cli_main


def audit_main(argv: list[str]) -> int:
    return cli_main(["audit", *argv])

PAGE = "notes/vllm-project/vllm/pr-51368.html"
SEED = "seeds/000_50c46ef36472ac24.txt"


@pytest.fixture
def tampered(built_site, tmp_path):
    """A copy of the fixture site's build to damage: ``(project, build folder)``."""
    proj, _ = built_site
    build = tmp_path / "_build"
    shutil.copytree(proj / "_build", build)
    return proj, build


def edit(path: Path, old: str, new: str) -> None:
    html = path.read_text(encoding="utf-8")
    assert old in html
    path.write_text(html.replace(old, new), encoding="utf-8")


def test_fixture_site_loses_nothing(built_site):
    proj, _ = built_site
    report = audit(proj)
    assert report.findings == ()
    assert report.summary == "16 entries, 16 pages, 0 missing"


def test_real_site_loses_nothing(real_site):
    proj, _ = real_site
    report = audit(proj)
    assert report.findings == ()
    assert report.entries == report.pages > 0


def test_deleted_page(tampered):
    proj, build = tampered
    (build / "html" / PAGE).unlink()
    report = audit(proj, build)
    assert [str(f) for f in report.findings] == [f"{SEED}:3: page missing from HTML {PAGE}"]
    assert report.summary == "16 entries, 15 pages, 1 missing"


def test_a_page_that_is_not_utf8_is_a_loss_not_a_traceback(tampered):
    proj, build = tampered
    (build / "html" / PAGE).write_bytes(b"<html>\xff\xfe damaged")
    report = audit(proj, build)
    assert [str(f) for f in report.findings] == [f"{SEED}:3: a page in UTF-8 (byte 6 is not) missing from HTML {PAGE}"]
    assert report.summary == "16 entries, 15 pages, 1 missing"


def test_truncated_body(tampered):
    proj, build = tampered
    edit(build / "html" / PAGE, "两者共同构成完整的权重生命周期方案。", "两者共同构成")
    assert audit(proj, build).findings == (Finding(SEED, 3, "advice text", f"HTML {PAGE}"),)


def test_missing_or_changed_title(tampered):
    proj, build = tampered
    edit(build / "html" / PAGE, "<h1>新增 PWAL 钩子统一 finalize，修复 DSV4 dummy load 崩溃<a", "<h1><a")
    edit(build / "html/notes/vllm-project/vllm/pr-52810.html", "禁用 Git 自动维护", "禁用 Git 自动")
    assert [str(f) for f in audit(proj, build).findings] == [
        f"{SEED}:3: title '新增 PWAL 钩子统一 finalize，修复 DSV4 dummy load 崩溃' missing from HTML {PAGE}",
        f"{SEED}:15: title '禁用 Git 自动维护，修复 ROCm CI 浅克隆 fetch 竞态' missing from "
        "HTML notes/vllm-project/vllm/pr-52810.html",
    ]


def test_missing_pr_number(tampered):
    proj, build = tampered
    edit(build / "html" / PAGE, "#51368<", "<")  # the PR field and the 在 GitHub 上打开 link
    assert audit(proj, build).findings == (Finding(SEED, 3, "PR number #51368", f"HTML {PAGE}"),)


def test_note_in_zero_or_two_toctrees(tmp_path):
    seed = "o/r\n\nA CI (#1)\n\n值得精读。\n\nB CI (#2)\n\n值得精读。\n\nC CI (#3)\n\n值得精读。\n"
    proj = copy_project(tmp_path / "p", {"a.txt": seed})
    assert convert(proj) == 0
    # Take #1 out of its subsystem's toctree and list #2 in the landing page's too.
    edit(proj / "notes/subsystem/o/r/ci.md", "\n../../../o/r/pr-1\n", "\n")
    edit(proj / "index.md", ":caption: 索引\n\n", ":caption: 索引\n\nnotes/o/r/pr-2\n")
    sphinx_build(proj)
    assert [str(f) for f in audit(proj).findings] == [
        "seeds/a.txt:3: exactly one subsystem toctree (listed by: none) missing from HTML notes/o/r/pr-1.html",
        "seeds/a.txt:7: exactly one subsystem toctree (listed by: index, notes/subsystem/o/r/ci) "
        "missing from HTML notes/o/r/pr-2.html",
    ]


def test_command_names_losses_and_exits_1(tampered, capsys):
    proj, build = tampered
    (build / "html" / PAGE).unlink()
    assert audit_main(["--root", str(proj), "--build", str(build)]) == 1
    out = capsys.readouterr()
    assert out.out == "16 entries, 15 pages, 1 missing\n"
    assert out.err == f"missing: {SEED}:3: page missing from HTML {PAGE}\n"


def test_command_without_a_build(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"a.txt": "o/r\n\nA (#1)\n\n值得精读。\n"})
    assert audit_main(["--root", str(proj)]) == 1
    assert capsys.readouterr().err == f"prnotes audit: no {proj / '_build/html/index.html'}; build the HTML first\n"


def test_command_with_bad_seeds(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"a.txt": "o/r\n\nA (#1)\n"})
    assert audit_main(["--root", str(proj)]) == 1
    assert capsys.readouterr().err == (
        "error: seeds/a.txt:3: title 'A (#1)' has no body\nprnotes audit: 1 error(s); the seeds do not parse; nothing checked\n"
    )


# --- PDF: the check runs on pdftotext's output, page by page -----------------

PDF_SEED = {
    "a.txt": (
        "o/r\n\n"
        "标题 `code` 一 (#1)\n\n"
        "值得精读。implementation details of the scheduler matter here, “quoted” -- dashed.\n第二段。\n\n"
        "标题二 (#2)\n\n值得快速浏览：很短。\n"
    )
}


def pdf_entries(tmp_path):
    return seed_entries(copy_project(tmp_path / "p", PDF_SEED))


# What pdftotext gives for a two-page book: a running header, page numbers in
# the footer, the first body split by a page break and a hyphenated word,
# curly quotes, a ligature.
GOOD_PAGES = [
    "PR 精读笔记\n\n1 标题 code 一\n\n#1\n\n值得精读。imple-\nmentation details of the sched-\nuler\n\n"
    "1\n",
    "PR 精读笔记\n\nmatter here, ”quoted” – dashed.\n\n第二段。\n\n2 标题二\n\n#2\n\n值得快速浏览：很短。\n\n2\n",
    "",
]


def test_pdf_text_with_page_furniture_is_complete(tmp_path):
    entries = pdf_entries(tmp_path)
    assert check_pdf_text(entries, GOOD_PAGES, "PDF book.pdf") == []


@pytest.mark.parametrize(
    ("old", "new", "what"),
    [
        ("第二段。", "第二", "advice text"),
        ("matter here", "matters", "advice text"),
        ("2 标题二", "2 标题", "title '标题二'"),
        ("#2\n", "\n", "PR number #2"),
    ],
    ids=["truncated-second-paragraph", "changed-word", "title", "number"],
)
def test_pdf_losses_are_found(tmp_path, old, new, what):
    entries = pdf_entries(tmp_path)
    pages = [page.replace(old, new) for page in GOOD_PAGES]
    findings = check_pdf_text(entries, pages, "PDF book.pdf")
    line = 3 if "matter" in old or "第二段" in old else 8
    assert findings == [Finding("seeds/a.txt", line, what, "PDF book.pdf")]


needs_tex = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("xelatex", "xdvipdfmx", "pdftotext")),
    reason="needs the TeX and poppler packages (scripts/bootstrap.sh apt pdf)",
)


def typeset(tmp_path, seeds: dict[str, str]) -> tuple[Path, list[str]]:
    """A tiny book of ``seeds`` through LaTeX and pdftotext: the project and its pages' text."""
    import subprocess

    from prnotes.build.audit import pdf_pages

    proj = copy_project(tmp_path / "p", seeds)
    assert convert(proj) == 0
    sphinx_build(proj, "latex")
    latex = proj / "_build/latex"
    # One xelatex run, as `prnotes pdf` typesets (no latexmk, which the project does not install).
    subprocess.run(
        ["xelatex", "-interaction=nonstopmode", "-halt-on-error", "prnotes.tex"], cwd=latex, check=True, capture_output=True
    )
    (pdf,) = latex.glob("*.pdf")
    return proj, pdf_pages(pdf)


@needs_tex
def test_real_pdf(tmp_path):
    """A tiny book through LaTeX and pdftotext: complete, then a seed it lacks."""
    proj, pages = typeset(tmp_path, PDF_SEED)
    assert check_pdf_text(seed_entries(proj), pages, "PDF") == []
    seed = proj / "seeds/a.txt"
    seed.write_text(seed.read_text(encoding="utf-8").replace("第二段。", "第二段，后来加长了。"), encoding="utf-8")
    assert check_pdf_text(seed_entries(proj), pages, "PDF") == [Finding("seeds/a.txt", 3, "advice text", "PDF")]


@needs_tex
def test_real_pdf_with_advice_across_pages_under_running_heads(tmp_path):
    """Advice that runs over several pages, each with a running head of several words: still found whole."""
    advice = "值得精读。" + "".join(f"第 {i} 句讲调度器的抢占路径与重算开销，结合测试一起看。" for i in range(400))
    seed = {"a.txt": f"o/r\n\n为 Stage D 门禁新增 15 个 ROCm mirror，扩展 AMD CI 覆盖与调度器抢占路径 (#1)\n\n{advice}\n"}
    proj, pages = typeset(tmp_path, seed)
    assert sum("调度器" in page for page in pages) >= 3  # the advice runs over pages
    assert check_pdf_text(seed_entries(proj), pages, "PDF") == []


# Long URLs beside short words: TeX cannot break a URL where it likes, so
# the lines around one are justified with wide gaps between the words.
URL = "https://github.com/vllm-project/vllm/blob/main/"
JUSTIFIED = (
    f"Worth a close read. is {URL}worker/layers/v1 in the {URL}vllm/backends/layers/gpu_model_runner.py/attention/worker "
    f"see or of {URL}vllm/worker/kv_cache_utils.py to x {URL}layers/fused_moe/v1/worker/attention and {URL}model_executor/v1。"
)


@needs_tex
def test_real_pdf_with_widely_justified_lines(tmp_path):
    """No false loss where justification leaves wide gaps (pdftotext's default
    reading order takes them for columns); a paragraph the book lacks is still found."""
    seed = {"a.txt": f"o/r\n\n标题 CI (#1)\n\n{JUSTIFIED}\n第二段。\n\n另一篇 CI (#2)\n\n值得精读。{JUSTIFIED}\n"}
    proj, pages = typeset(tmp_path, seed)
    assert check_pdf_text(seed_entries(proj), pages, "PDF") == []
    path = proj / "seeds/a.txt"
    path.write_text(path.read_text(encoding="utf-8").replace("第二段。", "第二段。\n第三段，书里没有。"), encoding="utf-8")
    assert check_pdf_text(seed_entries(proj), pages, "PDF") == [Finding("seeds/a.txt", 3, "advice text", "PDF")]
    path.write_text(path.read_text(encoding="utf-8").replace("see or of", "see and of"), encoding="utf-8")
    assert check_pdf_text(seed_entries(proj), pages, "PDF") == [Finding("seeds/a.txt", 3, "advice text", "PDF"), Finding("seeds/a.txt", 9, "advice text", "PDF")]


@pytest.mark.parametrize("damage", [b"\x80\x05", b"garbage that is no pickle"], ids=["truncated", "garbage"])
def test_command_with_a_damaged_sphinx_environment(tampered, capsys, damage):
    proj, build = tampered
    (build / "doctrees/environment.pickle").write_bytes(damage)
    assert audit_main(["--root", str(proj), "--build", str(build)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"prnotes audit: {build}/doctrees/environment.pickle: cannot read Sphinx's saved environment (")
    assert err.endswith("); build the HTML again (make clean html)\n") and "Traceback" not in err


def test_command_without_sphinx_environment(tampered, capsys):
    proj, build = tampered
    (build / "doctrees/environment.pickle").unlink()
    assert audit_main(["--root", str(proj), "--build", str(build)]) == 1
    assert capsys.readouterr().err == f"prnotes audit: no environment.pickle under {build}; build the HTML first\n"
