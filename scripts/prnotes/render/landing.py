"""The landing page, ``index.md``: what the site is, counts, subsystem cards."""

from __future__ import annotations

from .. import naming
from ..classify import VERDICTS
from ..model import Site
from .myst import badge, escape, marker
from .subsystem import verdict_counts

INTRO = (
    "每个 PR 一页阅读笔记：值不值得细读、读什么、读完之后跟进什么。"
    "笔记按子系统分组，PR 编号互相链接，每页都列出提到它的其他笔记。"
)


def render_landing(site: Site, subsystems: list[str]) -> str:
    tax = site.taxonomy
    repos = sorted({n.repo for n in site.notes})
    digests = sorted({n.path for n in site.notes})
    lines = [
        marker("taxonomy.toml and seeds/"),
        "",
        "# PR 精读笔记",
        "",
        INTRO,
        "",
        f"目前共 {len(site.notes)} 篇笔记（{verdict_counts(site.notes)}），"
        f"来自 {len(repos)} 个仓库（{escape('、'.join(repos))}）的 {len(digests)} 份摘要。",
        "",
        "## 阅读结论",
        "",
        *(f"- {badge(v.badge, v.title)} {escape(v.meaning)}" for v in VERDICTS),
        "",
        "## 子系统",
        "",
        "::::{grid} 1 2 2 3",
        ":gutter: 2",
        "",
    ]
    for slug in subsystems:
        sub = tax.subsystem(slug)
        notes = site.in_subsystem(slug)
        lines += [
            f":::{{grid-item-card}} {escape(sub.title)}",
            f":link: {naming.subsystem_docname(slug)}",
            ":link-type: doc",
            "",
            escape(sub.intro),
            "",
            f"**{len(notes)} 篇**（{verdict_counts(notes)}）",
            ":::",
            "",
        ]
    lines += [
        "::::",
        "",
        "## 索引",
        "",
        f"- [PR 索引]({naming.PR_INDEX}.md)：站内每个 PR 编号，以及提到它的笔记。",
        "",
        "```{toctree}",
        ":hidden:",
        ":caption: 子系统",
        "",
        *(naming.subsystem_docname(s) for s in subsystems),
        "```",
        "",
        "```{toctree}",
        ":hidden:",
        ":caption: 索引",
        "",
        naming.PR_INDEX,
        "```",
        "",
    ]
    return "\n".join(lines)
