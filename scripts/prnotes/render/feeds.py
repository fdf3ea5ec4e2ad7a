"""The 订阅 page: every Atom feed of the site, for a reader to pick what they follow.

The feeds themselves are made by the Sphinx side (:mod:`prnotes.sphinxext.site.feeds`):
every note, the 精读 notes, one per repository and one per subsystem; the
page names each with the number of notes it covers (a feed holds the newest
100 of them). It is reached from the landing page and from the line at the
end of each list page that has a feed of its own, not from the navigation.
"""

from __future__ import annotations

from .. import contract
from ..model.classify import VERDICT_BY_SLUG
from ..model.site import Site
from .myst import escape, marker
from .paging import orphan

INTRO = (
    "用 Atom 阅读器订阅新笔记。每个订阅源列出最新的 100 篇，新的在前；"
    "条目标题写明阅读结论和 PR 编号（如 [精读] owner/repo#123），"
    "内容是阅读建议的全文，附笔记和 GitHub 上 PR 的地址。"
)


def _item(text: str, path: str, count: int) -> str:
    """A list item linking to a feed; ``text`` is the taxonomy's or a repository's name (no backticks, no ``<``)."""
    return f"- {{prnotes-feed}}`{text} <{path}>`：{count} 篇"


def render_feeds_page(site: Site) -> dict[str, str]:
    """``notes/feeds.md``, or nothing for a site without notes. Each
    repository has its own subsystems: on a site of several, they are listed
    under their repository, after its feed."""
    if not site.notes:
        return {}
    close = [n for n in site.notes if n.verdict == "close"]
    lines = [
        marker("taxonomy.toml and seeds/"),
        "",
        "(feeds)=",
        "# 订阅",
        "",
        *orphan(),
        escape(INTRO),
        "",
        "## 全部笔记",
        "",
        _item("全部笔记", contract.FEED, len(site.notes)),
    ]
    if close:
        lines.append(_item(f"只看{VERDICT_BY_SLUG['close'].title}", contract.verdict_feed("close"), len(close)))
    for repo in site.repos:
        heading = repo if site.by_repository else "按子系统"
        lines += ["", f"## {escape(heading)}", ""]
        if site.by_repository:
            lines.append(_item(f"{repo} 的全部笔记", contract.repo_feed(repo), sum(1 for n in site.notes if n.repo == repo)))
        for sub in site.subsystems_of(repo):
            lines.append(_item(sub.title, contract.subsystem_feed(sub.key), len(site.in_subsystem(sub.key))))
    if not site.by_repository:
        (repo,) = site.repos
        lines += ["", "## 按仓库", "", _item(repo, contract.repo_feed(repo), len(site.notes))]
    return {f"{contract.FEEDS_PAGE}.md": "\n".join(lines) + "\n"}
