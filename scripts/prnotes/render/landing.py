"""The landing page, ``index.md``: 今日 first, then a short way into the rest; the
reader's other views of what arrived (未读, 本周); and the 订阅 page.

A reader comes most mornings to see what arrived: the page opens, after a
line that says what the site is, with 今日,
how many notes are new since the last visit (read marks, in the browser),
then every note of the newest day's digests, 精读 first
(:mod:`prnotes.sphinxext.facts.stream` decides the day from this build's dates and
keeps the order; the page holds only the ``{prnotes-list} today`` directive,
so it never holds a date). Under it, kept short: a line of counts, the
archive, the reading lists, the indexes, the subsystems with their counts
(:func:`subsystem_listing`) and the PDF books that are there
(:mod:`prnotes.sphinxext.book.pdflinks`). The 精读 notes of the whole archive are
on 精读清单.

未读 (``notes/unread``) lists the notes the landing page counts as new since
the last visit and still unread: the page holds every note of the digests the
count covers (:data:`prnotes.sphinxext.lists.readmarks.SINCE_DIGESTS`), and the
browser shows only those (:mod:`prnotes.sphinxext.lists.readmarks`). 本周
(``notes/week/index``) lists the notes of the newest ISO week, and a page for
each of the :data:`prnotes.contract.WEEKS_BACK` weeks before it (上周, 2 周前 …)
lists that week's: the weeks are the build's, from the digests' dates
(:func:`prnotes.sphinxext.facts.stream.weeks`), so these pages hold only the
directive that names which week they show.

The 订阅 page lists every Atom feed of the site, for a reader to pick what
they follow. The feeds themselves are made by the Sphinx side
(:mod:`prnotes.sphinxext.site.feeds`): every note, the 精读 notes, one per
repository and one per subsystem; the page names each with the number of
notes it covers (a feed holds the newest 100 of them). It is reached from the
landing page and from the line at the end of each list page that has a feed
of its own, not from the navigation.
"""

from __future__ import annotations

from .. import contract
from ..model.classify import VERDICT_BY_SLUG
from ..model.site import Site
from .myst import doc_link, escape, hidden_toctree, marker, relative
from .paging import list_directive, orphan, verdict_counts
from .readinglists import audience_heading, audiences_used, verdicts_used

INTRO = "每个 PR 一页阅读笔记：值不值得细读、读什么、读完之后跟进什么。"
HERE = "index"
SINCE = [f":::{{{contract.SINCE_DIRECTIVE}}}", ":::", ""]  # the count of notes new since the last visit


def today() -> list[str]:
    """今日: the count of notes new since the last visit, then the newest day's
    notes with verdict, PR, subsystem and first sentence."""
    return [
        "## 今日",
        "",
        *SINCE,
        *list_directive("today", {}, show=("verdict", "summary", "subsystem")),
    ]


def subsystem_listing(site: Site) -> list[str]:
    """The 子系统 section, compact: each subsystem linked, with its number of
    notes; under its repository's name when the archive holds several (each
    repository has its own subsystems)."""
    lines = ["## 子系统", ""]
    for repo in site.repos:
        subs = site.subsystems_of(repo)
        if not subs:
            continue
        if site.by_repository:
            lines += [f"### {escape(repo)}", ""]
        lines += [":::{container} prnotes-subsystems", ""]
        lines += [f"- {doc_link(escape(sub.title), HERE, sub.docname)} {len(site.in_subsystem(sub.key))} 篇" for sub in subs]
        lines += ["", ":::", ""]
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


def _more(site: Site) -> list[str]:
    """A line of counts, then the archive, the reading lists and the indexes, one line each."""
    audience_titles = {a.slug: a.title for a in site.taxonomy.audiences}
    lists = [doc_link(f"{VERDICT_BY_SLUG[slug].title}清单", HERE, contract.verdict_docname(slug)) for slug in verdicts_used(site)]
    lists += [
        doc_link(escape(audience_heading(audience_titles[slug])), HERE, contract.audience_docname(slug))
        for slug in audiences_used(site)
    ]
    indexes = [
        doc_link("跟进清单", HERE, contract.WATCHLIST),
        doc_link("代码符号索引", HERE, contract.SYMBOLS),
        doc_link("标签", HERE, contract.TAGS_INDEX),
        doc_link("PR 索引", HERE, contract.PR_INDEX),
        doc_link("订阅", HERE, contract.FEEDS_PAGE),
    ]
    return [
        "## 更多",
        "",
        f"共 {len(site.notes)} 篇笔记（{verdict_counts(site.notes)}），"
        f"来自 {len(site.repos)} 个仓库（{escape('、'.join(site.repos))}）的 {len(site.digests)} 期摘要。",
        "",
        f"- {doc_link('摘要归档', HERE, contract.DIGESTS_INDEX)}：往期摘要，最新的在前；"
        f"{doc_link('本周', HERE, contract.WEEK_INDEX)}：这一周各期摘要的笔记，也可往前翻 {contract.WEEKS_BACK} 周",
        f"- 阅读清单：{' · '.join(lists)}",
        f"- 索引：{' · '.join(indexes)}",
        f"- {{{contract.PDF_ROLE}}}`PDF`",
        "",
    ]


UNREAD_INTRO = (
    "上次访问以来新到、还没打开过的笔记，最新的一期在前；打开一篇，它就离开这里。"
    "已读记号只存在这台设备的浏览器里。"
)


def render_unread(site: Site) -> dict[str, str]:
    """``notes/unread.md``: the notes of the newest digests, which the browser
    narrows to those new since the last visit and unread (module docstring)."""
    if not site.notes:
        return {}
    lines = [
        marker("seeds/"),
        "",
        "(unread)=",
        "# 未读笔记",
        "",
        *orphan(),
        escape(UNREAD_INTRO),
        "",
        *SINCE,
        *list_directive("unread", {}, show=("verdict", "subsystem")),
    ]
    return {f"{contract.UNREAD}.md": "\n".join(lines)}


WEEK_INTRO = "按摘要的日期（提交的那一天）分周，每周从周一到周日；一周里各期摘要的笔记，精读在前。"


def render_weeks(site: Site) -> dict[str, str]:
    """本周 and a page for each of the weeks before it (module docstring)."""
    if not site.notes:
        return {}
    pages = {}
    for back in range(contract.WEEKS_BACK + 1):
        docname = contract.week_docname(back)
        lines = [
            marker("seeds/"),
            "",
            f"# {contract.week_title(back)}",
            "",
            WEEK_INTRO,
            "",
            *list_directive("week", {"back": back}, show=("verdict", "summary", "subsystem")),
        ]
        if back == 0:
            lines += hidden_toctree(relative(docname, contract.week_docname(k)) for k in range(1, contract.WEEKS_BACK + 1))
        pages[f"{docname}.md"] = "\n".join(lines)
    return pages


def render_landing(site: Site) -> str:
    lines = [
        marker("taxonomy.toml and seeds/"),
        "",
        "# PR 精读笔记",
        "",
        INTRO,
        "",
        *today(),
        *_more(site),
        *subsystem_listing(site),
        *subsystem_toctrees(site),
        *hidden_toctree((contract.DIGESTS_INDEX, contract.WEEK_INDEX, contract.READING_INDEX, contract.WATCHLIST), "阅读与跟进"),
        *hidden_toctree((contract.SYMBOLS, contract.TAGS_INDEX, contract.PR_INDEX), "索引"),
    ]
    return "\n".join(lines)


# --- 订阅: every Atom feed of the site, for a reader to pick what they follow ---


FEEDS_INTRO = (
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
        escape(FEEDS_INTRO),
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
