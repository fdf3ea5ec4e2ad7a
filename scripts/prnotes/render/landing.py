"""The landing page, ``index.md``: what to read first, reading lists, subsystems, indexes."""

from __future__ import annotations

from .. import contract
from ..classify import VERDICT_BY_SLUG
from ..model import Site
from .digests import render_latest
from .lists import note_link, subsystem_heading, verdict_counts
from .myst import badge, doc_link, escape, hidden_toctree, marker
from .readinglists import audience_heading, audiences_used, cjk_join, verdicts_used

INTRO = (
    "每个 PR 一页阅读笔记：值不值得细读、读什么、读完之后跟进什么。"
    "笔记按子系统分组，PR 编号互相链接，每页都列出提到它的其他笔记。"
)
# "先读这些" shows at most this many 精读 notes per subsystem (newest PRs
# first), so the landing page stays short however many notes the site holds;
# the 精读 list has them all.
FIRST_READS_PER_SUBSYSTEM = 6


def _first_reads(site: Site) -> list[str]:
    docname = "index"
    close = VERDICT_BY_SLUG["close"]
    groups = [(s, [n for n in site.in_subsystem(s.key) if n.verdict == "close"]) for s in site.subsystems]
    groups = [(s, notes) for s, notes in groups if notes]
    if not groups:
        return []
    total = sum(len(notes) for _, notes in groups)
    lines = [
        "## 先读这些",
        "",
        f"结论为{badge(close.badge, close.title)}的 {total} 篇笔记，按子系统分组，新 PR 在前。"
        f"完整列表见{doc_link('精读清单', docname, contract.verdict_docname('close'))}。",
        "",
        ":::::{grid} 1 1 2 2",
        ":gutter: 2",
        ":class-container: prnotes-first-reads",
        "",
    ]
    for sub, notes in groups:
        shown = notes[:FIRST_READS_PER_SUBSYSTEM]
        lines += [f"::::{{grid-item-card}} {escape(subsystem_heading(site, sub))}", ""]
        lines += [f"- {note_link(n, docname)}" for n in shown]
        more = len(notes) - len(shown)
        label = escape(cjk_join(sub.title, "的全部笔记")) + (f"（另有 {more} 篇精读）" if more else "")
        lines += ["", ":::{card-footer}", doc_link(label, docname, sub.docname), ":::", "::::", ""]
    lines += [":::::", ""]
    return lines


def _subsystem_cards(site: Site) -> list[str]:
    """The 子系统 section: a card per subsystem, under its repository's heading
    when the archive holds several (each repository has its own subsystems)."""
    lines: list[str] = []
    for repo in site.repos:
        subs = site.subsystems_of(repo)
        if not subs:
            continue
        if site.by_repository:
            lines += [f"### {escape(repo)}", ""]
        lines += ["::::{grid} 1 2 2 3", ":gutter: 2", ""]
        for sub in subs:
            notes = site.in_subsystem(sub.key)
            lines += [
                f":::{{grid-item-card}} {escape(sub.title)}",
                f":link: {sub.docname}",
                ":link-type: doc",
                "",
                escape(sub.intro),
                "",
                f"**{len(notes)} 篇**（{verdict_counts(notes)}）",
                ":::",
                "",
            ]
        lines += ["::::", ""]
    return lines


def subsystem_toctrees(site: Site) -> list[str]:
    """The hidden toctrees of the subsystem pages: one, captioned 子系统, or
    one per repository (``子系统：<repo>``), which the navigation groups by
    (:func:`prnotes.contract.subsystems_caption`)."""
    if not site.by_repository:
        return hidden_toctree((s.docname for s in site.subsystems), contract.subsystems_caption())
    lines: list[str] = []
    for repo in site.repos:
        if site.subsystems_of(repo):
            lines += hidden_toctree((s.docname for s in site.subsystems_of(repo)), contract.subsystems_caption(repo))
    return lines


def render_landing(site: Site) -> str:
    tax = site.taxonomy
    repos = sorted({n.repo for n in site.notes})
    digests = sorted({n.path for n in site.notes})
    audience_titles = {a.slug: a.title for a in tax.audiences}
    lines = [
        marker("taxonomy.toml and seeds/"),
        "",
        "# PR 精读笔记",
        "",
        INTRO,
        "",
        f"目前共 {len(site.notes)} 篇笔记（{verdict_counts(site.notes)}），"
        f"来自 {len(repos)} 个仓库（{escape('、'.join(repos))}）的 {len(digests)} 期摘要。",
        "",
        f":::{{{contract.SINCE_DIRECTIVE}}}",
        ":::",
        "",
        *render_latest(site, "index"),
        *_first_reads(site),
        "## 阅读清单",
        "",
    ]
    for slug in verdicts_used(site):
        v = VERDICT_BY_SLUG[slug]
        link = doc_link(f"{v.title}清单", "index", contract.verdict_docname(slug))
        lines.append(f"- {badge(v.badge, v.title)} {link}：{escape(v.meaning)}")
    for slug in audiences_used(site):
        title = escape(audience_heading(audience_titles[slug]))
        lines.append(f"- {doc_link(title, 'index', contract.audience_docname(slug))}")
    lines += [
        "",
        "## 子系统",
        "",
        *_subsystem_cards(site),
        "## 索引",
        "",
        f"- [摘要归档]({contract.DIGESTS_INDEX}.md)：每一期摘要和它收录的笔记，最新的在前。",
        f"- [跟进清单]({contract.WATCHLIST}.md)：笔记里提到的后续事项，按子系统分组。",
        f"- [代码符号索引]({contract.SYMBOLS}.md)：笔记里出现的文件、环境变量、函数，以及提到它们的笔记。",
        f"- [标签]({contract.TAGS_INDEX}.md)：硬件、模型、主题，以及笔记涉及的其他子系统。",
        f"- [PR 索引]({contract.PR_INDEX}.md)：站内每个 PR 编号，以及提到它的笔记。",
        f"- [订阅]({contract.FEEDS_PAGE}.md)：Atom 订阅源，全部笔记、只看精读、每个仓库、每个子系统各一个。",
        "",
        *subsystem_toctrees(site),
        *hidden_toctree((contract.DIGESTS_INDEX, contract.READING_INDEX, contract.WATCHLIST), "阅读与跟进"),
        *hidden_toctree((contract.SYMBOLS, contract.TAGS_INDEX, contract.PR_INDEX), "索引"),
    ]
    return "\n".join(lines)
